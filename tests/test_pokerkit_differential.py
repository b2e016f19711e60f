"""Differential test of hhaudit's betting replay against pokerkit's game engine.

For every No-Limit Hold'em hand that hhaudit parses in the PokerStars, GGPoker and Winamax folders
of the shared corpus (``game == "holdem"``, ``structure == "NL"``, not cancelled, complete), a
``pokerkit.State`` is built with the same players, starting stacks, antes, blinds and straddles,
and hhaudit's events are fed to it in printed order:

=================  ==============================================================================
hhaudit event      pokerkit
=================  ==============================================================================
Seat + Post        players in seat order clockwise from the seat after the button (pokerkit's
                   index 0 is the first to act after the flop; heads-up, index 0 is the big blind
                   and index 1 the button/small blind, and the raw blind/ante arrays are given
                   reversed, as pokerkit reads them); ``raw_antes`` = each player's ante or big
                   blind ante; ``raw_blinds_or_straddles`` = each player's live blind or straddle
                   (the player's total: GG prints a straddle as the new total), positive for the
                   first small blind, the first big blind and straddles, negative (pokerkit's
                   "post bet" of a player who just sat down) for a further, out-of-position big
                   blind; ``min_bet`` = the big blind of the header.  Antes, blinds, bet
                   collection and card burning are pokerkit automations.
(hole cards)       ``deal_hole(cards, i)``: the cards shown or dealt in the hand, else unused ones
                   (pokerkit turns all-in hands face up before a run-out: unknown cards would not do)
Action fold        ``fold()``
Action check       ``check_or_call()`` when ``checking_or_calling_amount == 0``
Action call        ``check_or_call()`` when the amount is > 0 and takes the player to ``to``
Action bet/raise   ``complete_bet_or_raise_to(to)`` (``bet`` only when nobody has bet on the
                   street, ``raise`` only when someone has: pokerkit has a single verb)
Board              ``deal_board(cards)`` (the street must have ended in pokerkit)
=================  ==============================================================================

Before applying an action the test asks pokerkit whether it is legal (``actor_index``,
``checking_or_calling_amount``, ``verify_completion_betting_or_raising_to``, ``verify_folding``,
``verify_board_dealing``) and records pokerkit's verdict: legal, or the reason (pokerkit's
exception message).  hhaudit's verdict is the set of betting and table-stakes findings (B001-B011,
S001) that ``check_hand(hand, for_hand(hand.site, None))`` reports at that event's line.  The two
verdicts *agree* when both say legal or both say illegal.  Once pokerkit rejects an action, it
cannot follow the rest of the hand: the remaining events are counted as not compared.

Hands pokerkit cannot represent are counted as *not comparable*, with the reason, never dropped
silently (see :func:`not_comparable_reason`).  Hands that are not No-Limit Hold'em, or are
cancelled or incomplete, are counted as *excluded*.

Every disagreement must be listed in :data:`KNOWN_DISAGREEMENTS` with both verdicts and an
explanation of who is right (checked against the raw hand and RULES.md §2 / §4-B); an entry that
no longer disagrees, or disagrees differently, fails the test too.

``differential_summary()`` returns the counts to quote; ``pytest -q -s
tests/test_pokerkit_differential.py`` prints them.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from auditor import model as M
from auditor.pipeline import Summary, iter_parsed
from auditor.profiles import for_hand
from auditor.rules import check_hand
from tests.conftest import CORPUS, corpus_dir

pokerkit = pytest.importorskip("pokerkit")

SITES = ("pokerstars", "ggpoker", "winamax")
# hhaudit's verdict on a wager: the betting rules and table stakes (RULES.md §4-B, §2.7)
ILLEGAL_CODES = frozenset({f"B{i:03d}" for i in range(1, 12)} | {"S001"})
LIVE_POSTS = frozenset({"small_blind", "big_blind", "straddle"})
ANTE_POSTS = frozenset({"ante", "big_blind_ante"})
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,  # all-in: one run-out (run-it-twice hands are not comparable)
)

# ------------------------------------------------------------------------------------------------
# Known disagreements: (site, hand id, line) -> (hhaudit codes, pokerkit verdict kind, explanation).
# Each was checked against the raw hand text and RULES.md.
# ------------------------------------------------------------------------------------------------

KNOWN_DISAGREEMENTS: dict[tuple[str, str, int], tuple[tuple[str, ...], str | None, str]] = {}

# ------------------------------------------------------------------------------------------------
# Records
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One event judged by both sides."""

    site: str
    hand_id: str
    file: str  # relative to the corpus
    line: int
    what: str  # "action" or "board"
    text: str  # e.g. "Hero raise to 600" or "flop [Ah Kd 2c]"
    hhaudit: tuple[str, ...]  # codes at the line (empty: legal)
    pokerkit: str | None  # verdict kind (None: legal)
    pokerkit_message: str | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.site, self.hand_id, self.line)

    @property
    def agrees(self) -> bool:
        return bool(self.hhaudit) == (self.pokerkit is not None)

    @property
    def kind(self) -> str:
        """The kind of disagreement (or agreement) for the counts."""
        if not self.hhaudit and self.pokerkit is None:
            return "both legal"
        if self.hhaudit and self.pokerkit is not None:
            return "both illegal"
        if self.hhaudit:
            return f"hhaudit only ({'+'.join(self.hhaudit)})"
        return f"pokerkit only ({self.pokerkit})"


