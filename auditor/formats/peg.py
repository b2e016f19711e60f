"""The PEG reader of text formats: composed parsimonious grammars, and the visitor that feeds the
hand assembler.

**Composition.**  A text format names a chain of grammar files (``_base``, a family such as
``_stars``, the site).  The files are concatenated in order: a rule defined again later replaces
the earlier one (parsimonious keeps the last definition), and so does a *fragment*, a rule whose
name starts with ``f_``.  Fragments are regex pieces: ``<<f_amount>>`` inside any regex is replaced
by the fragment's pattern before the grammar is compiled, and a fragment redefined with
``<<super>>`` in its pattern *extends* the earlier definition (``f_verb = ~r"<<super>>|Bet & Muck"``
adds one verb).  So a site states how it differs, a fragment at a time, never a copy of a line.

**Reading.**  Line rules are coarse: one regex with named groups per line shape.  The visitor
dispatches on the rule name (the part before ``__``) to an ``on_<name>`` handler, which reads the
named groups and calls the :class:`~auditor.formats.assembler.HandAssembler`.  The hand's head
(header, table line, seats) is parsed by parsimonious; body lines are matched one by one with the
same grammar's ``entry`` alternatives (ordered choice: the first that matches wins), which is what
``rest = (nl entry?)*`` does without building a tree.  A hand the fast path cannot read exactly is
parsed whole by parsimonious, so errors are reported as the grammar reports them;
``tests/test_fast_path.py`` checks both paths agree on every fixture and corpus hand.  In the fast
path a line is tried only against the rules whose regex can start with its first character
(``firstchars``), and rules that are not one regex (the header, ``total``) are matched as one regex
derived from the grammar (``pegline``), not by parsimonious.  The most frequent one-regex rules hand
their values to a reader of :mod:`~auditor.formats.quick` as one tuple (group numbers derived from
the rule's regex) instead of a groupdict in a parts list; each reader does what its handler does.

Why one module of ~570 lines: grammar composition, the line matcher and the visitor's
handlers form one contract (the group names of ``GROUPS_READ``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from parsimonious.exceptions import IncompleteParseError, ParseError
from parsimonious.expressions import OneOf, Quantifier, Regex
from parsimonious.nodes import Node, RegexNode

from auditor import findings as F
from auditor import model as M
from auditor.fastinit import by_fields
from auditor.findings import Finding
from auditor.formats import vocab as V
from auditor.formats.assembler import EXTRA_FACTS, HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk
from auditor.formats.facts import ExportFacts
from auditor.formats.firstchars import first_chars, required_literal
from auditor.formats.pegline import LineRegex, compile_line
from auditor.formats.quick import READERS
from auditor.formats.quick import plan as quick_plan

if TYPE_CHECKING:
    from parsimonious.grammar import Grammar

#: Rule names every text grammar must define (the visitor's contract).  Every other line rule is
#: optional: ``entry`` lists the ones a format prints, each named for the handler that reads it.
REQUIRED_RULES = ("hand", "hand_head", "header", "table", "seat", "entry", "unknown", "f_amount")

#: The named groups the handlers read: line values, and the header and table facts the assembler
#: keeps.  A grammar's group outside this set would be read by nobody (a test forbids that).
GROUPS_READ = frozenset({
    "player", "seat", "stack", "bounty", "status", "kind", "amount", "allin", "straddle_total", "verb", "to",
    "cap", "cards", "new", "name", "prior", "n", "pat", "desc", "pot", "rest", "roles", "total", "rake", "label",
    "fee", "insurance", "what", "text", "by", "ends", "live", "year", "opens", "discards", "run", "redealt",
    "button_player", "seats_listed", "table_name", "dead", "inc",
    "seats_by_position", "streets_by_betting", "structure_unprinted",
    "hand_id", "game", "structure", "sb", "bb", "lsb", "lbb", "ante", "button_blind", "currency", "decimals",
    "button", "max_seats", "table", "tournament_id", "level", "date", "tz", "money",
    *EXTRA_FACTS,
})  # fmt: skip

#: Most decimals an amount may need before a hand is read again in finer units.
MAX_DECIMALS = 4

_FRAG_DEF = re.compile(r'^(f_\w+)\s*=\s*~r"((?:[^"\\]|\\.)*)"', re.M)
_FRAG_REF = re.compile(r"<<(f_\w+)>>")
_COMMENT = re.compile(r"^[ \t]*#[^\n]*$", re.M)


def compose(files: Sequence[Path]) -> str:
    """The grammar text of a chain of ``.peg`` files, fragments expanded, ready for parsimonious."""
    text = _COMMENT.sub("", "\n".join(p.read_text("utf-8") for p in files))
    frags: dict[str, str] = {}
    for m in _FRAG_DEF.finditer(text):
        name, pattern = m.group(1), m.group(2)
        if "<<super>>" in pattern:
            if name not in frags:
                raise ValueError(f"fragment {name} extends <<super>> but no earlier file defines it")
            pattern = pattern.replace("<<super>>", frags[name])
        frags[name] = pattern

    def expand(pattern: str, depth: int = 0) -> str:
        if depth > 20:
            raise ValueError(f"fragment cycle in grammar chain {[p.name for p in files]}")

        def one(r: re.Match[str]) -> str:
            if r.group(1) not in frags:
                raise ValueError(f"unknown fragment {r.group(1)} in grammar chain {[p.name for p in files]}")
            return "(?:" + expand(frags[r.group(1)], depth + 1) + ")"

        return _FRAG_REF.sub(one, pattern)

    # fragment definitions themselves stay in the text (as unused rules), expanded like any rule
    out = _FRAG_DEF.sub(lambda m: f'{m.group(1)} = ~r"{expand(frags[m.group(1)])}"', text)
    return expand(out)


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
    prefix: str = ""  # the literal text every match starts with (derived from ``regex``): a cheap first test
    fast: LineRegex | None = None  # ``expr`` as one regex (see pegline), when it translates

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # the compiled build pickles it (see by_fields)
        return by_fields(self)


_META = set(".^$*+?{}[]|()")


def literal_prefix(pattern: str, flags: int = 0) -> str:
    """The literal text every match of ``pattern`` starts with ("" when it can start with anything).

    Read from the pattern itself (the grammar stays the one source of what a line is): characters
    up to the first regex operator, escapes of punctuation and spaces included; a character made
    optional by the quantifier after it is not part of the prefix; a top-level alternation or a
    case-insensitive pattern has no prefix.
    """
    if flags & re.IGNORECASE:
        return ""
    depth = 0
    for i, ch in enumerate(pattern):  # a top-level "|" makes every literal start uncertain
        if ch == "\\":
            continue
        if ch == "(" and (i == 0 or pattern[i - 1] != "\\"):
            depth += 1
        elif ch == ")" and pattern[i - 1] != "\\":
            depth -= 1
        elif ch == "|" and depth == 0 and pattern[i - 1] != "\\":
            return ""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern) and not pattern[i + 1].isalnum():
            lit, step = pattern[i + 1], 2
        elif ch not in _META and ch != "\\":
            lit, step = ch, 1
        else:
            break
        if pattern[i + step : i + step + 1] in ("?", "*", "{"):
            break  # optional: not part of every match
        out.append(lit)
        i += step
    return "".join(out)


@dataclass(frozen=True)
class PegGrammar:
    """A compiled grammar chain of one text format."""

    format: str
    # rule name -> parsimonious expression (a plain dict of the compiled Grammar's rules: a cached
    # grammar then loads without parsimonious.grammar, see parsimonious_light)
    grammar: dict[str, Any]
    won_re: re.Pattern[str]
    lines: tuple[LineRule, ...]
    #: The body line rules worth trying on a line, by the line's first character (derived from the
    #: rules' literal prefixes and first characters, so the grammar alone decides): a rule whose
    #: every match starts with "Seat " is only tried on lines starting with "S".  Order is the
    #: grammar's (ordered choice).  Derived once in :meth:`compile` (a plain field, not a cached
    #: property: the compiled build's classes have no ``__dict__`` to cache in).
    dispatch: Dispatch
    #: How the fast path reads the hand's head line by line (see :func:`_head_plan`), or None.
    head_plan: HeadPlan | None
    facts: ExportFacts = field(default_factory=ExportFacts)  # the format's export facts (what it never prints)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # the compiled build pickles it (see by_fields)
        return by_fields(self)

    @classmethod
    def compile(cls, format_name: str, files: Sequence[Path], facts: ExportFacts | None = None) -> PegGrammar:
        from parsimonious.grammar import Grammar

        text = compose(files)
        g = Grammar(text)
        missing = [r for r in REQUIRED_RULES if r not in g]
        if missing:
            raise ValueError(f"grammar of {format_name} lacks rules {missing}")
        amount = g["f_amount"].re.pattern
        won = re.compile(r"(?:won|collected|and won) \(?(" + amount + r")\)?")
        lines = _line_rules(g)
        return cls(format_name, dict(g), won, lines, Dispatch.of(lines), _head_plan(g), facts or ExportFacts())

    def regex_of(self, rule: str) -> re.Pattern[str]:
        """The pattern that starts ``rule`` (its first terminal), for detection."""
        expr = self.grammar[rule]
        while not isinstance(expr, Regex):
            if not getattr(expr, "members", None):
                raise ValueError(f"rule {rule} of {self.format} does not start with a regex")
            expr = expr.members[0]
        return re.compile(expr.re.pattern, expr.re.flags & 0xFF)


def _head_plan(g: Grammar) -> HeadPlan | None:
    """How the fast path reads the hand's head line by line, when the grammar's head has the
    base shape ``hand_head = header nl table nl seat_block`` with ``seat_block = seat (nl seat)*``
    and plain-regex ``table`` and ``seat`` rules (None otherwise: parsimonious reads the head)."""
    try:
        head, block = g["hand_head"], g["seat_block"]
    except KeyError:
        return None
    members = tuple(getattr(head, "members", ()))
    if members != (g["header"], g["nl"], g["table"], g["nl"], block):
        return None
    table, seat = g["table"], g["seat"]
    if not (isinstance(table, Regex) and isinstance(seat, Regex)) or "__" in table.name + seat.name:
        return None
    tail: tuple[Any, ...] = tuple(getattr(block, "members", ()))
    if len(tail) != 2 or tail[0] is not seat or not isinstance(tail[1], Quantifier):
        return None
    if tail[1].min != 0 or tail[1].max != float("inf"):
        return None
    rep = tail[1].members[0]
    if tuple(getattr(rep, "members", ())) != (g["nl"], seat):
        return None
    seat_rx = _std(seat)
    quick = quick_plan("seat", seat_rx)  # the seat lines' values as one tuple (auditor.formats.quick)
    if quick is None:
        return HeadPlan(g["header"], _std(table), seat_rx, compile_line(g["header"]))
    return HeadPlan(g["header"], _std(table), quick[0], compile_line(g["header"]), quick[1])


def _std(r: Regex) -> re.Pattern[str]:
    """A grammar regex compiled with the standard library (as the body line rules are)."""
    return re.compile(r.re.pattern, r.re.flags & 0xFF)


@dataclass(frozen=True, slots=True)
class HeadPlan:
    """The grammar's own head rules, for reading the head one line at a time (see
    :attr:`PegGrammar.head_plan`): the header expression (parsimonious) and the table and seat
    regexes."""

    header: Any
    table: re.Pattern[str]
    seat: re.Pattern[str]
    header_fast: LineRegex | None = None  # ``header`` as one regex (see pegline), when it translates
    #: the group numbers of a seat line's values when :mod:`~auditor.formats.quick` reads it
    #: (``seat`` is then the grammar's seat regex as that module extends it)
    seat_values: tuple[int, ...] | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # the compiled build pickles it (see by_fields)
        return by_fields(self)


#: One line rule as the fast path tries it: prefix, a literal every match contains when the rule
#: has no prefix ("" for none: see ``firstchars.required_literal``), regex (or None), parsimonious
#: expression, rule name, handler name, the expression as one regex (or None: see pegline), and the
#: group numbers of its handler's values when a reader of :mod:`~auditor.formats.quick` reads it
#: (the regex is then the rule's regex as that module extends it; or None: the handler reads a groupdict).
Candidate = tuple[str, str, "re.Pattern[str] | None", Any, str, str, "LineRegex | None", "tuple[int, ...] | None"]


#: Most lines a :attr:`Dispatch.memo` holds before it starts again empty (bounded memory: ~400
#: bytes a line, ~3.2 MiB full).  Share of the corpus's body lines met again: PokerStars 54.7, 55.6
#: and 56.5% with 2,048, 4,096 and 8,192 lines, GGPoker 33.8, 36.9 and 39.5% (s13-body).
MEMO_LINES = 8192


@dataclass(frozen=True, slots=True)
class Dispatch:
    """Line rules by first character (see :attr:`PegGrammar.dispatch`).

    ``memo`` holds, by the text of a body line already read whole by a rule with a reader of
    :mod:`~auditor.formats.quick`, that reader and the line's values: what matching the line again
    would give, since a line's reading depends on its text and the grammar alone (the most
    frequent lines repeat: "Ann: folds", "*** FLOP *** ...", "Seat 4: Bob folded before Flop (didn't
    bet)").  It is a cache of the grammar's own answers, never written by hand, bounded by
    :data:`MEMO_LINES`, and not pickled with the grammar.
    """

    by_first: dict[str, tuple[Candidate, ...]]
    other: tuple[Candidate, ...]  # lines whose first character starts no rule's prefix
    memo: dict[str, tuple[Callable[[PegVisitor, tuple[Any, ...]], None], tuple[Any, ...]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # the compiled build pickles it (not its memo)
        return Dispatch, (self.by_first, self.other)

    @classmethod
    def of(cls, lines: Sequence[LineRule]) -> Dispatch:
        cands: list[Candidate] = []
        for r in lines:
            quick = quick_plan(r.handler, r.regex) if r.regex is not None else None
            # a rule without a prefix is skipped on a line without the literal all its matches contain
            # (read from the grammar's regex: "Ann collected ..." is not tried as "Ann: folds")
            needs = required_literal(r.regex) if r.regex is not None and not r.prefix else ""
            if quick is None:
                cands.append((r.prefix, needs, r.regex, r.expr, r.name, r.handler, r.fast, None))
            else:
                cands.append((r.prefix, needs, quick[0], r.expr, r.name, r.handler, r.fast, quick[1]))
        # the characters each rule can start with: its literal prefix's first, else what its regex
        # can start with (firstchars, read from the grammar's own regex; None: any character)
        starts = [frozenset(r.prefix[0]) if r.prefix else first_chars(r.regex) if r.regex is not None else None
                  for r in lines]  # fmt: skip
        firsts = set().union(*(s for s in starts if s is not None))
        by_first = {c: tuple(x for x, s in zip(cands, starts, strict=True) if s is None or c in s) for c in firsts}
        return cls(by_first, tuple(x for x, s in zip(cands, starts, strict=True) if s is None))

    def rules_for(self, line: str) -> tuple[Candidate, ...]:
        return self.by_first.get(line[:1], self.other)


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
                flags = a.re.flags & 0xFF
                out.append(LineRule(handler, a.name, re.compile(a.re.pattern, flags), None,
                                    literal_prefix(a.re.pattern, flags)))  # fmt: skip
        else:
            out.append(LineRule(handler, member.name, None, member, _first_prefix(member), compile_line(member)))
    return tuple(out)


def _first_prefix(expr: Any) -> str:
    """The literal prefix of a sequence's first term (``total = total_head ...``: "Total pot ")."""
    while not isinstance(expr, Regex):
        if isinstance(expr, OneOf) or not getattr(expr, "members", None):
            return ""
        expr = expr.members[0]
    return literal_prefix(expr.re.pattern, expr.re.flags & 0xFF)


