"""The betting state machine (docs/rules.md, "How a hand is judged"): replays a hand's events and
records, for every wager, the facts the rules need — who was due to act, the amount to call, the minimum raise-to,
whether betting was re-opened for the actor, the pot-limit maximum, fixed-limit sizes, stacks.

The replay applies each action exactly as the site printed it; it never corrects a history.  The
facts of a step are taken *before* the action is applied, so a rule compares what the player did
with what the rules allowed at that moment.

Why one module of ~500 lines: the state machine is one class whose handlers share its state;
the rules read its ``Step`` facts and never re-derive them.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar, cast

from auditor.fastinit import by_fields, field_stores, frozen_class
from auditor.formats.facts import ExportFacts
from auditor.model import (
    Action,
    ActionKind,
    Board,
    Cancelled,
    CashDrop,
    CashOut,
    Collect,
    Draw,
    Event,
    Hand,
    HoleCards,
    Muck,
    Post,
    PotClaim,
    SeatResult,
    Show,
    Street,
    TableEvent,
    UncalledReturn,
)
from auditor.mypyc_shim import mypyc_attr  # the stud and draw replays subclass Replay
from auditor.profiles import Profile

E = TypeVar("E", bound=Event)

FLOP_GAMES = frozenset(
    {"holdem", "shortdeck", "omaha", "omaha5", "omaha6", "omaha_hilo", "omaha5_hilo", "courchevel", "courchevel_hilo"}
)
BETTING_STREETS: tuple[Street, ...] = ("preflop", "flop", "turn", "river")
_INVOLVING = (Post, Action, HoleCards, Show, Draw)
_INVOLVING_TYPES: frozenset[type] = frozenset(_INVOLVING)
#: Event types the replay applies besides posts, actions and boards, and those it never reads.
_OTHER = frozenset({UncalledReturn, CashDrop, TableEvent})
_IGNORED = frozenset({HoleCards, Draw, Show, Muck, Collect, CashOut, PotClaim, SeatResult,
                      Cancelled})  # fmt: skip
_LIVE_POSTS = frozenset({"small_blind", "big_blind", "straddle", "button_blind", "bring_in"})
#: :meth:`Replay.facts`' names of a Step's facts (name, Step field).
_FACTS = (("hand_over", "hand_over"), ("seated", "actor_seated"), ("folded", "actor_folded"),
          ("all_in", "actor_all_in"), ("acted", "acted_before"), ("stack", "stack"), ("street_bet", "street_bet"),
          ("current_bet", "current_bet"), ("to_call", "to_call"), ("call_to", "call_to"), ("min_inc", "min_inc"),
          ("min_raise_to", "min_raise_to"), ("min_bet", "min_bet"), ("reopened", "reopened"),
          ("pl_max_to", "pl_max_to"), ("fl_bet", "fl_bet"), ("fl_expected_to", "fl_expected_to"),
          ("fl_raises", "fl_raises"), ("fl_cap_exceeded", "fl_cap_exceeded"), ("cap_left", "cap_left"))  # fmt: skip


_pos = attrgetter("pos")  # the turn order's sort key


@dataclass(slots=True)
class Player:
    """A player's running state during the replay."""

    name: str
    seat: int
    stack0: int
    stack: int
    pos: float = 0.0  # place in the turn order: the seat, or between two seats (an unlisted joiner)
    street_bet: int = 0
    live_total: int = 0  # live chips put in, all streets (never reduced by returns)
    ante_total: int = 0
    dead: int = 0
    returned: int = 0
    folded: bool = False
    all_in: bool = False
    capped: bool = False
    acted: bool = False
    seated: bool = True
    stack_known: bool = True
    dealt: bool = False  # in the turn order (``Replay.order``): counted by ``Replay.unfolded``

    def __init__(
        self,
        name: str,
        seat: int,
        stack0: int,
        stack: int,
        pos: float = 0.0,
        street_bet: int = 0,
        live_total: int = 0,
        ante_total: int = 0,
        dead: int = 0,
        returned: int = 0,
        folded: bool = False,
        all_in: bool = False,
        capped: bool = False,
        acted: bool = False,
        seated: bool = True,
        stack_known: bool = True,
        dealt: bool = False,
    ) -> None:
        self.name = name
        self.seat = seat
        self.stack0 = stack0
        self.stack = stack
        self.pos = pos
        self.street_bet = street_bet
        self.live_total = live_total
        self.ante_total = ante_total
        self.dead = dead
        self.returned = returned
        self.folded = folded
        self.all_in = all_in
        self.capped = capped
        self.acted = acted
        self.seated = seated
        self.stack_known = stack_known
        self.dealt = dealt

    @property
    def active(self) -> bool:
        return not (self.folded or self.all_in or self.capped)

    @property
    def committed(self) -> int:
        """Chips in the pot now: everything put in, less what came back uncalled."""
        return self.live_total + self.ante_total + self.dead - self.returned


