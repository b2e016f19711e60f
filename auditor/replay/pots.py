"""Pots and awards (docs/rules.md, "How a hand is judged"): what the pot should have been and who
should have been paid, derived from the replay's contributions and the cards shown — never from the site's
collect lines, which the rules compare against.

Steps:
1. contributions per player (blinds, bets, antes; dead money apart), before any printed return;
2. the uncalled part: the excess of the largest contribution over the second largest (C1);
3. layers at every contribution level (``merge``) or at every all-in level (``allin_boundaries``,
   what PokerStars prints), each with the players eligible to win it (C2–C4);
4. rake and fees taken from the pots (the site's printed per-pot amounts when it prints them,
   otherwise from the main pot first);
5. each pot awarded by cards speak: best high hand (and best qualifying low in hi/lo), ties split
   with odd chips to the first winner clockwise from the button, run it twice per board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from auditor.fastinit import by_fields, frozen_class
from auditor.model import Board, CashDrop, Collect, Hand, Muck, PotClaim, SeatResult, Show, TableEvent, UncalledReturn
from auditor.profiles import Profile
from auditor.replay.betting import Player, Trace
from auditor.replay.cards import EVALUATED_GAMES, HILO_GAMES, high_key, known, low_key

_NONE: tuple[Any, ...] = ()  # (a hand's events of a type it has none of)


@dataclass(unsafe_hash=True)  # frozen: see the end of the module
class Pot:
    """One pot (a layer of contributions): gross amount, who may win it, how it was formed."""

    label: str
    amount: int
    eligible: tuple[str, ...]
    low: int  # contribution level the layer starts above
    high: int  # contribution level the layer reaches
    contributors: int
    dead: int  # dead money (dead blinds, house money) in this pot
    net: int = 0  # after rake and fees

    def __init__(
        self,
        label: str,
        amount: int,
        eligible: tuple[str, ...],
        low: int,
        high: int,
        contributors: int,
        dead: int,
        net: int = 0,
    ) -> None:
        self.label = label
        self.amount = amount
        self.eligible = eligible
        self.low = low
        self.high = high
        self.contributors = contributors
        self.dead = dead
        self.net = net

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(unsafe_hash=True)  # frozen: see the end of the module
class Award:
    """One share of a pot: a run (board), a half (high/low/all), its winners and their shares."""

    pot: str
    run: int
    half: str
    amount: int
    winners: tuple[str, ...]
    shares: tuple[tuple[str, int], ...]
    why: str

    def __init__(
        self,
        pot: str,
        run: int,
        half: str,
        amount: int,
        winners: tuple[str, ...],
        shares: tuple[tuple[str, int], ...],
        why: str,
    ) -> None:
        self.pot = pot
        self.run = run
        self.half = half
        self.amount = amount
        self.winners = winners
        self.shares = shares
        self.why = why

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass
class PotTrace:
    """Everything derived about the money of a hand."""

    contributions: dict[str, int]  # live + antes, before any return (what can be matched)
    dead: dict[str, int]
    house: int  # money the site put in (cash drop)
    expected_returns: dict[str, int]
    printed_returns: dict[str, int]
    pots: list[Pot]
    total_expected: int  # what "Total pot" should say
    claim: PotClaim | None
    rake: int
    fees: int
    awards: list[Award] = field(default_factory=list)
    expected_paid: dict[str, int] = field(default_factory=dict)
    collected: dict[str, int] = field(default_factory=dict)
    contenders: dict[str, tuple[str, ...]] = field(default_factory=dict)
    decided: bool = True  # every contested pot could be evaluated from shown cards
    allocation_known: bool = True  # the rake of each pot is known (printed, single pot, or by profile)
    paid_low: dict[str, int] = field(default_factory=dict)  # bounds when the allocation is unknown
    paid_high: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    boards: dict[int, tuple[str, ...]] = field(default_factory=dict)
    hole: dict[str, tuple[str, ...]] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)  # results rules share (computed once per hand)
    # a record of the summary alone (auditor/formats/partial.py): nothing put in is printed, so the
    # printed total is what went in, and only its payout is judged
    betting_unprinted: bool = False
    # antes the first pot holds that nobody is recorded paying (Boss Media 2011 MTT, hand extras
    # "antes": "unattributed"): counted in the main pot and the total, not in any contribution
    antes_unattributed: int = 0
    # the judgement of the total and conservation depends on who paid them (an uncalled part)
    antes_decide_total: bool = True

    def __init__(
        self,
        contributions: dict[str, int],
        dead: dict[str, int],
        house: int,
        expected_returns: dict[str, int],
        printed_returns: dict[str, int],
        pots: list[Pot],
        total_expected: int,
        claim: PotClaim | None,
        rake: int,
        fees: int,
        awards: list[Award] | None = None,
        expected_paid: dict[str, int] | None = None,
        collected: dict[str, int] | None = None,
        contenders: dict[str, tuple[str, ...]] | None = None,
        decided: bool = True,
        allocation_known: bool = True,
        paid_low: dict[str, int] | None = None,
        paid_high: dict[str, int] | None = None,
        notes: list[str] | None = None,
        boards: dict[int, tuple[str, ...]] | None = None,
        hole: dict[str, tuple[str, ...]] | None = None,
        cache: dict[str, Any] | None = None,
        betting_unprinted: bool = False,
        antes_unattributed: int = 0,
        antes_decide_total: bool = True,
    ) -> None:
        self.contributions = contributions
        self.dead = dead
        self.house = house
        self.expected_returns = expected_returns
        self.printed_returns = printed_returns
        self.pots = pots
        self.total_expected = total_expected
        self.claim = claim
        self.rake = rake
        self.fees = fees
        self.awards = [] if awards is None else awards
        self.expected_paid = {} if expected_paid is None else expected_paid
        self.collected = {} if collected is None else collected
        self.contenders = {} if contenders is None else contenders
        self.decided = decided
        self.allocation_known = allocation_known
        self.paid_low = {} if paid_low is None else paid_low
        self.paid_high = {} if paid_high is None else paid_high
        self.notes = [] if notes is None else notes
        self.boards = {} if boards is None else boards
        self.hole = {} if hole is None else hole
        self.cache = {} if cache is None else cache
        self.betting_unprinted = betting_unprinted
        self.antes_unattributed = antes_unattributed
        self.antes_decide_total = antes_decide_total


def _clockwise(t: Trace, names: list[str], keys: dict[str, int] | None = None) -> list[str]:
    """Players in the order odd chips go: first seat left of the button, the button last.
    ``keys``: :func:`_seat_keys` of ``t``, when the caller has them."""
    if len(names) < 2:
        return list(names)
    if keys is None:
        keys = _seat_keys(t)
    try:  # (every name a dealt player's, as usual: sorted by the dict's own lookup, no Python key call per name)
        return sorted(names, key=keys.__getitem__)
    except KeyError:
        pass
    button = t.hand.button if t.hand.button is not None else 0
    unseated = (-button - 1) % 1000
    return sorted(names, key=lambda n: keys.get(n, unseated))


def _seat_keys(t: Trace) -> dict[str, int]:
    """Each dealt player's place in the order odd chips go (0: first seat left of the button)."""
    button = t.hand.button if t.hand.button is not None else 0
    return {p.name: (p.seat - button - 1) % 1000 for p in t.order}


