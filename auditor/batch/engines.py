"""Where :func:`~auditor.batch.work.audit_file` runs: in-process, a local process pool, or Dask.

Every engine is a generator ``run_*(tasks, ...)`` of :class:`~auditor.batch.work.FileResult`,
yielding results as files finish (in any order: the store's content does not depend on it).
Engines keep at most a few tasks per worker in flight, so neither the task list nor the results
pile up in a queue, and a file that cannot be audited - even one whose worker process dies -
becomes an ``error`` result instead of stopping the batch.

* ``serial``: ``audit_file`` in this process, one file after the other (``--workers 1``).
* ``pool``: a :class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start method
  (no fork of a process that runs polars' threads).  On Linux each worker asks the kernel to kill
  it when the batch process dies (``PR_SET_PDEATHSIG``), so a killed run leaves no worker behind
  still writing to the store.
* ``dask``: a ``dask.distributed`` client on an existing scheduler (``--scheduler ADDRESS``), or
  on a :class:`distributed.LocalCluster` started for the run (``--scheduler local``).  The store
  must be a directory every worker can write (a shared filesystem), and the workers must run the
  same hhaudit version (a worker running another one refuses the task).
"""

from __future__ import annotations

import atexit
import gc
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the per-file step imports polars: imported when a file is audited, not with the engines
    from auditor.batch.work import FileResult, FileTask

#: How long the Dask client waits for the scheduler before the run fails.
CONNECT_TIMEOUT = "30s"
#: polars' threads in a pool worker (``POLARS_MAX_THREADS``, unless the user set it; issue 16): the
#: pool's processes already keep every core busy, and a worker's extra polars threads only compete
#: with the other workers for them (one file's frames and Parquet parts are small: ~1.3 % less CPU a
#: file with two workers at once, ``benchmarks/README.md`` s14-batch).  The batch process and the
#: serial engine keep polars' default.
WORKER_THREADS = "1"


Results = Generator["FileResult", None, None]
T = TypeVar("T")


class EngineError(RuntimeError):
    """The engine cannot start (Dask missing, scheduler unreachable): the run fails with status 2."""


def _failed(task: FileTask, message: str) -> FileResult:
    from auditor.batch.work import FileResult

    return FileResult(task.path, task.key, "error", error=message)


def run_serial(tasks: Iterable[FileTask]) -> Results:
    """Audit the files one after the other in this process."""
    from auditor.batch.work import audit_file

    for task in tasks:
        yield audit_file(task)


def _init_worker() -> None:
    """Pool worker start-up: leave Ctrl-C to the batch process, and die with it (Linux); at its exit,
    skip collecting the heap (issue 16: ~0.1 s of CPU a worker, while the batch process waits for its
    workers to end; everything a worker writes is committed and closed with each file, see
    :func:`auditor.cli.quick_exit`); polars with :data:`WORKER_THREADS` threads (set before
    :func:`_warm` imports it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if "polars" not in sys.modules:  # (polars reads it once, when it is imported)
        os.environ.setdefault("POLARS_MAX_THREADS", WORKER_THREADS)
    atexit.register(gc.freeze)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the worker ends with its queue
            pass
    parent = os.environ.get("HHAUDIT_BATCH_PARENT")
    if parent and os.getppid() != int(parent):  # the batch died before prctl took effect
        os._exit(1)
    _warm()


def _warm() -> None:
    """What every file needs, loaded while the batch process still prepares the run (issue 16: the
    workers' start-up overlaps the parent's instead of following it): the per-file step's modules,
    the format cards and the hand-header detector (from the disk cache)."""
    try:
        import auditor.batch.work  # noqa: F401  # polars, the store, the audit step
        from auditor.formats import REGISTRY

        _ = REGISTRY.detector, REGISTRY.preamble, REGISTRY.separator_line
    except Exception:  # only a head start: the file's own task meets (and reports) it
        pass


def _nothing() -> None:
    """A task that only makes the pool start a worker process."""


def _new_pool(workers: int) -> ProcessPoolExecutor:
    ctx = multiprocessing.get_context("spawn")
    os.environ["HHAUDIT_BATCH_PARENT"] = str(os.getpid())
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker)


class Pool:
    """The process-pool engine, its processes started (and warmed up, :func:`_warm`) as soon as it
    is made, so that they start while the batch process takes the lock, reads the manifest and
    lists the files; :meth:`close` stops them when the run does not start."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = _new_pool(workers)
        for _ in range(workers):  # one submit per process: the pool starts them all now
            self.pool.submit(_nothing)

    def __call__(self, tasks: Iterable[FileTask]) -> Results:
        pool, self.pool = self.pool, None
        return run_pool(tasks, self.workers, pool, owner=self)

    def executor(self) -> ProcessPoolExecutor | None:
        """The pool's processes after every file was done, for the night's cross-hand pass (issue
        16: its partitions are checked on the workers instead of after them, in this process);
        None before the files are handed out or after a failure (they were stopped)."""
        return self.pool

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


