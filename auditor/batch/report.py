"""``hhaudit report --store DIR --html OUT``: the audit store's trends over nights, as one HTML page.

Every figure is computed here with polars on the store's consistent views
(:func:`auditor.batch.store.scan`) and formatted into plain view-model dataclasses; the template
``reports/templates/store.html.j2`` only loops over them (no arithmetic, no formatting).  Jinja2
runs with autoescaping on and undefined names as errors: player and table names are
attacker-controlled text.

Sections: overview cards; findings per night (with files, hands, severities and a rate per
1,000 hands); findings per site and night; findings per code and night; the tables and the
players most flagged; hand ids seen in more than one file (the per-file duplicate check cannot see
those); files that could not be audited; the latest runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import polars as pl

from auditor import __version__, report
from auditor.batch import store as S
from auditor.findings import catalogue
from auditor.report import Page

SEVERITIES = ("error", "warning", "info")


class ReportError(RuntimeError):
    """The store cannot be read (exit status 2)."""


# ---------------------------------------------------------------------------------- view models


@dataclass(frozen=True)
class Card:
    label: str
    value: str
    note: str


@dataclass(frozen=True)
class NightRow:
    night: str
    files: str
    hands: str
    findings: str
    errors: str
    warnings: str
    infos: str
    per_1000: str
    bar_pct: int  # width of the bar, 0-100: the night's findings per 1,000 hands, relative to the highest rate shown


@dataclass(frozen=True)
class MatrixRow:
    label: str
    note: str  # e.g. a rule's name and severity
    cells: list[str]
    total: str
    href: str = ""  # where the label links to (hhaudit serve: the findings it counts); none in the static report


@dataclass(frozen=True)
class Matrix:
    """A count table: one row per label, one column per night, and a total."""

    corner: str
    columns: list[str]
    rows: list[MatrixRow]
    span: int  # columns of the whole table (label, nights, total)


@dataclass(frozen=True)
class TableRow:
    site: str
    table: str
    findings: str
    hands: str
    nights: str
    codes: str


@dataclass(frozen=True)
class PlayerRow:
    player: str
    site: str
    findings: str
    hands: str
    tables: str
    codes: str


@dataclass(frozen=True)
class DuplicateRow:
    site: str
    hand_id: str
    files: str
    paths: list[str]


@dataclass(frozen=True)
class ErrorRow:
    night: str
    path: str
    error: str


@dataclass(frozen=True)
class RunRow:
    run_id: str
    night: str
    started: str
    status: str
    version: str
    profile: str
    engine: str
    files: str
    audited: str
    replaced: str
    skipped: str
    errors: str
    hands: str
    findings: str
    rate: str
    duration: str


@dataclass(frozen=True)
class TimelineRow:
    """One table's hands across the store: from, to, how many, where its chain broke, what was found."""

    site: str
    table: str
    first: str
    last: str
    hands: str
    nights: str
    gaps: str
    codes: str
    # the table as stored (``table`` above adds the tournament) and the link to its timeline page
    raw_table: str = ""
    tournament_id: str | None = None
    href: str = ""


@dataclass(frozen=True)
class StoreView:
    page: Page
    store: str
    generated: str
    nights_note: str
    cards: list[Card]
    nights: list[NightRow]
    by_site: Matrix
    by_code: Matrix
    tables: list[TableRow]
    players: list[PlayerRow]
    duplicates: list[DuplicateRow]
    error_files: list[ErrorRow]
    runs: list[RunRow]
    top: int
    timelines: list[TimelineRow] = field(default_factory=list)


# ---------------------------------------------------------------------------------- computing


def _n(x: int | float | None) -> str:
    return "-" if x is None else f"{int(x):,}"


def _night(d: date | str | None) -> str:
    if d is None:
        return "-"
    return d.isoformat() if isinstance(d, date) else str(d)


def _time(t: datetime | None) -> str:
    return "-" if t is None else t.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _codes(pairs: list[tuple[str, int]], limit: int = 4) -> str:
    pairs = sorted(pairs, key=lambda p: (-p[1], p[0]))
    text = ", ".join(f"{c} {n:,}" for c, n in pairs[:limit])
    return text + (f", +{len(pairs) - limit} more" if len(pairs) > limit else "")


