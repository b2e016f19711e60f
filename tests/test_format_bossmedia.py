"""Boss Media XML hands: corpus parse rate against an independent count of <HISTORY> elements, the
card, and mutations of real hands caught with their code and line."""

from __future__ import annotations

import re

from auditor.formats import REGISTRY
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import audit_text, codes_at, line_of, parse_rate

HISTORY = re.compile(r'<HISTORY ID="\d+"')


def test_corpus_parse_rate() -> None:
    folder = corpus_dir("bossmedia")
    r = parse_rate(folder, HISTORY)
    assert r.seen == r.parsed + r.failed
    assert r.headers == r.seen, (r.headers, r.seen)
    assert r.rate >= 0.995, r.failures
    assert all(f.line for f in r.failures)


# The folder's serious findings are checked against tests/corpus_expected/bossmedia{.tsv,.open.tsv}
# by tests/test_corpus_expected.py, with every other folder's.


def test_sniff_and_card() -> None:
    fmt = REGISTRY["bossmedia"]
    assert fmt.is_document and fmt.supported
    assert REGISTRY.sniff_document("<ROOT>") is fmt
    assert REGISTRY.sniff_document('\ufeff<HISTORY ID="2022113533" SESSION="session1185040171.xml"') is fmt
    assert fmt.facts.prints_uncalled is False
    assert fmt.facts.total_net_of_rake is True


def test_xml_declaration_then_root_is_boss_media_not_ipoker() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    # the file as the site writes it: an XML declaration (iPoker's first line too), then <ROOT>
    text = '<?xml version="1.0" encoding="UTF-8"?>\n<ROOT>\n' + _fixture("cash_nlhe_no_dealer_2010") + "</ROOT>\n"
    hands = [h for h in parse_text(text) if isinstance(h, M.Hand)]
    assert [h.site for h in hands] == ["bossmedia"]
    assert hands[0].button == 1  # no DEALER printed: the seat before the small blind (seat 2)


def _fixture(name: str) -> str:
    return (FIXTURES / "sites" / "bossmedia" / f"{name}.txt").read_text("utf-8")


def test_clean_fixtures_audit_clean() -> None:
    for p in sorted((FIXTURES / "sites" / "bossmedia").glob("*.txt")):
        found = [f for f in audit_text(p.read_text("utf-8")) if f.code[0] in "BSAHP"]
        assert found == [], (p.name, found)


def test_unprinted_antes_are_derived_and_marked() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    (h,) = [x for x in parse_text(_fixture("tournament_mtt_unprinted_antes_2011")) if isinstance(x, M.Hand)]
    antes = [e for e in h.events if isinstance(e, M.Post) and e.kind == "ante"]
    assert antes and all(e.derived for e in antes)


def _mutant(name: str, old: str, new: str) -> tuple[str, int]:
    text = _fixture(name)
    assert text.count(old) == 1, old
    mutated = text.replace(old, new)
    return mutated, line_of(mutated, new)


# -- mutations of real hands: each injected violation is found with its code at its line


def test_mutation_collect_one_unit_more() -> None:
    mutated, _ = _mutant("cash_nlhe_calls_add_2013", 'PLAYER="Player0" WIN="74.11"', 'PLAYER="Player0" WIN="74.12"')
    assert ("A010", line_of(mutated, "<SHOWDOWN")) in codes_at(audit_text(mutated))  # on the pot's line


def test_mutation_printed_pot_changed() -> None:
    # Boss Media prints no return: the uncalled part shows in the showdown's pot, which is mutated
    mutated, line = _mutant("cash_nlhe_calls_add_2013", '<SHOWDOWN NAME="HAND_SHOWDOWN" POT="74.11"',
                            '<SHOWDOWN NAME="HAND_SHOWDOWN" POT="131.11"')  # fmt: skip
    assert ("A002", line) in codes_at(audit_text(mutated))


