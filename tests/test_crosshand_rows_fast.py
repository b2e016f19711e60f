"""The cheap forms of the per-hand cross-hand row (``auditor/crosshand_rows.py``) against the plain
ones they replace: the fast-fold pool test looks for its words in the lowered text before the
case-insensitive regex runs (never missing a match of the regex), and the whole-text fingerprint is
one digest of the joined text (the same digest as fed line by line)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from auditor.crosshand_rows import POOL_RE, _maybe_pool, fingerprint_text
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
def test_the_line_fingerprint_is_eight_bytes_of_each_stripped_line(lines: list[str]) -> None:
    want = b"".join(hashlib.blake2b(x.rstrip().encode("utf-8", "surrogatepass"), digest_size=8).digest() for x in lines)
    assert fingerprint(lines) == want
