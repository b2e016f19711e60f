"""``hhaudit serve --store DIR``: the queries behind the store pages, lazily with polars.

Every query scans the store's Parquet parts (``pl.scan_parquet`` over the ``hands`` or ``findings``
parts, with hive partitioning on ``night``) and filters before collecting, so polars pushes the
predicates into the scan and reads only the columns a page shows.  The committed view of the store
(:func:`auditor.batch.store.scan`: only parts a manifest row commits) is kept by a semi-join on the
manifest, which is read once and cached until a manifest file changes.

Files are never opened by a name from a request: a hand is addressed by its file key and hand
number, the file key is looked up in the manifest, and only the path the manifest recorded is read —
after checking that its SHA-256 is still the one audited.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import polars as pl

from auditor.batch import store as S
from auditor.batch.report import Matrix, MatrixRow, matrix
from auditor.findings import Severity, catalogue

PAGE = 100
TREND_NIGHTS = 14  # the nights the overview's matrices show (the newest), as the store report
KEY_RE = re.compile(r"^[A-Za-z0-9_-]{1,200}$")
CODE_RE = re.compile(r"^[A-Za-z]\d{3}$")
_FINDING_COLS = ["night", "file_key", "hand_no", "site", "hand_id", "player", "code", "name", "severity", "path",
                 "line", "message"]  # fmt: skip
_HAND_COLS = ["night", "file_key", "hand_no", "site", "hand_id", "path", "first_line", "players", "findings", "worst"]


class StoreError(ValueError):
    """A folder that is not an audit store."""


@dataclass(frozen=True)
class Filters:
    """The findings list's filters (each one optional)."""

    night: str = ""
    code: str = ""
    site: str = ""
    player: str = ""
    severity: str = ""
    table: str = ""

    def active(self) -> dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if v}


@dataclass
class Overview:
    files: int = 0
    files_error: int = 0
    hands: int = 0
    findings: int = 0
    nights: list[dict[str, Any]] = field(default_factory=list)
    codes: list[dict[str, Any]] = field(default_factory=list)
    sites: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    timelines: list[Any] = field(default_factory=list)  # auditor.batch.report.TimelineRow
    trend_note: str = ""  # which nights the matrices below cover
    by_code: Matrix | None = None  # findings per code and night (the store report's matrix)
    by_site: Matrix | None = None  # findings per site and night
    tables: Matrix | None = None  # the tables most flagged, night by night (a timeline per table)


@dataclass
class HandRecord:
    """One hand of the store: its row (or None for a hand that failed to parse), file and findings."""

    file_key: str
    hand_no: int
    night: str
    path: str  # the path the manifest recorded (the only one ever opened)
    shown_path: str
    sha256: str
    profile: str
    hand: dict[str, Any] | None
    findings: list[dict[str, Any]]

    def hand_id_text(self) -> str:
        if self.hand is not None:
            return str(self.hand["hand_id"])
        return next((str(f["hand_id"]) for f in self.findings if f.get("hand_id")), f"number {self.hand_no + 1}")