def split(amount: int, winners: list[str], unit: int = 1) -> list[tuple[str, int]]:
    """Split ``amount`` equally; odd units go one each to the first winners in the given order."""
    units, rest = divmod(amount, unit)
    base, extra = divmod(units, len(winners))
    shares = [(w, (base + (1 if i < extra else 0)) * unit) for i, w in enumerate(winners)]
    if rest:
        shares[0] = (shares[0][0], shares[0][1] + rest)
    return shares


def run_shares(amount: int, runs: int) -> list[int]:
    base, extra = divmod(amount, runs)
    return [base + (1 if i < extra else 0) for i in range(runs)]


def boards_by_run(events: list[Board]) -> dict[int, tuple[str, ...]]:
    """The final board of every run (a later run shares the cards dealt before it started)."""
    boards: dict[int, tuple[str, ...]] = {}
    for e in events:
        before, cards = e.board_before, e.cards
        if before:
            for c in cards:  # (a card printed again: the common turn and river print none)
                if c in before:
                    board = tuple(before) + tuple([c for c in cards if c not in before])
                    break
            else:
                board = tuple(before) + tuple(cards)
        elif e.street in _FIRST_STREETS:
            board = tuple(cards)  # a flop (Courchevel re-prints the card shown pre-flop)
        else:
            board = boards.get(e.run, boards.get(1, ())) + tuple(cards)
        boards[e.run] = board
    return boards


