"""One line rule of a grammar as one regex: the fast path's way to read the lines that are not a
single regex in the grammar (the header, ``total = total_head total_pot* (total_norake /
total_fee*) eol``) without parsimonious building a tree (issue 16).

:func:`compile_line` translates a parsimonious expression into one pattern of the ``regex`` module
(the module parsimonious compiles the grammar's own regexes with), so that matching it gives what
``expr.match(line)`` gives: the same end, and the same ``(terminal name, groupdict)`` of every
regex terminal in the tree's order (what the visitor's handlers read).  The grammar stays the one
source: nothing is written twice, the pattern is derived from the compiled grammar.

PEG and regex differ in backtracking; the translation closes every gap:

* a regex terminal is matched once at its position and never re-entered: ``(?>...)`` (atomic);
* an ordered choice commits to the first alternative that matches: ``(?>a|b)``;
* a repetition is greedy and never gives back: ``(?:...){m,n}+`` (possessive), each round guarded
  by ``(?!\\Z)`` because parsimonious stops repeating at the end of the text, and each round
  atomic; a repetition (more than one round) of what may match nothing is not translated (the two
  count empty rounds differently);
* a lookahead is ``(?=...)`` / ``(?!...)``; the terminals inside it are not in the tree.

Every terminal is wrapped in a named group ``_t<N>`` and its groups renamed ``_t<N>_<name>``; a
terminal inside a repetition has one capture per round (``regex``'s ``spans``), each matched again
with the terminal's own regex for its groups (as parsimonious matches it there).  A repetition of
one terminal alone (``total_pot*``) is one group spanning its rounds, read back round after round
with the terminal's own regex; a rule with no other repetition is then compiled with the standard
library (atomic groups and possessive repetition since Python 3.11), two to three times faster
than ``regex`` on these patterns.  Expressions the
translation does not cover (back references, global inline flags, flags other than ignore-case,
other expression types) give None: the caller keeps parsimonious for them.
``tests/test_fast_path.py`` checks fast path and full parse agree on every fixture and corpus hand,
and ``tests/test_pegline.py`` checks this module against parsimonious line by line.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Any

import regex  # type: ignore[import-untyped,import-not-found,unused-ignore]  # (no stubs installed; parsimonious's regex engine)
from parsimonious.expressions import Literal, Lookahead, OneOf, Quantifier, Sequence
from parsimonious.expressions import Regex as PegRegex

from auditor.fastinit import by_fields  # frozen classes pickled through their constructor (the grammar cache)

Parts = list[tuple[str, dict[str, Any]]]

_GROUP = re.compile(r"\\.|\(\?P<(\w+)>|\[(?:\\.|[^\]\\])*\]", re.S)
# back references, conditionals, global inline flags: numbering or meaning would change when joined
_UNSAFE = re.compile(r"\\[1-9gk]|\\.|(\(\?P=|\(\?\(|\(\?<\w|\(\?[aiLmsuxV0-9]+\))")


def _unsafe(pattern: str) -> bool:
    """Whether ``pattern`` refers to its own groups, names a group as ``(?<name>`` (not renamed
    here) or sets global flags (escapes skipped)."""
    return any(m.group(1) is not None or m.group(0)[1:2] in tuple("123456789gk") for m in _UNSAFE.finditer(pattern))


_BASE_FLAGS = regex.UNICODE | regex.VERSION0
_IGNORE_CASE = regex.IGNORECASE


class Untranslatable(Exception):
    """The expression holds something :func:`compile_line` does not translate."""


@dataclass(frozen=True, slots=True)
class _Terminal:
    name: str  # the terminal's rule name (RegexNode.expr_name)
    group: int  # number of the wrapper group
    names: tuple[str, ...]  # the terminal's own group names, in its order
    groups: tuple[int, ...]  # their numbers in the joined pattern
    repeated: bool  # inside a repetition: one capture per round
    own: Any  # the terminal's compiled regex (a round of a repetition is matched again with it)
    rounds: bool = False  # the group spans a repetition of this terminal alone: its rounds, back to back

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class LineRegex:
    """A line rule as one regex (see the module docstring)."""

    regex: Any  # regex.Pattern[str], or re.Pattern[str] when no terminal is repeated (see compile_line)
    terminals: tuple[_Terminal, ...]
    repeated: bool = False  # a terminal inside a repetition (its rounds need ``regex``'s ``spans``)
    #: every terminal's (group name, group number), in the tree's order, when no terminal repeats:
    #: what :meth:`values` reads (None: the rule has repetitions)
    flat: tuple[tuple[str, int], ...] | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)

    def values(self, line: str) -> tuple[int, dict[str, Any]] | None:
        """``(end, values)``: the values of every terminal's groups that took part, merged in the
        tree's order (a later terminal's value of a name replaces an earlier one's), which is what
        a handler that merges :meth:`match`'s parts gives (the header's); None as for :meth:`match`.
        Only for a rule with no repetition (``flat``)."""
        m = self.regex.match(line)
        if m is None:
            return None
        groups = m.groups()  # one call, then each value by its index (group numbers start at 1)
        out: dict[str, Any] = {}
        for name, group in self.flat or ():
            v = groups[group - 1]
            if v is not None:
                out[name] = v
        return m.end(), out

    def match(self, line: str) -> tuple[int, Parts] | None:
        """``(end, parts)`` as ``expr.match(line)`` and ``_regex_parts`` give them, or None where
        parsimonious raises ParseError."""
        m = self.regex.match(line)
        if m is None:
            return None
        if not self.repeated:  # terminals in the pattern's order are in the tree's order: no sort
            out: Parts = []
            groups = m.groups()  # (one call: each value by its index, group numbers start at 1)
            for t in self.terminals:
                start, end = m.span(t.group)
                if start < 0:
                    continue
                if t.rounds:  # each round is the terminal's own match where the last one ended
                    own = t.own
                    while start < end:
                        r = own.match(line, start)
                        out.append((t.name, r.groupdict()))
                        start = r.end()
                    continue
                names, nums = t.names, t.groups
                out.append((t.name, {names[i]: groups[nums[i] - 1] for i in range(len(names))}))
            return m.end(), out
        found: list[tuple[int, int, int, str, dict[str, Any]]] = []
        for k, t in enumerate(self.terminals):
            if not t.repeated:
                start, end = m.span(t.group)
                if start < 0:
                    continue
                found.append((start, end, k, t.name, dict(zip(t.names, [m.group(g) for g in t.groups], strict=True))))
                continue
            for start, end in m.spans(t.group):  # each round: the terminal's own match there (as parsimonious)
                found.append((start, end, k, t.name, t.own.match(line, start).groupdict()))
        found.sort(key=lambda f: (f[0], f[1], f[2]))
        return m.end(), [(name, g) for _s, _e, _k, name, g in found]


_ASSERTS = re.compile(r"\\[bBAZzG]|\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|(\(\?[=!<]|[$^])")


def _asserts(pattern: str) -> bool:
    """Whether ``pattern`` holds an assertion or anchor (escapes and character classes skipped)."""
    for m in _ASSERTS.finditer(pattern):
        if m.group(1) is not None or m.group(0)[:2] in ("\\b", "\\B", "\\A", "\\Z", "\\z", "\\G"):
            return True
    return False


def nullable(e: Any) -> bool:
    """Whether ``e`` may match the empty text somewhere (conservative: a regex with any assertion
    or anchor counts as one that may)."""
    if isinstance(e, PegRegex):
        return e.re.match("") is not None or _asserts(e.re.pattern)
    if isinstance(e, Literal):
        return bool(e.literal == "")
    if isinstance(e, Lookahead):
        return True
    if isinstance(e, Quantifier):
        return e.min == 0 or nullable(e.members[0])
    if isinstance(e, OneOf):
        return any(nullable(m) for m in e.members)
    if isinstance(e, Sequence):
        return all(nullable(m) for m in e.members)
    return True


def compile_line(expr: Any) -> LineRegex | None:
    """``expr`` as a :class:`LineRegex`, or None when it holds what the translation does not cover."""
    # (name, wrapper, groups, repeated, regex, rounds: the wrapper spans a repetition of the terminal alone)
    terminals: list[tuple[str, str, tuple[str, ...], bool, Any, bool]] = []
    hidden = [0]

    def terminal(e: PegRegex, repeated: bool, visible: bool) -> str:
        pattern = e.re.pattern
        if _unsafe(pattern) or e.re.flags & ~(_BASE_FLAGS | _IGNORE_CASE):
            raise Untranslatable(pattern)
        if visible:
            k = len(terminals)
            tag = f"_t{k}"
        else:
            hidden[0] += 1
            tag = f"_h{hidden[0]}"
        names: list[str] = []

        def rename(m: re.Match[str]) -> str:
            if m.group(1) is None:
                return m.group(0)
            names.append(m.group(1))
            return f"(?P<{tag}_{m.group(1)}>"

        body = _GROUP.sub(rename, pattern)
        if e.re.flags & _IGNORE_CASE:
            body = f"(?i:{body})"
        if not visible:
            return f"(?>{body})"
        terminals.append((e.name, tag, tuple(names), repeated, e.re, False))
        return f"(?P<{tag}>(?>{body}))"

    def tr(e: Any, repeated: bool, visible: bool) -> str:
        if isinstance(e, PegRegex):
            return terminal(e, repeated, visible)
        if isinstance(e, Literal):
            return str(regex.escape(e.literal))
        if isinstance(e, Lookahead):
            inner = tr(e.members[0], repeated, False)
            return f"(?!{inner})" if e.negativity else f"(?={inner})"
        if isinstance(e, Quantifier):
            if e.max > 1 and nullable(e.members[0]):
                raise Untranslatable("a repetition of what may match nothing")  # rounds would differ
            hi = "" if e.max == float("inf") else str(int(e.max))
            one = e.members[0]
            if e.max > 1 and visible and not repeated and isinstance(one, PegRegex):
                # a repetition of one terminal: one group spans all its rounds, which are read back
                # one after the other with the terminal's own regex (no ``spans`` needed)
                tag = f"_t{len(terminals)}"
                inner = terminal(one, True, False)
                try:
                    own: Any = re.compile(one.re.pattern, one.re.flags & 0xFF)
                except re.error:
                    own = one.re
                terminals.append((one.name, tag, (), True, own, True))
                return f"(?P<{tag}>(?:(?!\\Z)(?>{inner})){{{e.min},{hi}}}+)"
            inner = tr(e.members[0], repeated or e.max > 1, visible)
            return f"(?:(?!\\Z)(?>{inner})){{{e.min},{hi}}}+"
        if isinstance(e, OneOf):
            return "(?>" + "|".join(tr(m, repeated, visible) for m in e.members) + ")"
        if isinstance(e, Sequence):
            return "".join(f"(?>{tr(m, repeated, visible)})" for m in e.members)
        raise Untranslatable(type(e).__name__)

    try:
        pattern = tr(expr, False, True)
        compiled = regex.compile(pattern, _BASE_FLAGS)
    except (Untranslatable, regex.error, RecursionError):
        return None
    repeated = any(t[3] and not t[5] for t in terminals)
    if not repeated:
        # no round to tell apart: the standard library (atomic groups and possessive repetition
        # since Python 3.11) matches the same pattern two to three times faster; as for the
        # one-regex line rules, tests/test_pegline.py checks it against parsimonious line by line
        with contextlib.suppress(re.error, RecursionError):
            compiled = re.compile(pattern)
    index = compiled.groupindex
    terms = tuple(
        _Terminal(name, index[tag], names, tuple(index[f"{tag}_{n}"] for n in names), repeated, own, rounds)
        for name, tag, names, repeated, own, rounds in terminals
    )
    flat = None if any(t.repeated for t in terms) else tuple(
        (n, g) for t in terms for n, g in zip(t.names, t.groups, strict=True))  # fmt: skip
    return LineRegex(compiled, terms, repeated, flat)
