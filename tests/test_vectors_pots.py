"""The pot, award and rake vectors of RULES.md §8 (V22-V49, V51 and V52): one test (or a few) per
vector.

Each test writes the vector's hand in the site's own format (PokerStars, or GGPoker for the GG
vectors), audits it with :func:`auditor.audit.audit_hand` under the profile the vector implies
(``pokerstars`` prints a pot boundary at every all-in level; ``tda`` merges layers with the same
eligible players; ``ggpoker`` for GG hands), and checks

* every number the vector states: the uncalled part returned, each pot's amount and eligible
  players, who is paid what (odd chips, hi/lo halves, per-run shares), rake and fees;
* that the hand as the rules want it audits with no A finding;
* that a variant paying it wrongly gets the A code that names the mistake (A001 uncalled bet,
  A002 total pot, A003 side pot, A004 wrong winner, A005 ineligible player, A006 odd chip or
  split, A007 hi-lo, A008 run it twice, A009 rake, A010 chips not conserved).

Where a vector comes from a real hand history of the shared corpus (``../shared/corpus``), the
real hand is audited too (the test skips when the corpus is absent), and a built equivalent with
the same amounts (other names, cards and actions where the vector leaves them free) runs without
it.  Tournament hands are in chips; cash hands are recorded in cents.

The bugs these tests found (a dead all-in hand kept eligible, the big-blind ante matched like an
individual ante, misprinted pots trusted, no rake table) have been fixed; the tests stay as they
were written, the way the rules require.
"""

from __future__ import annotations

from dataclasses import fields, replace
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import REGISTRY, ExportFacts, parse_text
from auditor.pipeline import Summary, iter_parsed
from auditor.profiles import PROFILES, with_options
from auditor.replay.cards import category, high_key
from auditor.replay.pots import PotTrace, run_shares, split
from tests.conftest import corpus_dir

# ------------------------------------------------------------------------------------ helpers


def parse(text: str) -> M.Hand:
    """The one hand of ``text``; it must parse without a finding."""
    items = list(parse_text(text, path="built.txt"))
    hands = [h for h in items if isinstance(h, M.Hand)]
    problems = [(f.code, f.line, f.message) for f in items if isinstance(f, Finding)]
    assert len(hands) == 1 and not problems, problems
    return hands[0]


def audit_of(hand: M.Hand, rules: str = "pokerstars", **options: object) -> tuple[PotTrace, list[Finding]]:
    """Audit ``hand`` under the profile ``rules``, with ``options`` changed (rule-book settings of the
    profile, or export facts of the hand's format): (pots, findings)."""
    profile = PROFILES[rules]
    facts = REGISTRY.facts_for(hand)
    fact_names = {f.name for f in fields(ExportFacts)}
    if options:
        profile = with_options(profile, **{k: v for k, v in options.items() if k not in fact_names})
        facts = replace(facts, **{k: v for k, v in options.items() if k in fact_names})  # type: ignore[arg-type]
    a = audit_hand(hand, profile, facts)
    assert a.pots is not None
    return a.pots, a.findings


def audit(text: str, rules: str = "pokerstars", **options: object) -> tuple[PotTrace, list[Finding]]:
    return audit_of(parse(text), rules, **options)


def a_codes(found: list[Finding]) -> list[str]:
    """The distinct A codes among ``found``, sorted."""
    return sorted({f.code for f in found if f.code.startswith("A")})


def pots(pt: PotTrace) -> list[tuple[int, set[str]]]:
    """Each pot as (gross amount, eligible players), main pot first."""
    return [(p.amount, set(p.eligible)) for p in pt.pots]


def nets(pt: PotTrace) -> list[int]:
    return [p.net for p in pt.pots]


def swap(text: str, old: str, new: str) -> str:
    """``text`` with the one occurrence of ``old`` replaced (a variant of a hand)."""
    assert text.count(old) == 1, (old, text.count(old))
    return text.replace(old, new)


def flagged(text: str, code: str, rules: str = "pokerstars", player: str | None = None, **options: object) -> Finding:
    """Audit a wrong variant: it must carry ``code`` (naming ``player`` when given); the finding."""
    _pt, found = audit(text, rules, **options)
    hits = [f for f in found if f.code == code and (player is None or f.data.get("player") == player)]
    assert hits, [(f.code, f.line, f.message) for f in found]
    return hits[0]


def clean(text: str, rules: str = "pokerstars", **options: object) -> PotTrace:
    """Audit a correct hand: no A finding; its pots."""
    pt, found = audit(text, rules, **options)
    assert a_codes(found) == [], [(f.code, f.line, f.message) for f in found if f.code.startswith("A")]
    return pt


def corpus_hand(site: str, variant: str, name: str, hand_id: str) -> M.Hand:
    """A real hand of the shared corpus (the test skips when the corpus is absent)."""
    path: Path = corpus_dir(site, variant, "fpdb3") / name
    for hand, _found in iter_parsed([str(path)], Summary(), rules=None):
        if hand is not None and str(hand.hand_id) == hand_id:
            return hand
    raise AssertionError(f"hand {hand_id} not found in {path}")


def clean_real(hand: M.Hand, rules: str = "pokerstars", **options: object) -> PotTrace:
    pt, found = audit_of(hand, rules, **options)
    assert a_codes(found) == [], [(f.code, f.line, f.message) for f in found if f.code.startswith("A")]
    return pt


def board(cards: str, *checkers: str) -> str:
    """The flop, turn and river lines of a PokerStars or GG hand dealt to the river; ``checkers``
    (in order of play) check on every street."""
    c = cards.split()
    checks = "".join(f"{n}: checks\n" for n in checkers)
    return (
        f"*** FLOP *** [{' '.join(c[:3])}]\n{checks}"
        f"*** TURN *** [{' '.join(c[:3])}] [{c[3]}]\n{checks}"
        f"*** RIVER *** [{' '.join(c[:4])}] [{c[4]}]\n{checks}"
    )


def ps_tourney(
    hand_id: int,
    blinds: tuple[int, int],
    button: int,
    seats: list[tuple[int, str, int]],
    game: str = "Hold'em No Limit",
    max_seats: int = 9,
) -> str:
    """The header of a PokerStars tournament hand (amounts in chips)."""
    sb, bb = blinds
    lines = [
        f"PokerStars Hand #{hand_id}: Tournament #1000000001, $10+$1 USD {game} - Level I ({sb}/{bb}) "
        "- 2026/01/01 12:00:00 ET",
        f"Table '1000000001 1' {max_seats}-max Seat #{button} is the button",
    ]
    lines += [f"Seat {s}: {n} ({c} in chips)" for s, n, c in seats]
    return "\n".join(lines) + "\n"


# =========================================================================== pot construction

# --------------------------------------------------------------------------------------- V22
V22 = (
    ps_tourney(900000002201, (10, 20), 3, [(1, "A", 80), (2, "B", 210), (3, "C", 1000)])
    + """A: posts small blind 10
B: posts big blind 20
*** HOLE CARDS ***
C: raises 330 to 350
A: calls 70 and is all-in
B: calls 190 and is all-in
Uncalled bet (140) returned to C
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
A: shows [As Ah] (a pair of Aces)
B: shows [Qs Qh] (a pair of Queens)
C: shows [Tc Td] (a pair of Tens)
B collected 260 from side pot
A collected 240 from main pot
*** SUMMARY ***
Total pot 500 Main pot 240. Side pot 260. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A (small blind) showed [As Ah] and won (240) with a pair of Aces
Seat 2: B (big blind) showed [Qs Qh] and won (260) with a pair of Queens
Seat 3: C (button) showed [Tc Td] and lost with a pair of Tens
"""
)


def test_v22_two_allins_and_an_uncalled_excess() -> None:
    """V22: A 80 all-in, B 210 all-in, C 350; board 2h 5d 8c Js Kd; A AsAh, B QsQh, C TcTd →
    140 returned to C; main 240 {A,B,C} → A; side 260 {B,C} → B."""
    for rules in ("pokerstars", "tda"):
        pt = clean(V22, rules)
        assert pt.contributions == {"A": 80, "B": 210, "C": 350}
        assert pt.expected_returns == pt.printed_returns == {"C": 140}
        assert pots(pt) == [(240, {"A", "B", "C"}), (260, {"B", "C"})], rules
        assert pt.total_expected == 500
        assert pt.expected_paid == pt.collected == {"A": 240, "B": 260}
        assert [(a.pot, a.winners, a.amount) for a in pt.awards] == [("main", ("A",), 240), ("side-1", ("B",), 260)]
        # every chip accounted for: 80 + 210 + 350 = 240 + 260 + 140
        assert sum(pt.contributions.values()) == 640 == sum(p.amount for p in pt.pots) + 140

    # wrong variants
    f = flagged(swap(V22, "Uncalled bet (140)", "Uncalled bet (100)"), "A001", player="C")
    assert (f.data["expected"], f.data["actual"]) == (140, 100)
    f = flagged(swap(V22, "Uncalled bet (140) returned to C\n", ""), "A001", player="C")
    assert (f.data["expected"], f.data["actual"]) == (140, 0)
    f = flagged(swap(V22, "Total pot 500", "Total pot 640"), "A002")
    assert (f.data["expected"], f.data["actual"]) == (500, 640)
    flagged(swap(V22, "Main pot 240. Side pot 260.", "Main pot 260. Side pot 240."), "A003")
    flagged(swap(V22, "B collected 260 from side pot", "C collected 260 from side pot"), "A004", player="C")
    both = swap(V22, "B collected 260 from side pot\nA collected 240 from main pot", "A collected 500 from pot")
    f = flagged(both, "A005", player="A")
    assert (f.data["expected"], f.data["actual"]) == (240, 500)


def test_v22_misprinted_pot_sizes_do_not_blame_the_correct_collects() -> None:
    """V22 with the summary printing the main and side pots the wrong way round: that is a side-pot
    error (A003); the collect lines are still the rules' (A 240 from main, B 260 from side)."""
    pt, found = audit(swap(V22, "Main pot 240. Side pot 260.", "Main pot 260. Side pot 240."))
    assert "A003" in a_codes(found)
    assert pt.expected_paid == {"A": 240, "B": 260}
    assert a_codes(found) == ["A003"]


# --------------------------------------------------------------------------------------- V23
V23 = (
    ps_tourney(900000002301, (50, 100), 2, [(1, "A", 70), (2, "B", 160), (3, "C", 250), (4, "D", 1000)])
    + """C: posts small blind 50
D: posts big blind 100
*** HOLE CARDS ***
A: calls 70 and is all-in
B: raises 60 to 160 and is all-in
C: raises 90 to 250 and is all-in
D: folds
Uncalled bet (90) returned to C
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
A: shows [As Ah] (a pair of Aces)
B: shows [Qs Qh] (a pair of Queens)
C: shows [Tc Td] (a pair of Tens)
B collected 210 from side pot
A collected 280 from main pot
*** SUMMARY ***
Total pot 490 Main pot 280. Side pot 210. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A showed [As Ah] and won (280) with a pair of Aces
Seat 2: B (button) showed [Qs Qh] and won (210) with a pair of Queens
Seat 3: C (small blind) showed [Tc Td] and lost with a pair of Tens
Seat 4: D (big blind) folded before Flop
"""
)


def test_v23_folded_chips_stay_in_the_layers_they_reached() -> None:
    """V23: A 70, B 160, C 250, D 100 folded → layers 280 {A,B,C}, 90 {B,C}, 120 {B,C} → merged
    210 {B,C}; 90 returned to C; total 580."""
    for rules in ("tda", "pokerstars"):
        pt = clean(V23, rules)
        assert pt.contributions == {"A": 70, "B": 160, "C": 250, "D": 100}
        assert sum(pt.contributions.values()) == 580
        assert pt.expected_returns == pt.printed_returns == {"C": 90}
        assert pots(pt) == [(280, {"A", "B", "C"}), (210, {"B", "C"})], rules
        main, side = pt.pots
        assert (main.low, main.high, side.low, side.high) == (0, 70, 70, 160)
        # the side pot is the layers 70-100 (3 x 30 = 90) and 100-160 (2 x 60 = 120)
        level = {n: v - pt.expected_returns.get(n, 0) for n, v in pt.contributions.items()}
        layer = {(lo, hi): sum(min(v, hi) - min(v, lo) for v in level.values()) for lo, hi in ((70, 100), (100, 160))}
        assert layer == {(70, 100): 90, (100, 160): 120}
        assert pt.total_expected == 490 == 580 - 90
        assert pt.expected_paid == pt.collected == {"A": 280, "B": 210}
        assert "D" not in main.eligible and "D" not in side.eligible

    # the folded player paid, the all-in player paid from the side pot
    flagged(swap(V23, "B collected 210 from side pot", "D collected 210 from side pot"), "A005", player="D")
    flagged(swap(V23, "B collected 210 from side pot", "A collected 210 from side pot"), "A005", player="A")
    flagged(swap(V23, "Uncalled bet (90) returned to C", "Uncalled bet (60) returned to C"), "A001", player="C")


