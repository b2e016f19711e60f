"""View models of the HTML report and the code that fills them.  Templates only loop over these."""

from __future__ import annotations

import json
import os
import shutil
import weakref
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from auditor import __version__
from auditor import model as M
from auditor.audit import Audited, Result
from auditor.explain import Explanation, explain_hand
from auditor.findings import RULES, Finding, Rule
from auditor.formats import Chunk
from auditor.pipeline import Summary
from auditor.replay import Trace
from auditor.report import (
    Page,
    copy_static,
    inline_css,
    inline_js,
    publish,
    render,
    reports_dir,
    safe_dir,
    sha256_of,
    staging_dir,
    write,
)
from auditor.report.replayer import ReplayView, replay_view
from auditor.rules.common import money

PAGE_SIZE = 100


@dataclass(frozen=True)
class FindingRow:
    code: str
    name: str
    severity: str
    site: str
    hand_id: str
    where: str
    line: str
    message: str
    hand_href: str | None
    rule_href: str


@dataclass(frozen=True)
class Count:
    label: str
    count: int
    href: str | None


@dataclass(frozen=True)
class FileRow:
    path: str
    size: str
    sha256: str
    encoding: str
    hands: int
    status: str = "read"  # read, no hands, unreadable (a P-finding about the file itself)
    findings: int = 0
    worst: str = ""  # the worst severity of the file's findings ("" when none)
    href: str | None = None  # the file's findings page


@dataclass(frozen=True)
class Bar:
    """One bar of an inline SVG chart; every coordinate is computed here, none in the template."""

    label: str
    count: int
    y: int
    width: float  # of the bar, in the chart's 0..100 units
    href: str | None
    css: str  # bar-error, bar-warning, bar-info, bar-any


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    bars: list[Bar]
    height: int
    label_width: int = 150  # viewBox units given to the labels (the bars get the rest of 400)


@dataclass(frozen=True)
class FilterNote:
    """What hid findings from this report: a selector, a baseline, per-file ignores, excluded files."""

    what: str
    hidden: str


@dataclass(frozen=True)
class PagerLink:
    label: str
    href: str | None  # None: the current page


@dataclass
class ListView:
    """A page of the findings table: the index's first page, further pages, or one code/site."""

    page: Page
    heading: str
    rows: list[FindingRow]
    pager: list[PagerLink]
    codes: list[str]
    severities: list[str]
    sites: list[str]
    total: int


@dataclass
class IndexView(ListView):
    generated: str = ""
    version: str = ""
    profile: str = ""
    files: list[FileRow] = field(default_factory=list)
    cards: list[Count] = field(default_factory=list)
    by_code: list[Count] = field(default_factory=list)
    by_severity: list[Count] = field(default_factory=list)
    by_site: list[Count] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    filters: list[FilterNote] = field(default_factory=list)
    hidden: int = 0
    base: str = ""  # the common folder of the inputs: paths are shown relative to it
    shown_findings: int = 0
    flagged_files: list[FileRow] = field(default_factory=list)  # files with findings or not read
    clean_files: list[FileRow] = field(default_factory=list)
    log_note: str = ""
    log_rows: int = 25  # flagged files listed open; the rest are folded


@dataclass(frozen=True)
class SourceLine:
    number: int
    text: str
    hit: bool
    notes: list[str]


@dataclass(frozen=True)
class ActionRow:
    line: int
    player: str
    action: str
    stack: str
    pot: str


@dataclass(frozen=True)
class StreetView:
    name: str
    board: str
    actions: list[ActionRow]


@dataclass(frozen=True)
class FindingDetail:
    code: str
    name: str
    severity: str
    line: str
    message: str
    summary: str
    rule_href: str
    consequences: list[str] = field(default_factory=list)  # folded findings that follow from this one


@dataclass
class HandView:
    page: Page
    heading: str
    where: str
    source: list[SourceLine]
    streets: list[StreetView]
    explanation: Explanation | None
    findings: list[FindingDetail]
    failed: bool
    replay: ReplayView | None = None
    # cross-hand findings naming this hand (auditor.report.across.AcrossRow): written after the run
    across: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class ExampleView:
    lines: list[SourceLine]
    findings: list[str]


@dataclass
class RuleView:
    page: Page
    code: str
    name: str
    severity: str
    doc: str
    bad: ExampleView | None
    good: ExampleView | None