@dataclass(slots=True)
class Step:
    """The facts at one wager or post, before it was applied.

    Treat it as read-only: it is a plain slotted class, not a frozen dataclass, only because a
    frozen dataclass of 28 fields costs ten times as much to build (one is built per wager).  The
    replay builds it with :func:`_new_step` (a new field goes there too: ``tests/test_replay_steps.py``).
    """

    index: int
    event: Action | Post
    street: Street
    betting: bool  # betting rules (order, sizes) apply to this hand
    expected: str | None  # who was due to act (None: nobody)
    hand_over: bool  # only one player had not folded
    actor_seated: bool
    actor_folded: bool
    actor_all_in: bool
    acted_before: bool
    stack: int  # actor's chips before the action
    street_bet: int  # actor's live chips on this street before the action
    current_bet: int
    to_call: int
    call_to: int  # the street total a call must reach (capped by what opponents can match)
    min_inc: int  # the last full bet or raise increment of the round
    min_raise_to: int
    min_bet: int
    reopened: bool
    pl_max_to: int | None
    fl_bet: int | None  # fixed-limit bet size of this street
    fl_expected_to: int | None
    fl_raises: int  # bets and raises so far in the round (FL; the BB counts as the bet)
    fl_cap_exceeded: bool
    cap_left: int | None  # CAP games: chips the player may still wager this hand
    add: int  # chips this action takes from the stack, as printed
    stack_after: int  # the player's chips after the action (never below 0)
    all_in_after: bool  # the action left the player with no chips (or at the CAP)

    def __init__(
        self,
        index: int,
        event: Action | Post,
        street: Street,
        betting: bool,
        expected: str | None,
        hand_over: bool,
        actor_seated: bool,
        actor_folded: bool,
        actor_all_in: bool,
        acted_before: bool,
        stack: int,
        street_bet: int,
        current_bet: int,
        to_call: int,
        call_to: int,
        min_inc: int,
        min_raise_to: int,
        min_bet: int,
        reopened: bool,
        pl_max_to: int | None,
        fl_bet: int | None,
        fl_expected_to: int | None,
        fl_raises: int,
        fl_cap_exceeded: bool,
        cap_left: int | None,
        add: int,
        stack_after: int,
        all_in_after: bool,
    ) -> None:
        self.index = index
        self.event = event
        self.street = street
        self.betting = betting
        self.expected = expected
        self.hand_over = hand_over
        self.actor_seated = actor_seated
        self.actor_folded = actor_folded
        self.actor_all_in = actor_all_in
        self.acted_before = acted_before
        self.stack = stack
        self.street_bet = street_bet
        self.current_bet = current_bet
        self.to_call = to_call
        self.call_to = call_to
        self.min_inc = min_inc
        self.min_raise_to = min_raise_to
        self.min_bet = min_bet
        self.reopened = reopened
        self.pl_max_to = pl_max_to
        self.fl_bet = fl_bet
        self.fl_expected_to = fl_expected_to
        self.fl_raises = fl_raises
        self.fl_cap_exceeded = fl_cap_exceeded
        self.cap_left = cap_left
        self.add = add
        self.stack_after = stack_after
        self.all_in_after = all_in_after


def _new_step(index: int, event: Action | Post, street: Street, betting: bool, expected: str | None,
              hand_over: bool, actor_seated: bool, actor_folded: bool, actor_all_in: bool, acted_before: bool,
              stack: int, street_bet: int, current_bet: int, to_call: int, call_to: int, min_inc: int,
              min_raise_to: int, min_bet: int, reopened: bool, pl_max_to: int | None, fl_bet: int | None,
              fl_expected_to: int | None, fl_raises: int, fl_cap_exceeded: bool, cap_left: int | None, add: int,
              stack_after: int, all_in_after: bool) -> Step:  # fmt: skip
    """A new :class:`Step` of these fields: its constructor, which the compiled build calls natively.
    Pure Python replaces this function (end of the module, :func:`auditor.fastinit.field_stores`) with one that stores
    the fields on a new instance: a class called with 28 arguments costs ~1.6 times as much there (the
    arguments go through a tuple and the slot wrapper of ``__init__``)."""
    return Step(index, event, street, betting, expected, hand_over, actor_seated, actor_folded, actor_all_in,
                acted_before, stack, street_bet, current_bet, to_call, call_to, min_inc, min_raise_to, min_bet,
                reopened, pl_max_to, fl_bet, fl_expected_to, fl_raises, fl_cap_exceeded, cap_left, add, stack_after,
                all_in_after)  # fmt: skip


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class StreetOpen:
    """A new street was dealt (a Board event): who still had to act at that moment."""

    index: int
    event: Board
    pending: tuple[str, ...]

    def __init__(
        self,
        index: int,
        event: Board,
        pending: tuple[str, ...],
    ) -> None:
        self.index = index
        self.event = event
        self.pending = pending

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass
class Trace:
    """Everything the replay derived for one hand."""

    hand: Hand
    profile: Profile
    facts: ExportFacts
    players: dict[str, Player]
    order: list[Player]
    steps: list[Step] = field(default_factory=list)
    streets: list[StreetOpen] = field(default_factory=list)
    betting: bool = True
    big_blind: int = 0
    by_type: dict[type, list[Any]] = field(default_factory=dict)
    # what rules derive from the finished trace and share (e.g. the live betting steps): one pass each
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __init__(
        self,
        hand: Hand,
        profile: Profile,
        facts: ExportFacts,
        players: dict[str, Player],
        order: list[Player],
        steps: list[Step] | None = None,
        streets: list[StreetOpen] | None = None,
        betting: bool = True,
        big_blind: int = 0,
        by_type: dict[type, list[Any]] | None = None,
        cache: dict[str, Any] | None = None,
    ) -> None:
        self.hand = hand
        self.profile = profile
        self.facts = facts
        self.players = players
        self.order = order
        self.steps = [] if steps is None else steps
        self.streets = [] if streets is None else streets
        self.betting = betting
        self.big_blind = big_blind
        self.by_type = {} if by_type is None else by_type
        self.cache = {} if cache is None else cache

    def of(self, cls: type[E]) -> list[E]:
        """The hand's events of one type, in order (indexed once by the replay)."""
        return self.by_type.get(cls, [])


