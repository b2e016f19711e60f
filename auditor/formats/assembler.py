"""The hand assembler: turns what a reader found on each line into the canonical :class:`~auditor.model.Hand`.

Every reader (the PEG reader of text formats, the XML/JSON/TOML readers) calls the same methods
with the *printed* values (the texts of amounts, names and cards).  The assembler converts amounts
to minor units, keeps each player's street total so that ``calls 5`` becomes a wager *to* the new
total, and records the source line of every event.  It records what the site printed: it never
checks, corrects or completes a hand (the replay and the rules do that).

Why one module of ~670 lines: every reader shares the hand state kept here (street totals, posts,
streets), and the inferences some exports need (blinds they never print, streets they never mark,
seats named by position) read and change that state; they are the next thing to move out, each
to a helper of its own, when a second reader needs one of them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats import partial
from auditor.formats import vocab as V
from auditor.formats.facts import ExportFacts
from auditor.formats.money import MONEY_SIGN, AmountError, currency_of, has_decimals, to_minor

if TYPE_CHECKING:
    from auditor.formats.registry import Registry


class ReadFailure(Exception):
    """A hand cannot be turned into a Hand (a bad amount): the reader turns it into a finding."""

    def __init__(self, code: str, line: int, col: int, message: str, needed: int = 0) -> None:
        super().__init__(message)
        self.code, self.line, self.col, self.message, self.needed = code, line, col, message, needed


#: Header facts kept on ``Hand.extras`` (as text) when a format prints them.
EXTRA_FACTS = ("brand", "club", "buyin", "mix", "date2", "variant", "mode", "tournament_name", "converted",
               "table_id", "rebuys")  # fmt: skip
_EXTRA_FACTS = frozenset(EXTRA_FACTS)

_NEXT_STREET: dict[str, M.Street] = {
    "preflop": "flop",
    "flop": "turn",
    "turn": "river",
    "third": "fourth",
    "fourth": "fifth",
    "fifth": "sixth",
    "sixth": "seventh",
}

_ALLOWED_MONEY = re.compile(r"[$€£¥₹]|Rs\.|[A-Z]{3}")
_SHOWN = re.compile(r"(?:showed|mucked) \[([^\]]*)\]")  # the cards a summary seat line shows

#: The seat numbers, button seats and table sizes printed most: their value without
#: :meth:`HandAssembler.number`'s checks (any other text goes through them).
_NUMBERS: dict[object, int] = {str(i): i for i in range(100)}

#: A post's kind text in lower case and the kind it names (``V.POST_KINDS``, "missed_blind" for
#: another), by the printed text (a hand prints a few: "small blind", "the ante").  Bounded.
_POST_KINDS: dict[str, tuple[str, M.PostKind]] = {}

#: What :meth:`HandAssembler.action` makes of a voluntary action's verb: the first word it tests
#: the (lower-case) verb for, in the order it tests them (see :func:`_verb_reading`).
FOLD: Final = 0
CHECK: Final = 1
ALL_IN: Final = 2
CALL: Final = 3
BET: Final = 4
CAPS: Final = 5
BRINGS_IN: Final = 6
RAISE: Final = 7

#: A printed verb's lower case and its reading (:func:`_verb_reading`), by the printed verb: a
#: hand prints a few verbs many times ("folds", "calls").  Bounded: cleared when full.
_VERBS: dict[str, tuple[str, int]] = {}


def _verb_reading(verb: str) -> tuple[str, int]:
    """The verb in lower case and the first of ``action``'s tests it passes: ``fold``, ``check``,
    ``all-in``, ``call``, ``bet``, ``caps``/``allin``, ``brings in``, else a raise (or a completion)."""
    known = _VERBS.get(verb)
    if known is not None:
        return known
    low = verb.lower()
    if low.startswith("fold"):
        code = FOLD
    elif low.startswith("check"):
        code = CHECK
    elif low.startswith("all-in"):
        code = ALL_IN
    elif low.startswith("call"):
        code = CALL
    elif low.startswith("bet"):
        code = BET
    elif low.startswith(("caps", "allin")):
        code = CAPS
    elif low.startswith("brings in"):
        code = BRINGS_IN
    else:
        code = RAISE
    if len(_VERBS) >= 1024:
        _VERBS.clear()
    _VERBS[verb] = known = (low, code)
    return known


#: The decimals of a header's stakes text (see :func:`_stakes_decimals`), by text: a run meets a
#: few distinct ones.  Bounded: cleared when full.
_STAKES_DECIMALS: dict[str, int] = {}


def _stakes_decimals(stakes: str) -> int:
    """2 when the header's currency and stakes (``stakes``) print decimals or money, else 0."""
    n = _STAKES_DECIMALS.get(stakes)
    if n is None:
        n = 2 if (has_decimals(stakes) or _ALLOWED_MONEY.search(stakes)) else 0
        if len(_STAKES_DECIMALS) >= 1024:
            _STAKES_DECIMALS.clear()
        _STAKES_DECIMALS[stakes] = n
    return n


#: The currency of a hand's stakes text (see :func:`_currency_of_stakes`), "" for none, by text.
#: Bounded: cleared when full.
_CURRENCIES: dict[str, str] = {}


def _currency_of_stakes(stakes: str) -> str | None:
    """:func:`~auditor.formats.money.currency_of` the stakes text ``stakes`` (a run meets a few)."""
    code = _CURRENCIES.get(stakes)
    if code is None:
        code = currency_of(stakes) or ""
        if len(_CURRENCIES) >= 1024:
            _CURRENCIES.clear()
        _CURRENCIES[stakes] = code
    return code or None


_REGISTRY: list[Registry] = []  # the format registry, imported on first use (start-up)

#: Amounts already read (``HandAssembler.amt``), by how they are read (decimals, ``dot_thousands``)
#: and their text: a night's amounts repeat ("$0.02", "100"), and a dict look-up costs less than
#: the call of ``to_minor``'s cache.  Each dict starts again empty past :data:`AMOUNTS_KEPT` texts.
_AMOUNTS: dict[tuple[int, bool], dict[str, int]] = {}
AMOUNTS_KEPT = 4096


def _amounts_read(decimals: int, dot_thousands: bool) -> dict[str, int]:
    """The amounts already read with ``decimals`` and ``dot_thousands`` (see :data:`_AMOUNTS`)."""
    known = _AMOUNTS.get((decimals, dot_thousands))
    if known is None:
        known = _AMOUNTS[(decimals, dot_thousands)] = {}
    return known