class Store:
    """Read-only queries over one audit store."""

    def __init__(self, root: str) -> None:
        root = os.path.abspath(root)
        if not os.path.isdir(os.path.join(root, "files")):
            raise StoreError(f"{root} is not an audit store (no files/ folder): create one with `hhaudit batch "
                             f"SOURCE --store {root}`")  # fmt: skip
        self.root = root
        self._lock = threading.Lock()
        self._stamp: tuple[tuple[str, float], ...] | None = None
        self._manifest: pl.DataFrame | None = None

    # ------------------------------------------------------------------ the manifest, cached

    def manifest(self) -> pl.DataFrame:
        """The newest manifest row of every file (cached until a manifest file is added or replaced)."""
        paths = S.manifest_files(self.root)
        stamp = tuple((p, os.stat(p).st_mtime) for p in paths if os.path.exists(p))
        with self._lock:
            if self._manifest is None or stamp != self._stamp:
                self._manifest = S.load_manifest(self.root)
                self._stamp = stamp
            return self._manifest

    def _live(self) -> pl.LazyFrame:
        m = self.manifest().filter(pl.col("status") == "ok")
        return m.select(S.NIGHT, "file_key", "audit_id").lazy()

    def _scan(self, table: str) -> pl.LazyFrame:
        raw = S.scan_raw(self.root, table)
        return raw.join(self._live(), on=[S.NIGHT, "file_key", "audit_id"], how="semi")

    def _parts(self, table: str, keys: list[str], enough: int | None = None) -> pl.LazyFrame:
        """The committed rows of ``table`` (hands or findings) of the files ``keys`` alone, read from
        the parts their manifest rows name: a search by file or code, and a hand's page, read a few
        files, not every hand of the store.  With ``enough``, the files are taken in the order search
        shows them (newest night first, then path) until they hold ``enough`` hands."""
        col = "hand_parts" if table == "hands" else "finding_parts"
        m = self.manifest().filter((pl.col("status") == "ok") & pl.col("file_key").is_in(keys))
        if enough is not None:
            m = m.sort([S.NIGHT, "path"], descending=[True, False])
        paths: list[str] = []
        held = 0
        for night, key, aid, n, count in m.select(S.NIGHT, "file_key", "audit_id", col, "hands_parsed").iter_rows():
            if enough is not None and held >= enough:
                break
            night_text = night.isoformat() if isinstance(night, date) else str(night)
            paths += [S.part_path(self.root, table, night_text, key, aid, i) for i in range(n or 0)]
            held += count or 0
        paths = [p for p in paths if os.path.isfile(p)]  # a part removed under us: its rows are gone
        if not paths:
            return pl.DataFrame(schema={**S.SCHEMAS[table], S.NIGHT: pl.Date()}).lazy()
        return pl.scan_parquet(paths, hive_partitioning=True, hive_schema={S.NIGHT: pl.Date()},
                               schema=S.SCHEMAS[table], missing_columns="insert")  # fmt: skip

    # ------------------------------------------------------------------ pages

    def overview(self, top: int = 20) -> Overview:
        """Totals, findings per night, the night-by-night matrices, by code, site and player.

        Two scans in all, run together: hands per night, and the findings counted by night, code,
        site, table, player and severity (a frame as small as the distinct combinations); every
        section is computed from those two small frames."""
        m = self.manifest()
        o = Overview(files=m.height, files_error=m.filter(pl.col("status") == "error").height)
        keys = [S.NIGHT, "code", "name", "severity", "site", "table", "player"]
        hands, g = pl.collect_all([
            self._scan("hands").group_by(S.NIGHT).agg(pl.len().alias("hands")),
            self._scan("findings").group_by(keys).agg(pl.len().alias("n")),
        ])  # fmt: skip
        by_night = g.group_by(S.NIGHT).agg(
            pl.col("n").sum().alias("findings"),
            pl.col("n").filter(pl.col("severity") == "error").sum().alias("errors"),
        )
        nights = hands.join(by_night, on=S.NIGHT, how="full", coalesce=True).fill_null(0).sort(S.NIGHT, descending=True)
        for night, n_hands, n_found, errors in nights.select(S.NIGHT, "hands", "findings", "errors").iter_rows():
            per = f"{1000 * n_found / n_hands:.1f}" if n_hands else "–"
            o.nights.append({"night": str(night), "hands": n_hands, "findings": n_found, "errors": errors,
                             "per_1000": per})  # fmt: skip
        o.hands = int(hands["hands"].sum()) if hands.height else 0
        o.findings = sum(int(r["findings"]) for r in o.nights)
        o.codes = g.group_by("code", "name", "severity").agg(pl.col("n").sum()).sort("code").to_dicts()
        sites = g.group_by("site").agg(pl.col("n").sum()).sort(["n", "site"], descending=[True, False])
        o.sites = [r for r in sites.to_dicts() if r["site"]]
        o.players = (
            g.filter(pl.col("player").is_not_null())
            .group_by("site", "player")
            .agg(pl.col("n").sum())
            .sort(["n", "player"], descending=[True, False])
            .head(top)
            .to_dicts()
        )
        self._trends(o, g, top)
        from auditor.batch.report import _timelines

        o.timelines = _timelines(self.root, top)
        return o

    @staticmethod
    def _trends(o: Overview, g: pl.DataFrame, top: int) -> None:
        """The store report's night-by-night matrices, for the newest :data:`TREND_NIGHTS` nights:
        findings per code, per site, and the ``top`` tables most flagged (each row a table's
        timeline); every row links to the findings it counts.  ``g``: findings counted (``n``) by
        night, code, site, table, ..."""
        nights = sorted(date.fromisoformat(n["night"]) for n in o.nights)
        shown = nights[-TREND_NIGHTS:]
        if not shown:
            return
        o.trend_note = (f"the last {len(shown)} of {len(nights)} nights" if len(nights) > len(shown)
                        else f"every night ({len(shown)})")  # fmt: skip
        g = g.filter(pl.col(S.NIGHT).is_in(shown))
        by_code = g.group_by("code", S.NIGHT).agg(pl.col("n").sum())
        by_site = g.group_by("site", S.NIGHT).agg(pl.col("n").sum())
        by_table = (
            g.filter(pl.col("table").is_not_null())
            .with_columns(key=pl.concat_str(pl.col("site").fill_null(""), pl.lit("\x1f"), pl.col("table")))
            .group_by("key", S.NIGHT)
            .agg(pl.col("n").sum())
        )
        notes = {c: f"{r.name} ({r.severity})" for c, r in catalogue().items()}
        m = matrix(by_code, "code", shown, "code", notes)
        o.by_code = _linked(m, lambda r: f"/store/findings?code={_quote(r.label)}")
        m = matrix(by_site, "site", shown, "site", {})
        o.by_site = _linked(m, lambda r: "" if r.label == "(no site)" else f"/store/findings?site={_quote(r.label)}")
        m = matrix(by_table, "key", shown, "table", {})
        rows = []
        for r in m.rows[:top]:
            site, _, table = r.label.partition("\x1f")
            href = f"/store/findings?site={_quote(site)}&table={_quote(table)}" if site else ""
            rows.append(MatrixRow(table, site, r.cells, r.total, href or f"/store/findings?table={_quote(table)}"))
        o.tables = Matrix(m.corner, m.columns, rows, m.span)

    def findings(self, flt: Filters, page: int = 1) -> tuple[list[dict[str, Any]], int]:
        """One page of findings matching ``flt`` (newest night first) and how many match in all."""
        lf = self._scan("findings")
        if flt.night:
            lf = lf.filter(pl.col(S.NIGHT) == _night(flt.night))
        for col in ("code", "site", "player", "severity", "table"):
            v = getattr(flt, col)
            if v:
                lf = lf.filter(pl.col(col) == (v.upper() if col == "code" else v))
        lf = lf.select(_FINDING_COLS)
        total = int(lf.select(pl.len()).collect().item())
        rows = (
            lf.sort([S.NIGHT, "path", "line"], descending=[True, False, False], nulls_last=True)
            .slice((max(page, 1) - 1) * PAGE, PAGE)
            .collect()
        )
        return [_plain(r) for r in rows.to_dicts()], total

    def search(self, q: str, limit: int = PAGE) -> tuple[list[dict[str, Any]], str]:
        """Hands whose id is ``q``, where ``q`` played, whose file path contains ``q``, or with a finding
        of code ``q``; returns the rows (at most ``limit``) and what matched.

        A hand id is looked up first, alone: it is the common case and the cheapest query (the id
        column's Parquet statistics let polars skip row groups); when it matches, that is the answer.
        """
        q = q.strip()
        if not q:
            return [], ""
        hands = self._scan("hands")
        want = q.lstrip("#")
        if want and " " not in want:
            df = hands.filter(pl.col("hand_id") == want).select(_HAND_COLS).head(limit).collect()
            if df.height:
                return self._rows([df], limit), "hand id"
        parts: list[tuple[str, pl.LazyFrame]] = []
        if not CODE_RE.match(q):  # a rule code is not looked up as a player's name (a full scan of every hand)
            parts.append(("player", hands.filter(pl.col("players").list.contains(pl.lit(q)))))
        m = self.manifest()
        keys = m.filter(pl.col("path").str.contains(q, literal=True))["file_key"].to_list() if len(q) >= 3 else []
        if keys:
            parts.append(("file", self._parts("hands", keys, enough=limit)))
        if CODE_RE.match(q):
            coded = (
                self._scan("findings")
                .filter((pl.col("code") == q.upper()) & pl.col("hand_no").is_not_null())
                .select("file_key", "hand_no")
                .unique()
                .head(limit)
                .collect()
            )
            if coded.height:
                narrowed = self._parts("hands", coded["file_key"].unique().to_list()).filter(
                    pl.col("hand_no").is_in(coded["hand_no"].unique().to_list())
                )
                parts.append(("code", narrowed.join(coded.lazy(), on=["file_key", "hand_no"], how="semi")))
        frames = pl.collect_all([p.select(_HAND_COLS).head(limit) for _, p in parts]) if parts else []
        what = [label for (label, _), df in zip(parts, frames, strict=True) if df.height]
        return self._rows(frames, limit), ", ".join(what)

    @staticmethod
    def _rows(frames: list[pl.DataFrame], limit: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        seen: set[tuple[str, int]] = set()
        for df in frames:
            for r in df.sort([S.NIGHT, "path", "first_line"], descending=[True, False, False]).to_dicts():
                k = (r["file_key"], r["hand_no"])
                if k not in seen and len(out) < limit:
                    seen.add(k)
                    out.append(_plain(r))
        return out

    def hand(self, file_key: str, hand_no: int) -> HandRecord | None:
        """The hand ``hand_no`` of the file ``file_key``, or None when the store holds no such hand."""
        if not KEY_RE.match(file_key) or hand_no < 0:
            return None
        m = self.manifest().filter((pl.col("file_key") == file_key) & (pl.col("status") == "ok"))
        if m.height == 0:
            return None
        row = m.row(0, named=True)
        hands = self._parts("hands", [file_key]).filter(pl.col("hand_no") == hand_no)
        h = hands.collect()
        found = (
            self._parts("findings", [file_key])
            .filter(pl.col("hand_no") == hand_no)
            .select(_FINDING_COLS)
            .sort("line", nulls_last=True)
            .collect()
        )
        if h.height == 0 and found.height == 0:
            return None
        hand = _plain(h.row(0, named=True)) if h.height else None
        shown = (hand or {}).get("path") or (found["path"][0] if found.height else row["path"])
        return HandRecord(file_key, hand_no, str(row[S.NIGHT]), row["path"], shown, row["sha256"] or "",
                          row["profile"] or "site", hand, [_plain(r) for r in found.to_dicts()])  # fmt: skip

    def options(self) -> dict[str, list[str]]:
        """The values the findings filters offer (nights, codes, sites, severities)."""
        f = self._scan("findings")
        nights = f.select(pl.col(S.NIGHT).unique().sort(descending=True)).collect()[S.NIGHT].to_list()
        codes = f.select(pl.col("code").unique().sort()).collect()["code"].to_list()
        sites = f.select(pl.col("site").drop_nulls().unique().sort()).collect()["site"].to_list()
        return {
            "nights": [str(n) for n in nights],
            "codes": codes,
            "sites": sites,
            "severities": [str(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)],
        }


def _quote(v: str) -> str:
    from urllib.parse import quote

    return quote(v, safe="")


def _linked(m: Matrix, href: Callable[[MatrixRow], str]) -> Matrix:
    rows = [MatrixRow(r.label, r.note, r.cells, r.total, href(r)) for r in m.rows]
    return Matrix(m.corner, m.columns, rows, m.span)


def _night(v: str) -> date:
    try:
        return date.fromisoformat(v)
    except ValueError:
        return date(1, 1, 1)  # matches nothing


def _plain(r: dict[str, Any]) -> dict[str, Any]:
    """A row with dates as text and the data column decoded (for templates)."""
    out = dict(r)
    if isinstance(out.get(S.NIGHT), date):
        out[S.NIGHT] = out[S.NIGHT].isoformat()
    if isinstance(out.get("data"), str):
        with contextlib.suppress(ValueError):
            out["data"] = json.loads(out["data"])
    return out