@dataclass
class HandResult:
    site: str
    hand_id: str
    file: str
    not_comparable: str | None = None
    checks: list[Check] = field(default_factory=list)
    uncompared_actions: int = 0  # actions after pokerkit rejected one
    uncompared_boards: int = 0
    pending_at_end: str | None = None  # pokerkit still wanted an action after the last event
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------------
# Building the pokerkit state
# ------------------------------------------------------------------------------------------------


class NotComparable(Exception):
    """The hand cannot be represented in pokerkit; the message is the reason."""


def not_comparable_reason(hand: M.Hand) -> str | None:
    """Why pokerkit cannot represent ``hand`` (None when it can)."""
    if hand.runs > 1:
        return "run it twice (several boards)"
    if hand.cap is not None:
        return "CAP game (per-hand wager cap)"
    for e in hand.events:
        if isinstance(e, M.CashOut):
            return "cash-out / all-in insurance line"
        if isinstance(e, M.CashDrop):
            return "GG cash drop (money from the site)"
        if isinstance(e, M.Post):
            if e.kind == "small_big_blind":
                return "dead blind: posts small & big blinds"
            if e.kind == "dead_small_blind":
                return "dead blind: a further small blind"
            if e.kind == "missed_blind":
                return "dead blind: GG missed blind"
            if e.kind not in LIVE_POSTS | ANTE_POSTS:
                return f"post kind {e.kind}"
    if hand.button is None:
        return "no button in the header"
    seated = {s.player for s in hand.seats}
    for e in hand.events:
        if isinstance(e, M.Post | M.Action) and e.player not in seated:
            return "a player posts or acts without a seat line"
    return None


@dataclass
class Table:
    """hhaudit's hand mapped onto pokerkit positions."""

    players: list[str]  # pokerkit index -> player
    index: dict[str, int]
    antes: list[int]  # per pokerkit index
    blinds: list[int]
    stacks: list[int]
    min_bet: int

    def raw(self, values: list[int]) -> list[int]:
        """pokerkit reads the blind and ante arrays reversed heads-up (player i posts raw[not i])."""
        return values[::-1] if len(values) == 2 else list(values)