# --------------------------------------------------------------------------------------- V24
V24 = (
    ps_tourney(900000002401, (10, 20), 4, [(1, "A", 100), (2, "B", 200), (3, "C", 500), (4, "D", 2000)])
    + """A: posts small blind 10
B: posts big blind 20
*** HOLE CARDS ***
C: raises 480 to 500 and is all-in
D: calls 500
A: calls 90 and is all-in
B: calls 180 and is all-in
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
A: shows [As Ah] (a pair of Aces)
B: shows [Qs Qh] (a pair of Queens)
C: shows [Tc Td] (a pair of Tens)
D: shows [9c 9d] (a pair of Nines)
C collected 600 from side pot-2
B collected 300 from side pot-1
A collected 400 from main pot
*** SUMMARY ***
Total pot 1300 Main pot 400. Side pot-1 300. Side pot-2 600. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A (small blind) showed [As Ah] and won (400) with a pair of Aces
Seat 2: B (big blind) showed [Qs Qh] and won (300) with a pair of Queens
Seat 3: C showed [Tc Td] and won (600) with a pair of Tens
Seat 4: D (button) showed [9c 9d] and lost with a pair of Nines
"""
)


def test_v24_three_pots_nothing_returned() -> None:
    """V24: A 100, B 200, C 500, D 500 (all in / call) → 400 {A,B,C,D}, 300 {B,C,D}, 600 {C,D};
    total 1300; nothing returned."""
    for rules in ("pokerstars", "tda"):
        pt = clean(V24, rules)
        assert pt.expected_returns == pt.printed_returns == {}
        assert pots(pt) == [(400, {"A", "B", "C", "D"}), (300, {"B", "C", "D"}), (600, {"C", "D"})], rules
        assert pt.total_expected == 1300
        assert pt.expected_paid == pt.collected == {"A": 400, "B": 300, "C": 600}

    flagged(
        swap(V24, "B: calls 180 and is all-in\n", "B: calls 180 and is all-in\nUncalled bet (300) returned to D\n"),
        "A001",
        player="D",
    )
    flagged(swap(V24, "Side pot-1 300. Side pot-2 600.", "Side pot-1 600. Side pot-2 300."), "A003")
    flagged(swap(V24, "C collected 600 from side pot-2", "A collected 600 from side pot-2"), "A005", player="A")
    flagged(swap(V24, "C collected 600 from side pot-2", "D collected 600 from side pot-2"), "A004", player="D")


# --------------------------------------------------------------------------------------- V25
V25_SEATS = [(1, "SB", 10000), (2, "Alice", 800)] + [(s, f"O{s - 2}", 10000) for s in range(3, 9)]
V25 = (
    ps_tourney(900000002501, (400, 800), 10, [*V25_SEATS, (9, "Bob", 10000), (10, "Carol", 10000)], max_seats=10)
    + "".join(f"{n}: posts the ante 100\n" for _s, n, _c in [*V25_SEATS, (9, "Bob", 0), (10, "Carol", 0)])
    + """SB: posts small blind 400
Alice: posts big blind 700 and is all-in
*** HOLE CARDS ***
"""
    + "".join(f"O{i}: folds\n" for i in range(1, 7))
    + """Bob: calls 800
Carol: raises 800 to 1600
SB: folds
Bob: folds
Uncalled bet (800) returned to Carol
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
Alice: shows [As Ah] (a pair of Aces)
Carol: shows [Qs Qh] (a pair of Queens)
Carol collected 200 from side pot
Alice collected 3500 from main pot
*** SUMMARY ***
Total pot 3700 Main pot 3500. Side pot 200. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 2: Alice (big blind) showed [As Ah] and won (3500) with a pair of Aces
Seat 10: Carol (button) showed [Qs Qh] and won (200) with a pair of Queens
"""
)


def test_v25_antes_are_layered_and_a_lone_side_pot_goes_back_to_its_player() -> None:
    """V25: ante 100 x 10, 400/800; Alice BB all-in 800 (100 + 700), SB 500 folded, Bob 900
    folded, Carol 1700, six others 100 folded → 800 returned to Carol; main 3500 {Alice,Carol};
    side 200 {Carol} (the folded Bob's last 100 is matched by Carol: a pot, not an uncalled bet)."""
    for rules in ("pokerstars", "tda"):
        pt = clean(V25, rules)
        assert pt.contributions["Alice"] == 800 and pt.contributions["SB"] == 500
        assert pt.contributions["Bob"] == 900 and pt.contributions["Carol"] == 1700
        assert [pt.contributions[f"O{i}"] for i in range(1, 7)] == [100] * 6
        assert pt.expected_returns == pt.printed_returns == {"Carol": 800}
        assert pots(pt) == [(3500, {"Alice", "Carol"}), (200, {"Carol"})], rules
        assert pt.total_expected == 3700
        assert pt.expected_paid == pt.collected == {"Alice": 3500, "Carol": 200}
        assert pt.awards[1].why == "uncontested"

    # the 100 Carol matched from Bob is not uncalled; Alice cannot win above her 800
    flagged(swap(V25, "Uncalled bet (800)", "Uncalled bet (900)"), "A001", player="Carol")
    flagged(swap(V25, "Carol collected 200 from side pot", "Alice collected 200 from side pot"), "A005", player="Alice")


# --------------------------------------------------------------------------------------- V26
@pytest.mark.corpus
def test_v26_real_gg_dead_missed_blind_is_not_matched_and_the_pot_is_run_twice() -> None:
    """V26 (real hand, GG OM232657303): Hero 64 live, BB 5 folded, P 48 live + 2 dead → 16
    returned to Hero (the dead 2 is not matched); Total pot 103; net 97.85 → RIT 48.93 + 48.92."""
    hand = corpus_hand("ggpoker", "cash-flop", "PLO-6max-USD-2-5-202101.RIT.txt", "OM232657303")
    pt = clean_real(hand, "ggpoker")
    assert pt.contributions["Hero"] == 6400 and pt.contributions["3b7dff87"] == 4800
    assert pt.contributions["21e21aa8"] == 500 and pt.dead == {"3b7dff87": 200}
    assert pt.expected_returns == pt.printed_returns == {"Hero": 1600}
    assert pt.total_expected == 10300 and (pt.rake, pt.fees) == (515, 0)
    assert pots(pt) == [(10300, {"Hero", "3b7dff87"})] and nets(pt) == [9785]
    assert [(a.run, a.winners, a.amount) for a in pt.awards] == [(1, ("3b7dff87",), 4893), (2, ("Hero",), 4892)]
    assert pt.expected_paid == pt.collected == {"3b7dff87": 4893, "Hero": 4892}


V26 = """Poker Hand #OM900000026: PLO ($2/$5) - 2021/01/21 02:41:55
Table 'PLOTest1' 6-max Seat #6 is the button
Seat 1: Hero ($82.4 in chips)
Seat 2: Bea ($644.26 in chips)
Seat 3: Cid ($500 in chips)
Seat 4: Pat ($50 in chips)
Seat 5: Eva ($668.42 in chips)
Seat 6: Flo ($760.29 in chips)
Hero: posts small blind $2
Bea: posts big blind $5
Pat: posts missed blind $2
Pat: posts big blind $5
*** HOLE CARDS ***
Dealt to Hero [Ah Ad Kc Qd]
Dealt to Bea
Dealt to Cid
Dealt to Pat
Dealt to Eva
Dealt to Flo
Cid: folds
Pat: raises $14 to $19
Eva: folds
Flo: folds
Hero: raises $45 to $64
Bea: folds
Pat: calls $29 and is all-in
Uncalled bet ($16) returned to Hero
Hero: shows [Ah Ad Kc Qd]
Pat: shows [9s 9h 8c 7c]
*** FIRST FLOP *** [9d 5c 2d]
*** FIRST TURN *** [9d 5c 2d] [3h]
*** FIRST RIVER *** [9d 5c 2d 3h] [Jc]
*** SECOND FLOP *** [As Kd 4h]
*** SECOND TURN *** [As Kd 4h] [6s]
*** SECOND RIVER *** [As Kd 4h 6s] [Td]
*** FIRST SHOWDOWN ***
Pat collected $48.93 from pot
*** SECOND SHOWDOWN ***
Hero collected $48.92 from pot
*** SUMMARY ***
Total pot $103 | Rake $5.15 | Jackpot $0 | Bingo $0
Hand was run two times
FIRST Board [9d 5c 2d 3h Jc]
SECOND Board [As Kd 4h 6s Td]
Seat 1: Hero (small blind) showed [Ah Ad Kc Qd] and lost with Pair of Aces, and won ($48.92) with Three Aces
Seat 2: Bea (big blind) folded before Flop
Seat 3: Cid folded before Flop (didn't bet)
Seat 4: Pat showed [9s 9h 8c 7c] and won ($48.93) with Three Nines, and lost with Pair of Nines
Seat 5: Eva folded before Flop (didn't bet)
Seat 6: Flo (button) folded before Flop (didn't bet)
"""


def test_v26_built_dead_missed_blind_and_run_twice() -> None:
    """V26 built: the same amounts (Hero 64, Bea 5 folded, Pat 2 dead + 48 live all-in), other
    cards: 16 returned to Hero, total 103, rake 5.15, 48.93 for the first board and 48.92 for the
    second."""
    pt = clean(V26, "ggpoker")
    assert pt.contributions == {"Hero": 6400, "Bea": 500, "Cid": 0, "Pat": 4800, "Eva": 0, "Flo": 0}
    assert pt.dead == {"Pat": 200}
    assert pt.expected_returns == pt.printed_returns == {"Hero": 1600}
    assert pt.total_expected == 10300
    assert pots(pt) == [(10300, {"Hero", "Pat"})] and nets(pt) == [9785]
    assert run_shares(9785, 2) == [4893, 4892]
    assert [(a.run, a.winners, a.amount) for a in pt.awards] == [(1, ("Pat",), 4893), (2, ("Hero",), 4892)]
    assert pt.expected_paid == pt.collected == {"Pat": 4893, "Hero": 4892}

    # counting the dead 2 as matched (returning 14)
    f = flagged(swap(V26, "Uncalled bet ($16)", "Uncalled bet ($14)"), "A001", "ggpoker", player="Hero")
    assert (f.data["expected"], f.data["actual"]) == (1600, 1400)
    # GG takes its fees from each board's share in proportions it does not print (fees_from_shares):
    # the odd cent on the second board is within the bounds; a board's share short by more than all
    # of the fees ($5.15) is not
    swapped = swap(
        swap(V26, "Pat collected $48.93", "Pat collected $48.92"), "Hero collected $48.92", "Hero collected $48.93"
    )
    clean(swapped, "ggpoker")
    beyond = swap(
        swap(V26, "Pat collected $48.93", "Pat collected $43.77"), "Hero collected $48.92", "Hero collected $54.08"
    )
    flagged(beyond, "A008", "ggpoker", player="Pat")


# --------------------------------------------------------------------------------------- V27
V27_HEAD = ps_tourney(
    900000002701, (500, 1000), 4, [(1, "SB", 20000), (2, "BB", 1100), (3, "UTG", 20000), (4, "BTN", 20000)]
)
V27_BB_FIRST = (
    V27_HEAD
    + """SB: posts small blind 500
BB: posts big blind 1000
BB: posts the ante 100 and is all-in
*** HOLE CARDS ***
UTG: raises 2000 to 3000
BTN: folds
SB: folds
Uncalled bet (2000) returned to UTG
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
BB: shows [As Ah] (a pair of Aces)
UTG: shows [Qs Qh] (a pair of Queens)
BB collected 2600 from pot
*** SUMMARY ***
Total pot 2600 | Rake 0
Board [2h 5d 8c Js Kd]
"""
)
V27_ANTE_FIRST = (
    V27_HEAD
    + """BB: posts the ante 1000
SB: posts small blind 500
BB: posts big blind 100 and is all-in
*** HOLE CARDS ***
UTG: raises 2900 to 3000
BTN: folds
SB: folds
Uncalled bet (2500) returned to UTG
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
BB: shows [As Ah] (a pair of Aces)
UTG: shows [Qs Qh] (a pair of Queens)
UTG collected 800 from side pot
BB collected 1300 from main pot
*** SUMMARY ***
Total pot 2100 Main pot 1300. Side pot 800. | Rake 0
Board [2h 5d 8c Js Kd]
"""
)


def test_v27_big_blind_ante_bb_first() -> None:
    """V27, bb_first: 500/1000 BBA 1000; the BB has 1100; UTG 3000, SB 500 folded, BB all-in:
    BB live 1000 + ante 100 dead → main 2600 {BB,UTG}, 2000 returned."""
    pt, found = audit(V27_BB_FIRST, "tda")
    assert pt.expected_returns == {"UTG": 2000}
    assert pots(pt) == [(2600, {"BB", "UTG"})]
    assert pt.expected_paid == {"BB": 2600}
    assert a_codes(found) == []


def test_v27_big_blind_ante_ante_first() -> None:
    """V27, ante_first (the hand posts the ante before the blind): ante 1000 dead + BB live 100
    → main 1300 {BB,UTG}, side 800 {UTG}, 2500 returned."""
    pt, found = audit(V27_ANTE_FIRST, "tda")
    assert pt.expected_returns == {"UTG": 2500}
    assert pots(pt) == [(1300, {"BB", "UTG"}), (800, {"UTG"})]
    assert pt.expected_paid == {"BB": 1300, "UTG": 800}
    assert a_codes(found) == []


