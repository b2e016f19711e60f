"""One batch run: list the sources, clean up after a killed run, audit what changed, log the run.

:func:`run_batch` is ``hhaudit batch``.  In order:

1. check the arguments (exit status 2 on a usage error: missing source, unknown profile, bad
   night, engine without scheduler);
2. take the store lock (a second batch on the same store exits with status 2, it never waits);
3. write this run's row to the run log with status ``running`` (and mark rows of earlier runs
   still ``running`` - killed, since the lock was free - as ``interrupted``);
4. load the manifest and :func:`~auditor.batch.store.collect_garbage`: uncommitted parts of a
   killed run are deleted before anything is written;
5. list the files (as ``hhaudit audit`` does: recursive, sorted, sidecars skipped) and hand one
   :class:`~auditor.batch.work.FileTask` per file to the engine (with several workers, the largest
   files first); unchanged files come back ``skipped`` after hashing, without being parsed;
6. compact the manifest; run the cross-hand pass over the store (:mod:`auditor.batch.crosshand`:
   continuity of each table's hands, this night against the last hands of the nights before, and
   hand ids found in several files or nights), written to ``crosshand/night=N/``, in partitions of
   bounded size whose results are spilled to files and merged range by range (issue 16: the
   memory of a few partitions, not of the night).  With a local pool or a Dask cluster the pass
   runs on its workers too (the night's partitions and the findings' rows), from the hands parts
   the workers staged as they wrote them (``crosshand-stage-*``, removed after it);
7. rewrite the run row (``complete``, with every count), print the summary.

Exit status: 2 when a file could not be audited (it is recorded and the batch went on) or on a
usage or I/O error; else 1 when a file audited in this run has a finding at or above
``fail_on``; else 0.  Files skipped as unchanged were judged on the night they were audited.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

import polars as pl

from auditor import __version__
from auditor.batch import DEFAULT_BATCH_SIZE
from auditor.batch import store as S
from auditor.batch.engines import EngineError, Runner, engine
from auditor.batch.progress import Progress, duration
from auditor.batch.work import FileResult, FileTask
from auditor.findings import Severity
from auditor.ingest import display_path, expand_paths
from auditor.profiles import PROFILES

#: Test hook: seconds every worker sleeps after each Parquet part it writes (to kill a run mid-file).
PAUSE_ENV = "HHAUDIT_BATCH_PAUSE"
#: Files done between two compactions of their manifest rows (one ``m-`` file per this many files).
COMPACT_EVERY = 500
MAX_ERRORS_LOGGED = 50


@dataclass
class Timings:
    """Where a run's time goes, for ``benchmarks/bench_batch.py --phases``: at each mark, this
    process's CPU seconds since it started (its threads included) and the wall clock; for each
    worker process, its CPU seconds at its last result (start-up included); for each file, when its
    worker took it and was done with it (the worker's idle time is between its files)."""

    marks: dict[str, tuple[float, float]] = field(default_factory=dict)  # name: (process CPU s, monotonic s)
    first_result: float | None = None  # monotonic s
    last_result: float | None = None
    worker_cpu: dict[int, float] = field(default_factory=dict)
    results: list[tuple[int, float, float]] = field(default_factory=list)  # (worker pid, its CPU s, monotonic s)
    # (file key, worker pid, its CPU s when it took the file and when it was done, monotonic s then and then)
    jobs: list[tuple[str, int, float, float, float, float]] = field(default_factory=list)

    def mark(self, name: str) -> None:
        self.marks[name] = (time.process_time(), time.monotonic())

    def result(self, r: FileResult) -> None:
        now = time.monotonic()
        if self.first_result is None:
            self.first_result = now
        self.last_result = now
        if r.pid:
            self.worker_cpu[r.pid] = max(self.worker_cpu.get(r.pid, 0.0), r.cpu)
            self.results.append((r.pid, r.cpu, now))
            self.jobs.append((r.key, r.pid, r.cpu_started, r.cpu, r.started, r.ended))


class UsageError(ValueError):
    """A bad argument: the run does not start (exit status 2)."""


@dataclass
class Options:
    """The arguments of ``hhaudit batch``."""

    sources: Sequence[str]
    store: str
    rules: str = ""
    engine: str = "local"
    workers: int = 1
    scheduler: str | None = None
    night: str | None = None  # default: today's local date
    batch_size: int = DEFAULT_BATCH_SIZE
    fail_on: Severity | None = Severity.ERROR
    progress: str = "auto"  # auto (bar on a terminal, else log), bar, log, none
    log_interval: float = 30.0


@dataclass
class Tally:
    """The counts of one run (what the summary prints and the run log stores)."""

    files_seen: int = 0
    audited: int = 0
    replaced: int = 0
    skipped: int = 0
    errors: int = 0
    hands_seen: int = 0
    hands_parsed: int = 0
    hands_failed: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    worst: int = 0
    messages: list[str] = field(default_factory=list)
    garbage_removed: int = 0
    crosshand: Counter[str] = field(default_factory=Counter)  # the cross-hand pass's findings, by code

    @property
    def findings(self) -> int:
        return sum(self.by_code.values())

    def add(self, r: FileResult) -> None:
        if r.status == "skipped":
            self.skipped += 1
            return
        if r.status == "error":
            self.errors += 1
            if len(self.messages) < MAX_ERRORS_LOGGED:
                self.messages.append(f"{r.path}: {r.error}")
            return
        self.audited += 1
        self.replaced += r.replaced
        self.hands_seen += r.hands_seen
        self.hands_parsed += r.hands_parsed
        self.hands_failed += r.hands_failed
        self.by_code.update(r.by_code)
        self.worst = max(self.worst, r.worst)


def check(opts: Options) -> str:
    """Validate ``opts``; returns the night.  Raises :class:`UsageError`."""
    if not opts.sources:
        raise UsageError("no SOURCE given")
    for s in opts.sources:
        if s == "-":
            raise UsageError("batch reads files and directories, not standard input")
        if not os.path.exists(s):
            raise UsageError(f"cannot read {s}: no such file or directory")
    if opts.rules and opts.rules not in PROFILES:
        raise UsageError(f"unknown rule profile {opts.rules!r}; choose from {', '.join(PROFILES)}")
    if opts.workers < 1:
        raise UsageError("--workers must be at least 1")
    if opts.batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    if opts.engine not in ("local", "dask"):
        raise UsageError(f"unknown engine {opts.engine!r} (local or dask)")
    if opts.engine == "dask" and not opts.scheduler:
        raise UsageError("--engine dask needs --scheduler ADDRESS (or --scheduler local)")
    if opts.progress not in ("auto", "bar", "log", "none"):
        raise UsageError(f"unknown progress mode {opts.progress!r}")
    if os.path.exists(opts.store) and not os.path.isdir(opts.store):
        raise UsageError(f"--store {opts.store} is not a directory")
    night = opts.night or datetime.now().astimezone().date().isoformat()
    if not S.NIGHT_RE.match(night):
        raise UsageError(f"--night {night!r} is not a date YYYY-MM-DD")
    try:
        datetime.strptime(night, "%Y-%m-%d")
    except ValueError:
        raise UsageError(f"--night {night!r} is not a date YYYY-MM-DD") from None
    return night


def list_files(sources: Sequence[str], special: list[str] | None = None) -> list[tuple[str, int]]:
    """(absolute path, size) of every file under ``sources``, each once, in listing order.

    Special files (FIFOs, devices, sockets, links to them) are never handed to a worker: reading
    one could block the batch forever (and keep the store locked) or never end.  Their paths go
    to ``special``.
    """
    seen: set[str] = set()
    out: list[tuple[str, int]] = []
    for p in expand_paths(sources):
        ap = os.path.abspath(p)
        if ap in seen:
            continue
        seen.add(ap)
        try:
            st = os.stat(ap)
        except OSError:
            out.append((ap, 0))  # the worker records why it cannot be read
            continue
        if not stat.S_ISREG(st.st_mode):
            if special is not None:
                special.append(ap)
            continue
        out.append((ap, st.st_size))
    return out


def _run_row(
    run_id: str, status: str, started: datetime, opts: Options, tally: Tally, exit_status: int | None
) -> dict[str, Any]:
    now = datetime.now(UTC)
    seconds = (now - started).total_seconds()
    return {
        "run_id": run_id,
        "status": status,
        "started_at": started,
        "finished_at": None if status == "running" else now,
        "seconds": None if status == "running" else seconds,
        "hhaudit_version": __version__,
        "profile": S.profile_label(opts.rules),
        "engine": opts.engine,
        "workers": opts.workers,
        "sources": [os.path.abspath(s) for s in opts.sources],
        "files_seen": tally.files_seen,
        "files_audited": tally.audited,
        "files_replaced": tally.replaced,
        "files_skipped": tally.skipped,
        "files_error": tally.errors,
        "hands_seen": tally.hands_seen,
        "hands_parsed": tally.hands_parsed,
        "hands_failed": tally.hands_failed,
        "findings": tally.findings,
        "by_code": json.dumps(dict(sorted(tally.by_code.items()))),
        "crosshand_by_code": json.dumps(dict(sorted(tally.crosshand.items()))),
        "hands_per_s": tally.hands_seen / seconds if seconds > 0 and status != "running" else None,
        "garbage_removed": tally.garbage_removed,
        "errors": tally.messages,
        "exit_status": exit_status,
    }


def _write_run(store: str, night: str, row: dict[str, Any]) -> None:
    S.write_atomic(S.frame([row], S.RUNS), S.run_path(store, night, row["run_id"]))


def _mark_interrupted(store: str, mine: str) -> None:
    """Runs still ``running`` in the log were killed (this run holds the lock): say so."""
    runs = S.scan_raw(store, "runs").filter((pl.col("status") == "running") & (pl.col("run_id") != mine)).collect()
    for row in runs.iter_rows(named=True):
        night = row.pop(S.NIGHT).isoformat()
        row["status"] = "interrupted"
        _write_run(store, night, row)


#: Below this share of the workers, :func:`parallel_bound` is worth a note at the start of a run.
SHARE_NOTE = 0.8


def parallel_bound(sizes: Sequence[int], workers: int) -> float:
    """At most how many times sooner ``workers`` workers can audit files of ``sizes`` bytes than one
    worker, a file being one worker's and its time taken as proportional to its bytes: the total over
    the larger of the largest file and an equal share (1.0 without bytes)."""
    total = sum(sizes)
    if total <= 0 or workers <= 1:
        return 1.0
    return total / max(max(sizes), total / workers)


def summary_line(night: str, run_id: str, t: Tally, seconds: float) -> str:
    """The one-line summary printed at the end of a run."""
    codes = ", ".join(f"{c} {n}" for c, n in sorted(t.by_code.items()))
    rate = f", {t.hands_seen / seconds:,.0f} hands/s" if seconds > 0 and t.hands_seen else ""
    return (
        f"hhaudit batch: night {night}, run {run_id}: {t.files_seen:,} file(s): {t.audited:,} audited "
        f"({t.replaced:,} replaced), {t.skipped:,} skipped unchanged, {t.errors:,} could not be audited; "
        f"{t.hands_seen:,} hands seen, {t.hands_parsed:,} parsed, {t.hands_failed:,} failed{rate}; "
        f"{t.findings:,} finding(s){': ' + codes if codes else ''}; "
        + (
            f"across hands and files: {', '.join(f'{c} {n}' for c, n in sorted(t.crosshand.items()))}; "
            if t.crosshand
            else ""
        )
        + duration(seconds)
    )


def run_batch(
    opts: Options,
    out: TextIO | None = None,
    err: TextIO | None = None,
    runner: Runner | None = None,
    timings: Timings | None = None,
) -> int:
    """Run ``hhaudit batch``; returns the exit status (see the module documentation).  ``runner``:
    the engine, when the caller started it already (a local pool, started before the imports);
    ``timings``: filled with the run's phases (``benchmarks/bench_batch.py --phases``)."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        night = check(opts)
    except UsageError as e:
        print(f"hhaudit: {e}", file=err)
        return 2
    store = os.path.abspath(opts.store)
    try:
        if runner is None:
            runner = engine(opts.engine, opts.workers, opts.scheduler)
        os.makedirs(store, exist_ok=True)
        with S.StoreLock(store):
            return _locked(opts, store, night, runner, out, err, timings if timings is not None else Timings())
    except (S.StoreBusy, EngineError, OSError, pl.exceptions.PolarsError) as e:
        print(f"hhaudit: {e}", file=err)
        return 2
    finally:
        close = getattr(runner, "close", None)  # a pool started early and never used (the store was busy)
        if close is not None:
            close()


def _locked(opts: Options, store: str, night: str, runner: Runner, out: TextIO, err: TextIO, tm: Timings) -> int:
    tm.mark("locked")
    started = datetime.now(UTC)
    run_id = f"{started:%Y%m%dT%H%M%S}Z-{secrets.token_hex(3)}"
    t0 = time.monotonic()
    tally = Tally()
    _mark_interrupted(store, run_id)
    _write_run(store, night, _run_row(run_id, "running", started, opts, tally, None))

    bad_manifests = S.verify_manifest(store)
    known = S.entries(S.load_manifest(store, S.ENTRY_COLUMNS))
    special: list[str] = []
    files = list_files(opts.sources, special)
    tally.files_seen = len(files)
    # no part's footer is read before the first file (issue 16: that grew with the store's history):
    # a listed file's worker reads its committed parts' footers before it skips the file, and a
    # thread of this process those of every other file while the workers run (joined before the
    # night pass, which reads the store)
    cleanup = S.collect_garbage(store, known, footers=False)
    tally.garbage_removed = cleanup.removed_parts
    for key in cleanup.incomplete:
        e = known[key]
        known[key] = S.Entry(e.night, key, e.audit_id, e.sha256, e.hhaudit_version, e.profile, "incomplete",
                             e.hand_parts, e.finding_parts, e.seat_parts)  # fmt: skip
    keys = {path: S.file_key(path) for path, _size in files}
    listed = set(keys.values())
    others = [e for k, e in known.items() if k not in listed and e.status == "ok"]
    corrupt: list[str] = []

    def check_footers() -> None:
        for e in others:
            corrupt.extend(S.remove_unreadable(store, e))

    footers = threading.Thread(target=check_footers, name="hhaudit-footers", daemon=True)
    footers.start()
    for path in special[:MAX_ERRORS_LOGGED]:
        tally.messages.append(f"{display_path(path)}: not a regular file (a FIFO, device or socket): skipped")
    pause = float(os.environ.get(PAUSE_ENV) or 0)

    # with several workers, the largest files first (issue 16): the last file handed out is then a
    # small one, so no worker is left alone on a long file while the others wait (a stable sort:
    # files of one size keep their listing order; the store does not depend on the order)
    order = sorted(files, key=lambda f: -f[1]) if opts.workers > 1 else files

    # the local pool's workers stage each hands part they write as the night pass reads it (issue 16:
    # auditor/batch/nightpass.py stage_part), a folder removed after the night pass (and by the next
    # run's garbage collection if this one is killed)
    stage = tempfile.mkdtemp(prefix="crosshand-stage-", dir=store) if hasattr(runner, "executor") else None

    def tasks() -> Iterator[FileTask]:
        for path, _size in order:
            key = keys[path]
            yield FileTask(path, key, night, store, opts.rules, __version__, run_id, started,
                           opts.batch_size, known.get(key), pause, stage)  # fmt: skip

    mode = opts.progress
    if mode == "auto":
        mode = "bar" if err.isatty() else "log"
    progress = Progress(mode, len(files), sum(s for _p, s in files), err, opts.log_interval)
    where = f"{opts.engine}" + (f" at {opts.scheduler}" if opts.scheduler else "") + f", {opts.workers} worker(s)"
    cleaned = f"; removed {cleanup.removed_parts} uncommitted part(s) left by an interrupted run"
    if bad_manifests:
        cleaned += f"; removed {len(bad_manifests)} unreadable store file(s), their source files are audited again"
    progress.begin(
        f"hhaudit batch: night {night}, run {run_id}: {len(files):,} file(s), "
        f"{sum(s for _p, s in files) / 1e6:,.1f} MB, store {store}, engine {where}"
        + (cleaned if cleanup.removed_parts or bad_manifests else "")
    )
    if opts.workers > 1:
        # a file is one worker's (docs/batch.md): say so when the files to audit cannot keep the
        # workers busy (files audited before may be skipped unchanged: only the others count)
        fresh = [size for path, size in files if (was := known.get(keys[path])) is None or was.status != "ok"]
        bound = parallel_bound(fresh, opts.workers)
        if fresh and bound < SHARE_NOTE * opts.workers:
            progress.note(
                f"hhaudit batch: the largest file to audit is {max(fresh) / 1e6:,.1f} MB of {sum(fresh) / 1e6:,.1f} MB;"
                f" a file is audited by one worker, so {opts.workers} workers can finish at most {bound:.1f}x sooner"
                " than one (exports in smaller files, e.g. per table or day, spread over the workers)"
            )
    status = "complete"
    done: list[str] = []  # manifest files written in this run and not yet compacted
    seq = 0

    def compact() -> None:
        nonlocal seq
        S.compact_rows(store, night, [p for p in done if os.path.exists(p)], f"m-{run_id}-{seq:05d}.parquet")
        done.clear()
        seq += 1

    tm.mark("submit")
    results = runner(tasks())
    try:
        for res in results:
            tm.result(res)
            tally.add(res)
            corrupt += res.corrupt
            progress.update(res)
            if res.status != "skipped":
                done.append(S.manifest_path(store, night, res.key))
                if len(done) >= COMPACT_EVERY:
                    compact()
    except KeyboardInterrupt:
        status = "interrupted"
        progress.message("hhaudit: interrupted; the next run completes the store")
    except EngineError as e:
        status = "failed"
        progress.message(f"hhaudit: {e}")
    except Exception as e:  # the engine broke down (a Dask scheduler lost, ...): log the run as failed
        status = "failed"
        progress.message(f"hhaudit: the {opts.engine} engine failed: {type(e).__name__}: {e}")
    finally:
        results.close()  # stops the pool or the Dask client now, not when garbage collected
        footers.join()
        for path in bad_manifests + corrupt:
            tally.messages.append(f"{display_path(path)}: not a readable Parquet file: removed, its file is "
                                  "audited again")  # fmt: skip
        if corrupt:
            progress.message(f"hhaudit batch: removed {len(corrupt)} unreadable store file(s), their source "
                             "files are audited again")  # fmt: skip
        progress.close()
    tm.mark("results")
    try:
        compact()
        S.compact_manifest(store, run_id)
        tm.mark("manifest")
        if status == "complete":
            # across files and nights: continuity of each table (T-codes), duplicate ids (H001/H005)
            from auditor.batch.crosshand import run_night, worst

            executor = getattr(runner, "executor", None)  # a local pool: the night pass runs on its workers too
            pool = executor() if executor is not None else None
            tally.crosshand = run_night(store, night, pool, opts.workers, stage, err)
            tally.worst = max(tally.worst, worst(tally.crosshand))
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
        close = getattr(runner, "close", None)
        if close is not None:  # the pool's workers (or the cluster) end while this process writes the run log
            close()
    tm.mark("night")
    seconds = time.monotonic() - t0
    if status != "complete" or tally.errors:
        code = 2
    elif opts.fail_on is not None and tally.worst >= int(opts.fail_on):
        code = 1
    else:
        code = 0
    _write_run(store, night, _run_row(run_id, status, started, opts, tally, code))
    if mode != "none":
        print(summary_line(night, run_id, tally, seconds), file=out)
    return code
