"""A line rule translated to one regex (``auditor.formats.pegline``) reads a line exactly as
parsimonious does: same end (or the same failure), same terminals and groups in the same order.

Checked on every line of every fixture and corpus file against every translated rule of every
grammar (the header and the multi-terminal body rules such as ``total``), on lines cut and
altered at random, and on small grammars built to sit on PEG's differences from regex matching
(ordered choice, greedy repetition that never gives back, repetition stopping at the end of the
text, lookahead).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parsimonious.exceptions import ParseError
from parsimonious.grammar import Grammar

from auditor.formats import REGISTRY
from auditor.formats.peg import PegGrammar, _regex_parts
from auditor.formats.pegline import compile_line
from auditor.ingest import expand_paths
from tests.conftest import FIXTURES, corpus_dir


def parsimonious_reads(expr: Any, line: str) -> tuple[int, list[tuple[str, dict[str, Any]]]] | None:
    try:
        node = expr.match(line)
    except ParseError:
        return None
    parts: list[tuple[str, dict[str, Any]]] = []
    _regex_parts(node, parts)
    return node.end, parts


def text_grammars() -> list[PegGrammar]:
    fs = REGISTRY.formats
    formats = fs.values() if isinstance(fs, dict) else fs
    return [f.peg for f in formats if f.reader_module is None]


def translated(g: PegGrammar) -> list[tuple[Any, Any]]:
    """(parsimonious expression, LineRegex) of every rule of ``g`` the fast path reads as one regex."""
    out = [(r.expr, r.fast) for r in g.lines if r.fast is not None]
    plan = g.head_plan
    if plan is not None and plan.header_fast is not None:
        out.append((plan.header, plan.header_fast))
    return out


def lines_under(*dirs: Path) -> list[str]:
    seen: set[str] = set()
    for d in dirs:
        for p in expand_paths([str(d)]):
            try:
                text = Path(p).read_bytes().decode("utf-8", errors="replace")
            except OSError:
                continue
            for line in io.StringIO(text).read().splitlines():
                line = line.lstrip("\ufeff")
                if line and len(line) < 400:
                    seen.add(line)
    return sorted(seen)


def check(rules: list[tuple[Any, Any]], lines: list[str]) -> int:
    n = 0
    for expr, fast in rules:
        for line in lines:
            assert fast.match(line) == parsimonious_reads(expr, line), (expr.name, line)
            n += 1
    return n


def test_every_grammar_translates_its_header_and_total() -> None:
    names = {g.format: [e.name for e, _ in translated(g)] for g in text_grammars()}
    assert "header" in names["pokerstars"] and "total" in names["pokerstars"]
    assert "header" in names["ggpoker"] and "header" in names["winamax"]


def test_fixture_lines_read_alike() -> None:
    lines = lines_under(FIXTURES / "sites")
    assert len(lines) > 500
    for g in text_grammars():
        check(translated(g), lines)


def test_corpus_lines_read_alike() -> None:
    root = corpus_dir()
    if not root.is_dir():
        pytest.skip(f"corpus not present at {root}")
    for g in text_grammars():
        # a grammar's own site's lines, and the PokerStars-family lines (most shapes) for every grammar
        site_dirs = [root / d for d in ("pokerstars", "ggpoker", "winamax") if (root / d).is_dir()]
        own = root / g.format
        lines = lines_under(*(site_dirs + ([own] if own.is_dir() and own not in site_dirs else [])))
        check(translated(g), [ln for ln in lines if ln[:1] in "PTMSGWH*-#0123456789"] or lines)


_STARS = REGISTRY.get("pokerstars")
_STARS_RULES = translated(_STARS.peg) if _STARS is not None else []
_SAMPLES = [
    "PokerStars Hand #123456789: Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 12:00:00 ET",
    "PokerStars Hand #123456789: Tournament #99, $1+$0.10 USD Hold'em No Limit - Level I (10/20) - "
    "2020/01/01 12:00:00 CET [2020/01/01 6:00:00 ET]",
    "Total pot $1.23 | Rake $0.05",
    "Total pot $10.50 Main pot $6.00. Side pot-1 $4.00. | Rake $0.50",
    "Total pot 3,400 Main pot 2,000. Side pot-1 1,000. Side pot-2 400. | Rake 0",
    "Total pot $0.55 | No rake",
]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(_SAMPLES),
    st.integers(0, 200),
    st.integers(0, 200),
    st.text(" .|$0123456789-kPotMainSide", max_size=6),
)
def test_altered_lines_read_alike(line: str, cut: int, at: int, insert: str) -> None:
    variants = [line[:cut], line[:at] + insert + line[at:], line + insert]
    check(_STARS_RULES, variants)


_EDGE = Grammar(r"""
    choice   = (ab / a) c
    ab       = ~r"(?P<x>a)b"
    a        = ~r"(?P<y>a)"
    c        = ~r"b?c"
    greedy   = rep ~r"(?P<last>a)?"
    rep      = ~r"(?P<r>a)"*
    atend    = ~r"x" opt
    opt      = ~r"(?P<e>)"?
    look     = &~r"(?P<p>ab)" ~r"(?P<q>a)" !~r"c" ~r"b"
    mixed    = ~r"(?P<k>[a-z])" (~r"(?P<n>\d)(?P<m>!)?" / ~r"(?P<o>-)")* ~r"(?i)z"?
    plus     = ~r"(?P<w>a|)"+ "b"
    optempty = ~r"(?P<e>)"? ~r"(?P<f>x?)"? "x"
    pots     = ~r"(?P<h>a)" (~r" (?P<p>\d)" / ~r" (?P<q>[a-z]+)")* ~r"(?P<t> !)"? ~r"$"
""")


@pytest.mark.parametrize("rule", ["choice", "greedy", "atend", "look", "mixed", "plus", "optempty", "pots"])
@pytest.mark.parametrize(
    "line",
    [
        "",
        "a",
        "ab",
        "abc",
        "ac",
        "aab",
        "aaa",
        "x",
        "xy",
        "abd",
        "a1!2-3z",
        "b1",
        "q-1!-",
        "aaab",
        "b",
        "xx",
        "a 1 bc 2 !",
        "a 1 x",
        "a 12",
    ],
)
def test_peg_differences_from_regex(rule: str, line: str) -> None:
    fast = compile_line(_EDGE[rule])
    if fast is None:
        return  # not translated: parsimonious reads it
    assert fast.match(line) == parsimonious_reads(_EDGE[rule], line)
