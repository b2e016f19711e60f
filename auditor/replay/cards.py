"""Hand evaluation adapter: maintained evaluators, not a hand-written one.

* High hands of Hold'em and Omaha (4, 5 and 6 cards, Courchevel) use ``phevaluator`` (a perfect
  hash evaluator in C): Omaha takes exactly two hole cards and three board cards.  phevaluator is
  handed its integer card ids (:func:`card_ids`: phevaluator's own ``Card.to_id`` of every card,
  made once), not card strings it would parse again at every call; an Omaha hand of five or six
  hole cards is the best of phevaluator's Omaha ranks of each four of them (every two hole cards
  are among some four: the same best hand as every two with every three of the board).
* Eight-or-better lows and short deck (6+) use ``pokerkit``'s hand lookups (:func:`best_entry`:
  the lookup table of the hand type, asked about each five-card combination the hand type's
  ``from_game`` would try, the best kept).

pokerkit's tables (:func:`lookup`) are pokerkit's own objects, made once per pokerkit: importing
``pokerkit`` builds every hand type's table and its game state machine (~0.3 s of CPU, once per
process: a batch worker's first hi/lo hand paid it), so the table of a hand type is taken from
``pokerkit.hands`` the first time and kept pickled in hhaudit's cache directory
(:mod:`auditor.formats.cache`: atomic writes, the user's own files only, anything unreadable
rebuilt, read-only or turned off only costs the time), keyed by the bytes of pokerkit's
``hands.py``, ``lookups.py`` and ``utilities.py`` (what builds a table) and the Python version.
Loading one imports ``pokerkit.lookups`` and ``pokerkit.utilities`` only, not pokerkit's package
``__init__`` (:mod:`auditor.deferinit`): 0.2 ms (eight-or-better) to ~13 ms (a full five-card table).

Every function returns a *key*: an ``int`` where greater means a better hand (for lows: a better
low), comparable only with keys of the same game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

HILO_GAMES = frozenset({"omaha_hilo", "omaha5_hilo", "courchevel_hilo"})
OMAHA_GAMES = frozenset({"omaha", "omaha5", "omaha6", "courchevel", *HILO_GAMES})
EVALUATED_GAMES = frozenset({"holdem", "shortdeck", *OMAHA_GAMES})

# phevaluator ranks: 1 (royal flush) .. 7462 (7-5-4-3-2 high); category boundaries
_CATEGORIES = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "one pair"),
    (7462, "high card"),
)


def norm(card: str) -> str:
    """``10h`` → ``Th``; other cards as printed."""
    return "T" + card[2:] if card.startswith("10") else card


def norm_all(cards: Sequence[str]) -> tuple[str, ...]:
    """:func:`norm` of every card, as a tuple: the cards themselves when none needs it (every card
    of two characters: only a ten printed ``10h`` is longer), without a call per card."""
    out = tuple(cards)
    for c in out:
        if len(c) != 2:
            return tuple([norm(c) for c in out])
    return out


HOLE_CARDS = {"holdem": 2, "shortdeck": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5,
              "courchevel": 5, "courchevel_hilo": 5, "omaha6": 6}  # fmt: skip


RANKS = frozenset("23456789TJQKA")
SUITS = frozenset("shdc")


#: every real card as printed: rank and suit ("Th"), a ten also as "10h"
CARDS = frozenset({r + s for r in RANKS for s in SUITS} | {"10" + s for s in SUITS})


def known(cards: Sequence[str]) -> bool:
    """Every card is a real card (rank and suit known, a ten printed "10h" too): only such hands are evaluated."""
    return bool(cards) and CARDS.issuperset(cards)


#: pokerkit's lookup of each hand type used here, by the hand type's name (made when first asked:
#: no evaluator import until a game needs it)
_LOOKUPS: dict[str, Any] = {}
#: what a lookup answered, by lookup, the cards' ranks, whether they share one suit and whether no
#: two share a suit (what a pokerkit lookup's entry depends on: its key is the product of one prime
#: per rank and the suitedness; the badugi lookup refuses two cards of a suit); at most a few
#: thousand patterns of ranks per lookup, so bounded
_ENTRIES: dict[tuple[str, str, bool, bool], Any] = {}


def lookup(hand_type: str) -> Any:
    """The lookup table of pokerkit's hand type ``hand_type`` (``StandardHighHand.lookup``, ...)."""
    table = _LOOKUPS.get(hand_type)
    if table is None:
        table = _LOOKUPS[hand_type] = _load_lookup(hand_type)
    return table


