"""``firstchars.first_chars`` never leaves out a character a rule's match can start with, and
``firstchars.required_literal`` is in every line a rule matches: the fast path skips a rule on a
line only when the rule could not have matched it (issue 16)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.formats.firstchars import first_chars, required_literal
from tests.conftest import FIXTURES, corpus_dir
from tests.test_pegline import lines_under, text_grammars


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"Seat \d", {"S"}),
        (r"(?:FIRST |SECOND )?Board", {"F", "S", "B"}),
        (r"[A-C]x|\*\*", {"A", "B", "C", "*"}),
        (r"(?=Ab)A", {"A"}),
        (r"(?P<player>.+?): ", None),
        (r"[^x]", None),
        (r"a?", None),
        (r"(?i:a)b", None),
        (r"\w", None),
        (r"(a)\1", {"a"}),
        (r"(?>ab|c)d", {"a", "c"}),
        (r"x*+y", {"x", "y"}),
    ],
)
def test_first_chars(pattern: str, expected: set[str] | None) -> None:
    got = first_chars(re.compile(pattern))
    assert (None if got is None else set(got)) == expected


def test_ignore_case_is_any() -> None:
    assert first_chars(re.compile("abc", re.IGNORECASE)) is None


def _sound(rx: re.Pattern[str], lines: list[str]) -> None:
    firsts = first_chars(rx)
    if firsts is None:
        return
    for line in lines:
        if rx.match(line) is not None:
            assert line[:1] in firsts, (rx.pattern[:80], line)


def test_grammar_rules_on_fixture_and_corpus_lines() -> None:
    """Each grammar line rule's first characters and required literal (see ``required_literal``
    below) hold on every fixture and corpus line it matches."""
    dirs = [FIXTURES / "sites"]
    root = corpus_dir()
    dirs += [root / d for d in ("pokerstars", "ggpoker", "winamax") if (root / d).is_dir()]
    lines = lines_under(*dirs)
    for g in text_grammars():
        for r in g.lines:
            if r.regex is not None:
                _sound(r.regex, lines)
                _needed(r.regex, lines)  # (below)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "b", "[ab]", "(?:a|b)", "a?", "b*", "(?=a)", "c+", "(?:ab)?", "$", "\\*"]),
        min_size=1,
        max_size=5,
    ),
    st.text("abc*", max_size=6),
)
def test_random_patterns_sound(parts: list[str], line: str) -> None:
    rx = re.compile("".join(parts))
    _sound(rx, [line])


# --------------------------------------------------------------------------- required literals
@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"(?P<player>.+?): (?P<verb>folds|checks)", ": "),
        (r"(?:(?P<player>.+?): )shows \[(?P<cards>.*)\]", ": shows ["),
        (r"(?P<player>.+?) collected (?P<amount>\d+) from pot", " collected "),
        (r"a(?:bc)?d", "a"),
        (r"ab|cd", ""),
        (r"x(?:abcd)+y", "abcd"),
        (r"x(?:abcd)*y", "x"),
        (r"(?>ab)c", "abc"),
        (r"a(?=b)c", "a"),
        (r"(?i:abc)de", "de"),
        (r"[ab]bc", "bc"),
    ],
)
def test_required_literal(pattern: str, expected: str) -> None:
    assert required_literal(re.compile(pattern)) == expected


def test_required_literal_ignore_case_is_none() -> None:
    assert required_literal(re.compile("abc", re.IGNORECASE)) == ""


def _needed(rx: re.Pattern[str], lines: list[str]) -> None:
    needs = required_literal(rx)
    if not needs:
        return
    for line in lines:
        if rx.match(line) is not None:
            assert needs in line, (rx.pattern[:80], needs, line)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "b", "ab", "[ab]", "(?:a|b)", "a?", "b*", "(?=a)", "c+", "(?:ab)?", "(?:ca)+", "(?>bc)"]),
        min_size=1,
        max_size=5,
    ),
    st.text("abc", max_size=8),
)
def test_random_patterns_need_their_literal(parts: list[str], line: str) -> None:
    rx = re.compile("".join(parts))
    _needed(rx, [line])
