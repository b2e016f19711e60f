"""H-codes: the structure of the hand itself — unique ids, a deck without duplicates, a sane table."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding, HandKind, Severity, rule
from auditor.handprint import first_difference, prints
from auditor.replay.betting import Trace
from auditor.replay.cards import HOLE_CARDS
from auditor.rules.common import NOTHING, card_events, flag
from auditor.seenstore import SeenStore

_NO_DECK_CHECK = frozenset({"draw", "other"})
#: Events that name a player's cards (H004), and those or a board (H002).
_HOLDINGS: frozenset[type] = frozenset({M.HoleCards, M.Show, M.Muck, M.SeatResult})
_DEALS: frozenset[type] = _HOLDINGS | {M.Board}


def _deals_hole_cards(k: HandKind) -> bool:
    """H004 judges the games whose number of hole cards is fixed."""
    return k.game in HOLE_CARDS


@rule("H001", "duplicate-hand-id", Severity.ERROR, stage="run")
def h001() -> None:
    """Two different records under the same hand id in the audited input.

    A site's hand ids are unique; a second record with the same id (and site) whose text differs
    from the first is a forged or corrupted record, or two exports that disagree about one hand.
    Reported on the second occurrence, naming the first and the first line where they differ.  A
    byte-identical copy of a hand (two exports that overlap) is not this finding but H005.

    Example: two files both holding PokerStars hand #250000000001, one of them with a different
    ``Total pot`` line.
    """


@rule("H005", "duplicate-copy", Severity.INFO, stage="run")
def h005() -> None:
    """An identical copy of a hand already read: reported once, not audited or judged again.

    Exports overlap (a session exported twice, a folder holding a day and the whole month), so the
    same hand, line for line, reaches the auditor twice.  That is harmless: the copy is named with
    the place of the first and skipped, so its findings are not counted twice.  A record that
    differs from the first under the same id is H001.

    Example: ``day.txt`` and ``month.txt`` both holding PokerStars hand #250000000001 unchanged.
    """


def fingerprint(lines: Sequence[str]) -> bytes:
    """A compact fingerprint of a hand's text (:func:`auditor.handprint.prints`): a digest of the
    whole text, then 4 bytes per line (a CRC of the line, not its text), so that a second record
    under the same id can be told from a copy and the first differing line found, without keeping
    hands' text across a run."""
    return prints(lines)


class DuplicateIds:
    """Remembers (site, hand id) → (path, first line, fingerprint) across an audit run, in bounded
    memory: the first 10,000 hands in a dict, every later one in a temporary database on disk
    (:class:`~auditor.seenstore.SeenStore`)."""

    def __init__(self, seen: SeenStore | None = None) -> None:
        self.seen = seen if seen is not None else SeenStore()

    def copy_of(self, hand: M.Hand, lines: Sequence[str], fp: bytes | None = None) -> Finding | None:
        """The H005 finding when ``hand`` is an identical copy of a hand already seen, else None
        (and the hand is remembered when it is the first with its id).  ``fp``: the lines'
        :func:`fingerprint`, when the caller made it already."""
        key = (hand.site, hand.hand_id)
        first = self.seen.get(key)
        fp = fingerprint(lines) if fp is None else fp
        if first is None:
            self.seen[key] = (hand.path, hand.first_line, fp)
            return None
        if first[2] != fp:
            return None
        return F.make("H005", hand.path, hand.first_line, 1,
                      f"hand {hand.hand_id} is an identical copy of the hand at {first[0]}:{first[1]}: "
                      "not audited again", site=hand.site, hand_id=hand.hand_id,
                      first_path=first[0], first_line=first[1])  # fmt: skip

    def check(
        self, hand: M.Hand, t: Trace, lines: Sequence[str] | None = None, fp: bytes | None = None
    ) -> Iterator[Finding]:
        """H001 when another record with the hand's id, different from it, was seen before
        (``fp``: the :func:`fingerprint` of ``lines``, when the caller made it already)."""
        key = (hand.site, hand.hand_id)
        if fp is None:
            fp = fingerprint(lines) if lines is not None else b""
        first = self.seen.get(key)
        if first is None:
            self.seen[key] = (hand.path, hand.first_line, fp)
            return
        if first[1] == hand.first_line and first[0] == hand.path:
            return  # the hand itself, remembered by copy_of
        where = ""
        data: dict[str, Any] = {}
        if lines is not None and first[2]:
            n = first_difference(fp, first[2])
            text = lines[n] if n < len(lines) else "(the hand ends here)"
            where = (f"; they differ first at line {hand.first_line + n} ({text[:100]!r}), "
                     f"line {first[1] + n} of the first")  # fmt: skip
            data = {"differs_at": hand.first_line + n, "first_differs_at": first[1] + n, "text": text[:200]}
        msg = f"hand id {hand.hand_id} already appeared at {first[0]}:{first[1]} with a different record{where}"
        yield flag(t, "H001", hand.first_line, 1, msg, first_path=first[0], first_line=first[1], **data)


