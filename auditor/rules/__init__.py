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
from auditor.replay.pots import PotTrace
from auditor.replay.pots import build as build_pots
from auditor.rules import awards, betting, hand, parse, stakes

__all__ = ["CHECKS", "POT_CHECKS", "audit_hand", "check_hand", "parse"]

CHECKS: tuple[Callable[[Trace], Iterator[Finding]], ...] = (*hand.CHECKS, *stakes.CHECKS, *betting.CHECKS)
POT_CHECKS: tuple[Callable[[Trace, PotTrace], Iterator[Finding]], ...] = awards.CHECKS


def check_hand(h: M.Hand, profile: Profile) -> tuple[Trace, list[Finding]]:
    """Replay ``h`` under ``profile`` and run every per-hand rule; findings in line order."""
    t, _pots, found = audit_hand(h, profile)
    return t, found


def audit_hand(h: M.Hand, profile: Profile) -> tuple[Trace, PotTrace | None, list[Finding]]:
    """Replay, rebuild the pots, and run every per-hand rule: (trace, pots, findings in line order)."""
    t = replay(h, profile)
    out: list[Finding] = []
    if h.cancelled:
        return t, None, out
    for check in CHECKS:
        out.extend(check(t))
    pt = build_pots(t, profile)
    for pcheck in POT_CHECKS:
        out.extend(pcheck(t, pt))
    out.sort(key=lambda f: (f.line or 0, f.column or 0, f.code))
    return t, pt, out