def _code_lists(df: pl.DataFrame, keys: list[str]) -> dict[tuple[Any, ...], str]:
    """For each group of ``keys`` in a (keys..., code, n) frame: "B004 3, B001 1"."""
    out: dict[tuple[Any, ...], list[tuple[str, int]]] = {}
    for row in df.iter_rows(named=True):
        out.setdefault(tuple(row[k] for k in keys), []).append((row["code"], row["n"]))
    return {k: _codes(v) for k, v in out.items()}


def matrix(counts: pl.DataFrame, label: str, nights: list[date], corner: str, notes: dict[str, str]) -> Matrix:
    """Rows ``label``, columns ``nights``, from a (label, night, n) frame; rows by total, largest first."""
    cells: dict[str, dict[date, int]] = {}
    for lab, night, n in counts.select(label, S.NIGHT, "n").iter_rows():
        cells.setdefault(lab or "(no site)", {})[night] = n
    rows = []
    for lab, per in cells.items():
        total = sum(per.get(d, 0) for d in nights)
        if total:
            rows.append((total, lab, per))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return Matrix(
        corner=corner,
        columns=[_night(d) for d in nights],
        rows=[
            MatrixRow(lab, notes.get(lab, ""), [_n(per[d]) if per.get(d) else "" for d in nights], _n(total))
            for total, lab, per in rows
        ],
        span=len(nights) + 2,
    )