def build_table(hand: M.Hand) -> Table:
    seats = {s.player: s for s in hand.seats}
    dealt = set()
    for e in hand.events:
        if isinstance(e, M.Post | M.Action):
            dealt.add(e.player)
        elif isinstance(e, M.HoleCards | M.Show) and e.cards and e.player in seats:
            dealt.add(e.player)
    ring = sorted(dealt, key=lambda p: seats[p].seat)
    if len(ring) < 2:
        raise NotComparable("fewer than two players dealt in")
    assert hand.button is not None
    start = next((i for i, p in enumerate(ring) if seats[p].seat > hand.button), 0)
    players = ring[start:] + ring[:start]  # clockwise from the seat after the button
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    antes, blinds, stacks = [0] * n, [0] * n, [seats[p].stack for p in players]
    if min(stacks) <= 0:
        raise NotComparable("a player dealt in with no chips")
    seen_sb = seen_bb = False
    for e in hand.events:
        if not isinstance(e, M.Post):
            continue
        i = index[e.player]
        if e.kind in ANTE_POSTS:
            antes[i] += e.amount
            continue
        if blinds[i] and e.kind != "straddle":
            raise NotComparable("a player posts two blinds")
        positional = e.kind == "straddle" or (e.kind == "small_blind" and not seen_sb)
        positional |= e.kind == "big_blind" and not seen_bb
        seen_sb |= e.kind == "small_blind"
        seen_bb |= e.kind == "big_blind"
        amount = e.amount if e.kind == "straddle" else abs(blinds[i]) + e.amount
        blinds[i] = amount if positional else -amount
    if n == 2 and (blinds[1] < 0 or blinds[0] < 0):
        raise NotComparable("heads-up with an out-of-position blind")
    bb = hand.big_blind or max((abs(b) for b in blinds), default=0)
    if bb <= 0:
        raise NotComparable("no big blind")
    return Table(players, index, antes, blinds, stacks, bb)


RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = tuple(r + u for r in RANKS for u in SUITS)


def hole_cards(hand: M.Hand, t: Table) -> list[str]:
    """Two distinct cards per player: those the hand shows, else unused ones (pokerkit shows all-in hands
    face up before the run-out, and it cannot show unknown cards)."""
    known: dict[str, tuple[str, ...]] = {}
    used: set[str] = set()
    for e in hand.events:
        if isinstance(e, M.Board):
            used.update(e.cards)
    for e in hand.events:
        if isinstance(e, M.HoleCards | M.Show) and e.player in t.index and len(e.cards) == 2:
            if e.player not in known and not (set(e.cards) & used) and set(e.cards) <= set(DECK):
                known[e.player] = e.cards
                used.update(e.cards)
    spare = iter(c for c in DECK if c not in used)
    return ["".join(known.get(p) or (next(spare), next(spare))) for p in t.players]


def new_state(hand: M.Hand, t: Table) -> Any:
    state = pokerkit.NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        False,  # no ante trimming: antes may differ per player (big blind ante)
        t.raw(t.antes),
        t.raw(t.blinds),
        t.min_bet,
        t.stacks,
        len(t.players),
        mode=pokerkit.Mode.CASH_GAME,  # a fold with nothing to call is legal (a warning), RULES §4-B
    )
    for i, cards in enumerate(hole_cards(hand, t)):
        state.deal_hole(cards, i)
    return state


# ------------------------------------------------------------------------------------------------
# pokerkit's verdict on one event
# ------------------------------------------------------------------------------------------------


def _error(call: Any, *args: Any) -> str | None:
    try:
        call(*args)
    except ValueError as e:
        return str(e)
    return None


