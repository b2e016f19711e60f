"""The betting-legality vectors of RULES.md §8 (V01-V21 and V50), one test per vector (V18 has
two more, for the two examples of TDA 2024 Rule 54-B: a short big blind and a dead small blind).

Each test builds the vector's hand with :class:`tests.handbuilder.HandBuilder`, checks the facts the
replay records at the decisive action (``min_raise_to``, ``reopened``, ``to_call``, ``call_to``,
``pl_max_to``, ``fl_expected_to``, ``expected``), and then checks the verdicts: the illegal variant
must give exactly the vector's code at the right line and no other B/S finding, the legal variant
no B/S finding at all.

The vectors are written "in units", so the hands are built as tournaments (amounts are chips, not
cents); V17 is a cash game (straddles are a cash-game feature), so its amounts are in cents.  The
default profile of a built hand is its site's (``pokerstars``); a vector whose source is a
particular rule book is also checked under that book's profile.
"""

from __future__ import annotations

import re

from auditor.findings import Finding
from auditor.replay.betting import Step
from tests.handbuilder import HandBuilder

CENT = 100  # cash-game amounts are recorded in cents


def bs(hb: HandBuilder, rules: str | None = None) -> list[tuple[str, int | None]]:
    """(code, line) of every B and S finding."""
    return hb.codes(rules=rules, prefix="BS")


def only(hb: HandBuilder, code: str, rules: str | None = None) -> Finding:
    """The single B/S finding of the hand, which must carry ``code``."""
    found = [f for f in hb.audit(rules) if f.code[0] in "BS"]
    assert [f.code for f in found] == [code], [(f.code, f.line, f.message) for f in found]
    return found[0]


