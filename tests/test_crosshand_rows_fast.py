"""The cheap forms of the per-hand cross-hand row (``auditor/crosshand_rows.py``) against the plain
ones they replace: the fast-fold pool test looks for its words in the lowered text before the
case-insensitive regex runs (never missing a match of the regex), and the whole-text fingerprint is
one digest of the joined text (the same digest as fed line by line), made once with the
duplicate-id check's line prints (``auditor/handprint.py``)."""

from __future__ import annotations

import hashlib
import zlib

from hypothesis import given
from hypothesis import strategies as st

from auditor.crosshand_rows import POOL_RE, _maybe_pool, fingerprint_text
from auditor.handprint import first_difference
from auditor.rules.hand import fingerprint

_WORDISH = st.sampled_from(["zoom", "Zoom", "RUSH", "rushandcash", "go fast", "Fast Forward", "fastfold", "fast-fold",
                            "snap", "Blaze", "JET", "speed poker", "Zone Poker", "ruſh", "faſt", "ſnap", "ſpeed poker",
                            "\u212aing", "poKer", "İ", "ı", " ", "\n", "-", "Table 'x'", "Hold'em"])  # fmt: skip
_TEXT = st.lists(st.one_of(_WORDISH, st.text(max_size=6)), max_size=8).map("".join)


@given(_TEXT)
def test_the_pool_words_never_miss_a_match_of_the_regex(text: str) -> None:
    if POOL_RE.search(text):
        assert _maybe_pool(text)


def test_the_long_s_and_the_kelvin_sign_are_pool_words_as_the_regex_reads_them() -> None:
    for text in ("Ruſh table", "ZOOM", "Speed Po\u212aer", "zone po\u212aer"):
        assert POOL_RE.search(text) and _maybe_pool(text)
    assert not _maybe_pool("PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD)")


def _incremental(lines: list[str]) -> str:
    h = hashlib.blake2b(digest_size=12)
    for line in lines:
        h.update(line.rstrip().encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


_LINES = st.lists(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xDFFF)), max_size=6)


@given(_LINES)
def test_the_text_fingerprint_is_the_digest_fed_line_by_line(lines: list[str]) -> None:
    assert fingerprint_text(lines) == _incremental(lines)


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
