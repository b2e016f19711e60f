"""What every writer of :mod:`auditor.convert` shares: who was dealt in, in which order, and what
the record claims each player put in and took out.

A writer never derives what should have happened (that is the replay's job): it copies the claims
of the canonical :class:`~auditor.model.Hand` into another format, and says what that format
cannot carry (:class:`Loss`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor import model as M

__all__ = ["ConversionError", "Loss", "Ring", "claimed_results", "dealt_in", "ring"]


class ConversionError(ValueError):
    """The hand cannot be written in the target format at all (the message says why)."""


@dataclass(frozen=True, slots=True)
class Loss:
    """A fact of the hand the target format cannot carry: its code and what was dropped."""

    what: str
    detail: str = ""


def dealt_in(hand: M.Hand) -> list[M.Seat]:
    """The seats of the players dealt in: who posted, acted, or had cards, in seat order.

    The same players the replay puts in the turn order (and a player who only mucks or collects): a
    seat with no line in the hand (sitting out, or a site that names a seated player who was not
    dealt in as "folded" in its summary only) is not dealt in, or a reader would wait for its turn.
    """
    seats = {s.player: s for s in hand.seats}
    names = {e.player for e in hand.events if isinstance(e, M.Post | M.Action | M.Draw)}
    names |= {e.player for e in hand.events if isinstance(e, M.HoleCards | M.Show | M.Muck | M.Collect)}
    return sorted((seats[p] for p in names if p in seats), key=lambda s: s.seat)


@dataclass(frozen=True, slots=True)
class Ring:
    """The players dealt in, in the order of the PHH standard (and pokerkit): clockwise from the
    first seat after the button, the button last; heads-up, the big blind first and the button
    (small blind) second."""

    seats: tuple[M.Seat, ...]

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.seats]

    def index(self, player: str) -> int:
        return self.players.index(player)


def ring(hand: M.Hand) -> Ring:
    seats = dealt_in(hand)
    if len(seats) < 2:
        raise ConversionError("fewer than two players dealt in")
    if len(seats) == 2:
        # heads-up, the big blind is first whoever has the button (an old export where the button
        # posted the big blind: the other player posted the small blind and acted first)
        bb = next((e.player for e in hand.events if isinstance(e, M.Post) and e.kind == "big_blind"), None)
        if bb in (seats[0].player, seats[1].player):
            return Ring(tuple(sorted(seats, key=lambda s: s.player != bb)))
    button = hand.button if hand.button is not None else seats[-1].seat
    start = next((i for i, s in enumerate(seats) if s.seat > button), 0)
    ordered = seats[start:] + seats[:start]
    return Ring(tuple(ordered))


@dataclass
class Results:
    """What the record claims about each player's money."""

    put_in: dict[str, int] = field(default_factory=dict)  # posts and wagers
    returned: dict[str, int] = field(default_factory=dict)  # uncalled bets returned
    collected: dict[str, int] = field(default_factory=dict)  # awards (collect lines)
    cashed_out: dict[str, int] = field(default_factory=dict)

    def finishing(self, hand: M.Hand) -> dict[str, int]:
        out = {}
        for s in hand.seats:
            p = s.player
            out[p] = (s.stack - self.put_in.get(p, 0) + self.returned.get(p, 0) + self.collected.get(p, 0)
                      + self.cashed_out.get(p, 0))  # fmt: skip
        return out


def claimed_results(hand: M.Hand) -> Results:
    r = Results()
    for e in hand.events:
        if isinstance(e, M.Post):
            r.put_in[e.player] = r.put_in.get(e.player, 0) + e.amount
        elif isinstance(e, M.Action):
            r.put_in[e.player] = r.put_in.get(e.player, 0) + e.increment
        elif isinstance(e, M.UncalledReturn):
            r.returned[e.player] = r.returned.get(e.player, 0) + e.amount
        elif isinstance(e, M.Collect):
            r.collected[e.player] = r.collected.get(e.player, 0) + e.amount
        elif isinstance(e, M.CashOut):
            r.cashed_out[e.player] = r.cashed_out.get(e.player, 0) + e.amount
    return r