def build_view(store: str, nights: int = 14, top: int = 20) -> StoreView:
    """Compute every section of the report from the store at ``store``."""
    store = os.path.abspath(store)
    if not os.path.isdir(os.path.join(store, "runs")):
        raise ReportError(f"{store} is not an audit store (no runs/ table): run hhaudit batch --store first")
    files = S.scan(store, "files").collect()
    findings = S.scan(store, "findings")
    runs = S.scan(store, "runs").collect().sort("started_at", descending=True)

    all_nights = sorted(set(files[S.NIGHT].to_list()))
    shown = all_nights[-nights:] if nights > 0 else all_nights
    in_shown = pl.col(S.NIGHT).is_in(shown)

    ok = files.filter(pl.col("status") == "ok")
    per_night = ok.group_by(S.NIGHT).agg(files=pl.len(), hands=pl.col("hands_seen").sum())
    sev = findings.filter(in_shown).group_by(S.NIGHT, "severity").agg(n=pl.len()).collect()
    sev_by: dict[tuple[date, str], int] = {(d, s): n for d, s, n in sev.iter_rows()}
    facts = {d: (f, h) for d, f, h in per_night.iter_rows()}
    totals = {d: sum(sev_by.get((d, s), 0) for s in SEVERITIES) for d in shown}
    # the bar is drawn beside the per-1,000-hands column, so it shows that rate (a busy night with
    # many hands is not a bad night); a night without hands has no rate and no bar
    rates = {d: totals[d] / facts[d][1] for d in shown if d in facts and facts[d][1]}
    highest = max(rates.values(), default=0.0)
    night_rows = []
    for d in reversed(shown):
        nfiles, hands = facts.get(d, (0, 0))
        total = totals[d]
        night_rows.append(
            NightRow(
                night=_night(d),
                files=_n(nfiles),
                hands=_n(hands),
                findings=_n(total),
                errors=_n(sev_by.get((d, "error"), 0)),
                warnings=_n(sev_by.get((d, "warning"), 0)),
                infos=_n(sev_by.get((d, "info"), 0)),
                per_1000=f"{1000 * total / hands:,.1f}" if hands else "-",
                bar_pct=round(100 * rates[d] / highest) if highest and d in rates else 0,
            )
        )

    by_site = findings.filter(in_shown).group_by("site", S.NIGHT).agg(n=pl.len()).collect()
    by_code = findings.filter(in_shown).group_by("code", S.NIGHT).agg(n=pl.len()).collect()
    notes = {c: f"{r.name} ({r.severity})" for c, r in catalogue().items()}

    flagged = findings.filter(pl.col("hand_no").is_not_null())
    hand = pl.struct("file_key", "hand_no")
    t_rows = (
        flagged.filter(pl.col("table").is_not_null())
        .group_by("site", "table")
        .agg(findings=pl.len(), hands=hand.n_unique(), nights=pl.col(S.NIGHT).n_unique())
        .sort(["findings", "hands", "site", "table"], descending=[True, True, False, False])
        .head(top)
        .collect()
    )
    t_codes = _code_lists(
        flagged.join(t_rows.lazy().select("site", "table"), on=["site", "table"], how="semi")
        .group_by("site", "table", "code")
        .agg(n=pl.len())
        .collect(),
        ["site", "table"],
    )
    p_rows = (
        findings.filter(pl.col("player").is_not_null())
        .group_by("site", "player")
        .agg(findings=pl.len(), hands=hand.n_unique(), tables=pl.col("table").drop_nulls().n_unique())
        .sort(["findings", "hands", "site", "player"], descending=[True, True, False, False])
        .head(top)
        .collect()
    )
    p_codes = _code_lists(
        findings.join(p_rows.lazy().select("site", "player"), on=["site", "player"], how="semi")
        .group_by("site", "player", "code")
        .agg(n=pl.len())
        .collect(),
        ["site", "player"],
    )
    dups = (
        S.scan(store, "hands")
        .group_by("site", "hand_id")
        .agg(files=pl.col("file_key").n_unique(), paths=pl.col("path").unique().sort())
        .filter(pl.col("files") > 1)
        .sort(["files", "site", "hand_id"], descending=[True, False, False])
        .head(top)
        .collect()
    )
    errors = files.filter(pl.col("status") == "error").sort(S.NIGHT, "path", descending=[True, False])

    last = runs.row(0, named=True) if len(runs) else None
    total_findings = int(ok["findings"].sum() or 0)
    total_hands = int(ok["hands_seen"].sum() or 0)
    cards = [
        Card("nights", _n(len(all_nights)), f"{_night(all_nights[0])} to {_night(all_nights[-1])}" if shown else ""),
        Card("files", _n(len(files)), f"{len(errors):,} could not be audited"),
        Card("hands", _n(total_hands), f"{int(ok['hands_failed'].sum() or 0):,} could not be parsed"),
        Card(
            "findings",
            _n(total_findings),
            f"{1000 * total_findings / total_hands:,.1f} per 1,000 hands" if total_hands else "",
        ),
        Card(
            "last run",
            last["status"] if last else "-",
            f"night {_night(last[S.NIGHT])}, started {_time(last['started_at'])}" if last else "no run yet",
        ),
    ]
    run_rows = [
        RunRow(
            run_id=r["run_id"],
            night=_night(r[S.NIGHT]),
            started=_time(r["started_at"]),
            status=r["status"],
            version=r["hhaudit_version"] or "-",
            profile=r["profile"] or "-",
            engine=f"{r['engine']} x{r['workers']}",
            files=_n(r["files_seen"]),
            audited=_n(r["files_audited"]),
            replaced=_n(r["files_replaced"]),
            skipped=_n(r["files_skipped"]),
            errors=_n(r["files_error"]),
            hands=_n(r["hands_seen"]),
            findings=_n(r["findings"]),
            rate=_n(r["hands_per_s"]) if r["hands_per_s"] is not None else "-",
            duration=f"{r['seconds']:,.1f} s" if r["seconds"] is not None else "-",
        )
        for r in runs.head(top).iter_rows(named=True)
    ]
    return StoreView(
        page=Page("Audit store", store),
        store=store,
        generated=f"{datetime.now(UTC):%Y-%m-%d %H:%M UTC} by hhaudit {__version__}",
        nights_note=f"the last {len(shown)} of {len(all_nights)} night(s)",
        cards=cards,
        nights=night_rows,
        by_site=matrix(by_site, "site", shown, "site", {}),
        by_code=matrix(by_code, "code", shown, "code", notes),
        tables=[
            TableRow(
                r["site"] or "-",
                r["table"],
                _n(r["findings"]),
                _n(r["hands"]),
                _n(r["nights"]),
                t_codes.get((r["site"], r["table"]), ""),
            )
            for r in t_rows.iter_rows(named=True)
        ],
        players=[
            PlayerRow(
                r["player"],
                r["site"] or "-",
                _n(r["findings"]),
                _n(r["hands"]),
                _n(r["tables"]),
                p_codes.get((r["site"], r["player"]), ""),
            )
            for r in p_rows.iter_rows(named=True)
        ],
        duplicates=[
            DuplicateRow(r["site"] or "-", r["hand_id"], _n(r["files"]), list(r["paths"]))
            for r in dups.iter_rows(named=True)
        ],
        error_files=[
            ErrorRow(_night(r[S.NIGHT]), r["path"], r["error"] or "") for r in errors.head(top).iter_rows(named=True)
        ],
        runs=run_rows,
        top=top,
        timelines=_timelines(store, top),
    )


