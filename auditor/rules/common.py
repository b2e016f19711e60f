"""Helpers shared by the rule families: money formatting and finding construction for a hand."""

from __future__ import annotations

from typing import Any

from auditor import findings as F
from auditor.findings import Finding
from auditor.model import Hand
from auditor.profiles import Profile

_SYMBOL = {"USD": "$", "EUR": "€", "GBP": "£", "INR": "Rs. ", "CNY": "¥", "CAD": "C$"}


def money(hand: Hand, amount: int | None) -> str:
    """An amount in minor units, written the way the hand writes money (exact, no floats)."""
    if amount is None:
        return "?"
    sign = "-" if amount < 0 else ""
    a = abs(amount)
    if hand.decimals:
        unit = 10**hand.decimals
        text = f"{a // unit:,}.{a % unit:0{hand.decimals}d}"
    else:
        text = f"{a:,}"
    sym = _SYMBOL.get(hand.currency or "", "") if not hand.play_money else ""
    return f"{sign}{sym}{text}"


def finding(
    hand: Hand,
    profile: Profile,
    code: str,
    line: int | None,
    col: int | None,
    message: str,
    cite: str | None = None,
    **data: Any,
) -> Finding:
    """A finding on ``hand`` whose message ends with the rule it applies (``cite``, or as the
    profile cites the code)."""
    cite = cite or profile.cite(code)
    return F.make(
        code,
        hand.path,
        line,
        col,
        f"{message} ({cite})",
        site=hand.site,
        hand_id=hand.hand_id,
        profile=profile.name,
        rule=cite,
        **data,
    )
