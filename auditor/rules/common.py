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


_AMOUNT_KEYS = ("expected", "actual", "facing", "full_raise")
_NOT_MONEY = frozenset({"B010"})  # counts raises, not money


def money_unit(hand: Hand, code: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """What the integer amounts of a finding's data are: ``{"currency", "decimals", "play_money",
    "fields"}`` (the keys holding money in minor units), or None when the data has no amount."""
    if code in _NOT_MONEY:
        return None

    def is_amount(v: Any) -> bool:
        if isinstance(v, list):
            return bool(v) and all(is_amount(x) for x in v)
        return isinstance(v, int) and not isinstance(v, bool)

    keys = [k for k in _AMOUNT_KEYS if k in data and is_amount(data[k])]
    if not keys:
        return None
    return {"currency": hand.currency, "decimals": hand.decimals, "play_money": hand.play_money, "fields": keys}


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
    unit = money_unit(hand, code, data)
    if unit is not None:
        data["money"] = unit
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
