"""The pot examples of the user's seed documents (../shared/seeds), as tests.

The seeds are the user's own guides (Arabic and Persian); they state the intent the auditor must
follow.  Each pot, side-pot and showdown example in them is written here as a PokerStars hand
(tournament chips: the seeds count in chips), audited with :func:`auditor.audit.audit_hand`, and
checked against the seed's numbers: every pot's amount, who may win it, the part returned, and
who is paid what.  Each test's docstring quotes its example in English.

* seed 003 (Arabic, "Side pots explained: computing the pots and distributing the chips, with
  examples"): the 80/210/350 table with its board and hands, the 70/160/250/100 table with a
  folded player, ties in one pot but not another, and the two-player FAQ;
* seed 002 (Persian, the all-in guide): the 100/200/500/500 table, the three-player example and
  the lone player left in a side pot;
* seed 000 (Arabic, "All-in rules in Texas Hold'em"): the three-player example (stacks 100/300/300,
  100/150/150 put in), the uncalled excess, the all-in player who mucks, the all-in for less than
  the big blind.

The seeds are live-game guides, so the hands are audited under ``tda`` (pots of identical
eligible players merged) and under ``pokerstars`` (a pot boundary at every all-in level): every
example here gives the same pots under both.  Where a seed gives no cards, the cards chosen are
named in the test.
"""

from __future__ import annotations

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import parse_text
from auditor.profiles import PROFILES
from auditor.replay.pots import PotTrace

RULES = ("tda", "pokerstars")


def parse(text: str) -> M.Hand:
    """The one hand of ``text``; it must parse without a finding."""
    items = list(parse_text(text, path="seed.txt"))
    hands = [h for h in items if isinstance(h, M.Hand)]
    problems = [(f.code, f.line, f.message) for f in items if isinstance(f, Finding)]
    assert len(hands) == 1 and not problems, problems
    return hands[0]


def audit(text: str, rules: str = "tda") -> tuple[PotTrace, list[Finding]]:
    a = audit_hand(parse(text), PROFILES[rules])
    pt, found = a.pots, a.findings
    assert pt is not None
    return pt, found


def a_codes(found: list[Finding]) -> list[str]:
    return sorted({f.code for f in found if f.code.startswith("A")})


def clean(text: str, rules: str = "tda") -> PotTrace:
    """Audit a hand paid as the seed says: no finding at all; its pots."""
    pt, found = audit(text, rules)
    assert found == [], [(f.code, f.line, f.message) for f in found]
    return pt


def flagged(text: str, code: str, player: str | None = None, rules: str = "tda") -> Finding:
    """Audit a wrongly paid variant: it must carry ``code`` (naming ``player`` when given)."""
    _pt, found = audit(text, rules)
    hits = [f for f in found if f.code == code and (player is None or f.data.get("player") == player)]
    assert hits, [(f.code, f.line, f.message) for f in found]
    return hits[0]


def pots(pt: PotTrace) -> list[tuple[int, set[str]]]:
    """Each pot as (amount, eligible players), main pot first."""
    return [(p.amount, set(p.eligible)) for p in pt.pots]


def swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, (old, text.count(old))
    return text.replace(old, new)


def head(hand_id: int, blinds: tuple[int, int], button: int, seats: list[tuple[str, int]]) -> str:
    """A PokerStars tournament hand's header; ``seats`` in seat order from seat 1."""
    sb, bb = blinds
    lines = [
        f"PokerStars Hand #{hand_id}: Tournament #1000000003, $10+$1 USD Hold'em No Limit - Level I ({sb}/{bb}) "
        "- 2026/01/01 12:00:00 ET",
        f"Table '1000000003 1' 9-max Seat #{button} is the button",
    ]
    lines += [f"Seat {i}: {n} ({c} in chips)" for i, (n, c) in enumerate(seats, start=1)]
    return "\n".join(lines) + "\n"