def _timelines(store: str, top: int) -> list[TimelineRow]:
    """The tables of the store with the most cross-hand findings (then the most hands): their first
    and last hand, nights, chain breaks (T001) and the other T-codes of the cross-hand pass."""
    key = ["site", "table", "tournament_id"]
    hands = (
        S.scan(store, "hands").filter(pl.col("table").is_not_null())
        .group_by(key)
        .agg(hands=pl.len(), first=pl.col("start_utc").min(), last=pl.col("start_utc").max(),
             nights=pl.col(S.NIGHT).n_unique())
        .collect()
    )  # fmt: skip
    cross = S.scan(store, "crosshand").filter(pl.col("code").str.starts_with("T")).collect()
    if not cross.is_empty():
        tid = pl.col("data").str.json_path_match("$.tournament_id")
        per = cross.with_columns(tournament_id=tid).group_by("site", "table", "code").len()
        gaps = per.filter(pl.col("code") == "T001").select("site", "table", gaps="len")
        codes = (per.filter(pl.col("code") != "T001").sort("code")
                 .group_by("site", "table").agg(codes=pl.format("{} {}", "code", "len").str.join(", "),
                                                found=pl.col("len").sum()))  # fmt: skip
        hands = hands.join(gaps, on=["site", "table"], how="left").join(codes, on=["site", "table"], how="left")
    else:
        hands = hands.with_columns(gaps=pl.lit(None, pl.UInt32), codes=pl.lit(None, pl.String),
                                   found=pl.lit(None, pl.UInt32))  # fmt: skip
    rows = hands.sort(["found", "hands", "site", "table"], descending=[True, True, False, False], nulls_last=True)
    out = []
    for r in rows.head(top).iter_rows(named=True):
        name = r["table"] + (f" (tournament {r['tournament_id']})" if r["tournament_id"] else "")
        from auditor.batch.timeline import table_key

        href = f"tables/{table_key(r['site'] or '', r['table'], r['tournament_id'])}.html"
        out.append(TimelineRow(r["site"] or "-", name, _time(r["first"]), _time(r["last"]), _n(r["hands"]),
                               _n(r["nights"]), _n(r["gaps"] or 0), r["codes"] or "", r["table"],
                               r["tournament_id"], href))  # fmt: skip
    return out


def _timeline_pages(store: str, rows: list[TimelineRow]) -> dict[str, str]:
    """The timeline page of each table the report lists (``tables/<key>.html``), by file name."""
    from auditor.batch.timeline import table_timeline

    out: dict[str, str] = {}
    for row in rows:
        tl = table_timeline(store, "" if row.site == "-" else row.site, row.raw_table, row.tournament_id)
        if tl is not None:
            page = Page(f"Table {tl.title}", store, "../")
            out[row.href.removeprefix("tables/")] = report.render("store_table.html.j2", tl=tl, page=page)
    return out


def render(view: StoreView) -> str:
    """The HTML of the report page."""
    return report.render("store.html.j2", view=view)


def write_store_report(store: str, out: str, nights: int = 14, top: int = 20) -> str:
    """Write ``OUT/index.html`` and ``OUT/static/report.css``; returns the path of index.html.

    ``nights`` and ``top`` must be positive (0 nights: every night); anything else is a
    :class:`ReportError`, as is a store that cannot be read or an output that cannot be written.
    """
    if top < 1 or nights < 0:
        raise ReportError(f"--top must be at least 1 and --nights at least 0 (got --top {top}, --nights {nights})")
    try:
        view = build_view(store, nights, top)
    except (OSError, pl.exceptions.PolarsError) as e:
        raise ReportError(f"cannot read the audit store {store}: {e}") from e
    html = render(view)
    try:
        pages = _timeline_pages(store, view.timelines)
    except (OSError, pl.exceptions.PolarsError) as e:
        raise ReportError(f"cannot read the audit store {store}: {e}") from e
    try:
        report.copy_static(report.safe_dir(Path(out)))
        if pages:
            tables = report.safe_dir(Path(out) / "tables")
            for name, text in pages.items():
                report.write(tables / name, text)
        index = os.path.join(out, "index.html")
        report.write(Path(index), html)
    except OSError as e:
        raise ReportError(f"cannot write the report to {out}: {e}") from e
    return index
