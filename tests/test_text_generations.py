"""Generations of older text exports told apart by what the file prints (issue 19): each class of
known false alarm fixed with a fixture hand that audits clean and a mutation that is still caught.

PokerTracker's conversions of Microgaming changed what their amounts mean between generations
(export facts with ``eras``, chosen by the hand's date): the 2011 ones print calls and raises as the
street total and return the uncalled part silently; the 2012-2013 ones print the chips added and
pay the uncalled part inside the winner's share; the 2016 ones return it silently again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.formats.facts import ExportFacts
from tests.conftest import FIXTURES
from tests.format_helpers import edit, first
from tests.test_mutations import audit_text

#: the fixture hands of these classes (real corpus hands, one per file, with their golden event logs):
#: kept apart from fixtures/sites, whose audit is the README's transcript
EXPORTS = FIXTURES / "exports"
HANDS = sorted(p for p in EXPORTS.glob("*/*.txt") if p.with_suffix(".golden.json").exists())


def site_fixture(site: str, name: str) -> list[str]:
    return (EXPORTS / site / f"{name}.txt").read_text("utf-8").splitlines()


def pt(name: str) -> list[str]:
    return site_fixture("pokertracker", name)


@pytest.mark.parametrize("path", HANDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_hand_audits_clean(path: Path) -> None:
    # its golden event log is checked by tests/test_golden.py
    assert codes(path.read_text("utf-8").splitlines()) == []


def test_the_class_fixtures_are_all_there() -> None:
    assert len(HANDS) >= 8


def codes(lines: list[str]) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in audit_text(lines)]


# ------------------------------------------------------------------ export facts by era


def test_eras_apply_by_the_hands_month() -> None:
    f = ExportFacts.from_mapping({"eras": [{"until": "2012-01", "wagers_as_street_total": True},
                                           {"since": "2016-01", "uncalled_in_collect": False}]})  # fmt: skip
    assert f.at("2011-11-02 23:08:51").wagers_as_street_total
    assert not f.at("2012-01-01 00:00:00").wagers_as_street_total
    assert f.at("2013-09-07").uncalled_in_collect and not f.at("2016-01-12").uncalled_in_collect
    assert f.at(None) is f and f.at("12/05/2014 17:08:49") is f  # no year first: the card's facts


def test_an_era_with_an_unknown_fact_or_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown export facts"):
        ExportFacts.from_mapping({"eras": [{"until": "2012-01", "calls_are_totals": True}]})
    with pytest.raises(ValueError, match="year-month"):
        ExportFacts.from_mapping({"eras": [{"until": "2012", "converted": True}]})


# ------------------------------------------------ PokerTracker conversions of Microgaming, 2011


def test_2011_microgaming_conversion_reads_calls_as_the_street_total() -> None:
    lines = pt("microgaming_2011_street_totals")
    assert codes(lines) == []
    # "Hero called - €0.40" from the €0.05 small blind adds €0.35: a call printed as €0.30 more
    # than the bet is a wrong call
    bad, n = edit(lines, "player8 called - €2.60", "player8 called - €2.00")
    assert first(bad, "B007") == n


def test_the_same_hand_dated_2012_is_read_as_chips_added() -> None:
    # the date is what tells the generations apart: read as chips added, the calls overshoot
    lines = [x.replace("2011-11-09", "2012-05-09") for x in pt("microgaming_2011_street_totals")]
    assert {"B007", "S001"} <= {c for c, _ in codes(lines)}


def test_2011_microgaming_conversion_still_catches_a_wrong_winner_and_an_overpayment() -> None:
    lines = pt("microgaming_2011_street_totals")
    bad, n = edit(lines, "player8 wins €0.40 from side pot 1", "Hero wins €0.40 from side pot 1")
    assert first(bad, "A004") == n
    # no rake line: the rake is what the pots leave, never a negative one
    bad, n = edit(lines, "player8 wins €29.74 from the main pot", "player8 wins €31.74 from the main pot")
    assert first(bad, "A010") == n


# ------------------------------------------------ PokerTracker conversions of Microgaming, 2016


def test_2016_microgaming_conversion_returns_the_uncalled_part_silently() -> None:
    lines = pt("microgaming_2016_silent_uncalled")
    assert codes(lines) == []
    # the €34.49 uncalled paid inside the share as well: more than the pot
    bad, _n = edit(lines, "Player0 wins €96.77 from the main pot", "Player0 wins €131.26 from the main pot")
    assert first(bad, "A010") is not None
    # dated 2013 (that generation pays the uncalled part inside the share), the share is short
    old = [x.replace("2016-01-12", "2013-09-12") for x in lines]
    assert first(old, "A010") is not None


# ------------------------------------------------------------------ Absolute / UltimateBet


def test_fixed_limit_short_all_in_big_blind_keeps_the_full_bet() -> None:
    # $200/$400: the big blind is all-in for $191.27 of $200; the bet stays $200 and the next raise
    # is to $400 (RULES.md 2.4: the minimum bring-in and raise sizes do not change)
    lines = site_fixture("absolute", "cash_lhe_short_allin_big_blind")
    assert codes(lines) == []
    bad, n = edit(lines, "Player2 - Raises $400 to $400", "Player2 - Raises $382.54 to $382.54")
    assert first(bad, "B009") == n


def test_2007_posts_dead_prints_the_total_then_the_dead_part() -> None:
    # "Posts dead $40 dead $15" at $25/$50 (blinds $15/$25): $25 live, $15 dead; the raise to $50 adds $25
    lines = site_fixture("absolute", "cash_lhe_2007_posts_dead_total")
    assert codes(lines) == []
    from auditor import model as M
    from auditor.formats import parse_text

    hand = next(h for h in parse_text("\n".join(lines)) if isinstance(h, M.Hand))
    posts = [(e.kind, e.amount) for e in hand.events if isinstance(e, M.Post) and e.player == "P0KEHER"]
    assert sorted(posts) == [("big_blind", 2500), ("missed_blind", 1500)]
    # a dead part of $25 would leave $15 live: the raise to $50 then adds $35, and the total is off
    bad, _n = edit(lines, "P0KEHER - Posts dead $40 dead $15", "P0KEHER - Posts dead $40 dead $25")
    assert {c for c, _ in codes(bad)} & {"A002", "A010", "B007", "B009"}


# ------------------------------------------------------------------ house rules as profile options


def audit_with(lines: list[str], rules: str) -> list[tuple[str, int | None]]:
    """The findings of the hand of ``lines`` judged by the rule profile ``rules``."""
    from auditor import model as M
    from auditor.audit import audit_hand
    from auditor.formats import parse_text
    from auditor.profiles import PROFILES

    hands = [h for h in parse_text("\n".join(lines)) if isinstance(h, M.Hand)]
    return [(f.code, f.line) for h in hands for f in audit_hand(h, PROFILES[rules]).findings]


def test_pkr_disconnection_protection_limits_the_win_to_the_stake() -> None:
    # Player5, disconnected all-in for $0.04 against Player1, wins $0.04 of the $0.17 pot; the rest
    # goes to Player1 (profile pkr: disconnect_win_limit = "stake_times_opponents")
    lines = site_fixture("pkr", "cash_nlhe_disconnection_protection")
    assert codes(lines) == []
    win = next(x for x in lines if x.startswith("Player5 wins $0.04, disconnection protection limited"))
    # the whole pot to the disconnected player, as an ordinary all-in would have it: wrong at PKR
    bad, n = edit(lines, win, "Player5 wins $0.17 with: One Pair: 7s")
    bad, m = edit(bad, "Player1 wins $0.13", "Player1 wins $0.00")
    assert {("A004", n), ("A004", m)} <= set(codes(bad))
    # a cent moved from the limited share to the rest is still caught
    bad, n = edit(lines, win, win.replace("wins $0.04", "wins $0.03"))
    bad, m = edit(bad, "Player1 wins $0.13", "Player1 wins $0.14")
    assert {n, m} <= {line for _c, line in codes(bad)}
    # judged by the TDA book (no disconnection limit), the record's payout is a wrong one
    assert {c for c, _ in audit_with(lines, "tda")} == {"A004"}


def test_pkr_odd_cent_of_a_tie_goes_to_the_last_player_after_the_button() -> None:
    # button seat 7; seats 8 and 9 tie a $0.29 pot: seat 9 (last clockwise) gets $0.15
    lines = site_fixture("pkr", "cash_nlhe_tie_odd_cent")
    assert codes(lines) == []
    a = next(x for x in lines if "ties, and wins $0.15" in x)
    b = next(x for x in lines if "ties, and wins $0.14" in x)
    bad, n = edit(lines, a, a.replace("$0.15", "$0.14"))
    bad, m = edit(bad, b, b.replace("$0.14", "$0.15"))
    assert {("A006", n), ("A006", m)} <= set(codes(bad))
    assert "A006" in {c for c, _ in audit_with(lines, "tda")}


def test_pkr_taking_rake_is_read_into_the_rake() -> None:
    # "Taking Rake of $0.03 from pot 1": a rake of $0.01 leaves $0.02 nobody was paid
    lines = site_fixture("pkr", "cash_nlhe_tie_odd_cent")
    bad, n = edit(lines, "Taking Rake of $0.03 from pot 1", "Taking Rake of $0.01 from pot 1")
    assert first(bad, "A010") == n


def test_everest_fixed_limit_raise_over_a_short_all_in_is_a_bet_above_it() -> None:
    # 150/300: a full raise to $450, "raises to $520.00, and is all-in" (70: less than half a bet),
    # then "raises to $670.00": a full bet above the all-in, as Everest deals it (profile option
    # fl_raise_over_short_all_in = "all_in", for the EverestPoker brand of PokerTracker's conversions)
    lines = pt("everest_fl_raise_over_short_allin")
    assert codes(lines) == []
    bad, n = edit(lines, "Player4 raises to $670.00", "Player4 raises to $620.00")
    assert first(bad, "B009") == n
    # the TDA book makes it a full bet above the last full bet ($600): the record breaks that one
    assert "B009" in {c for c, _ in audit_with(lines, "tda")}


def test_brand_rules_apply_to_their_brand_only() -> None:
    from auditor.profiles import PROFILES, profile_from_mapping

    p = PROFILES["pokertracker"]
    assert p.fl_raise_over_short_all_in == "full_level"
    assert p.for_brand("EverestPoker").fl_raise_over_short_all_in == "all_in"
    assert p.for_brand("Uncalled") is p and p.for_brand(None) is p
    with pytest.raises(ValueError, match="unknown settings"):
        profile_from_mapping("x", {"brand_rules": {"B": {"no_such_option": 1}}})


# ------------------------------------------------------------------ Cake Coin Flip tournaments

NBSP = "\u00a0"  # Cake groups thousands with a no-break space ("1 500 in chips")


def test_cake_coin_flip_stacks_are_all_in_before_the_cards() -> None:
    # a Coin Flip tournament prints seats, cards, board and "Hero wins 3 000": both equal stacks
    # are read as derived all-in antes, and the cards decide who wins them
    lines = site_fixture("cake", "tournament_coin_flip")
    assert codes(lines) == []
    win = f"Hero wins 3{NBSP}000 with Two Pairs Tens and Fours"
    bad, n = edit(lines, win, win.replace("Hero", "Player0"))
    assert first(bad, "A004") == n
    bad, n = edit(lines, win, win.replace(f"3{NBSP}000", f"3{NBSP}100"))
    assert first(bad, "A010") == n


def test_cake_coin_flip_with_unequal_stacks_is_not_derived() -> None:
    # unequal stacks would need a reading the record does not give: nothing is derived, and the
    # hand is judged as printed (the missing actions are reported)
    lines = site_fixture("cake", "tournament_coin_flip")
    bad, _n = edit(lines, f"Seat 8: Player0 (1{NBSP}500 in chips)", f"Seat 8: Player0 (1{NBSP}200 in chips)")
    assert "B011" in {c for c, _ in codes(bad)}


# ------------------------------------------------ across hands: PokerTracker's Merge and iPoker conversions


def session_findings(tmp_path: Path, name: str, *edits: tuple[str, str]) -> list[tuple[str, str]]:
    """The T-findings of a session of ``fixtures/exports/pokertracker/``, each line equal to an
    edit's old text replaced by its new one."""
    from tests.conftest import FIXTURES
    from tests.test_continuity import rows_of, t_findings

    lines = (FIXTURES / "exports" / "pokertracker" / f"{name}.txt").read_text("utf-8").splitlines()
    for old, new in edits:
        lines = [new if x == old else x for x in lines]
    p = tmp_path / f"{name}.txt"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [(f.code, f.hand_id or "") for f in t_findings(rows_of(p))]


