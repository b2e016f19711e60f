"""Site grammars and the one shared visitor that turns a parse tree into a :class:`~auditor.model.Hand`.

Each site is ``grammars/_common.peg`` followed by ``grammars/<site>.peg`` (a rule defined again in
the site file replaces the common one).  Line rules are coarse: one regex with named groups per
line shape.  The visitor dispatches on the rule name (the part before ``__``) and reads the
named groups, so adding a site means writing a grammar that honours the shared rule names, not
writing another visitor.

The visitor records what the site printed.  It derives only what the printed amounts imply
(``calls A`` means a street total of the player's previous total plus ``A``); it never checks,
corrects or completes a hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from parsimonious.exceptions import IncompleteParseError, ParseError
from parsimonious.expressions import OneOf, Regex
from parsimonious.grammar import Grammar
from parsimonious.nodes import Node, RegexNode

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.ingest import Chunk

SITES: tuple[str, ...] = ("pokerstars", "ggpoker", "winamax")

#: Rule names every grammar must define (the shared visitor's contract).
REQUIRED_RULES = (
    "hand", "header", "table", "seat", "entry", "post", "action", "dealt", "street", "show", "muck",
    "uncalled", "collect", "summary_seat", "board", "total", "cashout", "cash_drop", "table_event",
    "cancelled", "info", "unknown",
)  # fmt: skip


def grammar_dir() -> Path:
    """Where the ``.peg`` files are: inside the installed package, or the source checkout."""
    packaged = resources.files("auditor") / "grammars"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "grammars"


_FRAG_DEF = re.compile(r'^(f_\w+)\s*=\s*~r"((?:[^"\\]|\\.)*)"', re.M)
_FRAG_REF = re.compile(r"<<(f_\w+)>>")


def grammar_text(site: str) -> str:
    """The grammar of ``site`` with fragments expanded, ready for parsimonious."""
    d = grammar_dir()
    text = (d / "_common.peg").read_text("utf-8") + "\n" + (d / f"{site}.peg").read_text("utf-8")
    frags: dict[str, str] = {}
    for m in _FRAG_DEF.finditer(text):
        frags[m.group(1)] = m.group(2)  # later definitions win, as for rules

    def expand(pattern: str, depth: int = 0) -> str:
        if depth > 20:
            raise ValueError(f"fragment cycle in grammar {site}")
        return _FRAG_REF.sub(lambda r: "(?:" + expand(frags[r.group(1)], depth + 1) + ")", pattern)

    return _FRAG_REF.sub(lambda r: "(?:" + expand(frags[r.group(1)]) + ")", text)


@dataclass(frozen=True)
class LineRule:
    """One alternative of the grammar's ``entry`` rule, ready to match a single line.

    ``handler`` is the visitor handler the alternative dispatches to; a plain regex alternative is
    matched with ``regex`` (the grammar's own pattern, compiled once with the standard library);
    any other expression (a sequence such as ``total``) is matched by parsimonious itself.
    """

    handler: str
    name: str
    regex: re.Pattern[str] | None
    expr: Any


@dataclass(frozen=True)
class SiteGrammar:
    site: str
    grammar: Grammar
    amount_re: re.Pattern[str]
    won_re: re.Pattern[str]
    lines: tuple[LineRule, ...]

    def parse(self, text: str) -> Node:
        return self.grammar["hand"].parse(text)


def _line_rules(g: Grammar) -> tuple[LineRule, ...]:
    """Flatten ``entry`` into line rules in the grammar's order (ordered choice: first match wins)."""
    out: list[LineRule] = []
    for member in g["entry"].members:
        handler = member.name.split("__", 1)[0]
        if handler not in HANDLERS:
            raise ValueError(f"entry alternative {member.name!r} has no handler on_{handler}")
        alternatives = member.members if isinstance(member, OneOf) else (member,)
        if all(isinstance(a, Regex) for a in alternatives):
            for a in alternatives:
                pattern = re.compile(a.re.pattern, a.re.flags & 0xFF)
                out.append(LineRule(handler, a.name, pattern, None))
        else:
            out.append(LineRule(handler, member.name, None, member))
    return tuple(out)


@cache
def load(site: str) -> SiteGrammar:
    """Compile a site's grammar once."""
    text = grammar_text(site)
    g = Grammar(text)
    missing = [r for r in REQUIRED_RULES if r not in g]
    if missing:
        raise ValueError(f"grammar {site} lacks rules {missing}")
    frag = {m.group(1): m.group(2) for m in _FRAG_DEF.finditer(text)}
    amount = re.compile(frag["f_amount"])
    won = re.compile(r"(?:won|collected|and won) \(?(" + amount.pattern + r")\)?")
    return SiteGrammar(site, g, amount, won, _line_rules(g))


# ---------------------------------------------------------------------------------- money


class AmountError(ValueError):
    """An amount that is not exact in the requested number of decimals; ``needed`` says how many it has."""

    def __init__(self, message: str, needed: int = 0) -> None:
        super().__init__(message)
        self.needed = needed


_NUM = re.compile(r"-?\d[\d,. ]*")


@lru_cache(maxsize=8192)
def to_minor(text: str, decimals: int) -> int:
    """``$1,234.56`` → 123456 (decimals=2).  Raises :class:`AmountError` when not exact."""
    m = _NUM.search(text.replace("\u00a0", " ").replace("\u202f", " "))
    if m is None:
        raise AmountError(f"no number in {text!r}")
    s = m.group(0).strip().replace(" ", "")
    neg = s.startswith("-")
    s = s.lstrip("-").rstrip(".,")
    if "," in s and "." in s:
        dec = "." if s.rfind(".") > s.rfind(",") else ","
    elif "," in s:
        dec = "," if s.count(",") == 1 and len(s.rsplit(",", 1)[1]) in (1, 2) else ""
    elif "." in s:
        dec = "." if s.count(".") == 1 else ""
    else:
        dec = ""
    whole, frac = s.rsplit(dec, 1) if dec else (s, "")
    whole = whole.replace(",", "").replace(".", "")
    if text[m.end() : m.end() + 1] in ("k", "K"):  # Winamax "Total pot 6.02k": thousands
        frac = frac.ljust(3, "0")
        whole, frac = whole + frac[:3], frac[3:]
    frac = frac.rstrip("0")
    if len(frac) > decimals:
        raise AmountError(f"{text!r} has more than {decimals} decimal places", needed=len(frac))
    scale: int = 10**decimals
    value = int(whole or "0") * scale + (int(frac.ljust(decimals, "0")) if decimals else 0)
    return -value if neg else value


def has_decimals(text: str | None) -> bool:
    return bool(text) and bool(re.search(r"\d[.,]\d{1,2}(?!\d)", text or ""))


# ---------------------------------------------------------------------------------- game facts

_GAMES: tuple[tuple[str, M.Game], ...] = (
    ("5 card omaha hi/lo", "omaha5_hilo"),
    ("omaha5 hi-lo", "omaha5_hilo"),
    ("5 card omaha", "omaha5"),
    ("omaha5", "omaha5"),
    ("6 card omaha", "omaha6"),
    ("omaha6", "omaha6"),
    ("courchevel hi/lo", "courchevel_hilo"),
    ("courchevel", "courchevel"),
    ("omaha hi/lo", "omaha_hilo"),
    ("omaha hi-lo", "omaha_hilo"),
    ("omaha8", "omaha_hilo"),  # Winamax
    ("omaha", "omaha"),
    ("plo-5", "omaha5"),
    ("plo5", "omaha5"),
    ("plo-6", "omaha6"),
    ("plo6", "omaha6"),
    ("plo", "omaha"),
    ("6+", "shortdeck"),
    ("short deck", "shortdeck"),
    ("shortdeck", "shortdeck"),
    ("hold'em", "holdem"),
    ("holdem", "holdem"),
    ("stud hi/lo", "stud_hilo"),
    ("stud hi-lo", "stud_hilo"),
    ("stud", "stud"),
    ("razz", "razz"),
    ("draw", "draw"),
    ("badugi", "draw"),
    ("lowball", "draw"),
)


def game_of(text: str) -> M.Game:
    t = text.lower()
    for key, game in _GAMES:
        if key in t:
            return game
    return "other"


def structure_of(text: str) -> M.Structure:
    t = text.lower().replace("-", " ")
    if "cap" in t:
        return "CAP"
    if "pot limit" in t or t in ("pl", "pot-limit"):
        return "PL"
    if "no limit" in t or t in ("nl", "no-limit"):
        return "NL"
    if "limit" in t or t in ("fl", "fixed"):
        return "FL"
    return "MIXED"


def street_of(name: str) -> tuple[M.Street | None, int | None]:
    """Map a street marker's name to (street, run).  ``None`` street: not a betting street."""
    n = name.upper().strip()
    run = None
    for i, word in enumerate(("FIRST ", "SECOND ", "THIRD "), start=1):
        if n.startswith(word) and "DRAW" not in n:
            run, n = i, n[len(word) :]
    table: dict[str, M.Street] = {
        "HOLE CARDS": "preflop",
        "PRE-FLOP": "preflop",
        "PREFLOP": "preflop",
        "ANTE/BLINDS": "preflop",
        "DEALING HANDS": "preflop",
        "FLOP": "flop",
        "TURN": "turn",
        "RIVER": "river",
        "SHOW DOWN": "showdown",
        "SHOWDOWN": "showdown",
        "SUMMARY": "summary",
        "3RD STREET": "third",
        "4TH STREET": "fourth",
        "5TH STREET": "fifth",
        "6TH STREET": "sixth",
        "7TH STREET": "seventh",
        "RIVER STREET": "seventh",
        "DRAW": "draw1",
        "FIRST DRAW": "draw1",
        "SECOND DRAW": "draw2",
        "THIRD DRAW": "draw3",
        # Winamax: draw games bet in FIRST-BET .. FOURTH-BET around FIRST-DRAW .. THIRD-DRAW,
        # stud streets are THIRD .. SEVENTH
        "FIRST-BET": "preflop",
        "FIRST-DRAW": "draw1",
        "SECOND-BET": "draw1",
        "SECOND-DRAW": "draw2",
        "THIRD-BET": "draw2",
        "THIRD-DRAW": "draw3",
        "FOURTH-BET": "draw3",
        "THIRD": "third",
        "FOURTH": "fourth",
        "FIFTH": "fifth",
        "SIXTH": "sixth",
        "SEVENTH": "seventh",
    }
    return table.get(n), run


_POST_KINDS: dict[str, M.PostKind] = {
    "small blind": "small_blind",
    "big blind": "big_blind",
    "small & big blinds": "small_big_blind",
    "the ante": "ante",
    "ante": "ante",
    "missed blind": "missed_blind",
    "missed small blind": "missed_blind",
    "dead blind": "missed_blind",
    "straddle": "straddle",
    "button blind": "button_blind",
    "bring-in": "bring_in",
    "big blind ante": "big_blind_ante",
}

_LIVE_POSTS = frozenset({"small_blind", "big_blind", "straddle", "button_blind", "bring_in"})


def cards_of(text: str | None) -> tuple[str, ...]:
    return tuple(text.split()) if text else ()


def pot_label(text: str) -> str:
    t = text.lower().strip()
    if t.startswith("main"):
        return "main"
    if t.startswith("side"):
        m = re.search(r"(\d+)", t)
        return f"side-{m.group(1)}" if m else "side-1"
    return "pot"


# ---------------------------------------------------------------------------------- visitor


class _Slow(Exception):
    """The fast line path met something only the full parse can report exactly."""


@dataclass(frozen=True, slots=True)
class _Line:
    text: str


class _Fail(Exception):
    """A hand cannot be turned into a Hand (bad amount): becomes a finding."""

    def __init__(self, code: str, line: int, col: int, message: str, needed: int = 0) -> None:
        super().__init__(message)
        self.code, self.line, self.col, self.message, self.needed = code, line, col, message, needed


Parts = list[tuple[str, dict[str, Any]]]


class HandBuilder:
    """Walks a parse tree line by line, dispatching each line rule to a handler."""

    def __init__(self, chunk: Chunk, site: SiteGrammar, min_decimals: int = 0) -> None:
        self.min_decimals = min_decimals
        self.chunk = chunk
        self.site = site
        self.findings: list[Finding] = []
        self.facts: dict[str, Any] = {}
        self.seats: list[M.Seat] = []
        self.events: list[M.Event] = []
        self.street: M.Street = "preflop"
        self.run = 1
        self.runs = 1
        self.street_bet: dict[str, int] = {}
        self.decimals = 0
        self.line = chunk.first_line
        self.col = 1
        self.in_summary = False
        self.complete = False
        self.cancelled = False
        self.small_blind_seen = False
        self.board_cards = 0

    # -- helpers
    def amt(self, text: str | None) -> int:
        if text is None:
            return 0
        try:
            return to_minor(text, self.decimals)
        except AmountError as e:
            raise _Fail("P006", self.line, self.col, str(e), e.needed) from None

    def money(self, text: str) -> int:
        """A real-money amount (a bounty in a chip tournament): cents when it carries a currency."""
        try:
            return to_minor(text, 2 if re.search(r"[$€£¥₹]|Rs\.", text) else self.decimals)
        except AmountError as e:
            raise _Fail("P006", self.line, self.col, str(e)) from None

    def add(self, cls: Callable[..., M.Event], **kw: Any) -> None:
        self.events.append(cls(line=self.line, col=self.col, street=self.street, run=self.run, **kw))

    # -- tree walk
    def walk(self, root: Node) -> None:
        handlers = HANDLERS
        line_start = 0
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            name = node.expr_name
            if name == "nl":
                self.line += 1
                line_start = node.end
                continue
            if name:
                h = handlers.get(name.split("__", 1)[0])
                if h is not None:
                    self.col = node.start - line_start + 1
                    parts: Parts = []
                    _regex_parts(node, parts)
                    h(self, parts, node)
                    continue
            if node.children:
                stack.extend(reversed(node.children))

    def read_lines(self, lines: Sequence[str], first: int) -> None:
        """Read body lines one by one with the grammar's ``entry`` alternatives.

        This is what ``rest = (nl entry?)*`` does, without building a parse tree: each non-empty
        line goes to the first alternative that matches it.  A line whose first match does not
        span the whole line would end the parse there; :class:`_Slow` hands the hand back to the
        full parsimonious parse so that the error is reported exactly as the grammar reports it.
        """
        rules = self.site.lines
        handlers = HANDLERS
        for j, line in enumerate(lines):
            if not line:
                continue
            self.line = first + j
            self.col = 1
            for r in rules:
                if r.regex is not None:
                    m = r.regex.match(line)
                    if m is None:
                        continue
                    if m.end() != len(line):
                        raise _Slow
                    parts: Parts = [(r.name, m.groupdict())]
                else:
                    try:
                        node = r.expr.match(line)
                    except ParseError:
                        continue
                    if node.end != len(line):
                        raise _Slow
                    parts = []
                    _regex_parts(node, parts)
                handlers[r.handler](self, parts, _Line(line))
                break
            else:
                raise _Slow

    # -- handlers -------------------------------------------------------------------
    def on_header(self, parts: Parts, node: Node) -> None:
        for _, g in parts:
            self.facts.update({k: v for k, v in g.items() if v is not None})
        f = self.facts
        money = " ".join(f.get(k) or "" for k in ("currency", "sb", "bb", "button_blind", "ante"))
        self.decimals = 2 if (has_decimals(money) or re.search(r"[$€£¥₹]|Rs\.|[A-Z]{3}", money)) else 0
        if f.get("decimals") is not None:
            self.decimals = int(f["decimals"])
        self.decimals = max(self.decimals, self.min_decimals)

    def on_table(self, parts: Parts, node: Node) -> None:
        for _, g in parts:
            self.facts.update({k: v for k, v in g.items() if v is not None})

    def on_seat(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        status = (g.get("status") or "").lower()
        self.seats.append(
            M.Seat(
                seat=int(g["seat"]),
                player=g["player"],
                stack=self.amt(g["stack"]),
                line=self.line,
                bounty=self.money(g["bounty"]) if g.get("bounty") else None,
                sitting_out="sitting out" in status or "out of hand" in status,
            )
        )

    def on_post(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        raw = g["kind"].lower()
        kind = _POST_KINDS.get(raw, "missed_blind")
        if kind == "small_blind":
            if self.small_blind_seen:
                kind = "dead_small_blind"
            self.small_blind_seen = True
        amount = self.amt(g["amount"])
        if kind == "dead_small_blind":
            # Winamax prints a returning player's small and big blind as one "small blind" of
            # their sum ("posts small blind 3€ out of position" at 1€/2€): that is a small & big
            # blind post (live big blind, dead small blind), not a dead small blind of 3€.
            sb = self.facts.get("sb") or self.facts.get("lsb")
            if sb is not None and amount > self.amt(sb):
                kind = "small_big_blind"
        player = g["player"]
        if kind in _LIVE_POSTS:
            if kind == "straddle" and g.get("straddle_total", True):
                # GG prints a straddle as the player's new street total.
                self.street_bet[player] = max(self.street_bet.get(player, 0), amount)
            else:
                self.street_bet[player] = self.street_bet.get(player, 0) + amount
        elif kind == "small_big_blind":
            bb = self.amt(self.facts.get("bb") or self.facts.get("lbb"))
            self.street_bet[player] = self.street_bet.get(player, 0) + min(amount, bb or amount)
        self.add(M.Post, player=player, kind=kind, amount=amount, all_in=bool(g.get("allin")))

    def on_action(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        player, verb = g["player"], g["verb"].lower()
        allin, cap = bool(g.get("allin")), g.get("cap") is not None
        prev = self.street_bet.get(player, 0)
        if verb.startswith("fold"):
            self.add(M.Action, player=player, kind="fold")
            if g.get("cards"):
                self.add(M.Muck, player=player, cards=cards_of(g["cards"]))
            return
        if verb.startswith("check"):
            self.add(M.Action, player=player, kind="check")
            return
        if verb.startswith("call"):
            inc = self.amt(g.get("amount"))
            to = prev + inc
            kind: M.ActionKind = "call"
            printed = None
        elif verb.startswith("bet"):
            inc = self.amt(g.get("amount"))
            to = prev + inc
            kind, printed = "bet", None
        elif verb.startswith("brings in"):
            inc = self.amt(g.get("amount"))
            self.street_bet[player] = prev + inc
            self.add(M.Post, player=player, kind="bring_in", amount=inc, all_in=allin)
            return
        else:  # raises A to B / completes it to B
            to = self.amt(g.get("to") or g.get("amount"))
            printed = self.amt(g["amount"]) if g.get("to") and g.get("amount") else None
            inc = to - prev
            kind = "complete" if verb.startswith("complete") else "raise"
        self.street_bet[player] = to
        self.add(M.Action, player=player, kind=kind, increment=inc, to=to, printed=printed,
                 all_in=allin, cap_reached=cap)  # fmt: skip

    def on_dealt(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.add(M.HoleCards, player=g["player"], cards=cards_of(g.get("cards")), new_cards=cards_of(g.get("new")))

    def on_street(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        street, run = street_of(g["name"])
        if street is None:
            return
        if street == "summary":
            self.in_summary = True
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
        new, prior = g.get("cards"), g.get("prior")
        if new is None and prior is not None:
            new, prior = prior, None
        if new is not None:
            self.add(M.Board, cards=cards_of(new), board_before=cards_of(prior))

    def on_draw(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        n = 0 if g.get("pat") else int(g["n"])
        self.add(M.Draw, player=g["player"], discarded=n, cards=cards_of(g.get("cards")))

    def on_show(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        desc = g.get("desc")
        self.add(M.Show, player=g["player"], cards=cards_of(g["cards"]), description=desc)

    def on_muck(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.add(M.Muck, player=g["player"], cards=cards_of(g.get("cards")))

    def on_uncalled(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        amount = self.amt(g["amount"])
        player = g["player"]
        if player in self.street_bet:
            self.street_bet[player] -= amount
        self.add(M.UncalledReturn, player=player, amount=amount)

    def on_collect(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.add(M.Collect, player=g["player"], amount=self.amt(g["amount"]), pot=pot_label(g.get("pot") or "pot"))

    def on_summary_seat(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        rest = g.get("rest") or ""
        won = tuple(self.amt(m.group(1)) for m in self.site.won_re.finditer(rest))
        m = re.search(r"(?:showed|mucked) \[([^\]]*)\]", rest)
        self.add(M.SeatResult, seat=int(g["seat"]), player=g["player"], text=(g.get("roles") or "") + " " + rest,
                 won=won, cards=cards_of(m.group(1)) if m else ())  # fmt: skip

    def on_board(self, parts: Parts, node: Node) -> None:
        """Summary ``Board [..]`` lines repeat what the street markers printed: nothing to record."""

    def on_total(self, parts: Parts, node: Node) -> None:
        total = 0
        pots: list[tuple[str, int]] = []
        fees: list[tuple[str, int]] = []
        rake: int | None = None
        for name, g in parts:
            if name.startswith("total_head"):
                total = self.amt(g["total"])
                if g.get("rake") is not None:
                    rake = self.amt(g["rake"])
            elif name.startswith("total_pot"):
                pots.append((pot_label(g["label"]), self.amt(g["amount"])))
            elif name.startswith("total_fee"):
                label = g["label"].lower().replace(" ", "_")
                if label == "rake":
                    rake = self.amt(g["amount"])
                else:
                    fees.append((label, self.amt(g["amount"])))
            elif name.startswith("total_norake"):
                rake = 0
        self.add(M.PotClaim, total=total, pots=tuple(pots), rake=rake, fees=tuple(fees))

    def on_cashout(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        kind = "insurance" if g.get("insurance") else "cash_out"
        self.add(M.CashOut, player=g["player"], amount=self.amt(g.get("amount")),
                 fee=self.amt(g["fee"]) if g.get("fee") else None, kind=kind)  # fmt: skip

    def on_cash_drop(self, parts: Parts, node: Node) -> None:
        self.add(M.CashDrop, amount=self.amt(parts[0][1]["amount"]))

    def on_table_event(self, parts: Parts, node: Node) -> None:
        name, g = parts[0]
        what = (g.get("what") or "").lower()
        kind: M.TableEventKind
        if name.startswith("chat"):
            kind, what = "chat", g.get("text") or ""
        elif "disconnected" in what:
            kind = "disconnected"
        elif "timed out" in what:
            kind = "timed_out"
        elif "connected" in what:
            kind = "connected"
        elif "sitting out" in what or "sits out" in what:
            kind = "sitting_out"
        elif "returned" in what or "is back" in what:
            kind = "returned"
        elif "joins" in what or "sits down" in what:
            kind = "joins"
        elif "leaves" in what or "stands up" in what or "removed" in what:
            kind = "leaves"
        else:
            kind = "other"
        self.add(M.TableEvent, player=g.get("player"), kind=kind, text=what)

    def on_cancelled(self, parts: Parts, node: Node) -> None:
        self.cancelled = True
        self.complete = True
        self.add(M.Cancelled)

    def on_info(self, parts: Parts, node: Node) -> None:
        """Lines that are understood and carry nothing the event log needs ("Hand was run twice")."""

    def on_unknown(self, parts: Parts, node: Node | _Line) -> None:
        text = node.text
        self.findings.append(
            F.make(
                "P002",
                self.chunk.path,
                self.line,
                self.col,
                f"line not recognised by the {self.site.site} grammar: {text[:120]!r}",
                site=self.site.site,
                hand_id=self.facts.get("hand_id"),
                text=text[:500],
            )
        )

    # -- result
    def build(self) -> M.Hand:
        f = self.facts
        sb = f.get("sb") or f.get("lsb")
        bb = f.get("bb") or f.get("lbb")
        stakes = "".join(f.get(k) or "" for k in ("sb", "bb", "button_blind", "ante"))
        currency = f.get("currency") or _currency_of(stakes)
        money = (f.get("money") or "").lower()
        play = "play" in money or (currency is None and f.get("tournament_id") is None and "real" not in money
                                   and self.decimals == 0)  # fmt: skip
        button = f.get("button")
        extras = {k: str(v) for k, v in f.items() if k in ("brand", "club", "buyin", "mix", "date2", "variant", "mode")}
        return M.Hand(
            site=self.site.site,
            hand_id=str(f.get("hand_id")),
            path=self.chunk.path,
            first_line=self.chunk.first_line,
            last_line=self.chunk.first_line + len(self.chunk.lines) - 1,
            game=game_of(f.get("game", "")),
            game_text=f.get("game", ""),
            structure=structure_of(f.get("structure", "")),
            small_blind=self.amt(sb) if sb else None,
            big_blind=self.amt(bb) if bb else None,
            currency=currency,
            decimals=self.decimals,
            button=int(button) if button else None,
            max_seats=int(f["max_seats"]) if f.get("max_seats") else None,
            table=f.get("table"),
            tournament_id=f.get("tournament_id"),
            level=f.get("level"),
            start_time=f.get("date"),
            time_zone=f.get("tz"),
            play_money=play,
            ante=self.amt(f["ante"]) if f.get("ante") else None,
            cap=self.amt(f["cap"]) if f.get("cap") else None,
            seats=tuple(self.seats),
            events=tuple(self.events),
            complete=self.complete,
            cancelled=self.cancelled,
            runs=self.runs,
            extras=extras,
        )


def _currency_of(text: str) -> str | None:
    for sym, code in (("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("Rs", "INR"), ("₹", "INR"), ("¥", "CNY")):
        if sym in text:
            return code
    return None


def _regex_parts(node: Node, out: Parts) -> None:
    if isinstance(node, RegexNode):
        out.append((node.expr_name, node.match.groupdict()))
        return
    for c in node.children:
        _regex_parts(c, out)


HANDLERS: dict[str, Callable[[HandBuilder, Parts, Any], None]] = {
    name[3:]: fn for name, fn in vars(HandBuilder).items() if name.startswith("on_") and callable(fn)
}


# ---------------------------------------------------------------------------------- entry point


def parse_chunk(chunk: Chunk, fast: bool = True) -> tuple[M.Hand | None, list[Finding]]:
    """Parse one hand.  Returns the Hand (or None when it cannot be read) and its findings.

    The hand's head (header, table line, seats) is always parsed by parsimonious.  With ``fast``,
    the body lines are then read one by one with the same grammar's line rules (see
    :meth:`HandBuilder.read_lines`); ``fast=False`` parses the whole hand with parsimonious.  The
    two give identical results (``tests/test_fast_path.py`` checks it on every fixture and corpus
    hand); the fast path is about twice as fast.
    """
    site = load(chunk.site)
    hid = _quick_id(chunk.lines[0] if chunk.lines else "")
    if chunk.overflow:
        return None, [
            F.make(
                "P001",
                chunk.path,
                chunk.first_line,
                1,
                f"hand is longer than the {len(chunk.lines)}-line limit; it was not read",
                site=chunk.site,
                hand_id=hid,
            )
        ]
    text = chunk.text
    min_decimals = 0
    for _attempt in range(2):
        b = HandBuilder(chunk, site, min_decimals)
        try:
            if fast:
                try:
                    head = site.grammar["hand_head"].match(text)
                    n = text.count("\n", 0, head.end) + 1
                    if head.end < len(text) and text[head.end] != "\n":
                        raise _Slow
                    b.walk(head)
                    b.read_lines(chunk.lines[n:], chunk.first_line + n)
                except (_Slow, ParseError):
                    b = HandBuilder(chunk, site, min_decimals)
                    b.walk(site.parse(text))
            else:
                b.walk(site.parse(text))
        except (ParseError, IncompleteParseError) as e:
            return None, [_p001(chunk, e, hid)]
        except _Fail as e:
            # Chips printed with decimals at a table whose stakes have none (some Winamax
            # tournaments print 292.50 chips): read the hand again in hundredths, so that every
            # amount stays exact.
            if e.code == "P006" and 0 < e.needed <= MAX_DECIMALS and b.decimals < e.needed and not min_decimals:
                min_decimals = max(2, e.needed)
                continue
            return None, [*b.findings, F.make(e.code, chunk.path, e.line, e.col, e.message,
                                              site=chunk.site, hand_id=hid)]  # fmt: skip
        break
    hand = b.build()
    if not hand.complete:
        b.findings.append(
            F.make(
                "P005",
                chunk.path,
                hand.last_line,
                1,
                "the hand ends before its summary: the export is cut short",
                site=chunk.site,
                hand_id=hand.hand_id,
            )
        )
    return hand, b.findings


def _p001(chunk: Chunk, e: ParseError, hid: str | None) -> Finding:
    line = e.line() or 1
    col = e.column() or 1
    expected = e.expr.name if e.expr is not None and e.expr.name else str(e.expr)
    src = chunk.lines[line - 1] if 0 < line <= len(chunk.lines) else ""
    return F.make("P001", chunk.path, chunk.first_line + line - 1, col,
                  f"the {chunk.site} grammar could not read this hand: expected {expected} at line "
                  f"{chunk.first_line + line - 1}, column {col}: {src[:100]!r}",
                  site=chunk.site, hand_id=hid, expected=expected)  # fmt: skip


MAX_DECIMALS = 4

_ID_RE = re.compile(r"(?:#|HandId: #)([\w-]+)")


def _quick_id(line: str) -> str | None:
    m = _ID_RE.search(line)
    return m.group(1) if m else None


def parse_text(text: str, path: str = "<text>") -> Iterator[M.Hand | Finding]:
    """Parse every hand in a string; yields Hands and Findings in order."""
    from auditor.ingest import read_text

    for item in read_text(text, path):
        if isinstance(item, Finding):
            yield item
            continue
        hand, fs = parse_chunk(item)
        yield from fs
        if hand is not None:
            yield hand