_FIRST_STREETS = ("flop", "preflop")


def shown_cards(t: Trace) -> tuple[dict[str, tuple[str, ...]], set[str]]:
    """Cards each contender showed, and the players who mucked (conceded) without showing."""
    shown: dict[str, tuple[str, ...]] = {}
    by = t.by_type  # (``t.of``, inlined: no empty list made for a type the hand has none of)
    shows = by.get(Show, _NONE)
    mucks = by.get(Muck, _NONE)
    showed: set[str] = set()
    mucked: set[str] = set()
    for e in shows:
        showed.add(e.player)
        if known(e.cards):
            shown[e.player] = e.cards
    for m in mucks:
        mucked.add(m.player)
    for r in by.get(SeatResult, _NONE):
        if r.cards and " showed [" in r.text and known(r.cards):
            if r.player not in shown:
                shown[r.player] = r.cards
            continue
        if "mucked" in r.text:
            mucked.add(r.player)
    if mucks and any(p.all_in and not p.folded for p in t.players.values()):
        # with a player all-in, every hand at the showdown is tabled (TDA 2026 Rule 18, 2024: 16):
        # a hand "mucked" with its cards printed (888) still plays for the pot
        for m in mucks:
            if known(m.cards) and m.player not in shown:
                shown[m.player] = m.cards
                showed.add(m.player)
    if mucked:
        for p in mucked - showed:
            shown.pop(p, None)
    return shown, mucked