def test_mutation_wager_beyond_stack() -> None:
    mutated, line = _mutant("cash_plo_calls_as_totals_2012", 'TYPE="ACTION_BET" PLAYER="Player3" VALUE="2.40"',
                            'TYPE="ACTION_BET" PLAYER="Player3" VALUE="24.00"')  # fmt: skip
    assert ("S001", line) in codes_at(audit_text(mutated))


def test_mutation_duplicated_card() -> None:
    # the river card (36) becomes one of Hero's (17)
    text = _fixture("cash_plo_calls_as_totals_2012")
    assert text.count('<CARD LINK="36">') == 1
    mutated = text.replace('<CARD LINK="36">', '<CARD LINK="17">')
    river = line_of(mutated, "BOARD_RIVER")
    assert ("H002", river) in codes_at(audit_text(mutated))


def test_mutation_out_of_turn() -> None:
    text = _fixture("cash_nlhe_calls_add_2013")
    fold = '<ACTION TYPE="ACTION_FOLD" PLAYER="Hero"></ACTION>\n'
    raise_ = '<ACTION TYPE="ACTION_RAISE" PLAYER="Player0" VALUE="9.00"></ACTION>\n'
    assert text.count(fold + raise_) == 1
    mutated = text.replace(fold + raise_, raise_ + fold)
    assert any(c == "B004" for c, _ in codes_at(audit_text(mutated)))


def test_mutation_pot_to_the_loser() -> None:
    text = _fixture("cash_plo_calls_as_totals_2012")
    mutated = text.replace('PLAYER="Player1" WIN="0.00"', 'PLAYER="Player1" WIN="X"')
    mutated = mutated.replace('PLAYER="Player3" WIN="8.57"', 'PLAYER="Player3" WIN="0.00"')
    mutated = mutated.replace('PLAYER="Player1" WIN="X"', 'PLAYER="Player1" WIN="8.57"')
    line = line_of(mutated, 'PLAYER="Player1" WIN="8.57"')
    found = codes_at(audit_text(mutated))
    assert ("A004", line) in found or ("A005", line) in found, found


def test_mutation_raise_below_minimum() -> None:
    # facing a bet of 8 on the flop, a raise must go to at least 16
    mutated, line = _mutant("cash_nlhe_calls_add_2013", 'TYPE="ACTION_RAISE" PLAYER="Player0" VALUE="27.00"',
                            'TYPE="ACTION_RAISE" PLAYER="Player0" VALUE="12.00"')  # fmt: skip
    assert ("B002", line) in codes_at(audit_text(mutated))


def test_explain_works() -> None:
    from auditor.cli import main

    p = FIXTURES / "sites" / "bossmedia" / "cash_nlhe_calls_add_2013.txt"
    assert main(["explain", str(p), "--hand", "1978259345"]) == 0


def test_short_big_blind_after_unprinted_antes_is_an_all_in_post() -> None:
    # 2011 MTT: stacks printed after the (unprinted) antes; the big blind printed as 600.00 beside
    # a stack of 424.00; the flop pot (3,274.00 = 4 x 600 + 424 + 9 antes of 50) shows 424 went in
    from auditor import model as M
    from auditor.formats import parse_text

    text = _class_fixture("tournament_mtt_short_big_blind_2011")
    (h,) = [x for x in parse_text(text) if isinstance(x, M.Hand)]
    bb = next(e for e in h.events if isinstance(e, M.Post) and e.kind == "big_blind")
    assert (bb.player, bb.amount, bb.all_in) == ("Player45", 42400, True)
    antes = [e for e in h.events if isinstance(e, M.Post) and e.kind == "ante"]
    assert len(antes) == 9 and {e.amount for e in antes} == {5000} and all(e.derived for e in antes)
    assert next(s.stack for s in h.seats if s.player == "Player45") == 42400 + 5000
    assert [f for f in audit_text(text) if f.code[0] in "BSAHP"] == []


def test_mutation_short_big_blind_with_a_pot_that_does_not_agree() -> None:
    # the same hand with a flop pot that the capped blind does not explain: nothing is capped, the
    # blind stays as printed and the pot is judged
    text = _class_fixture("tournament_mtt_short_big_blind_2011")
    mutated = text.replace('VALUE="BOARD_FLOP" POT="3274.00"', 'VALUE="BOARD_FLOP" POT="3284.00"')
    assert mutated != text
    assert "S001" in {f.code for f in audit_text(mutated)}