@rule("H002", "duplicate-card", Severity.ERROR, stage="hand", applies=lambda k: k.game not in _NO_DECK_CHECK)
def h002(t: Trace) -> Sequence[Finding]:
    """A card dealt twice in one hand.

    One deck: no card may appear in two players' hands, or in a hand and on the board, or twice on
    the boards (each extra board of a run-it-twice is dealt from the rest of the same deck).
    Draw games are not checked (discards may be reshuffled).

    Example: Dealt to Ann [Ah Kd] ... *** FLOP *** [Ah 7c 2d].
    """
    h = t.hand
    if h.game in _NO_DECK_CHECK:
        return NOTHING
    out: list[Finding] | None = None
    # Cards not known ("xx", or shorter than a card) are never owned.  They are recorded like the
    # others here and passed over only when they would clash: the test is made on a clash, not per card.
    owner: dict[str, str] = {}
    boards: dict[int, set[str]] = {}
    for e in card_events(t):
        if isinstance(e, M.Board):
            seen = boards.get(e.run)
            if seen is None:
                seen = boards[e.run] = set()
            # a flop printed whole after a card shown pre-flop (Courchevel) re-prints that card
            if e.board_before or seen.isdisjoint(e.cards):
                cards = e.cards
            else:
                cards = tuple(c for c in e.cards if c not in seen)
            who = "the board"
            seen.update(e.cards)
        elif isinstance(e, M.HoleCards) and e.new_cards:
            cards, who = e.cards + e.new_cards, e.player
        else:
            cards, who = e.cards, e.player
        for c in cards:
            prev = owner.get(c)
            if prev is None:
                owner[c] = who
            elif (prev != who or who == "the board") and not ("x" in c or "X" in c or len(c) < 2):
                if out is None:
                    out = []
                out.append(flag(t, "H002", e.line, e.col,
                                f"{c} is dealt to {who} but was already dealt to {prev}", card=c))  # fmt: skip
    return out or NOTHING


@rule("H004", "wrong-number-of-hole-cards", Severity.ERROR, stage="hand", applies=_deals_hole_cards)
def h004(t: Trace) -> Sequence[Finding]:
    """A player dealt, shown or mucked more hole cards than the game deals.

    Hold'em and short deck deal two hole cards, Omaha four, five-card Omaha and Courchevel five,
    six-card Omaha six.  A record with more is corrupt; the hand is not evaluated for that player
    (cards speak only for a legal hand).  Games with other deals (stud, draw) are not checked here.

    Example: Hold'em, ``Ann: shows [Kd Ks Qd Qs 3c 4c]``.
    """
    h = t.hand
    want = HOLE_CARDS.get(h.game)
    if want is None:
        return NOTHING
    out: list[Finding] | None = None
    reported: set[str] = set()
    for e in card_events(t):
        if isinstance(e, M.Board):
            continue
        cards = e.cards + e.new_cards if isinstance(e, M.HoleCards) else e.cards
        if len(cards) > want and e.player not in reported:
            reported.add(e.player)
            game = h.game_text or h.game
            if out is None:
                out = []
            out.append(flag(t, "H004", e.line, e.col, f"{e.player} has {len(cards)} hole cards ({' '.join(cards)}); "
                            f"{game} deals {want}", player=e.player, expected=want, actual=len(cards)))  # fmt: skip
    return out or NOTHING


@rule("H003", "inconsistent-table", Severity.ERROR, stage="hand")
def h003(t: Trace) -> Sequence[Finding]:
    """The table described by the hand is inconsistent.

    Two players in one seat, one player in two seats, a seat number above the table size, the
    button on an empty seat at a cash table (tournaments use a dead button), or a player who posts
    or acts without a seat.

    Example: Seat 3: Ann ... Seat 3: Bob.
    """
    h = t.hand
    out: list[Finding] = []
    seats: dict[int, str] = {}
    names: dict[str, int] = {}
    top = h.max_seats if h.max_seats and not t.facts.spread_seat_numbers else 0
    for s in h.seats:
        seat, player = s.seat, s.player
        if seat in seats:
            out.append(flag(t, "H003", s.line, 1, f"seat {seat} holds both {seats[seat]} and {player}"))
            if player not in names:
                names[player] = seat
        elif player in names:
            out.append(flag(t, "H003", s.line, 1, f"{player} sits in seats {names[player]} and {seat}"))
            seats[seat] = player
        else:  # (the first to sit in a seat, and a player's first seat, are kept)
            seats[seat] = player
            names[player] = seat
        if top and seat > top:
            out.append(flag(t, "H003", s.line, 1, f"seat {s.seat} is beyond the {h.max_seats}-max table"))
    if (
        h.button is not None
        and seats
        and h.button not in seats
        and not h.is_tournament
        and not t.profile.dead_button_cash
    ):
        out.append(flag(t, "H003", h.first_line + 1, 1, f"the button is on empty seat {h.button}"))
    reported: set[str] = set()
    for st in t.steps:
        if not st.actor_seated and st.event.player not in reported:
            reported.add(st.event.player)
            e = st.event
            out.append(flag(t, "H003", e.line, e.col, f"{e.player} wagers without a seat at the table"))
    return out