def build(t: Trace, profile: Profile) -> PotTrace:
    facts = t.facts
    by = t.by_type  # (``t.of``, inlined: no empty list made for a type the hand has none of)
    # contributions of the players dealt in (the turn order), in the players' order
    contrib: dict[str, int] = {}
    dead: dict[str, int] = {}
    dead_sum = 0
    top_name = ""
    top = second = -1  # C1: the largest contribution (its first holder) and the second largest
    for n, p in t.players.items():
        if not p.dealt:
            continue
        v = p.live_total + p.ante_total
        contrib[n] = v
        if p.dead:
            dead[n] = p.dead
            dead_sum += p.dead
        if v > top:
            top_name, top, second = n, v, top
        elif v > second:
            second = v
    house = 0
    for cash in by.get(CashDrop, _NONE):
        house += cash.amount
    printed_returns: dict[str, int] = {}
    for u in by.get(UncalledReturn, _NONE):
        printed_returns[u.player] = printed_returns.get(u.player, 0) + u.amount

    # C1: the uncalled part of the largest contribution
    expected_returns: dict[str, int] = {}
    if len(contrib) >= 2 and top > second:
        expected_returns[top_name] = top - second
    elif len(contrib) == 1 and top > 0:
        expected_returns[top_name] = top
    level = dict(contrib)
    if expected_returns:
        level[top_name] -= expected_returns[top_name]

    # C2-C4: the layers, merged (the common case's single pot without the general layering)
    unattributed = _unattributed_antes(t)
    dead_total = dead_sum + house + unattributed
    merged = _one_layer(t.players, level, dead_total, facts.pot_boundaries)
    if merged is None:
        merged = _layers(t.players, level, dead_total, facts.pot_boundaries)

    claims = by.get(PotClaim)
    claim: PotClaim | None = None
    if claims:
        claim = claims[0]
        if len(claims) > 1:
            # several "Total pot" lines (Chico prints some during the hand): the summary's is the hand's claim
            claim = next((c for c in claims if c.street == "summary"), claim)
    rake = claim.rake or 0 if claim else 0
    if claim is not None and claim.rake is None and t.facts.rake_unprinted_is_remainder and not t.hand.is_tournament:
        rake = max(0, claim.total - sum(c.amount for c in t.of(Collect)))
    elif (
        claim is None
        and t.facts.rake_unprinted_is_remainder
        and not t.facts.prints_total_pot
        and not t.hand.is_tournament
        and not t.hand.cancelled
    ):
        # no total and no rake printed: the rake is what the pots leave after the winnings (less
        # the uncalled parts the winnings pay back)
        back = sum(expected_returns.values()) if not t.facts.prints_uncalled and t.facts.uncalled_in_collect else 0
        won = sum(c.amount for c in t.of(Collect)) - back
        rake = max(0, sum(a for a, *_ in merged) - won) if t.of(Collect) else 0
    fees = sum(a for _, a in claim.fees) if claim is not None and claim.fees else 0
    total_expected = sum(level.values()) + dead_sum + unattributed
    if t.facts.drop_in_total:
        total_expected += house
    # each pot after rake and fees (see ``_net``): the printed per-pot amounts when the site prints
    # them and they are possible, otherwise rake and fees taken from the main pot first
    printed = bool(claim and claim.pots and len(claim.pots) == len(merged)
                   and all(0 <= n <= lay[0] for (_, n), lay in zip(claim.pots, merged, strict=True)))  # fmt: skip
    # each pot's players in the order odd chips go: the seats' order, needed once two can win a pot
    keys: dict[str, int] | None = None
    if len(merged) == 1:  # (most hands: one pot, built without the lists of the general case)
        a, e, lo, hi, who, d = merged[0]
        if printed and claim is not None:
            net = claim.pots[0][1]
        else:
            cut = rake + fees
            net = a - cut if cut < a else 0
        if len(e) > 1:
            keys = _seat_keys(t)
            e = _clockwise(t, e, keys)
        pots = [Pot("main", a, tuple(e), lo, hi, who, d, net)]
    else:
        if printed:
            nets = [n for _, n in claim.pots] if claim else []
        else:
            nets = []
            take = rake + fees
            for lay in merged:
                cut = take if take < lay[0] else lay[0]
                take -= cut
                nets.append(lay[0] - cut)
        for lay in merged:
            if len(lay[1]) > 1:
                keys = _seat_keys(t)
                break
        pots = []
        for i, ((a, e, lo, hi, who, d), net) in enumerate(zip(merged, nets, strict=True)):
            order = tuple(_clockwise(t, e, keys) if len(e) > 1 else e)
            pots.append(Pot(f"side-{i}" if i else "main", a, order, lo, hi, who, d, net))
    pt = PotTrace(contrib, dead, house, expected_returns, printed_returns, pots, total_expected, claim, rake, fees)
    pt.boards = boards_by_run(by.get(Board, []))
    seen: _Seen | None = None
    if len(pots) == 1 and len(pots[0].eligible) == 1 and profile.disconnect_win_limit == "none":
        # (most hands) one pot that one player can win: :func:`_award`'s answer, without its lookups
        pt.hole = shown_cards(t)[0]
        pot = pots[0]
        pt.contenders[pot.label] = pot.eligible
        pt.awards.append(_uncontested(pot))
        pt.expected_paid = {pot.eligible[0]: pot.net}
    else:
        seen = _Seen(shown_cards(t), keys)
        if len(pots) > 1 and rake + pt.fees > 0 and not printed and t.facts.rake_allocation == "unknown":
            # The site does not say which pot the rake came from: a winner of a pot is owed at least
            # the pot less all the rake, and at most the whole pot.
            pt.allocation_known = False
            take = rake + pt.fees
            gross = [replace(p, net=p.amount) for p in pt.pots]
            least = [replace(p, net=max(0, p.amount - take)) for p in pt.pots]
            pt.paid_high = _award(t, pt, profile, gross, record=False, seen=seen)
            pt.paid_low = _award(t, pt, profile, least, record=False, seen=seen)
        pt.expected_paid = _award(t, pt, profile, pt.pots, record=True, seen=seen)
    take = rake + pt.fees
    if (
        take > 0
        and not printed
        and t.facts.rake_allocation == "unknown"
        and t.facts.fees_from_shares
        and (t.hand.runs > 1 or any(len(a.winners) > 1 for a in pt.awards))
    ):
        # fees taken from each run's or tied player's share in unprinted proportions (GG): a
        # player is owed at most their share of the pots before rake and fees, and at least that
        # less all of the rake and fees (the total is A010's)
        pt.allocation_known = False
        pt.paid_high = _award(t, pt, profile, [replace(p, net=p.amount) for p in pt.pots], record=False, seen=seen)
        pt.paid_low = {n: max(0, v - take) for n, v in pt.paid_high.items()}
    if t.hand.extras.get("betting") == "unprinted":
        pt.betting_unprinted, pt.decided = True, False
        pt.notes.append("the record prints no betting: the awards are not judged, only the payout of the printed pot")
    if unattributed:
        pt.antes_unattributed = unattributed
        if len(pt.pots) > 1 or expected_returns:
            # who paid the antes moves the pot layers and the uncalled part: not judged
            pt.decided, pt.antes_decide_total = False, not expected_returns
            pt.notes.append("the antes are unattributed: who should have won each pot is not judged")
    collected = pt.collected
    collects = by.get(Collect)
    if collects:
        for c in collects:
            collected[c.player] = collected.get(c.player, 0) + c.amount
    elif facts.collects_only_at_showdown:
        for r in by.get(SeatResult, _NONE):  # no collect line at all: the summary's "won $X" is the award
            if r.won:
                collected[r.player] = collected.get(r.player, 0) + sum(r.won)
    return pt


