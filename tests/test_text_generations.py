"""Generations of older text exports told apart by what the file prints (issue 19): each class of
known false alarm fixed with a fixture hand that audits clean and a mutation that is still caught.

PokerTracker's conversions of Microgaming changed what their amounts mean between generations
(export facts with ``eras``, chosen by the hand's date): the 2011 ones print calls and raises as the
street total and return the uncalled part silently; the 2012-2013 ones print the chips added and
pay the uncalled part inside the winner's share; the 2016 ones return it silently again.
"""

from __future__ import annotations

import pytest

from auditor.formats.facts import ExportFacts
from tests.format_helpers import edit, first, site_fixture
from tests.test_mutations import audit_text


def pt(name: str) -> list[str]:
    return site_fixture("pokertracker", name)


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
