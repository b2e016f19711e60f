"""Which characters a line rule's regex can start a match with (issue 16).

The fast path tries a line only against the rules whose regex can start with the line's first
character (``PegGrammar.dispatch``).  The set is read from the pattern itself with the standard
library's regex parser (the grammar stays the one source): literals, character classes and
alternations give a finite set; anything else (``.``, a negated class, ``\\w``, a back reference,
ignore-case, a pattern that may match nothing) gives None, "any character", so the rule is tried on
every line.  The set is an over-approximation: a rule left out for a line could not have matched it.
A rule without a literal prefix is also skipped on a line that lacks the literal text every match of
its regex contains (``required_literal``: ": " for "Ann: folds", " collected " for a collect line).
"""

from __future__ import annotations

import re
from typing import Any

try:  # Python 3.11+: the parser is re._parser
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older layouts
    import sre_parse as _sre_parse

from re import _constants as _sre  # type: ignore[attr-defined]

_MAX_RANGE = 512  # a class wider than this counts as "any character"
_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", _sre.MAX_REPEAT)}
_ZERO_WIDTH = {_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT}


class _Any(Exception):
    """The item can start with any character (or the analysis does not know)."""


def first_chars(rx: re.Pattern[str]) -> frozenset[str] | None:
    """The characters a match of ``rx`` can start with, or None when it may be any."""
    if rx.flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
        return None
    try:
        firsts, nullable = _seq(list(_sre_parse.parse(rx.pattern, rx.flags & ~re.UNICODE)))
    except (_Any, re.error, RecursionError, TypeError, ValueError):
        return None
    if nullable:
        return None  # may match the empty text: any line
    return frozenset(firsts)


def _seq(items: list[tuple[Any, Any]]) -> tuple[set[str], bool]:
    """FIRST set of a sequence, and whether the whole sequence may match nothing."""
    out: set[str] = set()
    for op, av in items:
        firsts, nullable = _item(op, av)
        out |= firsts
        if not nullable:
            return out, False
    return out, True


def _item(op: Any, av: Any) -> tuple[set[str], bool]:
    if op is _sre.LITERAL:
        return {chr(av)}, False
    if op is _sre.IN:
        return _charset(av), False
    if op in _ZERO_WIDTH:
        return set(), True  # an assertion matches no character: what follows starts the match
    if op is _sre.SUBPATTERN:
        _group, add_flags, _del_flags, p = av
        if add_flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
            raise _Any
        return _seq(list(p))
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return _seq(list(av))
    if op is _sre.BRANCH:
        out: set[str] = set()
        nullable = False
        for alt in av[1]:
            f, n = _seq(list(alt))
            out |= f
            nullable = nullable or n
        return out, nullable
    if op in _REPEATS:
        lo, _hi, p = av
        f, n = _seq(list(p))
        return f, n or lo == 0
    raise _Any  # ANY, NOT_LITERAL, CATEGORY, GROUPREF, GROUPREF_EXISTS, ...


def class_chars(items: list[tuple[Any, Any]], widest: int) -> list[str] | None:
    """The characters of a character class (the regex parser's ``IN`` items), or None when it holds
    anything but literals and ranges (a negation, a category) or a range wider than ``widest``.
    Shared with :mod:`auditor.lineprefix`."""
    out: list[str] = []
    for op, av in items:
        if op is _sre.LITERAL:
            out.append(chr(av))
        elif op is _sre.RANGE:
            lo, hi = av
            if hi - lo > widest:
                return None
            out.extend(chr(c) for c in range(lo, hi + 1))
        else:  # NEGATE, CATEGORY, ...
            return None
    return out


def _charset(items: list[tuple[Any, Any]]) -> set[str]:
    chars = class_chars(items, _MAX_RANGE)
    if chars is None:
        raise _Any
    return set(chars)


def required_literal(rx: re.Pattern[str]) -> str:
    """The longest literal text that every match of ``rx`` contains ("" when none is known).

    Read from the pattern with the standard library's regex parser, as :func:`first_chars`: a run
    of literal characters in the pattern's main sequence (groups, atomic groups and repetitions of
    one exactly are read through; a repetition of at least one gives its own required literal);
    an alternation, a class, a lookaround or anything else ends a run.  A line that does not
    contain it cannot match the pattern (the fast path's dispatch skips the rule for that line)."""
    if rx.flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
        return ""
    try:
        return _required(list(_sre_parse.parse(rx.pattern, rx.flags & ~re.UNICODE)))
    except (re.error, RecursionError, TypeError, ValueError):
        return ""


def _required(items: list[tuple[Any, Any]]) -> str:
    best = ""
    run: list[str] = []

    def cut() -> None:
        nonlocal best
        text = "".join(run)
        if len(text) > len(best):
            best = text
        run.clear()

    for op, av in _flat(items):
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        cut()
        if op in _REPEATS and av[0] >= 1:
            inner = _required(list(av[2]))
            if len(inner) > len(best):
                best = inner
    cut()
    return best


def _flat(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The items of a sequence with groups, atomic groups and repetitions of exactly one read through."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is _sre.SUBPATTERN and not av[1] & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
            out.extend(_flat(list(av[3])))
        elif op is getattr(_sre, "ATOMIC_GROUP", None):
            out.extend(_flat(list(av)))
        elif op in _REPEATS and av[0] == av[1] == 1:
            out.extend(_flat(list(av[2])))
        else:
            out.append((op, av))
    return out