# --------------------------------------------------------------------------------------- V28
V28 = (
    ps_tourney(900000002801, (300, 600), 3, [(1, "A", 20000), (2, "BB", 6000), (3, "B", 20000)])
    + """BB: posts the ante 6000 and is all-in
A: posts small blind 300
*** HOLE CARDS ***
B: calls 600
A: calls 300
"""
    + board("2h 5d 8c Js Kd", "A", "B")
    + """*** SHOW DOWN ***
BB: shows [As Ah] (a pair of Aces)
A: shows [Qs Qh] (a pair of Queens)
B: shows [Tc Td] (a pair of Tens)
A collected 1200 from side pot
BB collected 6000 from main pot
*** SUMMARY ***
Total pot 7200 Main pot 6000. Side pot 1200. | Rake 0
Board [2h 5d 8c Js Kd]
"""
)


def test_v28_big_blind_all_in_for_the_ante_only() -> None:
    """V28: the BB is all-in for the 6000 ante only (ante first); A 600, B 600 → pot 6000
    {BB,A,B}, side 1200 {A,B}: the BB can win only the ante."""
    pt, found = audit(V28, "tda")
    assert pt.expected_returns == {}
    assert pots(pt) == [(6000, {"BB", "A", "B"}), (1200, {"A", "B"})]
    assert pt.expected_paid == {"BB": 6000, "A": 1200}
    assert a_codes(found) == []


# ================================================================== awarding, odd chips, hi-lo, RIT

# --------------------------------------------------------------------------------------- V29
V29 = (
    ps_tourney(900000002901, (10, 20), 9, [(1, "Alice", 1000), (2, "Bob", 1000), (9, "Carl", 1000)])
    + """Alice: posts the ante 1
Bob: posts the ante 1
Carl: posts the ante 1
Alice: posts small blind 10
Bob: posts big blind 20
*** HOLE CARDS ***
Carl: folds
Alice: calls 10
Bob: checks
*** FLOP *** [Ah Kd Qc]
Alice: bets 29
Bob: calls 29
*** TURN *** [Ah Kd Qc] [Js]
Alice: checks
Bob: checks
*** RIVER *** [Ah Kd Qc Js] [Ts]
Alice: checks
Bob: checks
*** SHOW DOWN ***
Alice: shows [2c 3d] (a straight, Ten to Ace)
Bob: shows [4c 5d] (a straight, Ten to Ace)
Alice collected 51 from pot
Bob collected 50 from pot
*** SUMMARY ***
Total pot 101 | Rake 0
Board [Ah Kd Qc Js Ts]
Seat 1: Alice (small blind) showed [2c 3d] and won (51) with a straight, Ten to Ace
Seat 2: Bob (big blind) showed [4c 5d] and won (50) with a straight, Ten to Ace
Seat 9: Carl (button) folded before Flop (didn't bet)
"""
)


def test_v29_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    """V29: pot 101, tie between Alice (seat 1) and Bob (seat 2), button seat 9 → Alice 51,
    Bob 50.  [TDA24] 20-A."""
    for rules in ("tda", "pokerstars"):
        pt = clean(V29, rules)
        assert pots(pt) == [(101, {"Alice", "Bob"})]
        assert [(a.winners, a.shares) for a in pt.awards] == [(("Alice", "Bob"), (("Alice", 51), ("Bob", 50)))]
        assert pt.expected_paid == pt.collected == {"Alice": 51, "Bob": 50}

    wrong = swap(swap(V29, "Alice collected 51", "Alice collected 50"), "Bob collected 50", "Bob collected 51")
    for rules in ("tda", "pokerstars"):
        f = flagged(wrong, "A006", rules, player="Bob")
        assert (f.data["expected"], f.data["actual"]) == (50, 51)
    flagged(swap(V29, "Bob collected 50", "Carl collected 50"), "A005", player="Carl")


# --------------------------------------------------------------------------------------- V30
V30 = (
    ps_tourney(900000003001, (1, 2), 5, [(3, "P3", 1000), (5, "P5", 1000), (7, "P7", 1000), (9, "P9", 1000)])
    + """P7: posts small blind 1
P9: posts big blind 2
*** HOLE CARDS ***
P3: raises 64 to 66
P5: calls 66
P7: calls 65
P9: folds
"""
    + board("Ah Kd Qc Js Ts", "P7", "P3", "P5")
    + """*** SHOW DOWN ***
P7: shows [2c 3d] (a straight, Ten to Ace)
P3: shows [4c 5d] (a straight, Ten to Ace)
P5: shows [6c 7d] (a straight, Ten to Ace)
P7 collected 67 from pot
P3 collected 67 from pot
P5 collected 66 from pot
*** SUMMARY ***
Total pot 200 | Rake 0
Board [Ah Kd Qc Js Ts]
Seat 3: P3 showed [4c 5d] and won (67) with a straight, Ten to Ace
Seat 5: P5 (button) showed [6c 7d] and won (66) with a straight, Ten to Ace
Seat 7: P7 (small blind) showed [2c 3d] and won (67) with a straight, Ten to Ace
Seat 9: P9 (big blind) folded before Flop
"""
)


def test_v30_three_way_tie_the_button_gets_no_odd_chip() -> None:
    """V30: pot 200, three-way tie of seats 3, 5 and 7, button seat 5 → seat 7: 67, seat 3: 67,
    seat 5 (the button, last): 66.  [RRP] Ties 4-5."""
    for rules in ("roberts", "tda", "pokerstars"):
        pt = clean(V30, rules)
        assert pots(pt) == [(200, {"P3", "P5", "P7"})]
        assert pt.awards[0].shares == (("P7", 67), ("P3", 67), ("P5", 66))
        assert pt.expected_paid == pt.collected == {"P7": 67, "P3": 67, "P5": 66}

    wrong = swap(swap(V30, "P3 collected 67", "P3 collected 66"), "P5 collected 66", "P5 collected 67")
    f = flagged(wrong, "A006", "roberts", player="P5")
    assert (f.data["expected"], f.data["actual"]) == (66, 67)


# --------------------------------------------------------------------------------------- V31
@pytest.mark.corpus
def test_v31_real_four_way_tie_split_in_five_cent_units() -> None:
    """V31 (real hand, PS #14402833808): $1.90 net, four-way tie, unit $0.05, button seat 7 →
    seats 8 and 9: $0.50; seats 2 and 7: $0.45."""
    hand = corpus_hand(
        "pokerstars", "cash-flop", "NLHE-9max-USD-0.25-0.50-200801.4.way.split.unequal.rake.txt", "14402833808"
    )
    pt = clean_real(hand)
    assert pots(pt) == [(200, {"Hero", "Player7", "Player1", "Player6"})] and nets(pt) == [190]
    assert pt.collected == {"Hero": 50, "Player7": 50, "Player1": 45, "Player6": 45}  # seats 8, 9, 2, 7
    assert pt.awards[0].winners == ("Hero", "Player7", "Player1", "Player6")  # clockwise from seat 8
    assert split(190, list(pt.awards[0].winners), 5) == [
        ("Hero", 50),
        ("Player7", 50),
        ("Player1", 45),
        ("Player6", 45),
    ]


V31 = """PokerStars Game #900000003101:  Hold'em No Limit ($0.25/$0.50 USD) - 2008/01/07 22:59:37 ET
Table 'Test' 9-max Seat #7 is the button
Seat 1: Eli ($50 in chips)
Seat 2: Ann ($11.25 in chips)
Seat 7: Ben ($30.40 in chips)
Seat 8: Cy ($38.55 in chips)
Seat 9: Di ($50 in chips)
Cy: posts small blind $0.25
Di: posts big blind $0.50
*** HOLE CARDS ***
Eli: folds
Ann: calls $0.50
Ben: calls $0.50
Cy: calls $0.25
Di: checks
*** FLOP *** [2d Ks Ad]
Cy: checks
Di: checks
Ann: checks
Ben: checks
*** TURN *** [2d Ks Ad] [Kd]
Cy: checks
Di: checks
Ann: checks
Ben: checks
*** RIVER *** [2d Ks Ad Kd] [2h]
Cy: checks
Di: checks
Ann: checks
Ben: checks
*** SHOW DOWN ***
Cy: shows [Jc 3s] (two pair, Kings and Deuces)
Di: shows [Th 9d] (two pair, Kings and Deuces)
Ann: shows [6s 5c] (two pair, Kings and Deuces)
Ben: shows [9h 5h] (two pair, Kings and Deuces)
Cy collected $0.50 from pot
Di collected $0.50 from pot
Ann collected $0.45 from pot
Ben collected $0.45 from pot
*** SUMMARY ***
Total pot $2 | Rake $0.10
Board [2d Ks Ad Kd 2h]
Seat 1: Eli folded before Flop (didn't bet)
Seat 2: Ann showed [6s 5c] and won ($0.45) with two pair, Kings and Deuces
Seat 7: Ben (button) showed [9h 5h] and won ($0.45) with two pair, Kings and Deuces
Seat 8: Cy (small blind) showed [Jc 3s] and won ($0.50) with two pair, Kings and Deuces
Seat 9: Di (big blind) showed [Th 9d] and won ($0.50) with two pair, Kings and Deuces
"""


def test_v31_built_four_way_tie_split_in_five_cent_units() -> None:
    """V31 built: the same table (button seat 7, four players tie for $2 less $0.10 rake) split
    in $0.05 units: seats 8 and 9 $0.50, seats 2 and 7 $0.45; the extra units given to seats 2
    and 7 instead is an odd-chip error."""
    pt = clean(V31)
    assert pots(pt) == [(200, {"Ann", "Ben", "Cy", "Di"})] and nets(pt) == [190] and pt.rake == 10
    assert pt.awards[0].winners == ("Cy", "Di", "Ann", "Ben")
    assert pt.collected == {"Cy": 50, "Di": 50, "Ann": 45, "Ben": 45}

    wrong = V31
    for n, a, b in (("Cy", "0.50", "0.45"), ("Di", "0.50", "0.45"), ("Ann", "0.45", "0.50"), ("Ben", "0.45", "0.50")):
        wrong = swap(wrong, f"{n} collected ${a}", f"{n} collected ${b}")
    flagged(wrong, "A006", player="Ann")
    flagged(wrong, "A006", player="Cy")


# --------------------------------------------------------------------------------------- V32
@pytest.mark.corpus
def test_v32_real_omaha_hilo_quartered_low_odd_chip() -> None:
    """V32 (real hand, PS #68174580765, O/8): board Ah 4h 3h 6s Jd; Hero (seat 9) Tc 3c 2d 4s;
    barlow (seat 4, the button) Kc Ad Qd 2s; pot 1875 → Hero high 938; the low 937 tied → Hero
    469, barlow 468."""
    hand = corpus_hand("pokerstars", "tournament-flop", "NLO8-USD-STT-201109.Knockout.sample.txt", "68174580765")
    pt = clean_real(hand)
    assert pots(pt) == [(1875, {"Hero", "APTEM-89", "barlowdog1"})]
    assert [(a.half, a.amount, a.shares) for a in pt.awards] == [
        ("high", 938, (("Hero", 938),)),
        ("low", 937, (("Hero", 469), ("barlowdog1", 468))),
    ]
    assert pt.expected_paid == pt.collected == {"Hero": 1407, "barlowdog1": 468}


V32 = (
    ps_tourney(
        900000003201,
        (75, 150),
        4,
        [(2, "Ap", 6981), (4, "Barlow", 2020), (8, "Sta", 2367), (9, "Hero", 2132)],
        game="Omaha Hi/Lo No Limit",
    )
    + """Sta: posts small blind 75
Hero: posts big blind 150
*** HOLE CARDS ***
Ap: raises 150 to 300
Barlow: calls 300
Sta: folds
Hero: calls 150
*** FLOP *** [Ah 4h 3h]
Hero: bets 300
Ap: calls 300
Barlow: calls 300
*** TURN *** [Ah 4h 3h] [6s]
Hero: checks
Ap: checks
Barlow: checks
*** RIVER *** [Ah 4h 3h 6s] [Jd]
Hero: checks
Ap: checks
Barlow: checks
*** SHOW DOWN ***
Hero: shows [Tc 3c 2d 4s] (HI: two pair, Fours and Threes; LO: 6,4,3,2,A)
Ap: mucks hand
Barlow: shows [Kc Ad Qd 2s] (HI: a pair of Aces; LO: 6,4,3,2,A)
Hero collected 938 from pot
Hero collected 469 from pot
Barlow collected 468 from pot
*** SUMMARY ***
Total pot 1875 | Rake 0
Board [Ah 4h 3h 6s Jd]
Seat 2: Ap mucked
Seat 4: Barlow (button) showed [Kc Ad Qd 2s] and won (468) with HI: a pair of Aces; LO: 6,4,3,2,A
Seat 8: Sta (small blind) folded before Flop
Seat 9: Hero (big blind) showed [Tc 3c 2d 4s] and won (1407) with HI: two pair, Fours and Threes; LO: 6,4,3,2,A
"""
)


