"""View models of the HTML report and the code that fills them.  Templates only loop over these."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import weakref
from collections import Counter
from collections.abc import Callable
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
    open_atomic,
    publish,
    render,
    reports_dir,
    safe_dir,
    sha256_of,
    staging_dir,
    stream,
    write,
)
from auditor.report.replayer import ReplayView, replay_view
from auditor.rules.common import money
from auditor.spillsort import RowSpill

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
    href: str | None  # None: the current page (or a gap)
    gap: bool = False  # pages left out between two links ("…")
    rel: str = ""  # "prev" or "next": the links to the neighbouring pages


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


#: Findings held in memory by the collector before a sorted run of them is written to disk.
RUN_ROWS = 5_000
#: More findings than this: the search index is loaded in parts of this many, when first used.
SEARCH_PART = 20_000
#: More list pages than this get a pager of the first, the last and the pages near the current one.
PAGER_ALL = 15
#: Pages either side of the current one in such a pager.
PAGER_NEAR = 3

#: A finding as the collector keeps it on disk: the report's order (path, line, code, then the
#: order it came in), its hand page number (None: no page), the players of that hand, the finding.
Row = tuple[str, int, str, int, int | None, tuple[str, ...], Finding]


def _row_key(r: Row) -> tuple[str, int, str, int]:
    return r[0], r[1], r[2], r[3]


@dataclass
class Tally:
    """What the index's counts need, kept while auditing: by code, severity, site and file."""

    total: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    by_severity: Counter[str] = field(default_factory=Counter)
    by_site: Counter[str] = field(default_factory=Counter)  # "(no site)" for None
    by_path: Counter[str] = field(default_factory=Counter)
    worst: dict[str, str] = field(default_factory=dict)  # path -> its worst severity
    file_level: set[str] = field(default_factory=set)  # paths with a P finding outside any hand
    sites: set[str] = field(default_factory=set)  # the sites named (a list page each)
    across: int = 0

    def add(self, f: Finding) -> None:
        sev = str(f.severity)
        self.total += 1
        self.by_code[f.code] += 1
        self.by_severity[sev] += 1
        self.by_site[f.site or "(no site)"] += 1
        self.by_path[f.path] += 1
        if _SEV_ORDER.get(sev, 0) > _SEV_ORDER.get(self.worst.get(f.path, ""), 0) or f.path not in self.worst:
            self.worst[f.path] = sev
        if f.hand_id is None and f.code.startswith("P"):
            self.file_level.add(f.path)
        if f.code.startswith("T"):
            self.across += 1
        if f.site:
            self.sites.add(f.site)


