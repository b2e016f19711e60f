"""The betting replay of seven-card stud, stud hi/lo and razz (fixed limit).

It reuses the state machine of :mod:`auditor.replay.betting` (the same ``Step`` facts, so the same
B-codes judge it) and changes only what stud does differently:

* antes are dead, the **bring-in** is a live forced bet of less than the small bet, made by the
  lowest upcard on third street (razz: the highest, aces low), suits breaking ties in the site's
  order (clubs, diamonds, hearts, spades); action starts left of the bring-in;
* the bring-in is not the opening bet: the first full wager is the **completion** to the small bet,
  and fixed-limit raise caps count from it;
* from fourth street the **best showing hand** acts first (razz: the lowest), clockwise after it;
* the small bet on third and fourth street, the big bet from fifth; in stud high an **open pair**
  on fourth street lets a player bet the big bet, or raise a small bet by the big bet (a profile
  option: ``stud_open_pair``).

Upcards come from the ``Dealt to`` lines.  Where an export does not print what decides the order
(a folded or hidden upcard, or two showing hands that tie), the first actor the site printed on
the street is taken as the start and only the order after it is judged: what cannot be known is
not flagged.
"""

from __future__ import annotations

from auditor import model as M
from auditor.formats.facts import ExportFacts
from auditor.profiles import Profile
from auditor.replay.betting import Player
from auditor.replay.cards import known, norm
from auditor.replay.limits import CompletionMixin

STUD_GAMES = frozenset({"stud", "stud_hilo", "razz"})
#: a stud street's number (OnGame prints third street as the pocket cards: "preflop"; PokerStars
#: prints seventh street as the "RIVER")
STREET_NUMBER: dict[str, int] = {
    "preflop": 3,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "river": 7,
}
#: the suit order of the bring-in and of the stud odd chip: clubs lowest, spades highest
SUIT_ORDER = {"c": 0, "d": 1, "h": 2, "s": 3}
_HIGH_RANK = {r: i for i, r in enumerate("23456789TJQKA", start=2)}
_LOW_RANK = {**_HIGH_RANK, "A": 1}  # razz: aces are low


def card_value(card: str, aces_low: bool = False) -> tuple[int, int]:
    """(rank, suit) of a card, for the bring-in and the odd chip: greater is higher."""
    c = norm(card)
    return ((_LOW_RANK if aces_low else _HIGH_RANK)[c[0]], SUIT_ORDER[c[1]])


