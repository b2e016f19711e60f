"""The batch store's night cross-hand pass (issue 16): peak RSS and CPU seconds by night size.

A seed store is made by ``hhaudit batch`` over ``--seed`` generated hands (the PokerStars corpus
hands with fresh ids, as in ``bench_batch.py``), then replicated into nights of N hands: every
copy of every committed ``hands``/``seats``/``findings`` part and manifest row gets a new file key,
path, table names and hand ids (so each copy is other tables of the same night, nothing is a
duplicate).  Then the night's cross-hand pass (``auditor.batch.crosshand.run_night``: continuity of
each table, duplicate ids, the table tails) runs alone in a fresh process, which reports its peak
RSS (``ru_maxrss``) and CPU seconds (user + system: the machine is shared, the wall clock is not
read).  ``--base DIR`` runs the same pass with another checkout's ``auditor`` (for instance
``git archive`` of main) on a copy of the same store, for the before/after in one run.

    .venv/bin/python benchmarks/bench_nightpass.py --nights 20000,100000,300000
    .venv/bin/python benchmarks/bench_nightpass.py --nights 20000,100000 --base /tmp/main --json out/np.json
    .venv/bin/python benchmarks/bench_nightpass.py --nights 300000,1000000,3000000 --workers 2   # on a pool
    .venv/bin/python benchmarks/bench_nightpass.py --nights 10000000 --workers 2 --engine dask   # on Dask

With ``--workers N`` the pass runs on a spawned process pool of N workers (as ``hhaudit batch
--workers N`` runs it: the partitions are jobs on the pool); the child then also reports its
workers' CPU and the largest worker's peak, and the process tree's peak RSS is sampled.  With
``--engine dask`` the pool is a Dask LocalCluster of N worker processes started in the child as
``hhaudit batch --engine dask --scheduler local`` starts it (``auditor.batch.dask_engine.connect``,
its ``LOCAL_CONFIG``), the night's jobs submitted through ``DaskEngine``'s executor.  The
child sets polars' allocator as ``hhaudit batch`` does (``auditor.batch.allocator``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common
import polars as pl
from bench_batch import generate, hand_texts

NIGHT = "2026-11-01"
ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import json, multiprocessing, resource, sys, time
from auditor.batch.allocator import keep_freed_pages
keep_freed_pages()  # polars' allocator as hhaudit batch sets it (for this process and its workers)
from concurrent.futures import ProcessPoolExecutor
from auditor.batch.crosshand import run_night
workers, engine = int(sys.argv[3]), sys.argv[4]
client = cluster = pool = None
if engine == "dask":  # a LocalCluster of `workers` processes, as hhaudit batch --engine dask --scheduler local
    from auditor.batch.dask_engine import connect, executor
    client, cluster = connect("local", workers)
    pool = executor(client)
elif workers > 1:
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
t = time.process_time()
by_code = run_night(sys.argv[1], sys.argv[2], pool, workers)
pass_cpu_s = time.process_time() - t
if client is not None:
    client.close()
    cluster.close()
elif pool is not None:
    pool.shutdown()
ru = resource.getrusage(resource.RUSAGE_SELF)
ch = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"maxrss_mib": ru.ru_maxrss / 1024, "cpu_s": ru.ru_utime + ru.ru_stime + ch.ru_utime + ch.ru_stime,
                  "pass_cpu_s": pass_cpu_s, "workers_cpu_s": ch.ru_utime + ch.ru_stime,
                  "worker_maxrss_mib": ch.ru_maxrss / 1024 if pool is not None else 0.0,
                  "findings": sum(by_code.values())}))
"""


def seed_store(tmp: Path, hands: int) -> Path:
    src = tmp / "in"
    generate(src, hands, 1000, hand_texts(str(common.default_corpus())))
    store = tmp / "seed"
    cmd = [sys.executable, "-m", "auditor.batch", "batch", str(src), "--store", str(store), "--night", NIGHT,
           "--quiet", "--fail-on", "none"]  # fmt: skip
    subprocess.run(cmd, check=True, cwd=ROOT)
    shutil.rmtree(src)
    return store


def replicate(seed: Path, out: Path, copies: int) -> int:
    """A store whose night holds ``copies`` copies of the seed's night; returns its hands."""
    from auditor.batch import store as S

    night = f"night={NIGHT}"
    for t in ("hands", "seats", "findings", "files"):
        (out / t / night).mkdir(parents=True)
    man = pl.concat([pl.read_parquet(p) for p in sorted((seed / "files" / night).glob("*.parquet"))])
    n = 0
    for c in range(copies):
        sfx = f"-c{c:04d}"
        pl.concat([man.with_columns(pl.col("file_key") + sfx, pl.col("path") + sfx)]).write_parquet(
            out / "files" / night / f"m-copy{c:04d}.parquet"
        )
        for t in ("hands", "seats", "findings"):
            for p in sorted((seed / t / night).glob("*.parquet")):
                key, rest = p.name.split(".", 1)
                df = pl.read_parquet(p, hive_partitioning=False)
                df = df.with_columns(pl.col("file_key") + sfx)
                if t in ("hands", "findings"):
                    df = df.with_columns(
                        (pl.lit(f"{c + 1:04d}") + pl.col("hand_id")).alias("hand_id"),
                        pl.col("path") + sfx,
                        pl.col("table") + sfx,
                    )
                if t == "hands":  # each copy is other tournaments too
                    df = df.with_columns(pl.col("tournament_id") + sfx)
                    n += df.height
                df.write_parquet(out / t / night / f"{key}{sfx}.{rest}")
    S.load_manifest(str(out))  # readable
    return n


