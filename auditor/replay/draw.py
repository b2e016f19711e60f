"""The betting replay of draw games: five-card draw, 2-7 single and triple draw, A-5 triple draw,
badugi (fixed limit, pot limit and no limit).

Draw games are blind games: the state machine of :mod:`auditor.replay.betting` applies as it is
(blinds, action left of the big blind before the first draw, then left of the button after each
draw).  What differs:

* the streets are the betting rounds around the draws (``preflop``, then ``draw1`` .. ``draw3``
  after each draw), opened by the first action printed after a draw;
* fixed-limit sizes: single-draw games bet the small bet before the draw and the big bet after it;
  triple-draw games (and badugi) the small bet in the first two rounds, the big bet in the last two;
* the cards drawn: every draw line takes cards from the stub (see :func:`deck_use`).
"""

from __future__ import annotations

from dataclasses import dataclass

from auditor import model as M
from auditor.formats.facts import ExportFacts
from auditor.profiles import Profile
from auditor.replay.limits import CompletionMixin

DRAW_STREETS: tuple[M.Street, ...] = ("preflop", "draw1", "draw2", "draw3")


def draw_variant(hand: M.Hand) -> str | None:
    """Which draw game a ``draw`` hand is, from the game name the site printed: ``badugi``,
    ``27_triple``, ``27_single``, ``a5_triple``, ``5card``, or None (not known)."""
    t = hand.game_text.lower().replace("_", " ")
    if "badugi" in t:
        return "badugi"
    if "a-5" in t or "a5" in t:
        return "a5_triple" if "triple" in t else None
    if "lowball27" in t:
        return "27_triple"  # Winamax's name of its 2-7 triple draw ("Lowball27 fixed limit"; three draws)
    if "2-7" in t or "27" in t or "deuce" in t:
        if "triple" in t:
            return "27_triple"
        if "single" in t:
            return "27_single"
        return None
    if "5 card draw" in t or "five card draw" in t:
        return "5card"
    return None


def draws_of(variant: str | None) -> int:
    """How many draws the game has (1 or 3; 0 when not known)."""
    if variant in ("badugi", "27_triple", "a5_triple"):
        return 3
    if variant in ("27_single", "5card"):
        return 1
    return 0


class DrawReplay(CompletionMixin):  # (a Replay: one base, as a compiled class needs)
    """The draw betting replay (see the module docstring)."""

    def __init__(self, hand: M.Hand, profile: Profile, facts: ExportFacts) -> None:
        super().__init__(hand, profile, facts)
        self.variant = draw_variant(hand)
        self.draws = draws_of(self.variant)
        streets_known = all(e.street in DRAW_STREETS for e in self.trace.of(M.Action))
        # fixed limit needs the game's number of draws to know its sizes
        self.betting = (hand.structure in ("NL", "PL", "CAP") or (hand.structure == "FL" and self.draws > 0)) and (
            streets_known
        )
        self.trace.betting = self.betting

    def _start_preflop(self) -> None:
        super()._start_preflop()
        if not any(e.kind in ("small_blind", "big_blind", "straddle", "button_blind") for e in self.trace.of(M.Post)):
            # an ante-only deal (Merge half-pot-limit badugi): nothing to call, the first wager is a bet
            self.current_bet = max((pl.street_bet for pl in self.players.values()), default=0)
            self.full_level = 0
            self.raises = 0

    def fl_bet_size(self) -> int:
        small = ("preflop",) if self.draws == 1 else ("preflop", "draw1")
        return self.bb if self.street in small else 2 * self.bb


@dataclass(frozen=True, slots=True)
class DeckUse:
    """One draw round's use of the deck: the cards it drew against the cards it could draw from."""

    street: M.Street
    line: int
    col: int
    drawn: int  # the largest single draw of the round (with no reshuffle: the cards drawn so far, all rounds)
    available: int  # cards that were not in a player's hand (with no reshuffle: the stub after the deal)
    players: int


def deck_use(hand: M.Hand, profile: Profile) -> list[DeckUse]:
    """For each draw round, the cards drawn against the cards there were to draw.

    A 52-card deck deals five cards (badugi: four) to every player; each draw takes the discarded
    number of new cards, so the cards outside the players' hands stay ``52 - size * players``.
    Where the profile lets the dealer shuffle the discards into a new stub when the stub runs out
    (``draw_reshuffle = "discards"``), a player draws from the stub and the other players'
    discards, which are all the cards outside the hands: no single draw can take more (a round as a
    whole can: the discards keep coming back).  Without it, all the rounds together can draw at
    most the stub left after the deal.
    """
    size = 4 if draw_variant(hand) == "badugi" else 5
    dealt = {e.player for e in hand.events if isinstance(e, M.HoleCards | M.Draw)}
    players = len(dealt)
    outside = 52 - size * players
    out: list[DeckUse] = []
    by_street: dict[M.Street, list[M.Draw]] = {}
    for e in hand.events:
        if isinstance(e, M.Draw):
            by_street.setdefault(e.street, []).append(e)
    total = 0
    for street, draws in by_street.items():
        total += sum(max(0, d.discarded) for d in draws)
        if profile.draw_reshuffle == "discards":
            most = max(draws, key=lambda d: d.discarded)  # the largest single draw
            out.append(DeckUse(street, most.line, most.col, most.discarded, outside, players))
        else:
            out.append(DeckUse(street, draws[0].line, draws[0].col, total, outside, players))
    return out
