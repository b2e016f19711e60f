"""The fast path's tuple readers (``auditor.formats.quick``): a rule's regex as that module extends
it matches exactly as the grammar's own regex does, and the values it hands over are the ones the
rule's handler reads from the groupdict (``g["name"]`` / ``g.get("name")``).

Checked on every line of every fixture file (and of the PokerStars, GGPoker and Winamax corpus
folders when present) against every rule a reader reads, in every text grammar; the plan's
refusals (a required group missing, a group the handler reads its own way, a verbose pattern) are
checked on small patterns.  That the readers do what the handlers do is checked on whole hands by
tests/test_fast_path.py (fast path == full parse on every fixture and corpus hand).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.formats import vocab as V
from auditor.formats.peg import HANDLERS, PegGrammar
from auditor.formats.quick import FIELDS, READERS, plan
from tests.conftest import FIXTURES, corpus_dir
from tests.test_pegline import lines_under, text_grammars


def quick_rules(g: PegGrammar) -> list[tuple[str, re.Pattern[str], re.Pattern[str], tuple[int, ...]]]:
    """(handler, the grammar's regex, the extended regex, group numbers) of every body rule of ``g``
    a reader reads, and the head's seat rule."""
    out = []
    for r in g.lines:
        if r.regex is None:
            continue
        p = plan(r.handler, r.regex)
        if p is not None:
            out.append((r.handler, r.regex, p[0], p[1]))
    if g.head_plan is not None and g.head_plan.seat_values is not None:
        seat = g.grammar["seat"].re  # the grammar's own (the plan keeps the extended one)
        own = re.compile(seat.pattern, seat.flags & 0xFF)
        out.append(("seat", own, g.head_plan.seat, g.head_plan.seat_values))
    return out


def expected(handler: str, m: re.Match[str]) -> tuple[Any, ...]:
    required, optional, _ = FIELDS[handler]
    g = m.groupdict()
    return tuple(g[n] for n in required) + tuple(g.get(n) for n in optional)


def check(g: PegGrammar, lines: list[str]) -> int:
    n = 0
    for handler, own, ext, groups in quick_rules(g):
        width = len(FIELDS[handler][0]) + len(FIELDS[handler][1])
        for line in lines:
            m, x = own.match(line), ext.match(line)
            assert (m is None) == (x is None), (g.format, handler, line)
            if m is None or x is None:
                continue
            assert m.span() == x.span() and m.groupdict() == x.groupdict(), (g.format, handler, line)
            assert x.group(*groups)[:width] == expected(handler, m), (g.format, handler, line)
            n += 1
    return n


def test_the_hot_rules_of_the_pokerstars_family_are_read_as_tuples() -> None:
    by_format = {g.format: {h for h, *_ in quick_rules(g)} for g in text_grammars()}
    for site in ("pokerstars", "ggpoker", "winamax"):
        assert {"action", "post", "street", "summary_seat", "seat"} <= by_format[site], site


def test_every_reader_stands_for_a_handler() -> None:
    assert set(READERS) == set(FIELDS)
    assert set(READERS) <= set(HANDLERS)


def test_fixture_lines_give_the_handlers_values() -> None:
    lines = lines_under(FIXTURES / "sites")
    assert len(lines) > 500
    assert sum(check(g, lines) for g in text_grammars()) > 1000


def test_corpus_lines_give_the_handlers_values() -> None:
    root = corpus_dir()
    if not root.is_dir():
        pytest.skip(f"corpus not present at {root}")
    dirs = [root / d for d in ("pokerstars", "ggpoker", "winamax") if (root / d).is_dir()]
    lines = lines_under(*dirs)
    for g in text_grammars():
        if g.format in ("pokerstars", "ggpoker", "winamax"):
            assert check(g, lines) > 1000, g.format


def test_the_plan_leaves_what_it_does_not_cover_to_the_handler() -> None:
    ok = plan("action", re.compile(r"(?P<player>\w+): (?P<verb>calls)(?: (?P<amount>\d+))?"))
    assert ok is not None
    ext, groups = ok
    m = ext.match("Ann: calls 5")
    assert m is not None and m.group(*groups) == ("Ann", "calls", "5", None, None, None, None, None, None)
    assert plan("action", re.compile(r"(?P<player>\w+): calls")) is None  # no verb group: the handler's KeyError
    assert plan("post", re.compile(r"(?P<player>\w+) (?P<kind>\w+) (?P<dead>\d+)")) is None  # read its own way
    assert plan("action", re.compile(r"(?P<player>\w+): (?P<verb>calls) # x", re.VERBOSE)) is None
    assert plan("info", re.compile(r"(?P<player>.+)")) is None  # no reader
    # one value: still a tuple (Match.group of one number gives the value itself)
    one = plan("board", re.compile(r"Board \[(?P<cards>[^\]]*)\]"))
    assert one is not None and len(one[1]) == 2
    # a top-level alternation keeps its meaning (the pattern is wrapped before the group is added)
    alt = plan("muck", re.compile(r"(?P<player>a)|(?P<cards>b)x"))
    assert alt is None or alt[0].fullmatch("a") is not None


_CARD = st.sampled_from([r + s for r in ("10", *"23456789TJQKAX") for s in "shdcxX"] + ["X"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_CARD, min_size=1, max_size=7))
def test_plain_cards_read_as_the_general_reading_does(cards: list[str]) -> None:
    text = " ".join(cards)
    assert V._PLAIN_CARDS.fullmatch(text)
    assert V.cards_of(text) == V._read_cards(text) == tuple(cards)