def _layers(players: dict[str, Player], level: dict[str, int], dead_total: int, mode: str) -> list[list[Any]]:
    """The pots as layers ``[amount, eligible, low, high, contributors, dead]``: a layer at every
    contribution level (``mode`` "merge") or at every all-in level ("allin_boundaries"), each won
    by the players still in who reach it (C2); the dead money (``dead_total``) in a layer of its
    own, won by any live hand (C3); adjacent layers with the same players merged ("merge"; with
    "allin_boundaries" only into the dead layer), a layer nobody can win into the one below (C4)."""
    entries = [(n, v, players[n].folded) for n, v in level.items()]
    if mode == "allin_boundaries":
        bounds = {v for n, v, _ in entries if v > 0 and players[n].all_in}
        most = max(level.values(), default=0)
        if most:
            bounds.add(most)
    else:
        bounds = {v for v in level.values() if v > 0}
    layers: list[list[Any]] = []
    prev = 0
    for lev in sorted(bounds):
        amount = who = 0
        elig = []
        for n, v, out in entries:
            if v > prev:  # (a contribution at or below the layer's floor puts nothing in it)
                who += 1
                amount += (v if v < lev else lev) - prev
                if v >= lev and not out:
                    elig.append(n)
        layers.append([amount, elig, prev, lev, who, 0])
        prev = lev
    # C3: dead money (dead blinds, house money) is won with the main pot by any live hand
    if dead_total:
        live_players = [n for n, _, out in entries if not out]
        layers.insert(0, [dead_total, live_players, 0, 0, 0, dead_total])
    # C4: merge adjacent layers with the same eligible players (allin_boundaries: only the dead layer)
    merge_all = mode == "merge"
    merged: list[list[Any]] = []
    for lay in layers:
        if not lay[1] and merged:  # nobody left to win this layer: it goes to the one below
            merged[-1][0] += lay[0]
            continue
        if merged and (merge_all or (merged[-1][5] and merged[-1][3] == 0)) and set(merged[-1][1]) == set(lay[1]):
            m = merged[-1]
            m[0] += lay[0]
            m[3] = lay[3]
            m[4] = max(m[4], lay[4])
            m[5] += lay[5]
        else:
            merged.append(list(lay))
    return merged


def _one_layer(players: dict[str, Player], level: dict[str, int], dead_total: int,
               mode: str) -> list[list[Any]] | None:  # fmt: skip
    """The layers of :func:`_layers` in the common case, without layering: no dead money, every
    player still in has put in the most, and nobody folded all-in below it ("allin_boundaries"):
    one pot of everything, won by the players still in.  None when the case is not this one
    (``tests/test_pots_layers.py`` keeps the two equal)."""
    if dead_total:
        return None
    most = max(level.values(), default=0)
    if most <= 0:
        return None
    allin = mode == "allin_boundaries"
    amount = who = 0
    elig: list[str] = []
    for n, v in level.items():
        p = players[n]
        if v > 0:
            amount += v
            who += 1
        if not p.folded:
            if v != most:
                return None
            elig.append(n)
        elif allin and p.all_in and v > 0 and v != most:
            return None
    if not elig:
        return None
    return [[amount, elig, 0, most, who, 0]]


def _unattributed_antes(t: Trace) -> int:
    return unattributed_antes(t.hand)


def unattributed_antes(h: Hand) -> int:
    """The antes a hand's pot holds that nobody is recorded paying (``Hand.extras``), 0 if none."""
    x = h.extras
    total = x.get("antes_total", "")
    return int(total) if x.get("antes") == "unattributed" and total.isdecimal() else 0


