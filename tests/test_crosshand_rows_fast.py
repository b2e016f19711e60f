"""The cheap forms of the per-hand cross-hand row (``auditor/crosshand_rows.py``) against the plain
ones they replace: the fast-fold pool test looks for its words in the lowered text before the
case-insensitive regex runs (never missing a match of the regex), and the whole-text fingerprint is
one digest of the joined text (the same digest as fed line by line), made once with the
duplicate-id check's line prints (``auditor/handprint.py``)."""

from __future__ import annotations

import hashlib
import re
import sys
import zlib

from hypothesis import given
from hypothesis import strategies as st

from auditor import crosshand_rows as R
from auditor.handprint import first_difference
from auditor.model import Seat
from auditor.rules.hand import fingerprint

_WORDISH = st.sampled_from(["zoom", "Zoom", "RUSH", "rushandcash", "go fast", "Fast Forward", "fastfold", "fast-fold",
                            "snap", "Blaze", "JET", "speed poker", "Zone Poker", "ruſh", "faſt", "ſnap", "ſpeed poker",
                            "\u212aing", "poKer", "İ", "ı", " ", "\n", "-", "Table 'x'", "Hold'em"])  # fmt: skip
_TEXT = st.lists(st.one_of(_WORDISH, st.text(max_size=6)), max_size=8).map("".join)


@given(_TEXT)
def test_the_pool_words_never_miss_a_match_of_the_regex(text: str) -> None:
    if R.POOL_RE.search(text):
        assert R._maybe_pool(text)


def test_the_long_s_and_the_kelvin_sign_are_pool_words_as_the_regex_reads_them() -> None:
    for text in ("Ruſh table", "ZOOM", "Speed Po\u212aer", "zone po\u212aer"):
        assert R.POOL_RE.search(text) and R._maybe_pool(text)
    assert not R._maybe_pool("PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD)")


def _incremental(lines: list[str]) -> str:
    h = hashlib.blake2b(digest_size=12)
    for line in lines:
        h.update(line.rstrip().encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


_LINES = st.lists(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xDFFF)), max_size=6)


@given(_LINES)
def test_the_text_fingerprint_is_the_digest_fed_line_by_line(lines: list[str]) -> None:
    assert R.fingerprint_text(lines) == _incremental(lines)


@given(_LINES)
def test_the_line_fingerprint_is_the_text_digest_then_a_crc_of_each_stripped_line(lines: list[str]) -> None:
    crcs = b"".join(zlib.crc32(x.rstrip().encode("utf-8", "surrogatepass")).to_bytes(4, "little") for x in lines)
    want = bytes.fromhex(_incremental(lines)) + crcs
    assert fingerprint(lines) == want
    assert fingerprint(tuple(lines)) == want
    assert fingerprint(tuple(lines)) == want  # (the kept value of the last tuple)


@given(_LINES, _LINES)
def test_the_first_difference_is_the_first_line_that_differs(a: list[str], b: list[str]) -> None:
    stripped_a, stripped_b = [x.rstrip() for x in a], [x.rstrip() for x in b]
    n = first_difference(fingerprint(a), fingerprint(b))
    assert stripped_a[:n] == stripped_b[:n]  # (a CRC collision could only make n later)
    if n < min(len(a), len(b)):
        assert stripped_a[n] != stripped_b[n]
    else:
        assert n == min(len(a), len(b))


def test_the_anonymised_names_first_characters_are_every_one_the_regex_can_start_with() -> None:
    # (each alternative of ANON_RE starts with one of these letters; the case-insensitive match of a
    # letter is the same for a literal as for a class, and re folds no code point to two)
    starts = re.compile(r"(?:b|s|d|u|m|h|c)", re.IGNORECASE)
    firsts = {chr(i) for i in range(sys.maxunicode + 1) if starts.match(chr(i))}
    assert firsts == R._ANON_FIRST
    alternatives = R.ANON_RE.pattern.removeprefix("^(?:").removesuffix(r")(?: \[me\])?$").split("|")
    assert len(alternatives) == 11 and {a[0] for a in alternatives} == set("bsdumhc")


_SEAT_NAME = st.one_of(st.sampled_from(["Big Blind", "small blind [me]", "ſB", "UTG+2", "utg3", "MP1", "hj", "CO",
                                        "dealer", "Button", "bob", "Sam", "co2", "BB [me]", "sb\n"]),
                       st.text(max_size=20))  # fmt: skip


@given(st.lists(_SEAT_NAME, max_size=9))
def test_the_anonymised_seat_test_is_the_regex_on_every_seat(names: list[str]) -> None:
    seats = [Seat(i + 1, name, 100, i + 2) for i, name in enumerate(names)]
    assert R._anonymised(seats) == any(R.ANON_RE.match(name) for name in names)


def test_the_base_columns_are_the_hands_attributes() -> None:
    from auditor.formats import Chunk, parse_chunk
    from auditor.pipeline import Summary, iter_chunks
    from tests.conftest import FIXTURES

    n = 0
    for item in iter_chunks([str(FIXTURES / "sites")], Summary()):
        if isinstance(item, Chunk) and (hand := parse_chunk(item)[0]) is not None:
            assert R.base_columns(hand) == {k: getattr(hand, k) for k in R.BASE_NAMES}
            n += 1
    assert n > 50
