"""Findings (errors are values, never exceptions) and the registry of stable rule codes.

A rule is a documented check with a stable code (``^[PHBSADT]\\d{3}$``), a kebab-case name, a
default severity and the *stage* it runs at.  It is registered once, by the :func:`rule` decorator
on the function that checks it; its docstring is its user documentation (``hhaudit rules CODE``
prints it and the HTML report has a page per rule).  Codes are never renumbered or reused.

Stages: ``parse`` (reported by the readers; the function only documents the code), ``hand`` (a
function of the replayed hand's :class:`~auditor.replay.Trace`), ``pots`` (of the trace and the
rebuilt pots), ``run`` (across the hands of one run: duplicate ids), ``table`` (across the ordered
hands of one table: :mod:`auditor.continuity`).  The rule families live in
``auditor.rules``; :func:`catalogue` loads them, explicitly, the first time a code is looked up.
"""

from __future__ import annotations

import enum
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, NamedTuple, TypeVar


class Severity(enum.IntEnum):
    """How bad a finding is; ``--fail-on`` compares against these."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (info, warning, error)") from None

    def __str__(self) -> str:
        return self.name.lower()


CODE_RE = re.compile(r"^[PHBSADT]\d{3}$")


Stage = Literal["parse", "hand", "pots", "run", "table"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A registered check: code, kebab-case name, default severity, documentation, stage, check."""

    code: str
    name: str
    severity: Severity
    doc: str
    summary: str
    stage: Stage = "parse"
    check: Callable[..., Any] | None = None
    #: which hands the check can find anything in (None: every hand); see :func:`plan`
    applies: Callable[[HandKind], bool] | None = None
    #: a function finding this rule's findings and those of the other rules of its group at once
    #: (one walk over a hand shared by several rules); see :func:`plan`
    group: Callable[..., Any] | None = None


class HandKind(NamedTuple):
    """What decides which checks can apply to a hand: its game and structure, whether the betting
    rules apply to it (the replay's ``Trace.betting``), whether it was run more than once, and two
    export facts.  A check registered with ``applies=`` is left out of the :func:`plan` of the
    kinds of hands it cannot find anything in (the check itself still returns nothing for them)."""

    game: str
    structure: str
    betting: bool
    runs_twice: bool
    prints_all_in: bool
    prints_uncalled: bool


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in the input, with where it was printed."""

    code: str
    name: str
    severity: Severity
    path: str
    line: int | None
    column: int | None
    message: str
    site: str | None = None
    hand_id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The stable JSON shape of a finding (see the README's command-line contract)."""
        return {
            "code": self.code,
            "name": self.name,
            "severity": str(self.severity),
            "site": self.site,
            "hand_id": self.hand_id,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "data": self.data,
        }


RULES: dict[str, Rule] = {}

F = TypeVar("F", bound=Callable[..., Any])


def rule(
    code: str,
    name: str,
    severity: Severity,
    stage: Stage = "parse",
    applies: Callable[[HandKind], bool] | None = None,
    group: Callable[..., Any] | None = None,
) -> Callable[[F], F]:
    """Register the decorated function as rule ``code``: its docstring is the documentation, and at
    the ``hand`` and ``pots`` stages the function is the check (``parse`` and ``run`` rules are
    reported by the readers and by the audit step).  ``applies`` says for which kinds of hands
    (:class:`HandKind`) the check can find anything: the audit step runs it on those only.
    ``group``: a function (with the check's arguments) that returns the findings of every rule
    registered with the same group, in one pass; the check itself returns its own part of them.
    The audit step calls the group once instead of each of its checks."""
    if not CODE_RE.match(code):
        raise ValueError(f"bad rule code {code!r}")

    def deco(fn: F) -> F:
        doc = inspect.cleandoc(fn.__doc__ or _source_doc(fn))
        if not doc:
            raise ValueError(f"rule {code} has no docstring")
        if code in RULES:
            raise ValueError(f"rule code {code} registered twice")
        checks.cache_clear()
        _PLANS.clear()
        _PAIRS.clear()
        RULES[code] = Rule(code, name, severity, doc, doc.splitlines()[0], stage,
                           fn if stage in ("hand", "pots") else None, applies, group)  # fmt: skip
        return fn

    return deco