@dataclass
class Kept:
    """A hand the report shows: its source lines and findings, and the audit step's result when it parsed."""

    number: int
    audited: Audited | None
    chunk: Chunk
    findings: list[Finding]


@dataclass(frozen=True, slots=True)
class Shown:
    """What the index needs of a hand whose page is written: its number and findings."""

    number: int
    findings: list[Finding]
    players: tuple[str, ...] = ()


def common_base(paths: list[str]) -> str:
    """The folder the inputs have in common ("" when they have none): paths are shown relative to it."""
    dirs = [p if os.path.isdir(p) else os.path.dirname(p) for p in paths if p != "-"]
    if not dirs:
        return ""
    try:
        base = os.path.commonpath(dirs)
    except ValueError:  # absolute and relative paths mixed
        return ""
    return base


def relative(path: str, base: str) -> str:
    """``path`` relative to ``base`` when it lies under it; else as given."""
    if not base or path == "-":
        return path
    prefix = base.rstrip(os.sep) + os.sep
    return path[len(prefix) :] if path.startswith(prefix) else path


class Collector:
    """Writes each hand with findings to its page as soon as the audit step has judged it (from the
    step's result: no second replay), and keeps only the findings for the index.  Hands without
    findings get no page.  Memory stays bounded by one hand however large the input."""

    def __init__(self, out_dir: str, inputs: list[str] | None = None) -> None:
        self.target = Path(out_dir)
        #: pages are written into a new sibling folder, swapped in whole by write_report
        self.out = staging_dir(self.target)
        self._cleanup = weakref.finalize(self, shutil.rmtree, str(self.out), True)
        self.hands_dir = safe_dir(self.out / "hands")
        self.base = common_base(inputs or [])
        self.shown: list[Shown] = []
        self.loose: list[Finding] = []  # findings outside any hand (file-level P-findings)
        self.hand_of: dict[int, int] = {}  # id(finding) -> page number

    def on_hand(self, r: Result) -> None:
        if not r.findings:
            return
        players = tuple(s.player for s in r.audited.hand.seats) if r.audited is not None else ()
        k = Shown(len(self.shown) + 1, list(r.findings), players)
        self.shown.append(k)
        for f in r.findings:
            self.hand_of[id(f)] = k.number
        page = hand_view(Kept(k.number, r.audited, r.chunk, k.findings), "../", base=self.base)
        write(self.hands_dir / f"{k.number}.html", render("hand.html.j2", view=page))

    def on_loose(self, f: Finding) -> None:
        if id(f) not in self.hand_of:
            self.loose.append(f)

    def publish(self) -> Path:
        """Swap the finished report in for the output folder (see :func:`auditor.report.publish`)."""
        publish(self.out, self.target)
        self._cleanup.detach()
        self.out = self.target
        return self.target

    def close(self) -> None:
        """Remove the staging folder if the report was never published (an error stopped the run)."""
        self._cleanup()


def _row(f: Finding, root: str, hand_no: int | None, base: str = "") -> FindingRow:
    anchor = f"#L{f.line}" if f.line is not None else ""
    href = f"{root}hands/{hand_no}.html{anchor}" if hand_no is not None else None
    return FindingRow(f.code, f.name, str(f.severity), f.site or "", f.hand_id or "", relative(f.path, base),
                      "" if f.line is None else f"{f.line}:{f.column or 1}", f.message, href,
                      f"{root}rules/{f.code}.html")  # fmt: skip


def _size(n: int) -> str:
    if n < 0:
        return "stdin"
    if n < 1024:
        return f"{n:,} B"
    value = float(n)
    for unit in ("KB", "MB", "GB"):
        value /= 1024
        if value < 1024 or unit == "GB":
            break
    return f"{value:,.1f} {unit}"


def _sha256(path: str) -> str:
    """The SHA-256 of a regular file (opened without blocking on a FIFO swapped in), or a dash."""
    if path == "-" or not os.path.isfile(path):
        return "–"
    try:
        return sha256_of(path)
    except OSError:
        return "–"


_SEV_ORDER = {"error": 3, "warning": 2, "info": 1}


def _chart(cid: str, title: str, counts: list[Count], css: list[str] | None = None) -> Chart:
    """A horizontal bar chart: bars scaled to the largest count, 22 units a row."""
    top = max((c.count for c in counts), default=0) or 1
    bars = [Bar(c.label, c.count, i * 22, round(180 * c.count / top, 1), c.href, (css or [])[i] if css else "bar-any")
            for i, c in enumerate(counts)]  # fmt: skip
    return Chart(cid, title, bars, max(22, 22 * len(bars)), 190)


