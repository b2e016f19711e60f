"""``hhaudit serve --store``: how long its queries take on a store of a million hands.

The store is either one you give (``--store DIR``, e.g. written by ``bench_batch.py --rss 1000000``
or by ``hhaudit batch``), or one this script writes in the audit store's own layout and schemas
(``auditor.batch.store``: a compacted manifest per night, one ``hands`` and one ``findings`` part per
file) from generated rows: ``--hands`` hands (1,000,000) in files of ``--hands-per-file`` (1,000,
as bench_batch writes them) over ``--nights`` nights, six players a hand out of a pool of 20,000
names, a finding on one hand in 40.  Writing it takes seconds; auditing a million real hands with
``hhaudit batch`` takes many minutes and gives the same layout.

Each query is what a page of ``hhaudit serve`` runs (``auditor.serve.browse.Store``): search by hand
id, by player, by part of a file name and by code; the findings list filtered by code and by
player; the overview (with its night-by-night matrices); a hand's stored row and findings.
"first" is a fresh ``Store`` (the manifest is read too), "best" the best of ``--repeat`` runs after
it.  The target is a search under one second on a million hands.

    .venv/bin/python benchmarks/bench_serve.py                       # writes a 1M-hand store in a temp dir
    .venv/bin/python benchmarks/bench_serve.py --store /srv/hh/store   # an existing store
    .venv/bin/python benchmarks/bench_serve.py --hands 100000 --json out/bench_serve.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import common
import polars as pl

from auditor.batch import store as S
from auditor.serve.browse import Filters, Store

FIRST_ID = 900_000_000_000
CODES = [("B001", "illegal-reraise", "error"), ("B007", "wrong-call-amount", "error"),
         ("P002", "unrecognised-line", "warning"), ("A002", "pot-total-mismatch", "error")]  # fmt: skip


def _typed(df: pl.DataFrame, schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """``df`` with every column of ``schema`` (missing ones null) in the schema's order and types."""
    return df.select([(pl.col(c) if c in df.columns else pl.lit(None)).cast(t).alias(c) for c, t in schema.items()])