def pokerkit_verdict(state: Any, t: Table, e: M.Action) -> tuple[str | None, str | None]:
    """(verdict kind, message) for ``e`` in ``state``, without applying it; (None, None) when legal."""
    i = t.index[e.player]
    actor = state.actor_index
    if actor != i:
        if sum(state.statuses) <= 1:
            return "hand over", "every other player had folded"
        if not state.statuses[i]:
            return "acted after folding", f"{e.player} had folded"
        if state.stacks[i] == 0:
            return "acted while all-in", f"{e.player} had no chips left"
        if actor is None:
            return "no player to act", "the betting round was over"
        return "out of turn", f"{t.players[actor]} was due to act"
    owed = state.checking_or_calling_amount
    top = max(state.bets)
    if e.kind == "fold":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "no reason to fold" (cash-game mode): legal, see apply_action
            err = _error(state.verify_folding)
        return ("fold refused", err) if err else (None, None)
    if e.kind == "check":
        if owed:
            return "check facing a bet", f"{owed} to call"
        return None, None
    if e.kind == "call":
        if not owed:
            return "call of nothing", "nothing to call"
        if state.bets[i] + owed != e.to:
            return "wrong call amount", f"a call is to {state.bets[i] + owed}, printed to {e.to}"
        return None, None
    if e.kind == "bet" and top > 0:
        return "bet facing a bet", f"the current bet is {top}"
    if e.kind == "raise" and top == 0:
        return "raise with no bet", "nobody had bet on the street"
    err = _error(state.verify_completion_betting_or_raising_to, e.to)
    if err is None:
        return None, None
    if "below the minimum" in err:
        return "below the minimum", err
    if "above the maximum" in err:
        return "above the maximum (stack)", err
    if "already acted" in err or "Short all-in cannot be raised" in err:
        return "betting not re-opened", err
    if "covered" in err:
        return "raise while covered", err
    if "no reason to complete" in err:
        return "raise with every opponent all-in", err
    return "bet/raise refused", err