def _search_index(findings: list[tuple[Finding, int | None]], players: dict[int, tuple[str, ...]],
                  base: str) -> str:  # fmt: skip
    """The search box's index: one entry per finding (hand id, players, file, code, where to go)."""
    rows = []
    for f, n in findings:
        href = f"hands/{n}.html" + (f"#L{f.line}" if f.line is not None else "") if n is not None else ""
        who = " ".join(players.get(n, ())) if n is not None else ""
        line = "" if f.line is None else str(f.line)
        msg = f.message[:200]
        rows.append([f.hand_id or "", who, relative(f.path, base), f.code, str(f.severity), line, msg, href])
    data = json.dumps({"fields": ["hand", "players", "file", "code", "severity", "line", "message", "href"],
                       "rows": rows}, ensure_ascii=True)  # fmt: skip
    return f"window.hhauditSearch = {data};\n"


def write_report(
    out_dir: str, summary: Summary, col: Collector, profile_name: str, filters: list[FilterNote] | None = None
) -> Path:
    """Write the whole report and swap it in for ``out_dir``; returns the index path.

    ``filters`` say what the command hid (selectors, baseline, per-file ignores, excluded files):
    the first screen lists them with the number of findings they hid.
    """
    out = col.out
    base = col.base
    copy_static(out)
    findings: list[tuple[Finding, int | None]] = [(f, k.number) for k in col.shown for f in k.findings]
    # cross-hand findings (T-codes): the pages of both hands they name, linked from the tables
    from auditor.report.across import add_pages

    cross_page = add_pages(col, col.loose, profile_name)
    findings += [(f, cross_page.get(id(f))) for f in col.loose]
    findings.sort(key=lambda x: (x[0].path, x[0].line or 0, x[0].code))
    codes = sorted({f.code for f, _ in findings})
    sites = sorted({f.site for f, _ in findings if f.site})
    severities = [s for s in ("error", "warning", "info") if any(str(f.severity) == s for f, _ in findings)]
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    sub = f"{summary.hands_seen:,} hands · {len(findings):,} findings · {generated}"

    def pages(prefix: str, items: list[tuple[Finding, int | None]], heading: str) -> list[ListView]:
        chunks = [items[i : i + PAGE_SIZE] for i in range(0, len(items), PAGE_SIZE)] or [[]]
        names = [f"{prefix}-{i + 1}.html" for i in range(len(chunks))]
        if prefix == "findings":
            names[0] = "index.html"
        views = []
        for i, part in enumerate(chunks):
            pager = [PagerLink(str(j + 1), None if j == i else names[j]) for j in range(len(chunks))]
            views.append(ListView(Page(heading, sub, ""), heading, [_row(f, "", n, base) for f, n in part], pager,
                                  codes, severities, sites, len(items)))  # fmt: skip
        return views

    # the import log: one row per file read, with its findings and their worst severity
    per_file: dict[str, list[Finding]] = {}
    for f, _ in findings:
        per_file.setdefault(f.path, []).append(f)
    file_pages: dict[str, str] = {}
    index_files: list[FileRow] = []
    for i, info in enumerate(summary.file_infos, start=1):
        fs = per_file.get(info.path, [])
        worst = max((str(f.severity) for f in fs), key=lambda v: _SEV_ORDER.get(v, 0), default="")
        file_level = [f for f in fs if f.hand_id is None and f.code.startswith("P")]
        status = "unreadable" if info.hands == 0 and file_level else ("no hands" if info.hands == 0 else "read")
        href = None
        if fs and info.path not in file_pages:
            file_pages[info.path] = href = f"file-{i}-1.html"
        index_files.append(FileRow(relative(info.path, base), _size(info.size), _sha256(info.source or info.path),
                                   info.encoding, info.hands, status, len(fs), worst, href))  # fmt: skip

    # index (page 1 of all findings), further pages, one list per code, per site and per file
    all_pages = pages("findings", findings, "All findings")
    index = IndexView(**{k: getattr(all_pages[0], k) for k in ListView.__dataclass_fields__})
    index.page = Page("Audit report", sub, "")
    index.generated, index.version, index.profile = generated, __version__, profile_name or "each hand's site profile"
    index.files = index_files
    flagged = [f for f in index_files if f.findings or f.status != "read"]
    index.flagged_files = sorted(flagged, key=lambda f: (-_SEV_ORDER.get(f.worst, 0), -f.findings, f.path))
    index.clean_files = [f for f in index_files if not (f.findings or f.status != "read")]
    index.log_note = (f"{len(index_files):,} files read: {len(flagged):,} with findings or not read (worst first), "
                      f"{len(index.clean_files):,} without a finding.")  # fmt: skip
    index.base = base or "(as given)"
    index.filters = list(filters or [])
    index.hidden = getattr(summary, "ignored", 0) + summary.baselined
    index.shown_findings = len(findings)
    index.cards = [Count("files", summary.files, None), Count("hands seen", summary.hands_seen, None),
                   Count("parsed", summary.hands_parsed, None), Count("failed", summary.hands_failed, None),
                   Count("findings", len(findings), None)]  # fmt: skip
    if index.hidden:
        index.cards.append(Count("hidden by filters", index.hidden, None))
    across = [x for x in findings if x[0].code.startswith("T")]
    if across:
        index.cards.append(Count("across hands", len(across), "across-1.html"))
    by_code = Counter(f.code for f, _ in findings)
    index.by_code = [Count(f"{c} {RULES[c].name}", n, f"code-{c}-1.html") for c, n in sorted(by_code.items())]
    by_sev = Counter(str(f.severity) for f, _ in findings)
    index.by_severity = [Count(s, by_sev[s], None) for s in severities]
    by_site = Counter(f.site or "(no site)" for f, _ in findings)
    index.by_site = [Count(s, n, f"site-{s}-1.html" if s in sites else None) for s, n in sorted(by_site.items())]
    code_css = [f"bar-{RULES[c].severity}" for c, _n in sorted(by_code.items())]
    index.charts = [
        _chart("chart-code", "Findings by code", [Count(c, n, f"code-{c}-1.html") for c, n in sorted(by_code.items())],
               code_css),
        _chart("chart-severity", "Findings by severity", index.by_severity, [f"bar-{s}" for s in severities]),
        _chart("chart-site", "Findings by site", index.by_site),
    ]  # fmt: skip
    write(out / "index.html", render("index.html.j2", view=index))
    players = {k.number: k.players for k in col.shown}
    write(out / "search-index.js", _search_index(findings, players, base))
    for i, v in enumerate(all_pages[1:], start=2):
        write(out / f"findings-{i}.html", render("list.html.j2", view=v))
    for c in codes:
        for i, v in enumerate(pages(f"code-{c}", [x for x in findings if x[0].code == c], f"{c} {RULES[c].name}")):
            write(out / f"code-{c}-{i + 1}.html", render("list.html.j2", view=v))
    for i, v in enumerate(pages("across", across, "Findings across hands (T-codes)") if across else []):
        write(out / f"across-{i + 1}.html", render("list.html.j2", view=v))
    for s in sites:
        for i, v in enumerate(pages(f"site-{s}", [x for x in findings if x[0].site == s], f"Findings at {s}")):
            write(out / f"site-{s}-{i + 1}.html", render("list.html.j2", view=v))
    for path, href in file_pages.items():
        prefix = href.removesuffix("-1.html")
        items = [x for x in findings if x[0].path == path]
        for i, v in enumerate(pages(prefix, items, f"Findings in {relative(path, base)}")):
            write(out / f"{prefix}-{i + 1}.html", render("list.html.j2", view=v))
    safe_dir(out / "hands")
    safe_dir(out / "rules")
    for code in RULES:
        write(out / "rules" / f"{code}.html", render("rule.html.j2", view=rule_view(code, "../")))
    return col.publish() / "index.html"


