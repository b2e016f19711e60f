"""Fixed-limit details shared by the stud and draw replays.

A short all-in raise of half a bet or more counts as a full raise (the next raise is a full bet
above it), but PokerStars also lets the next player *complete* it to a full raise above the level
it raised (``raises 60 to 120``, ``raises 30 to 150 and is all-in``, ``raises 30 to 180``).  Both
readings are lawful somewhere, so a wager to either level is taken as the right size.
"""

from __future__ import annotations

from auditor import model as M
from auditor.replay.betting import Replay


class CompletionMixin(Replay):
    """Accept the completion of a short all-in raise as a fixed-limit size (see the module)."""

    alt_to: int | None = None
    current: M.Action | None = None

    def on_action(self, i: int, e: M.Action) -> None:
        self.current = e
        pl = self.players.get(e.player)
        before_bet, street = self.current_bet, self.street
        super().on_action(i, e)
        if self.street != street:
            self.alt_to = None
        if pl is None or e.kind not in ("bet", "raise", "complete") or not self.fl:
            return
        size = self.fl_bet_size()
        raised = e.to - before_bet
        if pl.all_in and 0 < raised < size and 2 * raised >= size:
            self.alt_to = before_bet + size
        elif e.to > before_bet:
            self.alt_to = None

    def fl_step_to(self) -> int:
        """The completion of a short all-in raise (see the module) when the wager is to it."""
        e = self.current
        if self.alt_to is not None and e is not None and e.to == self.alt_to:
            return self.alt_to
        return self.fl_expected_to()