def test_v32_built_omaha_hilo_quartered_low_odd_chip() -> None:
    """V32 built: the same board, hands and pot (600 x 3 + the small blind's 75): high 938 to
    Hero, the tied low 937 split 469 (Hero, first left of the button) / 468 (Barlow)."""
    pt = clean(V32)
    assert pots(pt) == [(1875, {"Hero", "Ap", "Barlow"})]
    assert [(a.half, a.amount, a.shares) for a in pt.awards] == [
        ("high", 938, (("Hero", 938),)),
        ("low", 937, (("Hero", 469), ("Barlow", 468))),
    ]
    assert pt.expected_paid == pt.collected == {"Hero": 1407, "Barlow": 468}

    wrong = swap(swap(V32, "Hero collected 469", "Hero collected 468"), "Barlow collected 468", "Barlow collected 469")
    f = flagged(wrong, "A007", player="Barlow")
    assert (f.data["expected"], f.data["actual"]) == (468, 469)
    # the low half not split at all
    scoop = swap(V32, "Hero collected 469 from pot\nBarlow collected 468", "Hero collected 937")
    flagged(scoop, "A007", player="Hero")


# --------------------------------------------------------------------------------------- V33
@pytest.mark.corpus
def test_v33_real_omaha_hilo_odd_chip_to_the_high_half() -> None:
    """V33 (real hand, PS #68173842857, O/8): board Kh Ad 4h Js 6c; Hero Kc As 3h 3s; VORON
    2h 9c 5c Ah; pot 1653 → Hero (high) 827, VORON (low) 826."""
    hand = corpus_hand("pokerstars", "tournament-flop", "NLO8-USD-STT-201109.Knockout.sample.txt", "68173842857")
    pt = clean_real(hand)
    assert pots(pt) == [(1653, {"Hero", "VORON1976511", "APTEM-89"})]
    assert [(a.half, a.amount, a.winners) for a in pt.awards] == [
        ("high", 827, ("Hero",)),
        ("low", 826, ("VORON1976511",)),
    ]
    assert pt.expected_paid == pt.collected == {"Hero": 827, "VORON1976511": 826}


V33 = (
    ps_tourney(
        900000003301,
        (15, 30),
        4,
        [(2, "Ap", 1338), (4, "Bar", 840), (5, "Jo", 1224), (6, "Voron", 1760), (9, "Hero", 4524)],
        game="Omaha Hi/Lo No Limit",
    )
    + """Jo: posts small blind 15
Voron: posts big blind 30
*** HOLE CARDS ***
Hero: raises 60 to 90
Ap: calls 90
Bar: folds
Jo: folds
Voron: calls 60
*** FLOP *** [Kh Ad 4h]
Voron: bets 456
Hero: calls 456
Ap: calls 456
*** TURN *** [Kh Ad 4h] [Js]
Voron: checks
Hero: checks
Ap: checks
*** RIVER *** [Kh Ad 4h Js] [6c]
Voron: checks
Hero: checks
Ap: checks
*** SHOW DOWN ***
Voron: shows [2h 9c 5c Ah] (HI: a pair of Aces; LO: 6,5,4,2,A)
Hero: shows [Kc As 3h 3s] (HI: two pair, Aces and Kings)
Ap: mucks hand
Hero collected 827 from pot
Voron collected 826 from pot
*** SUMMARY ***
Total pot 1653 | Rake 0
Board [Kh Ad 4h Js 6c]
Seat 6: Voron (big blind) showed [2h 9c 5c Ah] and won (826) with HI: a pair of Aces; LO: 6,5,4,2,A
Seat 9: Hero showed [Kc As 3h 3s] and won (827) with HI: two pair, Aces and Kings
"""
)


def test_v33_built_omaha_hilo_odd_chip_to_the_high_half() -> None:
    """V33 built: same board, hands and pot (546 x 3 + 15): Hero's high half 827, Voron's low
    half 826; giving the odd chip to the low is a hi-lo error."""
    pt = clean(V33)
    assert pots(pt) == [(1653, {"Hero", "Voron", "Ap"})]
    assert [(a.half, a.amount, a.winners) for a in pt.awards] == [("high", 827, ("Hero",)), ("low", 826, ("Voron",))]
    assert pt.expected_paid == pt.collected == {"Hero": 827, "Voron": 826}

    wrong = swap(swap(V33, "Hero collected 827", "Hero collected 826"), "Voron collected 826", "Voron collected 827")
    f = flagged(wrong, "A007", player="Voron")
    assert (f.data["expected"], f.data["actual"]) == (826, 827)


# --------------------------------------------------------------------------------------- V34
V34 = (
    ps_tourney(900000003401, (1, 2), 2, [(1, "Alice", 1000), (2, "Bobby", 1000)], game="Omaha Hi/Lo No Limit")
    + """Bobby: posts small blind 1
Alice: posts big blind 2
*** HOLE CARDS ***
Bobby: calls 1
Alice: checks
*** FLOP *** [2c 3d 4h]
Alice: bets 31
Bobby: calls 31
*** TURN *** [2c 3d 4h] [Ks]
Alice: checks
Bobby: checks
*** RIVER *** [2c 3d 4h Ks] [Qd]
Alice: checks
Bobby: checks
*** SHOW DOWN ***
Alice: shows [5s 6s 9c 9d] (HI: a straight, Two to Six; LO: 6,5,4,3,2)
Bobby: shows [5c 6c Tc Th] (HI: a straight, Two to Six; LO: 6,5,4,3,2)
Alice collected {alice} from pot
Bobby collected {bobby} from pot
*** SUMMARY ***
Total pot 66 | Rake 0
Board [2c 3d 4h Ks Qd]
"""
)


def test_v34_identical_hands_winning_both_halves() -> None:
    """V34: O/8, board 2c 3d 4h Ks Qd; Alice 5s 6s 9c 9d, Bobby 5c 6c Tc Th; pot 66: both have
    the six-high straight and the 6-5-4-3-2 low.  Profiles that split the whole pot evenly
    (WSOP, Robert's: hilo_identical_even) → 33/33; per-half (tda, pokerstars) → 34/32, Alice
    (first left of the button) taking the odd chip of each half."""
    even = V34.format(alice=33, bobby=33)
    halves = V34.format(alice=34, bobby=32)
    for rules in ("wsop-tournament", "wsop-live", "roberts"):
        pt = clean(even, rules)
        assert pots(pt) == [(66, {"Alice", "Bobby"})]
        assert [(a.half, a.shares) for a in pt.awards] == [("all", (("Alice", 33), ("Bobby", 33)))]
        assert pt.expected_paid == {"Alice": 33, "Bobby": 33}
        flagged(halves, "A007", rules, player="Alice")
    for rules in ("tda", "pokerstars"):
        pt = clean(halves, rules)
        assert [(a.half, a.amount, a.shares) for a in pt.awards] == [
            ("high", 33, (("Alice", 17), ("Bobby", 16))),
            ("low", 33, (("Alice", 17), ("Bobby", 16))),
        ]
        assert pt.expected_paid == {"Alice": 34, "Bobby": 32}
        flagged(even, "A007", rules, player="Alice")


# --------------------------------------------------------------------------------------- V35
V35 = (
    ps_tourney(900000003501, (1, 2), 2, [(1, "Alice", 1000), (2, "Bobby", 1000)], game="Omaha Hi/Lo No Limit")
    + """Bobby: posts small blind 1
Alice: posts big blind 2
*** HOLE CARDS ***
Bobby: calls 1
Alice: checks
*** FLOP *** [Kd Qh Jc]
Alice: bets 31
Bobby: calls 31
*** TURN *** [Kd Qh Jc] [9s]
Alice: checks
Bobby: checks
*** RIVER *** [Kd Qh Jc 9s] [8d]
Alice: checks
Bobby: checks
*** SHOW DOWN ***
Alice: shows [As Ks 7c 2h] (HI: a pair of Kings)
Bobby: shows [Ah Qs 3c 4d] (HI: a pair of Queens)
Alice collected 66 from pot
*** SUMMARY ***
Total pot 66 | Rake 0
Board [Kd Qh Jc 9s 8d]
"""
)


def test_v35_no_qualifying_low_high_scoops() -> None:
    """V35: O/8 with no low possible (one card eight or lower on the board) → the high hand takes
    100 %; halving it anyway is a hi-lo error."""
    assert category("omaha_hilo", ["As", "Ks", "7c", "2h"], ["Kd", "Qh", "Jc", "9s", "8d"]) == "one pair"
    for rules in ("pokerstars", "tda", "wsop-live"):
        pt = clean(V35, rules)
        assert [(a.half, a.amount, a.winners) for a in pt.awards] == [("all", 66, ("Alice",))]
        assert pt.expected_paid == pt.collected == {"Alice": 66}
    halved = swap(V35, "Alice collected 66 from pot", "Alice collected 33 from pot\nBobby collected 33 from pot")
    f = flagged(halved, "A007", player="Bobby")
    assert (f.data["expected"], f.data["actual"]) == (0, 33)


# --------------------------------------------------------------------------------------- V36
@pytest.mark.corpus
def test_v36_real_run_it_twice_first_board_takes_the_odd_cent() -> None:
    """V36 (real hand, PS #90721705235): run twice, total €225.32, rake €2.15 → €111.59 (board 1)
    + €111.58 (board 2); the loser mucked on both boards, so both shares are Hero's."""
    hand = corpus_hand("pokerstars", "cash-flop", "NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt", "90721705235")
    assert hand.runs == 2
    pt = clean_real(hand)
    assert pt.total_expected == 22532 and pt.rake == 215 and nets(pt) == [22317]
    assert run_shares(22317, 2) == [11159, 11158]
    printed = [(e.run, e.amount) for e in hand.events if isinstance(e, M.Collect)]
    assert printed == [(1, 11159), (2, 11158)]
    assert pt.expected_paid == pt.collected == {"Hero": 22317}


V36 = """PokerStars Hand #900000003601:  Hold'em No Limit (€1/€2 EUR) - 2012/12/13 19:59:19 ET
Table 'Test' 6-max Seat #3 is the button
Seat 1: Ann (€109.16 in chips)
Seat 3: Cat (€276.30 in chips)
Seat 4: Sb (€200 in chips)
Seat 5: Bb (€158.55 in chips)
Seat 6: Hero (€200.75 in chips)
Sb: posts small blind €1
Bb: posts big blind €2
*** HOLE CARDS ***
Hero: raises €4 to €6
Ann: calls €6
Cat: folds
Sb: folds
Bb: calls €4
*** FLOP *** [Ad 7h 2s]
Bb: checks
Hero: bets €40
Ann: raises €63.16 to €103.16 and is all-in
Bb: folds
Hero: calls €63.16
*** FIRST TURN *** [Ad 7h 2s] [5c]
*** FIRST RIVER *** [Ad 7h 2s 5c] [8h]
*** SECOND TURN *** [Ad 7h 2s] [Qh]
*** SECOND RIVER *** [Ad 7h 2s Qh] [3d]
*** FIRST SHOW DOWN ***
Ann: shows [Qd Qs] (a pair of Queens)
Hero: shows [Ac Kc] (a pair of Aces)
Hero collected €111.59 from pot
*** SECOND SHOW DOWN ***
Ann: shows [Qd Qs] (three of a kind, Queens)
Hero: shows [Ac Kc] (a pair of Aces)
Ann collected €111.58 from pot
*** SUMMARY ***
Total pot €225.32 | Rake €2.15
Hand was run twice
FIRST Board [Ad 7h 2s 5c 8h]
SECOND Board [Ad 7h 2s Qh 3d]
Seat 1: Ann showed [Qd Qs] and lost with a pair of Queens, and won (€111.58) with three of a kind, Queens
Seat 3: Cat (button) folded before Flop (didn't bet)
Seat 4: Sb (small blind) folded before Flop
Seat 5: Bb (big blind) folded on the Flop
Seat 6: Hero showed [Ac Kc] and won (€111.59) with a pair of Aces, and lost with three of a kind, Queens
"""


def test_v36_built_run_it_twice_first_board_takes_the_odd_cent() -> None:
    """V36 built: the same amounts (two players 109.16 each, 7 dead from the blinds), a
    different winner on each board: board 1 €111.59, board 2 €111.58; the odd cent on the second
    board is a run-it-twice error."""
    pt = clean(V36)
    assert pt.total_expected == 22532 and pt.rake == 215
    assert pots(pt) == [(22532, {"Ann", "Hero"})] and nets(pt) == [22317]
    assert [(a.run, a.winners, a.amount) for a in pt.awards] == [(1, ("Hero",), 11159), (2, ("Ann",), 11158)]
    assert pt.expected_paid == pt.collected == {"Hero": 11159, "Ann": 11158}

    wrong = swap(
        swap(V36, "Hero collected €111.59", "Hero collected €111.58"), "Ann collected €111.58", "Ann collected €111.59"
    )
    f = flagged(wrong, "A008", player="Ann")
    assert (f.data["expected"], f.data["actual"]) == (11158, 11159)