def apply_action(state: Any, e: M.Action) -> list[str]:
    """Apply a legal action; returns pokerkit's warnings (e.g. a fold with nothing to call)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if e.kind == "fold":
            state.fold()
        elif e.kind in ("check", "call"):
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(e.to)
    return [str(w.message) for w in caught]


def expose_all_in_hands(state: Any) -> None:
    """All-in before the river: pokerkit turns the hands face up before the run-out.

    """
    while state.showdown_indices and state.street is not None and state.can_show_or_muck_hole_cards(True):
        state.show_or_muck_hole_cards(True)


# ------------------------------------------------------------------------------------------------
# One hand
# ------------------------------------------------------------------------------------------------


def _rel(path: str) -> str:
    try:
        return Path(path).resolve().relative_to(CORPUS.resolve()).as_posix()
    except ValueError:
        return path


def compare_hand(hand: M.Hand) -> HandResult:
    res = HandResult(hand.site, hand.hand_id, _rel(hand.path))
    why = not_comparable_reason(hand)
    if why is None:
        try:
            table = build_table(hand)
            state = new_state(hand, table)
        except NotComparable as e:
            why = str(e)
        except ValueError as e:  # pokerkit refused the set-up
            why = f"pokerkit refused the set-up: {e}"
    if why is not None:
        res.not_comparable = why
        return res
    # the posts as pokerkit made them must be the posts hhaudit read
    posted = Counter[str]()
    for e in hand.events:
        if isinstance(e, M.Post):
            posted[e.player] += e.amount
    for p, i in table.index.items():
        if table.stacks[i] - state.stacks[i] != posted[p]:
            res.not_comparable = "pokerkit posted a different amount (post larger than the stack)"
            return res

    _trace, findings = check_hand(hand, for_hand(hand.site, None))
    codes: dict[int, set[str]] = {}
    for f in findings:
        if f.code in ILLEGAL_CODES and f.line is not None:
            codes.setdefault(f.line, set()).add(f.code)

    stopped = False
    for e in hand.events:
        if isinstance(e, M.Action):
            if stopped:
                res.uncompared_actions += 1
                continue
            text = f"{e.player} {e.kind}" + (f" to {e.to}" if e.kind in ("call", "bet", "raise") else "")
            kind, msg = pokerkit_verdict(state, table, e)
            res.checks.append(
                Check(hand.site, hand.hand_id, res.file, e.line, "action", text,
                      tuple(sorted(codes.get(e.line, ()))), kind, msg)  # fmt: skip
            )
            if kind is not None:
                stopped = True
                continue
            for w in apply_action(state, e):
                res.notes.append(f"line {e.line}: pokerkit warning: {w}")
        elif isinstance(e, M.Board) and e.run == 1 and e.street in ("flop", "turn", "river"):
            if stopped:
                res.uncompared_boards += 1
                continue
            text = f"{e.street} [{' '.join(e.cards)}]"
            kind = msg = None
            expose_all_in_hands(state)
            if state.actor_index is not None:
                kind, msg = "street dealt early", f"{table.players[state.actor_index]} still had to act"
            else:
                err = _error(state.verify_board_dealing, "??" * len(e.cards))
                if err is not None:
                    kind, msg = "board refused", err
            res.checks.append(
                Check(hand.site, hand.hand_id, res.file, e.line, "board", text,
                      tuple(sorted(codes.get(e.line, ()))), kind, msg)  # fmt: skip
            )
            if kind is not None:
                stopped = True
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                state.deal_board("".join(e.cards))
    if not stopped and state.actor_index is not None:
        res.pending_at_end = f"{table.players[state.actor_index]} still had to act after the last action"
    return res


# ------------------------------------------------------------------------------------------------
# The corpus
# ------------------------------------------------------------------------------------------------


@dataclass
class Result:
    corpus: Path
    present: bool = True
    hands_parsed: Counter[str] = field(default_factory=Counter)
    excluded: Counter[str] = field(default_factory=Counter)
    hands: list[HandResult] = field(default_factory=list)


def is_nlhe(hand: M.Hand) -> bool:
    return hand.game == "holdem" and hand.structure == "NL"


@cache
def differential(root: Path = CORPUS) -> Result:
    """Compare every NLHE hand of the three folders (cached per root)."""
    res = Result(root)
    dirs = [root / s for s in SITES]
    if not all(d.is_dir() for d in dirs):
        res.present = False
        return res
    for d in dirs:
        for hand, _fs in iter_parsed([str(d)], Summary(), rules=None):
            if hand is None:
                continue
            res.hands_parsed[d.name] += 1
            if not is_nlhe(hand):
                res.excluded[f"not NLHE: {hand.game} {hand.structure}"] += 1
            elif hand.cancelled:
                res.excluded["cancelled"] += 1
            elif not hand.complete:
                res.excluded["incomplete (no summary)"] += 1
            else:
                res.hands.append(compare_hand(hand))
    return res


def _checks(res: Result) -> Iterator[Check]:
    for h in res.hands:
        yield from h.checks


def differential_summary(root: Path = CORPUS) -> dict[str, Any]:
    """The numbers to quote: hands and actions compared, agreements, disagreements, not comparable."""
    res = differential(root)
    compared = [h for h in res.hands if h.not_comparable is None]
    checks = list(_checks(res))
    actions = [c for c in checks if c.what == "action"]
    boards = [c for c in checks if c.what == "board"]
    disagreements = [c for c in checks if not c.agrees]
    return {
        "corpus": str(root),
        "corpus_present": res.present,
        "hands_parsed": dict(res.hands_parsed),
        "excluded": dict(sorted(res.excluded.items())),
        "nlhe_hands": len(res.hands),
        "hands_compared": len(compared),
        "hands_compared_by_site": dict(Counter(h.site for h in compared)),
        "actions_compared": len(actions),
        "action_agreements": sum(c.agrees for c in actions),
        "boards_compared": len(boards),
        "board_agreements": sum(c.agrees for c in boards),
        "agreements": sum(c.agrees for c in checks),
        "agreements_by_kind": dict(Counter(c.kind for c in checks if c.agrees)),
        "disagreements": len(disagreements),
        "disagreements_by_kind": dict(Counter(c.kind for c in disagreements)),
        "known_disagreements": sum(c.key in KNOWN_DISAGREEMENTS for c in disagreements),
        "actions_not_compared_after_rejection": sum(h.uncompared_actions for h in compared),
        "boards_not_compared_after_rejection": sum(h.uncompared_boards for h in compared),
        "hands_pending_at_end": {f"{h.site} {h.hand_id}": h.pending_at_end for h in compared if h.pending_at_end},
        "pokerkit_warnings": sum(len(h.notes) for h in compared),
        "not_comparable": len(res.hands) - len(compared),
        "not_comparable_by_reason": dict(
            Counter(h.not_comparable for h in res.hands if h.not_comparable is not None).most_common()
        ),
        "illegal_by_both": [
            {"hand": f"{c.site} {c.hand_id}", "line": c.line, "text": c.text, "hhaudit": c.hhaudit, "pokerkit": c.pokerkit}
            for c in checks
            if c.hhaudit and c.pokerkit is not None
        ],
        "disagreement_list": [
            {
                "hand": f"{c.site} {c.hand_id}",
                "file": c.file,
                "line": c.line,
                "text": c.text,
                "hhaudit": c.hhaudit,
                "pokerkit": c.pokerkit,
                "pokerkit_message": c.pokerkit_message,
                "known": KNOWN_DISAGREEMENTS.get(c.key, ((), None, None))[2],
            }
            for c in disagreements
        ],
    }


# ------------------------------------------------------------------------------------------------
# Tests
# ------------------------------------------------------------------------------------------------


def _result() -> Result:
    for s in SITES:
        corpus_dir(s)  # skips, saying why, when the corpus is absent
    return differential(CORPUS)


@pytest.mark.corpus
def test_many_hands_and_actions_compared() -> None:
    res = _result()
    s = differential_summary()
    print()
    print(f"pokerkit differential on {s['corpus']} ({', '.join(SITES)})")
    print(f"  hands parsed: {s['hands_parsed']}; NLHE hands: {s['nlhe_hands']}; excluded: {s['excluded']}")
    print(f"  hands compared: {s['hands_compared']} {s['hands_compared_by_site']}")
    print(f"  actions compared: {s['actions_compared']} ({s['action_agreements']} agree)")
    print(f"  board deals compared: {s['boards_compared']} ({s['board_agreements']} agree)")
    print(f"  agreements: {s['agreements']} {s['agreements_by_kind']}")
    print(f"  disagreements: {s['disagreements']} {s['disagreements_by_kind']} ({s['known_disagreements']} known)")
    print(
        f"  not compared after pokerkit rejected an action: {s['actions_not_compared_after_rejection']} actions, "
        f"{s['boards_not_compared_after_rejection']} board deals; pokerkit warnings: {s['pokerkit_warnings']}"
    )
    print(f"  pokerkit still awaiting an action at the end: {s['hands_pending_at_end']}")
    print(f"  not comparable: {s['not_comparable']}")
    for why, k in s["not_comparable_by_reason"].items():
        print(f"    {k:5d}  {why}")
    for d in s["illegal_by_both"]:
        print(f"  illegal for both: {d['hand']} line {d['line']} {d['text']}: {d['hhaudit']} / {d['pokerkit']}")
    for d in s["disagreement_list"]:
        print(
            f"  - {d['hand']} {d['file']}:{d['line']} {d['text']}: hhaudit {d['hhaudit'] or 'legal'}, "
            f"pokerkit {d['pokerkit'] or 'legal'} ({d['pokerkit_message']}) -- {d['known'] or 'NOT IN THE ALLOW-LIST'}"
        )
    assert res.present
    assert s["hands_compared"] >= 2500, s["hands_compared"]
    assert s["actions_compared"] >= 25000, s["actions_compared"]
    assert s["agreements"] + s["disagreements"] == s["actions_compared"] + s["boards_compared"]
