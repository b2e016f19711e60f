"""The Dask engine of ``hhaudit batch`` (issue 16, auditor/batch/dask_engine.py): the client stays
open for the night pass, whose partitions run on the cluster and give the in-process rows and tails;
a cluster started for the run has the costly diagnostics off; a cluster that cannot run the pass
leaves it to the batch process, saying so."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from auditor.batch import crosshand as X
from auditor.batch import dask_engine as D
from auditor.batch import nightpass as NP
from auditor.batch import store as S
from auditor.batch.engines import InProcess, engine
from auditor.batch.runner import Options, run_batch
from tests.test_batch import NIGHT1, assert_same_store, make_inputs, write_file

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """An in-process cluster (threads): its address is what ``--scheduler ADDRESS`` takes."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        yield c


def test_engine_dask_is_one_client_for_files_and_night_pass() -> None:
    eng = engine("dask", 2, "local")
    assert isinstance(eng, D.DaskEngine) and eng.client is None  # reached when the first file is handed over
    eng.close()  # closing an engine never used is fine


def test_a_batch_on_dask_runs_its_night_pass_on_the_cluster(
    tmp_path: Path, cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "in"
    make_inputs(src, files=4, hands=3)
    write_file(src / "more.txt", [771_000_000_000 + i for i in range(5)])
    monkeypatch.setattr(X, "PARALLEL_HANDS", 2)  # a night of several partitions, one job each

    def batch(store: Path, **kw: Any) -> int:
        o = Options([str(src)], str(store), night=NIGHT1, progress="none", fail_on=None, **kw)
        return run_batch(o, io.StringIO(), io.StringIO())

    assert batch(tmp_path / "local") == 0
    assert batch(tmp_path / "dask", engine="dask", scheduler=cluster.scheduler_address, workers=2) == 0
    ran = set(cluster.scheduler.task_prefixes)
    assert ran & {"staged_partition_job", "partition_job"}, ran  # the partitions were tasks on the cluster
    # the rows made store rows on the cluster: by the partitions' own jobs when no file repeats a hand
    # id (nightpass.located_rows, issue 16), else as jobs of their own; the tails merged there too
    located = NP.located_here(str(tmp_path / "dask"), NIGHT1)
    assert located or ran & {"findings_frame"}, ran
    assert "write_tails" in ran, ran
    assert_same_store(tmp_path / "local", tmp_path / "dask")
    ch = [S.scan(str(tmp_path / s), "crosshand").collect().sort(pl.all()) for s in ("local", "dask")]
    assert ch[0].height and ch[0].equals(ch[1])


class _Lost(Executor):
    """An executor whose cluster is gone: nothing can be submitted."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        raise OSError("the scheduler is gone")


class _Killed(Executor):
    """An executor whose task's worker died (Dask's KilledWorker, a pool's BrokenExecutor)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        f.set_exception(RuntimeError("KilledWorker"))
        return f


def test_a_cluster_that_cannot_run_the_pass_leaves_it_to_the_batch_process() -> None:
    err = io.StringIO()
    assert X._Job(_Lost(), abs, -3, err=err).result() == 3
    assert X._Job(_Killed(), abs, -4, err=err).result() == 4
    lines = err.getvalue().splitlines()  # each rerun is said, with what failed
    assert len(lines) == 2 and all("job abs did not run on the workers" in x and "batch process" in x for x in lines)
    assert "the scheduler is gone" in lines[0] and "KilledWorker" in lines[1]
    with pytest.raises(ZeroDivisionError):  # a fault of the job itself is raised here again
        X._Job(_Killed(), divmod, 1, 0, err=io.StringIO()).result()
    quiet = io.StringIO()
    with pytest.raises(ZeroDivisionError):  # in process, a fault is the job's own: raised, not run again
        X._Job(InProcess(), divmod, 1, 0, err=quiet).result()
    assert quiet.getvalue() == ""
    assert D.DaskEngine("local", 1).executor() is None  # no file handed out: no client, in process


def _profiler_on() -> bool:
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled"))


def _settings() -> dict[str, object]:
    import dask

    return {k: dask.config.get(k) for k in D.LOCAL_CONFIG}


def test_a_local_cluster_runs_without_the_profiler() -> None:
    eng = D.DaskEngine("local", 1)
    try:
        ex = eng._client().get_executor(pure=False)
        assert ex.submit(_profiler_on).result() is False  # in the worker process
        assert ex.submit(_settings).result() == D.LOCAL_CONFIG
        workers: dict[str, Any] = eng.client.run(lambda dask_worker: sorted(dask_worker.periodic_callbacks))
        assert workers and all("profile" not in cbs for cbs in workers.values())
    finally:
        eng.close()
    assert _profiler_on()  # this process's configuration is left as it was