# --------------------------------------------------------------------------------------- V37
@pytest.mark.corpus
def test_v37_real_courchevel_hilo_run_twice() -> None:
    """V37 (real hand, PS #97007286518, Courchevel Hi/Lo run twice): 163.50 - 0.50 → 81.50 per
    board; board 2's low tied → Hero (seat 4) 20.38, Player0 (the button, seat 3) 20.37."""
    hand = corpus_hand(
        "pokerstars", "cash-flop", "PL-Courchevel-HL-6max-USD-1.00-2.00-201303.Run.It.Twice.txt", "97007286518"
    )
    pt = clean_real(hand)
    assert pt.total_expected == 16350 and pt.rake == 50 and nets(pt) == [16300]
    assert run_shares(16300, 2) == [8150, 8150]
    assert [(a.run, a.half, a.shares) for a in pt.awards] == [
        (1, "high", (("Player0", 4075),)),
        (1, "low", (("Hero", 4075),)),
        (2, "high", (("Player0", 4075),)),
        (2, "low", (("Hero", 2038), ("Player0", 2037))),
    ]
    assert pt.expected_paid == pt.collected == {"Player0": 10187, "Hero": 6113}


V37 = """PokerStars Hand #900000003701:  Courchevel Hi/Lo Pot Limit ($1/$2 USD) - 2013/04/11 12:57:19 ET
Table 'Test' 6-max Seat #3 is the button
Seat 3: Vic ($81.75 in chips)
Seat 4: Hero ($353.48 in chips)
Vic: posts small blind $1
Hero: posts big blind $2
*** HOLE CARDS ***
Dealt to Hero [Ah 2h 3d Kc Qh]
*** PRE-FLOP *** [Jh]
Vic: raises $4 to $6
Hero: raises $12 to $18
Vic: calls $12
*** FLOP *** [Jh 8d 6s]
Hero: bets $36
Vic: raises $27.75 to $63.75 and is all-in
Hero: calls $27.75
*** FIRST TURN *** [Jh 8d 6s] [2d]
*** FIRST RIVER *** [Jh 8d 6s 2d] [5c]
*** SECOND TURN *** [Jh 8d 6s] [7c]
*** SECOND RIVER *** [Jh 8d 6s 7c] [Ts]
*** FIRST SHOW DOWN ***
Hero: shows [Ah 2h 3d Kc Qh] (HI: a pair of Deuces; LO: 6,5,3,2,A)
Vic: shows [As 2c Jd Js 9h] (HI: three of a kind, Jacks; LO: 8,6,5,2,A)
Vic collected $40.75 from pot
Hero collected $40.75 from pot
*** SECOND SHOW DOWN ***
Hero: shows [Ah 2h 3d Kc Qh] (HI: high card Ace; LO: 8,7,6,2,A)
Vic: shows [As 2c Jd Js 9h] (HI: a straight, Seven to Jack; LO: 8,7,6,2,A)
Vic collected $40.75 from pot
Hero collected $20.38 from pot
Vic collected $20.37 from pot
*** SUMMARY ***
Total pot $163.50 | Rake $0.50
Hand was run twice
FIRST Board [Jh 8d 6s 2d 5c]
SECOND Board [Jh 8d 6s 7c Ts]
Seat 3: Vic (button) (small blind) showed [As 2c Jd Js 9h] and won ($40.75), and won ($61.12)
Seat 4: Hero (big blind) showed [Ah 2h 3d Kc Qh] and won ($40.75), and won ($20.38)
"""


def test_v37_built_courchevel_hilo_run_twice() -> None:
    """V37 built: Courchevel Hi/Lo, each player 81.75, rake 0.50: 81.50 per board, halved high
    (Vic) / low (Hero) on board 1; on board 2 Vic's high 40.75 and a tied low split 20.38 to Hero
    (first left of the button) and 20.37 to Vic."""
    pt = clean(V37)
    assert pt.contributions == {"Vic": 8175, "Hero": 8175} and pt.rake == 50 and nets(pt) == [16300]
    assert [(a.run, a.half, a.amount, a.shares) for a in pt.awards] == [
        (1, "high", 4075, (("Vic", 4075),)),
        (1, "low", 4075, (("Hero", 4075),)),
        (2, "high", 4075, (("Vic", 4075),)),
        (2, "low", 4075, (("Hero", 2038), ("Vic", 2037))),
    ]
    assert pt.expected_paid == pt.collected == {"Vic": 10187, "Hero": 6113}

    wrong = swap(
        swap(V37, "Hero collected $20.38", "Hero collected $20.37"), "Vic collected $20.37", "Vic collected $20.38"
    )
    f = flagged(wrong, "A007", player="Vic")
    assert (f.data["expected"], f.data["actual"]) == (10187, 10188)


# --------------------------------------------------------------------------------------- V38
@pytest.mark.corpus
def test_v38_real_gg_run_three_times() -> None:
    """V38 (real hand, GG OM260919438): run three times, 327.80 - 7.50 rake - 5 jackpot →
    3 x 105.10."""
    hand = corpus_hand("ggpoker", "cash-flop", "PLO-6max-USD-2-5-202106.run.it.thrice.txt", "OM260919438")
    pt = clean_real(hand, "ggpoker")
    assert pt.total_expected == 32780 and (pt.rake, pt.fees) == (750, 500) and nets(pt) == [31530]
    assert [(a.run, a.amount) for a in pt.awards] == [(1, 10510), (2, 10510), (3, 10510)]
    assert pt.expected_paid == pt.collected == {"Hero": 31530}


V38 = """Poker Hand #OM900000038: PLO ($2/$5) - 2021/06/21 03:13:16
Table 'PLOTest4' 6-max Seat #6 is the button
Seat 1: Sam ($161.4 in chips)
Seat 2: Bo ($500 in chips)
Seat 3: Fay ($166.65 in chips)
Seat 5: Hero ($161.4 in chips)
Seat 6: Dee ($183.9 in chips)
Sam: posts small blind $2
Bo: posts big blind $5
*** HOLE CARDS ***
Dealt to Sam
Dealt to Bo
Dealt to Fay
Dealt to Hero [Kh Ks 8s 6h]
Dealt to Dee
Fay: folds
Hero: raises $12 to $17
Dee: folds
Sam: raises $39 to $56
Bo: folds
Hero: calls $39
*** FLOP *** [Js 5s Jd]
Sam: bets $105.4 and is all-in
Hero: calls $105.4 and is all-in
Hero: shows [Kh Ks 8s 6h] (Pair of Kings and Pair of Jacks)
Sam: shows [Ac Ad 3c 3d] (Pair of Aces and Pair of Jacks)
*** FIRST TURN *** [Js 5s Jd] [7s]
*** FIRST RIVER *** [Js 5s Jd 7s] [2s]
*** SECOND TURN *** [Js 5s Jd] [4d]
*** SECOND RIVER *** [Js 5s Jd 4d] [Qc]
*** THIRD TURN *** [Js 5s Jd] [Kd]
*** THIRD RIVER *** [Js 5s Jd Kd] [Tc]
*** FIRST SHOWDOWN ***
Hero collected $105.1 from pot
*** SECOND SHOWDOWN ***
Sam collected $105.1 from pot
*** THIRD SHOWDOWN ***
Hero collected $105.1 from pot
*** SUMMARY ***
Total pot $327.8 | Rake $7.5 | Jackpot $5 | Bingo $0
Hand was run three times
FIRST Board [Js 5s Jd 7s 2s]
SECOND Board [4d Qc]
THIRD Board [Kd Tc]
Seat 1: Sam (small blind) showed [Ac Ad 3c 3d] and lost, and won ($105.1), and lost
Seat 2: Bo (big blind) folded before Flop
Seat 3: Fay folded before Flop (didn't bet)
Seat 5: Hero showed [Kh Ks 8s 6h] and won ($105.1), and lost, and won ($105.1)
Seat 6: Dee (button) folded before Flop (didn't bet)
"""


def test_v38_built_run_three_times() -> None:
    """V38 built: the same amounts (161.40 each, the BB's 5 dead; rake 7.50, jackpot 5), a
    different winner on board 2: 3 x 105.10; GG takes its fees from each board's share in
    proportions it does not print, so shifting ten cents between boards stays within the bounds,
    and shifting more than all of the fees (12.50) is a run-it-twice error."""
    pt = clean(V38, "ggpoker")
    assert pt.total_expected == 32780 and (pt.rake, pt.fees) == (750, 500)
    assert pots(pt) == [(32780, {"Sam", "Hero"})] and nets(pt) == [31530]
    assert run_shares(31530, 3) == [10510, 10510, 10510]
    assert [(a.run, a.winners, a.amount) for a in pt.awards] == [
        (1, ("Hero",), 10510),
        (2, ("Sam",), 10510),
        (3, ("Hero",), 10510),
    ]
    assert pt.expected_paid == pt.collected == {"Hero": 21020, "Sam": 10510}

    within = swap(
        swap(V38, "Hero collected $105.1 from pot\n*** SECOND", "Hero collected $105.2 from pot\n*** SECOND"),
        "Sam collected $105.1",
        "Sam collected $105",
    )
    clean(within, "ggpoker")
    wrong = swap(
        swap(V38, "Hero collected $105.1 from pot\n*** SECOND", "Hero collected $114.2 from pot\n*** SECOND"),
        "Sam collected $105.1",
        "Sam collected $96",
    )
    f = flagged(wrong, "A008", "ggpoker", player="Sam")
    assert (f.data["expected"], f.data["actual"]) == (10510, 9600)


# --------------------------------------------------------------------------------------- V48
V48 = (
    ps_tourney(900000004801, (10, 20), 2, [(1, "Alice", 1000), (2, "Bob", 1000)], game="Omaha Pot Limit")
    + """Bob: posts small blind 10
Alice: posts big blind 20
*** HOLE CARDS ***
Bob: calls 10
Alice: checks
"""
    + board("3s 7s 9s Js 4d", "Alice", "Bob")
    + """*** SHOW DOWN ***
Alice: shows [As Kd Qc 2h] (high card Ace)
Bob: shows [Tc Th 5d 2c] (a pair of Tens)
Bob collected 40 from pot
*** SUMMARY ***
Total pot 40 | Rake 0
Board [3s 7s 9s Js 4d]
"""
)


def test_v48_omaha_uses_exactly_two_hole_cards() -> None:
    """V48: Omaha, board 3s 7s 9s Js 4d, hand As Kd Qc 2h: not a flush (exactly two hole cards,
    and only one of them is a spade); a pair of tens beats it."""
    hole, cards = ["As", "Kd", "Qc", "2h"], ["3s", "7s", "9s", "Js", "4d"]
    assert category("omaha", hole, cards) == "high card"
    assert category("holdem", hole[:1] + hole[1:2], cards) == "flush"  # in Hold'em the one spade would do
    assert high_key("omaha", ["Tc", "Th", "5d", "2c"], cards) > high_key("omaha", hole, cards)
    pt = clean(V48)
    assert [(a.winners, a.amount) for a in pt.awards] == [(("Bob",), 40)]
    assert pt.expected_paid == pt.collected == {"Bob": 40}
    f = flagged(swap(V48, "Bob collected 40", "Alice collected 40"), "A004", player="Alice")
    assert (f.data["expected"], f.data["actual"]) == (0, 40)


# --------------------------------------------------------------------------------------- V49
@pytest.mark.corpus
def test_v49_real_three_way_tie_of_the_main_pot() -> None:
    """V49 (real hand, PS #18934320061): main pot 1060, three-way tie of seats 4, 5 and 6,
    button seat 2 → 354 / 353 / 353; the side pot 2570 to Hero."""
    hand = corpus_hand("pokerstars", "tournament-flop", "NLHE-FPP-MTT-1r-201005.AllinLotsRebuy.txt", "18934320061")
    pt = clean_real(hand)
    assert pots(pt) == [(1060, {"Player11", "Hero", "Player7", "Player6"}), (2570, {"Hero", "Player6"})]
    assert pt.awards[0].shares == (("Player11", 354), ("Hero", 353), ("Player7", 353))  # seats 4, 5, 6
    assert pt.expected_paid == pt.collected == {"Player11": 354, "Hero": 2923, "Player7": 353}


V49 = (
    ps_tourney(
        900000004901,
        (100, 200),
        2,
        [(1, "Pa", 1540), (2, "Pb", 1960), (4, "Pc", 255), (5, "Hero", 6765), (6, "Pd", 255)],
        max_seats=6,
    )
    + "".join(f"{n}: posts the ante 40\n" for n in ("Pa", "Pb", "Pc", "Hero", "Pd"))
    + """Pc: posts small blind 100
Hero: posts big blind 200
*** HOLE CARDS ***
Pd: raises 15 to 215 and is all-in
Pa: calls 215
Pb: folds
Pc: calls 115 and is all-in
Hero: calls 15
*** FLOP *** [Qs Jd Th]
Hero: bets 1285
Pa: calls 1285 and is all-in
*** TURN *** [Qs Jd Th] [3c]
*** RIVER *** [Qs Jd Th 3c] [2h]
*** SHOW DOWN ***
Hero: shows [Kc 9c] (a straight, Nine to King)
Pa: shows [As Ad] (a pair of Aces)
Hero collected 2570 from side pot
Pd: shows [Kh 9s] (a straight, Nine to King)
Pc: shows [Kd 9d] (a straight, Nine to King)
Pc collected 354 from main pot
Hero collected 353 from main pot
Pd collected 353 from main pot
*** SUMMARY ***
Total pot 3630 Main pot 1060. Side pot 2570. | Rake 0
Board [Qs Jd Th 3c 2h]
Seat 1: Pa showed [As Ad] and lost with a pair of Aces
Seat 2: Pb (button) folded before Flop (didn't bet)
Seat 4: Pc (small blind) showed [Kd 9d] and won (354) with a straight, Nine to King
Seat 5: Hero (big blind) showed [Kc 9c] and won (2923) with a straight, Nine to King
Seat 6: Pd showed [Kh 9s] and won (353) with a straight, Nine to King
"""
)