def numbers(message: str) -> set[int]:
    """The whole numbers written in a message (thousands separators removed)."""
    return {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", message)}


def first_line(hb: HandBuilder, prefix: str) -> int:
    """The 1-based line number of the first generated line starting with ``prefix``."""
    return next(i for i, line in enumerate(hb.lines, start=1) if line.startswith(prefix))


def step_at(hb: HandBuilder, line: int, rules: str | None = None) -> Step:
    """The replay's facts at the action printed on ``line``."""
    trace, _ = hb.replay(rules)
    return next(s for s in trace.steps if s.event.line == line)


def flop_hand(players: list[tuple[str, int]], blinds: tuple[int, int] = (1, 2)) -> HandBuilder:
    """A tournament hand limped to the flop: stacks are the stacks *on the flop* (the big blind is
    added back, since ``preflop_limp`` takes it from everyone).  The first player acts first."""
    hb = HandBuilder(blinds=blinds, players=[(n, s + blinds[1]) for n, s in players], tournament=True)
    hb.preflop_limp()
    hb.flop()
    return hb


BIG = 100_000


# --------------------------------------------------------------------------------------- V01
def v01(c_to: int) -> HandBuilder:
    hb = flop_hand([("A", 1000), ("B", 14), ("C", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.raise_to("C", c_to)
    return hb


def test_v01_min_raise_after_short_allin_is_current_bet_plus_last_full_raise() -> None:
    """V01: 1/2, flop; A 1000, B 14, C 1000.  A bets 10, B is all-in for 14.  MIN_RAISE_TO(C) = 24;
    C raising to 23 is RAISE_BELOW_MIN (B002); C raising to 24 is legal.  [WSOP-LA26] 176."""
    hb = v01(23)
    s = hb.step("C: raises")
    assert s.expected == "C"
    assert (s.current_bet, s.to_call, s.min_inc, s.min_raise_to) == (14, 14, 10, 24)
    assert s.reopened  # C has not acted

    line = hb.line_of("C: raises")
    for rules in (None, "tda", "wsop-live", "pokerstars"):
        assert bs(hb, rules) == [("B002", line)], rules
    f = only(hb, "B002", "tda")
    assert (f.data["expected"], f.data["actual"]) == (24, 23)
    assert {23, 24, 14, 10} <= numbers(f.message)
    assert "TDA 2026 Rule 45-A" in f.message
    assert "WSOP 2026 Live Action Rule 176" in only(hb, "B002", "wsop-live").message
    assert "TDA 2026 Rule 45-A" in only(hb, "B002").message  # pokerstars cites the TDA rule it follows

    good = v01(24)
    for rules in (None, "tda", "wsop-live"):
        assert bs(good, rules) == [], rules


# --------------------------------------------------------------------------------------- V02
def v02(a_action: str) -> HandBuilder:
    hb = flop_hand([("A", 1000), ("B", 14), ("C", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.call("C")
    if a_action == "raise":
        hb.raise_to("A", 24)
    else:
        hb.call("A")
    return hb


def test_v02_player_who_acted_facing_short_allin_may_not_reraise() -> None:
    """V02: as V01, then C calls 14; A raises to 24 → RAISE_NOT_REOPENED (B001): A faces 4 < 10.
    [TDA24] 47-A."""
    hb = v02("raise")
    s = hb.step("A: raises")
    assert s.expected == "A"
    assert s.acted_before
    assert (s.to_call, s.min_inc) == (4, 10)
    assert not s.reopened
    assert s.min_raise_to == 24  # the raise is big enough: only the re-opening rule is broken

    line = hb.line_of("A: raises")
    for rules in (None, "tda", "wsop-live", "roberts"):
        assert bs(hb, rules) == [("B001", line)], rules
    f = only(hb, "B001", "tda")
    assert (f.data["facing"], f.data["full_raise"], f.data["actual"]) == (4, 10, 24)
    assert {24, 4, 10} <= numbers(f.message)
    assert "TDA 2026 Rule 49-A" in f.message
    assert "WSOP 2026 Live Action Rule 175" in only(hb, "B001", "wsop-live").message
    assert "TDA 2026 Rule 49-A" in only(hb, "B001").message

    good = v02("call")
    assert good.step("A: calls").to_call == 4
    for rules in (None, "tda", "wsop-live"):
        assert bs(good, rules) == [], rules


# --------------------------------------------------------------------------------------- V03
def v03() -> HandBuilder:
    hb = flop_hand([("A", 1000), ("B", 14), ("C", 1000), ("D", 21)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.call("C")
    hb.allin("D")
    return hb


def test_v03_cumulative_short_allins_reopen_for_a_but_not_for_the_caller() -> None:
    """V03: A 1000, B 14, C 1000, D 21.  A bets 10, B all-in 14, C calls, D all-in 21: A faces
    11 >= 10 → re-opened, min raise-to 31; A calls; C (faces 7) raises → RAISE_NOT_REOPENED."""
    # A is re-opened: a raise to 31 is legal, one to 30 is below the minimum
    hb = v03()
    hb.raise_to("A", 31)
    s = hb.step("A: raises")
    assert s.expected == "A"
    assert s.acted_before
    assert (s.current_bet, s.to_call, s.min_inc, s.min_raise_to) == (21, 11, 10, 31)
    assert s.reopened
    assert bs(hb) == []
    assert bs(hb, "tda") == []

    low = v03()
    low.raise_to("A", 30)
    assert bs(low) == [("B002", low.line_of("A: raises"))]

    # A calls; C faces 7 and may not raise
    hb = v03()
    hb.call("A")
    hb.raise_to("C", 31)
    s = hb.step("C: raises")
    assert s.expected == "C"
    assert (s.to_call, s.min_inc) == (7, 10)
    assert not s.reopened
    line = hb.line_of("C: raises")
    for rules in (None, "tda", "wsop-live"):
        assert bs(hb, rules) == [("B001", line)], rules
    f = only(hb, "B001", "tda")
    assert {31, 7, 10} <= numbers(f.message)
    assert "TDA 2026 Rule 49-A" in f.message

    good = v03()
    good.call("A")
    good.call("C")
    assert bs(good) == []


# --------------------------------------------------------------------------------------- V04
def v04(a_action: str) -> HandBuilder:
    hb = flop_hand([("A", 1000), ("B", 14), ("C", 18), ("D", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.allin("C")
    hb.call("D")
    if a_action == "raise":
        hb.raise_to("A", 28)
    else:
        hb.call("A")
    return hb


def test_v04_two_short_allins_totalling_less_than_a_full_raise_do_not_reopen() -> None:
    """V04: A bets 10, B all-in 14, C all-in 18, D calls: A faces 8 < 10 → not re-opened."""
    hb = v04("raise")
    s = hb.step("A: raises")
    assert (s.current_bet, s.to_call, s.min_inc) == (18, 8, 10)
    assert not s.reopened
    assert bs(hb) == [("B001", hb.line_of("A: raises"))]
    assert bs(v04("call")) == []


# --------------------------------------------------------------------------------------- V05
def v05(a_to: int) -> HandBuilder:
    hb = flop_hand([("A", 1000), ("B", 15), ("C", 24), ("D", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.allin("C")
    hb.call("D")
    hb.raise_to("A", a_to)
    return hb


def test_v05_two_short_allins_totalling_a_full_raise_reopen() -> None:
    """V05: A bets 10, B all-in 15, C all-in 24, D calls: A faces 14 → re-opened, min raise-to 34."""
    hb = v05(34)
    s = hb.step("A: raises")
    assert (s.current_bet, s.to_call, s.min_inc, s.min_raise_to) == (24, 14, 10, 34)
    assert s.reopened
    assert bs(hb) == []
    low = v05(33)
    assert bs(low) == [("B002", low.line_of("A: raises"))]


# --------------------------------------------------------------------------------------- V06
def v06(a_action: str) -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", 150), ("C", BIG)], blinds=(50, 100))
    hb.bet("A", 100)
    hb.allin("B")
    hb.call("C")
    if a_action == "raise":
        hb.raise_to("A", 250)
    else:
        hb.call("A")
    return hb


def test_v06_bet_100_short_allin_150_caller_bettor_may_not_reraise() -> None:
    """V06: BB 100, flop: A bets 100, B all-in 150, C calls; A re-raises → RAISE_NOT_REOPENED.
    [WSOP-T26] 96."""
    hb = v06("raise")
    c = hb.step("C: calls")
    assert (c.to_call, c.min_raise_to, c.reopened) == (150, 250, True)
    s = hb.step("A: raises")
    assert (s.to_call, s.min_inc) == (50, 100)
    assert not s.reopened
    line = hb.line_of("A: raises")
    for rules in (None, "wsop-tournament", "tda"):
        assert bs(hb, rules) == [("B001", line)], rules
    assert "WSOP 2026 Tournament Rule 96" in only(hb, "B001", "wsop-tournament").message
    assert bs(v06("call")) == []


# --------------------------------------------------------------------------------------- V07
def v07(a_to: int) -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", 150), ("C", 200), ("D", BIG)], blinds=(50, 100))
    hb.bet("A", 100)
    hb.allin("B")
    hb.allin("C")
    hb.call("D")
    hb.raise_to("A", a_to)
    return hb


def test_v07_cumulative_short_allins_reopen_min_raise_is_last_full_raise() -> None:
    """V07: A bets 100, B all-in 150, C all-in 200, D calls: A re-opened, min raise-to 300;
    A raising to 299 → RAISE_BELOW_MIN.  [TDA24] 47-A."""
    hb = v07(299)
    s = hb.step("A: raises")
    assert (s.current_bet, s.to_call, s.min_inc, s.min_raise_to) == (200, 100, 100, 300)
    assert s.reopened
    line = hb.line_of("A: raises")
    for rules in (None, "tda"):
        assert bs(hb, rules) == [("B002", line)], rules
    assert bs(v07(300)) == []


# --------------------------------------------------------------------------------------- V08
def v08(btn_to: int) -> HandBuilder:
    hb = HandBuilder(blinds=(6, 12), players=[("SB", BIG), ("BB", BIG), ("UTG", BIG), ("BTN", BIG)], tournament=True)
    hb.post_blinds()
    hb.raise_to("UTG", 36)
    hb.raise_to("BTN", btn_to)
    hb.fold("SB")
    hb.fold("BB")
    hb.fold("UTG")
    return hb


def test_v08_preflop_min_reraise_uses_the_raise_increment() -> None:
    """V08: blinds 6/12 pre-flop: UTG raises to 36 → the next minimum raise is to 60; 59 →
    RAISE_BELOW_MIN.  [TDA24] Add. 43."""
    hb = v08(59)
    u = hb.step("UTG: raises")
    assert (u.expected, u.current_bet, u.min_inc, u.min_raise_to) == ("UTG", 12, 12, 24)
    s = hb.step("BTN: raises")
    assert (s.expected, s.current_bet, s.min_inc, s.min_raise_to) == ("BTN", 36, 24, 60)
    line = hb.line_of("BTN: raises")
    for rules in (None, "tda"):
        assert bs(hb, rules) == [("B002", line)], rules
    assert bs(v08(60)) == []


# --------------------------------------------------------------------------------------- V09
def v09() -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", 125), ("C", BIG), ("D", 200), ("E", BIG)], blinds=(50, 100))
    hb.bet("A", 100)
    hb.allin("B")
    hb.call("C")
    hb.allin("D")
    hb.call("E")
    return hb


def test_v09_tda_addendum_47_example_1() -> None:
    """V09: 50/100 flop: A bets 100, B all-in 125, C calls, D all-in 200, E calls: A re-opened
    (faces 100); after A calls, C is not re-opened (faces 75); if A raises to 300, C is re-opened
    (faces 175).  [TDA24] Add. 47 Ex. 1 / 1-A / 1-B."""
    # Ex. 1: A faces a full raise
    hb = v09()
    hb.call("A")
    a = hb.step("A: calls")
    assert (a.expected, a.to_call, a.min_inc, a.min_raise_to) == ("A", 100, 100, 300)
    assert a.acted_before and a.reopened

    # Ex. 1-A: A calls, C faces 75 and may only call or fold
    hb.raise_to("C", 300)
    c = hb.step("C: raises")
    assert (c.expected, c.to_call) == ("C", 75)
    assert not c.reopened
    assert bs(hb) == [("B001", hb.line_of("C: raises"))]
    assert bs(hb, "tda") == [("B001", hb.line_of("C: raises"))]
    good = v09()
    good.call("A")
    good.call("C")
    assert bs(good) == []

    # Ex. 1-B: A raises to 300, C faces 175 and may re-raise
    hb = v09()
    hb.raise_to("A", 300)
    hb.raise_to("C", 400)
    hb.call("E")
    hb.call("A")
    c = hb.step("C: raises")
    assert (c.expected, c.to_call, c.min_inc, c.min_raise_to) == ("C", 175, 100, 400)
    assert c.reopened
    assert bs(hb) == []


# --------------------------------------------------------------------------------------- V10
def v10(f_to: int) -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", 500), ("C", 650), ("D", 800), ("E", BIG), ("F", BIG)], blinds=(50, 100))
    hb.bet("A", 300)
    hb.allin("B")
    hb.allin("C")
    hb.allin("D")
    hb.call("E")
    hb.raise_to("F", f_to)
    return hb


def test_v10_several_short_allins_min_raise_stays_the_last_full_bet() -> None:
    """V10: A bets 300, B all-in 500, C all-in 650, D all-in 800, E calls: F's minimum raise is to
    1100.  [TDA24] Add. 47 Ex. 2."""
    hb = v10(1100)
    s = hb.step("F: raises")
    assert (s.expected, s.current_bet, s.min_inc, s.min_raise_to) == ("F", 800, 300, 1100)
    assert s.reopened
    assert bs(hb) == []
    low = v10(1099)
    assert bs(low) == [("B002", low.line_of("F: raises"))]
    assert bs(low, "tda") == [("B002", low.line_of("F: raises"))]


# --------------------------------------------------------------------------------------- V11
def v11() -> HandBuilder:
    hb = HandBuilder(
        blinds=(2000, 4000),
        players=[("SB", BIG), ("BB", BIG), ("A", BIG), ("B", BIG), ("C", 7500)],
        tournament=True,
    )
    hb.post_blinds()
    hb.call("A")
    hb.fold("B")
    hb.allin("C")
    hb.fold("SB")
    return hb


def test_v11_tda_addendum_47_example_3_big_blind_option_after_short_allin() -> None:
    """V11: 2000/4000 pre-flop: A calls, B folds, C all-in 7500, SB folds.  The BB may raise to at
    least 11500; if the BB calls, A's raise → RAISE_NOT_REOPENED; if the BB raises to 11500, A is
    re-opened.  [TDA24] Add. 47 Ex. 3-A / 3-B."""
    hb = v11()
    hb.raise_to("BB", 11499)
    bb = hb.step("BB: raises")
    assert (bb.expected, bb.current_bet, bb.to_call, bb.min_inc, bb.min_raise_to) == ("BB", 7500, 3500, 4000, 11500)
    assert bb.reopened  # the big blind had not acted: posting is not acting
    assert bs(hb) == [("B002", hb.line_of("BB: raises"))]

    # Ex. 3-A: the BB calls; A faces 3500 < 4000
    hb = v11()
    hb.call("BB")
    hb.raise_to("A", 11500)
    a = hb.step("A: raises")
    assert (a.expected, a.to_call) == ("A", 3500)
    assert not a.reopened
    assert bs(hb) == [("B001", hb.line_of("A: raises"))]
    assert bs(hb, "tda") == [("B001", hb.line_of("A: raises"))]
    good = v11()
    good.call("BB")
    good.call("A")
    assert bs(good) == []

    # Ex. 3-B: the BB raises to 11500; A faces 7500 and is re-opened
    hb = v11()
    hb.raise_to("BB", 11500)
    hb.raise_to("A", 15500)
    hb.call("BB")
    a = hb.step("A: raises")
    assert (a.expected, a.to_call, a.min_raise_to) == ("A", 7500, 15500)
    assert a.reopened
    assert bs(hb) == []


# --------------------------------------------------------------------------------------- V12
def v12() -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", BIG), ("C", BIG), ("D", 1300), ("E", 1700)], blinds=(50, 100))
    hb.bet("A", 500)
    hb.raise_to("B", 1000)
    hb.call("C")
    hb.allin("D")
    hb.allin("E")
    hb.call("A")
    return hb


def test_v12_wsop_tournament_96a_short_allins_reopen_for_raiser_and_caller() -> None:
    """V12: A bets 500, B raises to 1000, C calls, D all-in 1300, E all-in 1700, A calls: B and C
    are re-opened (they face 700 >= 500); the minimum raise is to 2200.  [WSOP-T26] 96-a."""
    hb = v12()
    hb.raise_to("B", 2200)
    b = hb.step("B: raises")
    assert (b.expected, b.current_bet, b.to_call, b.min_inc, b.min_raise_to) == ("B", 1700, 700, 500, 2200)
    assert b.acted_before and b.reopened
    assert bs(hb) == []
    assert bs(hb, "wsop-tournament") == []

    low = v12()
    low.raise_to("B", 2199)
    assert bs(low) == [("B002", low.line_of("B: raises"))]
    assert bs(low, "wsop-tournament") == [("B002", low.line_of("B: raises"))]

    hb = v12()
    hb.call("B")
    hb.raise_to("C", 2200)
    c = hb.step("C: raises")
    assert (c.expected, c.to_call, c.min_raise_to) == ("C", 700, 2200)
    assert c.acted_before and c.reopened
    assert bs(hb) == []


# --------------------------------------------------------------------------------------- V13
def v13(b_action: str) -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", BIG), ("C", 250)], blinds=(50, 100))
    hb.bet("A", 100)
    hb.raise_to("B", 200)
    hb.allin("C")
    hb.call("A")
    if b_action == "raise":
        hb.raise_to("B", 350)
    else:
        hb.call("B")
    return hb


def test_v13_raise_then_short_allin_reopens_for_bettor_not_for_raiser() -> None:
    """V13: A bets 100, B raises to 200, C all-in 250: A is re-opened; after A calls, B's raise →
    RAISE_NOT_REOPENED (B faces 50 < 100).  [RRP] NL 5; [WSOP-LA26] 177."""
    hb = v13("raise")
    a = hb.step("A: calls")
    assert (a.expected, a.to_call, a.min_inc, a.min_raise_to) == ("A", 150, 100, 350)
    assert a.reopened
    b = hb.step("B: raises")
    assert (b.expected, b.to_call, b.min_inc) == ("B", 50, 100)
    assert b.acted_before and not b.reopened
    line = hb.line_of("B: raises")
    for rules in (None, "roberts", "wsop-live"):
        assert bs(hb, rules) == [("B001", line)], rules
    assert "Robert's Rules of Poker v11, No-Limit rules 3 and 5" in only(hb, "B001", "roberts").message
    assert bs(v13("call")) == []


# --------------------------------------------------------------------------------------- V14
def v14() -> HandBuilder:
    hb = HandBuilder(blinds=(50, 100), players=[("SB", BIG), ("BB", 60), ("UTG", BIG), ("BTN", BIG)], tournament=True)
    hb.post_blinds()
    return hb


def test_v14_short_allin_big_blind_does_not_lower_the_call_level() -> None:
    """V14: 50/100, the BB is all-in for 60: the call level stays 100 and the minimum raise is to
    200; UTG calling 60 → WRONG_CALL_AMOUNT (B007).  [WSOP-LA26] 154; [RRP] Blinds 1.
    (The pot/return part of V14 — pot 170, 40 returned — belongs to the pots issue.)"""
    bad = v14()
    bad.call("UTG")  # the builder calls the posted 60
    bad.fold("BTN")
    bad.fold("SB")
    s = bad.step("UTG: calls")
    assert s.expected == "UTG"
    assert (s.current_bet, s.to_call, s.call_to, s.min_inc, s.min_raise_to) == (100, 100, 100, 100, 200)
    assert bad.lines[bad.line_of("UTG: calls") - 1] == "UTG: calls 60"
    line = bad.line_of("UTG: calls")
    for rules in (None, "wsop-live", "roberts"):
        assert bs(bad, rules) == [("B007", line)], rules
    f = only(bad, "B007")
    assert (f.data["expected"], f.data["actual"]) == (100, 60)

    good = v14()
    good.call("UTG", to=100)
    good.fold("BTN")
    good.fold("SB")
    assert bs(good) == []

    # the minimum raise over a short big blind is to 2 x BB
    low = v14()
    low.raise_to("UTG", 199)
    assert bs(low) == [("B002", low.line_of("UTG: raises"))]
    ok = v14()
    ok.raise_to("UTG", 200)
    assert bs(ok) == []


# --------------------------------------------------------------------------------------- V15
def v15() -> HandBuilder:
    hb = flop_hand([("A", BIG), ("B", 60), ("C", BIG)], blinds=(50, 100))
    hb.check("A")
    hb.allin("B")  # a bet of 60, less than the minimum bet, all-in
    return hb


def test_v15_allin_bet_below_minimum_bet_checker_may_not_raise() -> None:
    """V15: BB 100, flop: A checks, B is all-in for 60: C (not acted) may raise to at least 160;
    A (who checked) raising after C calls → RAISE_NOT_REOPENED.  [RRP] NL 3."""
    hb = v15()
    hb.call("C")
    hb.raise_to("A", 160)
    c = hb.step("C: calls")
    assert (c.expected, c.current_bet, c.to_call, c.min_inc, c.min_raise_to) == ("C", 60, 60, 100, 160)
    assert c.reopened
    a = hb.step("A: raises")
    assert (a.expected, a.to_call) == ("A", 60)
    assert a.acted_before and not a.reopened
    line = hb.line_of("A: raises")
    for rules in (None, "roberts"):
        assert bs(hb, rules) == [("B001", line)], rules

    good = v15()
    good.call("C")
    good.call("A")
    assert bs(good) == []  # B's 60 all-in is below the minimum bet but legal (all-in)

    raised = v15()
    raised.raise_to("C", 160)
    raised.call("A")
    assert bs(raised) == []
    low = v15()
    low.raise_to("C", 159)
    assert bs(low) == [("B002", low.line_of("C: raises"))]


# --------------------------------------------------------------------------------------- V16
def v16() -> HandBuilder:
    hb = HandBuilder(blinds=(5, 10), players=[("BB", 1000), ("BTN", 1000)], button="BTN", tournament=True)
    hb.post_blinds()
    return hb


def test_v16_heads_up_button_acts_first_preflop_last_after() -> None:
    """V16: heads-up 5/10: the button (small blind) acts first pre-flop; the BB acts first on the
    flop; the button betting first on the flop → OUT_OF_TURN (B004).  [TDA24] 34-B."""
    hb = v16()
    assert hb.lines[hb.line_of("BTN: posts")] == "BB: posts big blind 10"
    assert hb.lines[hb.line_of("BTN: posts") - 1] == "BTN: posts small blind 5"
    hb.call("BTN")
    hb.check("BB")
    hb.flop()
    hb.check("BB")
    hb.bet("BTN", 10)
    hb.call("BB")
    assert hb.step("BTN: calls").expected == "BTN"
    assert hb.step("BB: checks").expected == "BB"  # the flop check (the last "BB: checks")
    assert hb.step("BTN: bets").expected == "BTN"
    assert bs(hb) == []

    bad = v16()
    bad.call("BTN")
    bad.check("BB")
    bad.flop()
    bad.bet("BTN", 10)
    bad.call("BB")
    assert bad.step("BTN: bets").expected == "BB"
    line = bad.line_of("BTN: bets")
    for rules in (None, "tda"):
        assert bs(bad, rules) == [("B004", line)], rules

    # the big blind acting first pre-flop is out of turn too
    pre = v16()
    pre.raise_to("BB", 20)
    pre.call("BTN")
    assert pre.step("BB: raises").expected == "BTN"
    assert bs(pre) == [("B004", pre.line_of("BB: raises"))]


# --------------------------------------------------------------------------------------- V17
def v17() -> HandBuilder:
    hb = HandBuilder(blinds=(1, 2), players=[("SB", 200), ("BB", 200), ("UTG", 200), ("HJ", 200), ("BTN", 200)])
    hb.post_blinds(straddle=("UTG", 4))
    return hb


def test_v17_live_straddle_sets_order_and_minimum_raise() -> None:
    """V17: 1/2 with an UTG straddle of 4: the first to act is the seat left of the straddler;
    the minimum raise is to 8; the straddler acts last and may raise.  [WSOP-LA26] 22/165."""
    hb = v17()
    assert hb.lines[hb.line_of("UTG: straddle") - 1] == "UTG: straddle $4"
    hb.call("HJ")
    hb.call("BTN")
    hb.call("SB")
    hb.call("BB")
    hb.raise_to("UTG", 12)
    hb.call("HJ")
    hb.call("BTN")
    hb.call("SB")
    hb.call("BB")
    for rules in (None, "wsop-live"):
        first = step_at(hb, first_line(hb, "HJ: calls"), rules)  # the first action of the hand
        assert (first.expected, first.current_bet, first.to_call, first.min_inc, first.min_raise_to) == (
            "HJ", 4 * CENT, 4 * CENT, 4 * CENT, 8 * CENT,
        )  # fmt: skip
        u = hb.step("UTG: raises", rules)
        assert (u.expected, u.to_call, u.min_raise_to) == ("UTG", 0, 8 * CENT)
        assert u.reopened  # posting the straddle is not acting: the option to raise is kept
        assert bs(hb, rules) == [], rules

    for rules in (None, "wsop-live"):
        low = v17()
        low.raise_to("HJ", 7)
        assert bs(low, rules) == [("B002", low.line_of("HJ: raises"))], rules
        ok = v17()
        ok.raise_to("HJ", 8)
        assert bs(ok, rules) == [], rules

    # the flop may not come before the straddler has used the option
    early = v17()
    for n in ("HJ", "BTN", "SB", "BB"):
        early.call(n)
    early.flop()
    for rules in (None, "wsop-live"):
        assert bs(early, rules) == [("B011", early.line_of("*** FLOP ***"))], rules
    assert only(early, "B011").data["pending"] == ["UTG"]

    # the straddle raises the pre-flop level only: on the flop the minimum bet is the big blind
    # (RULES.md §2.2; [WSOP-LA26] 174)
    for amount, codes in ((2, []), (1, ["B003"])):
        post = v17()
        for n in ("HJ", "BTN", "SB", "BB"):
            post.call(n)
        post.check("UTG")
        post.flop()
        post.bet("SB", amount)
        assert post.step("SB: bets").min_bet == 2 * CENT
        assert [c for c, _ in bs(post)] == codes, amount


# --------------------------------------------------------------------------------------- V18
def v18_flop(b_to: int) -> HandBuilder:
    hb = HandBuilder(blinds=(25, 50), players=[("A", 1000), ("B", 1000)], button="B", structure="PL", tournament=True)
    hb.preflop_limp()  # pot 100
    hb.flop()
    hb.bet("A", 50)
    hb.raise_to("B", b_to)
    return hb


def plo(utg_to: int, bb_stack: int = 10_000) -> HandBuilder:
    hb = HandBuilder(
        blinds=(100, 200),
        players=[("SB", 10_000), ("BB", bb_stack), ("UTG", 10_000), ("BTN", 10_000)],
        structure="PL",
        game="omaha",
        tournament=True,
    )
    hb.post_blinds()
    hb.raise_to("UTG", utg_to)
    return hb


def test_v18_pot_limit_maximum() -> None:
    """V18: PL, pot 100, A bets 50: B's maximum raise is to 250; 251 → PL_OVER_MAX (B008).  PLO
    100/200 pre-flop: UTG's maximum is 700 (true value, and TDA's "assume full blinds"); WSOP live
    cash counts the small blind as a big blind until the BB has acted: 4 x BB = 800.
    [WSOP-LA26] PL preamble, 191; [TDA24] 54-B; [WSOP-T26] VIII PL-d."""
    hb = v18_flop(251)
    s = hb.step("B: raises")
    assert (s.expected, s.current_bet, s.to_call, s.pl_max_to) == ("B", 50, 50, 250)
    line = hb.line_of("B: raises")
    for rules in (None, "tda", "wsop-live"):
        assert bs(hb, rules) == [("B008", line)], rules
    f = only(hb, "B008", "tda")
    assert (f.data["expected"], f.data["actual"]) == (250, 251)
    assert {250, 251} <= numbers(f.message)
    assert bs(v18_flop(250)) == []

    expected_max = {None: 700, "pokerstars": 700, "tda": 700, "wsop-tournament": 700, "wsop-live": 800}
    for rules, most in expected_max.items():
        hb = plo(most)
        s = hb.step("UTG: raises", rules)
        assert (s.expected, s.pl_max_to) == ("UTG", most), rules
        assert bs(hb, rules) == [], rules
        over = plo(most + 1)
        assert bs(over, rules) == [("B008", over.line_of("UTG: raises"))], rules


def test_v18_pot_limit_preflop_short_big_blind_assume_full_blinds() -> None:
    """V18 / [TDA24] 54-B Ex. 2: PLO 100-200, SB posts 100, the BB is short and posts 100 (all-in):
    with "assume full blinds" (tda profile) the first player may still bet the pot to 700."""
    hb = plo(700, bb_stack=100)
    assert hb.lines[hb.line_of("BB: posts") - 1] == "BB: posts big blind 100 and is all-in"
    s = hb.step("UTG: raises", "tda")
    assert (s.current_bet, s.to_call, s.pl_max_to) == (200, 200, 700)
    assert bs(hb, "tda") == []
    over = plo(701, bb_stack=100)
    assert bs(over, "tda") == [("B008", over.line_of("UTG: raises"))]


def plo_dead_sb(utg_to: int) -> HandBuilder:
    """PLO 100-200 with a dead small blind (dead button: nobody posts the small blind)."""
    hb = HandBuilder(
        blinds=(100, 200),
        players=[("BB", 10_000), ("UTG", 10_000), ("BTN", 10_000)],
        structure="PL",
        game="omaha",
        tournament=True,
    )
    hb.raw("BB: posts big blind 200")
    hb.raw("*** HOLE CARDS ***")
    hb.raw(f"UTG: raises {utg_to - 200} to {utg_to}")
    return hb


def test_v18_pot_limit_preflop_dead_small_blind_assume_full_blinds() -> None:
    """V18 / [TDA24] 54-B Ex. 1: PLO 100-200, dead small blind, the BB posts 200: with "assume full
    blinds" (tda profile) the pot-limit bet for the first player to act is 700."""
    hb = plo_dead_sb(700)
    s = hb.step("UTG: raises", "tda")
    assert (s.expected, s.current_bet, s.to_call, s.pl_max_to) == ("UTG", 200, 200, 700)
    assert bs(hb, "tda") == []
    over = plo_dead_sb(701)
    assert bs(over, "tda") == [("B008", over.line_of("UTG: raises"))]


# --------------------------------------------------------------------------------------- V19
FL_RULES = (None, "roberts", "wsop-live")


def fl_turn(players: list[tuple[str, int]]) -> HandBuilder:
    """Fixed limit $10/$20 (blinds 5/10), limped, checked through the flop; stacks are turn stacks."""
    hb = HandBuilder(blinds=(5, 10), players=[(n, s + 10) for n, s in players], structure="FL", tournament=True)
    hb.preflop_limp()
    hb.flop()
    for n, _ in players:
        hb.check(n)
    hb.turn()
    return hb


def test_v19_fixed_limit_half_bet_rule() -> None:
    """V19: FL $10/$20, turn.  A bets 15 all-in: B's raise is to 35 (15 is at least half a bet, so
    it counts as a full bet).  A bets 20, B all-in 25, C completes to 40 (legal), A then raises to
    60 (legal).  A bets 20, B all-in 25, C calls, A raises → RAISE_NOT_REOPENED.
    [RRP] B&R 6; [WSOP-LA26] 133; [TDA24] 47-B."""

    # 1. an all-in bet of 15 (>= half of 20) is raised to 35
    def half_bet(b_to: int) -> HandBuilder:
        hb = fl_turn([("A", 15), ("B", BIG), ("C", BIG)])
        hb.allin("A")
        hb.raise_to("B", b_to)
        hb.call("C")
        return hb

    hb = half_bet(35)
    s = hb.step("B: raises")
    assert (s.expected, s.fl_bet, s.current_bet, s.fl_expected_to) == ("B", 20, 15, 35)
    for rules in FL_RULES:
        assert bs(hb, rules) == [], rules
        wrong = half_bet(40)
        assert bs(wrong, rules) == [("B009", wrong.line_of("B: raises"))], rules

    # 2. B's all-in of 25 is less than half a raise: C completes to 40, A may then raise to 60
    def completed() -> HandBuilder:
        hb = fl_turn([("A", BIG), ("B", 25), ("C", BIG)])
        hb.bet("A", 20)
        hb.allin("B")
        return hb

    hb = completed()
    hb.raise_to("C", 40)
    hb.raise_to("A", 60)
    hb.call("C")
    c = hb.step("C: raises")
    assert (c.expected, c.current_bet, c.fl_expected_to) == ("C", 25, 40)
    a = hb.step("A: raises")
    assert (a.expected, a.to_call, a.fl_expected_to) == ("A", 20, 60)
    assert a.reopened
    for rules in FL_RULES:
        assert bs(hb, rules) == [], rules

    # 3. C only calls B's 25: A faces 5 (< half a bet) and may not raise
    hb = completed()
    hb.call("C")
    hb.raise_to("A", 40)
    a = hb.step("A: raises")
    assert (a.expected, a.to_call, a.fl_expected_to) == ("A", 5, 40)
    assert a.acted_before and not a.reopened
    for rules in FL_RULES:
        assert bs(hb, rules) == [("B001", hb.line_of("A: raises"))], rules
    f = only(hb, "B001", "wsop-live")
    assert "half a bet is 10" in f.message
    assert "WSOP 2026 Live Action Rule 175" in f.message
    good = completed()
    good.call("C")
    good.call("A")
    for rules in FL_RULES:
        assert bs(good, rules) == [], rules


# --------------------------------------------------------------------------------------- V20
def fl_flop(players: list[tuple[str, int]]) -> HandBuilder:
    hb = HandBuilder(blinds=(5, 10), players=players, structure="FL", tournament=True)
    hb.preflop_limp()
    hb.flop()
    return hb


def test_v20_fixed_limit_raise_cap() -> None:
    """V20: FL, three players on the flop: a bet and four raises is legal under wsop-live (cap 4)
    and FL_CAP_EXCEEDED (B010) under roberts (cap 3); a round that begins heads-up (wsop-live) may
    have eight raises.  [WSOP-LA26] 130-131; [RRP] B&R 3-4."""

    def three_way(raises: int) -> HandBuilder:
        hb = fl_flop([("A", BIG), ("B", BIG), ("C", BIG)])
        hb.bet("A", 10)
        order = ["B", "C", "A"]
        for i in range(raises):
            hb.raise_to(order[i % 3], 10 * (i + 2))
        last = order[(raises - 1) % 3]
        for n in order[raises % 3 :] + order[: raises % 3]:
            if n != last:
                hb.call(n)
        return hb

    hb = three_way(4)  # A 10, B 20, C 30, A 40, B 50, C calls, A calls
    assert hb.lines[hb.line_of("B: raises") - 1] == "B: raises 10 to 50"
    assert bs(hb, "wsop-live") == []
    b = hb.step("B: raises", "roberts")
    assert (b.fl_raises, b.fl_cap_exceeded) == (4, True)
    assert bs(hb, "roberts") == [("B010", hb.line_of("B: raises"))]
    assert "Robert's Rules of Poker v11, Betting and Raising rules 3-4" in only(hb, "B010", "roberts").message
    assert bs(three_way(3), "roberts") == []  # a bet and three raises is the roberts cap
    five = three_way(5)  # the fifth raise breaks the WSOP cap
    assert bs(five, "wsop-live") == [("B010", five.line_of("C: raises"))]

    # heads-up from the start of the round: no cap under wsop-live
    hu = fl_flop([("A", BIG), ("B", BIG)])
    hu.bet("A", 10)
    for i in range(8):
        hu.raise_to("BA"[i % 2], 10 * (i + 2))
    hu.call("B")
    assert hu.lines[hu.line_of("A: raises") - 1] == "A: raises 10 to 90"
    assert bs(hu, "wsop-live") == []
    assert not any(s.fl_cap_exceeded for s in hu.replay("wsop-live")[0].steps)


# --------------------------------------------------------------------------------------- V21
def test_v21_table_stakes() -> None:
    """V21: A has 100 and bets 150 → TABLE_STAKES (S001).  [WSOP-LA26] 64."""
    for marker in (" and is all-in", ""):
        hb = flop_hand([("A", 100), ("B", 1000), ("C", 1000)])
        hb.raw(f"A: bets 150{marker}")
        hb.raw("B: folds")
        hb.raw("C: folds")
        s = hb.step("A: bets")
        assert (s.stack, s.add) == (100, 150)
        line = hb.line_of("A: bets")
        for rules in (None, "wsop-live"):
            assert bs(hb, rules) == [("S001", line)], (marker, rules)
        f = only(hb, "S001")
        assert (f.data["expected"], f.data["actual"]) == (100, 150)
        assert {150, 100, 102} <= numbers(f.message)
        assert "WSOP 2026 Live Action Rules 64 and 186" in only(hb, "S001", "wsop-live").message

    good = flop_hand([("A", 100), ("B", 1000), ("C", 1000)])
    good.bet("A", 100)
    good.fold("B")
    good.fold("C")
    assert good.lines[good.line_of("A: bets") - 1] == "A: bets 100 and is all-in"
    assert bs(good) == []


# --------------------------------------------------------------------------------------- V50
def v50() -> HandBuilder:
    hb = HandBuilder(blinds=(5, 10), players=[("SB", 1000), ("BB", 1000), ("UTG", 1000)], tournament=True)
    hb.post_blinds()
    hb.call("UTG")
    hb.call("SB")
    return hb


def test_v50_flop_dealt_before_big_blind_used_option() -> None:
    """V50: 5/10: UTG calls, SB calls, the flop is dealt → ROUND_CLOSED_EARLY (B011): the BB never
    exercised the option.  [WSOP-LA26] 156."""
    hb = v50()
    hb.flop()
    line = hb.line_of("*** FLOP ***")
    for rules in (None, "wsop-live", "tda"):
        assert bs(hb, rules) == [("B011", line)], rules
    f = only(hb, "B011", "wsop-live")
    assert f.data["pending"] == ["BB"]
    assert "BB" in f.message
    assert "WSOP 2026 Live Action Rule 156" in f.message

    good = v50()
    good.check("BB")
    good.flop()
    assert good.step("BB: checks").expected == "BB"
    assert bs(good) == []
    opt = v50()
    opt.raise_to("BB", 20)
    opt.call("UTG")
    opt.call("SB")
    opt.flop()
    assert opt.step("BB: raises").reopened
    assert bs(opt) == []
