"""Hand start times as UTC timestamps.

Sites print a local time and (usually) a zone abbreviation: ``2005/05/11 1:29:15 ET``,
``2025/08/02 11:24:53 CET [2025/08/02 5:24:53 ET]``, ``2024/03/01 20:15:00 UTC``; GGPoker prints
no zone at all.  :func:`utc_of` turns the printed text into an aware UTC ``datetime``.

* An abbreviation names a *region's* clock, daylight saving included: PokerStars prints ``CET``
  all year, and ``11:24:53 CET`` on 2 August is 09:24:53 UTC (Central European Summer Time).  So
  every abbreviation maps to an IANA zone (:data:`ZONES`, the one table), read with the standard
  library's :mod:`zoneinfo`.
* When the first zone is unknown (``CUST``) and the site printed a second, bracketed date (the
  PokerStars ``[... ET]``), that one is used.
* A site that prints no zone gets the assumption of :data:`ASSUMED` and the result says the zone
  was assumed.
* A time in the hour that daylight saving repeats is read as the first of the two (``fold=0``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

ZONES: Final[dict[str, str]] = {
    "UTC": "UTC",
    "GMT": "UTC",
    "Z": "UTC",
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "MT": "America/Denver",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "PT": "America/Los_Angeles",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "AKT": "America/Anchorage",
    "HST": "Pacific/Honolulu",
    "AT": "America/Halifax",
    "NT": "America/St_Johns",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "EEST": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "HKT": "Asia/Hong_Kong",
    "JST": "Asia/Tokyo",
    "KST": "Asia/Seoul",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "AEDT": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "NZST": "Pacific/Auckland",
}
"""Zone abbreviations as sites print them, mapped to the IANA zone of their region."""

ASSUMED: Final[dict[str, str]] = {
    "pokerstars": "America/New_York",  # old PokerStars headers print no zone; the server clock was ET
    "ggpoker": "UTC",  # GGPoker hand histories print no zone; their times are UTC
    "winamax": "Europe/Paris",  # Winamax prints UTC today; earlier exports printed Paris time bare
    # Microgaming prints its times without a zone (fpdb's sidecars keep them as printed): assumed
    # UTC, so that two hands of one table can at least be measured apart (the cross-hand stage
    # chains no hands more than 20 minutes apart)
    "microgaming": "UTC",
}
"""The zone assumed for a hand whose site printed none (``zone_assumed`` is then true)."""

_DATE: Final = re.compile(
    r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*-)?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+\(?([A-Z]{1,5})\)?)?"
)


@cache
def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _local(text: str) -> tuple[datetime, str | None] | None:
    m = _DATE.search(text)
    if not m:
        return None
    y, mo, d, h, mi, s, zone = m.groups()
    try:
        return datetime(int(y), int(mo), int(d), int(h), int(mi), int(s) if s else 0), zone
    except ValueError:
        return None


def utc_of(
    site: str, date_text: str | None, tz: str | None, date2: str | None = None
) -> tuple[datetime | None, str | None, bool]:
    """The UTC time of a hand: ``(utc, iana_zone_used, zone_assumed)``.

    ``date_text`` and ``tz`` are the header's date and zone abbreviation as printed; ``date2`` is
    the second, bracketed date some headers carry (with its own zone).  Returns ``(None, None,
    False)`` when no time can be read or the zone is unknown and nothing else tells it.
    """
    if not date_text:
        return None, None, False
    first = _local(date_text)
    if first is None:
        return None, None, False
    local, inline_tz = first
    abbr = (tz or inline_tz or "").upper() or None
    if abbr is not None:
        name = ZONES.get(abbr)
        zone = _zone(name) if name else None
        if zone is not None and name is not None:
            return local.replace(tzinfo=zone).astimezone(UTC), name, False
        second = _local(date2) if date2 else None
        if second is not None and second[1]:
            name2 = ZONES.get(second[1].upper())
            zone2 = _zone(name2) if name2 else None
            if zone2 is not None and name2 is not None:
                return second[0].replace(tzinfo=zone2).astimezone(UTC), name2, False
        return None, None, False
    name = ASSUMED.get(site)
    zone = _zone(name) if name else None
    if zone is None or name is None:
        return None, None, False
    return local.replace(tzinfo=zone).astimezone(UTC), name, True
