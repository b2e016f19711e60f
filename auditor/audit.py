"""The one audit step: every command (``audit``, ``parse``, ``batch``, ``explain``, the HTML
report) reads and judges a hand here, and nowhere else.

:func:`audit_hand` replays a hand once and runs every rule on it, returning the hand, its replay
trace, its rebuilt pots and its findings together (an :class:`Audited`), so renderers show what was
judged without replaying again.  :class:`AuditRun` takes hand chunks in input order, reads each with
its format's reader, audits it, and runs the ``run``-stage rules (duplicate hand ids) across the
hands of the run: the same for ``audit`` over several files and for ``batch`` over a store's night.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from auditor.findings import Finding, checks
from auditor.formats import REGISTRY, Chunk, ExportFacts, parse_chunk
from auditor.model import Hand
from auditor.profiles import Profile, for_hand
from auditor.replay import Trace, replay
from auditor.replay.pots import PotTrace
from auditor.replay.pots import build as build_pots
from auditor.rules.hand import DuplicateIds


@dataclass(slots=True)
class Audited:
    """A hand as judged: the trace and pots the rules read, and the rule findings in line order."""

    hand: Hand
    trace: Trace
    pots: PotTrace | None
    findings: list[Finding]

    @property
    def profile(self) -> Profile:
        return self.trace.profile


def _line_order(f: Finding) -> tuple[int, int, str]:
    return (f.line or 0, f.column or 0, f.code)


def audit_hand(hand: Hand, profile: Profile | None = None, facts: ExportFacts | None = None) -> Audited:
    """Replay ``hand`` once, rebuild its pots, and run every ``hand`` and ``pots`` rule.

    ``profile`` is the rule book (default: the house profile of the hand's format); ``facts`` how
    the format prints (default: the format card's, for the hand's brand).
    """
    profile = profile or for_hand(hand.site, None)
    t = replay(hand, profile, facts if facts is not None else REGISTRY.facts_for(hand))
    if hand.cancelled:
        return Audited(hand, t, None, [])
    out: list[Finding] = []
    for check in checks("hand"):
        out.extend(check(t))
    pt = build_pots(t, profile)
    for pcheck in checks("pots"):
        out.extend(pcheck(t, pt))
    out.sort(key=_line_order)
    return Audited(hand, t, pt, out)


@dataclass(slots=True)
class Result:
    """One hand chunk, read and (unless parsing only) judged.  ``findings`` holds every finding of
    the hand: reading (P), run (H001) and rule findings, in line order."""

    chunk: Chunk
    hand: Hand | None
    audited: Audited | None
    findings: list[Finding]


@dataclass
class AuditRun:
    """Reads and audits hand chunks in input order, with the state a run keeps across hands.

    ``rules`` names a profile for every hand ("" or None: each format's house profile);
    ``audit=False`` reads only (``hhaudit parse``).  Duplicate hand ids (H001, or H005 for an
    identical copy, which is not audited again) are found across
    every hand given to one run: all files of one ``hhaudit audit`` command, or one file of a
    ``hhaudit batch`` night (the store report lists ids seen in several files).
    """

    rules: str | None = None
    audit: bool = True
    dups: DuplicateIds = field(default_factory=DuplicateIds)
    on_audited: Callable[[Audited], None] | None = None

    def profile_for(self, hand: Hand) -> Profile:
        return for_hand(hand.site, self.rules or None)

    def process(self, chunk: Chunk) -> Result:
        hand, found = parse_chunk(chunk)
        if hand is None or not self.audit:
            return Result(chunk, hand, None, found)
        copy = self.dups.copy_of(hand, chunk.lines)
        if copy is not None:
            # an identical copy (overlapping exports): named once, not judged or counted again
            return Result(chunk, hand, None, [copy])
        a = audit_hand(hand, self.profile_for(hand))
        found.extend(self.dups.check(hand, a.trace, chunk.lines))
        found.extend(a.findings)
        if self.on_audited is not None:
            self.on_audited(a)
        return Result(chunk, hand, a, found)
