"""Microgaming (MPN) XML hands: corpus parse rate against an independent count of <Game> elements,
the card, and mutations of real hands caught with their code and line."""

from __future__ import annotations

import re

from auditor.formats import REGISTRY
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import audit_text, codes_at, line_of, parse_rate

# a <Game> element per hand; the folder also holds one 888 (Cassava) file, Seats/HeadsUp.txt, whose
# hands start "#Game No : N" and are read by the 888 format
GAME = re.compile(r'^\s*(?:\ufeff)?(?:<Game (?:hhversion="\d+" )?id="\d+"|#Game No : \d+)', re.M)


def test_corpus_parse_rate() -> None:
    folder = corpus_dir("microgaming")
    r = parse_rate(folder, GAME)
    assert r.seen == r.parsed + r.failed
    assert r.headers == r.seen, (r.headers, r.seen)
    assert r.rate >= 0.995, r.failures
    assert all(f.line for f in r.failures)


# The folder's serious findings are checked against tests/corpus_expected/microgaming{.tsv,.open.tsv}
# by tests/test_corpus_expected.py, with every other folder's.


def test_sniff_and_card() -> None:
    fmt = REGISTRY["microgaming"]
    assert fmt.is_document and fmt.supported
    assert REGISTRY.sniff_document("----PRIMA.DAT----") is fmt
    assert REGISTRY.sniff_document('\ufeff<Game hhversion="4" id="5049091349" date="2013-09-23 14:27:33"') is fmt
    assert REGISTRY.sniff_document('<Game id="2979859578" date="2009-11-23 22:38:43"') is fmt
    assert fmt.facts.prints_uncalled is False
    assert fmt.facts.prints_total_pot is False


def _fixture(name: str) -> str:
    return (FIXTURES / "sites" / "microgaming" / f"{name}.txt").read_text("utf-8")


def test_clean_fixtures_audit_clean() -> None:
    for p in sorted((FIXTURES / "sites" / "microgaming").glob("*.txt")):
        found = [f for f in audit_text(p.read_text("utf-8")) if f.code[0] in "BSAHP"]
        assert found == [], (p.name, found)


def test_generations_read_their_amounts() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    # before hhversion: a call and a raise print the new street total ("Call 0.20" by the big blind)
    (h,) = [x for x in parse_text(_fixture("cash_nlhe_call_raise_totals_2011")) if isinstance(x, M.Hand)]
    call = next(e for e in h.events if isinstance(e, M.Action) and e.kind == "call" and e.player == "Hero")
    assert (call.increment, call.to) == (10, 20)
    # 2009: the part of a bet beyond the all-in goes back outside the win (the end balance says so)
    (h,) = [x for x in parse_text(_fixture("cash_nlhe_silent_return_2009")) if isinstance(x, M.Hand)]
    assert [(e.player, e.amount) for e in h.events if isinstance(e, M.UncalledReturn)] == [("Player0", 2595)]


def _mutant(name: str, old: str, new: str) -> tuple[str, int]:
    text = _fixture(name)
    assert text.count(old) == 1, old
    mutated = text.replace(old, new)
    return mutated, line_of(mutated, new)


# -- mutations of real hands: each injected violation is found with its code at its line


def test_mutation_collect_one_unit_more() -> None:
    mutated, line = _mutant(
        "cash_plo_posted_to_play_v5_2016", '<Seat num="1" amount="50.00"', '<Seat num="1" amount="50.01"'
    )
    assert ("A010", line - 1) in codes_at(audit_text(mutated))  # on the <Action type="Win"> line


def test_mutation_uncalled_return_changed() -> None:
    mutated, line = _mutant("cash_nlhe_money_returned_v4", 'type="MoneyReturned" seat="6" value="38.32"',
                            'type="MoneyReturned" seat="6" value="28.32"')  # fmt: skip
    found = codes_at(audit_text(mutated))
    assert ("A001", line) in found or any(c == "A010" for c, _ in found), found


