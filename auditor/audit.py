"""The one audit step: every command (``audit``, ``parse``, ``batch``, ``explain``, the HTML
report) reads and judges a hand here, and nowhere else.

:func:`audit_hand` replays a hand once and runs every rule on it, returning the hand, its replay
trace, its rebuilt pots and its findings together (an :class:`Audited`), so renderers show what was
judged without replaying again.  :class:`AuditRun` takes hand chunks in input order, reads each with
its format's reader, audits it, and runs the ``run``-stage rules (duplicate hand ids) across the
hands of the run: the same for ``audit`` over several files and for ``batch`` over a store's night.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from auditor import findings as F
from auditor.findings import Finding, HandKind, plans
from auditor.formats import REGISTRY, Chunk, ExportFacts, parse_chunk
from auditor.model import Hand
from auditor.profiles import Profile, for_hand
from auditor.replay import Trace, replay
from auditor.replay.pots import PotTrace
from auditor.replay.pots import build as build_pots
from auditor.rules.hand import DuplicateIds, fingerprint

if TYPE_CHECKING:  # polars is imported by the cross-hand stage only when it has two hands
    from auditor.crosshand_audit import Bounded, FirstHandFirst


@dataclass(slots=True)
class Audited:
    """A hand as judged: the trace and pots the rules read, and the rule findings in line order."""

    hand: Hand
    trace: Trace
    pots: PotTrace | None
    findings: list[Finding]

    # written out (the dataclass's own, same signature): compiled (mypyc), a dataclass keeps the
    # interpreted ``__init__`` that ``dataclasses`` generates; this one is native stores (once a hand)
    def __init__(self, hand: Hand, trace: Trace, pots: PotTrace | None, findings: list[Finding]) -> None:
        self.hand = hand
        self.trace = trace
        self.pots = pots
        self.findings = findings

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
    t = replay(hand, profile, (facts if facts is not None else REGISTRY.facts_for(hand)).for_hand(hand))
    if hand.cancelled:
        return Audited(hand, t, None, [])
    pt = build_pots(t, profile)
    return Audited(hand, t, pt, judge(t, pt))


def hand_kind(t: Trace) -> HandKind:
    """What decides which checks apply to the replayed hand of ``t`` (see :func:`auditor.findings.plan`)."""
    return HandKind(*_kind_key(t))


def _kind_key(t: Trace) -> tuple[str, str, bool, bool, bool, bool]:
    """The fields of :func:`hand_kind` as a plain tuple (what :func:`judge` looks its plans up by)."""
    h, facts = t.hand, t.facts
    return (h.game, h.structure, t.betting, h.runs > 1, facts.prints_all_in,
            facts.prints_uncalled and not facts.converted)  # fmt: skip


def judge(t: Trace, pt: PotTrace) -> list[Finding]:
    """Every ``hand`` and ``pots`` rule that can apply to the hand (the plan of its
    :func:`hand_kind`), on its trace and rebuilt pots: the findings in line order, cascades folded.

    A check returns a sequence of findings (empty when it finds nothing); which checks run does
    not change what is found, only what it costs (``tests/test_rule_plan.py``)."""
    hand_checks, pots_checks = plans(_kind_key(t))
    out: list[Finding] = []
    for check in hand_checks:
        found = check(t)
        if found:
            out.extend(found)
    for pcheck in pots_checks:
        found = pcheck(t, pt)
        if found:
            out.extend(found)
    if not out:
        return out
    out.sort(key=_line_order)
    for f in out:
        if f.code in _ROOTS:
            return fold_consequences(out, {e.line: e.street for e in t.hand.events})
    return out  # no cascade to fold (fold_consequences would return ``out``)


#: Betting findings that can start a cascade: a wager the site printed wrong (or out of place)
#: leaves the replay's betting state off for the rest of the street and the pot.
_ROOTS: Final = ("B002", "B004", "B006", "B007")
#: Betting findings that follow from an earlier root: order, calls and streets judged on a state
#: that the root already put off.
_FOLLOWERS: Final = frozenset({"B002", "B004", "B006", "B007", "B011"})
#: Pot findings that follow from a wrong call when their discrepancy is that call's shortfall.
_MONEY: Final = frozenset({"A002", "A010"})


def _gap(f: Finding) -> int | None:
    e, a = f.data.get("expected"), f.data.get("actual")
    if isinstance(e, int) and isinstance(a, int) and not isinstance(e, bool) and not isinstance(a, bool):
        return abs(e - a)
    return None


def fold_consequences(found: list[Finding], streets: dict[int, str] | None = None) -> list[Finding]:
    """Report a cascade once: the first misprinted wager of a hand is the root finding, and the
    findings that follow from it are listed in its ``data["consequences"]`` instead of being
    reported as errors of their own.

    Conservative: the root is the hand's first B002/B004/B006/B007 finding (in line order); the
    later B002/B004/B006/B007 findings *of the same street* follow from it (that street's betting
    state is off from the root on), and so does the next B011 (the next street dealt while the
    replay, misled, still waits for a player), and A002/A010 findings whose discrepancy equals the
    shortfall of a B007 (a call printed short).  ``streets`` maps a line to its street.  Everything
    else, and every finding of a hand without a root, is reported as it is.
    """
    root_i = next((i for i, f in enumerate(found) if f.code in _ROOTS), None)
    if root_i is None:
        return found
    root = found[root_i]
    streets = streets or {}
    street = streets.get(root.line or 0)
    gaps = {g for f in found if f.code == "B007" and (g := _gap(f))}
    kept: list[Finding] = []
    folded: list[Finding] = []
    dealt = False
    for i, f in enumerate(found):
        follows = False
        if i > root_i and f.code == "B011" and not dealt:
            follows = dealt = True
        elif i > root_i and f.code in _FOLLOWERS and f.code != "B011":
            follows = street is not None and streets.get(f.line or 0) == street
        elif f.code in _MONEY:
            follows = _gap(f) in gaps
        (folded if follows and i != root_i else kept).append(f)
    if not folded:
        return found
    consequences = [{"code": f.code, "line": f.line, "message": f.message} for f in folded]
    data = {**root.data, "consequences": consequences}
    note = f" [{len(folded)} consequence(s): {', '.join(f.code for f in folded)}]"
    new_root = dataclasses.replace(root, data=data, message=root.message + note)
    return [new_root if f is root else f for f in kept]


@dataclass(slots=True)
class Result:
    """One hand chunk, read and (unless parsing only) judged.  ``findings`` holds every finding of
    the hand: reading (P), run (H001) and rule findings, in line order."""

    chunk: Chunk
    hand: Hand | None
    audited: Audited | None
    findings: list[Finding]

    def __init__(self, chunk: Chunk, hand: Hand | None, audited: Audited | None, findings: list[Finding]) -> None:
        self.chunk = chunk  # (written out, as Audited's)
        self.hand = hand
        self.audited = audited
        self.findings = findings


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
    converted_files: set[str] = field(default_factory=set)
    on_audited: Callable[[Audited], None] | None = None
    #: the cross-hand stage's rows (``hhaudit audit``): :meth:`Bounded.findings` runs the T-rules
    crosshand: Bounded | FirstHandFirst | None = None

    def profile_for(self, hand: Hand) -> Profile:
        return for_hand(hand.site, self.rules or None)

    def process(self, chunk: Chunk) -> Result:
        hand, found = parse_chunk(chunk)
        if hand is not None and "converted" in hand.extras and hand.path not in self.converted_files:
            self.converted_files.add(hand.path)
            found.append(F.make("P009", hand.path, hand.first_line, 1,
                                "this file is a conversion by another tool (a tracker, a converter, hhaudit convert), "
                                "not the site's own export: its uncalled bets and totals are the converter's",
                                site=hand.site, hand_id=hand.hand_id))  # fmt: skip
        if hand is None or not self.audit:
            return Result(chunk, hand, None, found)
        fp = fingerprint(chunk.lines)  # (made once: the copy and the duplicate-id checks both read it)
        first = self.dups.first_of(hand, fp)  # (one lookup: the copy and the duplicate-id checks judge it)
        if first is not None:
            copy = self.dups.copy(hand, fp, first)
            if copy is not None:
                # an identical copy (overlapping exports): named once, not judged or counted again
                return Result(chunk, hand, None, [copy])
        a = audit_hand(hand, self.profile_for(hand))
        if first is not None:
            found.extend(self.dups.differs(hand, a.trace, first, chunk.lines, fp))
        found.extend(a.findings)
        if self.crosshand is not None:
            self.crosshand.add(a, found, chunk.lines)
        if self.on_audited is not None:
            self.on_audited(a)
        return Result(chunk, hand, a, found)
