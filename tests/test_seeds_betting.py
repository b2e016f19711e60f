"""The betting examples of the user's seed documents (../shared/seeds), as tests.

The seeds are the user's own guides (Arabic and Persian); they state the intent the auditor must
follow.  Every betting-legality example in them is here, translated faithfully into a hand built
with :class:`tests.handbuilder.HandBuilder`; the docstring of each test quotes (in English) which
seed and which example it is.  Examples about pots, side pots and showdown are not betting
questions and are left to the pots issue.

* seed 000 (Arabic, "All-in rules in Texas Hold'em"): the $1/$2 re-opening examples, the FAQ on
  an all-in for less than the big blind, table stakes;
* seed 001 (Arabic, "Texas Hold'em rules: cards, order of play and betting rounds"): call amounts
  and the big blind's option (blinds 4/8), order of play, heads-up, minimum bet and raise (BB 12);
* seed 002 (Persian, the same all-in guide): its decision tables;
* seed 004 (Arabic, "Minimum raise: raise *to* an amount or *by* an amount?"): two worked
  examples (BB 100, flop).

Dollar examples are built as cash games, so the replay's amounts are in cents (``usd``); chip
examples are built as tournaments (amounts in chips).
"""

from __future__ import annotations

import pytest

from auditor.findings import Finding
from tests.handbuilder import HandBuilder


def usd(dollars: int) -> int:
    """Cash-game amounts are recorded in cents."""
    return dollars * 100


BIG = 100_000


def bs(hb: HandBuilder, rules: str | None = None) -> list[tuple[str, int | None]]:
    """(code, line) of every B and S finding."""
    return hb.codes(rules=rules, prefix="BS")


def only(hb: HandBuilder, code: str, rules: str | None = None) -> Finding:
    """The single B/S finding of the hand, which must carry ``code``."""
    found = [f for f in hb.audit(rules) if f.code[0] in "BS"]
    assert [f.code for f in found] == [code], [(f.code, f.line, f.message) for f in found]
    return found[0]


def cash_flop(players: list[tuple[str, int]]) -> HandBuilder:
    """A $1/$2 cash hand limped to the flop; stacks are dollars *on the flop*.  The last listed
    player has the button, so the first listed player acts first on the flop."""
    hb = HandBuilder(blinds=(1, 2), players=[(n, s + 2) for n, s in players])
    hb.preflop_limp()
    hb.flop()
    return hb


def chip_flop(players: list[tuple[str, int]], blinds: tuple[int, int] = (50, 100)) -> HandBuilder:
    """A tournament hand limped to the flop; stacks are chips *on the flop*."""
    hb = HandBuilder(blinds=blinds, players=[(n, s + blinds[1]) for n, s in players], tournament=True)
    hb.preflop_limp()
    hb.flop()
    return hb


