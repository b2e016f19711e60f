"""Export facts: how a format (and a brand of it) *prints* a hand, as opposed to which rule book
judges it.

A rule profile (``auditor.profiles``) answers the questions where rule books disagree; it is chosen
with ``--rules``.  Export facts say what the site's export does and does not show (does it print
the uncalled bet? is "Total pot" net of rake?), so the rules know what a missing line means.  They
belong to the format: ``--rules tda`` on a Winamax file changes the rule book, never the fact that
Winamax prints no "Uncalled bet" line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from auditor.fastinit import by_fields


@dataclass(frozen=True, slots=True)
class ExportFacts:
    """What one format prints.  The defaults describe a PokerStars-style export.

    Compiled with mypyc in the compiled build (issue 16): the replay, pots and rules read a hand's
    facts as native attributes, and it is pickled through its constructor (:meth:`__reduce__`).
    """

    prints_all_in: bool = True  # every all-in is marked ("and is all-in")
    # a post that takes a player's last chips is marked all-in; False: the site marks no all-in on a
    # blind or ante (PartyPoker: "posts big blind [$0.01 USD]." with nothing left)
    marks_all_in_posts: bool = True
    # every forced bet has a line of its own; False: a hand with no post line at all took its blinds
    # (and antes) silently, printing only the level ("Blinds(50/100)", old PartyPoker tournaments):
    # the reader derives them from the header and the seats, as posts marked ``derived``
    prints_blind_posts: bool = True
    # an ante that takes a player's last chips is marked all-in too; False: antes never are (OnGame)
    all_in_on_antes: bool = True
    prints_uncalled: bool = True  # "Uncalled bet (X) returned to Y" lines exist
    # when no "Uncalled bet" line is printed, "Total pot" still counts the uncalled part (Winamax);
    # False: the printed pots leave it out (PartyPoker "Main Pot: ..")
    silent_uncalled_in_total: bool = True
    # with prints_uncalled = false: the uncalled part of a player who collects nothing goes back
    # without any line (888); otherwise it is inside the player's collect line (Winamax)
    silent_return_without_collect: bool = False
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
    # printed before rake and the rake on a line of its own (OnGame "Main pot: $5.14 won by ..",
    # Full Tilt "Total pot $234.55 Main pot $158.20. Side pot $76.35. | Rake $3")
    pots_net_of_rake: bool = True
    # how rake and fees are taken from several pots when the site does not print each pot:
    # "main_first", or "unknown" (awards are checked within bounds)
    rake_allocation: Literal["main_first", "unknown"] = "unknown"
    # with rake_allocation = "unknown": the rake and fees are taken from each run's share of a
    # run-it-twice pot, and from each tied player's share, in proportions the site does not print
    # (GG: run 1 $4.95, run 2 $4.96 of $9.91; tied players $6.19 and $6.14 of $12.33): each
    # player's award is then checked within bounds (their share of the pots before rake and fees,
    # less at most all of the rake and fees), and the total by A010
    fees_from_shares: bool = False
    # a cash hand's summary may print no rake although the house took one (Bodog network since
    # 2013: "Total Pot($0.50)", the winner gets $0.48): the rake is then what the printed total
    # leaves after the collects (never below zero)
    rake_unprinted_is_remainder: bool = False
    odd_chip_unit: int = 1  # smallest unit a pot is split in (minor units)
    # a dot followed by exactly three digits groups thousands ("1.550 $" is 1,550 chips): the site
    # never prints three decimals (888 in some locales)
    dot_thousands: bool = False
    # a hand won without a call (a walk) prints no "Uncalled bet" line even where other hands do
    # (WPN): the uncalled part stays in "Total pot" and in the winner's award
    silent_returns_in_walks: bool = False
    # "collected" lines are printed only at a showdown (WPN): a pot won without one is paid in the
    # summary alone ("Seat 5: X did not show and won $0.25"), which then counts as the collect
    collects_only_at_showdown: bool = False
    # a record a third-party converter rewrote (PokerStars-format text written for another site):
    # its "Uncalled bet" lines and "Total pot" are the converter's accounting, not the site's (a
    # walk's whole big blind printed as returned, or the uncalled part left in the pot), so the
    # uncalled part is judged by where the money went (the awards, A010), not by the return line
    converted: bool = False
    # a player who leaves the table while still in the hand prints no fold line: the leave ends
    # their hand (Chico: "X has left the table", the summary omits them); not when all-in
    leaving_folds: bool = False
    # a player who sits out during the hand takes no further part in it (iPoker's action type 9
    # after an ante: the ante stays in the pot, no fold line follows); not when all-in, nor when
    # the record shows them acting later
    sitting_out_folds: bool = False
    # a player who joins as the hand starts and posts has no seat line, or one with a zero stack
    # (PartyPoker): the replay places them in the turn order where they first act and never
    # judges their (unknown) stack
    unlisted_joiners: bool = False
    # hands dated before this year-month ("2019-06") print a re-raise by a player who already bet
    # or called on the street net of that earlier wager: "raises X to Y" puts the total at Y plus
    # the player's earlier chips (Run It Once, early 2019; the following calls, uncalled returns
    # and totals of the same hands agree with that reading, not with Y)
    raise_to_net_of_own_bet_before: str | None = None
    # a "checks" line is printed for every player left on a street where no betting is possible
    # (all but one all-in), the all-in players included (Run It Once 2019): not an action
    checks_when_no_betting: bool = False
    # seat numbers are not 1..N of an N-max table (Run It Once's 3-max tables seat players 1, 3
    # and 5): a seat number above the table size is not an inconsistency
    spread_seat_numbers: bool = False
    # a straddle is printed as a second "posts big blind" of more than the big blind, by another
    # player before the hole cards (PokerMaster)
    straddle_as_second_big_blind: bool = False
    # four- and five-card Omaha share one game name ("Omaha Pot Limit", PokerMaster): the number
    # of hole cards dealt tells the game
    omaha_size_from_cards: bool = False
    # the betting structure of a hand whose header prints none ("FL": Everleaf prints "$0.50/$1 Omaha
    # Hi/Lo" and "$0.05/$0.10 7 Card Stud" for its fixed-limit tables, "NL"/"PL" before the others)
    unprinted_structure: Literal["NL", "PL", "FL"] | None = None
    # stud street markers name the street before the one they deal (Kings Club: no marker before
    # third street's betting, then "*** 3RD STREET ***" deals the fourth card)
    stud_streets_one_early: bool = False
    # calls and raises are printed as the player's street total, not as the chips they add
    # (PokerTracker's 2011 conversions of Microgaming: "Hero called - €0.20" from the €0.10 big
    # blind makes €0.20; the later ones print "called - €0.10"); an all-in line ("went all-in -
    # €5.46") adds its chips all the same
    wagers_as_street_total: bool = False
    # a fixed-limit header prints the small and big bets ("Holdem  Normal $200/$400", Absolute), not the
    # blinds: the small bet is the big blind's nominal size, whatever a short all-in big blind posts
    limit_stakes_are_bets: bool = False
    # a tournament whose name matches this pattern puts every stack all-in before the cards without
    # printing it (Cake's "Coin Flip" tournaments: seats, hole cards, board and the winner's "wins
    # 3 000", no post and no action line).  A hand of it that prints no post and no action, whose
    # seats all start with the same stack, is read with each whole stack as a derived all-in ante
    all_in_before_cards: str | None = None
    # a converter that cannot place the button on an empty seat (a dead button) prints DEALER on the
    # small blind's seat instead (PokerTracker's Merge conversions: "Seat 9: Player3 ($42.44 in chips)
    # DEALER", then "Player3: Post SB $0.50", with eight players): in a hand of three or more players
    # whose DEALER posts the small blind the button's seat is not known, and is read as unset
    dead_button_printed_on_small_blind: bool = False
    # generations of one export told apart by the hand's date: ((since, until, ((fact, value), ..)), ..),
    # year-months, since inclusive and until exclusive (either may be empty); a card writes them
    # ``eras = [{ until = "2012-01", wagers_as_street_total = true }]``.  The facts of a hand are the
    # card's with the overrides of every era its date falls in (see :meth:`at`)
    eras: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = ()
    # after a hand dealt with no small blind (a dead small blind: the player due to post it left),
    # the next hand prints the button on the same seat again (Everleaf, 888): under the dead-button
    # rule the button belongs on the seat of the departed small blind, and the site prints the last
    # live button instead while the blinds move on
    button_stays_after_dead_small_blind: bool = False

    @classmethod
    def from_mapping(cls, data: dict[str, Any], base: ExportFacts | None = None) -> ExportFacts:
        """Facts from a format card's ``[facts]`` table, on top of ``base``; unknown keys are errors."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown export facts {unknown}; known: {sorted(known)}")
        src = base or cls()  # once, not once per field (start-up: 39 cards)
        values = {f.name: getattr(src, f.name) for f in fields(cls)}
        values.update(data)
        if "eras" in data:
            values["eras"] = tuple(_era(e, known) for e in data["eras"])
        return cls(**values)

    def at(self, date: object) -> ExportFacts:
        """The facts of a hand printed on ``date`` (its eras applied; unchanged without a date)."""
        if not self.eras:
            return self
        month = month_of(date)
        if month is None:
            return self
        over: dict[str, Any] = {}
        for since, until, values in self.eras:
            if (not since or month >= since) and (not until or month < until):
                over.update(values)
        return replace(self, **over) if over else self

    def for_hand(self, hand: Any) -> ExportFacts:
        """The facts of one hand: a walk with no printed return is judged as a silent-return export;
        the facts of the hand's era (by its date)."""
        self = self.at(getattr(hand, "start_time", None))
        if not self.silent_returns_in_walks or not self.prints_uncalled:
            return self
        from auditor import model as M

        for e in hand.events:
            if isinstance(e, M.UncalledReturn) or (isinstance(e, M.Action) and e.kind != "fold"):
                return self
        return replace(self, prints_uncalled=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (format cards are pickled in the disk cache; a compiled frozen class refuses unpickling by
        # setting attributes)
        return by_fields(self)

    def described(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def month_of(date: object) -> str | None:
    """A printed date's year-month ("2011-11") when it starts with the year, else None."""
    m = re.match(r"\s*(\d{4})[/.-](\d{1,2})", str(date or ""))
    return f"{m[1]}-{int(m[2]):02d}" if m else None


def _era(data: dict[str, Any], known: set[str]) -> tuple[str, str, tuple[tuple[str, Any], ...]]:
    """One ``eras`` entry of a card: its bounds and its fact overrides (checked like ``[facts]``)."""
    values = {k: v for k, v in data.items() if k not in ("since", "until")}
    unknown = sorted(set(values) - known | ({"eras"} & set(values)))
    if unknown:
        raise ValueError(f"unknown export facts {unknown} in an era; known: {sorted(known - {'eras'})}")
    for bound in ("since", "until"):
        if bound in data and not re.fullmatch(r"\d{4}-\d\d", str(data[bound])):
            raise ValueError(f"an era's {bound} is a year-month like 2012-01, not {data[bound]!r}")
    return str(data.get("since", "")), str(data.get("until", "")), tuple(sorted(values.items()))
