"""``hhaudit batch`` on Dask with 2 local workers (issue 16): hands/s and peak memory at N hands.

The input is generated as for ``bench_batch.py``: the PokerStars corpus hands repeated in corpus
order with fresh hand ids, in files of ``--hands-per-file`` hands (never copied into the
repository: written to a temporary folder and removed afterwards).  Then the real command runs in a
fresh wrapper process::

    python -m auditor.batch batch IN --store STORE --engine dask --scheduler local --workers 2

(a :class:`distributed.LocalCluster` of 2 worker processes, 1 thread each, started for the run), and
this prints the hands seen (from the store's run log), wall seconds, hands/s, the peak resident set
of the largest process and of the whole process tree (the batch process, the scheduler's and the
nanny and worker processes), the store's size, and what ``--extrapolate`` hands (10M by default)
would take at the measured rate.  ``--local`` adds the same input on the local process pool with the
same number of workers, for the ratio in one run.

    .venv/bin/python benchmarks/bench_dask_batch.py --hands 200000
    .venv/bin/python benchmarks/bench_dask_batch.py --hands 1000000 --local --json out/dask_1m.json
    .venv/bin/python benchmarks/bench_dask_batch.py --hands 10000000 --tmp /big/disk   # ~14 GB of input
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common
from bench_batch import du, generate, hand_texts, last_run, run_batch


def one(src: Path, store: Path, workers: int, engine: str, hands: int) -> dict[str, Any]:
    extra = ["--engine", "dask", "--scheduler", "local"] if engine == "dask" else []
    r = run_batch(src, store, workers, extra)
    log = last_run(store)
    if log["hands_seen"] != hands or r["exit"] != 0:
        raise SystemExit(f"unexpected {engine} run: {log['hands_seen']} hands of {hands}, exit {r['exit']}")
    r.update(engine=engine, workers=workers, hands=log["hands_seen"], files=log["files_audited"],
             findings=log["findings"], hands_per_s=log["hands_seen"] / r["seconds"],
             store_mib=du(store) / 2**20)  # fmt: skip
    return r


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--hands",
        type=int,
        default=100_000,
        help="hands of the generated input (100,000)",
    )
    ap.add_argument("--workers", type=int, default=2, help="Dask workers (2)")
    ap.add_argument("--hands-per-file", type=int, default=1000)
    ap.add_argument(
        "--local",
        action="store_true",
        help="also run the local process pool on the same input",
    )
    ap.add_argument(
        "--extrapolate",
        type=int,
        default=10_000_000,
        help="hands to extrapolate the time of (10M)",
    )
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument(
        "--tmp",
        help="directory for the generated input and the store (default: the system's)",
    )
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    if not Path(args.corpus).is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    try:
        import distributed  # noqa: F401
    except ImportError:
        print(
            "dask[distributed] is not installed (pip install -e '.[dask]')",
            file=sys.stderr,
        )
        return 2
    texts = hand_texts(args.corpus)
    root = Path(tempfile.mkdtemp(prefix="bench_dask_", dir=args.tmp))
    result: dict[str, Any] = {
        "environment": common.environment(),
        "hands": args.hands,
        "runs": [],
    }
    try:
        src = root / "in"
        t0 = time.perf_counter()
        nbytes = generate(src, args.hands, args.hands_per_file, texts)
        print(f"{args.hands:,} hands ({len(texts):,} corpus hands repeated), {nbytes / 2**20:,.0f} MiB in "
              f"{-(-args.hands // args.hands_per_file):,} files, generated in {time.perf_counter() - t0:.0f} s",
              flush=True)  # fmt: skip
        result["input_mib"] = nbytes / 2**20
        engines = ["dask", "local"] if args.local else ["dask"]
        for engine in engines:
            store = root / f"store-{engine}"
            r = one(src, store, args.workers, engine, args.hands)
            result["runs"].append(r)
            print(f"{engine}: {r['seconds']:.0f} s", flush=True)
            shutil.rmtree(store)
        rows = [[f"{r['engine']}, {r['workers']} workers", r["hands"], r["seconds"], r["hands_per_s"], r["cpu_s"],
                 r["hands"] / r["cpu_s"] if r["cpu_s"] else 0.0,
                 r["peak_rss_max_mib"], r["peak_rss_sum_mib"], r["store_mib"]] for r in result["runs"]]  # fmt: skip
        print()
        print(
            common.format_table(
                [
                    "run",
                    "hands",
                    "s",
                    "hands/s",
                    "CPU s",
                    "hands/CPU s",
                    "RSS max MiB",
                    "RSS sum MiB",
                    "store MiB",
                ],
                rows,
            )
        )
        dask = result["runs"][0]
        est = args.extrapolate / dask["hands_per_s"]
        result["extrapolated"] = {"hands": args.extrapolate, "seconds": est}
        print(f"\n{args.extrapolate:,} hands at {dask['hands_per_s']:,.0f} hands/s: {est / 3600:.1f} h "
              f"({nbytes / args.hands * args.extrapolate / 2**30:,.1f} GiB of input)")  # fmt: skip
        for r in result["runs"]:
            top = ", ".join(f"{role} {mib:,.0f}" for role, mib in r["peak_rss_by_process_mib"][:6])
            print(f"peak RSS by process, {r['engine']} (MiB, sampled): {top}")
        if args.local:
            ratio = dask["hands_per_s"] / result["runs"][1]["hands_per_s"]
            result["dask_over_local"] = ratio
            print(f"Dask / local pool, same input and workers: {ratio:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        common.write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
