"""Findings (errors are values, never exceptions) and the registry of stable rule codes.

A rule is a documented check with a stable code (``^[PHBSAD]\\d{3}$``), a kebab-case name, a
default severity and the *stage* it runs at.  It is registered once, by the :func:`rule` decorator
on the function that checks it; its docstring is its user documentation (``hhaudit rules CODE``
prints it and the HTML report has a page per rule).  Codes are never renumbered or reused.

Stages: ``parse`` (reported by the readers; the function only documents the code), ``hand`` (a
function of the replayed hand's :class:`~auditor.replay.Trace`), ``pots`` (of the trace and the
rebuilt pots), ``run`` (across the hands of one run: duplicate ids).  The rule families live in
``auditor.rules``; :func:`catalogue` loads them, explicitly, the first time a code is looked up.
"""

from __future__ import annotations

import enum
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar


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


CODE_RE = re.compile(r"^[PHBSAD]\d{3}$")


Stage = Literal["parse", "hand", "pots", "run"]


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


def rule(code: str, name: str, severity: Severity, stage: Stage = "parse") -> Callable[[F], F]:
    """Register the decorated function as rule ``code``: its docstring is the documentation, and at
    the ``hand`` and ``pots`` stages the function is the check (``parse`` and ``run`` rules are
    reported by the readers and by the audit step)."""
    if not CODE_RE.match(code):
        raise ValueError(f"bad rule code {code!r}")

    def deco(fn: F) -> F:
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise ValueError(f"rule {code} has no docstring")
        if code in RULES:
            raise ValueError(f"rule code {code} registered twice")
        RULES[code] = Rule(code, name, severity, doc, doc.splitlines()[0], stage,
                           fn if stage in ("hand", "pots") else None)  # fmt: skip
        return fn

    return deco


def catalogue() -> dict[str, Rule]:
    """Every registered rule, by code (loads the rule families on first use)."""
    import auditor.rules  # noqa: F401  (the families register their rules as they are defined)

    return RULES


def checks(stage: Stage) -> list[Callable[..., Any]]:
    """The checks of one stage, in code order."""
    return [r.check for _, r in sorted(catalogue().items()) if r.stage == stage and r.check is not None]


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


def _codes(spec: str | Iterable[str] | None) -> tuple[str, ...]:
    if spec is None:
        return ()
    if isinstance(spec, str):
        spec = spec.split(",")
    return tuple(s.strip().upper() for s in spec if s.strip())


def selector(select: str | Iterable[str] | None, ignore: str | Iterable[str] | None) -> Callable[[str], bool]:
    """A predicate on codes: selected by prefix (all when empty) and not ignored by prefix."""
    sel, ign = _codes(select), _codes(ignore)

    def keep(code: str) -> bool:
        if sel and not code.startswith(sel):
            return False
        return not (ign and code.startswith(ign))

    return keep


def load_baseline(path: str) -> set[tuple[str | None, str | None, str]]:
    """Findings to accept, keyed by :func:`baseline_key`, from an earlier ``--format json`` or
    ``jsonl`` report (or any JSON list of objects with ``site``, ``hand_id`` and ``code``)."""
    import json

    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
        items = doc["findings"] if isinstance(doc, dict) else doc
    except json.JSONDecodeError:
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
        items = [i for i in items if "code" in i]
    return {(i.get("site"), i.get("hand_id") or i.get("path"), i["code"]) for i in items}


def baseline_key(f: Finding) -> tuple[str | None, str | None, str]:
    """A finding's key in a baseline: site, hand id (the file for findings outside a hand), code."""
    return (f.site, f.hand_id or f.path, f.code)
