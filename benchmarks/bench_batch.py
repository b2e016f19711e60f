"""``hhaudit batch`` on a large generated input: hands/s with 1 and 2 workers, peak RSS by input size.

The input is made of the PokerStars corpus hands (``../shared/corpus/pokerstars``) repeated with
fresh hand ids, written as files of ``--hands-per-file`` hands (an export per table and day is
typically a few hundred to a few thousand hands).  Every measurement runs the real command,
``python -m auditor.batch batch DIR --store STORE --workers N --quiet``, in a fresh wrapper
process, so that the peak RSS reported is that run's and nothing else's:

* ``peak RSS (max process)``: ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` of the wrapper - the
  largest resident set of any process of the run (the batch process, or a pool worker);
* ``peak RSS (sum, sampled)``: the largest sum of the resident sets of the run's whole process
  tree, sampled from ``/proc`` five times a second (pool workers are separate processes).

Then, on the same store, a second run over the unchanged input (everything skipped: hashing only).

``--speed N --repeat R``: R rounds, each a 1-worker and a 2-worker run (in reverse order every other
round) and the machine's own control after them (:func:`machine_scaling`: a pure-Python loop in 2
processes against 1).  Printed: the best run of each worker count and their ratio against the best
control, and, paired, each round's own ratio and its ratio to that round's control (medians): on a
VM whose second core comes and goes between minutes, the paired figures are the ones to read.

``--phases N`` times where one run's time goes, for each worker count, in CPU seconds (steady on a
shared machine, where the wall clock is not): ``run_batch`` in a fresh process with
:class:`auditor.batch.runner.Timings`: the batch process's CPU before the first file is handed
out, while the results come in, compacting the manifest and in the night's cross-hand pass (and
that pass's wall time), and each worker's own CPU (start-up and its share of the night pass
included).  ``--previous DIR`` times another checkout (one that has ``Timings``) in the same
run, alternating with this one.

    .venv/bin/python benchmarks/bench_batch.py                         # speed at 20,000 hands, RSS at 100,000
    .venv/bin/python benchmarks/bench_batch.py --rss 100000,1000000     # + RSS at 1M (several minutes)
    .venv/bin/python benchmarks/bench_batch.py --speed 0 --rss 1000000 --json out/bench_batch_1m.json
    .venv/bin/python benchmarks/bench_batch.py --speed 0 --rss 0 --phases 30000 --previous /tmp/base
    .venv/bin/python benchmarks/bench_batch.py --speed 0 --rss 0 --phases 2000 --seed-store /tmp/corpus-store
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import common
from sample_tree import role  # what a process of the run is, from its command line

_ID = re.compile(r"#[\w-]+:")


def hand_texts(corpus: str) -> list[str]:
    """The text of every PokerStars hand of the corpus (split as the CLI splits them)."""
    _sources, split = common.load_chunks(corpus)
    return [c.text for c in split.chunks]


_TOURNAMENT = re.compile(r"Tournament #(\d+)")
_TABLE = re.compile(r"^Table '([^']*)'", re.M)


def renamed(text: str, copy: int) -> str:
    """``text`` as the ``copy``-th repetition of the corpus plays it: at a table (and in a tournament)
    of its own, so each repetition's tables continue as the corpus's do and no repeated hand breaks
    another repetition's stack or button chain (the cross-hand pass finds what it finds on the
    corpus, once a repetition).  The first repetition (0) is the corpus unchanged."""
    if not copy:
        return text
    head, _, rest = text.partition("\n")
    table, _, rest = rest.partition("\n")
    m = _TOURNAMENT.search(head)
    if m:  # the tournament id, wherever the two lines repeat it (tournament tables are named after it)
        tid = m.group(1)
        new = f"{tid}{copy:05d}"
        head, table = head.replace(tid, new), table.replace(tid, new)
    else:
        table = _TABLE.sub(lambda t: f"Table '{t.group(1)} r{copy}'", table, count=1)
    return f"{head}\n{table}\n{rest}"


def generate(out: Path, hands: int, per_file: int, texts: Sequence[str], first_id: int = 900_000_000_000) -> int:
    """Write ``hands`` hands under ``out`` (``per_file`` per file), each with a fresh hand id, the
    corpus's hands repeated in order, each repetition at tables of its own (:func:`renamed`);
    returns bytes."""
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    n = 0
    file_no = 0
    while n < hands:
        path = out / f"export_{file_no:05d}.txt"
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            for _ in range(min(per_file, hands - n)):
                text = renamed(texts[n % len(texts)], n // len(texts))
                head, _, rest = text.partition("\n")
                head = _ID.sub(f"#{first_id + n}:", head, count=1)
                f.write(head + "\n" + rest + "\n\n\n")
                n += 1
        written += path.stat().st_size
        file_no += 1
    return written


def _children(pid: int) -> list[int] | None:
    """The children of ``pid`` (every thread's), from ``/proc/PID/task/TID/children``; None when the
    kernel does not list them (no ``CONFIG_PROC_CHILDREN``)."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out  # gone
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out += map(int, f.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended
            return None
        except OSError:
            continue
    return out


def _tree(root: int) -> dict[int, int]:
    """pid -> parent pid of ``root`` and its descendants: from each process's list of children (a
    few small files a sample, s14-batch: the whole ``/proc`` was read five times a second, ~2 ms of
    CPU a sample on a machine of ~130 processes, taken from the cores the batch's workers use), or
    from every process's ``stat`` where the kernel lists no children."""
    if _children(root) is None:
        parent: dict[int, int] = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    parent[int(d)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
        tree = {root: 0}
        changed = True
        while changed:
            changed = False
            for pid, pp in parent.items():
                if pp in tree and pid not in tree:
                    tree[pid] = pp
                    changed = True
        return tree
    tree, todo = {root: 0}, [root]
    while todo:
        pid = todo.pop()
        for c in _children(pid) or ():
            if c not in tree:
                tree[c] = pid
                todo.append(c)
    return tree


def _rss(pid: int, page: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[21]) * page
    except (OSError, IndexError, ValueError):
        return 0


def _tree_rss(root: int, peaks: dict[int, tuple[str, int]] | None = None) -> int:
    """Sum of the resident sets (bytes) of ``root`` and its descendants, from /proc; with ``peaks``,
    each process's largest resident set so far (by pid, with its role)."""
    page = os.sysconf("SC_PAGE_SIZE")
    rss = {p: _rss(p, page) for p in _tree(root)}
    if peaks is not None:
        for p, r in rss.items():
            if p not in peaks:
                peaks[p] = (role(p, root), r)
            elif r > peaks[p][1]:
                peaks[p] = (peaks[p][0], r)
    return sum(rss.values())


_WRAPPER = """
import json, resource, subprocess, sys
p = subprocess.Popen(sys.argv[1:])
print(p.pid, flush=True)
code = p.wait()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"exit": code, "maxrss_kib": ru.ru_maxrss, "cpu_s": ru.ru_utime + ru.ru_stime}), flush=True)
"""


def wrapped(cmd: Sequence[str], sample: Callable[[int], None]) -> tuple[dict[str, Any], float]:
    """Run ``cmd`` in a fresh wrapper process and call ``sample(pid)`` (the command's pid) from a
    thread every 0.2 s while it runs; returns the wrapper's report (``exit``, ``maxrss_kib``: the
    largest peak of any process of the run, ``cpu_s``: the CPU of every process of the run that was
    waited for) and the wall seconds.  ``bench_dask_batch.py`` runs its commands through it too."""
    t0 = time.perf_counter()
    w = subprocess.Popen([sys.executable, "-c", _WRAPPER, *cmd], stdout=subprocess.PIPE, text=True)
    assert w.stdout is not None
    child = int(w.stdout.readline())
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            sample(child)
            stop.wait(0.2)

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    doc: dict[str, Any] = json.loads(w.stdout.readline())
    w.wait()
    seconds = time.perf_counter() - t0
    stop.set()
    t.join()
    return doc, seconds


def run_batch(src: Path, store: Path, workers: int, extra: Sequence[str] = ()) -> dict[str, Any]:
    """One ``hhaudit batch`` run in a fresh wrapper process: wall time, exit status, peak RSS."""
    cmd = [
        sys.executable,
        "-m",
        "auditor.batch",
        "batch",
        str(src),
        "--store",
        str(store),
        "--workers",
        str(workers),
        "--quiet",
        "--fail-on",
        "none",
        *extra,
    ]
    peak_sum = 0
    peaks: dict[int, tuple[str, int]] = {}

    def sample(child: int) -> None:
        nonlocal peak_sum
        peak_sum = max(peak_sum, _tree_rss(child, peaks))

    doc, seconds = wrapped(cmd, sample)
    return {
        "seconds": seconds,
        "exit": doc["exit"],
        "peak_rss_max_mib": doc["maxrss_kib"] / 1024,
        "peak_rss_sum_mib": peak_sum / 2**20,
        # user + system CPU of every process of the run that was waited for (the batch process, pool
        # or Dask workers): steadier than the wall clock on a shared machine
        "cpu_s": doc["cpu_s"],
        # each process's peak (sampled), largest first: the batch process, each worker (Dask: each
        # worker, its nanny, the scheduler runs in the batch process)
        "peak_rss_by_process_mib": sorted(
            ([role, r / 2**20] for role, r in peaks.values() if r > 0), key=lambda x: -float(x[1])
        ),
    }


_SPIN = "import sys\nn = 0\nfor i in range(int(sys.argv[1])):\n    n += i * i % 7\n"


def machine_scaling(loops: int = 30_000_000) -> dict[str, float]:
    """The same pure-Python loop in 1 process, then in 2 at once: how much 2 processes gain on this machine.

    The reference for the 1-vs-2-workers ratio: on a virtual machine two vCPUs are not always two
    cores' worth of work.
    """

    def spin(n: int) -> float:
        t0 = time.perf_counter()
        ps = [subprocess.Popen([sys.executable, "-c", _SPIN, str(loops)]) for _ in range(n)]
        for p in ps:
            p.wait()
        return time.perf_counter() - t0

    one, two = spin(1), spin(2)
    return {"one_s": one, "two_s": two, "ratio": 2 * one / two}


_PHASES = """
import json, sys, time
t0 = time.monotonic()
from auditor.batch.allocator import keep_freed_pages
keep_freed_pages()
src, store, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
pool = None
if workers > 1:
    from auditor.batch.engines import Pool
    pool = Pool(workers)
from auditor.batch.runner import Options, Timings, run_batch
tm = Timings()
code = run_batch(Options([src], store, workers=workers, fail_on=None, progress="none"), runner=pool, timings=tm)
tm.mark("end")
import multiprocessing, resource
for p in multiprocessing.active_children():  # the pool's workers, reaped: their CPU is in RUSAGE_CHILDREN
    p.join()
tm.mark("reaped")
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"exit": code, "t0": t0, "marks": tm.marks, "first_result": tm.first_result,
                  "last_result": tm.last_result, "worker_cpu": list(tm.worker_cpu.values()),
                  "results": getattr(tm, "results", []), "jobs": getattr(tm, "jobs", []),
                  "children_cpu": ru.ru_utime + ru.ru_stime}))
"""


def projected(r: dict[str, Any]) -> dict[str, float]:
    """The run's critical path on free cores, from CPU seconds only (the machine is shared: its wall
    clock is not read): each worker starts (its CPU at its first result less one file's CPU) while the
    batch process prepares, does its files, and the last worker to finish ends the file phase; then the
    batch process's manifest and night-pass CPU, and the workers' share of the night pass (the CPU the
    pool's processes spent after their last file, their exit included), split evenly between them.
    With one worker (in process) it is the batch process's CPU.  ``files_cpu_s``: the CPU of the
    files alone (every worker's, start-up excluded), to read the critical path with the files at the
    one-worker rate (:func:`uncontended`)."""
    by: dict[int, list[float]] = {}
    for pid, cpu, _t in r.get("results") or []:
        by.setdefault(pid, []).append(cpu)
    if r["workers"] > 1 and not by and r["worker_cpu_s"]:  # a Timings without each result: start-up unknown
        by = {i: [c] for i, c in enumerate(r["worker_cpu_s"])}
    steps = sorted(b - a for cs in by.values() for a, b in zip(sorted(cs), sorted(cs)[1:], strict=False))
    per_file = steps[len(steps) // 2] if steps else 0.0
    files = sum(max(cs) - min(cs) + per_file for cs in by.values())
    if r["workers"] <= 1 or not by:
        return {"critical_cpu_s": r["parent_cpu_s"], "files_cpu_s": files, "per_file_cpu_s": per_file}
    start = max(max(r["parent_before_first_task_cpu_s"], min(cs) - per_file) for cs in by.values())
    files_end = max(max(r["parent_before_first_task_cpu_s"], min(cs) - per_file) + max(cs) - min(cs) + per_file
                    for cs in by.values())  # fmt: skip
    night_workers = max(0.0, r["children_cpu_s"] - sum(max(cs) for cs in by.values()))
    last = sorted(max(cs) for cs in by.values())
    return {
        "critical_cpu_s": files_end + r["parent_manifest_cpu_s"] + r["night_cpu_s"] + night_workers / len(by),
        "start_cpu_s": start,
        "files_cpu_s": files,
        "worker_startup_cpu_s": sum(min(cs) - per_file for cs in by.values()) / len(by),
        "per_file_cpu_s": per_file,
        "imbalance_cpu_s": last[-1] - last[0],
        "night_workers_cpu_s": night_workers,
        "serial_cpu_s": files_end
        - files / len(by)
        + r["parent_manifest_cpu_s"]
        + r["night_cpu_s"]
        + night_workers / len(by),
    }


def _jobs(r: dict[str, Any]) -> list[tuple[str, int, float, float, float, float]]:
    """The run's files as (key, worker pid, its CPU s when it took the file and when it was done,
    monotonic s then and then), in the order the workers took them.  A checkout whose ``Timings``
    has no ``jobs`` (the session's start) only kept each worker's CPU at each result: a file's CPU is
    then the step from the worker's previous result, its first file's the median step (the rest of
    its CPU at its first result is its start-up), with no wall times."""
    if r.get("jobs"):
        return sorted((tuple(j) for j in r["jobs"]), key=lambda j: j[4])  # type: ignore[misc]
    by: dict[int, list[tuple[float, float]]] = {}
    for pid, cpu, t in r.get("results") or []:
        by.setdefault(pid, []).append((t, cpu))
    steps = sorted(b[1] - a[1] for cs in by.values() for a, b in zip(sorted(cs), sorted(cs)[1:], strict=False))
    per_file = steps[len(steps) // 2] if steps else 0.0
    out = []
    for pid, cs in by.items():
        prev = None
        for t, cpu in sorted(cs):
            start = cpu - per_file if prev is None else prev
            out.append((f"{pid}:{t}", pid, start, cpu, 0.0, t))
            prev = cpu
    return sorted(out, key=lambda j: j[5])


def idle(r: dict[str, Any]) -> dict[str, float]:
    """Each worker's idle time on the wall clock, from when it took each file and was done with it
    (one monotonic clock for every process): between its files (waiting for a task, moving results),
    and at the end (from its last file to the run's last: the other worker still on a file), summed
    over the workers; and the batch process's CPU before the first file, while the files run and
    after the last result (the serial CPU around the workers).  Wall times read the machine too: on a
    loaded one a gap is also a process waiting for a core."""
    out = {
        "serial_before_cpu_s": r["parent_before_first_task_cpu_s"],
        "serial_between_cpu_s": r["parent_results_cpu_s"],
        "serial_after_cpu_s": r["parent_cpu_s"] - r["parent_before_first_task_cpu_s"] - r["parent_results_cpu_s"],
    }
    jobs = [j for j in _jobs(r) if j[4]]
    if r["workers"] <= 1 or not jobs:
        return out
    by: dict[int, list[tuple[float, float]]] = {}
    for _key, pid, _c0, _c1, t0, t1 in jobs:
        by.setdefault(pid, []).append((t0, t1))
    last = max(t1 for ts in by.values() for _t0, t1 in ts)
    out["idle_between_s"] = sum(b[0] - a[1] for ts in by.values() for a, b in itertools.pairwise(ts))
    out["idle_end_s"] = sum(last - ts[-1][1] for ts in by.values())
    return out


def schedule(r: dict[str, Any], files_cpu: dict[str, float] | None = None, cores: int = 2) -> dict[str, float]:
    """The 2-worker run's critical path in CPU seconds on ``cores`` free cores, by replaying the pool:
    every worker is ready after its start-up (its CPU when it took its first file), the batch process's
    work before the first file, and the start-up CPU of all of them shared by the cores (three
    processes start on two cores); then each file, in the order they were taken, goes to the worker
    free first and costs its CPU (``files_cpu``: by file key, e.g. the one-worker run's, else this
    run's); the file phase ends with the last worker's last file (the other one idle meanwhile: the
    imbalance), then the batch process's manifest and night CPU and the workers' share of the night.
    With one worker it is the batch process's CPU."""
    if r["workers"] <= 1:
        return {"schedule_cpu_s": r["parent_cpu_s"]}
    jobs = _jobs(r)
    first: dict[int, float] = {}
    for _key, pid, c0, _c1, _t0, _t1 in jobs:
        first.setdefault(pid, c0)
    before = r["parent_before_first_task_cpu_s"]
    shared = (before + sum(first.values())) / cores
    free = sorted(max(before, c, shared) for c in first.values())
    start = max(free)
    for key, _pid, c0, c1, _t0, _t1 in jobs:
        cpu = (files_cpu or {}).get(key, c1 - c0)
        i = free.index(min(free))
        free[i] += cpu
    files_end = max(free)
    night_workers = max(0.0, r["children_cpu_s"] - sum(max(c1 for _k, p, _c0, c1, _a, _b in jobs if p == pid)
                                                        for pid in first))  # fmt: skip
    return {
        "schedule_cpu_s": files_end + r["parent_manifest_cpu_s"] + r["night_cpu_s"] + night_workers / len(first),
        "schedule_start_cpu_s": start,
        "schedule_imbalance_cpu_s": files_end - min(free),
    }


def files_cpu(r: dict[str, Any]) -> dict[str, float]:
    """Each file's CPU seconds in a run, by file key (runs that kept their jobs)."""
    return {key: c1 - c0 for key, _pid, c0, c1, _t0, _t1 in (r.get("jobs") or [])}


def uncontended(one: dict[str, Any], many: dict[str, Any]) -> float:
    """The 2-worker critical path with the files at the one-worker run's CPU (``one``): what is left
    once the machine's own loss (two processes running slower than one, the control loop's part) is
    taken out - the serial and idle part of the run plus the files' CPU split evenly."""
    return float(many["serial_cpu_s"] + one["files_cpu_s"] / many["workers"])


def phases(src: Path, store: Path, workers: int, code: Path | None = None, seed: Path | None = None) -> dict[str, Any]:
    """One run of ``run_batch`` (as ``hhaudit batch`` runs it) in a fresh process, with its phases
    timed (:class:`auditor.batch.runner.Timings`): the batch process's CPU seconds in each phase, the
    night pass's CPU and wall seconds, each worker's CPU seconds, when the first and last results came.
    ``code``: another checkout's ``auditor`` (one that has ``Timings``) instead of this one; ``seed``: a
    store the run starts from (copied), e.g. one with a history of earlier nights, instead of none."""
    if seed is not None:
        shutil.copytree(seed, store)
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    p = subprocess.run([sys.executable, "-c", _PHASES, str(src), str(store), str(workers)], capture_output=True,
                       text=True, check=True, env=env, cwd=code)  # fmt: skip
    d = json.loads(p.stdout.splitlines()[-1])
    m = {k: tuple(v) for k, v in d["marks"].items()}

    def cpu(a: str, b: str) -> float:
        return float(m[b][0] - m[a][0])

    def wall(a: str, b: str) -> float:
        return float(m[b][1] - m[a][1])

    return {
        "workers": workers,
        "code": str(code) if code is not None else "this checkout",
        "exit": d["exit"],
        "parent_cpu_s": m["end"][0],  # the batch process, start-up included
        "parent_before_first_task_cpu_s": m["submit"][0],  # imports, lock, manifest, listing
        "parent_results_cpu_s": cpu("submit", "results"),  # while the workers run
        "parent_manifest_cpu_s": cpu("results", "manifest"),
        "night_cpu_s": cpu("manifest", "night"),
        "night_wall_s": wall("manifest", "night"),
        "after_last_result_wall_s": m["end"][1] - (d["last_result"] or m["results"][1]),
        "wall_s": m["end"][1] - d["t0"],
        "worker_cpu_s": sorted(d["worker_cpu"], reverse=True),
        "results": d.get("results", []),
        "jobs": d.get("jobs", []),
        "children_cpu_s": d.get("children_cpu", 0.0),
        "reaped_wall_s": m["reaped"][1] - m["end"][1],  # the workers' exit, waited for
    }


_WORKER = """
import json, sys, time
c0 = time.process_time()  # the interpreter's own start-up
from auditor.batch import engines
engines._warm()  # what a pool worker does when it starts (engines._init_worker)
c1 = time.process_time()
from datetime import UTC, datetime
from auditor import __version__
from auditor.batch import store as S
from auditor.batch.work import FileTask, audit_file
marks = []
for store in sys.argv[2:]:
    path = sys.argv[1]
    task = FileTask(path, S.file_key(path), "2026-12-01", store, "", __version__, "bench", datetime.now(UTC))
    r = audit_file(task)
    assert r.status == "audited", r.error
    marks.append(time.process_time())
print(json.dumps({"interpreter": c0, "warm": c1, "files": marks}))
"""


def worker_startup(path: Path, root: Path, code: Path | None = None) -> dict[str, float]:
    """A pool worker's start-up in CPU seconds, in a fresh process: the interpreter, the worker's
    warm-up (:func:`auditor.batch.engines._warm`: imports, format cards, header detector), then the
    same file audited twice into two new stores; the first file's one-off work is the first audit's
    CPU less the second's (grammar, pokerkit's tables, first calls).  ``code``: another checkout."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    stores = [str(Path(tempfile.mkdtemp(dir=root)) / "store") for _ in range(2)]
    p = subprocess.run([sys.executable, "-c", _WORKER, str(path), *stores], capture_output=True, text=True,
                       check=True, env=env, cwd=code)  # fmt: skip
    for s in stores:
        shutil.rmtree(Path(s).parent)
    d = json.loads(p.stdout.splitlines()[-1])
    first, second = d["files"][0] - d["warm"], d["files"][1] - d["files"][0]
    return {
        "interpreter_cpu_s": d["interpreter"],
        "warm_cpu_s": d["warm"] - d["interpreter"],
        "first_file_extra_cpu_s": first - second,
        "file_cpu_s": second,
        "startup_cpu_s": d["files"][0] - second,  # at its first result, less one file's CPU
    }


_PAIRED = """
import json, os, sys, time
from datetime import UTC, datetime
from auditor.batch import engines
engines._init_worker()  # a pool worker's start-up (its polars threads, the warm-up)
from auditor import __version__
from auditor.batch import store as S
from auditor.batch.work import FileTask, audit_file
store = sys.argv[1]
print(json.dumps({"ready": time.process_time()}), flush=True)
for n, line in enumerate(sys.stdin):
    path = line.strip()
    c0 = time.process_time()
    task = FileTask(path, S.file_key(path), "2026-12-01", f"{store}-{n}", "", __version__, "bench", datetime.now(UTC),
                    stage=f"{store}-{n}")
    os.makedirs(task.store, exist_ok=True)
    r = audit_file(task)
    assert r.status == "audited", r.error
    print(json.dumps({"cpu": time.process_time() - c0}), flush=True)
"""


def contention(paths: Sequence[Path], root: Path, rounds: int) -> dict[str, Any]:
    """The files' CPU when two workers run at once against one at a time (issue 16, s14-batch): two
    processes started as a pool worker is (:func:`auditor.batch.engines._init_worker`) audit the same
    files, each into stores of its own, in lockstep: in a "together" round both get each file at
    once (as the two workers of a 2-worker batch), in an "alone" round one after the other (the other
    waits: as the one worker of a 1-worker batch); the rounds alternate, so a slow spell of the
    machine hits both.  The per-file CPU of the two kinds of rounds (each process's first file left
    out: its one-off work) is what the machine's two cores cost this workload: the same code, the
    same files, only the other core's neighbour differs.  The 2-worker critical path grows by that
    ratio on the files' part, whatever the batch's code does around them."""
    kinds: dict[str, list[float]] = {"together": [], "alone": []}
    env = {k: v for k, v in os.environ.items() if k != "HHAUDIT_BATCH_PARENT"}  # (_init_worker checks its parent)
    for rnd in range(2 * rounds):
        kind = "together" if rnd % 2 == 0 else "alone"
        ps = [subprocess.Popen([sys.executable, "-c", _PAIRED, str(root / f"paired-{rnd}-{i}")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env) for i in range(2)]  # fmt: skip
        for p in ps:
            assert p.stdout is not None
            json.loads(p.stdout.readline())
        cpu = 0.0
        for n, path in enumerate(paths):
            for p in ps:
                assert p.stdin is not None and p.stdout is not None
                p.stdin.write(f"{path}\n")
                p.stdin.flush()
                if kind == "alone":
                    c = json.loads(p.stdout.readline())["cpu"]
                    cpu += c if n else 0.0
            if kind == "together":
                for p in ps:
                    assert p.stdout is not None
                    c = json.loads(p.stdout.readline())["cpu"]
                    cpu += c if n else 0.0
        for p in ps:
            assert p.stdin is not None
            p.stdin.close()
            p.wait()
        for d in root.glob(f"paired-{rnd}-*"):
            shutil.rmtree(d, ignore_errors=True)
        kinds[kind].append(cpu)
        print(f"  contention round {rnd + 1}: {kind} {cpu:.2f} CPU s", flush=True)
    together, alone = sum(kinds["together"]), sum(kinds["alone"])
    return {"together_cpu_s": kinds["together"], "alone_cpu_s": kinds["alone"], "ratio": together / alone,
            "files": len(paths) - 1}  # fmt: skip


def last_run(store: Path) -> dict[str, Any]:
    from auditor.batch import store as S

    return S.scan(str(store), "runs").collect().sort("started_at").row(-1, named=True)


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(src: Path, store: Path, workers: int, hands: int, rerun: bool = False) -> dict[str, Any]:
    r = run_batch(src, store, workers)
    log = last_run(store)
    r.update(
        hands=log["hands_seen"],
        files=log["files_audited"],
        findings=log["findings"],
        workers=workers,
        hands_per_s=log["hands_seen"] / r["seconds"],
        store_mib=du(store) / 2**20,
    )
    if log["hands_seen"] != hands or r["exit"] != 0:
        raise SystemExit(f"unexpected run: {log['hands_seen']} hands of {hands}, exit {r['exit']}: {log['errors']}")
    if rerun:
        again = run_batch(src, store, workers)
        log2 = last_run(store)
        r["rerun"] = {
            "seconds": again["seconds"],
            "skipped": log2["files_skipped"],
            "hands": log2["hands_seen"],
            "peak_rss_max_mib": again["peak_rss_max_mib"],
        }
    return r


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument(
        "--speed", type=int, default=20_000, metavar="HANDS", help="hands of the 1-vs-2-workers comparison (0: skip it)"
    )
    ap.add_argument("--workers", default="1,2", help="worker counts compared (default 1,2)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each worker count, the best is kept (1)")
    ap.add_argument("--rss", default="100000", metavar="N,N", help="input sizes whose peak RSS is measured")
    ap.add_argument("--rss-workers", type=int, default=1, help="workers of the RSS runs (default 1)")
    ap.add_argument("--hands-per-file", type=int, default=1000)
    ap.add_argument("--tmp", help="directory for the generated input and stores (default: the system's)")
    ap.add_argument(
        "--phases",
        type=int,
        default=0,
        metavar="HANDS",
        help="time the phases of one run per worker count on HANDS hands (CPU seconds; 0: skip)",
    )
    ap.add_argument("--previous", metavar="DIR", help="with --phases: also time the checkout DIR (it must have "
                    "auditor.batch.runner.Timings), alternating with this one")  # fmt: skip
    ap.add_argument("--seed-store", metavar="DIR", help="with --phases: start each run from a copy of this store "
                    "(e.g. `hhaudit batch CORPUS --store DIR --night 2026-11-30`: a store with a history)")  # fmt: skip
    ap.add_argument("--worker-startup", type=int, default=0, metavar="N",
                    help="a pool worker's start-up, N fresh processes (with --previous: alternating)")  # fmt: skip
    ap.add_argument("--contention", type=int, default=0, metavar="FILES",
                    help="the files' CPU with two workers at once against one at a time, FILES files in lockstep "
                    "(--repeat rounds of each)")  # fmt: skip
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    if not Path(args.corpus).is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    texts = hand_texts(args.corpus)
    result: dict[str, Any] = {
        "environment": common.environment(),
        "corpus_hands": len(texts),
        "hands_per_file": args.hands_per_file,
        "speed": [],
        "rss": [],
        "phases": [],
    }
    print(
        f"{len(texts):,} PokerStars corpus hands, repeated with fresh ids, {args.hands_per_file:,} hands per file; "
        f"{os.cpu_count()} CPU(s)"
    )
    root = Path(tempfile.mkdtemp(prefix="bench_batch_", dir=args.tmp))
    try:
        if args.speed:
            src = root / f"in-{args.speed}"
            nbytes = generate(src, args.speed, args.hands_per_file, texts)
            counts = [int(x) for x in args.workers.split(",")]
            best: dict[int, dict[str, Any]] = {}
            controls: list[dict[str, float]] = []
            rounds: list[dict[str, float]] = []
            for rep in range(args.repeat):  # alternate the worker counts: a slow spell hits both
                seconds: dict[int, float] = {}
                # odd rounds run the counts in reverse: a spell that slows the machine's second half of
                # a round does not always fall on the same worker count
                for w in counts if rep % 2 == 0 else counts[::-1]:
                    store = root / f"store-speed-{w}-{rep}"
                    r = measure(src, store, w, args.speed)
                    r["input_mib"] = nbytes / 2**20
                    result["speed"].append(r)
                    seconds[w] = r["seconds"]
                    print(f"  {w} worker(s): {r['seconds']:.1f} s, CPU {r['cpu_s']:.1f} s", flush=True)
                    if w not in best or r["seconds"] < best[w]["seconds"]:
                        best[w] = r
                    shutil.rmtree(store)
                if len(counts) >= 2:  # the machine's own 2-process gain, measured between the runs
                    controls.append(machine_scaling())
                    pair = seconds[counts[0]] / seconds[counts[1]]
                    rounds.append({"ratio": pair, "control": controls[-1]["ratio"]})
                    print(f"  control: {controls[-1]['ratio']:.2f}; this round's ratio {pair:.2f}", flush=True)
            rows = [
                [
                    f"{w} worker(s)",
                    r["hands"],
                    r["seconds"],
                    r["hands_per_s"],
                    r["cpu_s"],
                    r["hands"] / r["cpu_s"] if r["cpu_s"] else 0.0,
                    r["peak_rss_max_mib"],
                    r["peak_rss_sum_mib"],
                ]
                for w, r in best.items()
            ]
            print()
            print(
                common.format_table(
                    [f"run (best of {args.repeat})", "hands", "s", "hands/s", "CPU s", "hands/CPU s", "RSS max MiB",
                     "RSS sum MiB"],
                    rows,
                )
            )  # fmt: skip
            if len(counts) >= 2:
                ratio = best[counts[1]]["hands_per_s"] / best[counts[0]]["hands_per_s"]
                result["ratio"] = ratio
                # the control of the same moments: best 1-process and best 2-process loop times
                one = min(c["one_s"] for c in controls)
                two = min(c["two_s"] for c in controls)
                ctl = result["machine_scaling"] = {"one_s": one, "two_s": two, "ratio": 2 * one / two,
                                                   "runs": controls}  # fmt: skip
                print(
                    f"ratio {counts[1]} / {counts[0]} workers: {ratio:.2f} (a pure-Python loop in 2 processes "
                    f"against 1 on this machine, best of {len(controls)} measured between the runs: "
                    f"{ctl['ratio']:.2f}; ratio / control {ratio / ctl['ratio']:.2f})"
                )
                result["rounds"] = rounds
                if len(rounds) >= 2:  # each round's own ratio against its own control (paired)
                    pr = [x["ratio"] for x in rounds]
                    pc = [x["ratio"] / x["control"] for x in rounds]
                    print(
                        f"paired, {len(rounds)} rounds (each round's {counts[1]}- and {counts[0]}-worker runs and the "
                        f"control after them): ratio median {statistics.median(pr):.2f} (best {max(pr):.2f}); "
                        f"ratio / control median {statistics.median(pc):.2f}; control "
                        + ", ".join(f"{x['control']:.2f}" for x in rounds)
                    )
            shutil.rmtree(src)
        if args.phases:
            src = root / f"in-phases-{args.phases}"
            generate(src, args.phases, args.hands_per_file, texts)
            prow = []
            codes: list[Path | None] = [None] if not args.previous else [Path(args.previous).resolve(), None]
            for rep in range(args.repeat):
                for w, code in ((int(x), c) for x in args.workers.split(",") for c in codes):
                    seed = Path(args.seed_store) if args.seed_store else None
                    r = phases(src, root / f"store-phases-{w}-{rep}", w, code, seed)
                    r.update(projected(r))
                    r.update(idle(r))
                    r.update(schedule(r))
                    result["phases"].append(r)
                    shutil.rmtree(root / f"store-phases-{w}-{rep}")
                    label = f"{w} worker(s)" + ("" if code is None else " previous")
                    prow.append([label, r["parent_cpu_s"], r["parent_before_first_task_cpu_s"],
                                 r["parent_results_cpu_s"], r["parent_manifest_cpu_s"], r["night_cpu_s"],
                                 r["night_wall_s"], r["after_last_result_wall_s"],
                                 " + ".join(f"{c:.1f}" for c in r["worker_cpu_s"]),
                                 r.get("worker_startup_cpu_s", 0.0), r.get("imbalance_cpu_s", 0.0),
                                 r.get("night_workers_cpu_s", 0.0), r["critical_cpu_s"], r["wall_s"]])  # fmt: skip
                    print(f"  phases, {w} worker(s): done", flush=True)
            print()
            head = [f"{args.phases:,} hands", "batch CPU s", "before 1st task", "collecting", "manifest",
                    "night CPU s", "night wall s", "after last result (wall s)", "workers' CPU s",
                    "worker start-up", "imbalance", "night on workers", "critical path CPU s",
                    "wall s"]  # fmt: skip
            print(common.format_table(head, prow))
            print()
            srow = [[f"{r['workers']} worker(s)" + ("" if r["code"] == "this checkout" else " previous"),
                     r["serial_before_cpu_s"], r["serial_between_cpu_s"], r["serial_after_cpu_s"],
                     r.get("idle_between_s", ""), r.get("idle_end_s", ""), r["reaped_wall_s"],
                     r.get("schedule_start_cpu_s", ""), r.get("schedule_imbalance_cpu_s", ""), r["schedule_cpu_s"]]
                    for r in result["phases"]]  # fmt: skip
            print(common.format_table([f"{args.phases:,} hands", "batch CPU before 1st file", "while files run",
                                       "after last result", "workers idle between files (wall s)",
                                       "workers idle at the end (wall s)", "workers' exit (wall s)",
                                       "schedule: files start", "schedule: imbalance",
                                       "schedule: critical path CPU s"], srow))  # fmt: skip
            best_r: dict[tuple[int, str], dict[str, Any]] = {}
            for r in result["phases"]:
                k = (r["workers"], r["code"])
                if k not in best_r or r["critical_cpu_s"] < best_r[k]["critical_cpu_s"]:
                    best_r[k] = r
            for code_label in dict.fromkeys(c for _w, c in best_r):
                ws = sorted(w for w, c in best_r if c == code_label)
                if len(ws) >= 2:
                    r1, rn = best_r[(ws[0], code_label)], best_r[(ws[-1], code_label)]
                    one, many = r1["critical_cpu_s"], rn["critical_cpu_s"]
                    line = (f"projected {ws[-1]} / {ws[0]} workers ({code_label}), best of {args.repeat}: critical "
                            f"path {one:.2f} / {many:.2f} CPU s = {one / many:.3f}")  # fmt: skip
                    if "serial_cpu_s" in rn:
                        u = uncontended(r1, rn)
                        line += (f"; serial and idle part {rn['serial_cpu_s']:.2f} CPU s, with the files at the "
                                 f"one-worker rate ({r1['files_cpu_s']:.2f} CPU s) {one:.2f} / {u:.2f} = "
                                 f"{one / u:.3f}")  # fmt: skip
                    print(line)
                    sched = schedule(rn, files_cpu(r1))
                    many_s, alone_s = rn["schedule_cpu_s"], sched["schedule_cpu_s"]
                    print(
                        f"  schedule ({code_label}): {one:.2f} / {many_s:.2f} CPU s = {one / many_s:.3f}; with the "
                        f"files at the one-worker run's CPU {one:.2f} / {alone_s:.2f} = {one / alone_s:.3f}"
                    )
                    result.setdefault("projected", []).append({"code": code_label, "ratio": one / many,
                        "uncontended_ratio": one / uncontended(r1, rn) if "serial_cpu_s" in rn else None,
                        "schedule_ratio": one / rn["schedule_cpu_s"],
                        "schedule_uncontended_ratio": one / sched["schedule_cpu_s"]})  # fmt: skip
            shutil.rmtree(src)
        if args.worker_startup:
            src = root / "in-worker-startup"
            generate(src, args.hands_per_file, args.hands_per_file, texts)
            (path,) = sorted(src.glob("*.txt"))
            codes = [None] if not args.previous else [Path(args.previous).resolve(), None]
            runs: dict[str, list[dict[str, float]]] = {}
            for i in range(args.worker_startup + 1):  # the first of each: a warm-up (bytecode, caches)
                for code in codes:
                    r = worker_startup(path, root, code)
                    if i:
                        runs.setdefault("previous" if code is not None else "this checkout", []).append(r)
            result["worker_startup"] = runs
            print()
            wrows = []
            for label, rs in runs.items():
                row: list[Any] = [label]
                for k in ("startup_cpu_s", "interpreter_cpu_s", "warm_cpu_s", "first_file_extra_cpu_s", "file_cpu_s"):
                    vs = sorted(r[k] for r in rs)
                    row.append(f"{vs[0]:.3f} / {vs[len(vs) // 2]:.3f}")
                wrows.append(row)
            print(common.format_table([f"worker start-up, {len(path.read_text().split(chr(10) * 3)) - 1:,} hands "
                                       f"(CPU s, min / median of {args.worker_startup})", "start-up", "interpreter",
                                       "imports and warm-up", "first file's extra", "one file"], wrows))  # fmt: skip
            shutil.rmtree(src)
        if args.contention:
            src = root / "in-contention"
            generate(src, args.contention * args.hands_per_file, args.hands_per_file, texts)
            c = result["contention"] = contention(sorted(src.glob("*.txt")), root, args.repeat)
            print(f"contention: the files' CPU with two workers at once / one at a time, {c['files']} files x 2 "
                  f"processes, {args.repeat} round(s) of each: {sum(c['together_cpu_s']):.2f} / "
                  f"{sum(c['alone_cpu_s']):.2f} = {c['ratio']:.3f}")  # fmt: skip
            shutil.rmtree(src)
        rows = []
        for n in (int(x) for x in args.rss.split(",") if x.strip() and int(x)):
            src = root / f"in-{n}"
            nbytes = generate(src, n, args.hands_per_file, texts)
            store = root / f"store-rss-{n}"
            r = measure(src, store, args.rss_workers, n, rerun=True)
            r["input_mib"] = nbytes / 2**20
            result["rss"].append(r)
            rows.append(
                [
                    f"{n:,} hands",
                    r["files"],
                    r["input_mib"],
                    r["seconds"],
                    r["hands_per_s"],
                    r["peak_rss_max_mib"],
                    r["peak_rss_sum_mib"],
                    r["store_mib"],
                    r["rerun"]["seconds"],
                ]
            )
            shutil.rmtree(src)
            shutil.rmtree(store)
            print(f"{n:,} hands done: {r['seconds']:.0f} s, peak RSS {r['peak_rss_max_mib']:.0f} MiB", flush=True)
        if rows:
            print()
            print(
                common.format_table(
                    ["input", "files", "MiB", "s", "hands/s", "RSS max MiB", "RSS sum MiB", "store MiB", "rerun s"],
                    rows,
                )
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        common.write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