def test_merge_conversion_dead_button_printed_on_the_small_blind(tmp_path: Path) -> None:
    # hand ..823: the small blind's player left; the converter prints DEALER on seat 9, which posts
    # the small blind (a dead button on seat 8); hand ..824 has DEALER on seat 9 again: the button
    # moved from 8 to 9, and no T005
    assert session_findings(tmp_path, "merge_dead_button_session") == []
    # the same session with hand ..823's DEALER printed on the big blind (seat 1), where no dead button
    # can be: the button then skips to seat 9 in hand ..824, and that is still caught
    seat9, seat1 = "Seat 9: Player3 ($42.44 in chips)", "Seat 1: Player0 ($83.77 in chips)"
    name = "merge_dead_button_session"
    bad = session_findings(tmp_path, name, (seat9 + " DEALER", seat9), (seat1, seat1 + " DEALER"))
    assert [c for c in bad if c[0] == "T005"] == [("T005", "3047310402824")]


def test_ipoker_conversion_table_move_in_one_printed_table(tmp_path: Path) -> None:
    # the converter prints one table for the whole tournament: Player62 moves from seat 5 to seat 2
    # of another table (new players) and pays blinds there in hands not in the file: no T003, only
    # the gap (T001 "moved": the stack is not compared)
    assert session_findings(tmp_path, "ipoker_mtt_table_move") == [("T001", "3616973190")]
    # in the same seat, the missing 120 chips are still a finding
    bad = session_findings(
        tmp_path,
        "ipoker_mtt_table_move",
        ("Seat 2: Player62 ($5,580.00 in chips)", "Seat 5: Player62 ($5,580.00 in chips)"),
    )
    assert ("T003", "3616973190") in bad