def _net(pt: PotTrace, profile: Profile) -> list[Pot]:
    """Each pot after rake and fees: the printed per-pot amounts when the site prints them,
    otherwise rake and fees taken from the main pot first."""
    printed = [a for _, a in pt.claim.pots] if pt.claim else []
    if printed and len(printed) == len(pt.pots) and all(0 <= n <= p.amount for p, n in zip(pt.pots, printed,
                                                                                            strict=True)):  # fmt: skip
        # the site's own net pots, when they are possible (A003 reports impossible ones)
        return [Pot(p.label, p.amount, p.eligible, p.low, p.high, p.contributors, p.dead, n)
                for p, n in zip(pt.pots, printed, strict=True)]  # fmt: skip
    take = pt.rake + pt.fees  # main pot first
    out = []
    for p in pt.pots:
        cut = min(take, p.amount)
        take -= cut
        # (``replace(p, net=...)``, spelled out: it is built for every pot of every hand)
        out.append(Pot(p.label, p.amount, p.eligible, p.low, p.high, p.contributors, p.dead, p.amount - cut))
    return out


_NOT_YET = object()  # (a hand not evaluated yet: None is an evaluation's "cannot be evaluated")


class _Seen:
    """What every award of one hand reads: the cards shown (:func:`shown_cards`), the seats'
    odd-chip order (:func:`_seat_keys`; None when no pot has two players who can win it), and the
    hands already evaluated (by player, run and game: a hand contesting several pots, or awarded
    again for the rake's bounds, is ranked once)."""

    def __init__(self, shown: tuple[dict[str, tuple[str, ...]], set[str]], keys: dict[str, int] | None) -> None:
        self.shown, self.mucked = shown
        self.keys = keys
        self.high: dict[tuple[tuple[str, ...], tuple[str, ...]], Any] = {}
        self.low: dict[tuple[tuple[str, ...], tuple[str, ...]], Any] = {}
        self.studdraw: dict[tuple[str, ...], Any] = {}


def _pay(awards: Iterable[Award], pt: PotTrace, paid: dict[str, int], record: bool) -> None:
    """Add ``awards`` to what each player is paid (and to ``pt``'s awards when ``record``)."""
    for award in awards:
        if record:
            pt.awards.append(award)
        for w, a in award.shares:
            paid[w] = paid.get(w, 0) + a


def _award(t: Trace, pt: PotTrace, profile: Profile, pots: list[Pot], record: bool,
           seen: _Seen | None = None) -> dict[str, int]:  # fmt: skip
    """Award ``pots``; returns what each player should be paid (and, with ``record``, keeps the
    awards, contenders and notes on ``pt``).  ``seen``: what the hand's other awards computed."""
    h = t.hand
    if seen is None:
        seen = _Seen(shown_cards(t), _seat_keys(t))
    shown = seen.shown
    if record:
        pt.hole = shown
    paid: dict[str, int] = {}
    runs = max(pt.boards, default=1) if h.runs > 1 else 1
    allowance = _disconnect_allowance(t, pt, profile) if profile.disconnect_win_limit != "none" else {}
    for pot in pots:
        if len(pot.eligible) == 1:
            if record:
                pt.contenders[pot.label] = pot.eligible
            won = [_uncontested(pot)]
            if allowance:
                won = _limit_disconnected(t, pt, profile, pot, 1, won, shown, allowance)
            _pay(won, pt, paid, record)
            continue
        eligible = list(pot.eligible)
        contenders = [n for n in eligible if n in shown] if len(eligible) > 1 else eligible
        if (
            h.game in ("stud", "stud_hilo", "razz", "draw")
            and len(eligible) > 1
            and any(n not in shown and n not in seen.mucked for n in eligible)
        ):
            # a player still in neither showed nor mucked (OnGame draw summaries print one hand):
            # whether they won cannot be known
            if record:
                pt.contenders[pot.label] = tuple(contenders)
                pt.decided = False
                pt.notes.append(f"{pot.label}: a player still in the hand showed no cards; the award is not judged")
            continue
        if record:
            pt.contenders[pot.label] = tuple(contenders)
        if len(eligible) > 1 and not contenders:
            if record:
                pt.decided = False
                pt.notes.append(f"{pot.label}: nobody eligible showed cards; the award cannot be checked")
            continue
        if len(contenders) == 1:
            why = "uncontested" if len(eligible) == 1 else "the only hand shown"
            only = contenders[0]
            whole = [Award(pot.label, 1, "all", pot.net, (only,), ((only, pot.net),), why)]
            if allowance:
                whole = _limit_disconnected(t, pt, profile, pot, 1, whole, shown, allowance)
            _pay(whole, pt, paid, record)
            continue
        if h.game in ("stud", "stud_hilo", "razz", "draw"):
            from auditor.replay.showdown import award_pot  # games without a board

            if h.runs > 1 and h.game == "draw":
                got = _draw_runs(t, pot, contenders, profile)
            else:
                clockwise = partial(_clockwise, t, keys=seen.keys)
                got = award_pot(t, pot, pot.net, contenders, shown, profile, clockwise, seen.studdraw)
            if got is None:
                if record:
                    pt.decided = False
                    pt.notes.append(f"{pot.label}: a {h.game_text} hand shown could not be evaluated")
                continue
            _pay(got, pt, paid, record)
            continue
        if h.game not in EVALUATED_GAMES:
            if record:
                pt.decided = False
                pt.notes.append(f"{pot.label}: {h.game} hands are not evaluated")
            continue
        for r, share in enumerate(run_shares(pot.net, runs), start=1):
            board = pt.boards.get(r, ())
            if len(board) < 5:
                if record:
                    pt.decided = False
                    pt.notes.append(f"{pot.label}: board of run {r} is incomplete")
                continue
            won = _award_share(t, pot, r, share, contenders, board, profile, shown, seen)
            if allowance:
                won = _limit_disconnected(t, pt, profile, pot, r, won, shown, allowance)
            _pay(won, pt, paid, record)
    return paid


