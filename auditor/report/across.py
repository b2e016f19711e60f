"""Cross-hand findings (T-codes) in the HTML report: on the pages of both hands they name.

A T finding belongs to no single hand: it compares a hand with an earlier one (of the same table,
or for T007 of another table of the tournament).  The per-hand audit has written a page only for
hands with findings of their own, and has kept no hand (memory stays bounded), so once the
cross-hand stage has run, :func:`add_pages` reads again the files the T findings name, audits the
few hands they name, and writes (or rewrites) both hands' pages with an "Across hands" section: the
finding, which of the two hands the page is, the amounts compared ("ended the earlier hand with ..
· starts this hand with .."), and a link to the other hand's page.  Memory and work are bounded by
the T findings, not by the input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor import model as M
from auditor.findings import RULES, Finding
from auditor.formats import Chunk
from auditor.report import render, write
from auditor.rules.common import money

if TYPE_CHECKING:
    from auditor.audit import Result
    from auditor.report.views import Collector

Key = tuple[str, str]  # path, hand id


@dataclass(frozen=True)
class AcrossRow:
    """One cross-hand finding as a hand page shows it."""

    code: str
    name: str
    severity: str
    rule_href: str
    message: str
    role: str  # "the later hand" (the finding's own) or "the earlier hand"
    other: str  # the other hand: "hand 123 (file:line)"
    other_href: str | None  # its page (None: not written, e.g. read from standard input)
    compare: str  # the amounts or seats compared, in words


def cross_findings(findings: Iterable[Finding]) -> list[Finding]:
    """The T findings that name an earlier hand."""
    return [f for f in findings if f.code.startswith("T") and f.data.get("previous_hand_id") is not None]


def _keys(f: Finding) -> tuple[Key, Key]:
    return (f.path, f.hand_id or ""), (str(f.data.get("previous_path")), str(f.data.get("previous_hand_id")))


def _compare(f: Finding, hand: M.Hand | None) -> str:
    d = f.data
    exp, act = d.get("expected"), d.get("actual")
    prev, this = f"hand {d.get('previous_hand_id')}", f"hand {f.hand_id}"

    def m(v: Any) -> str:
        if not isinstance(v, int):
            return "?"
        return money(hand, v) if hand is not None else f"{v:,}"

    if f.code in ("T002", "T003", "T004"):
        diff = (act or 0) - (exp or 0)
        sign = "+" if diff > 0 else "−"
        return (f"{d.get('player')}: ended {prev} with {m(exp)} · starts {this} with {m(act)} · "
                f"difference {sign}{m(abs(diff))}")  # fmt: skip
    if f.code == "T005":
        return f"button: should be on seat {exp} after {prev} · {this} prints seat {act}"
    if f.code in ("T006", "T007"):
        return f"big blind: {m(exp)} in {prev} · {m(act)} in {this}"
    return f"continuity not followed between {prev} and {this} ({d.get('reason')})"


def _row(f: Finding, later: bool, other_href: str | None, hand: M.Hand | None, base: str) -> AcrossRow:
    from auditor.report.views import relative

    d = f.data
    if later:
        role = "this hand is the later one"
        where = relative(str(d.get("previous_path")), base)
        other = f"hand {d.get('previous_hand_id')} ({where}:{d.get('previous_line')})"
    else:
        role = "this hand is the earlier one"
        other = f"hand {f.hand_id} ({relative(f.path, base)}:{f.line})"
    return AcrossRow(f.code, RULES[f.code].name, str(f.severity), f"../rules/{f.code}.html", f.message, role, other,
                     other_href, _compare(f, hand))  # fmt: skip


def _read(paths: set[str], wanted: set[Key], rules: str | None) -> dict[Key, Result]:
    """Read and audit again (under the run's profile ``rules``) the hands ``wanted`` of ``paths``
    (each file once, in order)."""
    from auditor.audit import AuditRun
    from auditor.pipeline import Summary, iter_chunks

    found: dict[Key, Result] = {}
    for path in sorted(paths):
        if path == "-":
            continue  # standard input cannot be read twice
        run = AuditRun(rules=rules or None)
        try:
            for item in iter_chunks([path], Summary()):
                if not isinstance(item, Chunk):
                    continue
                r = run.process(item)
                if r.hand is not None and (path, r.hand.hand_id) in wanted:
                    found.setdefault((path, r.hand.hand_id), r)
        except OSError:
            continue  # the file changed or went away since: the index still lists the finding
    return found


def add_pages(
    col: Collector, findings: list[Finding], rules: str | None = None
) -> dict[int, tuple[int, tuple[str, ...]]]:
    """Write the pages of the hands the cross-hand ``findings`` name (see the module docstring);
    returns ``id(finding)`` -> the page number of the finding's own (later) hand and its players."""
    from auditor.report.views import Kept, hand_view

    cross = cross_findings(findings)
    if not cross:
        return {}
    wanted = {key for f in cross for key in _keys(f)}
    # the pages already written (hands with findings of their own), read back from the collector's disk
    written = col.pages_of(wanted)
    results = _read({p for p, _h in wanted}, wanted, rules)
    number: dict[Key, int] = {}
    own: dict[Key, list[Finding]] = {}
    players: dict[Key, tuple[str, ...]] = {}
    for key in sorted(wanted):
        if key not in results:
            continue
        if key in written:
            number[key], own[key], players[key] = written[key]
        else:
            r = results[key]
            players[key] = tuple(s.player for s in r.audited.hand.seats) if r.audited is not None else ()
            number[key], own[key] = col.new_page(), []
    rows: dict[Key, list[AcrossRow]] = {}
    for f in cross:
        later, earlier = _keys(f)
        for key, other, is_later in ((later, earlier, True), (earlier, later, False)):
            if key not in number:
                continue
            hand = results[key].hand
            href = f"{number[other]}.html" if other in number else None
            rows.setdefault(key, []).append(_row(f, is_later, href, hand, col.base))
    for key, n in number.items():
        r = results[key]
        view = hand_view(Kept(n, r.audited, r.chunk, own[key]), "../", base=col.base)
        view.across = rows.get(key, [])
        write(col.hands_dir / f"{n}.html", render("hand.html.j2", view=view))
    return {id(f): (number[k], players[k]) for f in cross if (k := _keys(f)[0]) in number}