def test_button_from_the_small_blind_passes_a_newcomer_not_dealt_in() -> None:
    # hand 5854186: no DEALER printed; Player17 has just sat down on seat 2, between the button
    # (seat 1) and the small blind (seat 3), and is dealt nothing: the button is seat 1
    from auditor import model as M
    from auditor.formats import parse_text

    text = (FIXTURES / "exports" / "bossmedia" / "tournament_mtt_newcomer_waits_2011.txt").read_text("utf-8")
    hands = [x for x in parse_text(text) if isinstance(x, M.Hand)]
    assert [(h.hand_id, h.button) for h in hands] == [("5854029", 10), ("5854186", 1)]


def _class_fixture(name: str) -> str:
    """A hand of a false-alarm class (fixtures/exports/bossmedia/, checked against its golden by
    tests/test_golden.py)."""
    return (FIXTURES / "exports" / "bossmedia" / f"{name}.txt").read_text("utf-8")


def test_antes_that_do_not_divide_are_unattributed_not_guessed() -> None:
    # hand 5855055 (2011 MTT): the flop pot (1,000.00) holds 200.00 more than the 800.00 printed
    # before it, among 9 players dealt in: 8 antes of 25.00 (a newcomer paid none), which this
    # hand alone cannot attribute.  No ante is derived; the total is kept, A002/A010 judge it.
    from auditor import model as M
    from auditor.formats import parse_text

    text = _class_fixture("tournament_mtt_antes_unattributed_2011")
    (h,) = [x for x in parse_text(text) if isinstance(x, M.Hand)]
    assert not [e for e in h.events if isinstance(e, M.Post) and e.kind == "ante"]
    assert (h.extras["antes"], h.extras["antes_total"]) == ("unattributed", "20000")
    found = audit_text(text)
    assert [f.code for f in found if f.code[0] in "BSAHP"] == ["P010"]
    (p010,) = found
    assert p010.line == line_of(text, '<HISTORY ID="5855055"') and "who paid them is not recorded" in p010.message


def test_mutation_unattributed_antes_collect_one_unit_more() -> None:
    text = _class_fixture("tournament_mtt_antes_unattributed_2011")
    old = 'PLAYER="Player16" WIN="4800.00"'
    assert text.count(old) == 1
    mutated = text.replace(old, 'PLAYER="Player16" WIN="4800.01"')
    assert ("A010", line_of(mutated, "<SHOWDOWN")) in codes_at(audit_text(mutated))


def test_mutation_unattributed_antes_printed_total_changed() -> None:
    # the showdown's pot one unit more, the winner's collect with it: the total no longer agrees
    # with the contributions plus the 200.00 of unattributed antes
    text = _class_fixture("tournament_mtt_antes_unattributed_2011")
    mutated = text.replace('POT="4800.00" RAKE="0.00"', 'POT="4800.01" RAKE="0.00"')
    mutated = mutated.replace('PLAYER="Player16" WIN="4800.00"', 'PLAYER="Player16" WIN="4800.01"')
    assert mutated.count("4800.01") == 2
    assert ("A002", line_of(mutated, "<SHOWDOWN")) in codes_at(audit_text(mutated))


def test_mutation_unattributed_antes_pot_to_the_loser() -> None:
    # a single pot: who paid the antes does not change who wins it, so the award is still judged
    text = _class_fixture("tournament_mtt_antes_unattributed_2011")
    mutated = text.replace('PLAYER="Player31" WIN="0.00"', 'PLAYER="Player31" WIN="4800.00"')
    mutated = mutated.replace('PLAYER="Player16" WIN="4800.00"', 'PLAYER="Player16" WIN="0.00"')
    found = {c for c, _ in codes_at(audit_text(mutated))}
    assert found & {"A004", "A005"}, found