def _uncontested(pot: Pot) -> Award:
    """The award of a pot that one player can win: all of it, to that player, shown or not."""
    only = pot.eligible[0]
    return Award(pot.label, 1, "all", pot.net, pot.eligible, ((only, pot.net),), "uncontested")


def _odd_chip_first(profile: Profile, clockwise: list[str]) -> list[str]:
    """Tied winners in the order odd chips go, by the profile (first or last after the button)."""
    return clockwise[::-1] if profile.odd_chip == "last_after_button" else clockwise


def _disconnect_allowance(t: Trace, pt: PotTrace, profile: Profile) -> dict[str, int]:
    """What each player kept in the hand by disconnection protection may win at most (profile
    ``disconnect_win_limit``): what they put in (less what came back) times the players still in
    against them; empty when the profile sets no limit or nobody was disconnected."""
    if profile.disconnect_win_limit == "none":
        return {}
    out: dict[str, int] = {}
    for e in t.of(TableEvent):
        pl = t.players.get(e.player or "")
        if e.kind != "disconnected_all_in" or pl is None or pl.folded or pl.name in out:
            continue
        stake = pt.contributions.get(pl.name, 0) - pt.expected_returns.get(pl.name, 0)
        opponents = sum(1 for q in t.players.values() if q.name != pl.name and not q.folded and q.seated)
        out[pl.name] = max(0, stake) * opponents
    return out


def _limit_disconnected(t: Trace, pt: PotTrace, profile: Profile, pot: Pot, run: int, awards: list[Award],
                        shown: dict[str, tuple[str, ...]], allowance: dict[str, int]) -> list[Award]:  # fmt: skip
    """The awards of one pot with each disconnection-protected winner held to what they may still
    win (``allowance``, consumed); the rest goes to the next best hand among the pot's other
    eligible players (the only one left, or the best shown)."""
    if not allowance:
        return awards
    out: list[Award] = []
    for a in awards:
        over = {w: s - allowance[w] for w, s in a.shares if w in allowance and s > allowance[w]}
        others = [n for n in pot.eligible if n not in allowance]
        contenders = others if len(others) == 1 else [n for n in others if n in shown]
        board = pt.boards.get(run, ())
        if over and (not contenders or (len(contenders) > 1 and len(board) < 5)):
            over = {}  # nobody to take the rest: the award stands as the cards give it
        for w, s in a.shares:
            if w in allowance:
                allowance[w] -= min(s, allowance[w])
        if not over:
            out.append(a)
            continue
        excess = sum(over.values())
        shares = tuple((w, s - over.get(w, 0)) for w, s in a.shares)
        why = f"{a.why}, limited by disconnection protection"
        out.append(replace(a, amount=a.amount - excess, shares=shares, why=why))
        if len(contenders) == 1:
            rest = [Award(pot.label, run, a.half, excess, (contenders[0],), ((contenders[0], excess),), "")]
        else:
            rest = _award_share(t, pot, run, excess, contenders, board, profile, shown)
        out.extend(replace(b, why="the rest, to the next best hand (disconnection protection)") for b in rest)
    return out