def _source(lines: tuple[str, ...] | list[str], first: int, findings: list[Finding]) -> list[SourceLine]:
    notes: dict[int, list[str]] = {}
    for f in findings:
        if f.line is not None:
            notes.setdefault(f.line, []).append(f"{f.code} {f.message}")
    return [SourceLine(n, text, n in notes, notes.get(n, [])) for n, text in enumerate(lines, start=first)]


def streets_of(t: Trace) -> list[StreetView]:
    """The replay street by street: who acted, the amount, their stack and the pot after it."""
    h = t.hand
    steps = {s.index: s for s in t.steps}
    out: list[StreetView] = []
    current: list[ActionRow] = []
    name, board = "pre-flop", ""
    pot = 0
    for i, e in enumerate(h.events):
        if isinstance(e, M.Board) and e.run == 1 and e.street != "preflop":
            out.append(StreetView(name, board, current))
            name, board, current = e.street, " ".join((*e.board_before, *e.cards)), []
            continue
        s = steps.get(i)
        if s is not None:
            pot += s.add
            ev = s.event
            if isinstance(ev, M.Post):
                what = f"posts {ev.kind.replace('_', ' ')} {money(h, ev.amount)}"
            elif ev.kind in ("bet", "raise", "complete"):
                what = f"{ev.kind}s to {money(h, ev.to)}" if ev.kind != "bet" else f"bets {money(h, ev.to)}"
            elif ev.kind == "call":
                what = f"calls {money(h, ev.increment)}"
            else:
                what = ev.kind + "s" if ev.kind != "check" else "checks"
            if ev.all_in:
                what += " (all-in)"
            current.append(ActionRow(ev.line, ev.player, what, money(h, s.stack_after), money(h, pot)))
        elif isinstance(e, M.UncalledReturn):
            pot -= e.amount
            current.append(ActionRow(e.line, e.player, f"gets back {money(h, e.amount)} uncalled", "", money(h, pot)))
    out.append(StreetView(name, board, current))
    return [s for s in out if s.actions or s.board]