def write_store(root: Path, hands: int, per_file: int, nights: int, pool: int = 20_000) -> None:
    """A store of ``hands`` generated hands in the layout and schemas ``hhaudit batch`` writes."""
    files = -(-hands // per_file)
    start = date(2026, 11, 1)
    when = datetime(2026, 11, 1, 3, 15, tzinfo=UTC)
    manifest: dict[str, list[dict[str, Any]]] = {}
    for f in range(files):
        night = (start + timedelta(days=f * nights // files)).isoformat()
        path = f"/srv/hh/exports/{night}/export_{f:05d}.txt"
        key = S.file_key(path)
        aid = S.audit_id(f"{f:064x}", "bench", "site", 5000)
        n = min(per_file, hands - f * per_file)
        first = f * per_file
        no = pl.int_range(0, n, eager=True).cast(pl.Int64)
        gid = no + first
        names = [((gid * 7 + k * 1_009) % pool).cast(pl.String).str.zfill(5) for k in range(6)]
        players = pl.concat_list([pl.Series(["player_"] * n) + s for s in names])
        flagged = gid % 40 == 0
        h = pl.DataFrame({"hand_no": no}).with_columns(
            file_key=pl.lit(key), audit_id=pl.lit(aid), site=pl.lit("pokerstars"),
            hand_id=(gid + FIRST_ID).cast(pl.String), path=pl.lit(path), first_line=no * 30 + 1,
            last_line=no * 30 + 28, game=pl.lit("holdem"), structure=pl.lit("no_limit"),
            small_blind=pl.lit(5), big_blind=pl.lit(10), table=pl.lit(f"Table {f % 97}"), players=players,
            findings=flagged.cast(pl.Int32), worst=pl.when(flagged).then(pl.lit("error")),
        )  # fmt: skip
        fl = h.filter(pl.col("findings") > 0)
        code = (fl["hand_no"] // 40 % len(CODES)).to_list()
        fd = fl.select(
            "file_key", "audit_id", "hand_no", "site", "hand_id", "table", "path",
            player=pl.col("players").list.get(0), line=pl.col("first_line") + 12, column=pl.lit(1),
        ).with_columns(
            code=pl.Series([CODES[c][0] for c in code]), name=pl.Series([CODES[c][1] for c in code]),
            severity=pl.Series([CODES[c][2] for c in code]), message=pl.lit("generated finding"),
            profile=pl.lit("pokerstars"), data=pl.lit("{}"),
        )  # fmt: skip
        S.write_atomic(_typed(h, S.HANDS), S.part_path(str(root), "hands", night, key, aid, 0), durable=False)
        S.write_atomic(_typed(fd, S.FINDINGS), S.part_path(str(root), "findings", night, key, aid, 0), durable=False)
        manifest.setdefault(night, []).append({
            "file_key": key, "path": path, "size": n * 900, "sha256": f"{f:064x}", "encoding": "utf-8",
            "status": "ok", "hhaudit_version": "bench", "profile": "site", "audit_id": aid, "hand_parts": 1,
            "finding_parts": 1, "hands_seen": n, "hands_parsed": n, "hands_failed": 0, "findings": fd.height,
            "worst": "error" if fd.height else None, "by_code": "{}", "run_id": f"bench-{night}",
            "run_started_at": when, "audited_at": when, "seconds": 1.0,
        })  # fmt: skip
    for night, rows in manifest.items():
        path = os.path.join(S.night_dir(str(root), "files", night), f"m-bench-{night}.parquet")
        S.write_atomic(S.frame(rows, S.FILES), path, durable=False)


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    t0 = time.perf_counter()
    out = fn()
    first = time.perf_counter() - t0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return first, best, out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", help="an existing audit store (default: write a generated one)")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--hands-per-file", type=int, default=1000)
    ap.add_argument("--nights", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tmp", help="directory for the generated store (default: the system's)")
    ap.add_argument("--keep", action="store_true", help="keep the generated store")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    tmp = None
    if args.store:
        root = Path(args.store)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="bench_serve_", dir=args.tmp))
        root = tmp / "store"
        t0 = time.perf_counter()
        write_store(root, args.hands, args.hands_per_file, args.nights)
        print(f"wrote a store of {args.hands:,} hands in {time.perf_counter() - t0:.1f} s: {root}", file=sys.stderr)
    try:
        probe = Store(str(root))
        sample = S.scan(str(root), "hands").select("hand_id", "players", "path", "file_key", "hand_no").tail(1)
        hand_id, players, full_path, key, hand_no = sample.collect().row(0)
        player, path = players[0], os.path.basename(full_path)
        code = S.scan(str(root), "findings").select("code").head(1).collect().item()
        hands = probe.overview().hands
        queries: list[tuple[str, Callable[[Store], Any]]] = [
            (f"search hand id {hand_id}", lambda st: st.search(hand_id)),
            (f"search player {player}", lambda st: st.search(player)),
            (f"search file {path}", lambda st: st.search(path)),
            (f"search code {code}", lambda st: st.search(code)),
            ("search nobody (no match: every hand read)", lambda st: st.search("nobody at all")),
            (f"findings code={code} (page 1 + count)", lambda st: st.findings(Filters(code=code))),
            (f"findings player={player}", lambda st: st.findings(Filters(player=player))),
            ("overview (nights, matrices, codes, sites, players)", lambda st: st.overview()),
            (f"a hand's stored row and findings ({key}/{hand_no})", lambda st: st.hand(key, hand_no)),
        ]
        rows, results = [], []
        for label, q in queries:
            first, _best, out = timed(lambda q=q: q(Store(str(root))), 0)  # a fresh Store: manifest read too
            st = Store(str(root))
            q(st)
            _f, warm, out = timed(lambda q=q, st=st: q(st), args.repeat)
            found = len(out[0]) if isinstance(out, tuple) else getattr(out, "findings", 0)
            found = found if isinstance(found, int) else len(found)
            rows.append([label, f"{first:.3f}", f"{warm:.3f}", found])
            results.append({"query": label, "fresh_s": first, "best_s": warm, "rows": found})
        print(f"store: {root} ({hands:,} hands)")
        print(common.format_table(["query", "fresh Store (s)", f"best of {args.repeat} (s)", "rows"], rows))
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps({"hands": hands, "queries": results,
                                                   "environment": common.environment()}, indent=2))  # fmt: skip
    finally:
        if tmp is not None and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