@mypyc_attr(allow_interpreted_subclasses=True)
class Replay:
    """Replays one hand; see :func:`replay`."""

    # The replay's state is read on every event: slots, not an instance dict.  Pure Python keeps an
    # instance's attributes in a dict whose keys its class shares only up to 30 names; past that (33
    # here) each ``self.x`` is a dict lookup, where a slot is an indexed read (the replay ~8% faster).
    # A subclass (stud, draw) keeps a ``__dict__`` for its own state; mypyc's native class ignores
    # ``__slots__`` (its attributes are native already).  A new attribute is added here too (mypy says so).
    __slots__ = (
        "anchor_seat", "bb", "bb_player", "bba_poster", "betting", "cap", "capped_multiway", "current_bet", "fl",
        "fl_sized", "full_level", "h", "house", "last_actor", "leaving_folds", "makeup", "min_inc", "order", "p",
        "pl", "players", "raise_over_current", "raises", "round_players", "sb_player", "seat_numbers",
        "sitting_out_folds", "started", "steps", "straddles", "street", "trace", "unfolded",
    )  # fmt: skip

    def __init__(self, hand: Hand, profile: Profile, facts: ExportFacts) -> None:
        self.h = hand
        self.p = p = profile.for_brand(hand.extras.get("brand"))  # a brand's own house rules (a converted site's)
        players: dict[str, Player] = {}
        self.players = players
        for s in hand.seats:
            if s.player not in players:
                # (positional, the other fields left to their defaults: one call per seat of every hand)
                players[s.player] = Player(s.player, s.seat, s.stack, s.stack, float(s.seat))
        # one pass over the events: the index of the events by class (``Trace.by_type``), who is
        # involved, the antes, the make-up posts (below), the first betting round's street and the
        # straddles (read when pre-flop starts)
        # (the model's event classes are final: a type test is an isinstance test)
        involving = _INVOLVING_TYPES
        involved: set[str] = set()
        antes: list[Post] = []
        self.makeup: set[str] = set()
        self.straddles: list[Post] = []
        posts: list[Post] = []
        first: Street | None = None
        post_t, action_t = Post, Action
        by_type: dict[type, list[Any]] = {}
        for e in hand.events:
            t = type(e)
            same = by_type.get(t)
            if same is None:
                by_type[t] = [e]
            else:
                same.append(e)
            if t in involving:
                who: str = e.player  # type: ignore[attr-defined]
                if who:
                    involved.add(who)
                if t is post_t:
                    posts.append(e)  # type: ignore[arg-type]
                    kind = e.kind  # type: ignore[attr-defined]
                    if kind == "ante":
                        antes.append(e)  # type: ignore[arg-type]
                    elif kind in ("dead_small_blind", "missed_blind"):
                        # players who post a dead blind too: a returning player's make-up, whose big
                        # blind may be printed before the table's own (OnGame): it does not set the turn order
                        self.makeup.add(who)
                    elif kind in _LIVE_POSTS:
                        if first is None:
                            first = e.street
                        if kind == "straddle" or kind == "button_blind":
                            self.straddles.append(e)  # type: ignore[arg-type]
                elif t is action_t and first is None:
                    first = e.street
        unseated = involved - players.keys()
        if unseated:
            for name in sorted(unseated):
                players[name] = Player(name, -1, 0, 0, -1.0, seated=False)
        if hand.extras.get("stacks") == "unprinted":  # a record without seat lines (formats/partial.py)
            for pl in players.values():
                pl.stack_known = False
                pl.stack0 = pl.stack = 10**15  # unknown: never short of chips, all-in when printed so
        if facts.unlisted_joiners:
            self._place_joiners()
        self.order = sorted([pl for pl in players.values() if pl.seated and pl.name in involved], key=_pos)
        self.seat_numbers = [pl.pos for pl in self.order]
        for pl in self.order:
            pl.dealt = True
        self.unfolded = len(self.order)  # players of the turn order who have not folded (kept as they fold)
        self.fl = hand.structure == "FL"
        self.fl_sized = self.fl  # the fixed-limit sizes are known (a step's fl_bet, fl_expected_to)
        self.pl = hand.structure == "PL"
        self.cap = hand.cap
        self.raise_over_current = p.min_raise_base == "current_bet"
        self.betting = hand.game in FLOP_GAMES and hand.structure in ("NL", "PL", "FL", "CAP")
        self.bb = self._nominal_bb(facts, posts)
        # a big-blind-ante structure: only the big blind posts an ante (for the whole table)
        # (one ante in a hand of three or more: that is the table's ante, posted by the big blind)
        self.bba_poster = antes[0].player if len(antes) == 1 and len(self.order) > 2 else None
        # the first betting round: pre-flop, or third street in stud
        self.street: Street = first if first is not None and first not in ("showdown", "summary") else "preflop"
        self.started = False
        self.current_bet = 0
        self.min_inc = self.bb
        self.full_level = 0
        self.raises = 0
        self.round_players = 0
        self.capped_multiway = False
        self.anchor_seat: float = float(hand.button) if hand.button is not None else 0.0
        self.last_actor: Player | None = None
        self.house = 0  # money the site put into the pot (cash drop)
        self.bb_player: Player | None = None
        self.sb_player: Player | None = None
        self.leaving_folds = facts.leaving_folds
        self.sitting_out_folds = facts.sitting_out_folds
        self.trace = Trace(hand, profile, facts, players, self.order, None, None, self.betting, self.bb, by_type)
        self.steps = self.trace.steps

    # ------------------------------------------------------------------ setup
    def _place_joiners(self) -> None:
        """Players who join as the hand starts ("X has joined the table.") and post have no seat
        line, or one with a zero stack (PartyPoker): their stack is unknown (never judged) and their place in the turn
        order is taken from where they first post or act: right after the player before them."""
        joined = {e.player for e in self.h.events if isinstance(e, TableEvent) and e.kind == "joins"}
        unknown = {n for n, pl in self.players.items() if not pl.seated and n in joined}
        unknown |= {e.player for e in self.h.events
                    if isinstance(e, Post) and e.player in self.players and self.players[e.player].seated
                    and self.players[e.player].stack0 == 0}  # fmt: skip
        if not unknown:
            return
        prev: Player | None = None
        for e in self.h.events:
            if isinstance(e, Board):
                prev = None  # a new round starts after the button
            if not isinstance(e, Post | Action) or e.player not in self.players:
                continue
            pl = self.players[e.player]
            if pl.name in unknown:
                unknown.discard(pl.name)
                pl.stack_known = False
                pl.stack0 = pl.stack = 10**15  # unknown: never short of chips
                if pl.seated:  # a seat line with a zero stack: the seat is known
                    prev = pl
                    continue
                pl.seated = True
                base = prev.pos if prev is not None else float(self.h.button or 0)
                taken = {q.pos for q in self.players.values() if q is not pl and q.seated}
                step = 0.5
                while base + step in taken:
                    step /= 2
                pl.pos = base + step
                if pl.seat < 0:
                    pl.seat = int(base)
            prev = pl

    def _nominal_bb(self, facts: ExportFacts, posts: list[Post]) -> int:
        h = self.h
        posted: dict[str, int] = {}
        for e in posts:
            if e.kind == "big_blind" and not e.all_in:
                pl = self.players.get(e.player)
                if (not facts.prints_all_in and h.big_blind and e.amount < h.big_blind and pl is not None
                        and posted.get(e.player, 0) + e.amount >= pl.stack):  # fmt: skip
                    continue  # a short all-in big blind of a site that never marks all-ins (888)
                if (not facts.marks_all_in_posts and not h.big_blind and pl is not None
                        and posted.get(e.player, 0) + e.amount >= pl.stack):  # fmt: skip
                    # a big blind that takes the poster's last chips, unmarked, at a table whose
                    # header does not print the blinds (Party's buy-in headers): the blind is what
                    # the first caller who had posted nothing puts in
                    posters = {x.player for x in h.events if isinstance(x, Post)}
                    call = next((x.increment for x in h.events if isinstance(x, Action) and x.street == e.street
                                 and x.kind == "call" and x.player not in posters), 0)  # fmt: skip
                    return max(call, e.amount)
                return e.amount
            posted[e.player] = posted.get(e.player, 0) + e.amount
        if h.structure == "FL" and (h.site == "pokerstars" or facts.limit_stakes_are_bets) and h.small_blind:
            return h.small_blind
        if h.big_blind:
            return h.big_blind
        return max((e.amount for e in posts), default=0)

    def _start_preflop(self) -> None:
        self.started = True
        level = self.bb
        anchor: Player | None = self.bb_player or self.sb_player
        for e in self.straddles:
            if e.player in self.players:
                pl = self.players[e.player]
                lev = pl.street_bet if e.kind == "straddle" else e.amount
                if lev > level:
                    level = lev
                anchor = pl
        cur = level
        active = 0  # (``count_active``, counted in the same pass: the turn order is the dealt players)
        for pl in self.players.values():
            if pl.street_bet > cur:
                cur = pl.street_bet
            if pl.dealt and not (pl.folded or pl.all_in or pl.capped):
                active += 1
        self.current_bet = cur
        self.min_inc = level
        self.full_level = self.current_bet
        self.raises = 1 if self.fl else 0
        if anchor is not None:
            self.anchor_seat = anchor.pos
        self.round_players = active

    def _start_street(self, street: Street) -> None:
        active = 0  # (``count_active``, counted in the same pass: the turn order is the dealt players)
        for pl in self.players.values():
            pl.street_bet = 0
            pl.acted = False
            if pl.dealt and not (pl.folded or pl.all_in or pl.capped):
                active += 1
        self.street = street
        self.current_bet = 0
        self.min_inc = self.bb
        self.full_level = 0
        self.raises = 0
        self.capped_multiway = False
        self.anchor_seat = self._postflop_anchor()
        self.last_actor = None
        self.round_players = active

    def _postflop_anchor(self) -> float:
        """The seat after which a post-flop round starts: the button; when the record does not
        print it (some iPoker games), the seat just before the small blind (heads-up, the small
        blind is the button), else just before the big blind."""
        if self.h.button is not None:
            return self.h.button
        sb, bb = self.sb_player, self.bb_player
        if sb is not None and sb.seated:
            return sb.pos if len(self.order) == 2 else sb.pos - 0.01
        if bb is not None and bb.seated:
            return bb.pos - 0.01
        return 0

    # ------------------------------------------------------------------ facts
    def count_active(self) -> int:
        """Players of the turn order who can still act (not folded, all-in or capped)."""
        n = 0
        for pl in self.order:
            if not (pl.folded or pl.all_in or pl.capped):
                n += 1
        return n

    def not_folded(self) -> int:
        return self.unfolded

    def fold(self, pl: Player) -> None:
        """``pl`` folds (or leaves the hand): the count of players still in is kept as it goes."""
        if not pl.folded:
            pl.folded = True
            if pl.dealt:
                self.unfolded -= 1

    def call_level(self, pl: Player) -> int:
        """What ``pl`` must match: the current bet, but never more than any opponent can match.

        When every opponent is all-in below the nominal level (a short all-in big blind called
        all-in by another short stack), chips above their reach would only come back uncalled.
        """
        cur = self.current_bet
        reach = 0
        for q in self.order:
            if q is not pl and not q.folded:
                r = q.street_bet if q.all_in or q.capped else q.street_bet + q.stack  # (``active``, inlined)
                if r >= cur:  # an opponent can match the current bet: no need to look further
                    return cur
                if r > reach:
                    reach = r
        return reach

    def reach_above(self, pl: Player, level: int) -> bool:
        """Whether an opponent of ``pl`` still in the hand can have more than ``level`` in this street
        (``level < call_level(pl)`` when ``level`` is below the current bet), stopping at the first."""
        for q in self.order:
            if q is not pl and not q.folded:
                r = q.street_bet if q.all_in or q.capped else q.street_bet + q.stack
                if r > level:
                    return True
        return False

    def needs_to_act(self, pl: Player) -> bool:
        if pl.folded or pl.all_in or pl.capped:  # not ``active`` (inlined: this runs for every seat at every wager)
            return False
        if pl.street_bet < self.current_bet and pl.street_bet < self.call_level(pl):
            return True
        if pl.acted:
            return False
        for q in self.order:  # noqa: SIM110 (a loop: no generator per call, this runs per seat and wager)
            if q is not pl and not (q.folded or q.all_in or q.capped):
                return True
        return False

    def expected_actor(self) -> Player | None:
        """The first player after the last actor (or the round's anchor) who :meth:`needs_to_act`.

        :meth:`needs_to_act`, inlined and lazy: a seat's opponents are looked at only until one
        settles the question (one who can match more than the seat has in, one who can still act),
        so finding the actor costs a few seats, not a pass over every seat for every seat.
        """
        order = self.order
        if not order or self.unfolded <= 1:
            return None
        cur = self.current_bet
        start = self.last_actor.pos if self.last_actor is not None else self.anchor_seat
        first = bisect_right(self.seat_numbers, start)
        n = len(order)
        for k in range(n):
            pl = order[(first + k) % n]
            if pl.folded or pl.all_in or pl.capped:
                continue
            sb = pl.street_bet
            if sb < cur:  # (sb < call_level(pl): ``reach_above(pl, sb)``, inlined)
                for q in order:
                    if q is not pl and not q.folded and (q.street_bet if q.all_in or q.capped else
                                                         q.street_bet + q.stack) > sb:  # fmt: skip
                        return pl
            if pl.acted:
                continue
            for q in order:  # another player can still act
                if q is not pl and not (q.folded or q.all_in or q.capped):
                    return pl
        return None

    def fl_bet_size(self) -> int:
        return self.bb if self.street in ("preflop", "flop") else 2 * self.bb

    def reopened(self, pl: Player) -> bool:
        if not pl.acted:
            return True
        facing = self.current_bet - pl.street_bet
        if self.fl:
            return 2 * facing >= self.fl_bet_size()
        return facing >= self.min_inc

    def cap_left(self, pl: Player) -> int | None:
        if self.h.cap is None:
            return None
        return max(0, self.h.cap - pl.live_total - pl.ante_total)

    def effective_stack(self, pl: Player) -> int:
        left = self.cap_left(pl)
        return pl.stack if left is None else min(pl.stack, left)

    def min_raise_to(self, pl: Player) -> int:
        base = self.current_bet if self.p.min_raise_base == "current_bet" else self.full_level
        return min(base + self.min_inc, pl.street_bet + self.effective_stack(pl))

    def pot_for_pl(self) -> int:
        pot = self.house
        for q in self.players.values():  # (``committed``, inlined)
            pot += q.live_total + q.ante_total + q.dead - q.returned
        if self.street != "preflop" or self.p.pl_preflop_blinds == "true_value":
            return pot
        sb_nominal = self.h.small_blind or self.bb // 2
        if self.p.pl_preflop_blinds == "assume_full":
            # TDA 54-B: a dead (missing) or short blind is counted at its full size
            for pl, nominal in ((self.sb_player, sb_nominal), (self.bb_player, self.bb)):
                have = pl.live_total if pl is not None else 0
                if have < nominal:
                    pot += nominal - have
            return pot
        # sb_as_bb: the small blind counts as a big blind until the big blind has acted
        if self.sb_player is not None and self.bb_player is not None and not self.bb_player.acted:
            pot += max(0, self.bb - self.sb_player.live_total)
        return pot

    def pl_max_to(self, pl: Player) -> int:
        owed = max(0, self.current_bet - pl.street_bet)
        return self.current_bet + self.pot_for_pl() + owed

    def fl_expected_to(self) -> int:
        size = self.fl_bet_size()
        if self.current_bet == 0:
            return size
        pending = self.current_bet - self.full_level
        if pending == 0 or 2 * pending >= size or self.p.fl_raise_over_short_all_in == "all_in":
            return self.current_bet + size
        return self.full_level + size

    def fl_cap_exceeded(self) -> bool:
        cap = self.p.fl_cap_raises
        if cap is None or self.raises < 1 + cap:
            return False
        mode = self.p.fl_headsup
        if mode == "round_starts_headsup" and self.round_players <= 2:
            return False
        if mode == "becomes_headsup_before_cap":
            active = sum(1 for pl in self.order if pl.active)
            if active <= 2 and not self.capped_multiway:
                return False
        return True

    # ------------------------------------------------------------------ applying events
    def put(self, pl: Player, add: int, live: bool) -> None:
        stack = pl.stack - add
        if stack <= 0:
            pl.stack = 0
            pl.all_in = True
        else:
            pl.stack = stack
        if live:
            pl.street_bet += add
            pl.live_total += add
        cap = self.cap  # (``cap_left``, inlined)
        if cap is not None and cap - pl.live_total - pl.ante_total <= 0:
            pl.capped = True

    def on_post(self, i: int, e: Post) -> None:
        pl = self.players.get(e.player)
        if pl is None:
            return
        stack = pl.stack
        kind = e.kind
        if kind in _LIVE_POSTS:
            add = max(0, e.amount - pl.street_bet) if kind == "straddle" else e.amount
            self.put(pl, add, True)
            if kind == "small_blind" and self.sb_player is None:
                self.sb_player = pl
            if kind == "big_blind" and (
                self.bb_player is None or (self.bb_player.name in self.makeup and pl.name not in self.makeup)
            ):
                self.bb_player = pl
        elif e.kind == "small_big_blind":
            live = min(e.amount, self.bb)
            add = e.amount
            self.put(pl, live, True)
            pl.dead += e.amount - live
            pl.stack = max(0, pl.stack - (e.amount - live))
            if pl.stack == 0:
                pl.all_in = True
        elif e.kind == "big_blind_ante" or (e.kind == "ante" and self.bba_poster == e.player):
            # A big-blind ante is dead money in the main pot, won by any live hand (RULES §2.8).
            add = e.amount
            pl.dead += e.amount
            self.put(pl, e.amount, False)
        elif e.kind == "ante":
            add = e.amount
            pl.ante_total += e.amount
            self.put(pl, e.amount, False)
        else:  # dead small blind, missed blind
            add = e.amount
            pl.dead += e.amount
            self.put(pl, e.amount, False)
        if not pl.stack_known and add > 0 and e.all_in:  # (as :meth:`_took` does; the step is made once, here)
            pl.stack, pl.all_in = 0, True
            stack = add
        after = pl.stack
        # (a post has no betting facts)
        self.steps.append(_new_step(i, e, self.street, False, None, False, pl.seated, False, False, False, stack, 0, 0,
                                    0, 0, 0, 0, self.bb, True, None, None, None, 0, False, None, add, after,
                                    after == 0 or pl.capped))  # fmt: skip

    def _took(self, s: Step, pl: Player, add: int) -> None:
        """Complete the step ``s`` of ``pl`` with what its wager or post took (``add``), once
        applied, and record it."""
        if not pl.stack_known and add > 0 and s.event.all_in:
            # an unknown stack printed all-in: the player had exactly what they put in
            pl.stack, pl.all_in = 0, True
            s.stack = add
        after = pl.stack
        s.add = add
        s.stack_after = after
        s.all_in_after = after == 0 or pl.capped
        self.steps.append(s)

    def _step(self, i: int, e: Action | Post, pl: Player, kind: str, expected: Player | None) -> Step:
        """The step of ``pl``'s wager ``e`` (of ``kind``) with the facts before it is applied (what
        it took is filled in by :meth:`_took`).

        :meth:`cap_left`, :meth:`min_raise_to`, :meth:`reopened` and :meth:`call_level` are inlined
        (one wager, one call); a subclass changes the facts through the fixed-limit sizes
        (``fl_sized``, :meth:`fl_bet_size`, :meth:`fl_step_to`)."""
        cur = self.current_bet
        sb = pl.street_bet
        stack = pl.stack
        cap = self.cap
        min_inc = self.min_inc
        if cap is None:
            cap_left = None
            most = sb + stack
        else:
            cap_left = cap - pl.live_total - pl.ante_total
            if cap_left < 0:
                cap_left = 0
            most = sb + (stack if stack < cap_left else cap_left)
        min_raise_to = (cur if self.raise_over_current else self.full_level) + min_inc
        if most < min_raise_to:
            min_raise_to = most
        fl = self.fl
        if not pl.acted:
            reopened = True
        elif fl:
            reopened = 2 * (cur - sb) >= self.fl_bet_size()
        else:
            reopened = cur - sb >= min_inc
        call_to = 0  # (``call_level(pl)``, inlined: stops at the first opponent who can match ``cur``)
        for q in self.order:
            if q is not pl and not q.folded:
                r = q.street_bet if q.all_in or q.capped else q.street_bet + q.stack
                if r >= cur:
                    call_to = cur
                    break
                if r > call_to:
                    call_to = r
        if self.fl_sized:
            fl_bet: int | None = self.fl_bet_size()
            fl_to: int | None = self.fl_step_to()
            fl_cap = kind == "raise" and self.fl_cap_exceeded()
        else:
            fl_bet = fl_to = None
            fl_cap = False
        return _new_step(i, e, self.street, self.betting, expected.name if expected is not None else None,
                         self.unfolded <= 1, pl.seated, pl.folded, pl.all_in or pl.capped, pl.acted, stack, sb, cur,
                         cur - sb if cur > sb else 0, call_to, min_inc, min_raise_to, self.bb, reopened,
                         self.pl_max_to(pl) if self.pl else None, fl_bet, fl_to, self.raises, fl_cap, cap_left,
                         0, stack, False)  # fmt: skip

    def fl_step_to(self) -> int:
        """The fixed-limit size a wager now is judged by (a step's ``fl_expected_to``)."""
        return self.fl_expected_to()

    def on_action(self, i: int, e: Action) -> None:
        pl = self.players.get(e.player)
        if pl is None:
            return
        street = e.street
        if not self.started:
            self._start_preflop()
        elif street != self.street and street != "showdown" and street != "summary":
            self._start_street(street)
        kind = e.kind
        s = self._step(i, e, pl, kind, self.expected_actor())
        add = 0
        if s.hand_over or pl.folded or ((pl.all_in or pl.capped) and (kind == "fold" or kind == "check")):
            # A folded hand is dead and a finished hand takes no action: the line is recorded
            # (B005 reports it) but changes nothing, so it does not shift the turn order.  An
            # all-in player who folds (a site folding a sitting-out all-in blind) kills their hand:
            # it can no longer win a pot.
            if kind == "fold" and not s.hand_over:
                self.fold(pl)
            self._took(s, pl, 0)
            return
        if kind == "fold":
            pl.folded = True  # (``fold``, inlined: ``pl`` had not folded)
            if pl.dealt:
                self.unfolded -= 1
        elif kind != "check":
            to = e.to
            add = to - pl.street_bet
            if add < 0:
                add = 0
            self.put(pl, add, True)
            if kind == "bet" or kind == "raise" or kind == "complete":
                inc = to - self.current_bet
                if self.fl:
                    full = 2 * inc >= self.fl_bet_size()
                else:
                    full = inc >= self.min_inc if self.current_bet > 0 else to >= self.min_inc
                if full and inc > 0:
                    if not self.fl:
                        self.min_inc = inc
                    self.raises += 1
                    if (self.fl and self.p.fl_cap_raises is not None and self.fl_cap_exceeded()
                            and sum(1 for q in self.order if q.active or q is pl) >= 3):  # fmt: skip
                        self.capped_multiway = True
                    self.full_level = to
                    for q in self.order:
                        if q is not pl:
                            q.acted = False
                if to > self.current_bet:
                    self.current_bet = to
            if e.cap_reached:
                pl.capped = True
        pl.acted = True
        self.last_actor = pl
        self._took(s, pl, add)

    def facts(self, pl: Player, kind: str = "") -> dict[str, object]:
        """What the rules allow ``pl`` at this moment (the facts a Step records), by name."""
        e = Action(0, 0, self.street, 1, pl.name, cast(ActionKind, kind))  # (a wager of ``kind`` now)
        s = self._step(-1, e, pl, kind, None)
        out: dict[str, object] = {name: getattr(s, field) for name, field in _FACTS}
        out["fl_cap_reached"] = self.fl and self.fl_cap_exceeded()
        return out

    def next_to_act(self) -> tuple[Player, dict[str, object]] | None:
        """After :meth:`run`: who is due to act next on the current street, and their facts."""
        if not self.started:
            self._start_preflop()
        pl = self.expected_actor()
        return None if pl is None else (pl, self.facts(pl, "raise"))

    def on_board(self, i: int, e: Board) -> None:
        if e.run != 1 or e.street not in BETTING_STREETS or e.street == self.street:
            return
        if not self.started:
            self._start_preflop()
        pending: tuple[str, ...] = ()
        if self.unfolded > 1:  # (a seat that cannot act is passed over here, without a call of ``needs_to_act``)
            pending = tuple([pl.name for pl in self.order
                             if not (pl.folded or pl.all_in or pl.capped) and self.needs_to_act(pl)])  # fmt: skip
        self.trace.streets.append(StreetOpen(i, e, pending))
        self._start_street(e.street)

    def on_return(self, e: UncalledReturn) -> None:
        pl = self.players.get(e.player)
        if pl is None:
            return
        pl.stack += e.amount
        pl.returned += e.amount
        pl.street_bet = max(0, pl.street_bet - e.amount)
        self.current_bet = max((q.street_bet for q in self.players.values()), default=0)

    def run(self) -> Trace:
        # (the events by class, ``Trace.by_type``, were indexed by ``__init__``'s pass; handlers
        # called as methods: the compiled build calls them natively, where a bound method kept in a
        # local is a generic call; the event classes read once)
        action_t, post_t, board_t = Action, Post, Board
        for i, e in enumerate(self.h.events):
            t = type(e)  # the model's event classes are final: a type test is an isinstance test
            if t is action_t:
                self.on_action(i, e)  # type: ignore[arg-type]
            elif t is post_t:
                self.on_post(i, e)  # type: ignore[arg-type]
            elif t is board_t:
                self.on_board(i, e)  # type: ignore[arg-type]
            elif t in _OTHER:
                self._other(i, e)
            elif t not in _IGNORED:
                self._other(i, e)  # an event type the replay does not know: by isinstance
        return self.trace

    def _other(self, i: int, e: Event) -> None:
        if isinstance(e, Post):
            self.on_post(i, e)
        elif isinstance(e, Action):
            self.on_action(i, e)
        elif isinstance(e, Board):
            self.on_board(i, e)
        elif isinstance(e, UncalledReturn):
            self.on_return(e)
        elif isinstance(e, CashDrop):
            self.house += e.amount
        elif isinstance(e, TableEvent) and (
            (e.kind == "leaves" and self.leaving_folds) or (e.kind == "sitting_out" and self.sitting_out_folds)
        ):
            self.on_leave(i, e)
        elif isinstance(e, TableEvent) and e.kind == "disconnected_all_in":
            self.on_disconnected_all_in(e)

    def on_disconnected_all_in(self, e: TableEvent) -> None:
        """A player the site keeps in the hand after a disconnection or a timeout, all-in for what
        they put in (the record says so: ``has been disconnected, and is allin``): no further
        action is due from them, and the pots they can win stop at their contribution."""
        pl = self.players.get(e.player or "")
        if pl is not None and not pl.folded:
            pl.all_in = True

    def on_leave(self, i: int, e: TableEvent) -> None:
        """A player who leaves the table (Chico) or sits out (iPoker) while still in the hand is out
        of it (the site prints no fold line), unless they are all-in or act again later in the record."""
        pl = self.players.get(e.player or "")
        if pl is None or pl.folded or pl.all_in:
            return
        if any(isinstance(x, Action) and x.player == pl.name for x in self.h.events[i + 1 :]):
            return
        self.fold(pl)