def _registry() -> Registry:
    """The format registry (an import statement in a function costs ~1.5 us a call: once a hand
    adds up, issue 16)."""
    if not _REGISTRY:
        from auditor.formats.registry import REGISTRY

        _REGISTRY.append(REGISTRY)
    return _REGISTRY[0]


def _dot_thousands(format_name: str) -> bool:
    """Whether the format's export fact ``dot_thousands`` holds ("1.550" is 1,550 chips)."""
    fmt = _registry().get(format_name)
    return fmt is not None and fmt.facts.dot_thousands


class HandAssembler:
    """Collects one hand's facts, seats and events, in the order the reader meets them.

    ``line`` and ``col`` are the position of the line being read; readers set them before each
    call.  ``facts`` holds header and table facts by their canonical names (``hand_id``, ``game``,
    ``structure``, ``sb``, ``bb``, ``ante``, ``currency``, ``button``, ``max_seats``, ``table``,
    ``tournament_id``, ``level``, ``date``, ``tz`` ...), as printed.
    """

    # Every body line reads and sets the assembler's state: slots, not an instance dict.  Pure Python
    # keeps an instance's attributes in a dict whose keys its class shares only up to 30 names (30
    # here: at the limit, and one more would pass it); a slot is an indexed read.  mypyc's native
    # class ignores ``__slots__`` (its attributes are native already).  A new attribute is added
    # here too (assigning one that is not listed fails at once).
    __slots__ = (
        "_amounts", "_decimals", "boards", "cancelled", "claims", "col", "complete", "derived_posts",
        "dot_thousands", "events", "export", "facts", "findings", "first_line", "forced_pending", "format",
        "level_line", "line", "min_decimals", "n_lines", "not_dealt", "path", "run", "runs", "seats",
        "small_blind_seen", "street", "street_bet", "street_starts", "unmarked",
    )  # fmt: skip

    def __init__(self, format_name: str, path: str, first_line: int, n_lines: int, min_decimals: int = 0,
                 facts: ExportFacts | None = None) -> None:  # fmt: skip
        self.format = format_name
        self.export = facts or ExportFacts()
        # the forced bets of a format that may take them silently (``prints_blind_posts = false``):
        # derived before the first body line unless the hand prints a post of its own
        self.forced_pending = not self.export.prints_blind_posts
        self.level_line: int | None = None  # where the blinds of the level are printed
        self.not_dealt: frozenset[str] = frozenset()  # seated players left out of derived forced bets
        self.path = path
        self.first_line = first_line
        self.n_lines = n_lines
        self.min_decimals = min_decimals
        self.findings: list[Finding] = []
        self.facts: dict[str, Any] = {}
        self.seats: list[M.Seat] = []
        self.events: list[M.Event] = []
        self.street: M.Street = "preflop"
        self.run = 1
        self.runs = 1
        self.street_bet: dict[str, int] = {}
        # (the facts a reader passes are its format card's: no registry look-up per hand)
        self.dot_thousands = facts.dot_thousands if facts is not None else _dot_thousands(format_name)
        self._decimals = 0
        self._amounts = _amounts_read(0, self.dot_thousands)
        self.line = first_line
        self.col = 1
        self.complete = False
        self.cancelled = False
        self.small_blind_seen = False
        # exports that print no street markers (Bodog network, 2012): the streets are told by the
        # betting (see _next_street_by_betting); the event index where each inferred street began
        self.unmarked = False
        self.street_starts: list[tuple[M.Street, int]] = []
        self.derived_posts = False  # a forced bet was derived (see forced_bets, absent_blinds)
        self.claims = 0  # pot claims recorded so far (pot_claim looks for earlier ones only when there are)
        self.boards: list[M.Board] = []  # the Board events among ``events`` (a street marker's reprint test)

    def read_guarded(self, read: Callable[[HandAssembler, Any], M.Hand | None],
                     chunk: Any) -> tuple[M.Hand | None, list[Finding]]:  # fmt: skip
        """A document reader's ``read(self, chunk)``: the hand and the findings met on the way, or
        (on a :class:`ReadFailure`) no hand and the failure's finding after those findings."""
        try:
            hand = read(self, chunk)
        except ReadFailure as e:
            return None, [*self.findings, F.make(e.code, chunk.path, e.line, e.col, e.message, site=chunk.site,
                                                 hand_id=self.facts.get("hand_id"))]  # fmt: skip
        return hand, self.findings

    # -- amounts
    @property
    def decimals(self) -> int:
        """The decimals of this hand's amounts (fixed by the header: see :meth:`header`)."""
        return self._decimals

    @decimals.setter
    def decimals(self, value: int) -> None:
        self._decimals = value
        self._amounts = _amounts_read(value, self.dot_thousands)

    def amt(self, text: str | None) -> int:
        """A printed amount in this hand's minor units (0 when nothing is printed)."""
        if text is None:
            return 0
        known = self._amounts.get(text)
        if known is not None:
            return known
        try:
            value = to_minor(text, self._decimals, self.dot_thousands)
        except AmountError as e:
            raise ReadFailure("P006", self.line, self.col, str(e), e.needed) from None
        if len(self._amounts) >= AMOUNTS_KEPT:
            self._amounts.clear()
        self._amounts[text] = value
        return value

    def number(self, text: object, what: str) -> int:
        """A printed whole number (a seat, the button, the table size): ASCII digits only, at most
        eighteen of them, else the hand cannot be read (P006 at the current line)."""
        if type(text) is str and text.isdigit() and text.isascii() and len(text) <= 18:
            return int(text)  # the usual case, as below without the copies
        t = str(text).strip()
        if not (t.isascii() and t.isdigit() and len(t) <= 18):
            raise ReadFailure("P006", self.line, self.col, f"the {what} {t[:20]!r} is not a whole number")
        return int(t)

    def _number(self, text: object, what: str) -> int:
        """:meth:`number`, a usual value (one or two digits) read from a table."""
        n = _NUMBERS.get(text)
        return n if n is not None else self.number(text, what)

    def money(self, text: str) -> int:
        """A real-money amount (a bounty in a chip tournament): cents when it carries a currency."""
        try:
            return to_minor(text, 2 if MONEY_SIGN.search(text) else self.decimals)
        except AmountError as e:
            raise ReadFailure("P006", self.line, self.col, str(e)) from None

    def add(self, cls: Callable[..., M.Event], **kw: Any) -> None:
        # the Event base fields come first in every event class: given by position (cheaper)
        self.events.append(cls(self.line, self.col, self.street, self.run, **kw))

    # -- head
    def header(self, values: dict[str, Any]) -> None:
        """Header facts; fixes how many decimals the hand's amounts have."""
        f = self.facts
        # (the fast path's header values hold no None: one scan in C instead of a copy)
        f.update(values if None not in values.values() else {k: v for k, v in values.items() if v is not None})
        if f.get("year") and f.get("date") and str(f["year"]) not in str(f["date"]):
            if "/" in str(f["year"]):  # the day printed after the time ("11:37:56 ET - 2010/03/03", Full Tilt)
                f["date"] = f"{f['year']} {f['date']}"
            else:
                f["date"] = f"{f['date']} {f['year']}"  # the year printed apart from the date (PartyPoker)
        get = f.get
        decimals = _stakes_decimals(f"{get('currency') or ''} {get('sb') or ''} {get('bb') or ''} "
                                    f"{get('button_blind') or ''} {get('ante') or ''}")  # fmt: skip
        if "streets_by_betting" in values:
            self.unmarked = True
        if get("decimals") is not None:
            decimals = int(f["decimals"])
        decimals = max(decimals, self.min_decimals)
        if decimals != self._decimals:  # (the setter's table look-up only when they change)
            self.decimals = decimals
        if get("brand"):
            fmt = _registry().get(self.format)
            if fmt is not None:  # a brand that prints differently (Format.facts_for)
                self.export = fmt.brand_facts.get(str(f["brand"]).lower(), self.export)
        if self.export.eras:  # the export's generation (its eras; ``at`` changes nothing without)
            self.export = self.export.at(get("date"))

    def _raise_to_net(self, player: str) -> bool:
        """Whether this hand's "raises X to Y" leaves out the raiser's earlier voluntary chips on
        the street (export fact ``raise_to_net_of_own_bet_before``)."""
        before = self.export.raise_to_net_of_own_bet_before
        if not before or not any(isinstance(e, M.Action) and e.player == player and e.street == self.street
                                 and e.kind in ("bet", "call", "raise") for e in self.events):  # fmt: skip
            return False
        m = re.match(r"\s*(\d{4})[/.-](\d{1,2})", str(self.facts.get("date") or ""))
        return m is not None and f"{m[1]}-{int(m[2]):02d}" < before

    def table(self, values: dict[str, Any]) -> None:
        """Table facts (a value None: not printed; the fast path's hold no None: no copy then)."""
        self.facts.update(values if None not in values.values() else {k: v for k, v in values.items() if v is not None})
        if values.get("lbb") is not None:
            self.level_line = self.line

    def absent_blinds(self) -> frozenset[str]:
        """Players given a derived forced bet who appear on no line of the hand and had chips left:
        seated but not dealt in (a player just moved to the table)."""
        if not self.derived_posts:
            return frozenset()  # (no forced bet was derived: nothing to look for)
        derived = {e.player for e in self.events if isinstance(e, M.Post) and e.derived and not e.all_in}
        if not derived:
            return frozenset()
        seen = {getattr(e, "player", None) for e in self.events if not (isinstance(e, M.Post) and e.derived)}
        return frozenset(derived - seen)

    def forced_bets(self) -> None:
        """Record the forced bets a hand took without printing them (``prints_blind_posts = false``):
        called before the first card, street or action line.  The header's level gives the amounts
        ("Blinds(50/100)", "Blinds-Antes(50/100 -10)"; fixed limit "Stakes(200/400)" is the small and
        big bet, so the blinds are half the small bet and the small bet); the seats and the button
        give who: every seat posts the ante, then the two seats after the button post the blinds
        (heads-up, the button posts the small blind).  Each is a post marked ``derived``, of at most
        the chips the player has.  What the hand prints is never derived again: printed antes
        leave the antes, a printed blind leaves the blinds."""
        if not self.forced_pending:
            return
        self.forced_pending = False
        f = self.facts
        sb_text, bb_text = f.get("lsb"), f.get("lbb")
        if bb_text is None or f.get("button") is None or len(self.seats) < 2:
            return
        if V.game_of(f.get("game", "")) in ("stud", "stud_hilo", "razz", "draw"):
            return  # no blinds: antes and a bring-in, which these exports print
        printed = {e.kind for e in self.events if isinstance(e, M.Post)}
        sb, bb = self.amt(sb_text), self.amt(bb_text)
        if V.structure_of(f.get("structure", "")) == "FL":
            sb, bb = sb // 2, sb
        ante = self.amt(f.get("ante")) if f.get("ante") else 0
        order = sorted((s for s in self.seats if s.player not in self.not_dealt), key=lambda s: s.seat)
        if len(order) < 2:
            return
        button = int(f["button"])
        after = [s for s in order if s.seat > button] + [s for s in order if s.seat <= button]
        if len(order) == 2:
            blinds = [(next((s for s in order if s.seat == button), after[-1]), "small blind", sb)]
            blinds.append(((set(order) - {blinds[0][0]}).pop(), "big blind", bb))
        else:
            blinds = [(after[0], "small blind", sb), (after[1], "big blind", bb)]
        left = {s.player: s.stack for s in order}
        for e in self.events:
            if isinstance(e, M.Post) and e.player in left:
                left[e.player] -= e.amount
        saved = self.line
        self.line = self.level_line or self.first_line + 1
        posts: list[tuple[str, str, int]] = []
        if ante and "ante" not in printed:
            posts += [(s.player, "ante", ante) for s in order]
        if not printed & {"small_blind", "big_blind", "small_big_blind", "dead_small_blind", "button_blind"}:
            posts += [(s.player, kind, amount) for s, kind, amount in blinds if amount]
        for player, kind_text, amount in posts:
            paid = min(amount, left[player])
            if paid <= 0:
                continue
            left[player] -= paid
            self.post(player, kind_text, self.money_text(paid), all_in=left[player] == 0)
            last = self.events[-1]
            if isinstance(last, M.Post):
                self.events[-1] = replace(last, derived=True)
                self.derived_posts = True
        self.line = saved

    def seat(self, seat: str, player: str, stack: str | None, bounty: str | None = None,
             status: str | None = "") -> None:  # fmt: skip
        """A seat line; ``status`` (None: nothing printed) tells a player sitting out.  The
        arguments are in the order of a seat line's values in :mod:`~auditor.formats.quick`."""
        n = _NUMBERS.get(seat)  # (a usual seat number: what ``number`` gives, without its checks)
        if n is None:
            n = self.number(seat, "seat number")
        out = False
        if status:
            status = status.lower()
            out = "sitting out" in status or "out of hand" in status
        # (a stack read before: what ``amt`` gives, without its call)
        chips = self._amounts.get(stack) if stack is not None else 0
        if chips is None:
            chips = self.amt(stack)
        self.seats.append(M.new_seat(n, player, chips, self.line, self.money(bounty) if bounty else None, out))

    # -- betting
    def post(self, player: str, kind_text: str, amount_text: str | None, all_in: bool = False,
             straddle_total: bool = True, live: bool = False) -> None:  # fmt: skip
        """A forced bet.  ``kind_text`` is the site's word (``small blind``, ``the ante`` ...).
        ``live``: a further small blind is live (PartyPoker), not a dead make-up post."""
        known = _POST_KINDS.get(kind_text)
        if known is None:
            if len(_POST_KINDS) >= 1024:
                _POST_KINDS.clear()
            low = kind_text.lower()
            known = _POST_KINDS[kind_text] = (low, V.POST_KINDS.get(low, "missed_blind"))
        kind_lower, kind = known
        if kind_lower in V.POSTS_WITH_UNPRINTED_DEAD_SMALL:
            # "post dead 0.50" (Chico): the live big blind printed, and the table's small blind posted
            # dead beside it (the total pot counts it); "post dead 0.00": the dead small blind alone
            sb = self.facts.get("sb")
            if self.amt(amount_text) or not sb:
                self.post(player, "big blind", amount_text, all_in)
            if sb:
                # the table's small blind: what this hand's small blind posted, else the header's (a
                # fixed-limit header prints the bets, Kings Club "44/88" with blinds of 22/44)
                posted = next((e.amount for e in self.events if isinstance(e, M.Post) and e.kind == "small_blind"
                               and not e.all_in), None)  # fmt: skip
                self.add(M.Post, player=player, kind="dead_small_blind",
                         amount=posted if posted is not None else self.amt(sb), all_in=False)  # fmt: skip
            return
        if kind == "big_blind" and "bring" in kind_lower and self._stud():
            kind = "bring_in"  # "Big blind/Bring in 5" (Bodog network) in stud is the bring-in
        if kind == "big_blind" and not self.small_blind_seen and not self.events:
            # a table whose blinds are the same size: OnGame calls the first blind a "big blind" too
            sb, bb = self.facts.get("sb"), self.facts.get("bb")
            if sb is not None and bb is not None and self.amt(sb) == self.amt(bb) == self.amt(amount_text):
                kind = "small_blind"
        if kind == "big_blind" and self.export.straddle_as_second_big_blind:
            first = next((e for e in self.events if isinstance(e, M.Post) and e.kind == "big_blind"), None)
            if first is not None and first.player != player and self.amt(amount_text) > first.amount:
                kind = "straddle"
        if kind == "small_blind":
            if self.small_blind_seen and not live:
                kind = "dead_small_blind"
            self.small_blind_seen = True
        amount = self.amt(amount_text)
        if kind == "dead_small_blind":
            # Winamax prints a returning player's small and big blind as one "small blind" of
            # their sum ("posts small blind 3€ out of position" at 1€/2€): that is a small & big
            # blind post (live big blind, dead small blind), not a dead small blind of 3€.
            sb = self.facts.get("sb") or self.facts.get("lsb")
            if sb is not None and amount > self.amt(sb):
                kind = "small_big_blind"
        if kind in V.LIVE_POSTS:
            if kind == "straddle" and straddle_total:
                # GG prints a straddle as the player's new street total.
                self.street_bet[player] = max(self.street_bet.get(player, 0), amount)
            else:
                self.street_bet[player] = self.street_bet.get(player, 0) + amount
        elif kind == "small_big_blind":
            bb = self.amt(self.facts.get("bb") or self.facts.get("lbb"))
            if not bb:  # stakes not in the header (PartyPoker prints the table's buy-in): the big blind posted
                bb = max((e.amount for e in self.events if isinstance(e, M.Post) and e.kind == "big_blind"), default=0)
            self.street_bet[player] = self.street_bet.get(player, 0) + min(amount, bb or amount)
        self.events.append(M.new_post(self.line, self.col, self.street, self.run, player, kind, amount, all_in))

    def action(self, player: str, verb: str, amount: str | None = None, to: str | None = None, all_in: bool = False,
               cap: bool = False, cards: str | None = None, increment: str | None = None,
               by: str | None = None) -> None:  # fmt: skip
        """A voluntary action.  ``verb`` is the site's word; ``amount`` and ``to`` as printed:
        ``calls A`` and ``bets A`` add A to the street total, ``raises A to B`` makes it B;
        ``increment`` is a raise printed as the chips put in (888 ``raises [A]``: the total is prev + A);
        ``by``: the amount this wager adds, whatever the verb (PartyPoker ``raises [A]``, ``is all-In [A]``)."""
        if self.forced_pending:
            self.forced_bets()
        known = _VERBS.get(verb)  # (the verb's first word, tested once per verb text)
        verb, reading = known if known is not None else _verb_reading(verb)
        if self.unmarked and not self._stud() and self._round_closed():
            self._begin_inferred_street(_NEXT_STREET.get(self.street))
        if by is None:  # (folds and checks first: they need neither the street total nor the export's
            # reading of call and raise amounts, which only changes a verb starting "call" or "raise")
            if reading == FOLD:
                self.events.append(M.new_action(self.line, self.col, self.street, self.run, player, "fold"))
                if cards:
                    self.add(M.Muck, player=player, cards=V.cards_of(cards))
                return
            if reading == CHECK:
                self.events.append(M.new_action(self.line, self.col, self.street, self.run, player, "check"))
                return
        street_bet = self.street_bet
        prev = street_bet.get(player, 0)
        if self.export.wagers_as_street_total and verb.startswith(("call", "raise")):
            to, amount, by = (by or amount), None, None  # the street total (export fact)
        if by is not None:
            self._wager_by(player, verb, self.amt(by), all_in)
            return
        kind: M.ActionKind
        printed: int | None = None
        if reading == ALL_IN:
            if "raise" not in verb:
                # "All-in $8" (Bodog network) adds the player's last chips without saying what it is:
                # before any card or action it is a blind; then a call, a bet or a raise by its size
                inc = self.amt(amount)
                if not any(isinstance(e, M.HoleCards | M.Action) for e in self.events):
                    antes = {e.player for e in self.events if isinstance(e, M.Post) and e.kind == "ante"}
                    if antes and player not in antes:  # among the antes, by a player who posted none: the ante
                        self.post(player, "ante", amount, True)
                        return
                    sb_posted = any(isinstance(e, M.Post) and e.kind == "small_blind" for e in self.events)
                    self.post(player, "big blind" if sb_posted else "small blind", amount, True)
                    return
                current = max(street_bet.values(), default=0)
                verb = "calls" if prev + inc <= current else ("bets" if current == 0 else "raises")
                all_in = True
                if verb == "raises":
                    to, amount = self.money_text(prev + inc), None
            else:
                all_in = True
                if not any(street_bet.values()):
                    verb = "bets"  # "All-in(raise) $5.43" with no bet on the street (Bodog network): an all-in bet
            verb, reading = _verb_reading(verb)  # (the verb it was read as)
        if reading == CALL and to is not None and amount is None:
            to_total = self.amt(to)  # a call printed as the street total it makes (PKR "calls $0.04")
            inc = to_total - prev
            kind = "call"
        elif reading == CALL:
            inc = self.amt(amount)
            to_total = prev + inc
            kind = "call"
        elif reading == BET:
            inc = self.amt(amount)
            to_total = prev + inc
            kind = "bet"
            if self._stud() and any(isinstance(e, M.Post) and e.kind == "bring_in" and e.street == self.street
                                    for e in self.events):  # fmt: skip
                kind = "complete"  # a bet over the bring-in completes it (Kings Club "X bets 44")
        elif reading == CAPS:
            # WPN "caps $X" / "allin (X)": the chips put in now, with no word for call, bet or
            # raise: it calls up to the street's highest wager, bets into none, raises above it
            inc = self.amt(amount)
            to_total = prev + inc
            top = max(street_bet.values(), default=0)
            kind = "call" if to_total <= top else ("raise" if top else "bet")
            cap = cap or verb.startswith("caps")
            all_in = all_in or not cap
        elif reading == BRINGS_IN:
            inc = self.amt(amount)
            street_bet[player] = prev + inc
            self.add(M.Post, player=player, kind="bring_in", amount=inc, all_in=all_in)
            return
        elif increment is not None:  # raises by A (the chips put in)
            inc = self.amt(increment)
            to_total = prev + inc
            kind = "raise"
        else:  # raises A to B / completes it to B
            to_total = self.amt(to or amount)
            printed = self.amt(amount) if to and amount else None
            if to and self.export.raise_to_net_of_own_bet_before and self._raise_to_net(player):
                to_total += prev
            inc = to_total - prev
            kind = "complete" if verb.startswith("complete") else "raise"
        street_bet[player] = to_total
        self.events.append(M.new_action(self.line, self.col, self.street, self.run, player, kind, inc, to_total,
                                        printed, all_in, cap))  # fmt: skip

    def _wager_by(self, player: str, verb: str, inc: int, all_in: bool) -> None:
        prev = self.street_bet.get(player, 0)
        to_total = prev + inc
        top = max(self.street_bet.values(), default=0)
        kind: M.ActionKind
        if verb.startswith(("is all-in", "is all in")) or verb == "all-in":  # "is all in 2,375" (Cake)
            # the site names no verb: the amount says whether it bets, calls or raises
            all_in = True
            kind = "bet" if top == 0 else "call" if to_total <= top else "raise"
        elif verb.startswith("call"):
            kind = "call"
        elif verb.startswith("bet"):
            kind = "bet"
        elif verb.startswith("complete"):
            kind = "complete"
        else:
            kind = "raise"
        self.street_bet[player] = to_total
        self.add(M.Action, player=player, kind=kind, increment=inc, to=to_total, all_in=all_in)

    # -- streets told by the betting (exports with no street markers)
    def _round_closed(self) -> bool:
        """The betting round is over: every player who can still bet has acted on this street and
        matched the highest bet.  Only used where the export prints no street markers."""
        stacks = {s.player: s.stack for s in self.seats}
        dealt = [e.player for e in self.events if isinstance(e, M.HoleCards)]
        start = self.street_starts[-1][1] if self.street_starts else 0
        put: dict[str, int] = {}
        folded: set[str] = set()
        all_in: set[str] = set()
        acted: set[str] = set()
        for i, e in enumerate(self.events):
            if isinstance(e, M.Post):
                put[e.player] = put.get(e.player, 0) + e.amount
                if e.all_in:
                    all_in.add(e.player)
            elif isinstance(e, M.Action):
                put[e.player] = put.get(e.player, 0) + e.increment
                if e.kind == "fold":
                    folded.add(e.player)
                if e.all_in:
                    all_in.add(e.player)
                if i >= start:
                    acted.add(e.player)
            elif isinstance(e, M.UncalledReturn):
                put[e.player] = put.get(e.player, 0) - e.amount
        live = [p for p in dict.fromkeys(dealt) if p not in folded]
        if len(live) < 2:
            return False
        top = max(self.street_bet.values(), default=0)
        can_bet = [p for p in live if p not in all_in and put.get(p, 0) < stacks.get(p, 0)]
        return all(p in acted and self.street_bet.get(p, 0) >= top for p in can_bet)

    def _stud(self) -> bool:
        return V.game_of(self.facts.get("game", "")) in ("stud", "stud_hilo", "razz")

    def _begin_inferred_street(self, street: M.Street | None) -> None:
        if street is None:
            return
        self.street_starts.append((street, len(self.events)))
        self.street = street
        self.street_bet = {}

    def summary_board(self, cards: str) -> None:
        """The board printed in the summary.  Where the body printed no board (no street markers,
        or Chico's all-in run-outs), the board cards are recorded here, each street's cards where
        the betting says the street began (the streets nobody bet on, after all-ins, before the
        showdown)."""
        board = V.cards_of(cards)
        if not board or any(isinstance(e, M.Board) for e in self.events):
            return
        begun = dict(self.street_starts)
        last_bet = max((i for i, e in enumerate(self.events) if isinstance(e, M.Action | M.Post)), default=-1)
        inserts: list[tuple[int, M.Board]] = []
        for street, lo, hi in (("flop", 0, 3), ("turn", 3, 4), ("river", 4, 5)):
            if len(board) < hi:
                break
            at = begun.get(street, last_bet + 1)  # type: ignore[call-overload]
            inserts.append((at, M.Board(line=self.line, col=self.col, street=street, run=1,  # type: ignore[arg-type]
                                        cards=board[lo:hi], board_before=board[:lo])))  # fmt: skip
        for at, ev in reversed(inserts):
            self.events.insert(at, ev)
            self.boards.append(ev)

    def mark_all_in(self, player: str) -> None:
        """The player's last wager put them all-in (said on a line of its own)."""
        for i in range(len(self.events) - 1, -1, -1):
            e = self.events[i]
            if isinstance(e, M.Action | M.Post) and e.player == player:
                if not isinstance(e, M.Action) or e.kind not in ("fold", "check"):
                    self.events[i] = dataclasses.replace(e, all_in=True)
                return

    def end(self) -> None:
        """The hand's last line in a format that prints no summary (its award lines end the hand)."""
        self.complete = True

    def money_text(self, amount: int) -> str:
        """An amount in minor units written back as text this hand's ``amt`` reads."""
        if not self.decimals:
            return str(amount)
        unit = 10**self.decimals
        return f"{amount // unit}.{amount % unit:0{self.decimals}d}"

    def uncalled(self, player: str, amount_text: str) -> None:
        amount = self.amt(amount_text)
        if player in self.street_bet:
            self.street_bet[player] -= amount
        self.events.append(M.new_uncalled(self.line, self.col, self.street, self.run, player, amount))

    # -- cards and streets
    def dealt(self, player: str, cards: str | None, new: str | None = None) -> None:
        if self.forced_pending:
            self.forced_bets()
        if self.unmarked and self._stud():
            # stud with no street markers: cards dealt after the street's betting open the next street
            start = self.street_starts[-1][1] if self.street_starts else 0
            if any(isinstance(e, M.Action) or (isinstance(e, M.Post) and e.kind == "bring_in")
                   for e in self.events[start:]):  # fmt: skip
                self._begin_inferred_street(_NEXT_STREET.get(self.street))
        self.events.append(M.new_hole_cards(self.line, self.col, self.street, self.run, player, V.cards_of(cards),
                                            V.cards_of(new) if new else ()))  # fmt: skip

    def redealt(self, player: str, cards: str) -> None:
        """A draw's whole new hand (OnGame "New hand for Hero: [8h, 9h, 6s, Ah, Jh]" after "Hero
        changed 2 cards"): the cards kept and the cards drawn, as a PokerStars-style deal ("Dealt to
        Hero [9h Ah Jh] [8h 6s]"); the drawn cards are the player's draw's when their number is the
        number it discarded."""
        new = V.cards_of(cards)
        last = next((e for e in reversed(self.events) if isinstance(e, M.HoleCards) and e.player == player), None)
        before = (last.cards + last.new_cards) if last is not None else ()
        if not before:
            self.add(M.HoleCards, player=player, cards=new)
            return
        kept = tuple(c for c in new if c in before)
        drawn = tuple(c for c in new if c not in before)
        for i in range(len(self.events) - 1, -1, -1):
            e = self.events[i]
            if isinstance(e, M.Draw) and e.player == player:
                if not e.cards and e.discarded == len(drawn):
                    self.events[i] = replace(e, cards=drawn)
                break
        self.add(M.HoleCards, player=player, cards=kept, new_cards=drawn)

    def street_marker(self, name: str, cards: str | None = None, prior: str | None = None) -> None:
        """A street marker (``*** FLOP *** [..]``); names that are not streets are ignored."""
        street, run = V.street_of(name)
        if street is None:
            return
        if self.export.stud_streets_one_early and self._stud() and street in _NEXT_STREET:
            street = _NEXT_STREET[street]  # "*** 3RD STREET ***" deals the fourth card (Kings Club)
        if self.forced_pending:
            self.forced_bets()
        if street not in ("preflop", "showdown", "summary"):
            self.unmarked = False
        elif name.strip().upper() == "HOLE CARDS" and self._stud():
            street = "third"  # a stud hand's "HOLE CARDS" are third street
        if street == "summary":
            self.complete = True
            self.street = "summary"
            self.run = 1
            return
        if run is not None:
            self.runs = max(self.runs, run)
            self.run = run
        elif street != "showdown":
            self.run = 1
        if street != self.street and street != "showdown":
            self.street_bet = {}
        self.street = street
        if cards is None and prior is not None:
            cards, prior = prior, None
        if cards is not None:
            board, before = V.cards_of(cards), V.cards_of(prior) if prior else ()
            if run is not None and prior:
                before = self._run_board_before(prior)
            run_now = self.run
            for e in self.boards:  # (the Board events: no scan of the others)
                if e.street == street and e.run == run_now and e.cards == board and e.board_before == before:
                    return  # the street's cards printed again (OnGame reprints them after an all-in): no new deal
            ev = M.new_board(self.line, self.col, street, run_now, board, before)
            self.events.append(ev)
            self.boards.append(ev)

    def _run_board_before(self, prior: str) -> tuple[str, ...]:
        """The board before a numbered run's street marker, and the deal of any of its cards that no
        line of their own printed: Kings Club prints an all-in run-out's turn only inside the river's
        cards ("*** BOARD 1 - RIVER *** [3h Qc 4s 4c] [Qh]"), and writes "-" for a card the second
        board shares with the first ("*** BOARD 2 - RIVER *** [- - - Kh] [Ac]")."""
        first = [c for e in self.events if isinstance(e, M.Board) and e.run == 1 for c in e.cards]
        tokens = [first[i] if t == "-" and i < len(first) else t for i, t in enumerate(prior.split())]
        before = V.cards_of(" ".join(tokens))
        mine = [e for e in self.events if isinstance(e, M.Board) and e.run == self.run]
        if mine:
            so_far: tuple[str, ...] = mine[-1].board_before + mine[-1].cards
        elif self.run > 1:
            shared = 0
            while shared < min(len(before), len(first)) and before[shared] == first[shared]:
                shared += 1
            so_far = before[:shared]
        else:
            so_far = ()
        if before[: len(so_far)] != so_far:
            return before
        for lo, hi, street in ((0, 3, "flop"), (3, 4, "turn"), (4, 5, "river")):
            if len(so_far) <= lo and hi <= len(before):
                ev = M.Board(line=self.line, col=self.col, street=street, run=self.run,  # type: ignore[arg-type]
                             cards=before[lo:hi], board_before=before[:lo])  # fmt: skip
                self.events.append(ev)
                self.boards.append(ev)
        return before

    def table_cards(self, cards: str) -> None:
        self.unmarked = False
        self._table_cards(cards)

    def _table_cards(self, cards: str) -> None:
        """Board cards dealt with no street marker ("Card dealt to table [..]", old Bodog exports):
        the street is the next one after the board dealt so far."""
        so_far = sum(len(e.cards) for e in self.events if isinstance(e, M.Board) and e.run == self.run)
        name = "FLOP" if so_far < 3 else ("TURN" if so_far == 3 else "RIVER")
        self.street_marker(name, cards)

    def draw(self, player: str, discarded: int, cards: str | None = None, opens: bool = False) -> None:
        """A discard (or ``stands pat``).  ``opens``: the site prints no draw marker (OnGame), so the
        first discard after a betting round opens the next draw.  A single-draw game prints no street
        marker either (PokerStars 5 Card Draw): its first draw line, met while the pre-draw betting is
        the street, starts the draw, and the betting after it is a street of its own."""
        if opens:
            if self.events and isinstance(self.events[-1], M.Action | M.Post):
                marker = {"preflop": "FIRST DRAW", "draw1": "SECOND DRAW", "draw2": "THIRD DRAW"}.get(self.street)
                if marker is not None:
                    self.street_marker(marker)
        elif self.street == "preflop":
            self.street_marker("DRAW")
        self.add(M.Draw, player=player, discarded=discarded, cards=V.cards_of(cards))

    def _own_cards(self, player: str, printed: tuple[str, ...]) -> tuple[str, ...]:
        """The cards a show or muck line reveals.  Sites that print the best five cards at
        showdown (Bodog network: "Showdown [Ks 7c 9s 8h 4c] (One pair)") mix board cards in: the
        player then reveals the hole cards they were dealt."""
        if not printed or V.game_of(self.facts.get("game", "")) == "draw":
            # nothing printed: nothing to replace (every branch below gives ``printed``); a draw hand
            # at showdown is not the hand dealt: what is shown is the hand
            return printed
        hole: tuple[str, ...] = ()
        hole_cls = M.HoleCards
        for e in self.events:  # (a plain loop: no generator frame a step)
            if isinstance(e, hole_cls) and e.player == player:
                hole += e.cards + e.new_cards
        if self._stud():
            # stud reprints the cards so far on every street: the last line holds them all, and
            # only a line longer than what the show prints (the best five) is the dealt hand
            last = next((e for e in reversed(self.events) if isinstance(e, M.HoleCards) and e.player == player), None)
            hole = (last.cards + last.new_cards) if last is not None else ()
            if len(hole) <= len(printed):
                return printed
        if hole and printed and not set(printed) <= set(hole) and not any("x" in c.lower() for c in hole):
            return hole
        return printed

    def show(self, player: str, cards: str | None, description: str | None = None, run: int | None = None) -> None:
        """A show; ``run``: the run it belongs to, where a draw run twice prints each run's hand."""
        shown = self._own_cards(player, V.cards_of(cards))
        if run is None:
            run = self.run
        else:
            self.runs = max(self.runs, run)
        self.events.append(M.new_show(self.line, self.col, self.street, run, player, shown, description))

    def muck(self, player: str, cards: str | None = None) -> None:
        cards_shown = self._own_cards(player, V.cards_of(cards))
        self.events.append(M.new_muck(self.line, self.col, self.street, self.run, player, cards_shown))

    # -- results
    def collect(self, player: str, amount_text: str, pot: str | None = None) -> None:
        self.events.append(M.new_collect(self.line, self.col, self.street, self.run, player, self.amt(amount_text),
                                         V.pot_label(pot or "pot")))  # fmt: skip

    def seat_result(self, seat: str, player: str, rest: str | None, roles: str | None,
                    won_re: re.Pattern[str]) -> None:  # fmt: skip
        """A summary seat line: the seat, the player, the line's ``roles`` ("(button) (small blind)",
        with their leading space) and ``rest`` (its result, "folded before Flop"; None: not printed).
        What it says was won is every amount ``won_re`` (the grammar's "won (...)" pattern, its group
        1) finds in ``rest``; the cards it shows are those after "showed" or "mucked"."""
        if rest is None:
            rest = ""
        # (neither can be there without the words the patterns start with: the common "folded
        # before Flop" line skips both searches)
        won: tuple[int, ...] = ()
        if "won" in rest or "collected" in rest:
            amt = self.amt
            won = tuple([amt(m.group(1)) for m in won_re.finditer(rest)])
        cards: tuple[str, ...] = ()
        if "[" in rest:
            m = _SHOWN.search(rest)
            if m is not None:
                cards = V.cards_of(m.group(1))
        n = _NUMBERS.get(seat)  # (a usual seat number: what ``number`` gives, without its checks)
        if n is None:
            n = self.number(seat, "seat number")
        self.events.append(M.new_seat_result(self.line, self.col, self.street, self.run, n, player,
                                              roles + " " + rest if roles else " " + rest, won, cards))  # fmt: skip

    def pot_claim(self, total: int, pots: tuple[tuple[str, int], ...] = (), rake: int | None = None,
                  fees: tuple[tuple[str, int], ...] = (), unit: int = 1) -> None:  # fmt: skip
        """The summary's money claims; ``unit``: the precision of the printed total (see PotClaim)."""
        early = [e for e in self.events if isinstance(e, M.PotClaim) and e.street != "summary"] if (
            self.street == "summary" and not pots and self.claims) else []  # fmt: skip
        if self.street == "summary" and early and not pots:
            # "Total pot" lines printed before the summary (Chico: "Total pot 1.26 | Rake 0.22" after
            # the betting, each side pot's; a line may be printed twice): the summary's total is the
            # main pot's, and the hand's total is the sum
            sides = list(dict.fromkeys(e.total for e in early))
            pots = (("main", total), *((f"side-{i}", v) for i, v in enumerate(sides, start=1)))
            total += sum(sides)
        self.claims += 1
        self.events.append(M.PotClaim(self.line, self.col, self.street, self.run, total, pots, rake, fees, unit))

    def cash_out(self, player: str, amount: str | None, fee: str | None, insurance: bool = False) -> None:
        self.add(M.CashOut, player=player, amount=self.amt(amount), fee=self.amt(fee) if fee else None,
                 kind="insurance" if insurance else "cash_out")  # fmt: skip

    def cash_drop(self, amount: str) -> None:
        self.add(M.CashDrop, amount=self.amt(amount))

    def table_event(self, player: str | None, kind: M.TableEventKind, text: str) -> None:
        self.add(M.TableEvent, player=player, kind=kind, text=text)

    def cancel(self) -> None:
        self.cancelled = True
        self.complete = True
        self.add(M.Cancelled)

    def unrecognised(self, text: str) -> None:
        """A line the reader does not recognise: a P002 finding, never silently dropped."""
        self.findings.append(
            F.make(
                "P002",
                self.path,
                self.line,
                self.col,
                f"line not recognised by the {self.format} grammar: {text[:120]!r}",
                site=self.format,
                hand_id=self.facts.get("hand_id"),
                text=text[:500],
            )
        )

    # -- result
    def _game(self) -> M.Game:
        game = V.game_of(self.facts.get("game", ""))
        if game in ("omaha", "omaha_hilo") and self.export.omaha_size_from_cards:
            dealt = [e for e in self.events if isinstance(e, M.HoleCards) and e.cards]
            if dealt and all(len(e.cards) == 5 for e in dealt):
                return "omaha5" if game == "omaha" else "omaha5_hilo"
        return game

    def _unprinted_all_ins(self) -> None:
        """Every stack all-in before the cards, unprinted (export fact ``all_in_before_cards``): derived
        all-in antes of each seat's whole stack, at its seat line, when the hand prints no post and no
        action and every seat starts with the same stack (the only reading of such a hand)."""
        pattern = self.export.all_in_before_cards
        name = str(self.facts.get("tournament_name") or "")
        if not pattern or not re.search(pattern, name) or len(self.seats) < 2:
            return
        if any(isinstance(e, M.Post | M.Action) for e in self.events) or len({s.stack for s in self.seats}) != 1:
            return
        posts = [M.Post(line=s.line, col=1, street="preflop", run=1, player=s.player, kind="ante", amount=s.stack,
                        all_in=True, derived=True) for s in self.seats if s.stack > 0]  # fmt: skip
        self.events[:0] = posts

    def _dealer_posts_small_blind(self, button: str) -> bool:
        """Whether the seat printed as the dealer posts the small blind with three or more players in."""
        dealer = next((s.player for s in self.seats if str(s.seat) == button.strip()), None)
        seated = [s for s in self.seats if not s.sitting_out]
        return (
            dealer is not None
            and len(seated) >= 3
            and any(isinstance(e, M.Post) and e.kind == "small_blind" and e.player == dealer for e in self.events)
        )

    def build(self) -> M.Hand:
        if self.export.all_in_before_cards:
            self._unprinted_all_ins()
        f = self.facts
        get = f.get
        sb_text, bb_text, ante = get("sb"), get("bb"), get("ante")
        sb = sb_text or get("lsb")
        bb = bb_text or get("lbb")
        currency = get("currency") or _currency_of_stakes(
            f"{sb_text or ''}{bb_text or ''}{get('button_blind') or ''}{ante or ''}")  # fmt: skip
        if currency and not currency.isalpha():
            currency = currency_of(currency) or currency  # a sign read from the seat lines ("$")
        seats, events, button = self.seats, self.events, f.get("button")
        partial_extras: dict[str, str] = {}
        if not seats:  # a record without seat lines
            seats, partial_extras = partial.complete(self, seats, events)
        slots = [V.position_slot(s.player) for s in seats] if "seats_by_position" in f else []
        if slots and all(slots) and len(set(slots)) == len(slots):
            # players are named by their position (Bodog network: "Dealer", "Small Blind", "UTG+1"):
            # the position gives the place at the table, clockwise from the button (seat 1)
            renum = {s.seat: n or 0 for s, n in zip(seats, slots, strict=True)}
            seats = sorted((replace(s, seat=n or 0) for s, n in zip(seats, slots, strict=True)), key=lambda s: s.seat)
            events = [replace(e, seat=renum.get(e.seat, e.seat)) if isinstance(e, M.SeatResult) else e
                      for e in events]  # fmt: skip
            button = "1"
        elif "seats_listed" in f:
            # the printed seat numbers are not table positions; the list is in table order
            renum = {s.seat: i for i, s in enumerate(seats, start=1)}
            seats = [replace(s, seat=i) for i, s in enumerate(seats, start=1)]
            events = [replace(e, seat=renum.get(e.seat, e.seat)) if isinstance(e, M.SeatResult) else e
                      for e in events]  # fmt: skip
            button = None
        if get("button_player") and not (slots and all(slots)):
            button = next((str(s.seat) for s in seats if s.player == f["button_player"]), button)
        if button and self.export.dead_button_printed_on_small_blind and self._dealer_posts_small_blind(str(button)):
            button = None  # a dead button the converter printed on the small blind (export fact)
        game_text = get("game", "")
        structure_text = get("structure", "")
        structure = V.structure_of(structure_text)
        if structure == "MIXED":
            if "structure_unprinted" in f:
                structure = V.USUAL_STRUCTURE.get(V.game_of(game_text), "MIXED")
            if structure == "MIXED" and not structure_text and self.export.unprinted_structure:
                structure = self.export.unprinted_structure  # the export's fact: what an unprinted structure is
        money = get("money")
        tournament_id = get("tournament_id")
        if money:
            money = money.lower()
            play = "play" in money or (currency is None and tournament_id is None and "real" not in money
                                       and self._decimals == 0)  # fmt: skip
        else:
            play = currency is None and tournament_id is None and self._decimals == 0
        extras = {k: str(v) for k, v in f.items() if k in _EXTRA_FACTS}
        if partial_extras:
            extras.update(partial_extras)
        max_seats, cap = get("max_seats"), get("cap")
        return M.Hand(  # by position (cheaper than 28 keywords), in the order of Hand's fields
            self.format,  # site
            str(get("hand_id")),  # hand_id
            self.path,  # path
            self.first_line,  # first_line
            self.first_line + self.n_lines - 1,  # last_line
            self._game(),  # game
            game_text,  # game_text
            structure,  # structure
            self.amt(sb) if sb else None,  # small_blind
            self.amt(bb) if bb else None,  # big_blind
            currency,  # currency
            self._decimals,  # decimals
            self._number(button, "button seat") if button else None,  # button
            self._number(max_seats, "table size") if max_seats else None,  # max_seats
            get("table") or get("table_name"),  # table
            tournament_id,  # tournament_id
            get("level"),  # level
            get("date"),  # start_time
            get("tz"),  # time_zone
            play,  # play_money
            self.amt(ante) if ante else None,  # ante
            self.amt(cap) if cap else None,  # cap
            tuple(seats),  # seats
            tuple(events),  # events
            self.complete,  # complete
            self.cancelled,  # cancelled
            self.runs,  # runs
            extras,  # extras
        )
