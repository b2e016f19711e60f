"""Differential test of hhaudit's stud and draw replay and awards against pokerkit's state machine.

For every stud, stud hi/lo, razz and draw hand that hhaudit parses in the corpus folders of
:data:`SITES` (complete, not cancelled, a game pokerkit plays), a ``pokerkit.State`` is built with
the same players, starting stacks, antes, blinds or bring-in and limits, hhaudit's events are fed
to it in printed order, and at the end each player's result in pokerkit (the final stack less the
starting stack, with no rake) is compared with hhaudit's (what its awards pay the player with no
rake, less what the replay says the player put in and did not get back).  So one comparison checks
both the betting (who put in what) and the awards (who wins what).

=================  ==============================================================================
game               pokerkit
=================  ==============================================================================
stud, stud hi/lo   ``FixedLimitSevenCardStud``, ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``
razz               ``FixedLimitRazz``
draw games         a ``State`` with pokerkit's draw streets (``Street(draw_status=True)``) and its
                   own deck and hand types: 2-7 (``StandardLowHand``), A-5 triple draw
                   (``RegularLowHand``), badugi (``BadugiHand``), five card draw
                   (``StandardHighHand``); fixed limit (small bet before the (second) draw, big bet
                   after), pot limit or no limit as the header says
=================  ==============================================================================

Events map to pokerkit as follows: antes, bet collection, card burning, hand killing and chip
pushing are automations; ``Post bring_in`` is ``post_bring_in()``; fold, check/call and
bet/raise/complete are ``fold()``, ``check_or_call()`` and ``complete_bet_or_raise_to(to)``;
``Draw`` is ``stand_pat_or_discard`` of that many cards.  Cards: stud upcards are the printed
ones (pokerkit picks the bring-in and the first actor from them); the down cards of a player who
shows are the shown cards that were not up, the others unknown (``??``); a draw player who shows
is dealt the shown hand and draws back the same cards (only the final hand is known), the others
unknown cards.  At the showdown the players who showed in the record show, the others muck.

Before each action the test asks pokerkit whether it is legal (the actor, the call amount, the
completion/bet/raise size); on the first action pokerkit refuses, the hand stops there and its
outcome is pokerkit's reason together with hhaudit's findings at that line.  Every hand whose
outcome is not *agree* is listed in :data:`KNOWN` with its outcome and who is right; the test keeps
the list exact (an unexpected outcome, or a listed one that changed or went away, fails).  Hands
pokerkit cannot represent are counted with the reason (:func:`not_comparable`), never dropped.

``pytest -q -s tests/test_pokerkit_studdraw.py`` prints the counts.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from auditor import model as M
from auditor.audit import Audited, audit_hand
from auditor.pipeline import Summary, iter_parsed
from auditor.replay.draw import draw_variant, draws_of
from auditor.replay.pots import _award, shown_cards
from auditor.replay.showdown import game_key
from auditor.replay.stud import STUD_GAMES, upcards_by_street
from tests.conftest import CORPUS, corpus_dir

pokerkit = pytest.importorskip("pokerkit")

#: corpus folders read (the sites with the most stud and draw hands; ~900 hands, a few seconds)
SITES = ("pokerstars", "fulltilt", "winamax", "wpn-acr", "bovada-ignition", "ipoker", "merge-network", "ongame")
BETTING = frozenset({"B", "S", "H"})  # hhaudit's verdict on a line: betting, table stakes, hand structure
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
)
UNKNOWN = "??"

# ------------------------------------------------------------------------------------------------
# Known outcomes other than "agree": (site, hand id) -> (outcome, who is right and why).
# ------------------------------------------------------------------------------------------------
# (1) The open-pair option: in stud a player showing an open pair on fourth street may bet the big
# bet (Robert's Rules of Poker v11, Seven-Card Stud rule 4; the site prints "Pair on board - a double
# bet is allowed").  pokerkit has no open-pair option: fourth street is always the small bet.
_OPEN_PAIR = "open pair on fourth street: the big bet is allowed (RRoP v11 Seven-Card Stud rule 4); not in pokerkit"
# (2) PokerStars lets the next player complete a short all-in bet or raise to a full bet or raise above
# the level it raised (auditor/replay/limits.py: both that and the half-bet reading are lawful
# somewhere, so hhaudit accepts either).  pokerkit models neither: a short all-in never reopens the
# betting and the minimum raise is a full bet above the all-in.  The site dealt it: hhaudit right.
_COMPLETE = "completion of a short all-in wager (PokerStars house rule, auditor/replay/limits.py); pokerkit has none"
# (3) Draws after the betting is over: with one player all-in and the other covered, the site still
# deals the draws; pokerkit has no draw turn left once nobody can bet.  The site (and hhaudit) right.
_DRAW_AFTER_ALLIN = "draw after the betting is over (an all-in): the site deals it, pokerkit has no draw turn"
# (4) A fold printed for a sitting-out player all-in from the blind (as in the hold'em differential,
# tests/test_pokerkit_differential.py): B005 exempts folds; pokerkit has no turn for an all-in player.
_ALLIN_FOLD = "sitting-out player all-in from a blind auto-folded by the site: B005 exempts folds"
# (5) Heads-up fixed-limit raises: the round is heads-up, where the books that cap raises lift the cap
# (Robert's Rules v11 and the PokerStars/Full Tilt profiles: ``fl_headsup = "becomes_headsup_before_cap"``),
# and Merge's house profile checks no cap at all (``fl_cap_raises`` unset: Merge publishes none).
# pokerkit caps every round at a bet and three raises.  The site dealt it: hhaudit right.
_HEADS_UP_CAP = "heads-up fixed limit: no raise cap (rule books lift it heads-up; Merge checks none); pokerkit caps"

KNOWN: dict[tuple[str, str], tuple[str, str]] = {
    # (1) 4/8 stud, line 698 "Pair on board - a double bet is allowed" (5s 5c), line 699 "bets $0.08"
    ("pokerstars", "35874334277"): ("line 699: pokerkit: bet to 8: above the maximum; hhaudit: legal", _OPEN_PAIR),
    ("pokerstars", "60974484959"): ("line 44: pokerkit: bet to 8: above the maximum; hhaudit: legal", _OPEN_PAIR),
    # 8-Game home game, 40/80 stud, Hero shows Kd Kc on fourth street: "bets 80"
    ("pokerstars", "99632512109"): ("line 2857: pokerkit: bet to 80: above the maximum; hhaudit: legal", _OPEN_PAIR),
    # Full Tilt $2/$4 stud hi/lo, Player4 shows 9c 9d: "bets $4"
    ("fulltilt", "11111111813"): ("line 30: pokerkit: bet to 400: above the maximum; hhaudit: legal", _OPEN_PAIR),
    ("fulltilt", "11111112277"): ("line 179: pokerkit: bet to 400: above the maximum; hhaudit: legal", _OPEN_PAIR),
    # (2) badugi 60/120: 60, raise to 120, "raises 30 to 150 and is all-in", calls, "raises 30 to 180"
    ("pokerstars", "52476877655"): (
        "line 1307: pokerkit: raise to 180 refused: Short all-in cannot be raised.; hhaudit: legal",
        _COMPLETE,
    ),
    # badugi 100/200: 100, 200, "raises 70 to 270 and is all-in", calls, "raises 30 to 300"
    ("pokerstars", "52478520236"): (
        "line 3015: pokerkit: raise to 300 refused: Short all-in cannot be raised.; hhaudit: legal",
        _COMPLETE,
    ),
    # badugi 150/300, third draw: "bets 50 and is all-in", "raises 250 to 300" (completes the bet)
    ("pokerstars", "52478783130"): ("line 3280: pokerkit: raise to 300: below the minimum; hhaudit: legal", _COMPLETE),
    # badugi 300/600 before the draw: 300, "raises 250 to 550 and is all-in", "raises 50 to 600"
    ("pokerstars", "52479754591"): ("line 4594: pokerkit: raise to 600: below the minimum; hhaudit: legal", _COMPLETE),
    # (3) badugi: "Player0: calls 145 and is all-in", the rest fold; the big blind and Player0 draw
    ("pokerstars", "52479685099"): (
        "line 4503: pokerkit: draw out of turn (nobody was due); hhaudit: legal",
        _DRAW_AFTER_ALLIN,
    ),
    ("pokerstars", "52590922982"): (
        "line 3107: pokerkit: draw out of turn (nobody was due); hhaudit: legal",
        _DRAW_AFTER_ALLIN,
    ),
    # (4) "Player3 (25 in chips) is sitting out", "posts small blind 25 and is all-in", "Player3: folds"
    ("pokerstars", "52589452703"): ("line 1283: pokerkit: acted while all-in; hhaudit: legal", _ALLIN_FOLD),
    # (5) Merge 2-7 triple draw $5/$10 heads-up: bet, five raises, call (XML, line 27 the fifth wager)
    ("merge", "31241825-6"): (
        "line 27: pokerkit: raise to 2500 refused: No more completion, betting, or raising is permitted.; "
        "hhaudit: legal",
        _HEADS_UP_CAP,
    ),
    # (6) OnGame five card draw: Hero's draw is printed only as "New hand for Hero: [...]" (no "changed
    # N cards" line), which the reader does not turn into a Draw event; pokerkit waits for Hero's draw
    # and refuses the next check.  A reader gap, not a betting disagreement: hhaudit does not judge
    # who draws, so it finds nothing.
    ("ongame", "R5-174428515-250"): (
        "line 75: pokerkit: no player to act; hhaudit: legal",
        "OnGame prints Hero's draw as 'New hand for Hero' only: no Draw event for pokerkit (reader gap)",
    ),
    # Both illegal: Winamax "Player0 raises -6.10€ to 18.90€" after a completion to 25€ (the file is
    # kept in the corpus for its negative bet): B009, and pokerkit's minimum.  Both right.
    ("winamax", "9250793-1578-1479092164"): (
        "line 17: pokerkit: raise to 1890: below the minimum; hhaudit: B009",
        "a negative raise printed by Winamax: both sides call it illegal (both right)",
    ),
}


class NotComparable(Exception):
    """The hand cannot be represented in pokerkit; the message is the reason."""


# ------------------------------------------------------------------------------------------------
# Building the state
# ------------------------------------------------------------------------------------------------

_DRAW = {
    # variant: (deck, hand type, cards dealt)
    "27_single": ("STANDARD", "StandardLowHand", 5),
    "27_triple": ("STANDARD", "StandardLowHand", 5),
    "5card": ("STANDARD", "StandardHighHand", 5),
    "a5_triple": ("REGULAR", "RegularLowHand", 5),
    "badugi": ("REGULAR", "BadugiHand", 4),
}
_STUD = {
    "stud": "FixedLimitSevenCardStud",
    "stud_hilo": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
    "razz": "FixedLimitRazz",
}
_STRUCTURE = {"FL": "FIXED_LIMIT", "PL": "POT_LIMIT", "NL": "NO_LIMIT"}


def not_comparable(hand: M.Hand) -> str | None:
    """Why pokerkit cannot play ``hand`` (None when it can)."""
    if hand.structure not in _STRUCTURE:
        return f"structure {hand.structure} (a mixed or capped game)"
    if hand.game in STUD_GAMES and hand.structure != "FL":
        return f"{hand.structure} stud (pokerkit has fixed-limit stud only)"
    if game_key(hand) is None:
        return f"draw game not named in the header ({hand.game_text!r})"
    for e in hand.events:
        if isinstance(e, M.CashOut | M.CashDrop):
            return "cash-out or cash-drop line"
        if isinstance(e, M.Post) and e.kind not in ("ante", "bring_in", "small_blind", "big_blind"):
            return f"post kind {e.kind}"
    return None


@dataclass
class Table:
    players: list[str]  # pokerkit index -> player
    index: dict[str, int]
    stacks: list[int]


def _dealt_in(hand: M.Hand) -> list[str]:
    seats = {s.player: s for s in hand.seats}
    dealt = {e.player for e in hand.events if isinstance(e, M.Post | M.Action | M.Draw)}
    dealt |= {e.player for e in hand.events if isinstance(e, M.HoleCards) and e.cards}
    dealt &= set(seats)
    return sorted(dealt, key=lambda p: seats[p].seat)


def _table(hand: M.Hand, ring: list[str]) -> Table:
    seats = {s.player: s for s in hand.seats}
    if len(ring) < 2:
        raise NotComparable("fewer than two players dealt in")
    stacks = [seats[p].stack for p in ring]
    if min(stacks) <= 0:
        raise NotComparable("a player dealt in with no chips")
    return Table(ring, {p: i for i, p in enumerate(ring)}, stacks)


def _posts(hand: M.Hand, kind: str) -> list[M.Post]:
    return [e for e in hand.events if isinstance(e, M.Post) and e.kind == kind]


def new_state(hand: M.Hand) -> tuple[Any, Table]:
    game = game_key(hand)
    assert game is not None
    if hand.game in STUD_GAMES:
        t = _table(hand, _dealt_in(hand))  # stud has no button: pokerkit orders by the cards
        antes = [0] * len(t.players)
        for e in _posts(hand, "ante"):
            antes[t.index[e.player]] += e.amount
        bring = _posts(hand, "bring_in")
        small, big = hand.small_blind or 0, hand.big_blind or 0
        if not small or not big:
            raise NotComparable("limits not printed")
        bring_in = bring[0].amount if bring else small // 2 or 1
        cls = getattr(pokerkit, _STUD[game])
        state = cls.create_state(AUTOMATIONS, False, antes, bring_in, small, big, t.stacks, len(t.players),
                                 mode=pokerkit.Mode.CASH_GAME)  # fmt: skip
        return state, t
    # draw: clockwise from the seat after the button (pokerkit's index 0 acts first after a draw)
    if hand.button is None:
        raise NotComparable("no button in the header")
    seats = {s.player: s.seat for s in hand.seats}
    ring = _dealt_in(hand)
    start = next((i for i, p in enumerate(ring) if seats[p] > hand.button), 0)
    t = _table(hand, ring[start:] + ring[:start])
    n = len(t.players)
    antes, blinds = [0] * n, [0] * n
    for e in _posts(hand, "ante"):
        antes[t.index[e.player]] += e.amount
    for kind in ("small_blind", "big_blind"):
        ps = _posts(hand, kind)
        if len(ps) > 1:
            raise NotComparable(f"more than one {kind}")
        for e in ps:
            blinds[t.index[e.player]] = e.amount
    if n == 2:  # heads-up pokerkit reads the blind and ante arrays reversed
        antes, blinds = antes[::-1], blinds[::-1]
    bb = next((e.amount for e in _posts(hand, "big_blind") if not e.all_in), hand.big_blind or 0)
    if not bb:
        raise NotComparable("no big blind")
    variant = draw_variant(hand)
    deck, hand_type, size = _DRAW[game]
    rounds = 1 + draws_of(variant)
    small_rounds = 1 if rounds == 2 else 2
    cap = 4 if hand.structure == "FL" else None
    sb = pokerkit.Street
    streets = [sb(False, (False,) * size, 0, False, pokerkit.Opening.POSITION, bb, cap)]
    for r in range(1, rounds):
        streets.append(sb(True, (), 0, True, pokerkit.Opening.POSITION,
                          bb if r < small_rounds or hand.structure != "FL" else 2 * bb, cap))  # fmt: skip
    state = pokerkit.State(AUTOMATIONS, getattr(pokerkit.Deck, deck), (getattr(pokerkit, hand_type),), tuple(streets),
                           getattr(pokerkit.BettingStructure, _STRUCTURE[hand.structure]), False, antes, blinds, 0,
                           t.stacks, n, mode=pokerkit.Mode.CASH_GAME)  # fmt: skip
    return state, t


# ------------------------------------------------------------------------------------------------
# Cards
# ------------------------------------------------------------------------------------------------


class Dealer:
    """Deals pokerkit the cards it asks for: what the record shows, unknown cards otherwise."""

    def __init__(self, hand: M.Hand, t: Table, shown: dict[str, tuple[str, ...]]) -> None:
        self.hand, self.t, self.shown = hand, t, shown
        self.stud = hand.game in STUD_GAMES
        self.up = upcards_by_street(hand) if self.stud else {}
        self.returns: dict[int, list[str]] = {}  # draw: the cards a player gets back after discarding
        self.downs: dict[str, list[str]] = {}
        for p, cards in shown.items():
            if self.stud and len(cards) == 7:
                ups = list(self.up.get(6, {}).get(p) or ())
                rest = list(cards)
                for c in ups:
                    if c in rest:
                        rest.remove(c)
                if len(rest) == 3:
                    self.downs[p] = rest

    def _stud_cards(self, i: int, street: int) -> list[str]:
        p = self.t.players[i]
        downs = self.downs.get(p, [UNKNOWN] * 3)
        if street == 7:
            return [downs[2]]
        ups = self.up.get(street, {}).get(p)
        if ups is None:
            raise NotComparable(f"an upcard of street {street} is not printed")
        return [*downs[:2], ups[-1]] if street == 3 else [ups[-1]]

    def deal(self, state: Any) -> None:
        """Deal every pending hole card."""
        while (i := state.hole_dealee_index) is not None:
            if self.stud:
                cards = self._stud_cards(i, (state.street_index or 0) + 3)
            elif i in self.returns:
                cards = self.returns.pop(i)
            else:
                p = self.t.players[i]
                need = len(state.hole_dealing_statuses[i])
                cards = list(self.shown.get(p) or [UNKNOWN] * need)
                if len(cards) != need:
                    raise NotComparable(f"{p} showed {len(cards)} cards, {need} dealt")
            state.deal_hole("".join(cards), i)

    def discard(self, state: Any, e: M.Draw) -> str | None:
        i = self.t.index[e.player]
        if state.stand_patter_or_discarder_index != i:
            who = state.stand_patter_or_discarder_index
            return f"draw out of turn ({self.t.players[who] if who is not None else 'nobody'} was due)"
        hole = [repr(c) if repr(c) != "??" else UNKNOWN for c in state.hole_cards[i]]
        if e.discarded > len(hole):
            return f"discards {e.discarded} of {len(hole)} cards"
        cards = hole[: e.discarded]
        state.stand_pat_or_discard("".join(cards))
        if cards:
            self.returns[i] = cards
        return None


# ------------------------------------------------------------------------------------------------
# One hand
# ------------------------------------------------------------------------------------------------


def pokerkit_refusal(state: Any, t: Table, e: M.Action | M.Post) -> str | None:
    """pokerkit's reason for refusing ``e`` (None: legal)."""
    i = t.index[e.player]
    actor = state.actor_index
    if actor != i:
        if actor is None:
            return "no player to act"
        if not state.statuses[i]:
            return "acted after folding"
        if state.stacks[i] == 0:
            return "acted while all-in"
        return f"out of turn ({t.players[actor]} due)"
    if isinstance(e, M.Post):
        return None if state.can_post_bring_in() else "bring-in refused"
    if e.kind == "fold":
        return None
    owed = state.checking_or_calling_amount
    if e.kind == "check":
        return f"check facing a bet ({owed} to call)" if owed else None
    if e.kind == "call":
        if not owed:
            return "call of nothing"
        if state.bets[i] + owed != e.to:
            return f"wrong call amount (to {state.bets[i] + owed}, printed to {e.to})"
        return None
    try:
        state.verify_completion_betting_or_raising_to(e.to)
    except ValueError as err:
        msg = str(err)
        for key, kind in (("below the minimum", "below the minimum"), ("above the maximum", "above the maximum"),
                          ("no reason", "nobody left to call"), ("maximum number", "raise cap reached")):  # fmt: skip
            if key in msg:
                return f"{e.kind} to {e.to}: {kind}"
        return f"{e.kind} to {e.to} refused: {msg}"
    return None