def _draw_runs(t: Trace, pot: Pot, contenders: list[str], profile: Profile) -> list[Award] | None:
    """A draw pot run more than once (Kings Club "Run 1: X shows [..]", "Run 2: X shows [..]"):
    one share per run, the first taking the odd chip, each to the best hand shown for that run;
    None when a contender showed no hand for a run."""
    from auditor.replay.showdown import award_pot

    per_run = {e.player for e in t.of(Show) if e.run > 1}  # players who show a hand for each run
    out: list[Award] = []
    for r, share in enumerate(run_shares(pot.net, t.hand.runs), start=1):
        # a player who stood pat shows one hand, the same for every run
        shown = {e.player: e.cards for e in t.of(Show)
                 if (e.run == r or e.player not in per_run) and known(e.cards)}  # fmt: skip
        if any(n not in shown for n in contenders):
            return None
        won = award_pot(t, pot, share, contenders, shown, profile, lambda names: _clockwise(t, names))
        if won is None:
            return None
        out += [replace(a, run=r) for a in won]
    return out


def _keys(contenders: list[str], shown: dict[str, tuple[str, ...]], board: tuple[str, ...],
          known: dict[Any, Any], key: Callable[[tuple[str, ...]], Any]) -> dict[str, Any]:  # fmt: skip
    """Each contender's hand key (``key`` of their shown cards), evaluated once per hand: ``known``
    keeps them by (cards, board); a hand that cannot be evaluated (None) is left out."""
    out: dict[str, Any] = {}
    for n in contenders:
        cards = shown[n]
        v = known.get((cards, board), _NOT_YET)
        if v is _NOT_YET:
            v = known[cards, board] = key(cards)
        if v is not None:
            out[n] = v
    return out


def _award_share(t: Trace, pot: Pot, run: int, amount: int, contenders: list[str], board: tuple[str, ...],
                 profile: Profile, shown: dict[str, tuple[str, ...]],
                 seen: _Seen | None = None) -> list[Award]:  # fmt: skip
    game = t.hand.game
    if seen is None:
        seen = _Seen(({}, set()), _seat_keys(t))
    # a hand not fully tabled cannot win (its key is None)
    highs = _keys(contenders, shown, board, seen.high, lambda c: high_key(game, c, board))
    if not highs:
        return []
    best = max(highs.values())
    hi_w = [n for n, v in highs.items() if v == best]
    if game not in HILO_GAMES and len(hi_w) == 1:  # (most showdowns) one best hand: all of it, no order asked
        return [Award(pot.label, run, "all", amount, (hi_w[0],), ((hi_w[0], amount),), "best hand")]
    hi_w = _odd_chip_first(profile, _clockwise(t, hi_w, seen.keys))
    lows: dict[str, Any] = {}
    if game in HILO_GAMES:
        lows = _keys(contenders, shown, board, seen.low, lambda c: low_key(game, c, board))
    unit = t.facts.odd_chip_unit
    if not lows:
        return [Award(pot.label, run, "all", amount, tuple(hi_w), tuple(split(amount, hi_w, unit)), "best hand")]
    best_low = max(lows.values())
    lo_w = _odd_chip_first(profile, _clockwise(t, [n for n, v in lows.items() if v == best_low], seen.keys))
    if profile.hilo_identical_even and set(hi_w) == set(lo_w):
        return [Award(pot.label, run, "all", amount, tuple(hi_w), tuple(split(amount, hi_w, unit)),
                      "the same hands win high and low")]  # fmt: skip
    units = amount // unit
    high_half = (units - units // 2) * unit + amount % unit
    low_half = amount - high_half
    return [
        Award(pot.label, run, "high", high_half, tuple(hi_w), tuple(split(high_half, hi_w, unit)), "best high hand"),
        Award(pot.label, run, "low", low_half, tuple(lo_w), tuple(split(low_half, lo_w, unit)), "best low hand"),
    ]


# ``Pot`` and ``Award`` write their own ``__init__`` (native stores when compiled) and are frozen
# here, as the model's classes are (``auditor/model.py``); they keep an instance ``__dict__`` in
# pure Python (callers read ``pot.__dict__``), where they get an ``__init__`` that fills it
# (``fastinit.speed_up_unslotted``).  ``PotTrace`` is not frozen: its own ``__init__`` is the one the
# dataclass would write (``tests/test_fastinit.py`` checks each against the fields).
frozen_class(Pot)
frozen_class(Award)
