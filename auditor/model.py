"""The canonical event log: what a site *claims* happened in a hand.

Every site grammar is read into the same shapes defined here.  Nothing in this module validates a
hand or does I/O; the parser records what the site printed, the replay (later) derives what should
have happened, and rules compare the two.

Conventions
-----------
* **Money is an ``int`` in minor units** (cents for real-money cash games, chips for tournaments
  and play money).  ``Hand.decimals`` says how many decimal places one unit has, so
  ``amount / 10 ** decimals`` is the amount as printed.  Floats are never used for chips.
* **Every event carries its source position**: ``line`` (1-based, in the file) and ``col``
  (1-based, in that line), plus the ``street`` it was printed under and the ``run`` (1 unless the
  board was run more than once).
* **Wagers are stored twice**: ``increment`` (chips added by this action, as printed or as implied
  by the printed amounts) and ``to`` (the player's total live chips on this street after the
  action).  For ``raises A to B`` the site prints ``B`` (``to``); the increment is derived from the
  player's printed street total, never from ``A`` (sites measure ``A`` inconsistently).  ``A`` is
  kept as ``printed``.
* Events are frozen dataclasses; a :class:`Hand` is immutable once built (frozen at the end of
  the module, so that the compiled build builds them natively).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from auditor.fastinit import builder, by_fields, freeze, speed_up

Street = Literal[
    "preflop",
    "flop",
    "turn",
    "river",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "draw1",
    "draw2",
    "draw3",
    "showdown",
    "summary",
]

PostKind = Literal[
    "small_blind",  # the live small blind (first "posts small blind")
    "big_blind",  # a live big blind (several may appear: new or returning players)
    "small_big_blind",  # "posts small & big blinds": live part = nominal BB, rest dead
    "dead_small_blind",  # a further "posts small blind" (PokerStars: dead make-up post)
    "missed_blind",  # GG "posts missed blind": dead
    "ante",  # an individual ante (dead, layered)
    "big_blind_ante",  # an ante posted by the big blind for the table (BBA structures)
    "straddle",  # a live straddle; amount is the player's new street total (GG)
    "button_blind",  # a live button blind (GG short deck)
    "bring_in",  # stud bring-in
]

ActionKind = Literal["fold", "check", "call", "bet", "raise", "complete"]

CashOutKind = Literal["cash_out", "insurance"]

TableEventKind = Literal[
    "sitting_out",
    "sits_out",
    "returned",
    "disconnected",
    # the site keeps a disconnected or timed-out player in the hand, all-in for what they put in
    # (Everest "has been disconnected, and is allin", PKR "disconnection protection", Absolute
    # "All-In (Timeout)"): no further action is due from them, and they can win only what they matched
    "disconnected_all_in",
    "connected",
    "timed_out",
    "joins",
    "leaves",
    "chat",
    "observer",
    "other",
]


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Event:
    """Base of every event: where it was printed and under which street."""

    line: int
    col: int
    street: Street
    run: int

    def __init__(self, line: int, col: int, street: Street, run: int) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Post(Event):
    """A forced bet: blind, ante, straddle, dead or missed blind, bring-in."""

    player: str
    kind: PostKind
    amount: int
    all_in: bool
    # True when the site printed no line for it: the reader derived it from the header (old
    # PartyPoker tournament hands print "Blinds(50/100)" and take the blinds silently)
    derived: bool = False

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        player: str,
        kind: PostKind,
        amount: int,
        all_in: bool,
        derived: bool = False,
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.kind = kind
        self.amount = amount
        self.all_in = all_in
        self.derived = derived


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class HoleCards(Event):
    """Cards dealt to a player (``Dealt to X [..]``); ``cards`` empty when not shown."""

    player: str
    cards: tuple[str, ...]
    new_cards: tuple[str, ...] = ()

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        player: str,
        cards: tuple[str, ...],
        new_cards: tuple[str, ...] = (),
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.cards = cards
        self.new_cards = new_cards


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Board(Event):
    """Community cards printed at a street marker: ``cards`` is the new cards only."""

    cards: tuple[str, ...]
    board_before: tuple[str, ...] = ()

    def __init__(
        self, line: int, col: int, street: Street, run: int, cards: tuple[str, ...], board_before: tuple[str, ...] = ()
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.cards = cards
        self.board_before = board_before


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Action(Event):
    """A voluntary action: fold, check, call, bet, raise (or a stud 'complete')."""

    player: str
    kind: ActionKind
    increment: int = 0
    to: int = 0
    printed: int | None = None  # the first number of "raises A to B" (A), as printed
    all_in: bool = False
    cap_reached: bool = False

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        player: str,
        kind: ActionKind,
        increment: int = 0,
        to: int = 0,
        printed: int | None = None,
        all_in: bool = False,
        cap_reached: bool = False,
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.kind = kind
        self.increment = increment
        self.to = to
        self.printed = printed
        self.all_in = all_in
        self.cap_reached = cap_reached


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Draw(Event):
    """A draw-game discard or stand-pat: ``discarded`` cards (count), ``cards`` shown if any."""

    player: str
    discarded: int
    cards: tuple[str, ...] = ()

    def __init__(
        self, line: int, col: int, street: Street, run: int, player: str, discarded: int, cards: tuple[str, ...] = ()
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.discarded = discarded
        self.cards = cards


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class UncalledReturn(Event):
    """``Uncalled bet (A) returned to X``."""

    player: str
    amount: int

    def __init__(self, line: int, col: int, street: Street, run: int, player: str, amount: int) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.amount = amount


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Show(Event):
    """A player shows cards; ``description`` is the hand name the site printed, if any."""

    player: str
    cards: tuple[str, ...]
    description: str | None = None

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        player: str,
        cards: tuple[str, ...],
        description: str | None = None,
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.cards = cards
        self.description = description


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Muck(Event):
    """A player mucks (or does not show); ``cards`` when the site reveals them anyway."""

    player: str
    cards: tuple[str, ...] = ()

    def __init__(self, line: int, col: int, street: Street, run: int, player: str, cards: tuple[str, ...] = ()) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.cards = cards


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Collect(Event):
    """An award claimed by the site: ``X collected A from <pot>``.

    ``pot`` is the label as printed, normalised: ``pot``, ``main``, ``side-1``, ``side-2`` ...;
    ``run`` (on the base class) is the board it was won on.
    """

    player: str
    amount: int
    pot: str

    def __init__(self, line: int, col: int, street: Street, run: int, player: str, amount: int, pot: str) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.amount = amount
        self.pot = pot


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class CashOut(Event):
    """A player cashed the hand out (EV cash-out / insurance); amounts as printed."""

    player: str
    amount: int
    fee: int | None = None
    kind: CashOutKind = "cash_out"

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        player: str,
        amount: int,
        fee: int | None = None,
        kind: CashOutKind = "cash_out",
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.amount = amount
        self.fee = fee
        self.kind = kind


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class CashDrop(Event):
    """Money the site itself puts into the pot (GGPoker "Cash Drop to Pot : total $X")."""

    amount: int

    def __init__(self, line: int, col: int, street: Street, run: int, amount: int) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.amount = amount


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class PotClaim(Event):
    """The summary's money claims: ``Total pot T [Main pot M. Side pot-1 S1 ...] | Rake R ...``.

    ``pots`` lists the per-pot amounts in printed order as (label, amount); ``fees`` maps every
    other deduction the site printed (jackpot, bingo, fortune, tax, cash drop, ...) to its amount.
    """

    total: int
    pots: tuple[tuple[str, int], ...] = ()
    rake: int | None = None
    fees: tuple[tuple[str, int], ...] = ()
    #: the precision of the printed total in minor units: 1 when exact; Winamax prints large totals
    #: rounded ("17.68k": 10 chips), so the total is right when within ``unit`` of the contributions
    unit: int = 1

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        total: int,
        pots: tuple[tuple[str, int], ...] = (),
        rake: int | None = None,
        fees: tuple[tuple[str, int], ...] = (),
        unit: int = 1,
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.total = total
        self.pots = pots
        self.rake = rake
        self.fees = fees
        self.unit = unit


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class SeatResult(Event):
    """A summary seat line (``Seat 3: X (button) showed [..] and won ($5) with ...``).

    ``won`` lists the amounts the line says the player won (one per run/half); ``text`` is the
    rest of the line as printed.
    """

    seat: int
    player: str
    text: str
    won: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()

    def __init__(
        self,
        line: int,
        col: int,
        street: Street,
        run: int,
        seat: int,
        player: str,
        text: str,
        won: tuple[int, ...] = (),
        cards: tuple[str, ...] = (),
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.seat = seat
        self.player = player
        self.text = text
        self.won = won
        self.cards = cards


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class TableEvent(Event):
    """Something at the table that moves no chips: sitting out, disconnects, joins, chat ..."""

    player: str | None
    kind: TableEventKind
    text: str

    def __init__(
        self, line: int, col: int, street: Street, run: int, player: str | None, kind: TableEventKind, text: str
    ) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run
        self.player = player
        self.kind = kind
        self.text = text


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Cancelled(Event):
    """The site cancelled the hand (``Hand cancelled``)."""

    def __init__(self, line: int, col: int, street: Street, run: int) -> None:
        self.line = line
        self.col = col
        self.street = street
        self.run = run


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Seat:
    """A seat at the start of the hand: its player and their starting stack (table stakes)."""

    seat: int
    player: str
    stack: int
    line: int
    bounty: int | None = None
    sitting_out: bool = False

    def __init__(
        self, seat: int, player: str, stack: int, line: int, bounty: int | None = None, sitting_out: bool = False
    ) -> None:
        self.seat = seat
        self.player = player
        self.stack = stack
        self.line = line
        self.bounty = bounty
        self.sitting_out = sitting_out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


Game = Literal[
    "holdem",
    "shortdeck",
    "omaha",
    "omaha5",
    "omaha6",
    "omaha_hilo",
    "omaha5_hilo",
    "courchevel",
    "courchevel_hilo",
    "stud",
    "stud_hilo",
    "razz",
    "draw",
    "other",
]
Structure = Literal["NL", "PL", "FL", "CAP", "MIXED"]

#: The ``kind`` Literal of each event class that has one, by class name (the batch store's ``kind``
#: enum, ``auditor/tables.py``): a compiled build's classes keep classes, not these Literals, in
#: their annotations (mypyc), so ``typing.get_type_hints`` cannot say them there.
KINDS: dict[str, object] = {
    "Action": ActionKind,
    "CashOut": CashOutKind,
    "Post": PostKind,
    "TableEvent": TableEventKind,
}


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Hand:
    """One hand as the site printed it.

    Header facts first, then the seats at the start of the hand, then every event in printed
    order.  ``path`` and ``first_line`` locate the hand in its source; ``complete`` is False when
    the hand stops before its summary (a truncated export).
    """

    site: str
    hand_id: str
    path: str
    first_line: int
    last_line: int
    game: Game
    game_text: str
    structure: Structure
    small_blind: int | None
    big_blind: int | None
    currency: str | None
    decimals: int
    button: int | None
    max_seats: int | None
    table: str | None
    tournament_id: str | None
    level: str | None
    start_time: str | None
    time_zone: str | None
    play_money: bool
    ante: int | None
    cap: int | None
    seats: tuple[Seat, ...]
    events: tuple[Event, ...]
    complete: bool
    cancelled: bool
    runs: int = 1
    extras: dict[str, str] = field(default_factory=dict)

    def __init__(
        self,
        site: str,
        hand_id: str,
        path: str,
        first_line: int,
        last_line: int,
        game: Game,
        game_text: str,
        structure: Structure,
        small_blind: int | None,
        big_blind: int | None,
        currency: str | None,
        decimals: int,
        button: int | None,
        max_seats: int | None,
        table: str | None,
        tournament_id: str | None,
        level: str | None,
        start_time: str | None,
        time_zone: str | None,
        play_money: bool,
        ante: int | None,
        cap: int | None,
        seats: tuple[Seat, ...],
        events: tuple[Event, ...],
        complete: bool,
        cancelled: bool,
        runs: int = 1,
        extras: dict[str, str] | None = None,
    ) -> None:
        self.site = site
        self.hand_id = hand_id
        self.path = path
        self.first_line = first_line
        self.last_line = last_line
        self.game = game
        self.game_text = game_text
        self.structure = structure
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.currency = currency
        self.decimals = decimals
        self.button = button
        self.max_seats = max_seats
        self.table = table
        self.tournament_id = tournament_id
        self.level = level
        self.start_time = start_time
        self.time_zone = time_zone
        self.play_money = play_money
        self.ante = ante
        self.cap = cap
        self.seats = seats
        self.events = events
        self.complete = complete
        self.cancelled = cancelled
        self.runs = runs
        self.extras = {} if extras is None else extras

    @property
    def is_tournament(self) -> bool:
        return self.tournament_id is not None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


# The events the text readers build most (~25 a hand), by function: compiled, each is a native call
# of the native constructor; pure Python replaces each (at the end of the module) by a builder that
# does not call the class (``fastinit.builder``: ~0.3 us less an event).  Same arguments, same result.
def new_action(line: int, col: int, street: Street, run: int, player: str, kind: ActionKind, increment: int = 0,
               to: int = 0, printed: int | None = None, all_in: bool = False,
               cap_reached: bool = False) -> Action:  # fmt: skip
    """``Action(...)``."""
    return Action(line, col, street, run, player, kind, increment, to, printed, all_in, cap_reached)


def new_post(line: int, col: int, street: Street, run: int, player: str, kind: PostKind, amount: int, all_in: bool,
             derived: bool = False) -> Post:  # fmt: skip
    """``Post(...)``."""
    return Post(line, col, street, run, player, kind, amount, all_in, derived)


def new_hole_cards(line: int, col: int, street: Street, run: int, player: str, cards: tuple[str, ...],
                   new_cards: tuple[str, ...] = ()) -> HoleCards:  # fmt: skip
    """``HoleCards(...)``."""
    return HoleCards(line, col, street, run, player, cards, new_cards)


def new_board(line: int, col: int, street: Street, run: int, cards: tuple[str, ...],
              board_before: tuple[str, ...] = ()) -> Board:  # fmt: skip
    """``Board(...)``."""
    return Board(line, col, street, run, cards, board_before)


def new_show(line: int, col: int, street: Street, run: int, player: str, cards: tuple[str, ...],
             description: str | None = None) -> Show:  # fmt: skip
    """``Show(...)``."""
    return Show(line, col, street, run, player, cards, description)


def new_muck(line: int, col: int, street: Street, run: int, player: str, cards: tuple[str, ...] = ()) -> Muck:
    """``Muck(...)``."""
    return Muck(line, col, street, run, player, cards)


def new_collect(line: int, col: int, street: Street, run: int, player: str, amount: int, pot: str) -> Collect:
    """``Collect(...)``."""
    return Collect(line, col, street, run, player, amount, pot)


def new_uncalled(line: int, col: int, street: Street, run: int, player: str, amount: int) -> UncalledReturn:
    """``UncalledReturn(...)``."""
    return UncalledReturn(line, col, street, run, player, amount)


def new_seat(seat: int, player: str, stack: int, line: int, bounty: int | None = None,
             sitting_out: bool = False) -> Seat:  # fmt: skip
    """``Seat(...)`` (~7 a hand)."""
    return Seat(seat, player, stack, line, bounty, sitting_out)


def new_seat_result(line: int, col: int, street: Street, run: int, seat: int, player: str, text: str,
                    won: tuple[int, ...] = (), cards: tuple[str, ...] = ()) -> SeatResult:  # fmt: skip
    """``SeatResult(...)`` (a summary seat line: ~7 a hand)."""
    return SeatResult(line, col, street, run, seat, player, text, won, cards)


#: Each builder function above and its class (``tests/test_fastinit.py`` checks they agree).
BUILDERS: dict[str, type] = {
    "new_action": Action,
    "new_post": Post,
    "new_hole_cards": HoleCards,
    "new_board": Board,
    "new_show": Show,
    "new_muck": Muck,
    "new_collect": Collect,
    "new_uncalled": UncalledReturn,
    "new_seat": Seat,
    "new_seat_result": SeatResult,
}


def _fields(e: Event) -> dict[str, object]:
    """An event's fields; ``derived`` only when set (printed posts read as before)."""
    from dataclasses import asdict

    d = asdict(e)
    if d.get("derived") is False:
        del d["derived"]
    return d


