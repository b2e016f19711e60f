"""The fast path's readers of the most frequent one-regex line rules (issue 16: parse speed).

The visitor's ``on_<name>`` handlers read a line's values from ``(rule name, groupdict)`` parts,
one ``dict.get`` a value: what the tree walk of the full parse gives them.  For a line matched by a
single regex of the grammar, that is a dict, a list and a tuple built per line only to be read
back.  The readers here take the line's values as one tuple instead, ``Match.group(*index)``, in an
order fixed per handler (:data:`FIELDS`), with the group numbers derived once from the grammar's
own regex (:func:`plan`); a value the regex has no group for is ``None``, as ``dict.get`` gives.

Each reader does exactly what its ``on_<name>`` handler does with the same values (the grammar
still decides what a line is and what its values are: only the way they are handed over differs);
a rule whose regex lacks a group its handler requires, or has one whose handler reads it in a way
not covered here (``straddle_total``, ``dead``, ``redealt``), keeps the handler.
``tests/test_fast_path.py`` checks the fast path against the full parse on every fixture and
corpus hand, and ``tests/test_quick.py`` checks this module's plan.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from auditor.formats import vocab as V

if TYPE_CHECKING:
    from auditor.formats.peg import PegVisitor

#: A line's values in the order of its handler's fields (see :data:`FIELDS`).
Values = tuple[Any, ...]

#: Per handler: the groups it requires (``g["name"]``), the groups it reads when present
#: (``g.get("name")``), and the groups whose presence leaves the line to the handler itself.
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "action": (("player", "verb"), ("amount", "to", "allin", "cap", "cards", "inc", "by"), ()),
    "post": (("player", "kind"), ("amount", "allin", "live"), ("dead", "straddle_total")),
    "dealt": (("player",), ("cards", "new"), ("redealt",)),
    "draw": (("player", "n"), ("discards", "pat", "cards", "opens"), ()),
    "street": (("name",), ("cards", "prior"), ()),
    "show": (("player", "cards"), ("desc", "run"), ()),
    "muck": (("player",), ("cards",), ()),
    "uncalled": (("player", "amount"), (), ()),
    "collect": (("player", "amount"), ("cards", "desc", "pot", "ends"), ()),
    "summary_seat": (("seat", "player"), ("rest", "roles"), ()),
    "board": ((), ("cards",), ()),
    "seat": (("seat", "player", "stack"), ("bounty", "status"), ()),
}

#: A never-taking group added at the end of a rule's regex: the group number of a value the
#: regex does not capture (always ``None``).  The match is the same: the group is optional and
#: can match nothing (``(?!)`` always fails).
_ABSENT = "(?:(?!)())?"


def plan(handler: str, rx: re.Pattern[str]) -> tuple[re.Pattern[str], tuple[int, ...]] | None:
    """The regex to match with (``rx`` with the absent group) and the group numbers of the
    handler's fields, or None when the handler keeps the line (no reader, a required group
    missing, a group it reads its own way, or a pattern that cannot be extended safely)."""
    spec = FIELDS.get(handler)
    if spec is None or rx.flags & re.VERBOSE:
        return None
    required, optional, own_way = spec
    index = rx.groupindex
    if any(n not in index for n in required) or any(n in index for n in own_way):
        return None
    try:
        ext = re.compile(f"(?:{rx.pattern}){_ABSENT}", rx.flags)
    except (re.error, RecursionError):
        return None
    if ext.groups != rx.groups + 1 or dict(ext.groupindex) != dict(index):
        return None
    absent = ext.groups
    groups = tuple(index.get(n, absent) for n in required + optional)
    if len(groups) < 2:  # Match.group(i) of one number gives the value, not a tuple
        groups = (*groups, absent)
    return ext, groups


def _action(v: PegVisitor, x: Values) -> None:
    player, verb, amount, to, allin, cap, cards, inc, by = x
    v.a.action(player, verb, amount, to, bool(allin), cap is not None, cards, inc, by)


def _post(v: PegVisitor, x: Values) -> None:
    player, kind, amount, allin, live = x
    v.a.post(player, kind, amount, bool(allin), True, live is not None)


def _dealt(v: PegVisitor, x: Values) -> None:
    player, cards, new = x
    v.a.dealt(player, cards, new)


def _draw(v: PegVisitor, x: Values) -> None:
    player, n, discards, pat, cards, opens = x
    # the discarded cards printed, not their number (as on_draw)
    count = len(V.cards_of(discards)) if discards is not None else 0 if pat else int(n)
    v.a.draw(player, count, cards, opens=opens is not None)


def _street(v: PegVisitor, x: Values) -> None:
    name, cards, prior = x
    v.a.street_marker(name, cards, prior)


def _show(v: PegVisitor, x: Values) -> None:
    player, cards, desc, run = x
    v.a.show(player, cards, desc, run=int(run) if run else None)


def _muck(v: PegVisitor, x: Values) -> None:
    v.a.muck(x[0], x[1])


def _uncalled(v: PegVisitor, x: Values) -> None:
    v.a.uncalled(x[0], x[1])


def _collect(v: PegVisitor, x: Values) -> None:
    player, amount, cards, desc, pot, ends = x
    a = v.a
    if cards:
        a.show(player, cards, desc)
    a.collect(player, amount, pot)
    if ends is not None:
        a.end()


def _summary_seat(v: PegVisitor, x: Values) -> None:
    seat, player, rest, roles = x
    v.a.seat_result(seat, player, rest, roles, v.g.won_re)  # (as PegVisitor.summary_seat)


def _board(v: PegVisitor, x: Values) -> None:
    if x[0]:
        v.a.summary_board(x[0])


def _seat(v: PegVisitor, x: Values) -> None:
    v.a.seat(*x)  # (seat, player, stack, bounty, status: the order of its parameters)


READERS: dict[str, Callable[[PegVisitor, Values], None]] = {
    "action": _action,
    "post": _post,
    "dealt": _dealt,
    "draw": _draw,
    "street": _street,
    "show": _show,
    "muck": _muck,
    "uncalled": _uncalled,
    "collect": _collect,
    "summary_seat": _summary_seat,
    "board": _board,
    "seat": _seat,
}
