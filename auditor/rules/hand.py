"""H-codes: the structure of the hand itself — unique ids, a deck without duplicates, a sane table."""

from __future__ import annotations

from collections.abc import Iterator

from auditor import model as M
from auditor.findings import Finding, Severity, rule
from auditor.replay.betting import Trace
from auditor.replay.cards import HOLE_CARDS
from auditor.rules.common import flag

_NO_DECK_CHECK = frozenset({"draw", "other"})


@rule("H001", "duplicate-hand-id", Severity.ERROR, stage="run")
def h001() -> None:
    """The same hand id appears twice in the audited input.

    A site's hand ids are unique; a second hand with the same id (and site) means a duplicated
    export or a forged record.  Reported on the second occurrence, naming the first.  Identical
    repeated copies are reported too: audits count each hand once.

    Example: two files of one export folder both holding PokerStars hand #250000000001.
    """


class DuplicateIds:
    """Remembers (site, hand id) across an audit run; memory grows with the number of hands."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], tuple[str, int]] = {}

    def check(self, hand: M.Hand, t: Trace) -> Iterator[Finding]:
        key = (hand.site, hand.hand_id)
        first = self.seen.get(key)
        if first is None:
            self.seen[key] = (hand.path, hand.first_line)
            return
        yield flag(t, "H001", hand.first_line, 1,
                      f"hand id {hand.hand_id} already appeared at {first[0]}:{first[1]}",
                      first_path=first[0], first_line=first[1])  # fmt: skip


@rule("H002", "duplicate-card", Severity.ERROR, stage="hand")
def h002(t: Trace) -> Iterator[Finding]:
    """A card dealt twice in one hand.

    One deck: no card may appear in two players' hands, or in a hand and on the board, or twice on
    the boards (each extra board of a run-it-twice is dealt from the rest of the same deck).
    Draw games are not checked (discards may be reshuffled).

    Example: Dealt to Ann [Ah Kd] ... *** FLOP *** [Ah 7c 2d].
    """
    h = t.hand
    if h.game in _NO_DECK_CHECK:
        return
    owner: dict[str, str] = {}
    boards: dict[int, set[str]] = {}
    for e in h.events:
        cards: tuple[str, ...] = ()
        who = ""
        if isinstance(e, M.HoleCards):
            cards, who = e.cards + e.new_cards, e.player
        elif isinstance(e, M.Show | M.Muck | M.SeatResult):
            cards, who = e.cards, e.player
        elif isinstance(e, M.Board):
            seen = boards.setdefault(e.run, set())
            # a flop printed whole after a card shown pre-flop (Courchevel) re-prints that card
            cards = tuple(c for c in e.cards if e.board_before or c not in seen)
            who = "the board"
            seen.update(e.cards)
        for c in cards:
            if "x" in c.lower() or len(c) < 2:
                continue
            prev = owner.get(c)
            if prev is None:
                owner[c] = who
            elif prev != who or who == "the board":
                yield flag(t, "H002", e.line, e.col,
                              f"{c} is dealt to {who} but was already dealt to {prev}", card=c)  # fmt: skip


@rule("H004", "wrong-number-of-hole-cards", Severity.ERROR, stage="hand")
def h004(t: Trace) -> Iterator[Finding]:
    """A player dealt, shown or mucked more hole cards than the game deals.

    Hold'em and short deck deal two hole cards, Omaha four, five-card Omaha and Courchevel five,
    six-card Omaha six.  A record with more is corrupt; the hand is not evaluated for that player
    (cards speak only for a legal hand).  Games with other deals (stud, draw) are not checked here.

    Example: Hold'em, ``Ann: shows [Kd Ks Qd Qs 3c 4c]``.
    """
    h = t.hand
    want = HOLE_CARDS.get(h.game)
    if want is None:
        return
    reported: set[str] = set()
    for e in h.events:
        if isinstance(e, M.HoleCards):
            cards = e.cards + e.new_cards
        elif isinstance(e, M.Show | M.Muck | M.SeatResult):
            cards = e.cards
        else:
            continue
        if len(cards) > want and e.player not in reported:
            reported.add(e.player)
            game = h.game_text or h.game
            yield flag(t, "H004", e.line, e.col, f"{e.player} has {len(cards)} hole cards ({' '.join(cards)}); "
                       f"{game} deals {want}", player=e.player, expected=want, actual=len(cards))  # fmt: skip


@rule("H003", "inconsistent-table", Severity.ERROR, stage="hand")
def h003(t: Trace) -> Iterator[Finding]:
    """The table described by the hand is inconsistent.

    Two players in one seat, one player in two seats, a seat number above the table size, the
    button on an empty seat at a cash table (tournaments use a dead button), or a player who posts
    or acts without a seat.

    Example: Seat 3: Ann ... Seat 3: Bob.
    """
    h = t.hand
    seats: dict[int, str] = {}
    names: dict[str, int] = {}
    for s in h.seats:
        if s.seat in seats:
            yield flag(t, "H003", s.line, 1, f"seat {s.seat} holds both {seats[s.seat]} and {s.player}")
        elif s.player in names:
            yield flag(t, "H003", s.line, 1, f"{s.player} sits in seats {names[s.player]} and {s.seat}")
        seats.setdefault(s.seat, s.player)
        names.setdefault(s.player, s.seat)
        if h.max_seats and s.seat > h.max_seats:
            yield flag(t, "H003", s.line, 1, f"seat {s.seat} is beyond the {h.max_seats}-max table")
    if (
        h.button is not None
        and seats
        and h.button not in seats
        and not h.is_tournament
        and not t.profile.dead_button_cash
    ):
        yield flag(t, "H003", h.first_line + 1, 1, f"the button is on empty seat {h.button}")
    reported: set[str] = set()
    for st in t.steps:
        if not st.actor_seated and st.event.player not in reported:
            reported.add(st.event.player)
            e = st.event
            yield flag(t, "H003", e.line, e.col, f"{e.player} wagers without a seat at the table")
