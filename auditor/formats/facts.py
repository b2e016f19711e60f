"""Export facts: how a format (and a brand of it) *prints* a hand, as opposed to which rule book
judges it.

A rule profile (``auditor.profiles``) answers the questions where rule books disagree; it is chosen
with ``--rules``.  Export facts say what the site's export does and does not show (does it print
the uncalled bet? is "Total pot" net of rake?), so the rules know what a missing line means.  They
belong to the format: ``--rules tda`` on a Winamax file changes the rule book, never the fact that
Winamax prints no "Uncalled bet" line.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class ExportFacts:
    """What one format prints.  The defaults describe a PokerStars-style export."""

    prints_all_in: bool = True  # every all-in is marked ("and is all-in")
    # an ante that takes a player's last chips is marked all-in too; False: antes never are (OnGame)
    all_in_on_antes: bool = True
    prints_uncalled: bool = True  # "Uncalled bet (X) returned to Y" lines exist
    # when no "Uncalled bet" line is printed, "Total pot" still counts the uncalled part (Winamax);
    # False: the printed pots leave it out (PartyPoker "Main Pot: ..")
    silent_uncalled_in_total: bool = True
    # when no "Uncalled bet" line is printed, the uncalled part is paid back inside the player's
    # collect (Winamax, PartyPoker); False: it goes back silently, outside every printed pot and
    # collect (OnGame "Main pot: $1.00 won by X ($1.00)" after an uncalled raise)
    uncalled_in_collect: bool = True
    # hands dated before this year may return the uncalled part silently (PokerStars exports
    # printed no "Uncalled bet" line before 2008): the total pot then shows whether it went back
    silent_returns_before: int | None = None
    # how the site labels side pots: one per distinct eligible set ("merge") or one per all-in
    # amount even when the eligible players are the same ("allin_boundaries")
    pot_boundaries: Literal["merge", "allin_boundaries"] = "merge"
    drop_in_total: bool = False  # house money (cash drop) counted in "Total pot"
    total_net_of_rake: bool = False  # "Total pot" is printed after rake and fees
    # the summary prints a total pot (or its pots); False: only the rake and each player's winnings
    # (Entraction "Rake: EUR 0.70"): there is no total to compare
    prints_total_pot: bool = True
    # the printed main and side pots are net of rake and fees (PokerStars); False: each pot is
    # printed before rake and the rake on a line of its own (OnGame "Main pot: $5.14 won by ..")
    pots_net_of_rake: bool = True
    # how rake and fees are taken from several pots when the site does not print each pot:
    # "main_first", or "unknown" (awards are checked within bounds)
    rake_allocation: Literal["main_first", "unknown"] = "unknown"
    odd_chip_unit: int = 1  # smallest unit a pot is split in (minor units)

    @classmethod
    def from_mapping(cls, data: dict[str, Any], base: ExportFacts | None = None) -> ExportFacts:
        """Facts from a format card's ``[facts]`` table, on top of ``base``; unknown keys are errors."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown export facts {unknown}; known: {sorted(known)}")
        values = {f.name: getattr(base or cls(), f.name) for f in fields(cls)}
        values.update(data)
        return cls(**values)

    def described(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
