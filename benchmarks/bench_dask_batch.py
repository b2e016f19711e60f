"""``hhaudit batch`` on Dask with 2 local workers (issue 16): CPU per hand by process, against the local pool.

The input is generated as for ``bench_batch.py``: the PokerStars corpus hands repeated in corpus
order with fresh hand ids, in files of ``--hands-per-file`` hands (never copied into the
repository: written to a temporary folder and removed afterwards; or ``--input DIR``, a folder
generated before and kept).  Then the real command runs in a fresh wrapper process, under
``nice -n --nice``::

    python -m auditor.batch batch IN --store STORE --engine dask --scheduler local --workers 2

(a :class:`distributed.LocalCluster` of 2 worker processes, 1 thread each, started for the run).
The runs, in one invocation on the same input:

* ``dask``: as shipped (:data:`auditor.batch.dask_engine.LOCAL_CONFIG`: Dask's profiler off);
* ``dask-defaults`` (``--defaults``): the same with Dask's own configuration (the profiler on),
  what the engine did before;
* ``local`` (``--local``): the local process pool, same number of workers.

Each prints wall seconds, hands/s, the CPU seconds of the whole run (every process, waited for:
``RUSAGE_CHILDREN``), hands per CPU second, and the CPU seconds of the batch process (on Dask also
the scheduler, the nannies and the client) and of the workers, sampled from ``/proc`` five times a
second (``benchmarks/sample_tree.py``), with each process's peak resident set; the store's size; and
what ``--extrapolate`` hands (10M by default) would take at the measured rate.

    .venv/bin/python benchmarks/bench_dask_batch.py --hands 200000 --local --defaults --nice 19
    .venv/bin/python benchmarks/bench_dask_batch.py --hands 10000000 --tmp /big/disk   # ~14 GB of input
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common
from bench_batch import du, generate, hand_texts, last_run, wrapped
from sample_tree import role, tree

#: The batch command with Dask's own configuration on the local cluster (the engine before issue
#: 16's tuning): ``LOCAL_CONFIG`` emptied before the run starts.
_DEFAULTS = (
    "import sys; import auditor.batch.dask_engine as D; D.LOCAL_CONFIG.clear(); "
    "from auditor.batch.cli import main; sys.exit(main(sys.argv[1:]))"
)


def run(src: Path, store: Path, workers: int, kind: str, nice: int) -> dict[str, Any]:
    """One batch run (``kind``: dask, dask-defaults or local) in a fresh wrapper process."""
    args = ["batch", str(src), "--store", str(store), "--workers", str(workers), "--quiet", "--fail-on", "none"]
    if kind.startswith("dask"):
        args += ["--engine", "dask", "--scheduler", "local"]
    head = [sys.executable, "-c", _DEFAULTS] if kind == "dask-defaults" else [sys.executable, "-m", "auditor.batch"]
    cmd = ["nice", "-n", str(nice), *head, *args] if nice else [*head, *args]
    seen: dict[int, list[Any]] = {}  # pid -> [role, CPU s, peak RSS bytes]
    peak_sum = 0

    def sample(child: int) -> None:
        nonlocal peak_sum
        procs = tree(child)
        peak_sum = max(peak_sum, sum(p[3] for p in procs.values()))
        for pid, (_pp, own, _ch, rss) in procs.items():
            if pid not in seen:
                seen[pid] = [role(pid, child), 0.0, 0]
            elif seen[pid][0] == "batch":  # a new process shows its parent's command line until exec
                seen[pid][0] = role(pid, child)
            seen[pid][1] = own
            seen[pid][2] = max(seen[pid][2], rss)

    doc, seconds = wrapped(cmd, sample)
    log = last_run(store)
    cpu_by: dict[str, float] = {}
    for r, cpu, _rss in seen.values():
        cpu_by[r] = cpu_by.get(r, 0.0) + cpu
    return {
        "kind": kind,
        "workers": workers,
        "exit": doc["exit"],
        "seconds": seconds,
        "hands": log["hands_seen"],
        "files": log["files_audited"],
        "findings": log["findings"],
        "hands_per_s": log["hands_seen"] / seconds,
        "cpu_s": doc["cpu_s"],
        "cpu_by_role_s": cpu_by,  # sampled: the last 0.2 s of each process may be missing
        "peak_rss_max_mib": doc["maxrss_kib"] / 1024,
        "peak_rss_sum_mib": peak_sum / 2**20,
        "peak_rss_by_process_mib": sorted(([r, b / 2**20] for r, _c, b in seen.values() if b), key=lambda x: -x[1]),
        "store_mib": du(store) / 2**20,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000, help="hands of the generated input (100,000)")
    ap.add_argument("--input", metavar="DIR", help="an input folder generated before (kept; --hands ignored)")
    ap.add_argument("--workers", type=int, default=2, help="workers (2)")
    ap.add_argument("--hands-per-file", type=int, default=1000)
    ap.add_argument("--local", action="store_true", help="also run the local process pool on the same input")
    ap.add_argument("--defaults", action="store_true", help="also run Dask with its own configuration (before)")
    ap.add_argument("--kinds", help="the runs, in order, instead of the flags: e.g. local,dask")
    ap.add_argument("--nice", type=int, default=0, help="run the batch under nice -n N (0: not)")
    ap.add_argument("--extrapolate", type=int, default=10_000_000, help="hands to extrapolate the time of (10M)")
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument("--tmp", help="directory for the generated input and the store (default: the system's)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("dask[distributed] is not installed (pip install -e '.[dask]')", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(prefix="bench_dask_", dir=args.tmp))
    result: dict[str, Any] = {"environment": common.environment(), "runs": [], "load_before": os.getloadavg()}
    try:
        if args.input:
            src = Path(args.input)
            nbytes = du(src)
        else:
            if not Path(args.corpus).is_dir():
                print(f"corpus not found: {args.corpus}", file=sys.stderr)
                return 2
            src = root / "in"
            t0 = time.perf_counter()
            nbytes = generate(src, args.hands, args.hands_per_file, hand_texts(args.corpus))
            print(f"{args.hands:,} hands, {nbytes / 2**20:,.0f} MiB in {-(-args.hands // args.hands_per_file):,} "
                  f"files, generated in {time.perf_counter() - t0:.0f} s", flush=True)  # fmt: skip
        result["input_mib"] = nbytes / 2**20
        kinds = ["dask"] + (["dask-defaults"] if args.defaults else []) + (["local"] if args.local else [])
        if args.kinds:
            kinds = args.kinds.split(",")
        for kind in kinds:
            store = root / f"store-{kind}"
            r = run(src, store, args.workers, kind, args.nice)
            if r["exit"] != 0 or (not args.input and r["hands"] != args.hands):
                raise SystemExit(f"unexpected {kind} run: {r['hands']} hands, exit {r['exit']}")
            result["runs"].append(r)
            print(f"{kind}: {r['seconds']:.0f} s, CPU {r['cpu_s']:.1f} s ({r['hands'] / r['cpu_s']:,.0f} hands/CPU s; "
                  f"sampled by process: {json.dumps(r['cpu_by_role_s'])}), peak RSS by process (MiB): "
                  f"{json.dumps(r['peak_rss_by_process_mib'])}, load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
            shutil.rmtree(store)
        result["load_after"] = os.getloadavg()
        rows = []
        for r in result["runs"]:
            by = r["cpu_by_role_s"]
            work = by.get("worker", 0.0)
            rows.append([f"{r['kind']}, {r['workers']} workers", r["hands"], r["seconds"], r["hands_per_s"],
                         r["cpu_s"], r["hands"] / r["cpu_s"] if r["cpu_s"] else 0.0, by.get("batch", 0.0), work,
                         1e6 * work / r["hands"] if r["hands"] else 0.0, r["peak_rss_max_mib"],
                         r["peak_rss_sum_mib"], r["store_mib"]])  # fmt: skip
        print()
        print(common.format_table(["run", "hands", "s", "hands/s", "CPU s", "hands/CPU s", "batch CPU s",
                                   "workers CPU s", "worker us/hand", "RSS max MiB", "RSS sum MiB", "store MiB"],
                                  rows))  # fmt: skip
        first = next((r for r in result["runs"] if r["kind"] == "dask"), result["runs"][0])
        est = args.extrapolate / first["hands_per_s"]
        result["extrapolated"] = {"hands": args.extrapolate, "seconds": est,
                                  "cpu_s": args.extrapolate / first["hands"] * first["cpu_s"]}  # fmt: skip
        gib = nbytes / first["hands"] * args.extrapolate / 2**30
        print(f"\n{args.extrapolate:,} hands at {first['hands_per_s']:,.0f} hands/s: {est / 3600:.1f} h wall, "
              f"{result['extrapolated']['cpu_s'] / 3600:.1f} CPU h ({gib:,.1f} GiB of input)")  # fmt: skip
        for r in result["runs"]:
            top = ", ".join(f"{role} {mib:,.0f}" for role, mib in r["peak_rss_by_process_mib"][:6])
            print(f"peak RSS by process, {r['kind']} (MiB, sampled): {top}")
        per = {r["kind"]: r["hands"] / r["cpu_s"] for r in result["runs"] if r["cpu_s"]}
        for kind in ("dask-defaults", "local"):
            if kind in per and "dask" in per:
                result[f"dask_over_{kind}"] = per["dask"] / per[kind]
                print(f"hands per CPU second, dask / {kind}: {per['dask'] / per[kind]:.3f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        common.write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
