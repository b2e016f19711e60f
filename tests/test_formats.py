"""The format registry: a new format is one grammar and one card; detection comes from the grammar;
facts and house rules come from the card; ``--rules`` changes the rule book, never the facts."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.formats import REGISTRY, parse_text
from auditor.formats.peg import compose
from auditor.model import Hand
from auditor.profiles import PROFILES

TOY_PEG = r"""
# A toy site: PokerStars-family body lines under its own header and table lines.
header      = ~r"Toy Poker Game (?P<hand_id>\d+) \| (?P<structure>NL) (?P<game>Hold.em) (?P<sb>\d)/(?P<bb>\d)<<f_eol>>"
table       = ~r"Table (?P<table>\w+), (?P<max_seats>\d+) seats, button (?P<button>\d+)<<f_eol>>"
"""

TOY_CARD = """
name = "toy"
title = "Toy Poker"
grammars = ["_base", "_stars", "toy"]
detect = "header"

[facts]
prints_uncalled = false

[profile]
title = "Toy Poker house rules"
citations_from = "tda"
"""

TOY_HAND = """Toy Poker Game 7 | NL Hold'em 1/2
Table Lilac, 6 seats, button 3
Seat 1: Ann (200 in chips)
Seat 2: Bob (200 in chips)
Seat 3: Cat (200 in chips)
Ann: posts small blind 1
Bob: posts big blind 2
*** HOLE CARDS ***
Cat: raises 2 to 4
Ann: raises 1 to 5
Bob: folds
Cat: folds
Ann collected 11 from pot
*** SUMMARY ***
Total pot 11 | Rake 0
Seat 1: Ann (small blind) collected (11)
Seat 2: Bob (big blind) folded before Flop
Seat 3: Cat (button) folded before Flop
"""


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "formats"
    d.mkdir()
    (d / "toy.peg").write_text(TOY_PEG, "utf-8")
    (d / "toy.toml").write_text(TOY_CARD, "utf-8")
    REGISTRY.add_directory(d)
    try:
        yield d
    finally:
        REGISTRY.remove_directory(d)


def test_a_toy_format_from_a_directory_is_audited_end_to_end(toy: Path, tmp_path: Path) -> None:
    src = tmp_path / "toy.txt"
    src.write_text(TOY_HAND, "utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["audit", str(src), "--format", "json", "--fail-on", "error"])
    doc = json.loads(out.getvalue())
    assert doc["summary"]["hands_seen"] == doc["summary"]["hands_parsed"] == 1
    found = [(f["code"], f["line"], f["site"]) for f in doc["findings"]]
    # Ann's re-raise to 5 is 1 more than Cat's raise to 4, below the minimum raise of 2
    assert found == [("B002", 10, "toy")]
    assert "Toy Poker house rules" not in doc["findings"][0]["message"]  # cites the rule book, not the title
    assert code == 1
    # the card's facts: the toy site prints no "Uncalled bet" lines: the 1 returned to Ann is
    # inside her collected 11, and no A001
    assert REGISTRY["toy"].facts.prints_uncalled is False
    assert "toy" in PROFILES and PROFILES["toy"].title == "Toy Poker house rules"


def test_toy_detection_is_the_grammar_header(toy: Path) -> None:
    assert REGISTRY.detect("Toy Poker Game 7 | NL Hold'em 1/2") == "toy"
    assert REGISTRY.detect("Toy Poker Game x") is None  # the grammar's pattern, not a looser copy
    hands = [h for h in parse_text(TOY_HAND) if isinstance(h, Hand)]
    assert [(h.site, h.hand_id, h.big_blind, h.button) for h in hands] == [("toy", "7", 2, 3)]


def test_unknown_format_is_never_judged_by_another_formats_facts(toy: Path) -> None:
    hand = next(h for h in parse_text(TOY_HAND) if isinstance(h, Hand))
    orphan = replace(hand, site="nosuchformat")
    with pytest.raises(KeyError, match="no format card"):
        REGISTRY.facts_for(orphan)


def test_every_format_gets_facts_from_its_own_card() -> None:
    ws = REGISTRY["winamax"]
    assert ws.facts.prints_uncalled is False and ws.facts.total_net_of_rake is True
    ps = REGISTRY["pokerstars"]
    assert ps.facts.pot_boundaries == "allin_boundaries"
    assert ps.facts_for("9stacks").total_net_of_rake is True and ps.facts_for("PokerStars").total_net_of_rake is False


def test_fragment_super_extends_the_earlier_definition(tmp_path: Path) -> None:
    (tmp_path / "a.peg").write_text('f_verb = ~r"folds|checks"\nx = ~r"<<f_verb>>"\n', "utf-8")
    (tmp_path / "b.peg").write_text('f_verb = ~r"<<super>>|Bet & Muck"\n', "utf-8")
    text = compose([tmp_path / "a.peg", tmp_path / "b.peg"])
    assert 'x = ~r"(?:folds|checks|Bet & Muck)"' in text
    (tmp_path / "c.peg").write_text('f_other = ~r"<<super>>|x"\n', "utf-8")
    with pytest.raises(ValueError, match="extends <<super>>"):
        compose([tmp_path / "c.peg"])


def test_a_document_format_is_found_by_the_suffix_its_card_lists() -> None:
    """``Registry.document_for`` (asked once a file) answers as a search of every supported card does."""
    from auditor.formats.registry import Registry

    r = Registry()
    docs = [f for f in r.supported() if f.is_document and f.suffixes]
    assert docs
    for f in docs:
        for suffix in f.suffixes:
            want = next(g for g in r.supported() if g.is_document and g.suffixes and suffix in g.suffixes)
            assert r.document_for(f"/some/Dir/hands{suffix.upper()}") is want
    assert r.document_for("/some/dir/hands.txt") is None
