"""The Dask engine of ``hhaudit batch`` (``--engine dask``): files, then the night pass, on one cluster.

:class:`DaskEngine` connects to ``--scheduler ADDRESS``, or starts a
:class:`distributed.LocalCluster` of ``--workers`` processes (1 thread each) for the run
(``--scheduler local``), when the first file is handed to it, and keeps the client open until the
run ends (:meth:`DaskEngine.close`, called by :func:`auditor.batch.runner.run_batch`):

* :meth:`DaskEngine.__call__` audits the files as tasks (:func:`auditor.batch.work.audit_file`), at
  most two per worker thread in flight, yielding each :class:`~auditor.batch.work.FileResult` as it
  comes back (a task that fails - a worker killed, a worker without hhaudit - becomes an ``error``
  result, the batch goes on);
* :meth:`DaskEngine.executor` hands the same workers to the night pass as a
  :class:`concurrent.futures.Executor` (:func:`auditor.batch.crosshand.run_night`: each partition
  is a task that reads its files from the store, spills its continuity rows and table tails to
  files under the store and returns only their paths, a few tasks per worker handed out at once;
  a task the cluster cannot run is run in the batch process), so the batch process only lists the
  night's parts and merges the spilled results range by range (issue 16: before, the client was
  closed after the files and every partition was checked in the batch process; then every
  partition's rows came back to it at once).

A cluster started for the run (``--scheduler local``) runs with :data:`LOCAL_CONFIG`: Dask's
diagnostics that cost CPU on every worker while a task runs are off or slowed down (issue 16: the
statistical profiler sampled the running task's stack every 10 ms; the event loops' health checks
and the memory and system monitors woke every 20-500 ms).  On an existing cluster
(``--scheduler ADDRESS``) the workers run with their own configuration, as their operator set it.
"""

from __future__ import annotations

import importlib
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from auditor.batch.work import FileResult, FileTask

T = TypeVar("T")
R = TypeVar("R")

#: Dask settings of a cluster started for the run (``--scheduler local``); handed to the worker
#: processes by their nannies.  What they cost by default was measured with
#: ``benchmarks/bench_dask_batch.py`` (issue 16; 20,000 hands, 2 workers, CPU seconds of the
#: workers / of the batch process, which runs the scheduler, the nannies and the client): Dask's
#: defaults 31.9 / 8.4, without the profiler 27.8 / 5.1, with all of these 26.4 / 3.6; the local
#: process pool 24.7 / 1.4.  None of them changes what is computed.
LOCAL_CONFIG: dict[str, Any] = {
    # the statistical profiler: every 10 ms the running task's stack is walked and folded into a
    # call tree (the audit's stacks are deep: the grammar's parse is recursive)
    "distributed.worker.profile.enabled": False,
    # every server's event-loop health check (20 ms), the system monitor's samples for the
    # dashboard (500 ms) and the memory monitor of each worker and nanny (100 ms)
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


def _distributed() -> Any:
    from auditor.batch.engines import EngineError

    try:
        return importlib.import_module("distributed")  # optional: pip install 'hhaudit[dask]'
    except ImportError:
        raise EngineError("the dask engine needs dask.distributed: pip install 'hhaudit[dask]'") from None


def connect(scheduler: str, workers: int) -> tuple[Any, Any]:
    """(client, cluster or None): a client on ``scheduler``, or on a new local cluster of
    ``workers`` processes of one thread each (``scheduler == "local"``)."""
    from auditor.batch import engines
    from auditor.batch.engines import EngineError

    dd = _distributed()
    cluster: Any = None
    try:
        if scheduler == "local":
            import dask

            with dask.config.set(LOCAL_CONFIG):
                cluster = dd.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
                )
                client = dd.Client(cluster)
        else:
            client = dd.Client(scheduler, timeout=engines.CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        if cluster is not None:
            cluster.close()
        raise EngineError(f"cannot reach the Dask scheduler {scheduler}: {e}") from e
    return client, cluster


def executor(client: Any) -> Any:
    """A ``dask.distributed`` client as the :class:`concurrent.futures.Executor` the cross-hand
    pass submits its jobs to (``Client.get_executor``, impure: each job runs): the one way a night's
    or a frame's partitions run on a cluster (:func:`auditor.batch.crosshand.run_night`,
    :func:`auditor.batch.crosshand.check_partitioned`)."""
    return client.get_executor(pure=False)


class DaskEngine:
    """The ``--engine dask`` runner: a client kept from the first file to the end of the run."""

    def __init__(self, scheduler: str, workers: int = 1) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.client: Any = None
        self.cluster: Any = None

    def _client(self) -> Any:
        if self.client is None:
            self.client, self.cluster = connect(self.scheduler, self.workers)
        return self.client

    def __call__(self, tasks: Iterable[FileTask]) -> Generator[FileResult, None, None]:
        """Audit the files as Dask tasks (a generator: the cluster is reached on its first step, so a
        scheduler that cannot be reached fails the run as the other engine errors do)."""
        from auditor.batch.engines import _failed
        from auditor.batch.work import audit_file

        client = self._client()
        dd = _distributed()
        threads = sum(client.nthreads().values()) or 1
        limit = 2 * threads
        it = iter(tasks)
        futures: dict[Any, FileTask] = {}
        ac = dd.as_completed()

        def fill() -> None:
            while len(futures) < limit:
                task = next(it, None)
                if task is None:
                    return
                fut = client.submit(audit_file, task, pure=False)
                futures[fut.key] = task
                ac.add(fut)

        fill()
        for fut in ac:
            task = futures.pop(fut.key)
            try:
                res: FileResult = fut.result()
            except Exception as e:  # KilledWorker, a worker without hhaudit, ...
                res = _failed(task, f"the Dask task failed: {type(e).__name__}: {e}")
            fut.release()
            yield res
            fill()

    def executor(self) -> Any:
        """The cluster as a :class:`concurrent.futures.Executor` (:func:`executor`) for the
        night's cross-hand pass (:func:`auditor.batch.crosshand.run_night`: its partitions run as
        tasks on the same workers); None when no file was handed out (no client)."""
        return executor(self.client) if self.client is not None else None

    def close(self) -> None:
        """Close the client, and the cluster when it was started for the run."""
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