def test_v49_built_three_way_tie_of_the_main_pot() -> None:
    """V49 built: antes 40, 100/200; Pa 1540, Pc 255 all-in, Hero 1540, Pd 255 all-in, Pb 40
    folded → main 1060 {Pa,Pc,Hero,Pd}, side 2570 {Pa,Hero}; Pc, Hero and Pd tie for the main
    pot: 354 (seat 4) / 353 (seat 5) / 353 (seat 6), button seat 2."""
    for rules in ("pokerstars", "tda"):
        pt = clean(V49, rules)
        assert pots(pt) == [(1060, {"Pa", "Pc", "Hero", "Pd"}), (2570, {"Pa", "Hero"})]
        assert pt.awards[0].shares == (("Pc", 354), ("Hero", 353), ("Pd", 353))
        assert pt.expected_paid == pt.collected == {"Pc": 354, "Hero": 2923, "Pd": 353}

    wrong = swap(swap(V49, "Pc collected 354", "Pc collected 353"), "Pd collected 353", "Pd collected 354")
    f = flagged(wrong, "A006", player="Pd")
    assert (f.data["expected"], f.data["actual"]) == (353, 354)


# ==================================================================== rake and reconciliation

# --------------------------------------------------------------------------------------- V39
V39 = """PokerStars Hand #900000003901:  Hold'em No Limit ($0.25/$0.50 USD) - 2026/01/01 12:00:00 ET
Table 'Test' 9-max Seat #3 is the button
Seat 1: Sb ($50 in chips)
Seat 2: Bb ($50 in chips)
Seat 3: Btn ($50 in chips)
Sb: posts small blind $0.25
Bb: posts big blind $0.50
*** HOLE CARDS ***
Btn: raises $1 to $1.50
Sb: folds
Bb: folds
Uncalled bet ($1) returned to Btn
Btn collected $1.25 from pot
*** SUMMARY ***
Total pot $1.25 | Rake $0
Seat 1: Sb (small blind) folded before Flop
Seat 2: Bb (big blind) folded before Flop
Seat 3: Btn (button) collected ($1.25)
"""


def test_v39_no_flop_no_drop() -> None:
    """V39: a PokerStars pot won pre-flop (no flop) is not raked: rake 0.  Raking it is A009 under
    the pokerstars profile; GG sometimes rakes pre-flop pots, so its profile does not flag it."""
    pt = clean(V39)
    assert pt.expected_returns == pt.printed_returns == {"Btn": 100}
    assert pt.total_expected == 125 and pt.rake == 0
    assert pt.expected_paid == pt.collected == {"Btn": 125}

    raked = swap(swap(V39, "Rake $0\n", "Rake $0.05\n"), "Btn collected $1.25", "Btn collected $1.20")
    f = flagged(raked, "A009")
    assert (f.data["expected"], f.data["actual"]) == (0, 5)
    assert "A009" not in a_codes(audit(raked, "ggpoker")[1])


# --------------------------------------------------------------------------------------- V40
@pytest.mark.corpus
def test_v40_real_cap_game_all_in_pre_flop_then_run_out_is_raked() -> None:
    """V40 (real hand, PS CAP #52151000000): all-in pre-flop (the $10 cap), the board is run out,
    pot $20 → rake $1 (a flop was dealt)."""
    hand = corpus_hand(
        "pokerstars", "cash-flop", "NLHE-CAP-9max-USD-0.25-0.50-201011.Capped.preflop.txt", "52151000000"
    )
    pt = clean_real(hand)
    assert pt.total_expected == 2000 and pt.rake == 100 and nets(pt) == [1900]
    assert pt.expected_paid == pt.collected == {"Villain": 1900}


V40 = """PokerStars Game #900000004001:  Hold'em No Limit ($0.25/$0.50 - $10 Cap -  USD) - 2010/11/01 7:20:00 ET
Table 'Test' 9-max Seat #8 is the button
Seat 1: Hero ($10 in chips)
Seat 2: Una ($14 in chips)
Seat 8: Bart ($9.95 in chips)
Seat 9: Villain ($13 in chips)
Villain: posts small blind $0.25
Hero: posts big blind $0.50
*** HOLE CARDS ***
Una: folds
Bart: folds
Villain: raises $9.50 to $10 and has reached the $10 cap
Hero: calls $9.50 and is all-in
*** FLOP *** [Qd 7s 2c]
*** TURN *** [Qd 7s 2c] [Qh]
*** RIVER *** [Qd 7s 2c Qh] [9c]
*** SHOW DOWN ***
Villain: shows [Qs Kh] (three of a kind, Queens)
Hero: shows [Ah 6d] (a pair of Queens)
Villain collected $19 from pot
*** SUMMARY ***
Total pot $20 | Rake $1
Board [Qd 7s 2c Qh 9c]
Seat 1: Hero (big blind) showed [Ah 6d] and lost with a pair of Queens
Seat 2: Una folded before Flop (didn't bet)
Seat 8: Bart (button) folded before Flop (didn't bet)
Seat 9: Villain (small blind) showed [Qs Kh] and won ($19) with three of a kind, Queens
"""


def test_v40_built_all_in_pre_flop_then_run_out_is_raked() -> None:
    """V40 built: a $10-cap pre-flop all-in, board run out, pot $20, rake $1: no finding (the flop
    was dealt); paying the whole $20 while also printing $1 rake does not conserve chips (A010)."""
    pt = clean(V40)
    assert pt.total_expected == 2000 and pt.rake == 100 and nets(pt) == [1900]
    assert pt.expected_paid == pt.collected == {"Villain": 1900}
    f = flagged(swap(V40, "Villain collected $19 from pot", "Villain collected $20 from pot"), "A010")
    assert (f.data["expected"], f.data["actual"]) == (2000, 2100)


