"""Helpers shared by the rule families: money as the hand writes it, and findings on a replayed hand."""

from __future__ import annotations

from typing import Any, Final

from auditor import findings as F
from auditor.findings import Finding
from auditor.formats.money import format_minor
from auditor.model import Hand
from auditor.replay.betting import Trace

#: what a check returns when it finds nothing (a check returns a sequence of findings, never a
#: generator: the audit step calls ~30 checks a hand, and most find nothing)
NOTHING: Final[tuple[Finding, ...]] = ()


def money(hand: Hand, amount: int | None) -> str:
    """An amount in minor units, written the way the hand writes money (exact, no floats)."""
    return format_minor(amount, hand.decimals, hand.currency, hand.play_money)


_GAME_CITED: Final = frozenset({"stud", "stud_hilo", "razz", "draw"})
_AMOUNT_KEYS: Final = ("expected", "actual", "facing", "full_raise")
_NOT_MONEY: Final = frozenset({"B010", "H004", "H006"})  # counts raises or cards, not money


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


def flag(t: Trace, code: str, line: int | None, col: int | None, message: str, cite: str | None = None,
         **data: Any) -> Finding:  # fmt: skip
    """A finding on the hand of ``t`` whose message ends with the rule it applies (``cite``, or as
    the trace's profile cites the code); money in its data is labelled with its unit."""
    h, profile = t.hand, t.profile
    if cite is None and h.game in _GAME_CITED:
        from auditor.rules.studdraw_cites import game_cite  # the stud rule a betting finding applies

        cite = game_cite(profile, code, h)
    cite = cite or profile.cite(code)
    unit = money_unit(h, code, data)
    if unit is not None:
        data["money"] = unit
    return F.make(code, h.path, line, col, f"{message} ({cite})", site=h.site, hand_id=h.hand_id,
                  profile=profile.name, rule=cite, **data)  # fmt: skip
