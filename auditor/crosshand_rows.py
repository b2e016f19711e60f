"""The row of one audited hand for the cross-hand stage (:mod:`auditor.continuity`), built without
polars: ``hhaudit audit`` builds a row per hand while it audits, and runs the polars query in
another process (:mod:`auditor.crosshand_audit`), so the auditing process never imports polars.
:mod:`auditor.continuity` re-exports these names; its ``BASE`` and ``COLUMNS`` give the types of
the columns named here (``tests/test_crosshand_audit.py`` checks that the names agree)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from auditor import model as M
from auditor.findings import Finding, Severity
from auditor.handprint import text_digest
from auditor.times import utc_of

if TYPE_CHECKING:
    from auditor.audit import Audited

#: A fast-fold pool: each hand is dealt at a new table, so there is no table continuity.
POOL_RE = re.compile(r"\bzoom\b|\brush\b|rushandcash|go fast|fast ?forward|\bsnap\b|fast.?fold|\bblaze\b|\bjet\b|"
                     r"speed poker|\bzone poker\b", re.IGNORECASE)  # fmt: skip
#: Seat names an anonymising site prints instead of players (Bovada/Ignition): they change every hand.
ANON_RE = re.compile(r"^(?:big blind|small blind|dealer|button|utg(?:\+\d)?|utg\d?|mp\d?|hj|co|bb|sb)(?: \[me\])?$",
                     re.IGNORECASE)  # fmt: skip
#: A table line saying chips were added legitimately between hands (rebuy, add-on, top-up).
ADDED_RE = re.compile(r"re-?buy|add-?on|top(?:s|ped)?[ -]?up|\badds?\b|buys? in|bought in|re-?load", re.IGNORECASE)
#: Finding families the cross-hand stage trusts a hand's final stacks despite (descriptions, copies).
_TRUSTED_PREFIXES = ("D",)

#: The base hand columns the stage reads (:data:`auditor.continuity.BASE`).
BASE_NAMES = ("site", "hand_id", "path", "first_line", "small_blind", "big_blind", "ante", "button", "table",
              "tournament_id", "level", "complete", "cancelled", "decimals", "game", "structure")  # fmt: skip
#: The columns the stage adds to a hand row (:data:`auditor.continuity.COLUMNS`).
COLUMN_NAMES = ("start_utc", "seats", "fingerprint", "chips_ok", "pool", "top_ups", "button_rule", "keeps_button",
                "local_start", "clock", "flight")  # fmt: skip


def fingerprint_text(lines: Sequence[str]) -> str:
    """A compact fingerprint of a hand's whole text (lines stripped at the right, like
    :func:`auditor.rules.hand.fingerprint`): equal for a copy, different for another record.
    (The digest of every stripped line followed by a newline, encoded as one text: made once per
    hand with the duplicate-id check's, :func:`auditor.handprint.text_digest`.)"""
    return text_digest(lines).hex()


#: Words without which :data:`POOL_RE` cannot match (each of its alternatives holds one): a test
#: on the lowered text, much cheaper than the case-insensitive regex, which runs only after it.
_POOL_WORDS = ("zoom", "rush", "fast", "snap", "blaze", "jet", "speed poker", "zone poker")


_POOL_WORDS_RE = re.compile("|".join(map(re.escape, _POOL_WORDS)))


def _maybe_pool(text: str) -> bool:
    low = text.lower()
    if "\u017f" in low:  # the long s, which the case-insensitive regex takes for an "s" (lower() keeps it)
        low = low.replace("\u017f", "s")
    return _POOL_WORDS_RE.search(low) is not None  # (one of the words in the lowered text)


def is_pool(hand: M.Hand, first_line: str = "") -> bool:
    return _maybe_pool(f"{first_line}\n{hand.table or ''}\n{hand.game_text}") and bool(
        POOL_RE.search(first_line) or POOL_RE.search(hand.table or "") or POOL_RE.search(hand.game_text)
    )


def copy_columns(lines: Sequence[str]) -> dict[str, Any]:
    """The :data:`auditor.continuity.COLUMNS` of a hand that was not audited (an identical copy,
    H005): its fingerprint only."""
    return {**dict.fromkeys(COLUMN_NAMES), "fingerprint": fingerprint_text(lines)}


#: The longest seat name :data:`ANON_RE` can match ("small blind [me]", and a line break before ``$``).
_ANON_MAX = 17
#: The first characters of a seat name :data:`ANON_RE` can match: its alternatives' first letters in
#: either case, and the long s, which its case-insensitive match takes for an "s"
#: (``tests/test_crosshand_rows.py`` checks every code point).
_ANON_FIRST = frozenset("bsdumhcBSDUMHC\u017f")
#: A seat's or an event's player.
_PLAYER = attrgetter("player")


def _anonymised(seats: Iterable[M.Seat]) -> bool:
    """A seat's name is one an anonymising site prints (:data:`ANON_RE`): the regex only for a name
    short enough, starting with a character it can start with."""
    for x in seats:
        name = x.player
        if name[:1] in _ANON_FIRST and len(name) <= _ANON_MAX and ANON_RE.match(name):
            return True
    return False


def hand_columns(a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> dict[str, Any]:
    """The :data:`auditor.continuity.COLUMNS` of one audited hand (``findings``: the hand's own,
    ``lines``: its text)."""
    out: dict[str, Any] = {}
    _columns(out, a, findings, lines)
    return out


def hand_row(a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> dict[str, Any]:
    """The whole row of one audited hand: :func:`base_columns` then :func:`hand_columns`, made
    in one dict (the cross-hand stage of ``hhaudit audit`` makes one a hand)."""
    row = dict(zip(BASE_NAMES, _BASE(a.hand), strict=True))
    _columns(row, a, findings, lines)
    return row


def _columns(out: dict[str, Any], a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
    """:func:`hand_columns`, set in ``out`` in the order of :data:`COLUMN_NAMES`."""
    h, t, pt = a.hand, a.trace, a.pots
    extras = h.extras
    utc, _zone, assumed = utc_of(h.site, h.start_time, h.time_zone, extras.get("date2"))
    table_events = t.of(M.TableEvent)
    added = {e.player for e in table_events if e.player and ADDED_RE.search(e.text)} if table_events else _NONE
    # the players who posted or acted (the replay's index of the events by their final class)
    acting = set(map(_PLAYER, t.of(M.Post)))
    acting.update(map(_PLAYER, t.of(M.Action)))
    chips_ok = pt is not None and h.complete and not t.of(M.CashOut)
    if chips_ok:
        for f in findings:
            if f.severity >= Severity.WARNING and not f.code.startswith(_TRUSTED_PREFIXES):
                chips_ok = False
                break
    finals = _finals(a)
    chips_ok = chips_ok and finals is not None
    out["start_utc"] = utc
    # a record that prints no stacks (auditor/formats/partial.py) is not chained
    if extras.get("stacks") == "unprinted":
        out["seats"] = None
    elif finals is not None and pt is not None:
        collected = pt.collected
        out["seats"] = [{"seat": s.seat, "player": s.player, "stack": s.stack, "final": finals.get(s.player),
                         "sitting_out": s.sitting_out, "active": s.player in acting, "added": s.player in added,
                         "line": s.line, "collected": collected.get(s.player, 0)}
                        for s in h.seats]  # fmt: skip
    else:
        out["seats"] = [{"seat": s.seat, "player": s.player, "stack": s.stack, "final": None,
                         "sitting_out": s.sitting_out, "active": s.player in acting, "added": s.player in added,
                         "line": s.line, "collected": pt.collected.get(s.player, 0) if pt is not None else None}
                        for s in h.seats]  # fmt: skip
    out["fingerprint"] = fingerprint_text(lines)
    out["chips_ok"] = chips_ok
    # a fast-fold pool, or an anonymised table: no continuity to follow
    out["pool"] = is_pool(h, lines[0] if lines else "") or _anonymised(h.seats)
    profile = a.profile
    tournament = h.is_tournament
    # a tournament: chips may be bought between hands (rebuys, add-ons), as the export says
    out["top_ups"] = extras.get("rebuys") == "yes" if tournament else profile.top_ups_between_hands
    out["button_rule"] = "dead" if tournament or profile.dead_button_cash else "moving"
    out["keeps_button"] = t.facts.button_stays_after_dead_small_blind and _dead_small_blind(h)
    if tournament:
        out.update(schedule_columns(utc, assumed, h.start_time, h.time_zone, extras, tournament))
    else:
        out["local_start"] = out["clock"] = out["flight"] = None


#: (no player added chips: what a hand without table events has)
_NONE: frozenset[str] = frozenset()


def _dead_small_blind(h: M.Hand) -> bool:
    """The hand was dealt with a live big blind and no small blind, at stakes that have one."""
    kinds = {e.kind for e in h.events if isinstance(e, M.Post)}
    return bool(h.small_blind) and "big_blind" in kinds and not kinds & {"small_blind", "small_big_blind"}


def _finals(a: Audited) -> dict[str, int] | None:
    """Each seated player's stack at the end of the hand: the starting stack, less the chips put in,
    plus the chips returned and the awards the site claims.  The chips must balance (what left the
    players is the rake and fees, less house money); an uncalled bet the site returned without a
    line (888, OnGame, walks) is added when it is exactly what is missing.  None when the chips do
    not balance: the final stacks are not known."""
    pt = a.pots
    if pt is None:
        return None
    finals: dict[str, int] = {}
    contributions, dead, returned, collected = pt.contributions, pt.dead, pt.printed_returns, pt.collected
    stacks = 0
    for s in a.hand.seats:
        name, stack = s.player, s.stack
        if name in finals:
            return None  # one player in two seats (H003)
        stacks += stack
        finals[name] = (stack - contributions.get(name, 0) - dead.get(name, 0) + returned.get(name, 0)
                        + collected.get(name, 0))  # fmt: skip
    missing = stacks - sum(finals.values()) - pt.rake - pt.fees + pt.house
    if missing == 0:
        return finals
    silent = {n: v for n, v in pt.expected_returns.items() if v and not pt.printed_returns.get(n) and n in finals}
    if silent and missing == sum(silent.values()):
        for n, v in silent.items():
            finals[n] += v
        return finals
    return None


_BASE = attrgetter(*BASE_NAMES)


def base_columns(h: M.Hand) -> dict[str, Any]:
    return dict(zip(BASE_NAMES, _BASE(h), strict=True))


# ------------------------------------------------------------------ T007's clocks and flights

_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                       "dec"), start=1)}  # fmt: skip
#: Printed dates, each with the order of its groups (year, month, day, hour, minute, second).
_DATES: tuple[tuple[re.Pattern[str], str], ...] = (
    # 2022-07-11 15:03:22, 2012/04/12 - 22:32:06, 2011/08/07 16:02
    (re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*-)?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?"), "ymdHMS"),
    # 888poker: 27 03 2016 22:36:34 (day, month, year)
    (re.compile(r"^\s*(\d{1,2}) (\d{1,2}) (\d{4}) (\d{1,2}):(\d{2}):(\d{2})"), "dmyHMS"),
    # OnGame: Tue Dec 18 01:53:38 2012
    (re.compile(r"([A-Za-z]{3})[a-z]* (\d{1,2}) (\d{1,2}):(\d{2}):(\d{2}) (\d{4})"), "bdHMSy"),
    # PartyPoker: July 27, 23:00:33 2012
    (re.compile(r"([A-Za-z]{3})[a-z]* (\d{1,2}), (\d{1,2}):(\d{2}):(\d{2}) (\d{4})"), "bdHMSy"),
)


def local_start(text: str | None) -> datetime | None:
    """The start time as printed, read with no zone (a naive ``datetime``), or None when it cannot
    be read.  Only for comparing hands on one clock: never a UTC time."""
    if not text:
        return None
    for pattern, order in _DATES:
        m = pattern.search(text)
        if m is None:
            continue
        got: dict[str, int] = {}
        for key, value in zip(order, m.groups(), strict=True):
            if key == "b":
                month = _MONTHS.get(value.lower())
                if month is None:
                    break
                got["m"] = month
            else:
                got[key] = int(value) if value else 0
        else:
            try:
                return datetime(got["y"], got["m"], got["d"], got["H"], got["M"], got.get("S", 0))
            except ValueError:
                return None
    return None


def flight_of(extras: dict[str, str]) -> str | None:
    """What tells flights of one tournament id apart, as printed: the tournament's name and buy-in
    (``extras``: the hand's); None when neither is printed."""
    name, buyin = extras.get("tournament_name"), extras.get("buyin")
    if name is None and buyin is None:
        return None
    return f"{name or ''}\x1f{buyin or ''}"


def schedule_columns(
    utc: datetime | None,
    assumed: bool,
    start_time: str | None,
    time_zone: str | None,
    extras: dict[str, str],
    tournament: bool,
) -> dict[str, Any]:
    """The schedule's columns (:data:`auditor.schedule.COLUMNS`) of one hand: ``utc`` is its UTC
    start (:func:`auditor.times.utc_of`), if known, and ``assumed`` says it was read in a zone the
    reader assumed (the site printed none).  A tournament hand with no UTC time, or one read in an
    assumed zone, keeps its printed time (``local_start``): its clock is the zone as printed, or with
    none the file's (never a guess)."""
    if not tournament:
        return {"local_start": None, "clock": None, "flight": None}
    local = local_start(start_time) if utc is None or assumed else None
    clock = time_zone if local is not None and not assumed else None
    return {"local_start": local, "clock": clock, "flight": flight_of(extras)}