def as_dict(hand: Hand) -> dict[str, object]:
    """A JSON-ready view of a hand: header facts, seats, and events tagged with their type."""
    from dataclasses import asdict

    out: dict[str, object] = {f.name: getattr(hand, f.name) for f in fields(hand) if f.name not in ("seats", "events")}
    out["seats"] = [asdict(s) for s in hand.seats]
    out["events"] = [_event_dict(e) for e in hand.events]
    return out


def _event_dict(e: Event) -> dict[str, object]:
    d: dict[str, object] = {"type": type(e).__name__, **_fields(e)}
    if isinstance(e, PotClaim) and e.unit == 1:
        del d["unit"]  # a total printed exactly: the precision is said only when it is coarser
    return d


# Frozen, cheaply built.  Each class is declared ``unsafe_hash=True`` (the hash a frozen dataclass
# has) with its own ``__init__``, and made frozen here (``freeze``: assignment and deletion raise
# ``FrozenInstanceError``, as ``frozen=True`` does).  The compiled build (mypyc) turns that
# ``__init__`` into native stores, which the refusing ``__setattr__`` does not see: ten times cheaper
# than the interpreted ``__init__`` a ``frozen=True`` dataclass keeps when compiled.  Pure Python
# replaces it (its stores would be refused) with one that sets the slots through their descriptors
# (same signature, same result, half the cost of a frozen dataclass's; ``auditor/fastinit.py``).
# ``tests/test_fastinit.py`` checks that each ``__init__`` takes the fields, defaults and order the
# dataclass declares.  Events are built ~30 times a hand.
for _cls in [c for c in list(globals().values()) if isinstance(c, type) and c.__module__ == __name__]:
    if hasattr(_cls, "__dataclass_fields__"):
        freeze(_cls)
        if "__mypyc_attrs__" not in _cls.__dict__ and not speed_up(_cls):  # (pure Python)
            raise TypeError(f"{_cls.__name__}: its __init__ cannot be sped up (auditor/fastinit.py)")


def _use_builders() -> None:
    """Pure Python: each ``new_<event>`` function becomes the builder that does not call the class
    (compiled, they stay: a native call of the native constructor)."""
    space = globals()
    for name, cls in BUILDERS.items():
        if "__mypyc_attrs__" in cls.__dict__:
            return
        build = builder(cls, name)
        if build is None:
            raise TypeError(f"{cls.__name__}: no builder (auditor/fastinit.py)")
        space[name] = build


_use_builders()