#: pokerkit's modules that make a hand type's table: which table class (``hands``), how it is
#: built (``lookups``), the cards and ranks it is built of (``utilities``)
POKERKIT_SOURCES = ("hands.py", "lookups.py", "utilities.py")


def pokerkit_sources() -> list[Path]:
    """The files of :data:`POKERKIT_SOURCES` of the pokerkit that is imported (found without
    running pokerkit's package ``__init__``)."""
    from auditor import deferinit

    deferinit.defer("pokerkit")
    import pokerkit.lookups

    here = Path(pokerkit.lookups.__file__ or "").parent
    return [here / name for name in POKERKIT_SOURCES]


def lookup_key(hand_type: str, sources: Sequence[Path]) -> str:
    """The cache key of ``hand_type``'s table: the bytes of pokerkit's ``sources``, the hand type,
    the Python version and hhaudit's cache layout (:func:`auditor.formats.cache.key_of`)."""
    from auditor.formats import cache

    return cache.key_of("lookup", sources, hand_type)


def _load_lookup(hand_type: str) -> Any:
    """``hand_type``'s table from the cache, else pokerkit's own (``pokerkit.hands``), stored."""
    sources = pokerkit_sources()  # (pokerkit's package __init__ deferred, pokerkit.lookups imported)
    import pokerkit.lookups

    from auditor.formats import cache

    def build() -> Any:
        import pokerkit.hands  # every table of pokerkit's hand types is built here (~0.17 s)

        return getattr(pokerkit.hands, hand_type).lookup

    kind: type[Any] = pokerkit.lookups.Lookup
    return cache.load_or_build(f"lookup-{hand_type}", lookup_key(hand_type, sources), kind, build)


def entry(hand_type: str, cards: tuple[str, ...]) -> Any:
    """pokerkit's lookup entry of (up to five) normalised cards for ``hand_type``, or None when they
    make no hand of that type (e.g. no eight-or-better low, a badugi with two cards of a suit).
    Remembered by what the entry depends on (ranks, suitedness, distinct suits)."""
    suits = {c[1] for c in cards}
    key = (hand_type, "".join(sorted([c[0] for c in cards])), len(suits) == 1, len(suits) == len(cards))
    found = _ENTRIES.get(key, _NOT_YET)
    if found is _NOT_YET:
        try:
            found = lookup(hand_type).get_entry_or_none("".join(cards))
        except ValueError:  # (the badugi lookup's answer for cards of one suit)
            found = None
        _ENTRIES[key] = found
    return found


_NOT_YET = object()


def best_entry(hand_type: str, combos: Iterable[tuple[str, ...]], low: bool) -> Any:
    """The strongest of pokerkit's lookup entries of ``combos`` (combinations of five cards, fewer
    for badugi) for the hand type ``hand_type``, or None when none makes a hand: what the hand
    type's ``from_game`` ranks by (its hands compare by their entries' index, a greater index
    stronger for a high hand and weaker for a low one), without a hand object per combination."""
    best: Any = None
    for combo in combos:
        e = entry(hand_type, combo)
        if e is not None and (best is None or (e.index < best.index if low else e.index > best.index)):
            best = e
    return best


def entry_key(e: Any, low: bool) -> int | None:
    """A key (greater is better) of a lookup entry of :func:`best_entry`."""
    if e is None:
        return None
    return -int(e.index) if low else int(e.index)


def clear_caches() -> None:
    """Forget every evaluation remembered across hands (benchmarks measure the evaluation cold)."""
    _high_rank.cache_clear()
    _ENTRIES.clear()


#: phevaluator's integer id of every card of :data:`CARDS` (a ten as ``Th`` and as ``10h``), by
#: phevaluator's own ``Card.to_id``; filled by :func:`card_ids` when a hand is first evaluated
_IDS: dict[str, int] = {}
#: phevaluator's ``evaluate_cards`` and ``evaluate_omaha_cards`` (imported with :data:`_IDS`: no
#: evaluator import until a game needs it)
_PHE: list[Any] = []


def card_ids() -> dict[str, int]:
    """phevaluator's integer id of every real card as printed (``Card.to_id``, the id its
    evaluators take without parsing a string), made once."""
    if not _IDS:
        from phevaluator import evaluate_cards, evaluate_omaha_cards
        from phevaluator.card import Card

        _IDS.update({c: int(Card.to_id(norm(c))) for c in CARDS})
        _PHE[:] = [evaluate_cards, evaluate_omaha_cards]
    return _IDS