# =============================================================================== seed 000
def seed000_example() -> HandBuilder:
    """Blinds $1/$2, four players see the flop; A bets $10, B is all-in for $14."""
    hb = cash_flop([("A", 1000), ("B", 14), ("C", 1000), ("D", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    return hb


def test_seed000_short_allin_does_not_reopen_for_a() -> None:
    """Seed 000 (Arabic all-in guide), "Does going all-in reopen the betting?", example: "Blinds
    $1/$2.  Four players see the flop.  1. Player A bets $10.  2. Player B goes all-in for $14 (only
    $4 more than A's $10 bet — this is not a full raise, since a full raise requires at least $20).
    ... Player A has already acted (bet $10) and now faces only an incomplete raise.  Because B's
    $14 all-in is less than a full raise, the betting is not reopened for A.  A can only call or
    fold — A cannot re-raise.\""""
    hb = seed000_example()
    hb.call("C")
    hb.call("D")
    hb.raise_to("A", 24)
    s = hb.step("A: raises")
    assert s.expected == "A"
    assert s.acted_before
    assert (s.to_call, s.min_inc) == (usd(4), usd(10))
    assert not s.reopened
    line = hb.line_of("A: raises")
    for rules in (None, "tda", "wsop-live"):
        assert bs(hb, rules) == [("B001", line)], rules
    f = only(hb, "B001", "tda")
    assert "$4.00" in f.message and "$10.00" in f.message and "$24.00" in f.message
    assert "TDA 2026 Rule 49-A" in f.message

    for last in ("call", "fold"):
        good = seed000_example()
        good.call("C")
        good.call("D")
        getattr(good, last)("A")
        assert bs(good) == [], last


def test_seed000_player_yet_to_act_may_raise_to_at_least_24_not_20() -> None:
    """Seed 000, same example: "Player C has not acted yet — so C can still raise.  The
    restriction on reopening never applies to a player who has not acted yet.  But watch the
    amount: if C raises, the minimum is B's all-in total plus the last full bet — i.e. $14 + $10 =
    $24, not the $20 that would have been a full raise over A (WSOP Live Action Rule 176).\""""
    hb = seed000_example()
    hb.raise_to("C", 24)
    s = hb.step("C: raises")
    assert s.expected == "C"
    assert not s.acted_before and s.reopened
    assert (s.current_bet, s.min_inc, s.min_raise_to) == (usd(14), usd(10), usd(24))
    for rules in (None, "tda", "wsop-live"):
        assert bs(hb, rules) == [], rules

    bad = seed000_example()
    bad.raise_to("C", 20)
    line = bad.line_of("C: raises")
    for rules in (None, "tda", "wsop-live"):
        assert bs(bad, rules) == [("B002", line)], rules
    f = only(bad, "B002", "wsop-live")
    assert "$20.00" in f.message and "$24.00" in f.message
    assert "WSOP 2026 Live Action Rule 176" in f.message


def test_seed000_player_yet_to_act_may_go_allin_for_less_than_the_minimum() -> None:
    """Seed 000, same example: "C can still go all-in for less than that: the minimum never binds
    a player going all-in (Live Action Rule 175).\""""
    hb = cash_flop([("A", 1000), ("B", 14), ("C", 20), ("D", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.allin("C")
    assert hb.lines[hb.line_of("C: raises") - 1] == "C: raises $6 to $20 and is all-in"
    s = hb.step("C: raises")
    assert (s.current_bet, s.min_inc) == (usd(14), usd(10))
    assert s.min_raise_to == usd(20)  # $14 + $10 = $24, capped at what C has: all-in for less is a legal raise
    for rules in (None, "tda", "wsop-live"):
        assert bs(hb, rules) == [], rules


def seed000_advanced() -> HandBuilder:
    """$1/$2 flop: A bets $10, B all-in $14, X (between them) calls $14, C all-in $21."""
    hb = cash_flop([("A", 1000), ("B", 14), ("X", 1000), ("C", 21)])
    hb.bet("A", 10)
    hb.allin("B")
    hb.call("X")
    hb.allin("C")
    return hb


def test_seed000_several_short_allins_reopen_per_player() -> None:
    """Seed 000, "Advanced case: what if several players go all-in for short amounts?", example
    (blinds $1/$2, on the flop): "1. A bets $10.  2. B goes all-in for $14 (+$4 — not a full raise
    by itself)  3. C goes all-in for $21 (+$7 — not a full raise by itself).  Total of the two
    increases: $4 + $7 = $11 — this reaches the minimum-raise threshold of $10.  Result: the
    betting is reopened for player A.  A put in $10 and now faces $21 — $11 more, at least a full
    raise — so A can fold, call or re-raise ...  A player who called B's $14 in between will face
    only $7 more when the action returns to him, and nothing reopens for him: call or fold.  The
    minimum-raise threshold is always the last full valid bet or raise — not any cumulative
    total."  (The caller in between is called X here.)"""
    # A: re-opened; the minimum raise adds the last full bet ($10), not the cumulative $11
    hb = seed000_advanced()
    hb.raise_to("A", 31)
    a = hb.step("A: raises")
    assert a.expected == "A"
    assert a.acted_before and a.reopened
    assert (a.current_bet, a.to_call, a.min_inc, a.min_raise_to) == (usd(21), usd(11), usd(10), usd(31))
    assert bs(hb) == []
    for last in ("call", "fold"):
        ok = seed000_advanced()
        getattr(ok, last)("A")
        assert bs(ok) == [], last
    low = seed000_advanced()
    low.raise_to("A", 30)
    assert bs(low) == [("B002", low.line_of("A: raises"))]

    # X: called $14, faces $7 — call or fold only
    bad = seed000_advanced()
    bad.call("A")
    bad.raise_to("X", 31)
    x = bad.step("X: raises")
    assert x.expected == "X"
    assert x.acted_before and not x.reopened
    assert x.to_call == usd(7)
    for rules in (None, "tda"):
        assert bs(bad, rules) == [("B001", bad.line_of("X: raises"))], rules
    good = seed000_advanced()
    good.call("A")
    good.call("X")
    assert bs(good) == []


def seed000_short_bb() -> HandBuilder:
    hb = HandBuilder(blinds=(1, 2), players=[("SB", 100), ("BB", 1), ("UTG", 100), ("BTN", 100)])
    hb.post_blinds()
    return hb


def test_seed000_faq_allin_for_less_than_the_big_blind() -> None:
    """Seed 000, FAQ "Can you go all-in for less than the big blind?": "Yes.  If the blind you owe
    is larger than your whole stack, you put in what you have left and are all-in for it (WSOP
    Live Action Rule 154).  The other players call the full big blind ..."  (Built at the guide's
    $1/$2 with a big blind who has only $1.)"""
    bad = seed000_short_bb()
    assert bad.lines[bad.line_of("BB: posts") - 1] == "BB: posts big blind $1 and is all-in"
    bad.call("UTG")  # the builder calls the posted $1
    bad.fold("BTN")
    bad.fold("SB")
    s = bad.step("UTG: calls")
    assert (s.current_bet, s.to_call, s.call_to, s.min_raise_to) == (usd(2), usd(2), usd(2), usd(4))
    line = bad.line_of("UTG: calls")
    for rules in (None, "wsop-live"):
        assert bs(bad, rules) == [("B007", line)], rules
    assert "WSOP 2026 Live Action Rule 154" in only(bad, "B007", "wsop-live").message

    good = seed000_short_bb()
    good.call("UTG", to=2)
    good.fold("BTN")
    good.fold("SB")
    assert bs(good) == []


def test_seed000_table_stakes_no_chips_from_the_pocket() -> None:
    """Seed 000, "The basis here is the table stakes rule: you may only bet the chips that were in
    front of you on the table at the start of the hand.  You cannot take money out of your
    pocket ..." and Mistake 3 "Adding chips from your pocket mid-hand": "What is on the table is
    all you can bet with.  If you are all-in for $80 ... even if he bet $400."  Ann has $80 and
    faces Bob's $400 bet: calling $400 takes chips she does not have (TABLE_STAKES; B007 leaves a
    call above the stack to S001); calling $80 all-in is the legal call."""
    hb = cash_flop([("Bob", 1000), ("Ann", 80)])
    hb.bet("Bob", 400)
    hb.raw("Ann: calls $400")
    s = hb.step("Ann: calls")
    assert (s.stack, s.to_call) == (usd(80), usd(400))
    line = hb.line_of("Ann: calls")
    assert bs(hb) == [("S001", line)]
    f = next(f for f in hb.audit() if f.code == "S001")
    assert "$400.00" in f.message and "$80.00" in f.message

    good = cash_flop([("Bob", 1000), ("Ann", 80)])
    good.bet("Bob", 400)
    good.call("Ann")
    assert good.lines[good.line_of("Ann: calls") - 1] == "Ann: calls $80 and is all-in"
    assert bs(good) == []


# =============================================================================== seed 001
def seed001_hand(blinds: tuple[int, int] = (4, 8)) -> HandBuilder:
    hb = HandBuilder(blinds=blinds, players=[("SB", BIG), ("BB", BIG), ("UTG", BIG), ("BTN", BIG)], tournament=True)
    hb.post_blinds()
    return hb


def test_seed001_blinds_4_8_call_amounts_and_big_blind_option() -> None:
    """Seed 001 (Arabic Hold'em rules), "Who starts before the flop?": "Suppose the blinds are 4
    and 8.  The first player who has not posted a blind needs 8 to call if no raise has happened.
    If everyone calls and nobody raises, the big blind keeps the right to check or raise; posting
    the blind in advance does not take away his decision.  If someone raises his total
    contribution in the round to 24, the player who has already paid 8 needs 16 more to call.  And
    some players may get another turn if the amount to call changed because of the raise.\""""
    # everyone calls: the big blind may check or raise
    for option in ("check", "raise"):
        hb = seed001_hand()
        hb.call("UTG")
        hb.call("BTN")
        hb.call("SB")
        if option == "check":
            hb.check("BB")
        else:
            hb.raise_to("BB", 16)
            hb.call("UTG")
            hb.call("BTN")
            hb.call("SB")
        hb.flop()
        u = hb.step("UTG: calls") if option == "check" else None
        if u is not None:
            assert (u.expected, u.to_call, u.call_to) == ("UTG", 8, 8)
        bb = hb.step("BB: checks" if option == "check" else "BB: raises")
        assert (bb.expected, bb.to_call) == ("BB", 0)
        assert bb.reopened
        assert bs(hb) == [], option

    # the flop may not be dealt before the big blind has used the option
    early = seed001_hand()
    early.call("UTG")
    early.call("BTN")
    early.call("SB")
    early.flop()
    assert bs(early) == [("B011", early.line_of("*** FLOP ***"))]
    assert only(early, "B011").data["pending"] == ["BB"]

    # a raise to 24: the big blind (8 in) needs 16 more; a limper gets another turn
    hb = seed001_hand()
    hb.call("UTG")
    hb.raise_to("BTN", 24)
    hb.fold("SB")
    hb.call("BB")
    hb.call("UTG")
    assert hb.lines[hb.line_of("BB: calls") - 1] == "BB: calls 16"
    bb = hb.step("BB: calls")
    assert (bb.expected, bb.street_bet, bb.to_call) == ("BB", 8, 16)
    utg = hb.step("UTG: calls")  # the second UTG call: the limper's new turn
    assert (utg.expected, utg.street_bet, utg.to_call) == ("UTG", 8, 16)
    assert bs(hb) == []


def test_seed001_postflop_order_skips_a_folded_small_blind() -> None:
    """Seed 001, "Who starts after the flop?": "After the flop, the turn and the river, the first
    player still in the hand after the dealer button, clockwise, starts.  If the small blind has
    folded, the turn passes to the next eligible player ... The button acts last after the flop
    if he is still in the hand.\""""

    def to_flop() -> HandBuilder:
        hb = seed001_hand()
        hb.call("UTG")
        hb.call("BTN")
        hb.fold("SB")
        hb.check("BB")
        hb.flop()
        return hb

    hb = to_flop()
    hb.check("BB")
    hb.check("UTG")
    hb.bet("BTN", 8)
    hb.call("BB")
    hb.call("UTG")
    trace, _ = hb.replay()
    flop_line = hb.line_of("*** FLOP ***")
    flop = [(s.event.player, s.expected) for s in trace.steps if s.event.line > flop_line]
    assert flop == [("BB", "BB"), ("UTG", "UTG"), ("BTN", "BTN"), ("BB", "BB"), ("UTG", "UTG")]
    assert bs(hb) == []

    bad = to_flop()
    bad.check("UTG")
    assert bad.step("UTG: checks").expected == "BB"
    assert bs(bad) == [("B004", bad.line_of("UTG: checks"))]


def test_seed001_heads_up_button_is_small_blind_first_before_flop_last_after() -> None:
    """Seed 001, "The exception when playing heads-up": "If the hand began between two players
    only, the holder of the button posts the small blind.  He acts first before the flop and last
    after the flop.  The big blind acts after him before the flop and first after the flop.\""""

    def hu() -> HandBuilder:
        hb = HandBuilder(blinds=(4, 8), players=[("BB", 1000), ("BTN", 1000)], button="BTN", tournament=True)
        hb.post_blinds()
        return hb

    hb = hu()
    assert hb.lines[hb.line_of("BTN: posts") - 1] == "BTN: posts small blind 4"
    hb.call("BTN")
    hb.check("BB")
    hb.flop()
    hb.check("BB")
    hb.check("BTN")
    assert hb.step("BTN: calls").expected == "BTN"
    assert hb.step("BB: checks").expected == "BB"  # first on the flop
    assert hb.step("BTN: checks").expected == "BTN"  # last on the flop
    assert bs(hb) == []

    bad = hu()
    bad.call("BTN")
    bad.check("BB")
    bad.flop()
    bad.check("BTN")
    assert bad.step("BTN: checks").expected == "BB"
    assert bs(bad) == [("B004", bad.line_of("BTN: checks"))]

    pre = hu()
    pre.check("BB")
    assert pre.step("BB: checks").expected == "BTN"
    assert ("B004", pre.line_of("BB: checks")) in bs(pre)


def test_seed001_full_raise_is_measured_by_the_last_raise_amount() -> None:
    """Seed 001, "What does no-limit Hold'em mean?", original example: "The big blind is 12, and a
    player raised his total contribution from 12 to 36.  The raise amount is 24, so the next full
    raise is to a total of at least 60, not 48.  The limit is computed from the amount of the last
    raise, not by simply doubling the displayed number."  (Built with the big blind raising his 12
    to 36 after limpers; a limper then re-raises.)"""

    def hb_to(to: int) -> HandBuilder:
        hb = seed001_hand(blinds=(6, 12))
        hb.call("UTG")
        hb.call("BTN")
        hb.call("SB")
        hb.raise_to("BB", 36)
        hb.raise_to("UTG", to)
        return hb

    hb = hb_to(60)
    bb = hb.step("BB: raises")
    assert (bb.current_bet, bb.min_inc, bb.min_raise_to) == (12, 12, 24)
    u = hb.step("UTG: raises")
    assert (u.expected, u.current_bet, u.min_inc, u.min_raise_to) == ("UTG", 36, 24, 60)
    assert u.reopened
    assert bs(hb) == []
    bad = hb_to(48)
    assert bs(bad) == [("B002", bad.line_of("UTG: raises"))]
    f = only(bad, "B002", "tda")
    assert "raised to 48" in f.message and "to 60" in f.message


def test_seed001_minimum_bet_is_the_big_blind() -> None:
    """Seed 001, "What does no-limit Hold'em mean?": "In no-limit Texas Hold'em you may bet up to
    your whole stack on the table.  The normal minimum bet equals the big blind ...\""""
    bad = chip_flop([("A", 1000), ("B", 1000), ("C", 1000)], blinds=(6, 12))
    bad.bet("A", 6)
    assert bs(bad) == [("B003", bad.line_of("A: bets"))]
    good = chip_flop([("A", 1000), ("B", 1000), ("C", 1000)], blinds=(6, 12))
    good.bet("A", 12)
    assert good.step("A: bets").min_bet == 12
    assert bs(good) == []
    allin = chip_flop([("A", 6), ("B", 1000), ("C", 1000)], blinds=(6, 12))
    allin.bet("A", 6)  # all-in for less than the minimum bet: legal
    assert bs(allin) == []


# =============================================================================== seed 002
def short_allins(b: int, c: int | None = None) -> HandBuilder:
    """$1/$2, four players see the flop: A bets $10, B is all-in for ``b`` and C, if ``c`` is
    given, all-in for ``c``."""
    hb = cash_flop([("A", 1000), ("B", b), ("C", c if c is not None else 1000), ("D", 1000)])
    hb.bet("A", 10)
    hb.allin("B")
    if c is not None:
        hb.allin("C")
    return hb


def test_seed002_example_a_cannot_reraise_c_raises_normally() -> None:
    """Seed 002 (Persian all-in guide), example: "Blinds $1/$2.  Four players see the flop.
    1. Player A bets $10.  2. Player B goes all-in for $14 (only $4 more than A's $10 — not a full
    raise, because a full raise needs at least $20) ... Player A has already acted ($10 bet) and
    now faces only an incomplete raise ... A can only call or fold — cannot re-raise.  Player C has
    not acted yet — player C can still raise normally.\""""
    hb = short_allins(14)
    hb.raise_to("C", 24)
    hb.call("D")
    hb.call("A")
    c = hb.step("C: raises")
    assert c.reopened and c.min_raise_to == usd(24)
    assert bs(hb) == []

    bad = short_allins(14)
    bad.call("C")
    bad.call("D")
    bad.raise_to("A", 24)
    assert not bad.step("A: raises").reopened
    assert bs(bad) == [("B001", bad.line_of("A: raises"))]


@pytest.mark.parametrize(
    ("b_allin", "full_raise", "reopens"),
    [(14, False, False), (20, True, True)],
    ids=["less-than-a-full-raise", "full-raise-or-more"],
)
def test_seed002_table_does_the_allin_reopen(b_allin: int, full_raise: bool, reopens: bool) -> None:
    """Seed 002, table "All-in amount | Full raise? | Reopens the betting?": "Less than a full
    raise | No | No — those who have already acted can only call or fold"; "A full raise or more |
    Yes | Yes — everyone can re-raise again".  (A bets $10, B is all-in, C and D call, action
    returns to A.)"""
    hb = short_allins(b_allin)
    hb.call("C")
    hb.call("D")
    hb.raise_to("A", b_allin + 10)
    a = hb.step("A: raises")
    assert a.acted_before is not full_raise  # a full raise re-opens the round for everybody
    assert a.to_call == usd(b_allin - 10)
    assert a.reopened is reopens
    assert (a.to_call >= a.min_inc) is full_raise
    assert bs(hb) == ([] if reopens else [("B001", hb.line_of("A: raises"))])
    good = short_allins(b_allin)
    good.call("C")
    good.call("D")
    good.call("A")
    assert bs(good) == []


@pytest.mark.parametrize(
    ("b_allin", "c_allin", "total", "reopens"),
    [(14, 18, 8, False), (14, 21, 11, True), (15, 24, 14, True)],
    ids=["14-18-no", "14-21-yes", "15-24-yes"],
)
def test_seed002_table_cumulative_short_allins(b_allin: int, c_allin: int, total: int, reopens: bool) -> None:
    """Seed 002, table "B's all-in | C's all-in | Total increase | Reopens for A?": "$14 (+$4) |
    $18 (+$4) | $8 — less than $10 | No"; "$14 (+$4) | $21 (+$7) | $11 — reaches $10 | Yes";
    "$15 (+$5) | $24 (+$9) | $14 — reaches $10 | Yes".  "The minimum-raise threshold is always the
    last full valid bet or raise — not any cumulative total."  (A bets $10, B and C are all-in, D
    calls, action returns to A.)"""
    hb = short_allins(b_allin, c_allin)
    hb.call("D")
    hb.raise_to("A", c_allin + 10)
    a = hb.step("A: raises")
    assert a.acted_before
    assert a.to_call == usd(total)
    assert a.reopened is reopens
    assert (a.min_inc, a.min_raise_to) == (usd(10), usd(c_allin + 10))
    assert bs(hb) == ([] if reopens else [("B001", hb.line_of("A: raises"))])
    if reopens:  # the minimum stays "+ the last full bet": one chip less is below the minimum
        low = short_allins(b_allin, c_allin)
        low.call("D")
        low.raise_to("A", c_allin + 9)
        assert bs(low) == [("B002", low.line_of("A: raises"))]
    good = short_allins(b_allin, c_allin)
    good.call("D")
    good.call("A")
    assert bs(good) == []


@pytest.mark.parametrize(
    ("situation", "allins", "raiser", "acted", "reopens"),
    [
        ("one all-in < full raise", (14,), "A", True, False),
        # a full raise re-opens the round: A counts as not having acted since
        ("one all-in >= full raise", (20,), "A", False, True),
        ("several short all-ins, total < full raise", (14, 18), "A", True, False),
        ("several short all-ins, total >= full raise", (14, 21), "A", True, True),
        ("player who has not acted yet", (14, 18), "D", False, True),
    ],
    ids=["single-short", "single-full", "several-short", "several-full", "not-yet-acted"],
)
def test_seed002_quick_decision_guide(
    situation: str, allins: tuple[int, ...], raiser: str, acted: bool, reopens: bool
) -> None:
    """Seed 002, "Quick decision guide — does this all-in reopen the betting?": "One all-in < full
    raise | No — only call or fold"; "One all-in >= full raise | Yes — everyone can re-raise";
    "Several short all-ins, total < full raise | No"; "Several short all-ins, total >= full raise |
    Yes"; "A player who has not acted yet | can always raise (regardless)".  (A bets $10; B, and C
    in the several-all-in rows, are all-in; the others call until the raiser's turn.)"""
    hb = short_allins(*allins)
    top = max(allins)
    order = ["C", "D", "A"] if len(allins) == 1 else ["D", "A"]
    for n in order[: order.index(raiser)]:
        hb.call(n)
    hb.raise_to(raiser, top + 10)
    s = hb.step(f"{raiser}: raises")
    assert s.expected == raiser
    assert s.acted_before is acted, situation
    assert s.reopened is reopens, situation
    assert s.min_raise_to == usd(top + 10), situation
    assert bs(hb) == ([] if reopens else [("B001", hb.line_of(f"{raiser}: raises"))]), situation


# =============================================================================== seed 004
def seed004_example1() -> HandBuilder:
    hb = chip_flop([("A", BIG), ("B", 150), ("C", BIG)])
    hb.bet("A", 100)
    hb.allin("B")
    return hb


def test_seed004_example1_the_player_yet_to_act() -> None:
    """Seed 004 (Arabic, "Minimum raise: raise to an amount or by an amount?"), section 06, first
    example (no-limit Hold'em flop, big blind 100, players A, B, C act in order): "A bets 100; B has
    only 150 and pushes it all to a total of 150.  C can fold, call to a total of 150, or make a
    full raise to a total of at least 150 + 100 = 250.\""""
    hb = seed004_example1()
    hb.raise_to("C", 250)
    hb.call("A")
    c = hb.step("C: raises")
    assert c.expected == "C"
    assert not c.acted_before and c.reopened
    assert (c.current_bet, c.to_call, c.min_inc, c.min_raise_to) == (150, 150, 100, 250)
    for rules in (None, "tda"):
        assert bs(hb, rules) == [], rules

    bad = seed004_example1()
    bad.raise_to("C", 249)
    for rules in (None, "tda"):
        assert bs(bad, rules) == [("B002", bad.line_of("C: raises"))], rules
    f = only(bad, "B002", "tda")
    assert "249" in f.message and "250" in f.message
    assert "TDA 2026 Rule 45-A" in f.message  # the seed cites TDA 2026 Rules 45A and 49A

    for last in ("call", "fold"):
        ok = seed004_example1()
        getattr(ok, last)("C")
        assert bs(ok) == [], last


def test_seed004_example1_the_bettor_may_not_reraise() -> None:
    """Seed 004, first example, continued: "Assume here that C calls 150.  ... the action returns
    to A, who has already bet.  A has put in 100 and now faces a total of 150, so the increase he
    faces is only 150 - 100 = 50, less than the full bet of 100.  He can add 50 to call, or fold,
    but he cannot raise again.  The return of the turn to make a decision does not by itself
    reopen the right to raise.\""""
    hb = seed004_example1()
    hb.call("C")
    hb.raise_to("A", 250)
    a = hb.step("A: raises")
    assert a.expected == "A"
    assert a.acted_before and not a.reopened
    assert (a.to_call, a.min_inc) == (50, 100)
    for rules in (None, "tda"):
        assert bs(hb, rules) == [("B001", hb.line_of("A: raises"))], rules
    f = only(hb, "B001", "tda")
    assert "50" in f.message and "100" in f.message
    assert "TDA 2026 Rule 49-A" in f.message

    for last in ("call", "fold"):
        ok = seed004_example1()
        ok.call("C")
        getattr(ok, last)("A")
        assert bs(ok) == [], last


def seed004_example2() -> HandBuilder:
    hb = chip_flop([("A", BIG), ("B", 150), ("C", 200), ("D", BIG)])
    hb.bet("A", 100)
    hb.allin("B")
    hb.allin("C")
    return hb


def test_seed004_example2_the_player_yet_to_act() -> None:
    """Seed 004, second example (players A, B, C, D): "two incomplete all-in raises accumulate.
    A bets 100; B pushes all his chips to a total of 150; C also pushes all his chips to a total of
    200, raising this time by only 50.  D has not acted in this round yet and can fold, call to a
    total of 200, or make a full raise to a total of at least 200 + 100 = 300.\""""
    hb = seed004_example2()
    hb.raise_to("D", 300)
    hb.call("A")
    d = hb.step("D: raises")
    assert d.expected == "D"
    assert not d.acted_before and d.reopened
    assert (d.current_bet, d.to_call, d.min_inc, d.min_raise_to) == (200, 200, 100, 300)
    assert bs(hb) == []
    low = seed004_example2()
    low.raise_to("D", 299)
    assert bs(low) == [("B002", low.line_of("D: raises"))]
    ok = seed004_example2()
    ok.call("D")
    ok.call("A")
    assert bs(ok) == []


def test_seed004_example2_cumulative_short_allins_reopen_for_the_bettor() -> None:
    """Seed 004, second example, continued: "Assume D calls 200.  ... the action returns to A.
    From the 100 he put in to the current total of 200, the cumulative increase is 200 - 100 = 100,
    which reaches the full bet of 100, and the right to raise is reopened.  He can add 100 to call,
    fold, or make a full raise to a total of at least 300.  If he raises to a total of 300, he now
    adds 300 - 100 = 200 chips.  Reopening the right does not allow an arbitrary small raise.  The
    last full bet in this example is still A's bet of 100, so the next full raise must raise the
    amount by at least 100, not just by the last incomplete raise of 50.  If A raises to a total
    of 300, D must answer the new raise when his turn comes.  B and C have pushed all their chips
    and do not act again.\""""
    hb = seed004_example2()
    hb.call("D")
    hb.raise_to("A", 300)
    hb.call("D")
    hb.turn()
    a = hb.step("A: raises")
    assert a.expected == "A"
    assert a.acted_before and a.reopened
    assert (a.street_bet, a.current_bet, a.to_call, a.min_inc, a.min_raise_to) == (100, 200, 100, 100, 300)
    assert a.add == 200  # "he now adds 300 - 100 = 200 chips"
    d = hb.step("D: calls")  # D answers the new raise
    assert (d.expected, d.to_call) == ("D", 100)
    assert d.reopened  # a full raise: D could re-raise too
    for rules in (None, "tda"):
        assert bs(hb, rules) == [], rules

    for last in ("call", "fold"):
        ok = seed004_example2()
        ok.call("D")
        getattr(ok, last)("A")
        assert bs(ok) == [], last

    # raising by only the last incomplete increment (50) is below the minimum
    small = seed004_example2()
    small.call("D")
    small.raise_to("A", 250)
    for rules in (None, "tda"):
        assert bs(small, rules) == [("B002", small.line_of("A: raises"))], rules

    # B and C are all-in: they do not act again
    after = seed004_example2()
    after.call("D")
    after.raise_to("A", 300)
    after.call("D")
    after.turn()
    after.check("B")
    assert bs(after) == [("B005", after.line_of("B: checks"))]
