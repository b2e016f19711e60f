"""Rule families, one module per family; importing this package registers every rule.

``parse`` (P-codes) reports input problems; ``betting`` (B), ``stakes`` (S) and ``hand`` (H)
check a replayed hand.  :func:`check_hand` runs every per-hand check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from auditor import model as M
from auditor.findings import Finding
from auditor.profiles import Profile
from auditor.replay import Trace, replay
from auditor.rules import betting, hand, parse, stakes

__all__ = ["CHECKS", "check_hand", "parse"]

CHECKS: tuple[Callable[[Trace], Iterator[Finding]], ...] = (*hand.CHECKS, *stakes.CHECKS, *betting.CHECKS)


def check_hand(h: M.Hand, profile: Profile) -> tuple[Trace, list[Finding]]:
    """Replay ``h`` under ``profile`` and run every per-hand rule; findings in line order."""
    t = replay(h, profile)
    out: list[Finding] = []
    if h.cancelled:
        return t, out
    for check in CHECKS:
        out.extend(check(t))
    out.sort(key=lambda f: (f.line or 0, f.column or 0, f.code))
    return t, out
