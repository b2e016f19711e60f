"""The row of one audited hand for the cross-hand stage (:mod:`auditor.continuity`), built without
polars: ``hhaudit audit`` builds a row per hand while it audits, and runs the polars query in
another process (:mod:`auditor.crosshand_audit`), so the auditing process never imports polars.
:mod:`auditor.continuity` re-exports these names; its ``BASE`` and ``COLUMNS`` give the types of
the columns named here (``tests/test_crosshand_audit.py`` checks that the names agree)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from auditor import model as M
from auditor.findings import Finding, Severity
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
COLUMN_NAMES = ("start_utc", "seats", "fingerprint", "chips_ok", "pool", "top_ups", "button_rule", "keeps_button")


def fingerprint_text(lines: Sequence[str]) -> str:
    """A compact fingerprint of a hand's whole text (lines stripped at the right, like
    :func:`auditor.rules.hand.fingerprint`): equal for a copy, different for another record."""
    h = hashlib.blake2b(digest_size=12)
    for line in lines:
        h.update(line.rstrip().encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


def is_pool(hand: M.Hand, first_line: str = "") -> bool:
    return bool(POOL_RE.search(first_line) or POOL_RE.search(hand.table or "") or POOL_RE.search(hand.game_text))


def copy_columns(lines: Sequence[str]) -> dict[str, Any]:
    """The :data:`auditor.continuity.COLUMNS` of a hand that was not audited (an identical copy,
    H005): its fingerprint only."""
    return {**dict.fromkeys(COLUMN_NAMES), "fingerprint": fingerprint_text(lines)}


def hand_columns(a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> dict[str, Any]:
    """The :data:`auditor.continuity.COLUMNS` of one audited hand (``findings``: the hand's own,
    ``lines``: its text)."""
    h, t, pt = a.hand, a.trace, a.pots
    utc, _zone, _assumed = utc_of(h.site, h.start_time, h.time_zone, h.extras.get("date2"))
    added = {e.player for e in t.of(M.TableEvent) if e.player and ADDED_RE.search(e.text)}
    acting = {e.player for e in h.events if isinstance(e, M.Post | M.Action)}
    chips_ok = pt is not None and h.complete and not t.of(M.CashOut)
    chips_ok = chips_ok and not any(f.severity >= Severity.WARNING and not f.code.startswith(_TRUSTED_PREFIXES)
                                    for f in findings)  # fmt: skip
    finals = _finals(a)
    chips_ok = chips_ok and finals is not None
    seats = []
    for s in h.seats:
        seats.append({"seat": s.seat, "player": s.player, "stack": s.stack,
                      "final": finals.get(s.player) if finals is not None else None,
                      "sitting_out": s.sitting_out, "active": s.player in acting, "added": s.player in added,
                      "line": s.line,
                      "collected": pt.collected.get(s.player, 0) if pt is not None else None})  # fmt: skip
    profile = a.profile
    return {
        "start_utc": utc,
        # a record that prints no stacks (auditor/formats/partial.py) is not chained
        "seats": None if h.extras.get("stacks") == "unprinted" else seats,
        "fingerprint": fingerprint_text(lines),
        "chips_ok": chips_ok,
        # a fast-fold pool, or an anonymised table: no continuity to follow
        "pool": is_pool(h, lines[0] if lines else "") or any(ANON_RE.match(x.player) for x in h.seats),
        # a tournament: chips may be bought between hands (rebuys, add-ons), as the export says
        "top_ups": h.extras.get("rebuys") == "yes" if h.is_tournament else profile.top_ups_between_hands,
        "button_rule": "dead" if h.is_tournament or profile.dead_button_cash else "moving",
        "keeps_button": t.facts.button_stays_after_dead_small_blind and _dead_small_blind(h),
    }


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
    for s in a.hand.seats:
        if s.player in finals:
            return None  # one player in two seats (H003)
        put = pt.contributions.get(s.player, 0) + pt.dead.get(s.player, 0)
        finals[s.player] = s.stack - put + pt.printed_returns.get(s.player, 0) + pt.collected.get(s.player, 0)
    missing = sum(s.stack for s in a.hand.seats) - sum(finals.values()) - pt.rake - pt.fees + pt.house
    if missing == 0:
        return finals
    silent = {n: v for n, v in pt.expected_returns.items() if v and not pt.printed_returns.get(n) and n in finals}
    if silent and missing == sum(silent.values()):
        for n, v in silent.items():
            finals[n] += v
        return finals
    return None


def base_columns(h: M.Hand) -> dict[str, Any]:
    return {k: getattr(h, k) for k in BASE_NAMES}