def apply(state: Any, e: M.Action | M.Post) -> None:
    if isinstance(e, M.Post):
        state.post_bring_in()
    elif e.kind == "fold":
        state.fold()
    elif e.kind in ("check", "call"):
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(e.to)


def hhaudit_results(a: Audited) -> tuple[dict[str, int] | None, dict[int, tuple[str, ...]]]:
    """Each player's result by hhaudit with no rake (None when its awards are not judged), and the
    betting/stakes/structure codes by line."""
    by_line: dict[int, list[str]] = {}
    for f in a.findings:
        if f.code[0] in BETTING and f.line is not None:
            by_line.setdefault(f.line, []).append(f.code)
    codes = {k: tuple(sorted(set(v))) for k, v in by_line.items()}
    pt = a.pots
    if pt is None or not pt.decided:
        return None, codes
    gross = [replace(p, net=p.amount) for p in pt.pots]
    paid = _award(a.trace, pt, a.trace.profile, gross, record=False)
    out = {}
    for n in pt.contributions:
        put = pt.contributions[n] + pt.dead.get(n, 0) - pt.expected_returns.get(n, 0)
        out[n] = paid.get(n, 0) - put
    return out, codes


@dataclass
class Outcome:
    site: str
    hand_id: str
    file: str
    game: str
    outcome: str  # "agree", "not comparable: ...", or a disagreement
    actions: int = 0


