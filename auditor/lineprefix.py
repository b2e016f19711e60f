"""The literal starts a regex's matches can have (issue 16): what lets the split find a file's hand
headers with one search over a block of lines instead of trying every line.

:func:`prefixes` reads a pattern with the standard library's regex parser (as
:mod:`auditor.formats.firstchars` does: the grammar stays the one source) and returns a set of
strings such that every match of the pattern starts with one of them.  Literals, small character
classes, alternations, groups and repetitions are followed up to a few characters; assertions are
read as matching nothing (leaving one out only lets more text through); anything else (``.``, a
negated class, ``\\w``, ignore-case, a back reference) ends the string there, so the set is an
over-approximation: a line that starts with none of the strings cannot match.  None when the
analysis cannot bound the set (the pattern may start with any character).
"""

from __future__ import annotations

import re
from typing import Any

try:  # Python 3.11+: the parser is re._parser
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older layouts
    import sre_parse as _sre_parse

from re import _constants as _sre  # type: ignore[attr-defined]

from auditor.formats.firstchars import class_chars

#: The longest string followed, and the most strings kept, before a shorter length is tried.
LENGTH = 8
LIMIT = 400
_CLASS = 64  # a character class wider than this ends the string
_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", _sre.MAX_REPEAT)}
_ZERO_WIDTH = {_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT}

#: A set of (text, complete): ``complete`` when the item's match may end after ``text`` (what follows
#: the item continues it); otherwise the text is all that is known of the match's start.
_Starts = set[tuple[str, bool]]


class _TooMany(Exception):
    """More strings than :data:`LIMIT`: try a shorter length."""


def prefixes(rx: re.Pattern[str], length: int = LENGTH, limit: int = LIMIT) -> frozenset[str] | None:
    """Strings every match of ``rx`` starts with one of (each at most ``length`` characters), or
    None when no such set of at most ``limit`` non-empty strings is known."""
    if rx.flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
        return None
    try:
        items = list(_sre_parse.parse(rx.pattern, rx.flags & ~re.UNICODE))
    except (re.error, RecursionError, TypeError, ValueError):
        return None
    for k in range(length, 0, -1):
        try:
            found = _seq({("", True)}, items, k, limit)
        except _TooMany:
            continue
        texts = frozenset(t for t, _complete in found)
        return None if "" in texts else texts
    return None


def _add(into: _Starts, text: str, complete: bool, k: int, limit: int) -> None:
    into.add((text, complete and len(text) < k))
    if len(into) > limit:
        raise _TooMany


def _seq(starts: _Starts, items: list[tuple[Any, Any]], k: int, limit: int) -> _Starts:
    for op, av in items:
        if not any(complete for _t, complete in starts):
            break
        starts = _item(starts, op, av, k, limit)
    return starts


def _item(starts: _Starts, op: Any, av: Any, k: int, limit: int) -> _Starts:
    """``starts`` followed by one parsed item."""
    out: _Starts = set()
    open_ = [t for t, complete in starts if complete]
    for t, complete in starts:
        if not complete:
            out.add((t, False))
    if op in _ZERO_WIDTH:
        return starts  # an assertion: read as matching nothing
    if op is _sre.LITERAL:
        chars: list[str] | None = [chr(av)]
    elif op is _sre.IN:
        chars = _charset(av)
    else:
        chars = None
    if chars is not None:
        for t in open_:
            for c in chars:
                _add(out, t + c, True, k, limit)
        return out
    if op is _sre.SUBPATTERN:
        _group, add_flags, _del_flags, p = av
        if add_flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
            return _ended(out, open_, k, limit)
        return out | _seq({(t, True) for t in open_}, list(p), k, limit)
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return out | _seq({(t, True) for t in open_}, list(av), k, limit)
    if op is _sre.BRANCH:
        for alt in av[1]:
            for t, complete in _seq({(t, True) for t in open_}, list(alt), k, limit):
                _add(out, t, complete, k, limit)
        return out
    if op in _REPEATS:
        lo, hi, p = av
        body = list(p)
        cur: _Starts = {(t, True) for t in open_}
        for _ in range(min(lo, k)):  # the copies every match holds
            cur = _seq(cur, body, k, limit)
        if lo > k:  # (not followed to the end: nothing after them is known)
            cur = {(t, False) for t, _complete in cur}
        for t, complete in cur:
            _add(out, t, complete, k, limit)
        # the optional copies: each one that matches text adds a character, so k more reach the length
        more = k if hi == _sre.MAXREPEAT else min(hi - lo, k)
        frontier = {s for s in cur if s[1]}
        for _ in range(more):
            if not frontier:
                break
            cur = _seq(frontier, body, k, limit)
            for t, complete in cur:
                _add(out, t, complete, k, limit)
            frontier = {s for s in cur if s[1]} - frontier
        return out
    return _ended(out, open_, k, limit)  # ANY, NOT_LITERAL, CATEGORY, GROUPREF, ...: anything may follow


def _ended(out: _Starts, open_: list[str], k: int, limit: int) -> _Starts:
    for t in open_:
        _add(out, t, False, k, limit)
    return out


def _charset(items: list[tuple[Any, Any]]) -> list[str] | None:
    out = class_chars(items, _CLASS)
    return out if out is not None and len(out) <= _CLASS else None


def scanner(starts: frozenset[str]) -> re.Pattern[str]:
    """A pattern that finds, in text whose lines are each preceded by a newline, the newline before
    every line starting with one of ``starts`` (a trie of them: one character compared at a time)."""
    kept = sorted(starts)
    kept = [s for i, s in enumerate(kept) if not any(s.startswith(t) for t in kept[:i])]  # (shortest covers)
    return re.compile("\n" + _trie(kept))


def _trie(strings: list[str]) -> str:
    if "" in strings:
        return ""
    heads: dict[str, list[str]] = {}
    for s in strings:
        heads.setdefault(s[0], []).append(s[1:])
    alts = [re.escape(c) + _trie(rest) for c, rest in heads.items()]
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