def test_mutation_wager_beyond_stack() -> None:
    mutated, line = _mutant("cash_nlhe_call_raise_totals_2011", 'type="Bet" seat="5" value="0.30"',
                            'type="Bet" seat="5" value="30.30"')  # fmt: skip
    assert ("S001", line) in codes_at(audit_text(mutated))


def test_mutation_duplicated_card() -> None:
    # the flop's 5c becomes the Td Hero holds
    mutated, _ = _mutant("cash_nlhe_silent_return_2009", '<Card value="5" suit="c" id="17"/>',
                         '<Card value="10" suit="d" id="35"/>')  # fmt: skip
    flop = line_of(mutated, 'type="DealFlop"')
    assert ("H002", flop) in codes_at(audit_text(mutated))


def test_mutation_out_of_turn() -> None:
    # seat 3 (the big blind's left) folds before seat 2 in the site's numbering
    text = _fixture("cash_plo_posted_to_play_v5_2016")
    mutated = text.replace('seq="5" type="Fold" seat="2"', 'seq="X" type="Fold" seat="2"')
    mutated = mutated.replace('seq="6" type="Fold" seat="3"', 'seq="5" type="Fold" seat="3"')
    mutated = mutated.replace('seq="X" type="Fold" seat="2"', 'seq="6" type="Fold" seat="2"')
    assert any(c == "B004" for c, _ in codes_at(audit_text(mutated)))


def test_mutation_pot_to_the_loser() -> None:
    mutated, line = _mutant(
        "cash_nlhe_silent_return_2009", '<Seat num="2" amount="35.44"', '<Seat num="5" amount="35.44"'
    )
    found = codes_at(audit_text(mutated))
    assert ("A004", line) in found or ("A005", line) in found, found


def test_mutation_raise_below_minimum() -> None:
    # facing a bet of 0.80 on the turn, a raise must go to at least 1.60
    mutated, line = _mutant("cash_nlhe_call_raise_totals_2011", 'type="Raise" seat="6" value="1.60"',
                            'type="Raise" seat="6" value="1.00"')  # fmt: skip
    assert ("B002", line) in codes_at(audit_text(mutated))


def test_explain_works() -> None:
    from auditor.cli import main

    p = FIXTURES / "sites" / "microgaming" / "cash_nlhe_silent_return_2009.txt"
    assert main(["explain", str(p), "--hand", "2979859578"]) == 0


def test_posted_to_play_dead_small_blind_from_the_end_balance() -> None:
    # 2011: player1 posts to play 0.10 (PostedToPlay); his endbalance (9.85 from 10.00, no win)
    # shows the dead small blind 0.05 taken too: recorded as a derived dead post after the post
    from auditor import model as M
    from auditor.formats import parse_text

    text = _class_fixture("cash_nlhe_posted_to_play_dead_sb_2011")
    (h,) = [x for x in parse_text(text) if isinstance(x, M.Hand)]
    posts = [(e.player, e.kind, e.amount, e.derived) for e in h.events if isinstance(e, M.Post)]
    assert ("player1", "big_blind", 10, False) in posts
    assert ("player1", "dead_small_blind", 5, True) in posts
    assert [f for f in audit_text(text) if f.code[0] in "BSAHP"] == []


def test_mutation_posted_to_play_end_balance_without_the_dead_blind() -> None:
    # the end balance shows only the big blind taken: no dead blind is derived, and the chips the
    # pot paid out (0.30 less rake) exceed what the printed posts put in
    text = _class_fixture("cash_nlhe_posted_to_play_dead_sb_2011")
    old = 'balance="10.00" endbalance="9.85"'
    assert text.count(old) == 1
    mutated = text.replace(old, 'balance="10.00" endbalance="9.90"')
    assert "A010" in {f.code for f in audit_text(mutated)}


def _class_fixture(name: str) -> str:
    """A hand of a false-alarm class (fixtures/exports/microgaming/, checked against its golden by
    tests/test_golden.py)."""
    return (FIXTURES / "exports" / "microgaming" / f"{name}.txt").read_text("utf-8")