def _consequences(f: Finding) -> list[str]:
    out = []
    for c in f.data.get("consequences", []) or []:
        if isinstance(c, dict):
            line = f"line {c['line']}: " if c.get("line") is not None else ""
            out.append(f"{line}{c.get('code', '')} {c.get('message', '')}")
    return out


def hand_view(k: Kept, root: str | None, standalone: bool = False, base: str = "") -> HandView:
    """A hand page's view model (``root``: the prefix to the report root, None for a standalone
    page; ``standalone``: inline the CSS and the replayer's script; ``base``: shown paths are
    relative to it)."""
    a = k.audited
    first = k.chunk.first_line
    details = [
        FindingDetail(f.code, f.name, str(f.severity), "" if f.line is None else str(f.line), f.message,
                      RULES[f.code].summary, f"{root or ''}rules/{f.code}.html", _consequences(f))
        for f in k.findings
    ]  # fmt: skip
    css = inline_css() if standalone else None
    js = inline_js() if standalone else None
    shown = relative(k.chunk.path, base)
    if a is None:
        page = Page(f"Unreadable hand in {shown}", "hand page", root, css)
        return HandView(page, f"Unreadable hand at {shown}:{first}", f"{shown}, line {first}",
                        _source(k.chunk.lines, first, k.findings), [], None, details, True)  # fmt: skip
    x = explain_hand(a)
    where = x.where.replace(k.chunk.path, shown, 1) if base else x.where
    findings = sorted({id(f): f for f in [*k.findings]}.values(), key=lambda f: (f.line or 0, f.code))
    page = Page(f"Hand {a.hand.hand_id}", x.title, root, css, js)
    return HandView(page, x.title, where, _source(k.chunk.lines, first, findings), streets_of(a.trace), x,
                    details, False, replay_view(a, findings))  # fmt: skip


def example_dir() -> Path:
    """Bad and good example hands of each rule: shipped as ``auditor/rule_examples`` in the wheel."""
    packaged = reports_dir().parent / "rule_examples"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "fixtures" / "rules"


def _example(code: str, kind: str) -> ExampleView | None:
    from auditor.pipeline import audit

    path = example_dir() / code / f"{kind}.txt"
    if not path.is_file():
        return None
    _summary, found = audit([str(path)])
    from auditor.ingest import sniff_encoding

    data = path.read_bytes()
    encoding, skip = sniff_encoding(data)
    text = data[skip:].decode(encoding, errors="replace").splitlines()
    shown = [f for f in found if f.path == str(path)]
    return ExampleView(_source(text, 1, shown), [f"line {f.line}: {f.code} {f.message}" for f in shown])


def rule_view(code: str, root: str | None) -> RuleView:
    r: Rule = RULES[code]
    return RuleView(Page(f"{r.code} {r.name}", "rule", root), r.code, r.name, str(r.severity), r.doc,
                    _example(code, "bad"), _example(code, "good"))  # fmt: skip


def explain_page(a: Audited, chunk: Chunk, findings: list[Finding]) -> str:
    """``hhaudit explain --html``: one self-contained page (inline CSS, no links out)."""
    view = hand_view(Kept(1, a, chunk, findings), None, standalone=True)
    return render("hand.html.j2", view=view)


__all__ = ["Collector", "FilterNote", "explain_page", "hand_view", "write_report"]