def high_rank(cards: Sequence[str]) -> int:
    """phevaluator's rank (1 is a royal flush, lower is better) of the best five of five to seven
    known, normalised cards (stud and five-card draw: the order of pokerkit's ``StandardHighHand``)."""
    ids = _IDS if _IDS else card_ids()
    return int(_PHE[0](*[ids[c] for c in cards]))


@lru_cache(maxsize=8192)
def _high_rank(game: str, hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    """phevaluator rank (lower is better) of the best high hand (known, normalised cards).
    Remembered by the cards: a hand's award and its printed description (D001's ``category``) ask
    about the same cards (958 of 2,071 asks on the PokerStars corpus).  8,192 entries: the shared
    corpus's 5,818 different asks fit (a benchmark's repeated hands hit), and a night of new hands,
    which never hits across hands, keeps ~1.6 MiB (65,536 kept ~12 MiB, each miss ~1 us dearer)."""
    ids = _IDS if _IDS else card_ids()
    evaluate_cards, evaluate_omaha_cards = _PHE
    h = [ids[c] for c in hole]
    b = [ids[c] for c in board]
    if game in OMAHA_GAMES:
        if len(b) == 5:
            if len(h) == 4:
                return int(evaluate_omaha_cards(*b, *h))
            if len(set(h + b)) == len(h) + 5:  # (no card twice: phevaluator's ranks assume a deck)
                # the best of each four hole cards: every two hole cards are among some four
                return min([int(evaluate_omaha_cards(*b, *four)) for four in combinations(h, 4)])
        return min([int(evaluate_cards(*x, *y)) for x in combinations(h, 2) for y in combinations(b, 3)])
    return int(evaluate_cards(*h, *b))


def high_key(game: str, hole: Sequence[str], board: Sequence[str]) -> Any:
    """Key of the best high hand (greater is better), or None when it cannot be evaluated."""
    hole_t, board_t = norm_all(hole), norm_all(board)
    if not (known(hole_t) and known(board_t)) or len(hole_t) != HOLE_CARDS.get(game, 2) or not 3 <= len(board_t) <= 5:
        return None  # to win, all hole cards must be tabled (more than the game deals: H004, not evaluated)
    if game == "shortdeck":
        return entry_key(_shortdeck(hole_t, board_t), False)
    if game not in EVALUATED_GAMES or (game in OMAHA_GAMES and len(board_t) < 3):
        return None
    return -_high_rank(game, hole_t, board_t)


def _shortdeck(hole: tuple[str, ...], board: tuple[str, ...]) -> Any:
    """The entry of the best short-deck hand of any five of the cards (``ShortDeckHoldemHand.from_game``)."""
    return best_entry("ShortDeckHoldemHand", combinations(hole + board, 5), False)


LOW_RANKS = frozenset("A2345678")


def low_ranks(cards: Iterable[str]) -> int:
    """How many different ranks of an eight-or-better low (A to 8) ``cards`` hold (normalised
    cards).  A low needs five: fewer, and no evaluator is asked (it would find none)."""
    return len({c[0] for c in cards if c[0] in LOW_RANKS})


def low_key(game: str, hole: Sequence[str], board: Sequence[str]) -> Any:
    """Key of the best qualifying eight-or-better low (greater is better), or None (no low)."""
    if game not in HILO_GAMES:
        return None
    hole_t, board_t = norm_all(hole), norm_all(board)
    if not (known(hole_t) and known(board_t)):
        return None
    if not (low_ranks(board_t) >= 3 and low_ranks(hole_t) >= 2):
        return None  # no two hole and three board cards of five different ranks 8 or lower: no low
    # only cards of A to 8 can be in a low: the others are left out; two hole cards and three board
    # cards, as ``OmahaEightOrBetterLowHand.from_game`` combines them
    hole_low = [c for c in hole_t if c[0] in LOW_RANKS]
    board_low = [c for c in board_t if c[0] in LOW_RANKS]
    combos = (h + b for h in combinations(hole_low, 2) for b in combinations(board_low, 3))
    return entry_key(best_entry("OmahaEightOrBetterLowHand", combos, True), True)


def category(game: str, hole: Sequence[str], board: Sequence[str]) -> str | None:
    """The category of the best high hand ("two pair", "a flush" ...) for comparing with what a site printed."""
    key = high_key(game, hole, board)
    if key is None:
        return None
    if game == "shortdeck":
        text = str(_shortdeck(norm_all(hole), norm_all(board)).label.value).lower()
        return {"pair": "one pair"}.get(text, text)
    rank = -int(key)
    for bound, name in _CATEGORIES:
        if rank <= bound:
            return name
    return None  # (a phevaluator rank is at most 7462: never reached)