def measure(
    store: Path, base: str | None, workers: int = 1, every: float = 0.5, engine: str = "pool"
) -> dict[str, Any]:
    """The pass in a fresh process (with ``workers`` > 1, on a spawned process pool of that many
    workers, as ``hhaudit batch --workers`` runs it; with ``engine`` "dask", on a Dask LocalCluster
    of ``workers`` processes, as ``hhaudit batch --engine dask --scheduler local`` runs it): its
    ``ru_maxrss``, the largest worker's, CPU seconds of the process and of its workers, and the
    process tree's peak RSS (the sum over its live processes) and the largest other process's
    peak, sampled every ``every`` seconds (``sample_tree.tree``)."""
    import threading

    from sample_tree import tree

    env = dict(os.environ)
    env["PYTHONPATH"] = base if base else str(ROOT)
    cmd = [sys.executable, "-c", _CHILD, str(store), NIGHT, str(workers), engine]
    p = subprocess.Popen(cmd, env=env, cwd=base or ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            live = tree(p.pid)
            peak[0] = max(peak[0], sum(s[3] for s in live.values()))
            peak[1] = max([peak[1], *(s[3] for pid, s in live.items() if pid != p.pid)])
            done.wait(every)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = p.communicate()
    done.set()
    sampler.join()
    if p.returncode:
        raise SystemExit(err)
    r = dict(json.loads(out.strip().splitlines()[-1]))
    r["tree_peak_mib"] = peak[0] / 2**20
    r["other_peak_mib"] = peak[1] / 2**20  # the largest worker, sampled
    r["engine"] = engine
    return r


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", default="20000,100000,300000", help="night sizes in hands (comma-separated)")
    ap.add_argument("--seed", type=int, default=10_000, help="hands audited for the seed store (10,000)")
    ap.add_argument("--base", help="another checkout's root (its auditor/ is run on a copy of each store)")
    ap.add_argument("--tmp", help="where the stores are built (default: the system's temporary folder)")
    ap.add_argument(
        "--workers", type=int, default=1, help="run the pass on a process pool of this many workers (1: in process)"
    )
    ap.add_argument(
        "--engine", choices=["pool", "dask"], default="pool",
        help="pool: a spawned process pool (hhaudit batch --workers N); dask: a Dask LocalCluster of --workers "
        "processes (hhaudit batch --engine dask --scheduler local)",
    )  # fmt: skip
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args(argv)
    rows = []
    kept: list[Any] = []
    with tempfile.TemporaryDirectory(dir=a.tmp) as d:
        tmp = Path(d)
        seed = seed_store(tmp, a.seed)
        for size in (int(x) for x in a.nights.split(",")):
            store = tmp / f"night{size}"
            hands = replicate(seed, store, max(1, size // a.seed))
            for label, base in [("this", None)] + ([("base", a.base)] if a.base else []):
                s = store
                if base:
                    s = tmp / f"base{size}"
                    shutil.copytree(store, s)
                r = measure(s, base, a.workers, engine=a.engine)
                cross = pl.read_parquet(s / "crosshand" / f"night={NIGHT}" / "crosshand.parquet")
                rows_ = sorted(cross.select(sorted(cross.columns)).iter_rows(), key=repr)
                if base:
                    r["same_rows_as_this"] = rows_ == kept
                    print(f"  same cross-hand rows as this checkout: {r['same_rows_as_this']}")
                kept = rows_
                r.update(code=label, hands=hands)
                rows.append(r)
                print(f"{hands:>9,} hands  {label:<5} peak RSS {r['maxrss_mib']:8.1f} MiB (largest worker "
                      f"{r['worker_maxrss_mib']:.1f}, sampled {r['other_peak_mib']:.1f}, "
                      f"tree {r['tree_peak_mib']:.1f})  CPU {r['cpu_s']:7.1f} s "
                      f"(pass {r['pass_cpu_s']:6.1f} s, workers {r['workers_cpu_s']:6.1f} s)  "
                      f"findings {r['findings']:,}", flush=True)  # fmt: skip
                if base:
                    shutil.rmtree(s)
            shutil.rmtree(store)
    this = [r for r in rows if r["code"] == "this"]
    if len(this) > 1:
        a0, a1 = this[0], this[-1]
        slope = (a1["maxrss_mib"] - a0["maxrss_mib"]) * 1024 / max(1, a1["hands"] - a0["hands"])
        print(
            f"slope of the peak RSS: {slope:.3f} KiB per hand; CPU {a1['pass_cpu_s'] / a1['hands'] * 1e6:.1f} us a hand"
        )
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
