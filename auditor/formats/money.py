"""Money as the sites print it and as hhaudit prints it: one place for both directions.

Amounts are integers in minor units (``Hand.decimals`` places); nothing here uses floats.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

#: Currency symbols and the ISO codes they stand for (the first match wins).
SYMBOLS: tuple[tuple[str, str], ...] = (
    ("C$", "CAD"),
    ("CA$", "CAD"),
    ("$", "USD"),
    ("€", "EUR"),
    ("£", "GBP"),
    ("Rs", "INR"),
    ("₹", "INR"),
    ("¥", "CNY"),
)
#: How hhaudit prints each currency.
PRINTED = {"USD": "$", "EUR": "€", "GBP": "£", "INR": "Rs. ", "CNY": "¥", "CAD": "C$"}
#: A currency sign that marks an amount as real money.
MONEY_SIGN: Final = re.compile(r"[$€£¥₹]|Rs\.")


class AmountError(ValueError):
    """An amount that is not exact in the requested number of decimals; ``needed`` says how many it has."""

    def __init__(self, message: str, needed: int = 0) -> None:
        super().__init__(message)
        self.needed = needed


_NUM: Final = re.compile(r"-?\d[\d,. ]*")
#: Longest run of digits an amount may have (Python refuses to convert 4,300 digits and more).
MAX_DIGITS: Final = 30


@lru_cache(maxsize=8192)
def to_minor(text: str, decimals: int, dot_thousands: bool = False) -> int:
    """``$1,234.56`` → 123456 (decimals=2).  Raises :class:`AmountError` when not exact.

    Both decimal marks are understood (``1.234,56`` and ``1,234.56``), spaces and no-break spaces
    group thousands, and a trailing ``k`` (Winamax totals) means thousands.  With ``dot_thousands``
    a lone dot followed by exactly three digits groups thousands (``1.550`` is 1550).
    """
    # "\u00c2\u00a0": a UTF-8 no-break space read as cp1252 (888 exports of some locales)
    m = _NUM.search(text.replace("\u00c2\u00a0", " ").replace("\u00a0", " ").replace("\u202f", " "))
    if m is None:
        raise AmountError(f"no number in {text!r}")
    s = m.group(0).strip().replace(" ", "")
    if len(s) > MAX_DIGITS:
        raise AmountError(f"{text[:40]!r}... has more digits than any amount can have")
    neg = s.startswith("-")
    s = s.lstrip("-").rstrip(".,")
    if "," in s and "." in s:
        dec = "." if s.rfind(".") > s.rfind(",") else ","
    elif "," in s:
        dec = "," if s.count(",") == 1 and len(s.rsplit(",", 1)[1]) in (1, 2) else ""
    elif "." in s:
        dec = "." if s.count(".") == 1 and not (dot_thousands and len(s.rsplit(".", 1)[1]) == 3) else ""
    else:
        dec = ""
    whole, frac = s.rsplit(dec, 1) if dec else (s, "")
    whole = whole.replace(",", "").replace(".", "")
    if text[m.end() : m.end() + 1] in ("k", "K"):  # Winamax "Total pot 6.02k": thousands
        frac = frac.ljust(3, "0")
        whole, frac = whole + frac[:3], frac[3:]
    frac = frac.rstrip("0")
    if len(frac) > decimals:
        raise AmountError(f"{text!r} has more than {decimals} decimal places", needed=len(frac))
    scale: int = 10**decimals
    value = int(whole or "0") * scale + (int(frac.ljust(decimals, "0")) if decimals else 0)
    return -value if neg else value


_DECIMALS: Final = re.compile(r"\d[.,]\d{1,2}(?!\d)")


def has_decimals(text: str | None) -> bool:
    """Whether an amount is printed with one or two decimal places."""
    return bool(text) and bool(_DECIMALS.search(text or ""))


def currency_of(text: str) -> str | None:
    """The ISO code of the first currency sign in ``text``, or None."""
    for sym, code in SYMBOLS:
        if sym in text:
            return code
    return None


def format_minor(amount: int | None, decimals: int, currency: str | None, play_money: bool = False) -> str:
    """An amount in minor units written as hhaudit prints money (exact, no floats)."""
    if amount is None:
        return "?"
    sign = "-" if amount < 0 else ""
    a = abs(amount)
    if decimals:
        unit = 10**decimals
        text = f"{a // unit:,}.{a % unit:0{decimals}d}"
    else:
        text = f"{a:,}"
    sym = PRINTED.get(currency or "", "") if not play_money else ""
    return f"{sign}{sym}{text}"