def board(cards: str, *checkers: str) -> str:
    """Flop, turn and river lines; ``checkers`` check on every street."""
    c = cards.split()
    checks = "".join(f"{n}: checks\n" for n in checkers)
    return (
        f"*** FLOP *** [{' '.join(c[:3])}]\n{checks}"
        f"*** TURN *** [{' '.join(c[:3])}] [{c[3]}]\n{checks}"
        f"*** RIVER *** [{' '.join(c[:4])}] [{c[4]}]\n{checks}"
    )


# =============================================================================== seed 003
SEED003_TABLE1 = (
    head(900000000301, (10, 20), 3, [("A", 80), ("B", 210), ("C", 1000)])
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


def test_seed003_three_players_80_210_350_with_board_and_hands() -> None:
    """Seed 003, "Example: three players with contributions 80, 210 and 350": "Suppose the
    following contributions are the total each player paid in the whole hand, including any
    blinds already posted.  The players reached showdown and nobody folded.  There are no fees
    or deductions in the example.  A 80 all-in; B 210 all-in; C 350, paid more than the amount B
    covered.  Main pot 80 x 3 = 240, A, B, C; side pot (210 - 80) x 2 = 260, B, C; the uncalled
    part 350 - 210 = 140 is returned to C.  Total check: 80 + 210 + 350 = 640; and the other way:
    240 + 260 + 140 = 640."

    "Add these cards: board 2♥ 5♦ 8♣ J♠ K♦.  A: A♠ A♥, a pair of aces; B: Q♠ Q♥, a pair of queens;
    C: 10♣ 10♦, a pair of tens.  A has the strongest hand of the three, so he wins the main pot:
    240.  But he did not contribute to the side pot, so he does not compete for it.  Between B
    and C the pair of queens is stronger; B wins the side pot: 260.  And C gets back the
    uncalled chips: 140.  This refund does not mean C won a hand or a pot." """
    for rules in RULES:
        pt = clean(SEED003_TABLE1, rules)
        assert pt.contributions == {"A": 80, "B": 210, "C": 350}
        assert pots(pt) == [(240, {"A", "B", "C"}), (260, {"B", "C"})], rules
        assert pt.expected_returns == pt.printed_returns == {"C": 140}
        assert sum(pt.contributions.values()) == 640 == 240 + 260 + 140
        assert [(a.pot, a.winners) for a in pt.awards] == [("main", ("A",)), ("side-1", ("B",))]
        assert pt.expected_paid == pt.collected == {"A": 240, "B": 260}
        assert "C" not in pt.expected_paid  # the refund is not a win

    # "having the best hand does not by itself give a player the right to win all the chips"
    flagged(swap(SEED003_TABLE1, "B collected 260 from side pot", "A collected 260 from side pot"), "A005", "A")
    # nor is C's uncalled 140 a pot the others compete for
    pooled = swap(SEED003_TABLE1, "Uncalled bet (140) returned to C\n", "")
    pooled = swap(
        swap(pooled, "B collected 260", "B collected 400"),
        "Total pot 500 Main pot 240. Side pot 260.",
        "Total pot 640 Main pot 240. Side pot 400.",
    )
    found = a_codes(audit(pooled)[1])
    assert {"A001", "A002", "A003"} <= set(found), found


SEED003_TABLE2 = (
    head(900000000302, (50, 100), 2, [("A", 70), ("B", 160), ("C", 250), ("D", 1000)])
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
A: shows [Qs Qh] (a pair of Queens)
B: shows [Tc Td] (a pair of Tens)
C: shows [As Ah] (a pair of Aces)
C collected 210 from side pot
C collected 280 from main pot
*** SUMMARY ***
Total pot 490 Main pot 280. Side pot 210. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A showed [Qs Qh] and lost with a pair of Queens
Seat 2: B (button) showed [Tc Td] and lost with a pair of Tens
Seat 3: C (small blind) showed [As Ah] and won (490) with a pair of Aces
Seat 4: D (big blind) folded before Flop
"""
)


def test_seed003_folded_player_70_160_250_100() -> None:
    """Seed 003, "Do the folded player's chips count?": "Yes.  Suppose contributions A = 70,
    B = 160, C = 250, D = 100, then D folded.  The others reached showdown and the contributions
    are final.  Layers: 0 to 70, 4 contributors, 280, eligible A, B, C; above 70 to 100, 3, 90,
    B, C; above 100 to 160, 2, 120, B, C; above 160 to 250, 1, 90, refund to C.  The folded D's
    contribution paid value into the first two layers, but did not make him eligible for any
    distribution.  The two middle layers have the same eligible players, so they can be shown as
    one side pot of 210.  Final total: 280 + 210 + 90 = 580, equal to 70 + 160 + 250 + 100."

    The seed gives no cards for this table; here C (who alone covers every layer) has the best
    hand and wins both pots, so the 90 he gets back is the only part of his 580 that is not won."""
    for rules in RULES:
        pt = clean(SEED003_TABLE2, rules)
        assert pt.contributions == {"A": 70, "B": 160, "C": 250, "D": 100}
        assert pots(pt) == [(280, {"A", "B", "C"}), (210, {"B", "C"})], rules
        assert pt.expected_returns == pt.printed_returns == {"C": 90}
        # the layers of the seed's table, from the contributions
        level = {n: v - pt.expected_returns.get(n, 0) for n, v in pt.contributions.items()}
        layers = [sum(min(v, hi) - min(v, lo) for v in level.values()) for lo, hi in ((0, 70), (70, 100), (100, 160))]
        assert layers == [280, 90, 120]
        assert (pt.pots[1].low, pt.pots[1].high) == (70, 160)
        # D's 100 is 70 in the main pot and 30 in the side pot, and D may win neither
        assert min(level["D"], 70) == 70 and min(level["D"], 160) - 70 == 30
        assert all("D" not in p.eligible for p in pt.pots)
        assert 280 + 210 + 90 == 580 == sum(pt.contributions.values())
        assert pt.expected_paid == pt.collected == {"C": 490}

    flagged(swap(SEED003_TABLE2, "C collected 210 from side pot", "D collected 210 from side pot"), "A005", "D")


SEED003_TIE = (
    head(900000000303, (10, 20), 3, [("A", 80), ("B", 210), ("C", 1000)])
    + """A: posts small blind 10
B: posts big blind 20
*** HOLE CARDS ***
C: raises 330 to 350
A: calls 70 and is all-in
B: calls 190 and is all-in
Uncalled bet (140) returned to C
"""
    + board("Ah Kd Qc Js 2h")
    + """*** SHOW DOWN ***
A: shows [Tc 3d] (a straight, Ten to Ace)
B: shows [Th 4d] (a straight, Ten to Ace)
C: shows [9c 9d] (a pair of Nines)
B collected 260 from side pot
A collected 120 from main pot
B collected 120 from main pot
*** SUMMARY ***
Total pot 500 Main pot 240. Side pot 260. | Rake 0
Board [Ah Kd Qc Js 2h]
Seat 1: A (small blind) showed [Tc 3d] and won (120) with a straight, Ten to Ace
Seat 2: B (big blind) showed [Th 4d] and won (380) with a straight, Ten to Ace
Seat 3: C (button) showed [9c 9d] and lost with a pair of Nines
"""
)


def test_seed003_tie_in_the_main_pot_one_winner_of_the_side_pot() -> None:
    """Seed 003, "How is the pot split if players tie?": "Each pot is settled among its eligible
    players only.  Two players may tie in the main pot while one of them alone wins a different
    side pot.  Rule 23 of the Poker TDA 2026 rules confirms that each side pot is split
    separately."

    The 80/210/350 table with A and B holding the same straight: the main pot 240 is split
    120 / 120, the side pot 260 is B's alone (A is not in it); splitting the two pots together
    (250 each) is wrong."""
    for rules in RULES:
        pt = clean(SEED003_TIE, rules)
        assert pots(pt) == [(240, {"A", "B", "C"}), (260, {"B", "C"})]
        assert [(a.pot, a.shares) for a in pt.awards] == [("main", (("A", 120), ("B", 120))), ("side-1", (("B", 260),))]
        assert pt.expected_paid == pt.collected == {"A": 120, "B": 380}

    mixed = swap(
        SEED003_TIE,
        "B collected 260 from side pot\nA collected 120 from main pot\nB collected 120 from main pot",
        "A collected 250 from pot\nB collected 250 from pot",
    )
    flagged(mixed, "A005", "A")


SEED003_HEADS_UP = (
    head(900000000304, (10, 20), 2, [("A", 80), ("B", 1000)])
    + """B: posts small blind 10
A: posts big blind 20
*** HOLE CARDS ***
B: raises 380 to 400
A: calls 60 and is all-in
Uncalled bet (320) returned to B
"""
    + board("2h 5d 8c Js Kd")
    + """*** SHOW DOWN ***
A: shows [As Ah] (a pair of Aces)
B: shows [Qs Qh] (a pair of Queens)
A collected 160 from pot
*** SUMMARY ***
Total pot 160 | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A (big blind) showed [As Ah] and won (160) with a pair of Aces
Seat 2: B (button) (small blind) showed [Qs Qh] and lost with a pair of Queens
"""
)


def test_seed003_and_seed000_no_side_pot_between_two_players() -> None:
    """Seed 003 FAQ, "Is there a side pot between two players only?": "No player can compete
    alone for an extra pot once his opponent is all-in.  Any part above the called amount is
    returned to its owner."  Seed 000, mistake 3: "If you are all-in for $80, you can win from
    each caller only $80 on top of what was already in the pot — even if he bet $400."  And its
    FAQ: "If only two players are in the hand from the start, nobody contests the chips above
    the smaller stack ... the excess is returned as an uncalled bet."

    A (80 all-in) against B (400): one pot of 160, 320 back to B; A, who wins, gets 160, not
    480."""
    for rules in RULES:
        pt = clean(SEED003_HEADS_UP, rules)
        assert pots(pt) == [(160, {"A", "B"})]
        assert pt.expected_returns == pt.printed_returns == {"B": 320}
        assert pt.expected_paid == pt.collected == {"A": 160}
    flagged(
        swap(SEED003_HEADS_UP, "Uncalled bet (320) returned to B\n", "Uncalled bet (240) returned to B\n"), "A001", "B"
    )
    greedy = swap(
        swap(SEED003_HEADS_UP, "Uncalled bet (320) returned to B\n", ""), "A collected 160", "A collected 480"
    )
    greedy = swap(greedy, "Total pot 160", "Total pot 480")
    found = a_codes(audit(greedy)[1])
    assert "A001" in found and "A002" in found


# =============================================================================== seed 002
SEED002_FOUR = (
    head(900000000201, (10, 20), 4, [("A", 100), ("B", 200), ("C", 500), ("D", 2000)])
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
C: shows [9c 9d] (a pair of Nines)
D: shows [Tc Td] (a pair of Tens)
D collected 600 from side pot-2
B collected 300 from side pot-1
A collected 400 from main pot
*** SUMMARY ***
Total pot 1300 Main pot 400. Side pot-1 300. Side pot-2 600. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A (small blind) showed [As Ah] and won (400) with a pair of Aces
Seat 2: B (big blind) showed [Qs Qh] and won (300) with a pair of Queens
Seat 3: C showed [9c 9d] and lost with a pair of Nines
Seat 4: D (button) showed [Tc Td] and won (600) with a pair of Tens
"""
)


def test_seed002_four_players_100_200_500_500() -> None:
    """Seed 002, "Four-player example with different stacks": "This is where it gets complicated
    — and where most beginners get lost.  A stack 100, all-in for 100; B 200, all-in for 200;
    C 500, all-in for 500; D 500, calls everything.  Main pot 100 x 4 = 400, A, B, C and D; side
    pot 1 100 x 3 = 300, B, C and D (A's cap); side pot 2 300 x 2 = 600, C and D (A's and B's
    cap); total 1,300.  Rule: each side pot is built by taking the difference up to the next
    smaller stack x the number of players who call it.  Count from the smallest stack to the
    largest."

    The seed gives no cards; here A has the best hand, B the second, D beats C: A wins only the
    main pot 400, B only side pot 1 (300), D side pot 2 (600)."""
    for rules in RULES:
        pt = clean(SEED002_FOUR, rules)
        assert pt.contributions == {"A": 100, "B": 200, "C": 500, "D": 500}
        assert pots(pt) == [(400, {"A", "B", "C", "D"}), (300, {"B", "C", "D"}), (600, {"C", "D"})], rules
        assert pt.expected_returns == {} and pt.total_expected == 1300
        assert pt.expected_paid == pt.collected == {"A": 400, "B": 300, "D": 600}

    flagged(swap(SEED002_FOUR, "D collected 600 from side pot-2", "B collected 600 from side pot-2"), "A005", "B")
    flagged(swap(SEED002_FOUR, "D collected 600 from side pot-2", "C collected 600 from side pot-2"), "A004", "C")


SEED002_LONE = (
    head(900000000202, (10, 20), 1, [("A", 100), ("B", 300), ("C", 300)])
    + """B: posts small blind 10
C: posts big blind 20
*** HOLE CARDS ***
A: raises 80 to 100 and is all-in
B: calls 90
C: calls 80
*** FLOP *** [2h 5d 8c]
B: bets 50
C: raises 100 to 150
B: folds
Uncalled bet (100) returned to C
*** TURN *** [2h 5d 8c] [Js]
*** RIVER *** [2h 5d 8c Js] [Kd]
*** SHOW DOWN ***
A: shows [As Ah] (a pair of Aces)
C: shows [Qs Qh] (a pair of Queens)
C collected 100 from side pot
A collected 300 from main pot
*** SUMMARY ***
Total pot 400 Main pot 300. Side pot 100. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A (button) showed [As Ah] and won (300) with a pair of Aces
Seat 2: B (small blind) folded on the Flop
Seat 3: C (big blind) showed [Qs Qh] and won (100) with a pair of Queens
"""
)


def test_seed002_lone_player_left_in_a_side_pot() -> None:
    """Seed 002, "Special case: if only one player is left in a side pot (the others have
    folded), that player takes those chips back at once — no showdown is needed for that pot."

    A all-in for 100; B and C call; on the flop B bets 50, C raises to 150, B folds: C's 100
    nobody matched is returned; the side pot (B's 50 and C's 50) is C's without a showdown; the
    main pot 300 goes to the best hand between A and C (A)."""
    for rules in RULES:
        pt = clean(SEED002_LONE, rules)
        assert pots(pt) == [(300, {"A", "C"}), (100, {"C"})], rules
        assert pt.expected_returns == pt.printed_returns == {"C": 100}
        assert [(a.pot, a.winners, a.why) for a in pt.awards] == [
            ("main", ("A",), "best hand"),
            ("side-1", ("C",), "uncontested"),
        ]
        assert pt.expected_paid == pt.collected == {"A": 300, "C": 100}
    flagged(swap(SEED002_LONE, "C collected 100 from side pot", "B collected 100 from side pot"), "A005", "B")


# =============================================================================== seed 000
SEED000_THREE = (
    head(900000000001, (10, 20), 1, [("A", 100), ("B", 300), ("C", 300)])
    + """B: posts small blind 10
C: posts big blind 20
*** HOLE CARDS ***
A: raises 80 to 100 and is all-in
B: calls 90
C: calls 80
*** FLOP *** [2h 5d 8c]
B: bets 50
C: calls 50
*** TURN *** [2h 5d 8c] [Js]
B: checks
C: checks
*** RIVER *** [2h 5d 8c Js] [3d]
B: checks
C: checks
*** SHOW DOWN ***
B: shows [Ks Kh] (a pair of Kings)
C: shows [Qs Qh] (a pair of Queens)
B collected 100 from side pot
A: shows [As Ah] (a pair of Aces)
A collected 300 from main pot
*** SUMMARY ***
Total pot 400 Main pot 300. Side pot 100. | Rake 0
Board [2h 5d 8c Js 3d]
Seat 1: A (button) showed [As Ah] and won (300) with a pair of Aces
Seat 2: B (small blind) showed [Ks Kh] and won (100) with a pair of Kings
Seat 3: C (big blind) showed [Qs Qh] and lost with a pair of Queens
"""
)


def test_seed000_three_players_100_150_150() -> None:
    """Seed 000 (and seed 002, the same example), "Three-player example (the usual case)": "Main
    pot: 100 x 3 = 300 chips (A, B and C may win it).  Side pot: 50 x 2 = 100 chips (B and C
    only).  Player A can win the 300-chip main pot at showdown.  But even if his hand is the best
    of all, he cannot touch the 100-chip side pot.  B or C will win it."  And: "the stacks were
    100, 300 and 300 chips, but what A, B and C put in the pot was 100, 150 and 150.  The extra
    50 was bet by two players (B and C), which is why it became a 100-chip side pot instead of
    being returned to its owner."  (Seed 002: "A 100 chips, all-in; B 300, calls 100, then bets
    50 more; C 300, calls 100, then calls the 50.")

    A holds the best hand (aces), B beats C (kings): A 300, B 100, nothing returned."""
    for rules in RULES:
        pt = clean(SEED000_THREE, rules)
        assert pt.contributions == {"A": 100, "B": 150, "C": 150}
        assert pots(pt) == [(300, {"A", "B", "C"}), (100, {"B", "C"})], rules
        assert pt.expected_returns == pt.printed_returns == {}
        assert pt.expected_paid == pt.collected == {"A": 300, "B": 100}

    # A cannot touch the side pot, whatever his hand
    flagged(swap(SEED000_THREE, "B collected 100 from side pot", "A collected 100 from side pot"), "A005", "A")
    # and the 50 both B and C bet is a pot, not an uncalled bet
    flagged(swap(SEED000_THREE, "C: calls 50\n", "C: calls 50\nUncalled bet (50) returned to B\n"), "A001", "B")


SEED000_UNCALLED = (
    head(900000000002, (10, 20), 1, [("A", 100), ("B", 300), ("C", 300)])
    + """B: posts small blind 10
C: posts big blind 20
*** HOLE CARDS ***
A: raises 80 to 100 and is all-in
B: calls 90
C: calls 80
*** FLOP *** [2h 5d 8c]
B: bets 50
C: folds
Uncalled bet (50) returned to B
*** TURN *** [2h 5d 8c] [Js]
*** RIVER *** [2h 5d 8c Js] [3d]
*** SHOW DOWN ***
B: shows [Ks Kh] (a pair of Kings)
A: shows [As Ah] (a pair of Aces)
A collected 300 from pot
*** SUMMARY ***
Total pot 300 | Rake 0
Board [2h 5d 8c Js 3d]
Seat 1: A (button) showed [As Ah] and won (300) with a pair of Aces
Seat 2: B (small blind) showed [Ks Kh] and lost with a pair of Kings
Seat 3: C (big blind) folded on the Flop
"""
)


def test_seed000_only_one_player_above_the_cap_is_an_uncalled_bet() -> None:
    """Seed 000, "What happens to chips nobody called?": "If nobody called the part of your bet
    above your opponent's stack, it is not lost and your opponent does not take it: that part
    alone is returned to you, not the whole bet.  If you are the only player above the all-in
    player's cap, it is an uncalled bet, since nobody contests it with you.  A side pot forms only
    if two or more players with bigger stacks bet above that cap."

    The three-player example with C folding to B's 50: no side pot; B's 50 comes back; the main
    pot 300 (C's folded 100 included) goes to A."""
    for rules in RULES:
        pt = clean(SEED000_UNCALLED, rules)
        assert pots(pt) == [(300, {"A", "B"})], rules
        assert pt.expected_returns == pt.printed_returns == {"B": 50}
        assert pt.expected_paid == pt.collected == {"A": 300}
    side = swap(swap(SEED000_UNCALLED, "Uncalled bet (50) returned to B\n", ""), "Total pot 300", "Total pot 350")
    assert "A002" in a_codes(audit(side)[1])


SEED000_MUCK = (
    head(900000000003, (10, 20), 1, [("A", 100), ("B", 300), ("C", 300)])
    + """B: posts small blind 10
C: posts big blind 20
*** HOLE CARDS ***
A: raises 80 to 100 and is all-in
B: calls 90
C: calls 80
*** FLOP *** [2h 5d 8c]
B: bets 50
C: calls 50
*** TURN *** [2h 5d 8c] [Js]
B: checks
C: checks
*** RIVER *** [2h 5d 8c Js] [3d]
B: checks
C: checks
*** SHOW DOWN ***
B: shows [Ks Kh] (a pair of Kings)
C: shows [Qs Qh] (a pair of Queens)
B collected 100 from side pot
A: mucks hand
B collected 300 from main pot
*** SUMMARY ***
Total pot 400 Main pot 300. Side pot 100. | Rake 0
Board [2h 5d 8c Js 3d]
Seat 1: A (button) mucked
Seat 2: B (small blind) showed [Ks Kh] and won (400) with a pair of Kings
Seat 3: C (big blind) showed [Qs Qh] and lost with a pair of Queens
"""
)


def test_seed000_all_in_player_who_mucks_loses_the_main_pot() -> None:
    """Seed 000, mistake 4, "throwing your cards away too fast": "You are all-in for the main
    pot and two other players contest the side pot ... I once saw a short-stacked player throw
    his cards away the moment the side-pot showdown went against him — forgetting that he was
    never part of that pot, and that he could still win the main pot.  Once the dealer swept
    them into the muck ... his hand was dead, and the main pot went to someone else."

    A mucks: the main pot 300 goes to the best hand shown among its players (B), and the side
    pot 100 to B too; paying A, whose hand is dead, is wrong."""
    for rules in RULES:
        pt = clean(SEED000_MUCK, rules)
        assert pots(pt) == [(300, {"A", "B", "C"}), (100, {"B", "C"})]
        assert pt.contenders["main"] == ("B", "C")
        assert pt.expected_paid == pt.collected == {"B": 400}
    flagged(swap(SEED000_MUCK, "B collected 300 from main pot", "A collected 300 from main pot"), "A004", "A")


SEED000_SHORT_BB = (
    head(900000000004, (50, 100), 4, [("SB", 5000), ("BB", 60), ("UTG", 5000), ("BTN", 5000)])
    + """SB: posts small blind 50
BB: posts big blind 60 and is all-in
*** HOLE CARDS ***
UTG: calls 100
BTN: calls 100
SB: folds
"""
    + board("2h 5d 8c Js 3d", "UTG", "BTN")
    + """*** SHOW DOWN ***
UTG: shows [Ks Kh] (a pair of Kings)
BTN: shows [Qs Qh] (a pair of Queens)
UTG collected 80 from side pot
BB: shows [As Ah] (a pair of Aces)
BB collected 230 from main pot
*** SUMMARY ***
Total pot 310 Main pot 230. Side pot 80. | Rake 0
Board [2h 5d 8c Js 3d]
Seat 1: SB (small blind) folded before Flop
Seat 2: BB (big blind) showed [As Ah] and won (230) with a pair of Aces
Seat 3: UTG showed [Ks Kh] and won (80) with a pair of Kings
Seat 4: BTN (button) showed [Qs Qh] and lost with a pair of Queens
"""
)


def test_seed000_all_in_for_less_than_the_big_blind() -> None:
    """Seed 000 FAQ, "Can you go all-in for less than the big blind?": "Yes.  If the blind you owe
    is bigger than your whole stack, you put in what you have and are all-in for it (WSOP Live
    Action Rule 154).  The other players call the full big blind, and what they put in above your
    contribution forms a side pot between them, or goes straight back to a single player as an
    uncalled bet."

    50/100, the BB all-in for 60: UTG and the button call the full 100, the SB folds → main pot
    60 x 3 + 50 = 230 {BB, UTG, BTN}, side pot 40 x 2 = 80 {UTG, BTN}."""
    for rules in RULES:
        pt = clean(SEED000_SHORT_BB, rules)
        assert pt.contributions == {"SB": 50, "BB": 60, "UTG": 100, "BTN": 100}
        assert pots(pt) == [(230, {"BB", "UTG", "BTN"}), (80, {"UTG", "BTN"})], rules
        assert pt.expected_returns == {}
        assert pt.expected_paid == pt.collected == {"BB": 230, "UTG": 80}
    flagged(swap(SEED000_SHORT_BB, "UTG collected 80 from side pot", "BB collected 80 from side pot"), "A005", "BB")
