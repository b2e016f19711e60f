"""Helpers shared by the rule families: money as the hand writes it, and findings on a replayed hand."""

from __future__ import annotations

from typing import Any

from auditor import findings as F
from auditor.findings import Finding
from auditor.formats.money import format_minor
from auditor.model import Hand
from auditor.replay.betting import Trace


def money(hand: Hand, amount: int | None) -> str:
    """An amount in minor units, written the way the hand writes money (exact, no floats)."""
    return format_minor(amount, hand.decimals, hand.currency, hand.play_money)


def flag(t: Trace, code: str, line: int | None, col: int | None, message: str, cite: str | None = None,
         **data: Any) -> Finding:  # fmt: skip
    """A finding on the hand of ``t`` whose message ends with the rule it applies (``cite``, or as
    the trace's profile cites the code)."""
    h, profile = t.hand, t.profile
    cite = cite or profile.cite(code)
    return F.make(code, h.path, line, col, f"{message} ({cite})", site=h.site, hand_id=h.hand_id,
                  profile=profile.name, rule=cite, **data)  # fmt: skip