def matches_line(grammar: PegGrammar, line: str) -> bool:
    """Whether one of the grammar's body line rules, other than ``unknown``, reads the whole line."""
    for prefix, needs, regex, expr, _name, handler, _fast, _quick in grammar.dispatch.rules_for(line):
        if handler == "unknown" or (prefix and not line.startswith(prefix)) or (needs and needs not in line):
            continue
        if regex is not None:
            m = regex.match(line)
            if m is not None and m.end() == len(line):
                return True
            continue
        try:
            if expr.match(line).end == len(line):
                return True
        except ParseError:
            continue
    return False


class _Slow(Exception):
    """The fast line path met something only the full parse can report exactly."""


Parts = list[tuple[str, dict[str, Any]]]


#: Table lines already read by :meth:`PegVisitor.read_head`: by the line's text, the table regex
#: that read it whole and the values it gave (those not None), which is what matching the line
#: again gives (a table's hands repeat its line, the button aside: 76% of the PokerStars corpus's).
#: A cache of the grammar's own answers, bounded by :data:`TABLES_KEPT` (cleared when full).
_TABLES: Final[dict[str, tuple[re.Pattern[str], dict[str, Any]]]] = {}
TABLES_KEPT: Final = 1024


def _table_values(table: re.Pattern[str], line: str) -> dict[str, Any] | None:
    """The values of the table line ``line`` read whole by ``table`` (those not None), or None
    when ``table`` does not read all of it."""
    known = _TABLES.get(line)
    if known is not None and known[0] is table:
        return known[1]
    m = table.match(line)
    if m is None or m.end() != len(line):
        return None
    values = {k: v for k, v in m.groupdict().items() if v is not None}
    if len(_TABLES) >= TABLES_KEPT:
        _TABLES.clear()
    _TABLES[line] = (table, values)
    return values