def compare_hand(hand: M.Hand) -> Outcome:
    out = Outcome(hand.site, hand.hand_id, _rel(hand.path), game_key(hand) or hand.game, "agree")
    why = not_comparable(hand)
    if why is not None:
        out.outcome = f"not comparable: {why}"
        return out
    a = audit_hand(hand)
    hh, codes = hhaudit_results(a)
    shown, _mucked = shown_cards(a.trace)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cards dealt twice (a draw's own cards back), folds with nothing to call
            state, t = new_state(hand)
            dealer = Dealer(hand, t, shown)
            for e in hand.events:
                if isinstance(e, M.Post | M.Action | M.Draw) and e.player not in t.index:
                    raise NotComparable("a player posts or acts without a seat line")
                dealer.deal(state)
                if isinstance(e, M.Draw):
                    if not state.status:
                        continue  # the hand is over for pokerkit: the site still prints the stand-pats
                    err = dealer.discard(state, e)
                    if err:
                        out.outcome = _refused(e, err, codes)
                        return out
                    continue
                if not isinstance(e, M.Action) and not (isinstance(e, M.Post) and e.kind == "bring_in"):
                    continue
                err = pokerkit_refusal(state, t, e)
                if err:
                    out.outcome = _refused(e, err, codes)
                    return out
                apply(state, e)
                out.actions += 1
            dealer.deal(state)
            while state.status and state.showdown_index is not None:
                i = state.showdown_index
                show = t.players[i] in shown
                if show and any(not c for c in state.hole_cards[i]):
                    raise NotComparable("a hand shown at the showdown is not known in full")
                state.show_or_muck_hole_cards(show)
                dealer.deal(state)
    except NotComparable as err:
        out.outcome = f"not comparable: {err}"
        return out
    except ValueError as err:  # pokerkit refused a deal or a showdown step
        out.outcome = f"pokerkit error: {err}"
        return out
    if state.status:
        out.outcome = f"pokerkit still awaiting {_pending(state)} after the last event"
        return out
    if hh is None:
        out.outcome = "agree (betting; hhaudit does not judge the award)"
        return out
    pk = {p: state.stacks[i] - t.stacks[i] for p, i in t.index.items()}
    diff = {p: (hh.get(p, 0), pk[p]) for p in pk if hh.get(p, 0) != pk[p]}
    if diff:
        out.outcome = "results differ (hhaudit, pokerkit): " + ", ".join(f"{p} {h:+d}/{k:+d}" for p, (h, k) in
                                                                           sorted(diff.items()))  # fmt: skip
    return out


def _pending(state: Any) -> str:
    if state.actor_index is not None:
        return "an action"
    if state.stand_patter_or_discarder_index is not None:
        return "a draw"
    return "a deal or showdown"


def _refused(e: M.Event, err: str, codes: dict[int, tuple[str, ...]]) -> str:
    mine = codes.get(e.line, ())
    return f"line {e.line}: pokerkit: {err}; hhaudit: {'+'.join(mine) if mine else 'legal'}"


def _rel(path: str) -> str:
    from pathlib import Path

    try:
        return Path(path).resolve().relative_to(CORPUS.resolve()).as_posix()
    except ValueError:
        return path


# ------------------------------------------------------------------------------------------------
# The corpus
# ------------------------------------------------------------------------------------------------


@cache
def differential() -> tuple[Outcome, ...]:
    out: list[Outcome] = []
    for site in SITES:
        d = CORPUS / site
        if not d.is_dir():
            continue
        for hand, _ in iter_parsed([str(d)], Summary()):
            if hand is None or hand.game not in (*STUD_GAMES, "draw") or hand.cancelled or not hand.complete:
                continue
            out.append(compare_hand(hand))
    return tuple(out)


def summary(res: tuple[Outcome, ...]) -> dict[str, Any]:
    compared = [o for o in res if not o.outcome.startswith("not comparable")]
    return {
        "hands": len(res),
        "compared": len(compared),
        "compared_by_game": dict(Counter(o.game for o in compared)),
        "actions": sum(o.actions for o in compared),
        "agree": sum(o.outcome.startswith("agree") for o in res),
        "agree_betting_only": sum(o.outcome.startswith("agree (") for o in res),
        "not_comparable": dict(Counter(o.outcome for o in res if o.outcome.startswith("not comparable"))),
        "other": [o for o in res if not o.outcome.startswith(("agree", "not comparable"))],
    }


@pytest.mark.corpus
def test_stud_and_draw_hands_agree_with_pokerkit() -> None:
    for s in SITES[:1]:
        corpus_dir(s)  # skips, saying why, when the corpus is absent
    res = differential()
    s = summary(res)
    print(f"\nstud/draw pokerkit differential: {s['hands']} hands, {s['compared']} compared {s['compared_by_game']}, "
          f"{s['actions']} actions; agree {s['agree']} ({s['agree_betting_only']} betting only)")  # fmt: skip
    for why, n in s["not_comparable"].items():
        print(f"  {n:4d} {why}")
    for o in s["other"]:
        print(f"  {o.site} {o.hand_id} {o.file}: {o.outcome}")
    seen = {(o.site, o.hand_id): o.outcome for o in s["other"]}
    lines = [f"unexpected: {k}: {v}" for k, v in sorted(seen.items()) if k not in KNOWN]
    lines += [f"changed: {k}: now {seen[k]!r}, listed {KNOWN[k][0]!r}" for k in sorted(seen.keys() & KNOWN.keys())
              if seen[k] != KNOWN[k][0]]  # fmt: skip
    lines += [f"listed but now agreeing or gone: {k}" for k in sorted(KNOWN.keys() - seen.keys())]
    assert not lines, "\n".join(lines)
    assert s["compared"] >= 500 and s["agree"] >= 500, (s["compared"], s["agree"])


# ------------------------------------------------------------------------------------------------
# The harness itself, on built hands (no corpus needed)
# ------------------------------------------------------------------------------------------------

_STUD_HAND = """PokerStars Game #1000000001:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
Table 'Vector' 8-max
Seat 1: Ann ($2.00 in chips)
Seat 3: Bob ($2.00 in chips)
Seat 5: Cat ($2.00 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
Cat: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [Td]
Dealt to Bob [2d]
Dealt to Cat [2c]
{bring}: brings in for $0.02
{o1}: folds
{o2}: folds
Uncalled bet ($0.02) returned to {bring}
{bring} collected $0.03 from pot
*** SUMMARY ***
Total pot $0.03 | Rake $0
"""


def _hand(text: str) -> M.Hand:
    from auditor.formats import parse_text

    hands = [h for h in parse_text(text) if isinstance(h, M.Hand)]
    assert len(hands) == 1
    return hands[0]


def test_bring_in_by_the_lowest_card_agrees() -> None:
    # 2c is the lowest upcard (clubs lowest): Cat brings in, Ann and Bob fold
    o = compare_hand(_hand(_STUD_HAND.format(bring="Cat", o1="Ann", o2="Bob")))
    assert o.outcome == "agree", o.outcome


def test_wrong_bring_in_is_illegal_for_both() -> None:
    o = compare_hand(_hand(_STUD_HAND.format(bring="Bob", o1="Cat", o2="Ann")))
    assert o.outcome == "line 13: pokerkit: out of turn (Cat due); hhaudit: B012", o.outcome
