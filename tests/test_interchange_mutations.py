"""Mutation tests on PHH and OHH made from real corpus hands (issue 15).

A PokerStars, GGPoker or Winamax corpus hand that audits clean is changed in one fact (the kinds of
``tests/test_mutations.py``: a collect one unit too high, a changed uncalled return, a wager beyond
the stack, a card dealt twice, two actions swapped, the pot paid to the loser, a raise below the
minimum), written as PHH and as OHH by hhaudit's writers, read back by the PHH and OHH readers, and
audited: the first finding must be the mutation's code, at the line where the changed fact is
written in the PHH or OHH text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.convert import ohh, phh
from auditor.convert.common import ConversionError
from auditor.formats import parse_text
from tests.test_interchange import corpus_hands

PER_KIND = 8  # mutated hands per kind and format (the first found, in corpus order)
Mutator = Callable[[M.Hand], Iterator[tuple[M.Hand, int]]]  # mutated hand, index of the changed event


@cache
def clean_hands() -> tuple[M.Hand, ...]:
    out = []
    for site in ("pokerstars", "ggpoker", "winamax"):
        for h in corpus_hands(site):
            if h.game != "holdem" or h.structure != "NL" or h.runs > 1 or not h.complete or audit_hand(h).findings:
                continue
            try:
                phh.dumps(h)
            except ConversionError:
                continue
            out.append(h)
    return tuple(out)


def _with(h: M.Hand, i: int, e: M.Event) -> M.Hand:
    return replace(h, events=(*h.events[:i], e, *h.events[i + 1 :]))


def m_collect(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    for i, e in enumerate(h.events):
        if isinstance(e, M.Collect):
            yield _with(h, i, replace(e, amount=e.amount + 1)), i
            return


def m_return(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    for i, e in enumerate(h.events):
        if isinstance(e, M.UncalledReturn):
            yield _with(h, i, replace(e, amount=e.amount + 1)), i
            return


def m_beyond_stack(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    """A player's starting stack one unit below what they put in (none of it returned)."""
    t = audit_hand(h).trace
    returned = {e.player for e in h.events if isinstance(e, M.UncalledReturn)}
    for name, pl in t.players.items():
        if name in returned or pl.all_in or not pl.seated or pl.committed < 2:
            continue
        last = max(i for i, e in enumerate(h.events) if isinstance(e, M.Action | M.Post) and e.player == name
                   and (e.increment if isinstance(e, M.Action) else e.amount) > 0)  # fmt: skip
        ev = h.events[last]
        if not (isinstance(ev, M.Action) and ev.kind in ("bet", "raise")):
            continue  # PHH's "cc" calls what the player has left: only a bet or raise can go beyond it
        seats = tuple(replace(s, stack=pl.committed - 1) if s.player == name else s for s in h.seats)
        yield replace(h, seats=seats), last
        return


def m_card_twice(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    hero = next((e for e in h.events if isinstance(e, M.HoleCards) and e.cards), None)
    for i, e in enumerate(h.events):
        if hero is not None and isinstance(e, M.Board) and e.street == "flop":
            yield _with(h, i, replace(e, cards=(hero.cards[0], *e.cards[1:]))), i
            return


def m_swap(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    ev = h.events
    for i in range(len(ev) - 1):
        a, b = ev[i], ev[i + 1]
        if (isinstance(a, M.Action) and isinstance(b, M.Action) and a.kind == b.kind == "fold"
                and a.street == b.street == "preflop" and a.player != b.player):  # fmt: skip
            yield replace(h, events=(*ev[:i], b, a, *ev[i + 2 :])), i
            return


def m_pot_to_loser(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    shows = [e for e in h.events if isinstance(e, M.Show) and e.cards]
    collects = [(i, e) for i, e in enumerate(h.events) if isinstance(e, M.Collect)]
    if len(shows) == 2 and len(collects) == 1 and {s.player for s in shows} >= {collects[0][1].player}:
        i, c = collects[0]
        loser = next(s.player for s in shows if s.player != c.player)
        yield _with(h, i, replace(c, player=loser)), i


def m_small_raise(h: M.Hand) -> Iterator[tuple[M.Hand, int]]:
    bb = h.big_blind or 0
    for i, e in enumerate(h.events):
        if isinstance(e, M.Action) and e.street == "preflop" and e.kind in ("raise", "bet"):
            if e.kind == "raise" and not e.all_in and e.to > 2 * bb and e.to == e.increment and bb > 2:
                new = 2 * bb - 1
                yield _with(h, i, replace(e, to=new, increment=new, printed=new - bb)), i
            return


MUTATORS: dict[str, tuple[Mutator, str, type[M.Event] | None]] = {
    # kind: (mutator, its code, where it is reported: the changed event's line, or the pot claim's)
    "collect +1": (m_collect, "A010", M.PotClaim),
    "changed return": (m_return, "A001", None),
    "wager beyond stack": (m_beyond_stack, "S001", None),
    "card dealt twice": (m_card_twice, "H002", None),
    "swapped actions": (m_swap, "B004", None),
    "pot to the loser": (m_pot_to_loser, "A004", None),
    "raise below minimum": (m_small_raise, "B002", None),
}
#: findings that follow from a money mutation and may be written above it (OHH writes its pots
#: before hhaudit's extension object, where the uncalled returns are)
CONSEQUENCES = frozenset({"A002", "A010"})


@pytest.mark.parametrize("fmt", ["phh", "ohh"])
@pytest.mark.parametrize("kind", sorted(MUTATORS))
def test_mutation_in_interchange_record_is_reported_at_its_line(fmt: str, kind: str) -> None:
    mutate, code, where = MUTATORS[kind]
    writer = phh if fmt == "phh" else ohh
    done = 0
    for h in clean_hands():
        for mutant, i in mutate(h):
            text = writer.dumps(mutant)
            items = [x for x in parse_text(text, f"m.{fmt}") if isinstance(x, M.Hand)]
            assert len(items) == 1
            back = items[0]
            # the changed event, read back: the same type, at the same rank among its type's events
            rank = sum(1 for e in mutant.events[:i] if type(e) is type(mutant.events[i]))
            line = [e for e in back.events if type(e) is type(mutant.events[i])][rank].line
            if where is not None:
                line = next(e.line for e in back.events if isinstance(e, where))
            found = audit_hand(back).findings
            first = next((f for f in found if f.code not in CONSEQUENCES or f.code == code), None)
            # the mutation's code comes first, and is reported at the changed fact's line (a pot
            # paid to the loser is reported on both players: the winner's at the pots in OHH)
            assert first is not None and first.code == code and any((f.code, f.line) == (code, line) for f in found), (
                kind, fmt, h.path, h.hand_id, [(f.code, f.line, f.message[:80]) for f in found[:3]], line)  # fmt: skip
            done += 1
        if done >= PER_KIND:
            break
    assert done >= 3, f"too few hands to mutate for {kind!r}"
