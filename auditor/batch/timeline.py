"""One table's timeline from the audit store: its hands in order, with each seat's stack, and the
cross-hand findings (T-codes) marked on the hands they name.

The store report (``hhaudit report --store DIR --html OUT``) writes one page per table it lists
under "Table timelines" (``OUT/tables/<key>.html``); ``hhaudit serve --store DIR`` shows the same
view at ``/store/table?site=..&table=..&tournament=..``.  Both render ``_timeline.html.j2``.

A table is the cross-hand stage's table (:mod:`auditor.continuity`): site, table name and
tournament id.  Its hands are read from the store's ``hands`` table in the stage's order (start
time in UTC, then the printed time of a site that prints no zone, then the hand number) with their
seats (the ``seats`` table of a layout-2 store, or the nested ``seats`` of an older one), and the
T-codes from the ``crosshand`` table, matched to a hand by its file key and hand number.  A seat whose
starting stack differs from what the player ended the table's previous hand with is marked, as is
the player a finding names.  At most :data:`LIMIT` hands are shown (the first ones, said so).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import polars as pl

from auditor import continuity as C
from auditor.batch import store as S

#: The most hands one timeline page shows.
LIMIT = 500


@dataclass(frozen=True)
class SeatCell:
    """One seat of a hand: who, the stack printed at the start and the final stack the replay derived."""

    seat: int
    player: str
    stack: str
    final: str
    changed: bool  # the starting stack differs from the player's final stack of the hand before
    named: bool  # a cross-hand finding of this hand names the player


@dataclass(frozen=True)
class Mark:
    """A cross-hand finding on a hand."""

    code: str
    severity: str
    message: str
    href: str  # the rule's page (serve), or ""


@dataclass(frozen=True)
class TimelineHand:
    n: int
    night: str
    time: str
    hand_id: str
    where: str  # file name and line
    href: str  # the hand's page (serve), or ""
    blinds: str
    button: str
    seats: list[SeatCell]
    marks: list[Mark]
    gap: bool  # the chain broke before this hand (T001)
    own: str  # the hand's own findings (per-hand audit), e.g. "2 (worst: error)"


@dataclass
class TableTimeline:
    site: str
    table: str
    tournament_id: str | None
    hands: list[TimelineHand] = field(default_factory=list)
    total: int = 0
    codes: str = ""  # the T-codes found on the table, with counts
    gaps: int = 0

    @property
    def title(self) -> str:
        return self.table + (f" (tournament {self.tournament_id})" if self.tournament_id else "")


def table_key(site: str, table: str, tournament_id: str | None) -> str:
    """A short, file-name-safe key of a table (the store report's page name)."""
    text = "\x1f".join((site, table, tournament_id or ""))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _money(v: int | None, decimals: int | None) -> str:
    if v is None:
        return "?"
    d = decimals or 0
    return f"{v / 10**d:,.{d}f}" if d else f"{v:,}"


def _when(utc: datetime | None, local: datetime | None) -> str:
    if utc is not None:
        return utc.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    if local is not None:
        return local.strftime("%Y-%m-%d %H:%M:%S") + " (as printed)"
    return "-"


def _seats(store: str, hands: pl.DataFrame) -> dict[tuple[Any, str, int], list[dict[str, Any]]]:
    """The seats of ``hands`` by (night, file key, hand number): from the ``seats`` table for a
    layout-2 hand, from the nested ``seats`` of an older store's hand."""
    out: dict[tuple[Any, str, int], list[dict[str, Any]]] = {}
    flat = hands.filter(pl.col(C.N_SEATS).is_not_null())
    if flat.height:
        keys = flat.select(S.NIGHT, "file_key", "hand_no")
        rows = S.scan(store, "seats").join(keys.lazy(), on=[S.NIGHT, "file_key", "hand_no"], how="semi").collect()
        for r in rows.iter_rows(named=True):
            out.setdefault((r[S.NIGHT], r["file_key"], r["hand_no"]), []).append(r)
    if "seats" in hands.columns:
        for r in hands.filter(pl.col(C.N_SEATS).is_null() & pl.col("seats").is_not_null()).iter_rows(named=True):
            out[(r[S.NIGHT], r["file_key"], r["hand_no"])] = list(r["seats"])
    return out


def table_timeline(
    store: str, site: str, table: str, tournament_id: str | None, limit: int = LIMIT, serve: bool = False
) -> TableTimeline | None:
    """The timeline of one table of ``store`` (None when the store holds no hand of it).
    ``serve``: link each hand to serve's page of it (``/store/hand/<file key>/<hand no>``) and each
    finding to its rule's page."""
    cond = (pl.col("site") == site) & (pl.col("table") == table)
    cond &= pl.col("tournament_id").is_null() if tournament_id is None else pl.col("tournament_id") == tournament_id
    cols = ["site", "hand_id", "path", "first_line", "start_utc", "local_start", "small_blind", "big_blind", "ante",
            "button", "decimals", "findings", "worst", "file_key", "hand_no", S.NIGHT, C.N_SEATS, "seats"]  # fmt: skip
    id_no = pl.col("hand_id").str.extract(r"(\d{1,18})\D*$").cast(pl.Int64, strict=False)
    hands = (
        S.scan(store, "hands").filter(cond).select(cols)
        .with_columns(_no=id_no)
        .sort(["start_utc", "local_start", "_no", "path", "first_line"], nulls_last=True)
        .unique(subset=["hand_id", "path", "first_line"], keep="first", maintain_order=True)
        .collect()
    )  # fmt: skip
    if hands.is_empty():
        return None
    tl = TableTimeline(site, table, tournament_id, total=hands.height)
    cross = S.scan(store, "crosshand").filter(
        (pl.col("site") == site) & (pl.col("table") == table) & pl.col("code").str.starts_with("T")
    ).collect()  # fmt: skip
    if tournament_id is not None and cross.height:
        tid = pl.col("data").str.json_path_match("$.tournament_id")
        cross = cross.filter(tid.is_null() | (tid == tournament_id))
    marks: dict[tuple[str, int], list[dict[str, Any]]] = {}
    counts: dict[str, int] = {}
    for r in cross.sort("code").iter_rows(named=True):
        marks.setdefault((r["file_key"], r["hand_no"]), []).append(r)
        counts[r["code"]] = counts.get(r["code"], 0) + 1
    tl.gaps = counts.pop("T001", 0)
    tl.codes = ", ".join(f"{c} {n}" for c, n in sorted(counts.items()))
    shown = hands.head(limit)
    seats = _seats(store, shown)
    last_final: dict[str, int | None] = {}
    for i, h in enumerate(shown.iter_rows(named=True), start=1):
        found = marks.get((h["file_key"], h["hand_no"]), [])
        named = set()
        for f in found:
            data = json.loads(f["data"] or "{}")
            if data.get("player"):
                named.add(data["player"])
        dec = h["decimals"]
        cells = []
        mine = sorted(seats.get((h[S.NIGHT], h["file_key"], h["hand_no"]), []), key=lambda s: s["seat"] or 0)
        for s in mine:
            who = s["player"] or "?"
            before = last_final.get(who)
            changed = before is not None and s["stack"] is not None and s["stack"] != before
            cells.append(SeatCell(s["seat"] or 0, who, _money(s["stack"], dec), _money(s["final"], dec), changed,
                                  who in named))  # fmt: skip
        last_final = {s["player"] or "?": s["final"] for s in mine}
        blinds = f"{_money(h['small_blind'], dec)}/{_money(h['big_blind'], dec)}"
        if h["ante"]:
            blinds += f" ante {_money(h['ante'], dec)}"
        own = ""
        if h["findings"]:
            own = f"{h['findings']} ({h['worst']})" if h["worst"] else str(h["findings"])
        where = f"{h['path'].replace(chr(92), '/').rsplit('/', 1)[-1]}:{h['first_line']}"
        tl.hands.append(TimelineHand(
            n=i, night=str(h[S.NIGHT]), time=_when(h["start_utc"], h["local_start"]), hand_id=h["hand_id"],
            where=where, href=f"/store/hand/{h['file_key']}/{h['hand_no']}" if serve else "",
            blinds=blinds, button=str(h["button"]) if h["button"] is not None else "-", seats=cells,
            marks=[Mark(f["code"], f["severity"] or "", f["message"] or "", f"/rules/{f['code']}.html" if serve else "")
                   for f in found],
            gap=any(f["code"] == "T001" for f in found), own=own,
        ))  # fmt: skip
    return tl