class Collector:
    """Writes each hand with findings to its page as soon as the audit step has judged it (from the
    step's result: no second replay), and keeps the findings for the index on disk (issue 16): in
    sorted runs of :data:`RUN_ROWS` (:class:`auditor.spillsort.RowSpill`, in a hidden folder of the
    staging folder), with only their counts in memory.  Hands without findings get no page.  Memory
    stays bounded by one hand and one run however large the input; the findings outside any hand
    page (file-level P findings, T findings) are kept in memory, as the cross-hand pages need them."""

    def __init__(self, out_dir: str, inputs: list[str] | None = None, run_rows: int | None = None) -> None:
        self.target = Path(out_dir)
        #: pages are written into a new sibling folder, swapped in whole by write_report
        self.out = staging_dir(self.target)
        self._cleanup = weakref.finalize(self, shutil.rmtree, str(self.out), True)
        self.hands_dir = safe_dir(self.out / "hands")
        self.base = common_base(inputs or [])
        self.pages = 0  # hand pages written (numbered from 1)
        self.spill = RowSpill(self.out / SPILL_DIR, _row_key, run_rows or RUN_ROWS)
        self.tally = Tally()
        self.loose: list[Finding] = []  # findings outside any hand (file-level P-findings, T-findings)
        self._last: list[Finding] = []  # the last hand page's findings (passed again for a hand that failed)

    def on_hand(self, r: Result) -> None:
        if not r.findings:
            return
        players = tuple(s.player for s in r.audited.hand.seats) if r.audited is not None else ()
        self.pages += 1
        number = self.pages
        self._last = list(r.findings)
        for f in self._last:
            self.spill.add((f.path, f.line or 0, f.code, self.spill.rows, number, players, f))
            self.tally.add(f)
        page = hand_view(Kept(number, r.audited, r.chunk, self._last), "../", base=self.base)
        write(self.hands_dir / f"{number}.html", render("hand.html.j2", view=page))

    def on_loose(self, f: Finding) -> None:
        if not any(f is g for g in self._last):
            self.loose.append(f)
            self.tally.add(f)

    def new_page(self) -> int:
        """The number of a new hand page (a hand that only a cross-hand finding names)."""
        self.pages += 1
        return self.pages

    def pages_of(self, keys: set[tuple[str, str]]) -> dict[tuple[str, str], tuple[int, list[Finding], tuple[str, ...]]]:
        """The hand pages already written for ``keys`` (path, hand id): the first page whose findings
        name the key, with that page's findings (in the order the audit gave them) and players.
        Two reads of the findings on disk: memory is bounded by the pages asked for."""
        first: dict[tuple[str, str], int] = {}
        for path, _line, _code, _seq, number, _players, f in self.spill.scan():
            key = (path, f.hand_id or "")
            if number is not None and key in keys and number < first.get(key, number + 1):
                first[key] = number
        wanted = set(first.values())
        found: dict[int, list[tuple[int, Finding]]] = {}
        players_of: dict[int, tuple[str, ...]] = {}
        for _path, _line, _code, seq, number, players, f in self.spill.scan():
            if number in wanted:
                found.setdefault(number, []).append((seq, f))
                players_of[number] = players
        return {k: (n, [f for _s, f in sorted(found[n], key=lambda x: x[0])], players_of[n]) for k, n in first.items()}

    def publish(self) -> Path:
        """Swap the finished report in for the output folder (see :func:`auditor.report.publish`)."""
        self.spill.close()
        shutil.rmtree(self.out / SPILL_DIR, ignore_errors=True)
        publish(self.out, self.target)
        self._cleanup.detach()
        self.out = self.target
        return self.target

    def close(self) -> None:
        """Remove the staging folder if the report was never published (an error stopped the run)."""
        self._cleanup()


#: The collector's folder for its findings on disk, inside the staging folder (removed before publishing).
SPILL_DIR = ".findings.tmp"


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


_SEARCH_FIELDS = ["hand", "players", "file", "code", "severity", "line", "message", "href"]


def _search_row(f: Finding, n: int | None, players: tuple[str, ...], base: str) -> list[str]:
    """The search box's entry of a finding (hand id, players, file, code, where to go)."""
    href = f"hands/{n}.html" + (f"#L{f.line}" if f.line is not None else "") if n is not None else ""
    who = " ".join(players) if n is not None else ""
    line = "" if f.line is None else str(f.line)
    return [f.hand_id or "", who, relative(f.path, base), f.code, str(f.severity), line, f.message[:200], href]


