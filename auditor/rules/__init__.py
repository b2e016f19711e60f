"""Rule families, one module per family.  Each rule is registered once, by the
:func:`~auditor.findings.rule` decorator on its check, with the stage it needs.

``parse`` (P-codes) documents the problems readers report; ``hand`` (H), ``stakes`` (S) and
``betting`` (B) check a replayed hand; ``awards`` (A, D) checks the rebuilt pots and what was paid;
``continuity`` (T) documents the cross-hand stage (:mod:`auditor.continuity`).
The one audit step that runs them is :func:`auditor.audit.audit_hand`.
"""

from __future__ import annotations

from auditor.rules import awards, betting, continuity, hand, parse, stakes, studdraw

FAMILIES = (parse, hand, stakes, betting, awards, studdraw, continuity)

__all__ = ["FAMILIES"]