def replay(hand: Hand, profile: Profile, facts: ExportFacts | None = None) -> Trace:
    """Replay ``hand`` under ``profile`` (the rule book) and ``facts`` (how its format prints;
    by default its format card's) and return its :class:`Trace`."""
    if facts is None:
        from auditor.formats import REGISTRY

        facts = REGISTRY.facts_for(hand)
    return replay_class(hand)(hand, profile, facts).run()


def replay_class(hand: Hand) -> type[Replay]:
    """The state machine of the hand's game: stud and draw games have their own (their modules)."""
    if hand.game in ("stud", "stud_hilo", "razz"):
        from auditor.replay.stud import StudReplay

        return StudReplay
    if hand.game == "draw":
        from auditor.replay.draw import DrawReplay

        return DrawReplay
    return Replay


# The classes built per hand write their own ``__init__``: the compiled build (mypyc) turns it into
# native stores (a dataclass's generated ``__init__`` stays interpreted there); in pure Python it
# is the same code the dataclass would write.  ``StreetOpen`` is frozen as the model's classes are
# (``auditor/model.py``): declared ``unsafe_hash=True``, made to refuse assignment here, and given
# the descriptor-setting ``__init__`` in pure Python (``tests/test_fastinit.py`` checks them).
frozen_class(StreetOpen)
if not hasattr(Step, "__mypyc_attrs__"):  # pure Python (a compiled Step keeps its native constructor)
    globals()["_new_step"] = field_stores(Step)