class _SearchIndex:
    """``search-index.js`` written as the findings go by, one entry each, never held whole.

    Up to :data:`SEARCH_PART` findings it is the same bytes as one ``json.dumps`` of ``{"fields":
    [...], "rows": [...]}`` (ASCII), loaded with the index page.  Past that (a run of millions of
    hands) ``rows`` is empty and ``parts`` names the files ``search-index-<n>.js`` that hold the
    entries, :data:`SEARCH_PART` each (``window.hhauditSearchPart([...]);``): the index page opens
    at once, and ``report.js`` loads the parts the first time something is searched."""

    def __init__(self, out: Path, total: int, stack: contextlib.ExitStack) -> None:
        self.out, self.stack = out, stack
        self.parts = -(-total // SEARCH_PART) if total > SEARCH_PART else 0
        self.f = stack.enter_context(open_atomic(out / "search-index.js"))
        head = f'window.hhauditSearch = {{"fields": {json.dumps(_SEARCH_FIELDS)}, "rows": ['
        if self.parts:
            names = json.dumps([f"search-index-{i}.js" for i in range(1, self.parts + 1)])
            self.f.write(f'{head}], "parts": {names}}};\n'.encode("ascii"))
        else:
            self.f.write(head.encode("ascii"))
        self.rows = 0
        self.part: contextlib.ExitStack | None = None

    def add(self, row: list[str]) -> None:
        data = json.dumps(row, ensure_ascii=True)
        if self.parts and self.rows % SEARCH_PART == 0:  # a new part file
            if self.part is not None:
                self.f.write(b"]);\n")
                self.part.close()
            self.part = self.stack.enter_context(contextlib.ExitStack())
            self.f = self.part.enter_context(open_atomic(self.out / f"search-index-{self.rows // SEARCH_PART + 1}.js"))
            self.f.write(b"window.hhauditSearchPart([")
            first = True
        else:
            first = self.rows == 0
        self.f.write((data if first else ", " + data).encode("ascii"))
        self.rows += 1

    def close(self) -> None:
        if not self.parts:
            self.f.write(b"]};\n")
        elif self.part is not None:
            self.f.write(b"]);\n")
            self.part.close()


def pager(prefix: str, pages: int, i: int) -> list[PagerLink]:
    """The links to the ``pages`` pages of a list from its page ``i`` (from 0): every page up to
    :data:`PAGER_ALL` pages; past that the first, the last, :data:`PAGER_NEAR` either side of the
    current one, gaps between, and the previous and next pages (a list of 200,000 findings has
    2,000 pages: linking each from each would write 4 million links)."""

    def name(j: int) -> str:
        return "index.html" if prefix == "findings" and j == 0 else f"{prefix}-{j + 1}.html"

    if pages <= PAGER_ALL:
        return [PagerLink(str(j + 1), None if j == i else name(j)) for j in range(pages)]
    near = set(range(max(0, i - PAGER_NEAR), min(pages, i + PAGER_NEAR + 1)))
    links: list[PagerLink] = []
    if i > 0:
        links.append(PagerLink("‹ previous", name(i - 1), rel="prev"))
    last = -1
    for j in sorted({0, pages - 1} | near):
        if j > last + 1:
            links.append(PagerLink("…", None, gap=True))
        links.append(PagerLink(f"{j + 1:,}", None if j == i else name(j)))
        last = j
    if i < pages - 1:
        links.append(PagerLink("next ›", name(i + 1), rel="next"))
    return links


WritePage = Callable[["_List", list[FindingRow], list[PagerLink]], None]


class _List:
    """One list of findings (all, one code, one site, one file, across hands), written a page of
    :data:`PAGE_SIZE` rows at a time as its rows arrive in the report's order."""

    def __init__(self, prefix: str, heading: str, total: int, write_page: WritePage, key: str = "") -> None:
        self.prefix, self.heading, self.total, self.key = prefix, heading, total, key
        self.pages = max(1, -(-total // PAGE_SIZE))
        self.page = 0
        self.rows: list[FindingRow] = []
        self.write_page = write_page

    def add(self, row: FindingRow) -> None:
        self.rows.append(row)
        if len(self.rows) >= PAGE_SIZE:
            self.flush()

    def flush(self) -> None:
        self.write_page(self, self.rows, pager(self.prefix, self.pages, self.page))
        self.page += 1
        self.rows = []

    def close(self) -> None:
        if self.rows or self.page == 0:
            self.flush()


def write_report(
    out_dir: str, summary: Summary, col: Collector, profile_name: str, filters: list[FilterNote] | None = None
) -> Path:
    """Write the whole report and swap it in for ``out_dir``; returns the index path.

    ``filters`` say what the command hid (selectors, baseline, per-file ignores, excluded files):
    the first screen lists them with the number of findings they hid.

    The findings come back from the collector's sorted runs on disk in the report's order (path,
    line, code), once: each goes to the search index and to the current page of each list it
    belongs to, and a page is written when it holds :data:`PAGE_SIZE` rows.  What is held is a
    page per list (the lists of one file follow each other), whatever the number of findings.
    """
    out = col.out
    base = col.base
    copy_static(out)
    # cross-hand findings (T-codes): the pages of both hands they name, linked from the tables
    from auditor.report.across import add_pages

    cross_page = add_pages(col, col.loose, profile_name)
    for f in col.loose:
        n, players = cross_page.get(id(f), (None, ()))
        col.spill.add((f.path, f.line or 0, f.code, col.spill.rows, n, players, f))
    t = col.tally
    codes = sorted(t.by_code)
    sites = sorted(t.sites)
    severities = [s for s in ("error", "warning", "info") if t.by_severity[s]]
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    sub = f"{summary.hands_seen:,} hands · {t.total:,} findings · {generated}"

    # the import log: one row per file read, with its findings and their worst severity
    file_pages: dict[str, str] = {}
    index_files: list[FileRow] = []
    for i, info in enumerate(summary.file_infos, start=1):
        count = t.by_path.get(info.path, 0)
        worst = t.worst.get(info.path, "") if count else ""
        file_level = info.path in t.file_level
        status = "unreadable" if info.hands == 0 and file_level else ("no hands" if info.hands == 0 else "read")
        href = None
        if count and info.path not in file_pages:
            file_pages[info.path] = href = f"file-{i}-1.html"
        index_files.append(FileRow(relative(info.path, base), _size(info.size), _sha256(info.source or info.path),
                                   info.encoding, info.hands, status, count, worst, href))  # fmt: skip

    index = IndexView(Page("Audit report", sub, ""), "All findings", [], [], codes, severities, sites, t.total)
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
    index.shown_findings = t.total
    index.cards = [Count("files", summary.files, None), Count("hands seen", summary.hands_seen, None),
                   Count("parsed", summary.hands_parsed, None), Count("failed", summary.hands_failed, None),
                   Count("findings", t.total, None)]  # fmt: skip
    if index.hidden:
        index.cards.append(Count("hidden by filters", index.hidden, None))
    if t.across:
        index.cards.append(Count("across hands", t.across, "across-1.html"))
    by_code = sorted(t.by_code.items())
    index.by_code = [Count(f"{c} {RULES[c].name}", n, f"code-{c}-1.html") for c, n in by_code]
    index.by_severity = [Count(s, t.by_severity[s], None) for s in severities]
    index.by_site = [Count(s, n, f"site-{s}-1.html" if s in t.sites else None) for s, n in sorted(t.by_site.items())]
    code_css = [f"bar-{RULES[c].severity}" for c, _n in by_code]
    index.charts = [
        _chart("chart-code", "Findings by code", [Count(c, n, f"code-{c}-1.html") for c, n in by_code], code_css),
        _chart("chart-severity", "Findings by severity", index.by_severity, [f"bar-{s}" for s in severities]),
        _chart("chart-site", "Findings by site", index.by_site),
    ]

    def write_page(lst: _List, rows: list[FindingRow], links: list[PagerLink]) -> None:
        if lst.prefix == "findings" and lst.page == 0:
            index.rows, index.pager = rows, links
            stream(out / "index.html", "index.html.j2", view=index)
            return
        view = ListView(Page(lst.heading, sub, ""), lst.heading, rows, links, codes, severities, sites, lst.total)
        stream(out / f"{lst.prefix}-{lst.page + 1}.html", "list.html.j2", view=view)

    everything = _List("findings", "All findings", t.total, write_page)
    by_code_list = {c: _List(f"code-{c}", f"{c} {RULES[c].name}", n, write_page) for c, n in by_code}
    across = _List("across", "Findings across hands (T-codes)", t.across, write_page)
    by_site = {s: _List(f"site-{s}", f"Findings at {s}", t.by_site[s], write_page) for s in sites}
    of_file: _List | None = None
    with contextlib.ExitStack() as files:
        search = _SearchIndex(out, t.total, files)
        for path, _line, code, _seq, n, players, f in col.spill.sorted():
            search.add(_search_row(f, n, players, base))
            row = _row(f, "", n, base)
            everything.add(row)
            by_code_list[code].add(row)
            if code.startswith("T"):
                across.add(row)
            if f.site:
                by_site[f.site].add(row)
            if of_file is None or of_file.key != path:
                if of_file is not None:
                    of_file.close()
                of_file = None
                if path in file_pages:
                    prefix = file_pages[path].removesuffix("-1.html")
                    of_file = _List(prefix, f"Findings in {relative(path, base)}", t.by_path[path], write_page, path)
            if of_file is not None:
                of_file.add(row)
        search.close()
    for lst in [everything, *by_code_list.values(), *by_site.values(), *([across] if t.across else [])]:
        lst.close()
    if of_file is not None:
        of_file.close()
    safe_dir(out / "hands")
    from auditor.report.rulepages import write_rule_pages

    write_rule_pages(safe_dir(out / "rules"))  # in a child: the examples' audit needs polars and pokerkit
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