# --------------------------------------------------------------------------------------- V41
def ps_rake(total: int, percent: int, cap: int | None = None) -> int:
    """The reference rake of RULES §2.13: ``percent`` % of ``total`` (cents) rounded half to even,
    at most ``cap``."""
    rake = int((Decimal(total) * percent / 100).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
    return rake if cap is None else min(rake, cap)


def raked_pot(total: int, rake: int) -> str:
    """A PokerStars heads-up cash hand checked down for ``total`` cents, raked ``rake`` cents."""

    def usd(c: int) -> str:
        return f"${c // 100}.{c % 100:02d}"

    half = total // 2
    return f"""PokerStars Hand #900000004101:  Hold'em No Limit ($0.25/$0.50 USD) - 2026/01/01 12:00:00 ET
Table 'Test' 9-max Seat #2 is the button
Seat 1: Bb ({usd(200000)} in chips)
Seat 2: Btn ({usd(200000)} in chips)
Btn: posts small blind $0.25
Bb: posts big blind $0.50
*** HOLE CARDS ***
Btn: raises {usd(half - 50)} to {usd(half)}
Bb: calls {usd(half - 50)}
{board("2h 5d 8c Js Kd", "Bb", "Btn")}*** SHOW DOWN ***
Bb: shows [As Ah] (a pair of Aces)
Btn: shows [Qs Qh] (a pair of Queens)
Bb collected {usd(total - rake)} from pot
*** SUMMARY ***
Total pot {usd(total)} | Rake {usd(rake)}
Board [2h 5d 8c Js Kd]
"""


def test_v41_rake_rounded_half_to_even() -> None:
    """V41: 5 % rounded half to even: pot 2.50 → 0.125 → 0.12; pot 2.70 → 0.135 → 0.14.  Hands
    raked so audit clean."""
    assert ps_rake(250, 5) == 12 and ps_rake(270, 5) == 14
    for total in (250, 270):
        pt = clean(raked_pot(total, ps_rake(total, 5)))
        assert pt.total_expected == total and pt.rake == ps_rake(total, 5)
        assert pt.expected_paid == pt.collected == {"Bb": total - ps_rake(total, 5)}


def test_v41_rake_rounded_half_up_is_flagged() -> None:
    """V41: 0.13 on a 2.50 pot (rounded half up, or more than 5 %) is a rake error (A009) under a
    profile with a 5 % half-even rake table; 0.12 and 0.14 (on 2.70) audit clean."""
    flagged(raked_pot(250, 13), "A009", rake_rate=(5, 100))
    clean(raked_pot(250, 12), rake_rate=(5, 100))
    clean(raked_pot(270, 14), rake_rate=(5, 100))


def test_v42_rake_cap() -> None:
    """V42: 5 % of 1000.00 with a cap of 20.00 → 20.00; a hand raked so audits clean."""
    assert ps_rake(100000, 5) == 5000 and ps_rake(100000, 5, cap=2000) == 2000
    pt = clean(raked_pot(100000, 2000))
    assert pt.total_expected == 100000 and pt.rake == 2000 and pt.expected_paid == pt.collected == {"Bb": 98000}


def test_v42_rake_above_the_cap_is_flagged() -> None:
    """V42: 50.00 (5 % with no cap) taken from a 1000.00 pot is a rake error (A009) under a 5 %,
    20.00-cap rake table; 20.00 audits clean."""
    flagged(raked_pot(100000, 5000), "A009", rake_rate=(5, 100), rake_cap=2000)
    clean(raked_pot(100000, 2000), rake_rate=(5, 100), rake_cap=2000)


# --------------------------------------------------------------------------------------- V43
V43 = """Poker Hand #RC900000043: Hold'em No Limit ($0.01/$0.02) - 2024/05/01 12:00:00
Table 'RushAndCash900043' 6-max Seat #1 is the button
Seat 1: Bu ($2 in chips)
Seat 2: Sb ($2 in chips)
Seat 3: Bb ($2 in chips)
Seat 4: Ut ($1.96 in chips)
Seat 5: Hero ($5 in chips)
Cash Drop to Pot : total $0.2
Sb: posts small blind $0.01
Bb: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Bu
Dealt to Sb
Dealt to Bb
Dealt to Ut
Dealt to Hero [Ah Ad]
Ut: raises $0.04 to $0.06
Hero: calls $0.06
Bu: folds
Sb: folds
Bb: raises $0.16 to $0.22
Ut: raises $1.74 to $1.96 and is all-in
Hero: raises $2.88 to $4.84
Bb: folds
Uncalled bet ($2.88) returned to Hero
Ut: shows [Kh Kd]
Hero: shows [Ah Ad]
*** FLOP *** [2h 5d 8c]
*** TURN *** [2h 5d 8c] [Js]
*** RIVER *** [2h 5d 8c Js] [3d]
*** SHOWDOWN ***
Hero collected $4.26 from pot
*** SUMMARY ***
Total pot $4.15 | Rake $0.06 | Jackpot $0.03 | Bingo $0 | Fortune $0 | Tax $0
Board [2h 5d 8c Js 3d]
Seat 1: Bu (button) folded before Flop (didn't bet)
Seat 2: Sb (small blind) folded before Flop
Seat 3: Bb (big blind) folded before Flop
Seat 4: Ut showed [Kh Kd] and lost with a Pair of Kings
Seat 5: Hero showed [Ah Ad] and won ($4.26) with a Pair of Aces
"""


def test_v43_gg_2024_cash_drop_outside_the_total_pot() -> None:
    """V43 (GG 2024 #03113263412, amounts as in the vector; the hand is built): contributions
    0.01 + 1.96 + 1.96 + 0.22 (2.88 returned); ``Total pot $4.15 | Rake 0.06 | Jackpot 0.03``;
    Cash Drop 0.20 → collected 4.26 = 4.15 - 0.09 + 0.20."""
    pt = clean(V43, "ggpoker")
    assert pt.contributions == {"Bu": 0, "Sb": 1, "Bb": 22, "Ut": 196, "Hero": 484}
    assert pt.expected_returns == pt.printed_returns == {"Hero": 288}
    assert pt.house == 20 and pt.total_expected == 415 and (pt.rake, pt.fees) == (6, 3)
    assert pots(pt) == [(435, {"Ut", "Hero"})] and nets(pt) == [426]
    assert pt.expected_paid == pt.collected == {"Hero": 426}

    # the drop not paid out: 20 cents vanish
    f = flagged(swap(V43, "Hero collected $4.26", "Hero collected $4.06"), "A010", "ggpoker")
    assert (f.data["expected"], f.data["actual"]) == (723, 703)


# --------------------------------------------------------------------------------------- V44
@pytest.mark.corpus
def test_v44_real_gg_2021_cash_drop_inside_the_total_pot() -> None:
    """V44 (real hand, GG RC58843003): contributions 2.61, Cash Drop 0.20 → ``Total pot $2.81``
    (drop included); collected 2.73 = 2.81 - 0.06 rake - 0.02 jackpot."""
    hand = corpus_hand("ggpoker", "cash-flop", "PLO-6max-USD-0.01-0.02-202104.STP.txt", "RC58843003")
    for options in ({}, {"drop_in_total": True}):
        pt = clean_real(hand, "ggpoker", **options)
        assert sum(pt.contributions.values()) == 261 and pt.house == 20
        assert pt.claim is not None and pt.claim.total == 281 and (pt.rake, pt.fees) == (6, 2)
        assert nets(pt) == [273]
        assert pt.expected_paid == pt.collected == {"291a0936": 273}


V44 = """Poker Hand #RC900000044: Omaha Pot Limit ($0.01/$0.02) - 2021/04/12 07:43:21
Table 'RushAndCash900044' 6-max Seat #1 is the button
Seat 1: Bu ($3.26 in chips)
Seat 2: Sb ($2 in chips)
Seat 3: Bb ($2.25 in chips)
Seat 5: Hero ($2.25 in chips)
Seat 6: Vil ($1.29 in chips)
Cash Drop to Pot : total $0.2
Sb: posts small blind $0.01
Bb: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Bu
Dealt to Sb
Dealt to Bb
Dealt to Hero [Ks Kd 7c 2h]
Dealt to Vil
Hero: raises $0.04 to $0.06
Vil: raises $0.15 to $0.21
Bu: folds
Sb: folds
Bb: folds
Hero: calls $0.15
*** FLOP *** [Th 2d 9s]
Hero: bets $0.45
Vil: raises $0.63 to $1.08 and is all-in
Hero: calls $0.63
Hero: shows [Ks Kd 7c 2h] (Pair of Kings)
Vil: shows [Qs Qc 4c 4d] (Pair of Queens)
*** TURN *** [Th 2d 9s] [3c]
*** RIVER *** [Th 2d 9s 3c] [8h]
*** SHOWDOWN ***
Hero collected $2.73 from pot
*** SUMMARY ***
Total pot $2.81 | Rake $0.06 | Jackpot $0.02 | Bingo $0
Board [Th 2d 9s 3c 8h]
Seat 1: Bu (button) folded before Flop (didn't bet)
Seat 2: Sb (small blind) folded before Flop
Seat 3: Bb (big blind) folded before Flop
Seat 5: Hero showed [Ks Kd 7c 2h] and won ($2.73) with Pair of Kings
Seat 6: Vil showed [Qs Qc 4c 4d] and lost with Pair of Queens
"""


def test_v44_built_gg_2021_cash_drop_inside_the_total_pot() -> None:
    """V44 built: contributions 1.29 + 1.29 + 0.01 + 0.02 = 2.61, a 0.20 cash drop printed inside
    ``Total pot $2.81``; collected 2.73.  Paying the drop a second time (2.93) creates money."""
    for options in ({}, {"drop_in_total": True}):
        pt = clean(V44, "ggpoker", **options)
        assert sum(pt.contributions.values()) == 261 and pt.house == 20 and (pt.rake, pt.fees) == (6, 2)
        assert pots(pt) == [(281, {"Hero", "Vil"})] and nets(pt) == [273]
        assert pt.expected_paid == pt.collected == {"Hero": 273}
    f = flagged(swap(V44, "Hero collected $2.73", "Hero collected $2.93"), "A010", "ggpoker")
    assert (f.data["expected"], f.data["actual"]) == (281, 301)


# --------------------------------------------------------------------------------------- V45
V45 = """Poker Hand #RC900000045: Hold'em No Limit ($0.01/$0.02) - 2024/05/01 12:00:00
Table 'RushAndCash900045' 6-max Seat #4 is the button
Seat 1: Cann ($2 in chips)
Seat 2: Cat ($2.32 in chips)
Seat 3: pomor ($1.96 in chips)
Seat 4: Zsolt ($10 in chips)
Cann: posts small blind $0.01
Cat: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Cann
Dealt to Cat
Dealt to pomor
Dealt to Zsolt [7c 7d]
pomor: raises $1.94 to $1.96 and is all-in
Zsolt: raises $2.14 to $4.10
Cann: folds
Cat: calls $2.30 and is all-in
Uncalled bet ($1.78) returned to Zsolt
pomor: shows [Ah Ad]
Cat: shows [Kh Kd]
Zsolt: shows [7c 7d]
*** FLOP *** [2h 5d 8c]
*** TURN *** [2h 5d 8c] [Js]
*** RIVER *** [2h 5d 8c Js] [3s]
*** SHOWDOWN ***
pomor collected $5.81 from pot
Cat collected $0.72 from pot
*** SUMMARY ***
Total pot $6.61 | Rake $0.06 | Jackpot $0.02 | Bingo $0 | Fortune $0 | Tax $0
Board [2h 5d 8c Js 3s]
Seat 1: Cann (small blind) folded before Flop
Seat 2: Cat (big blind) showed [Kh Kd] and won ($0.72) with a Pair of Kings
Seat 3: pomor showed [Ah Ad] and won ($5.81) with a Pair of Aces
Seat 4: Zsolt (button) showed [7c 7d] and lost with a Pair of Sevens
"""


def test_v45_gg_fees_taken_from_the_main_pot() -> None:
    """V45 (GG 02812205389, amounts as in the vector; the hand is built): Zsolt 4.10, pomor 1.96
    all-in, Cat 2.32 all-in, Cann 0.01 folded → 1.78 returned to Zsolt; main 5.89 {3 players},
    side 0.72 {Zsolt,Cat}; the 0.08 fees come from the main pot → collected 5.81 + 0.72.

    GG never prints side pots and its allocation of rake is unpublished: under ``ggpoker``
    (rake_allocation unknown) each winner is owed between its pot less all the fees and the whole
    pot; with the allocation set to main pot first the payment is exact."""
    pt = clean(V45, "ggpoker")
    assert pt.contributions == {"Cann": 1, "Cat": 232, "pomor": 196, "Zsolt": 410}
    assert pt.expected_returns == pt.printed_returns == {"Zsolt": 178}
    assert pots(pt) == [(589, {"pomor", "Cat", "Zsolt"}), (72, {"Cat", "Zsolt"})]
    assert pt.total_expected == 661 and pt.rake + pt.fees == 8
    assert not pt.allocation_known
    assert (pt.paid_low, pt.paid_high) == ({"pomor": 581, "Cat": 64}, {"pomor": 589, "Cat": 72})
    assert pt.collected == {"pomor": 581, "Cat": 72}

    exact = clean(V45, "ggpoker", rake_allocation="main_first")
    assert nets(exact) == [581, 72]
    assert exact.expected_paid == exact.collected == {"pomor": 581, "Cat": 72}

    # the side pot to the worse hand; the fees taken from the side pot instead (main_first)
    flagged(swap(V45, "Cat collected $0.72", "Zsolt collected $0.72"), "A004", "ggpoker", player="Zsolt")
    side_fees = swap(
        swap(V45, "pomor collected $5.81", "pomor collected $5.89"), "Cat collected $0.72", "Cat collected $0.64"
    )
    assert a_codes(audit(side_fees, "ggpoker")[1]) == []  # within the bounds of an unknown allocation
    # main pot first: pomor holds 8 cents of the side pot he cannot win, Cat is 8 cents short
    flagged(side_fees, "A005", "ggpoker", player="pomor", rake_allocation="main_first")
    flagged(side_fees, "A004", "ggpoker", player="Cat", rake_allocation="main_first")


# --------------------------------------------------------------------------------------- V46
@pytest.mark.corpus
def test_v46_real_printed_pots_are_net_of_rake() -> None:
    """V46 (real hand, PS #22865231671, PLO 0.01/0.02): 0.01 f, 0.02 f, 0.90 ai, 1.05 ai, 0.08 f,
    0.59 ai, 1.05 → gross 2.47 / 0.93 / 0.30; printed 2.35 / 0.88 / 0.29; rake 0.18 = the sum of
    the differences."""
    hand = corpus_hand("pokerstars", "cash-flop", "PLO-FR-USD-0.01-0.02-201006.sidepots.txt", "22865231671")
    pt = clean_real(hand)
    assert sorted(pt.contributions.values()) == [1, 2, 8, 59, 90, 105, 105]
    assert [p.amount for p in pt.pots] == [247, 93, 30] and nets(pt) == [235, 88, 29]
    assert pt.rake == 18 == sum(p.amount - p.net for p in pt.pots)
    assert pt.expected_paid == pt.collected == {"Player0": 323, "Player2": 29}


V46 = """PokerStars Game #900000004601:  Omaha Pot Limit ($0.01/$0.02 USD) - 2010/06/07 15:14:17 ET
Table 'Test' 9-max Seat #6 is the button
Seat 2: P5 ($0.52 in chips)
Seat 3: Hero ($0.59 in chips)
Seat 5: P0 ($0.90 in chips)
Seat 6: P4 ($1.86 in chips)
Seat 7: Sb ($2.79 in chips)
Seat 8: Bb ($5 in chips)
Seat 9: P2 ($1.05 in chips)
Sb: posts small blind $0.01
Bb: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Hero [Qs Qd 8h 8d]
P2: calls $0.02
P5: calls $0.02
Hero: calls $0.02
P0: raises $0.06 to $0.08
P4: calls $0.08
Sb: folds
Bb: folds
P2: calls $0.06
P5: calls $0.06
Hero: calls $0.06
*** FLOP *** [Kh 9d 4h]
P2: checks
P5: checks
Hero: bets $0.43
P0: raises $0.39 to $0.82 and is all-in
P4: calls $0.82
P2: raises $0.15 to $0.97 and is all-in
P5: folds
Hero: calls $0.08 and is all-in
P4: calls $0.15
*** TURN *** [Kh 9d 4h] [2c]
*** RIVER *** [Kh 9d 4h 2c] [7s]
*** SHOW DOWN ***
P2: shows [Js Jd Th 5d] (a pair of Jacks)
P4: shows [Ts Tc 6s 6d] (a pair of Tens)
P2 collected $0.29 from side pot-2
P0: shows [Ks Kd 3h 3d] (three of a kind, Kings)
P0 collected $0.88 from side pot-1
Hero: shows [Qs Qd 8h 8d] (a pair of Queens)
P0 collected $2.35 from main pot
*** SUMMARY ***
Total pot $3.70 Main pot $2.35. Side pot-1 $0.88. Side pot-2 $0.29. | Rake $0.18
Board [Kh 9d 4h 2c 7s]
Seat 2: P5 folded on the Flop
Seat 3: Hero showed [Qs Qd 8h 8d] and lost with a pair of Queens
Seat 5: P0 showed [Ks Kd 3h 3d] and won ($3.23) with three of a kind, Kings
Seat 6: P4 (button) showed [Ts Tc 6s 6d] and lost with a pair of Tens
Seat 7: Sb (small blind) folded before Flop
Seat 8: Bb (big blind) folded before Flop
Seat 9: P2 showed [Js Jd Th 5d] and won ($0.29) with a pair of Jacks
"""


def test_v46_built_printed_pots_are_net_of_rake() -> None:
    """V46 built: the same contributions (other cards and actions): gross 2.47 {P2,Hero,P0,P4} /
    0.93 {P2,P0,P4} / 0.30 {P2,P4}; printed 2.35 / 0.88 / 0.29; rake 0.18.  Printing the gross
    pots, or a pot above its layer, is a side-pot error (A003)."""
    pt = clean(V46)
    assert pt.contributions == {"P5": 8, "Hero": 59, "P0": 90, "P4": 105, "Sb": 1, "Bb": 2, "P2": 105}
    assert pt.expected_returns == {}
    assert pots(pt) == [(247, {"P2", "Hero", "P0", "P4"}), (93, {"P2", "P0", "P4"}), (30, {"P2", "P4"})]
    assert nets(pt) == [235, 88, 29] and pt.rake == 18 and pt.total_expected == 370
    assert pt.expected_paid == pt.collected == {"P0": 323, "P2": 29}

    gross = swap(
        V46,
        "Main pot $2.35. Side pot-1 $0.88. Side pot-2 $0.29.",
        "Main pot $2.47. Side pot-1 $0.93. Side pot-2 $0.30.",
    )
    f = flagged(gross, "A003")
    assert (f.data["expected"], f.data["actual"]) == (18, 0)
    over = swap(V46, "Main pot $2.35. Side pot-1 $0.88.", "Main pot $2.28. Side pot-1 $0.95.")
    f = flagged(over, "A003")
    assert (f.data["expected"], f.data["actual"]) == (93, 95)


# --------------------------------------------------------------------------------------- V47
@pytest.mark.corpus
def test_v47_real_gg_straddle_walk() -> None:
    """V47 (real hand, GG OM812126): SB 5 folds, BB 10 folds, straddle 20 → 10 returned; pot 25;
    rake 0."""
    hand = corpus_hand("ggpoker", "cash-flop", "PLO5-6max-USD-5-10-202104.straddle.txt", "OM812126")
    pt = clean_real(hand, "ggpoker")
    assert pt.expected_returns == pt.printed_returns == {"6bf5ff85": 1000}
    assert pt.total_expected == 2500 and pt.rake == 0
    assert pt.expected_paid == pt.collected == {"6bf5ff85": 2500}


V47 = """Poker Hand #OM900000047: PLO-5 ($5/$10) - 2021/04/08 01:36:05
Table 'PLO-5Test6' 6-max Seat #4 is the button
Seat 1: Al ($585 in chips)
Seat 2: Bo ($595 in chips)
Seat 3: Cy ($2,600.35 in chips)
Seat 4: Strad ($953.9 in chips)
Seat 5: Sb ($1,260.62 in chips)
Seat 6: Bb ($440.91 in chips)
Sb: posts small blind $5
Bb: posts big blind $10
Strad: straddle $20
*** HOLE CARDS ***
Dealt to Al
Dealt to Bo
Dealt to Cy
Dealt to Strad
Dealt to Sb
Dealt to Bb
Sb: folds
Bb: folds
Al: folds
Bo: folds
Cy: folds
Uncalled bet ($10) returned to Strad
*** SHOWDOWN ***
Strad collected $25 from pot
*** SUMMARY ***
Total pot $25 | Rake $0 | Jackpot $0 | Bingo $0
Seat 1: Al folded before Flop (didn't bet)
Seat 2: Bo folded before Flop (didn't bet)
Seat 3: Cy folded before Flop (didn't bet)
Seat 4: Strad (button) collected ($25)
Seat 5: Sb (small blind) folded before Flop
Seat 6: Bb (big blind) folded before Flop
"""


def test_v47_built_straddle_walk() -> None:
    """V47 built: SB 5 and BB 10 fold to a 20 straddle → 10 of the straddle returned; pot 25;
    rake 0.  Returning the whole straddle over the small blind (15) is an uncalled-bet error."""
    pt = clean(V47, "ggpoker")
    assert pt.contributions["Strad"] == 2000 and pt.contributions["Sb"] == 500 and pt.contributions["Bb"] == 1000
    assert pt.expected_returns == pt.printed_returns == {"Strad": 1000}
    assert pt.total_expected == 2500 and pt.rake == 0
    assert pots(pt) == [(2500, {"Strad"})]
    assert pt.expected_paid == pt.collected == {"Strad": 2500}
    f = flagged(swap(V47, "Uncalled bet ($10)", "Uncalled bet ($15)"), "A001", "ggpoker", player="Strad")
    assert (f.data["expected"], f.data["actual"]) == (1000, 1500)


# ====================================================================== pot boundaries (V51, V52)


# --------------------------------------------------------------------------------------- V51
def v51_real() -> M.Hand:
    return corpus_hand("pokerstars", "tournament-flop", "NLHE-FPP-MTT-1r-201005.AllinLotsRebuy.txt", "16652117062")


@pytest.mark.corpus
def test_v51_real_pokerstars_prints_a_boundary_at_every_allin_level() -> None:
    """V51 (real hand, PS #16652117062): antes 40, 100/200; P6 40 folded, P21 430 all-in, P12 200
    all-in (dead: sitting out), P11 600 all-in, Hero 7365 all-in, P7 600 all-in → 6765 returned;
    allin_boundaries → Main 1040, Side-1 920, Side-2 510 (as printed)."""
    pt = clean_real(v51_real())
    assert pt.expected_returns == pt.printed_returns == {"Hero": 6765}
    assert [p.amount for p in pt.pots] == [1040, 920, 510] and nets(pt) == [1040, 920, 510]
    assert set(pt.pots[2].eligible) == {"Player11", "Hero", "Player7"}
    assert pt.expected_paid == pt.collected == {"Player21": 1960, "Player11": 255, "Player7": 255}


@pytest.mark.corpus
def test_v51_real_dead_allin_hand_and_merge_policy() -> None:
    """V51 (real hand): P12's hand is dead, so main and side-1 both go to {P21, P11, Hero, P7};
    the merge policy (tda) gives 1960 + 510."""
    pt = clean_real(v51_real())
    assert set(pt.pots[0].eligible) == set(pt.pots[1].eligible) == {"Player21", "Player11", "Hero", "Player7"}
    merged = clean_real(v51_real(), "tda", pot_boundaries="merge")
    assert [p.amount for p in merged.pots] == [1960, 510]


V51 = (
    ps_tourney(
        900000005101,
        (100, 200),
        1,
        [(1, "Pf", 1580), (2, "Ps", 430), (3, "Pz", 200), (4, "Pk", 600), (5, "Hero", 7365), (6, "Pm", 600)],
        max_seats=6,
    ).replace("Seat 3: Pz (200 in chips)", "Seat 3: Pz (200 in chips) is sitting out")
    + "".join(f"{n}: posts the ante 40\n" for n in ("Pf", "Ps", "Pz", "Pk", "Hero", "Pm"))
    + """Ps: posts small blind 100
Pz: posts big blind 160 and is all-in
*** HOLE CARDS ***
Pk: raises 400 to 560 and is all-in
Hero: raises 6765 to 7325 and is all-in
Pm: calls 560 and is all-in
Pf: folds
Ps: calls 290 and is all-in
Pz: folds
Uncalled bet (6765) returned to Hero
*** FLOP *** [2d 8c Kh]
*** TURN *** [2d 8c Kh] [4s]
*** RIVER *** [2d 8c Kh 4s] [6h]
*** SHOW DOWN ***
Pk: shows [Qd Jd] (high card King)
Hero: shows [9s Tc] (high card King)
Pm: shows [Qh Jh] (high card King)
Pk collected 255 from side pot-2
Pm collected 255 from side pot-2
Ps: shows [Ac As] (a pair of Aces)
Ps collected 920 from side pot-1
Ps collected 1040 from main pot
*** SUMMARY ***
Total pot 2470 Main pot 1040. Side pot-1 920. Side pot-2 510. | Rake 0
Board [2d 8c Kh 4s 6h]
Seat 1: Pf (button) folded before Flop (didn't bet)
Seat 2: Ps (small blind) showed [Ac As] and won (1960) with a pair of Aces
Seat 3: Pz (big blind) folded before Flop
Seat 4: Pk showed [Qd Jd] and won (255) with high card King
Seat 5: Hero showed [9s Tc] and lost with high card King
Seat 6: Pm showed [Qh Jh] and won (255) with high card King
"""
)


def test_v51_built_pokerstars_prints_a_boundary_at_every_allin_level() -> None:
    """V51 built: the same contributions (Pf 40 folded, Ps 430, Pz 200 dead, Pk 600, Hero 7365,
    Pm 600, all all-in) → 6765 returned to Hero; pokerstars (allin_boundaries) → 1040 / 920 / 510
    as printed; Ps wins main and side-1 (1960), Pk and Pm split side-2 255 / 255.  Printing the
    merged pots (1960 + 510) under the pokerstars profile is a side-pot error."""
    pt = clean(V51)
    assert pt.contributions == {"Pf": 40, "Ps": 430, "Pz": 200, "Pk": 600, "Hero": 7365, "Pm": 600}
    assert pt.expected_returns == pt.printed_returns == {"Hero": 6765}
    assert [p.amount for p in pt.pots] == [1040, 920, 510]
    assert [(p.low, p.high) for p in pt.pots] == [(0, 200), (200, 430), (430, 600)]
    assert set(pt.pots[1].eligible) == {"Ps", "Pk", "Hero", "Pm"} and set(pt.pots[2].eligible) == {"Pk", "Hero", "Pm"}
    assert pt.expected_paid == pt.collected == {"Ps": 1960, "Pk": 255, "Pm": 255}

    merged = swap(V51, "Main pot 1040. Side pot-1 920. Side pot-2 510.", "Main pot 1960. Side pot 510.")
    merged = merged.replace("from side pot-2", "from side pot")
    flagged(merged, "A003")
    flagged(swap(V51, "Pm collected 255 from side pot-2", "Ps collected 255 from side pot-2"), "A005", player="Ps")


def test_v51_built_dead_allin_hand_and_merge_policy() -> None:
    """V51 built: Pz's all-in hand is dead: main 1040 and side-1 920 have the same eligible
    players {Ps, Pk, Hero, Pm}; under the merge policy (tda) the pots are 1960 + 510."""
    pt = clean(V51)
    assert set(pt.pots[0].eligible) == set(pt.pots[1].eligible) == {"Ps", "Pk", "Hero", "Pm"}
    merged = audit(V51, "tda", pot_boundaries="merge")[0]
    assert pots(merged) == [(1960, {"Ps", "Pk", "Hero", "Pm"}), (510, {"Pk", "Hero", "Pm"})]
    assert merged.expected_paid == {"Ps": 1960, "Pk": 255, "Pm": 255}


# --------------------------------------------------------------------------------------- V52
def v52_real() -> M.Hand:
    return corpus_hand("pokerstars", "tournament-flop", "NLHE-play-STT-2000.201202.allin.blind.txt", "75726253875")


@pytest.mark.corpus
def test_v52_real_pokerstars_does_not_merge_identical_eligible_sets() -> None:
    """V52 (real hand, PS #75726253875): 15/30; P0 120 folded, P6 20 all-in (dead), P2 1215, P3
    120 folded, P1 1215 all-in → Main 100, Side 2590, both to P1."""
    pt = clean_real(v52_real())
    assert pt.expected_returns == {}
    assert [p.amount for p in pt.pots] == [100, 2590]
    assert set(pt.pots[1].eligible) == {"Player1", "Player2"}
    assert pt.expected_paid == pt.collected == {"Player1": 2690}


@pytest.mark.corpus
def test_v52_real_identical_eligible_sets() -> None:
    """V52 (real hand): the two printed pots have identical eligible players {P1, P2} (P6's hand
    is dead); the merge policy (tda) makes them one pot of 2690."""
    pt = clean_real(v52_real())
    assert set(pt.pots[0].eligible) == set(pt.pots[1].eligible) == {"Player1", "Player2"}
    assert pots(clean_real(v52_real(), "tda", pot_boundaries="merge")) == [(2690, {"Player1", "Player2"})]


V52 = (
    ps_tourney(
        900000005201,
        (15, 30),
        3,
        [
            (1, "Pc", 4275),
            (2, "Pd", 2800),
            (3, "Pb", 1215),
            (4, "Pa", 1640),
            (6, "Pz", 20),
            (7, "Pe", 1630),
            (8, "Pf", 1920),
        ],
    ).replace("Seat 6: Pz (20 in chips)", "Seat 6: Pz (20 in chips) is sitting out")
    + """Pa: posts small blind 15
Pz: posts big blind 20 and is all-in
*** HOLE CARDS ***
Pe: calls 30
Pf: folds
Pc: calls 30
Pd: folds
Pb: raises 90 to 120
Pa: calls 105
Pz: folds
Pe: calls 90
Pc: calls 90
*** FLOP *** [3d 9h Kc]
Pa: checks
Pe: bets 120
Pc: folds
Pb: raises 975 to 1095 and is all-in
Pa: folds
Pe: calls 975
*** TURN *** [3d 9h Kc] [5s]
*** RIVER *** [3d 9h Kc 5s] [2c]
*** SHOW DOWN ***
Pe: shows [Kd Jd] (a pair of Kings)
Pb: shows [Ks Qh] (a pair of Kings - Queen kicker)
Pb collected 2590 from side pot
Pb collected 100 from main pot
*** SUMMARY ***
Total pot 2690 Main pot 100. Side pot 2590. | Rake 0
Board [3d 9h Kc 5s 2c]
Seat 1: Pc folded on the Flop
Seat 2: Pd folded before Flop (didn't bet)
Seat 3: Pb (button) showed [Ks Qh] and won (2690) with a pair of Kings
Seat 4: Pa (small blind) folded on the Flop
Seat 6: Pz (big blind) folded before Flop
Seat 7: Pe showed [Kd Jd] and lost with a pair of Kings
Seat 8: Pf folded before Flop (didn't bet)
"""
)


def test_v52_built_pokerstars_does_not_merge_identical_eligible_sets() -> None:
    """V52 built: 15/30; Pa 120 folded, Pz 20 all-in (dead, sitting out), Pe 1215, Pc 120 folded,
    Pb 1215 all-in → Main 100, Side 2590 (pokerstars prints the dead all-in level); both to Pb.
    Printing one merged pot of 2690 under the pokerstars profile is a side-pot error."""
    pt = clean(V52)
    assert pt.contributions == {"Pc": 120, "Pd": 0, "Pb": 1215, "Pa": 120, "Pz": 20, "Pe": 1215, "Pf": 0}
    assert pt.expected_returns == {}
    assert [p.amount for p in pt.pots] == [100, 2590] and set(pt.pots[1].eligible) == {"Pb", "Pe"}
    assert pt.total_expected == 2690
    assert pt.expected_paid == pt.collected == {"Pb": 2690}

    one = swap(V52, "Total pot 2690 Main pot 100. Side pot 2590.", "Total pot 2690")
    one = swap(one, "Pb collected 2590 from side pot\nPb collected 100 from main pot", "Pb collected 2690 from pot")
    assert a_codes(audit(one)[1]) == []  # no per-pot amounts printed: nothing to compare
    flagged(swap(V52, "Main pot 100. Side pot 2590.", "Main pot 2690."), "A003")
    flagged(swap(V52, "Pb collected 2590 from side pot", "Pe collected 2590 from side pot"), "A004", player="Pe")


def test_v52_built_identical_eligible_sets() -> None:
    """V52 built: main 100 and side 2590 have the same eligible players {Pb, Pe} (Pz's hand is
    dead); under the merge policy (tda) they are one pot of 2690."""
    pt = clean(V52)
    assert set(pt.pots[0].eligible) == set(pt.pots[1].eligible) == {"Pb", "Pe"}
    assert pots(audit(V52, "tda", pot_boundaries="merge")[0]) == [(2690, {"Pb", "Pe"})]