@cache
def _module_docs(module: str) -> dict[str, str]:
    """The docstrings of a module's functions, read from its ``.py`` source (next to this package's)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    try:
        tree = ast.parse(path.read_text("utf-8"))
    except OSError:
        return {}
    return {n.name: ast.get_docstring(n, clean=False) or "" for n in tree.body if isinstance(n, ast.FunctionDef)}


def _source_doc(fn: Callable[..., Any]) -> str:
    """A rule function's docstring when the function has none at run time: a module compiled by
    mypyc (the optional compiled build) drops docstrings, but its ``.py`` source ships beside it."""
    return _module_docs(getattr(fn, "__module__", "") or "").get(getattr(fn, "__name__", ""), "")


def catalogue() -> dict[str, Rule]:
    """Every registered rule, by code (loads the rule families on first use)."""
    import auditor.rules  # noqa: F401  (the families register their rules as they are defined)

    return RULES


@cache
def checks(stage: Stage) -> tuple[Callable[..., Any], ...]:
    """The checks of one stage, in code order (computed once; a new registration resets it)."""
    return tuple(r.check for _, r in sorted(catalogue().items()) if r.stage == stage and r.check is not None)


_PLANS: dict[tuple[Stage, HandKind], tuple[Callable[..., Any], ...]] = {}


def plan(stage: Stage, kind: HandKind) -> tuple[Callable[..., Any], ...]:
    """What the audit step calls at one stage on a hand of ``kind``: the checks that can find
    anything in it (``applies``), in code order, each group once in place of its checks.  A table
    computed once per kind of hand (a few dozen in any run), not a test per hand and check."""
    got = _PLANS.get((stage, kind))
    if got is None:
        calls: list[Callable[..., Any]] = []
        for _, r in sorted(catalogue().items()):
            if r.stage != stage or r.check is None or (r.applies is not None and not r.applies(kind)):
                continue
            fn = r.group or r.check
            if fn not in calls:
                calls.append(fn)
        got = _PLANS[(stage, kind)] = tuple(calls)
    return got


_PAIRS: dict[tuple[Any, ...], tuple[tuple[Callable[..., Any], ...], tuple[Callable[..., Any], ...]]] = {}


def plans(
    key: tuple[str, str, bool, bool, bool, bool],
) -> tuple[tuple[Callable[..., Any], ...], tuple[Callable[..., Any], ...]]:
    """The ``hand`` and ``pots`` :func:`plan` of the kind of hand whose fields are ``key`` (a plain
    tuple: the audit step looks its plans up once per hand, without building a HandKind)."""
    got = _PAIRS.get(key)
    if got is None:
        kind = HandKind(*key)
        got = _PAIRS[key] = (plan("hand", kind), plan("pots", kind))
    return got


def make(
    code: str,
    path: str,
    line: int | None,
    column: int | None,
    message: str,
    *,
    site: str | None = None,
    hand_id: str | None = None,
    severity: Severity | None = None,
    **data: Any,
) -> Finding:
    """Build a finding for a registered rule code."""
    r = RULES.get(code) or catalogue()[code]
    return Finding(
        code=code,
        name=r.name,
        severity=severity if severity is not None else r.severity,
        path=path,
        line=line,
        column=column,
        message=message,
        site=site,
        hand_id=hand_id,
        data=dict(data),
    )


class SelectorError(ValueError):
    """A ``--select`` / ``--ignore`` selector that names no rule (a usage error, exit status 2)."""


FAMILIES = {"P": "parse", "H": "hand structure", "B": "betting", "S": "table stakes", "A": "pots and awards",
            "D": "descriptions", "T": "across hands"}  # fmt: skip


def _split(spec: str | Iterable[str] | None) -> list[str]:
    if spec is None:
        return []
    if isinstance(spec, str):
        spec = spec.split(",")
    return [s.strip() for s in spec if s.strip()]


def suggest(word: str) -> str | None:
    """The registered code, rule name or family letter nearest to ``word`` (difflib), if any is near."""
    import difflib

    up = word.upper()
    codes = sorted(RULES)
    names = sorted(r.name for r in RULES.values())
    for pool, text in ((codes, up), (names, word.lower())):
        hit = difflib.get_close_matches(text, pool, n=1, cutoff=0.6)
        if hit:
            return hit[0]
    if up[:1] in FAMILIES and up[1:].isdecimal():  # a code of a real family: the nearest number in it
        fam = [c for c in codes if c[0] == up[0]]
        if fam:
            return min(fam, key=lambda c: abs(int(c[1:]) - int(up[1:].ljust(3, "0")[:3])))
    code_like = re.fullmatch(r"[A-Z]\d+", up) is not None
    hit = difflib.get_close_matches(up, codes, n=1, cutoff=0.0 if code_like else 0.4)
    return hit[0] if hit else None


def resolve(selector: str) -> frozenset[str]:
    """The rule codes one selector stands for.

    A selector is ``ALL`` (every rule but the :data:`OPT_IN` ones), a rule code (``B001``, any
    case), a code prefix (``B``, ``B00``) that starts at least one registered code, or a rule name
    (``illegal-reraise``).  Anything else raises :class:`SelectorError`, naming the nearest code or
    name.
    """
    s = selector.strip()
    if s.upper() == "ALL":
        return frozenset(RULES) - OPT_IN
    by_name = [c for c, r in RULES.items() if r.name == s.lower()]
    if by_name:
        return frozenset(by_name)
    up = s.upper()
    if re.fullmatch(r"[A-Z]\d{0,3}", up):
        hits = frozenset(c for c in RULES if c.startswith(up))
        if hits:
            return hits
    near = suggest(s)
    hint = f"; did you mean {near}?" if near else ""
    raise SelectorError(f"unknown rule selector {selector!r}{hint} (`hhaudit rules` lists codes and names)")


def resolve_all(spec: str | Iterable[str] | None) -> frozenset[str]:
    """The union of the codes of comma-separated (or listed) selectors; raises SelectorError."""
    out: set[str] = set()
    for s in _split(spec):
        out |= resolve(s)
    return frozenset(out)


#: Codes reported only when selected by code, prefix or name (``ALL`` leaves them out): context, not
#: problems of the input (T001: where the cross-hand chain of a table could not be followed).
OPT_IN = frozenset({"T001"})


def selected_codes(
    select: str | Iterable[str] | None,
    ignore: str | Iterable[str] | None,
    extend_select: str | Iterable[str] | None = None,
) -> frozenset[str]:
    """The codes in force: ``select`` (every rule when empty) plus ``extend_select``, minus ``ignore``.

    An ignore always wins over a select, however specific either is.  The :data:`OPT_IN` codes are
    in force only when a select or extend-select names them.  Raises SelectorError.
    """
    base = resolve_all(select) if _split(select) else frozenset(RULES) - OPT_IN
    return (base | resolve_all(extend_select)) - resolve_all(ignore)


def selector(select: str | Iterable[str] | None, ignore: str | Iterable[str] | None) -> Callable[[str], bool]:
    """A predicate on codes: the codes :func:`selected_codes` keeps.  Raises SelectorError on an
    unknown selector.  Codes not in the registry (none should exist) are kept unless ignored by prefix."""
    codes = selected_codes(select, ignore)
    ign = tuple(s.upper() for s in _split(ignore))

    def keep(code: str) -> bool:
        if code in RULES:
            return code in codes
        return not (ign and code.startswith(ign))

    return keep


def load_baseline(path: str) -> set[tuple[str | None, str | None, str]]:
    """Findings to accept, keyed by :func:`baseline_key`, from an earlier ``--format json`` or
    ``jsonl`` report (or any JSON list of objects with ``site``, ``hand_id`` and ``code``).

    A file of another shape (a number, a string, a list of lists, objects without ``code``) raises
    ``ValueError`` naming what was expected; the command turns it into a usage error (exit 2).
    """
    import json

    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
        items = doc.get("findings") if isinstance(doc, dict) else doc
    except json.JSONDecodeError:
        items = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"line {n} is not JSON: {e.msg}") from None
        items = [i for i in items if isinstance(i, dict) and "code" in i]
    except RecursionError:
        raise ValueError("the JSON is nested too deeply to be a report") from None
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("code"), str) for i in items):
        raise ValueError('expected a report of hhaudit (--format json or jsonl): a list of findings with "code"')

    def text_or_none(v: object) -> str | None:
        return v if isinstance(v, str) else None

    return {(text_or_none(i.get("site")), text_or_none(i.get("hand_id")) or text_or_none(i.get("path")), i["code"])
            for i in items}  # fmt: skip


def baseline_key(f: Finding) -> tuple[str | None, str | None, str]:
    """A finding's key in a baseline: site, hand id (the file for findings outside a hand), code."""
    return (f.site, f.hand_id or f.path, f.code)
