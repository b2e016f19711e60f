"""H-codes: the structure of the hand itself — unique ids, a deck without duplicates, a sane table."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from auditor import findings as F
from auditor.findings import Finding, HandKind, Severity, rule
from auditor.handprint import first_difference, prints
from auditor.model import Board, Hand, HoleCards, Muck, SeatResult, Show
from auditor.replay.betting import Trace
from auditor.replay.cards import HOLE_CARDS
from auditor.rules.betting import walk, walked
from auditor.rules.common import NOTHING, flag
from auditor.seenstore import First, SeenStore

_NO_DECK_CHECK: Final = frozenset({"draw", "other"})
#: The events that name a player's cards (H002, H004).
_HOLDINGS: Final[frozenset[type]] = frozenset({HoleCards, Show, Muck, SeatResult})
_HOLDING_TYPES: Final[tuple[type[HoleCards] | type[Show] | type[Muck] | type[SeatResult], ...]] = (
    HoleCards, Show, Muck, SeatResult)  # fmt: skip
_NONE: Final[tuple[Any, ...]] = ()  # (a hand's events of a type it has none of)


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

    def first_of(self, hand: Hand, fp: bytes) -> First | None:
        """The first record seen under the hand's id (its site's), or None: then the hand is that
        first record, remembered with its fingerprint ``fp``.  One lookup a hand (on disk, past
        the first 10,000 hands, a query of the database): :meth:`copy` and :meth:`differs` judge
        its answer."""
        key = (hand.site, hand.hand_id)
        first = self.seen.get(key)
        if first is None:
            self.seen[key] = (hand.path, hand.first_line, fp)
        return first

    def copy_of(self, hand: Hand, lines: Sequence[str], fp: bytes | None = None) -> Finding | None:
        """The H005 finding when ``hand`` is an identical copy of a hand already seen, else None
        (and the hand is remembered when it is the first with its id).  ``fp``: the lines'
        :func:`fingerprint`, when the caller made it already."""
        fp = fingerprint(lines) if fp is None else fp
        first = self.first_of(hand, fp)
        return None if first is None else self.copy(hand, fp, first)

    @staticmethod
    def copy(hand: Hand, fp: bytes, first: First) -> Finding | None:
        """H005 when the record ``first`` (:meth:`first_of`) is the same text as ``hand``'s (the
        same fingerprint ``fp``), else None."""
        if first[2] != fp:
            return None
        return F.make("H005", hand.path, hand.first_line, 1,
                      f"hand {hand.hand_id} is an identical copy of the hand at {first[0]}:{first[1]}: "
                      "not audited again", site=hand.site, hand_id=hand.hand_id,
                      first_path=first[0], first_line=first[1])  # fmt: skip

    def check(
        self, hand: Hand, t: Trace, lines: Sequence[str] | None = None, fp: bytes | None = None
    ) -> Iterator[Finding]:
        """H001 when another record with the hand's id, different from it, was seen before
        (``fp``: the :func:`fingerprint` of ``lines``, when the caller made it already)."""
        if fp is None:
            fp = fingerprint(lines) if lines is not None else b""
        first = self.first_of(hand, fp)
        if first is not None:
            yield from self.differs(hand, t, first, lines, fp)

    @staticmethod
    def differs(
        hand: Hand, t: Trace, first: First, lines: Sequence[str] | None = None, fp: bytes = b""
    ) -> list[Finding]:
        """H001 on ``hand`` (its trace ``t``; ``lines`` and their fingerprint ``fp``, when known),
        whose id was seen first as the record ``first`` (:meth:`first_of`), not a copy of it:
        where the two first differ.  Nothing when ``first`` is the hand itself."""
        if first[1] == hand.first_line and first[0] == hand.path:
            return []  # the hand itself, remembered by copy_of
        where = ""
        data: dict[str, Any] = {}
        if lines is not None and first[2]:
            n = first_difference(fp, first[2])
            text = lines[n] if n < len(lines) else "(the hand ends here)"
            where = (f"; they differ first at line {hand.first_line + n} ({text[:100]!r}), "
                     f"line {first[1] + n} of the first")  # fmt: skip
            data = {"differs_at": hand.first_line + n, "first_differs_at": first[1] + n, "text": text[:200]}
        msg = f"hand id {hand.hand_id} already appeared at {first[0]}:{first[1]} with a different record{where}"
        return [flag(t, "H001", hand.first_line, 1, msg, first_path=first[0], first_line=first[1], **data)]


def dealt(t: Trace) -> list[Finding]:
    """H002 and H004 together: the cards each event deals, shows or mucks (its owner's), and the
    boards'.  The registered checks are views of it (:func:`_dealt_view`); the audit step calls it
    once per hand as their group.

    First a pass over the replay's index of the card events by type (``Trace.by_type``: about a
    third of a hand's events), which can only tell that nothing is found: no card with two owners
    or twice on the boards, and no hand of more hole cards than the game deals, whatever the order
    of the events.  Otherwise (a finding, or a card unknown on two owners) the findings are those
    of :func:`dealt_in_order` (``tests/test_rule_fastpaths.py`` compares the two on every hand)."""
    h = t.hand
    deck = h.game not in _NO_DECK_CHECK  # (H002)
    want = HOLE_CARDS.get(h.game)  # (H004)
    if not deck and want is None:
        return []
    by = t.by_type
    owner: dict[str, str] = {}
    if deck:
        boards: dict[int, set[str]] = {}
        for b in by.get(Board, _NONE):  # (in record order among themselves: the re-print test reads it)
            seen = boards.get(b.run)
            if seen is None:
                seen = boards[b.run] = set()
            cards = b.cards if b.board_before or seen.isdisjoint(b.cards) else [c for c in b.cards if c not in seen]
            seen.update(b.cards)
            for c in cards:
                if c in owner:
                    return dealt_in_order(t)
                owner[c] = "the board"
    for ty in _HOLDING_TYPES:
        for e in by.get(ty, _NONE):
            cards = e.cards
            if ty is HoleCards and e.new_cards:
                cards = cards + e.new_cards
            if not cards:
                continue
            if want is not None and len(cards) > want:
                return dealt_in_order(t)
            if deck:
                who = e.player
                for c in cards:
                    prev = owner.get(c)
                    if prev is None:
                        owner[c] = who
                    elif prev != who or who == "the board":
                        return dealt_in_order(t)
    return []


def dealt_in_order(t: Trace) -> list[Finding]:
    """H002 and H004 in one pass over the hand's events, in record order (:func:`dealt`'s findings)."""
    h = t.hand
    deck = h.game not in _NO_DECK_CHECK  # (H002)
    want = HOLE_CARDS.get(h.game)  # (H004)
    out: list[Finding] = []
    if not deck and want is None:
        return out
    # Cards not known ("xx", or shorter than a card) are never owned.  They are recorded like the
    # others here and passed over only when they would clash: the test is made on a clash, not per card.
    owner: dict[str, str] = {}
    boards: dict[int, set[str]] = {}
    reported: set[str] = set()
    board_t, hole_t, holdings = Board, HoleCards, _HOLDINGS
    for e in h.events:  # (the model's event classes are final: a type test is an isinstance test)
        ty = type(e)
        if ty is board_t:
            assert isinstance(e, Board)
            if not deck:
                continue
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
        elif ty in holdings:
            cards = e.cards  # type: ignore[attr-defined]
            if ty is hole_t and e.new_cards:  # type: ignore[attr-defined]
                cards = cards + e.new_cards  # type: ignore[attr-defined]
            if not cards:
                continue
            who = e.player  # type: ignore[attr-defined]
            if want is not None and len(cards) > want and who not in reported:  # H004
                reported.add(who)
                out.append(flag(t, "H004", e.line, e.col, f"{who} has {len(cards)} hole cards ({' '.join(cards)}); "
                                f"{h.game_text or h.game} deals {want}", player=who, expected=want,
                                actual=len(cards)))  # fmt: skip
            if not deck:
                continue
        else:
            continue
        for c in cards:  # H002
            prev = owner.get(c)
            if prev is None:
                owner[c] = who
            elif (prev != who or who == "the board") and not ("x" in c or "X" in c or len(c) < 2):
                out.append(flag(t, "H002", e.line, e.col,
                                f"{c} is dealt to {who} but was already dealt to {prev}", card=c))  # fmt: skip
    return out


def _dealt_view(t: Trace, code: str) -> Sequence[Finding]:
    """The findings of one rule of :func:`dealt` (the pass is made once per hand, shared by them)."""
    got: list[Finding] | None = t.cache.get("dealt")
    if got is None:
        got = t.cache["dealt"] = dealt(t)
    return [f for f in got if f.code == code] if got else NOTHING


@rule("H002", "duplicate-card", Severity.ERROR, stage="hand", applies=lambda k: k.game not in _NO_DECK_CHECK,
      group=dealt)  # fmt: skip
def h002(t: Trace) -> Sequence[Finding]:
    """A card dealt twice in one hand.

    One deck: no card may appear in two players' hands, or in a hand and on the board, or twice on
    the boards (each extra board of a run-it-twice is dealt from the rest of the same deck).
    Draw games are not checked (discards may be reshuffled).

    Example: Dealt to Ann [Ah Kd] ... *** FLOP *** [Ah 7c 2d].
    """
    return _dealt_view(t, "H002")


@rule("H004", "wrong-number-of-hole-cards", Severity.ERROR, stage="hand", applies=_deals_hole_cards, group=dealt)
def h004(t: Trace) -> Sequence[Finding]:
    """A player dealt, shown or mucked more hole cards than the game deals.

    Hold'em and short deck deal two hole cards, Omaha four, five-card Omaha and Courchevel five,
    six-card Omaha six.  A record with more is corrupt; the hand is not evaluated for that player
    (cards speak only for a legal hand).  Games with other deals (stud, draw) are not checked here.

    Example: Hold'em, ``Ann: shows [Kd Ks Qd Qs 3c 4c]``.
    """
    return _dealt_view(t, "H004")


@rule("H003", "inconsistent-table", Severity.ERROR, stage="hand", group=walk)
def h003(t: Trace) -> Sequence[Finding]:
    """The table described by the hand is inconsistent.

    Two players in one seat, one player in two seats, a seat number above the table size, the
    button on an empty seat at a cash table (tournaments use a dead button), or a player who posts
    or acts without a seat.

    Example: Seat 3: Ann ... Seat 3: Bob.
    """
    return walked(t, "H003")