def run_pool(
    tasks: Iterable[FileTask], workers: int, pool: ProcessPoolExecutor | None = None, owner: Pool | None = None
) -> Results:
    """Audit the files in a pool of ``workers`` processes (``pool``, or a new one), at most two
    tasks per worker in flight.  With ``owner``, a pool that did every file is handed back to it
    (``owner.pool``: its :meth:`Pool.close` stops it) instead of being stopped."""
    from auditor.batch.work import audit_file

    it = iter(tasks)
    limit = 2 * workers
    pool = pool if pool is not None else _new_pool(workers)
    pending: dict[Future[FileResult], FileTask] = {}
    finished = False
    try:
        while True:
            while len(pending) < limit:
                task = next(it, None)
                if task is None:
                    break
                pending[pool.submit(audit_file, task)] = task
            if not pending:
                finished = True
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for fut in done:
                task = pending.pop(fut)
                try:
                    yield fut.result()
                except BrokenProcessPool:
                    broken = True
                    yield _failed(task, "a worker process died while this file was being audited")
                except Exception as e:  # the task or its result could not be pickled, ...
                    yield _failed(task, f"the worker could not run this file: {type(e).__name__}: {e}")
            if broken:
                # Every task still in flight is lost with the pool: record them, start a new pool.
                for task in list(pending.values()):
                    yield _failed(task, "a worker process died while this file was being audited")
                pending.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = _new_pool(workers)
    finally:
        if finished and owner is not None:
            owner.pool = pool
        else:
            pool.shutdown(wait=False, cancel_futures=True)


def run_dask(tasks: Iterable[FileTask], scheduler: str, workers: int = 1) -> Results:
    """Audit the files on a dask.distributed cluster (``scheduler`` address, or ``local``), closing
    the client when done (:class:`auditor.batch.dask_engine.DaskEngine` keeps it for the night pass)."""
    from auditor.batch.dask_engine import DaskEngine

    eng = DaskEngine(scheduler, workers)
    try:
        yield from eng(tasks)
    finally:
        eng.close()


class InProcess(Executor):
    """An executor that runs each call in this process as it is submitted (the night pass's
    executor without a pool: the serial engine, Dask)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        f: Future[T] = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:
            f.set_exception(e)
        return f


Runner = Callable[[Iterable["FileTask"]], Results]


def engine(name: str, workers: int, scheduler: str | None) -> Runner:
    """The engine for ``--engine NAME --workers N --scheduler ADDRESS``."""
    if name == "dask":
        if not scheduler:
            raise EngineError("--engine dask needs --scheduler ADDRESS (or --scheduler local)")
        from auditor.batch.dask_engine import DaskEngine  # the client stays open for the night pass

        return DaskEngine(scheduler, workers)
    if name != "local":
        raise EngineError(f"unknown engine {name!r} (local or dask)")
    if workers <= 1:
        return run_serial
    return Pool(workers)