def showing_key(cards: tuple[str, ...], aces_low: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A key of the hand showing on the board (up to four cards): groups first (quads, trips, two
    pair, pair), then ranks, greater is a higher hand.  Straights and flushes do not count before
    the fifth card, and no more than four cards ever show."""
    ranks = _LOW_RANK if aces_low else _HIGH_RANK
    counts: dict[int, int] = {}
    for c in cards:
        r = ranks[norm(c)[0]]
        counts[r] = counts.get(r, 0) + 1
    # (count, rank) pairs, greatest first: the larger group first, then the higher rank (no two
    # pairs tie: a rank is counted once)
    groups = sorted([(n, r) for r, n in counts.items()], reverse=True)
    return tuple([n for n, _ in groups]), tuple([r for _, r in groups])


def upcards_by_street(hand: M.Hand) -> dict[int, dict[str, tuple[str, ...] | None]]:
    """For streets 3..6: each dealt player's upcards after that street's deal (None: not known).

    Third street deals two down and one up: the upcard is the last card of the line (the only one
    printed for an opponent).  Fourth to sixth street deal one card up: the new card.  Seventh
    street is dealt down.
    """
    out: dict[int, dict[str, tuple[str, ...] | None]] = {}
    up: dict[str, tuple[str, ...] | None] = {}
    for e in hand.events:
        if not isinstance(e, M.HoleCards):
            continue
        n = STREET_NUMBER.get(e.street)
        if n is None or n > 6:
            continue
        new = e.new_cards or e.cards[-1:]
        card = new[-1:] if len(new) >= 1 else ()
        if n == 3:
            cards = e.cards + e.new_cards
            card = cards[-1:] if len(cards) in (1, 3) else ()
        prev = up.get(e.player, ()) if n > 3 else ()
        if prev is None or not card or not known(card):
            up[e.player] = None
        else:
            up[e.player] = prev + card
        out.setdefault(n, {})[e.player] = up[e.player]
    return out


class StudReplay(CompletionMixin):  # (a Replay: one base, as a compiled class needs)
    """The stud betting replay (see the module docstring)."""

    def __init__(self, hand: M.Hand, profile: Profile, facts: ExportFacts) -> None:
        super().__init__(hand, profile, facts)
        self.razz = hand.game == "razz"
        self.betting = hand.structure == "FL"
        self.trace.betting = self.betting
        self.small_bet, self.big_bet = self._limits()
        # no limits known: no fixed-limit size (B009) can be judged; the rest of the facts stand
        self.fl_sized = self.fl and self.small_bet != 0
        self.bb = self.small_bet
        self.trace.big_blind = self.small_bet
        self.min_inc = self.small_bet
        self.up = upcards_by_street(hand)
        self.big_round = False  # fourth street opened with the big bet over an open pair
        self.event: M.Action | None = None
        self.open_pair_option = profile.stud_open_pair == "stud_high" and hand.game == "stud"

    def _limits(self) -> tuple[int, int]:
        h = self.h
        small = h.small_blind or 0
        big = h.big_blind or 0
        if small and big and big >= small:
            return small, big
        if small or big:
            return small or big, 2 * (small or big)
        return 0, 0  # the export does not print the limits: sizes are not judged, the order is

    # ------------------------------------------------------------------ who acts first
    def bring_in_candidates(self) -> list[Player] | None:
        """The players who should bring in: the lowest upcard (razz: highest), suits breaking ties;
        None when a dealt player's upcard is not known."""
        third = self.up.get(3, {})
        dealt = [pl for pl in self.order if not pl.folded]
        if not dealt or any(third.get(pl.name) is None for pl in dealt):
            return None
        vals = {pl.name: card_value((third[pl.name] or ("",))[0], self.razz) for pl in dealt}
        pick = max(vals.values()) if self.razz else min(vals.values())
        return [pl for pl in dealt if vals[pl.name] == pick]

    def first_on_street(self, n: int) -> list[Player] | None:
        """Fourth street on: the best showing hand(s) among players still in (razz: lowest)."""
        showing = self.up.get(n, {})
        alive = [pl for pl in self.order if not pl.folded]
        keys = {}
        for pl in alive:
            cards = showing.get(pl.name)
            if cards is None:
                return None
            keys[pl.name] = showing_key(cards, self.razz)
        if not keys:
            return None
        # razz: the lowest hand showing (unpaired beats paired, then the lowest ranks)
        best = min(keys.values()) if self.razz else max(keys.values())
        return [pl for pl in alive if keys[pl.name] == best]

    def _anchor_before(self, pl: Player) -> None:
        idx = next(k for k, q in enumerate(self.order) if q is pl)  # (by identity: no field-by-field ``==``)
        self.anchor_seat = float(self.order[idx - 1].seat if len(self.order) > 1 else pl.seat - 1)  # (float: mypyc)

    def _anchor_from(self, candidates: list[Player] | None) -> None:
        """Start the round at the candidate (one), or at the printed first actor when the rules
        leave several candidates or the cards do not say."""
        printed = self.players.get(self.event.player) if self.event is not None else None
        if candidates and len(candidates) == 1:
            self._anchor_before(candidates[0])
        elif printed is not None and printed.seated and (candidates is None or printed in candidates):
            self._anchor_before(printed)
        elif candidates:
            self._anchor_before(candidates[0])

    # ------------------------------------------------------------------ rounds
    def _start_preflop(self) -> None:
        """Third street: the bring-in (if any) is the level to call; the completion is the bet."""
        self.started = True
        self.current_bet = max((pl.street_bet for pl in self.players.values()), default=0)
        self.min_inc = self.small_bet
        self.full_level = 0
        self.raises = 0
        self.round_players = self.count_active()
        bring = next((e for e in self.trace.of(M.Post) if e.kind == "bring_in"), None)
        if bring is not None and bring.player in self.players and self.players[bring.player].seated:
            # action starts left of the bring-in, whoever posted it (a wrong bring-in is B012's finding)
            self.anchor_seat = float(self.players[bring.player].seat)
        else:
            self._anchor_from(self.bring_in_candidates())

    def _start_street(self, street: M.Street) -> None:
        super()._start_street(street)
        self.big_round = False
        n = STREET_NUMBER.get(street)
        if n is not None and n >= 4:
            self._anchor_from(self.first_on_street(min(n, 6)))

    def on_action(self, i: int, e: M.Action) -> None:
        self.event = e if e.street != self.street or not self.started else self.event
        if (self.open_pair_option and STREET_NUMBER.get(e.street) == 4 and e.kind == "bet"
                and e.to == self.big_bet and self._open_pair()):  # fmt: skip
            if e.street != self.street:
                self._start_street(e.street)
            self.big_round = True
        elif (self.open_pair_option and STREET_NUMBER.get(e.street) == 4 and e.kind == "raise"
              and e.street == self.street and not self.big_round and self.current_bet == self.small_bet
              and e.to == self.small_bet + self.big_bet and self._open_pair()):  # fmt: skip
            # a small bet over an open pair raised by the big bet: the option is the raiser's too
            # (Robert's Rules of Poker, seven-card stud), and the round is played in big bets from here
            self.big_round = True
        super().on_action(i, e)

    def _open_pair(self) -> bool:
        """A player still in shows a pair on fourth street, or a player's upcards are not printed
        (PartyPoker prints only the hero's): the big bet cannot be ruled out."""
        showing = self.up.get(4, {})
        for pl in self.order:
            if pl.folded:
                continue
            cards = showing.get(pl.name)
            if cards is None or len(cards) != 2 or norm(cards[0])[0] == norm(cards[1])[0]:
                return True
        return False

    # ------------------------------------------------------------------ sizes
    def fl_bet_size(self) -> int:
        n = STREET_NUMBER.get(self.street, 3)
        return self.big_bet if n >= 5 or self.big_round else self.small_bet

    def fl_expected_to(self) -> int:
        if self.full_level == 0 and self.current_bet > 0:
            # only the bring-in is in: the next wager completes it to the small bet
            return self.fl_bet_size()
        return super().fl_expected_to()


def bring_in_due(hand: M.Hand, players: dict[str, Player]) -> str | None:
    """Who should have brought in: the lowest upcard on third street (razz: the highest), suits
    breaking ties; None when a dealt player's upcard is not printed, or the player due is all-in
    from the ante (then the next card brings in: not judged)."""
    third = upcards_by_street(hand).get(3, {})
    dealt = {n for n, pl in players.items() if pl.seated} & {
        e.player for e in hand.events if isinstance(e, M.Post | M.Action) and STREET_NUMBER.get(e.street) == 3
    }
    if not third or any(third.get(n) is None for n in dealt):
        return None  # an upcard of a player dealt in is not printed (PartyPoker prints the hero's only)
    razz = hand.game == "razz"
    vals = {n: card_value((v or ("",))[0], razz) for n, v in third.items() if n in dealt}
    if not vals:
        return None
    pick = max(vals.values()) if razz else min(vals.values())
    due = next(n for n, v in vals.items() if v == pick)
    antes = {e.player: e for e in hand.events if isinstance(e, M.Post) and e.kind == "ante"}
    pl = players.get(due)
    if pl is None or (due in antes and (antes[due].all_in or antes[due].amount >= pl.stack0)):
        return None
    return due