class PegVisitor:
    """Walks a parse tree (or body lines) and hands each line's groups to the assembler."""

    def __init__(self, grammar: PegGrammar, a: HandAssembler) -> None:
        self.g = grammar
        self.a = a
        self.pots_won: list[tuple[str, int]] = []  # pots printed on their award lines (see on_pot_won)

    # -- tree walk
    def walk(self, root: Node) -> None:
        handlers = HANDLERS
        a = self.a
        line_start = 0
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            name = node.expr_name
            if name == "nl":
                a.line += 1
                line_start = node.end
                continue
            if name:
                h = handlers.get(name.split("__", 1)[0])
                if h is not None:
                    a.col = node.start - line_start + 1
                    parts: Parts = []
                    _regex_parts(node, parts)
                    h(self, parts, node)
                    continue
            if node.children:
                stack.extend(reversed(node.children))

    def read_lines(self, lines: Sequence[str], first: int) -> None:
        """Read body lines one by one with the grammar's ``entry`` alternatives."""
        d = self.g.dispatch
        by_first, other, memo = d.by_first, d.other, d.memo
        handlers = HANDLERS
        readers = READERS
        a = self.a
        a.col = 1  # every body line is read whole, from its first column (no handler moves it)
        for n, line in enumerate(lines, first):
            known = memo.get(line)  # (never an empty line: none is read)
            if known is not None:  # read before: the same reader, the same values (see Dispatch.memo)
                a.line = n
                known[0](self, known[1])
                continue
            if not line:
                continue
            a.line = n
            for prefix, needs, regex, expr, name, handler, fast, quick in by_first.get(line[0], other):
                if prefix and not line.startswith(prefix):
                    continue
                if needs and needs not in line:
                    continue
                if regex is not None:
                    m = regex.match(line)
                    if m is None:
                        continue
                    if m.end() != len(line):
                        raise _Slow
                    if quick is not None:  # the line's values as one tuple (see auditor.formats.quick)
                        reader, values = readers[handler], m.group(*quick)
                        if len(memo) >= MEMO_LINES:
                            memo.clear()
                        memo[line] = (reader, values)
                        reader(self, values)
                        break
                    parts: Parts = [(name, m.groupdict())]
                elif fast is not None:  # the expression as one regex: what parsimonious would give
                    got = fast.match(line)
                    if got is None:
                        continue
                    if got[0] != len(line):
                        raise _Slow
                    parts = got[1]
                else:
                    try:
                        node = expr.match(line)
                    except ParseError:
                        continue
                    if node.end != len(line):
                        raise _Slow
                    parts = []
                    _regex_parts(node, parts)
                handlers[handler](self, parts, line)  # (the line itself: see on_unknown)
                break
            else:
                raise _Slow

    def read_head(self, plan: HeadPlan, lines: tuple[str, ...]) -> int:
        """Read the head (header, table line, seats) line by line with the grammar's own rules, as
        ``hand_head`` would; returns how many lines it took.  Anything else goes to the full parse."""
        a = self.a
        if len(lines) < 3:
            raise _Slow
        head = lines[0]
        fast = plan.header_fast
        if fast is not None and fast.flat is not None:  # the header rule as one regex, its values merged
            merged = fast.values(head)
            if merged is None or merged[0] != len(head):
                raise _Slow  # the full parse reports it
            a.col = 1
            a.header(merged[1])  # what on_header gives the assembler
        elif fast is not None:  # the header rule as one regex (see pegline)
            got = fast.match(head)
            if got is None or got[0] != len(head):
                raise _Slow  # the full parse reports it
            a.col = 1
            HANDLERS["header"](self, got[1], head)
        else:
            header = plan.header.match(head)  # ParseError: the full parse reports it
            if header.end != len(head):
                raise _Slow
            self.walk(header)
        first = a.line
        table = _table_values(plan.table, lines[1])
        if table is None:
            raise _Slow
        a.line, a.col = first + 1, 1  # (no handler moves the column: 1 for every seat line too)
        a.table(table)  # what on_table does with the table rule's one part
        n = 2  # then one seat line or more (seat_block)
        match = plan.seat.match  # (bound once a hand: a call per line, not a method look-up)
        values = plan.seat_values
        # a seat line's values as quick's seat reader takes them (seat, player, stack, bounty,
        # status: quick.FIELDS["seat"]), by their index in ``groups()`` (group numbers start at 1),
        # handed to the assembler in one direct call; or, without them, its parts for on_seat
        s, p, k, b, t = (0, 0, 0, 0, 0) if values is None else [v - 1 for v in values]
        end = len(lines)
        while n < end:
            line = lines[n]
            m = match(line)
            if m is None:
                break
            if m.end() != len(line):
                raise _Slow
            a.line = first + n
            if values is not None:
                g = m.groups()
                a.seat(g[s], g[p], g[k], g[b], g[t])
            else:
                HANDLERS["seat"](self, [("seat", m.groupdict())], None)
            n += 1
        if n == 2:
            raise _Slow  # no seat line: the full parse reports it
        return n

    # -- handlers: one per line rule name
    def on_header(self, parts: Parts, node: Node) -> None:
        values: dict[str, Any] = {}
        for _, g in parts:
            values.update({k: v for k, v in g.items() if v is not None})
        self.a.header(values)

    def on_table(self, parts: Parts, node: Node) -> None:
        for _, g in parts:
            self.a.table(g)

    def on_seat(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.a.seat(g["seat"], g["player"], g["stack"], g.get("bounty"), g.get("status") or "")

    def on_post(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        if g.get("dead") is not None and g.get("total") is not None:
            # the total posted and its dead part ("Posts dead $40 dead $15", Absolute 2007): the rest is live
            g = {**g, "amount": self.a.money_text(self.a.amt(g["total"]) - self.a.amt(g["dead"]))}
        if g.get("dead") is not None:
            # "posts dead blind [$1 + $2]" (888): a dead part, then a live big blind unless it is 0
            self.a.post(g["player"], "dead blind", g["dead"])
            if self.a.amt(g["amount"]) == 0:
                return
            self.a.post(g["player"], "big blind", g["amount"], bool(g.get("allin")))
            return
        self.a.post(g["player"], g["kind"], g.get("amount"), bool(g.get("allin")), g.get("straddle_total", True),
                    live=g.get("live") is not None)  # fmt: skip

    def on_action(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.a.action(g["player"], g["verb"], g.get("amount"), g.get("to"), bool(g.get("allin")),
                      g.get("cap") is not None, g.get("cards"), g.get("inc"), by=g.get("by"))  # fmt: skip

    def on_all_in(self, parts: Parts, node: Node) -> None:
        """A line of its own that says the player's last wager put them all-in (PartyPoker)."""
        self.a.mark_all_in(parts[0][1]["player"])

    def on_dealt(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        if g.get("redealt") is not None:  # a draw's whole new hand (OnGame "New hand for Hero: [..]")
            self.a.redealt(g["player"], g["redealt"])
            return
        self.a.dealt(g["player"], g.get("cards"), g.get("new"))

    def on_street(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.a.street_marker(g["name"], g.get("cards"), g.get("prior"))

    def on_draw(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        # the discarded cards printed, not their number (Kings Club "X discards [Ts Jh] draws [3c 6c]")
        discards = g.get("discards")
        n = len(V.cards_of(discards)) if discards is not None else 0 if g.get("pat") else int(g["n"])
        self.a.draw(g["player"], n, g.get("cards"), opens=g.get("opens") is not None)

    def on_show(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        run = g.get("run")  # a show of one run of a draw run twice (Kings Club "Run 2: X shows [..]")
        self.a.show(g["player"], g["cards"], g.get("desc"), run=int(run) if run else None)

    def on_muck(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.a.muck(g["player"], g.get("cards"))

    def on_uncalled(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.a.uncalled(g["player"], g["amount"])

    def on_collect(self, parts: Parts, node: Node) -> None:
        for _, g in parts:  # one claim a line; two when a site prints two award lines as one (Party Mac)
            if g.get("cards"):  # a summary line that also reveals the player's cards (PartyPoker)
                self.a.show(g["player"], g["cards"], g.get("desc"))
            self.a.collect(g["player"], g["amount"], g.get("pot"))
            if g.get("ends") is not None:  # a format with no summary: its award lines end the hand
                self.a.end()

    def on_summary_seat(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.summary_seat(g["seat"], g["player"], g.get("rest"), g.get("roles"))

    def summary_seat(self, seat: str, player: str, rest: str | None, roles: str | None) -> None:
        """A summary seat line's values (``rest`` and ``roles`` None when not printed) as the seat's
        result (what :mod:`~auditor.formats.quick`'s reader does with them)."""
        self.a.seat_result(seat, player, rest, roles, self.g.won_re)

    def on_summary_award(self, parts: Parts, node: Node) -> None:
        """A summary seat line that is the site's only record of what the player won ("Seat 8: Ann
        collected (12.00)", Chico): the seat's result, and a collect of each amount it names."""
        self.on_summary_seat(parts, node)
        g = parts[0][1]
        for m in self.g.won_re.finditer(g.get("rest") or ""):
            self.a.collect(g["player"], m.group(1))

    def on_summary_won(self, parts: Parts, node: Node) -> None:
        """A summary seat line that names what the player won, in a format whose award lines may be
        missing (Full Tilt prints "Seat 4: Ann collected ($3.80), mucked" with no "Ann wins the pot"
        line): the seat's result, and a collect of each amount when no award line named the player."""
        self.on_summary_seat(parts, node)
        g = parts[0][1]
        if self.a.seats and g["player"] not in {s.player for s in self.a.seats}:
            return  # a garbled line names no seated player: nothing to credit (a record without
            # seat lines names its players here: auditor/formats/partial.py)
        if any(isinstance(e, M.Collect) and e.player == g["player"] for e in self.a.events):
            return
        for m in self.g.won_re.finditer(g.get("rest") or ""):
            self.a.collect(g["player"], m.group(1))

    def on_pot_won(self, parts: Parts, node: Node) -> None:
        """A pot and its winners on one line ("Main pot: $1.00 won by A ($0.50), B ($0.45)", OnGame):
        a collect of each share; the pot is kept for the summary's pot claim (see ``on_total``)."""
        label = "pot"
        for name, g in parts:
            if name.startswith("pot_won_head"):
                label = g["label"]
                self.pots_won.append((V.pot_label(label), self.a.amt(g["amount"])))
            elif name.startswith("pot_won_share"):
                self.a.collect(g["player"], g["amount"], label)

    def on_table_cards(self, parts: Parts, node: Node) -> None:
        self.a.table_cards(parts[0][1]["cards"])

    def on_board(self, parts: Parts, node: Node) -> None:
        """Summary ``Board [..]`` lines repeat what the street markers printed: nothing to record
        (unless the export printed no street markers: see ``HandAssembler.summary_board``)."""
        cards = parts[0][1].get("cards") if parts else None
        if cards:
            self.a.summary_board(cards)

    def on_total(self, parts: Parts, node: Node) -> None:
        a = self.a
        amt = a.amt
        total: int | None = None
        pots: list[tuple[str, int]] = []
        fees: list[tuple[str, int]] = []
        rake: int | None = None
        unit = 1
        fee_rake = False  # several rake parts (PKR: one line per raked pot) add up
        kinds = _TOTAL_PARTS
        labels = _FEE_LABELS
        for name, g in parts:
            kind = kinds.get(name)
            if kind is None:
                kind = _total_part(name)
            if kind == _FEE:
                label = labels.get(g["label"]) or _fee_label(g["label"])
                if label == "rake":
                    rake = ((rake or 0) if fee_rake else 0) + amt(g["amount"])
                    fee_rake = True
                elif label == "stp" and any(isinstance(e, M.CashDrop) for e in a.events):
                    pass  # "Splash the pot": the house's money added to the pot (its drop line), not a fee
                else:
                    fees.append((label, amt(g["amount"])))
            elif kind == _HEAD:
                total = amt(g["total"])
                unit = _printed_unit(g["total"], a.decimals)
                if g.get("rake") is not None:
                    rake = amt(g["rake"])
            elif kind == _POT:
                pots.append((V.pot_label(g["label"]), amt(g["amount"])))
            elif kind == _NORAKE:
                rake = 0
        if not pots and self.pots_won:  # the pots were printed on their award lines (OnGame)
            pots = list(self.pots_won)
        if total is None:  # the pots are printed, not their total (PartyPoker "Main Pot: .. Side Pot 1: ..")
            total = sum(v for _, v in pots)
        a.pot_claim(total, tuple(pots), rake, tuple(fees), unit)

    def on_cashout(self, parts: Parts, node: Node) -> None:
        g = parts[0][1]
        self.a.cash_out(g["player"], g.get("amount"), g.get("fee"), bool(g.get("insurance")))

    def on_cash_drop(self, parts: Parts, node: Node) -> None:
        self.a.cash_drop(parts[0][1]["amount"])

    def on_table_event(self, parts: Parts, node: Node) -> None:
        name, g = parts[0]
        if name.startswith("chat"):
            self.a.table_event(g.get("player"), "chat", g.get("text") or "")
            return
        what = (g.get("what") or "").lower()
        self.a.table_event(g.get("player"), V.table_event_kind(what), what)

    def on_cancelled(self, parts: Parts, node: Node) -> None:
        self.a.cancel()

    def on_info(self, parts: Parts, node: Node) -> None:
        """Lines that are understood and carry nothing the event log needs ("Hand was run twice")."""

    def on_unknown(self, parts: Parts, node: Node | str) -> None:
        """A line no other rule reads: ``node`` is its parse node, or in the fast path the line
        itself (no object is built per line for the handlers, which read only their parts)."""
        self.a.unrecognised(node if isinstance(node, str) else node.text)


#: The parts of a ``total`` line on_total reads, by the name of the grammar rule that printed them
#: (a rule named ``total_fee`` or ``total_fee__<variant>`` is a fee); any other part is read by no one.
_HEAD, _POT, _FEE, _NORAKE, _OTHER = range(5)
_TOTAL_PARTS: dict[str, int] = {}  # rule name -> its part (filled by _total_part: a grammar's few names)
_FEE_LABELS: dict[str, str] = {}  # printed fee label -> its name ("Cash Drop" -> "cash_drop"), bounded


def _total_part(name: str) -> int:
    """Which part of a ``total`` line the rule ``name`` printed (see :data:`_TOTAL_PARTS`)."""
    kind = _OTHER
    for k, prefix in ((_HEAD, "total_head"), (_POT, "total_pot"), (_FEE, "total_fee"), (_NORAKE, "total_norake")):
        if name.startswith(prefix):
            kind = k
            break
    if len(_TOTAL_PARTS) < 4096:
        _TOTAL_PARTS[name] = kind
    return kind


def _fee_label(text: str) -> str:
    """A fee's printed label as its name: lower case, spaces as underscores."""
    label = _FEE_LABELS.get(text)
    if label is None:
        label = text.lower().replace(" ", "_")
        if len(_FEE_LABELS) >= 1024:
            _FEE_LABELS.clear()
        _FEE_LABELS[text] = label
    return label


_THOUSANDS = re.compile(r"[\d,]*(?:\.(\d*))?\s*[kK]$")


def _printed_unit(text: str, decimals: int) -> int:
    """The precision of a printed amount in minor units: 1, or for thousands written with a ``k``
    ("17.68k", Winamax) the last digit printed (10 chips)."""
    if "k" not in text and "K" not in text:
        return 1  # (no thousands mark: what the search below finds, without searching from each position)
    m = _THOUSANDS.search(text.strip())
    if m is None:
        return 1
    digits: int = max(0, 3 - len(m.group(1) or "") + decimals)
    return int(10**digits)


def _regex_parts(node: Node, out: Parts) -> None:
    if isinstance(node, RegexNode):
        out.append((node.expr_name, node.match.groupdict()))
        return
    for c in node.children:
        _regex_parts(c, out)


HANDLERS: dict[str, Callable[[PegVisitor, Parts, Any], None]] = {
    name[3:]: fn for name, fn in vars(PegVisitor).items() if name.startswith("on_") and callable(fn)
}

_ID_RE = re.compile(
    r"(?:#Game No : |Hand History [Ff]or Game |Game # |History for hand |\*\* Game ID |\*\* Hand # |#"
    r"|HandId: #|^Game ID: |gamecode=\"|<HAND time=\"\d+\" id=\""
    r"|<game id=\"|<Game (?:hhversion=\"\d+\" )?id=\"|<HISTORY ID=\")([\w-]+)"
)


#: the hand id of a JSON hand object (IGT: ``"handId":"54500000.hand.202"``)
_JSON_ID_RE = re.compile(r'"handId":"([^"\n]+)"')


def quick_id(line: str) -> str | None:
    """The hand id of a header line, read loosely (for findings on hands that cannot be read)."""
    m = _ID_RE.search(line) or _JSON_ID_RE.search(line)
    return m.group(1) if m else None


def read_hand(grammar: PegGrammar, chunk: Chunk, fast: bool = True) -> tuple[M.Hand | None, list[Finding]]:
    """Read one hand of a text format.  Returns the Hand (or None when it cannot be read) and its findings.

    With ``fast`` the body lines are matched one by one (see :meth:`PegVisitor.read_lines`);
    ``fast=False`` parses the whole hand with parsimonious.  The two give identical results.
    """
    min_decimals = 0
    not_dealt: frozenset[str] = frozenset()
    g = grammar.grammar

    def assembler() -> HandAssembler:
        a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines), min_decimals, grammar.facts)
        a.not_dealt = not_dealt
        return a

    for _attempt in range(3):
        a = assembler()
        v = PegVisitor(grammar, a)
        try:
            if fast:
                try:
                    plan = grammar.head_plan
                    if plan is not None:
                        n = v.read_head(plan, chunk.lines)
                    else:
                        text = chunk.text  # (joined only where parsimonious reads the text)
                        head = g["hand_head"].match(text)
                        n = text.count("\n", 0, head.end) + 1
                        if head.end < len(text) and text[head.end] != "\n":
                            raise _Slow
                        v.walk(head)
                    v.read_lines(chunk.lines[n:], chunk.first_line + n)
                except (_Slow, ParseError):
                    a = assembler()
                    v = PegVisitor(grammar, a)
                    v.walk(g["hand"].parse(chunk.text))
            else:
                v.walk(g["hand"].parse(chunk.text))
            hand = a.build()  # header amounts (stakes, ante) are converted here: a bad one is P006 too
        except (ParseError, IncompleteParseError) as e:
            return None, [_p001(chunk, e, _hand_id(chunk))]
        except ReadFailure as e:
            # Chips printed with decimals at a table whose stakes have none (some Winamax
            # tournaments print 292.50 chips): read the hand again in hundredths, so that every
            # amount stays exact.
            if e.code == "P006" and 0 < e.needed <= MAX_DECIMALS and a.decimals < e.needed and not min_decimals:
                min_decimals = max(2, e.needed)
                continue
            return None, [*a.findings, F.make(e.code, chunk.path, e.line, e.col, e.message,
                                              site=chunk.site, hand_id=_hand_id(chunk))]  # fmt: skip
        absent = a.absent_blinds()
        if absent and not not_dealt:
            # a seated player who never appears (moved to the table, not dealt in) was given a
            # derived blind: read the hand again with the blinds on the players dealt in
            not_dealt = absent
            continue
        break
    return hand, a.findings


def _hand_id(chunk: Chunk) -> str | None:
    """The hand id of a hand that cannot be read, from its first line (read only then: a search
    of the header line costs ~2 us a hand)."""
    return quick_id(chunk.lines[0] if chunk.lines else "")


def _p001(chunk: Chunk, e: ParseError, hid: str | None) -> Finding:
    line = e.line() or 1
    col = e.column() or 1
    expected = e.expr.name if e.expr is not None and e.expr.name else str(e.expr)
    src = chunk.lines[line - 1] if 0 < line <= len(chunk.lines) else ""
    return F.make("P001", chunk.path, chunk.first_line + line - 1, col,
                  f"the {chunk.site} grammar could not read this hand: expected {expected} at line "
                  f"{chunk.first_line + line - 1}, column {col}: {src[:100]!r}",
                  site=chunk.site, hand_id=hid, expected=expected)  # fmt: skip
