"""The batch cross-hand pass in bounded memory (issue 16, auditor/batch/nightpass.py): the per-night
table tails, the night streamed into partition files and the duplicate ids checked by hash bucket
give exactly what the whole-store queries gave (kept here as the reference)."""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from auditor import continuity as C
from auditor.batch import crosshand as X
from auditor.batch import nightpass as NP
from auditor.batch import store as S
from auditor.batch.runner import Options, run_batch
from tests.conftest import ROOT

FIX = ROOT / "fixtures" / "continuity"
NIGHTS = ["2026-11-01", "2026-11-02", "2026-11-03"]
ORDER = ["path", "line", "code", "player", "hand_id"]


def _batch(store: Path, sources: list[Path], night: str) -> None:
    run_batch(
        Options([str(p) for p in sources], str(store), night=night, progress="none"), io.StringIO(), io.StringIO()
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three nights: a T002 session split across nights 1 and 2, other sessions, identical copies
    and different records under one id across files and nights."""
    tmp = tmp_path_factory.mktemp("nightpass")
    t2 = (FIX / "T002" / "bad.txt").read_text("utf-8").split("\n\n\n\n")
    good = (FIX / "T002" / "good.txt").read_text("utf-8")
    files: dict[str, list[Path]] = {n: [] for n in NIGHTS}

    def put(night: str, name: str, text: str) -> None:
        p = tmp / night / name
        p.parent.mkdir(exist_ok=True)
        p.write_text(text, "utf-8")
        files[night].append(p)

    put(NIGHTS[0], "n1.txt", "\n\n\n\n".join(t2[:2]) + "\n")
    put(NIGHTS[0], "t3.txt", (FIX / "T003" / "bad.txt").read_text("utf-8"))
    put(NIGHTS[0], "a.txt", good)
    put(NIGHTS[0], "b.txt", good.split("\n\n\n\n")[0] + "\n")
    put(NIGHTS[1], "n2.txt", "\n\n\n\n".join(t2[2:]) + "\n")
    put(NIGHTS[1], "t5.txt", (FIX / "T005" / "bad.txt").read_text("utf-8"))
    put(NIGHTS[1], "d.txt", good.split("\n\n\n\n")[2].replace("Rake $0", "Rake $0.00") + "\n")
    put(NIGHTS[2], "a2.txt", good)
    put(NIGHTS[2], "t6.txt", (FIX / "T006" / "bad.txt").read_text("utf-8"))
    s = tmp / "store"
    for n in NIGHTS:
        _batch(s, files[n], n)
    return s


def _old_night_input(store: str, night: str) -> pl.LazyFrame:
    """The query before issue 16's tails: every earlier night's hands sorted by table."""
    day = date.fromisoformat(night)
    h = X._hands(store)
    now = h.filter(pl.col(S.NIGHT) == day)
    before = C.order(h.filter(pl.col(S.NIGHT) < day))
    last = before.filter(pl.col("k") >= pl.col("k").max().over("tkey") - 1).select(*C.INPUT, C.N_SEATS, *X._LOC)
    return pl.concat([now, last], how="vertical_relaxed")


def _key(df: pl.DataFrame) -> list[tuple[object, ...]]:
    return sorted(df.select(sorted(df.columns)).iter_rows(), key=repr)


@pytest.mark.parametrize("night", NIGHTS)
def test_duplicates_by_bucket_equal_the_whole_store_sort(store: Path, night: str) -> None:
    want = X.duplicates(str(store), night)
    assert NIGHTS.index(night) == 0 or want.height, "the fixture has duplicates on the later nights"
    for per_bucket in (1, 2, 10**9):
        got = NP.night_duplicates(str(store), night, per_bucket)
        assert got.columns == want.columns
        assert _key(got) == _key(want), per_bucket


@pytest.mark.parametrize("night", NIGHTS)
def test_check_night_equals_the_old_whole_night_query(store: Path, night: str, monkeypatch: pytest.MonkeyPatch) -> None:
    got = {p: X.check_night(str(store), night, per_part=p).sort(ORDER, nulls_last=True) for p in (1, 3, 10**9)}
    with monkeypatch.context() as m:
        m.setattr(X, "night_input", _old_night_input)
        want = X.check_night(str(store), night, per_part=10**9).sort(ORDER, nulls_last=True)
    if night == NIGHTS[1]:
        assert "T002" in set(want["code"])  # chained to the night before
    for p, df in got.items():
        assert df.select(want.columns).equals(want), p
    assert not [d for d in os.listdir(store) if d.startswith("crosshand-")]


def test_tails_are_written_per_night_and_equal_the_old_last_hands(store: Path) -> None:
    for night in NIGHTS:
        d = Path(S.night_dir(str(store), NP.TAILS, night))
        assert next(p.name for p in d.iterdir() if p.name.endswith(".parquet")).startswith("tails-")
    for night in NIGHTS[1:]:
        old = _old_night_input(str(store), night).filter(pl.col(S.NIGHT) < date.fromisoformat(night)).collect()
        new = NP.tails(str(store), night)
        assert sorted(new["hand_id"].to_list()) == sorted(old["hand_id"].to_list())
        assert new.height and new[C.N_SEATS].null_count() == new.height  # seats nested


def test_a_store_without_tails_files_gives_the_same_crosshand_rows(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    shutil.rmtree(copy / NP.TAILS)
    for night in NIGHTS:
        want = pl.read_parquet(os.path.join(S.night_dir(str(store), "crosshand", night), "crosshand.parquet"))
        X.run_night(str(copy), night)
        got = pl.read_parquet(os.path.join(S.night_dir(str(copy), "crosshand", night), "crosshand.parquet"))
        assert _key(got) == _key(want), night
    assert (copy / NP.TAILS).is_dir()  # rebuilt


def test_a_night_audited_again_gets_new_tails(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    before = sorted(os.listdir(S.night_dir(str(copy), NP.TAILS, NIGHTS[0])))
    src = tmp_path / "extra.txt"
    src.write_text((FIX / "T003" / "good.txt").read_text("utf-8"), "utf-8")
    _batch(copy, [src], NIGHTS[0])
    after = sorted(os.listdir(S.night_dir(str(copy), NP.TAILS, NIGHTS[0])))
    assert before != after and len(after) == 1


@pytest.mark.parametrize("night", NIGHTS)
def test_tails_taken_from_the_partitions_equal_the_tails_read_from_the_store(store: Path, night: str) -> None:
    parts: list[pl.DataFrame] = []
    X.check_night(str(store), night, per_part=2, tails_out=parts)
    assert parts
    got = pl.concat(parts)
    want = NP.write_tails(str(store), night)  # from the night's hands
    assert got.schema == want.schema
    assert _key(got) == _key(want)


def test_garbage_collection_removes_a_killed_pass_s_partition_files(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    (copy / "crosshand-abc" / "h").mkdir(parents=True)
    (copy / NP.TAILS / f"night={NIGHTS[0]}" / ".tails-x.parquet.tmp").write_bytes(b"")
    out = S.collect_garbage(str(copy), {})
    assert out.removed_temp == 2 and not (copy / "crosshand-abc").exists()


@pytest.mark.parametrize("night", NIGHTS)
def test_findings_frame_equals_the_rows_built_one_by_one(store: Path, night: str) -> None:
    cont = X._located(str(store), night, X.check_night(str(store), night))
    assert cont.height
    got = X.findings_frame(cont)
    want = S.frame(X._rows(cont), S.FINDINGS)
    assert got.schema == want.schema
    assert got.equals(want)
    assert X.findings_frame(cont.head(0)).equals(S.frame([], S.FINDINGS))


class _Broken(Executor):
    """A pool whose workers were killed: every job fails with BrokenProcessPool."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        f.set_exception(BrokenProcessPool("a worker died"))
        return f


@pytest.mark.parametrize("executor", ["in-process", "pool", "broken pool"])
def test_the_night_pass_on_a_pool_writes_the_same_rows(
    store: Path, tmp_path: Path, executor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The night's partitions checked (and their findings turned into rows) as jobs on the
    batch's pool, at least one partition per worker: the same crosshand rows, in the same order,
    and the same table tails as the pass in one process."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from auditor.batch.engines import InProcess

    monkeypatch.setattr(X, "PARALLEL_HANDS", 1)  # the fixture's nights are small: split them anyway
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    pool: Executor = (
        InProcess() if executor == "in-process" else _Broken() if executor == "broken pool"
        else ProcessPoolExecutor(2, multiprocessing.get_context("spawn"))
    )  # fmt: skip
    err = io.StringIO()
    try:
        for night in NIGHTS:
            X.run_night(str(copy), night, pool, 3, err=err)
            for table in ("crosshand", NP.TAILS):
                d = S.night_dir(str(store), table, night)
                for name in os.listdir(d):
                    want = pl.read_parquet(os.path.join(d, name))
                    got = pl.read_parquet(os.path.join(S.night_dir(str(copy), table, night), name))
                    if table == NP.TAILS:
                        assert _key(got) == _key(want), (night, name)
                    else:
                        assert got.equals(want), (night, name)
    finally:
        pool.shutdown()
    assert not [d for d in os.listdir(copy) if d.startswith("crosshand-")]
    said = err.getvalue().splitlines()  # every job the pool could not run is named, then run here
    assert all("did not run on the workers (BrokenProcessPool: a worker died)" in x for x in said)
    assert bool(said) == (executor == "broken pool")


@pytest.mark.parametrize("night", NIGHTS)
def test_parts_staged_by_the_workers_read_as_the_store_s_parts(store: Path, night: str, tmp_path: Path) -> None:
    """What a worker stages from the frames it has just written (nightpass.stage_part) is what the
    night pass would read from the store: the same flat hands, seats and partition-key hashes."""
    stage = tmp_path / "stage"
    stage.mkdir()
    for hp, sp in NP._night_parts(str(store), date.fromisoformat(night)):
        assert sp is not None
        NP.stage_part(str(stage), hp, night, pl.read_parquet(hp), pl.read_parquet(sp))
    none = pl.DataFrame()
    staged = list(NP._frames(str(store), night, none, str(stage)))
    read = list(NP._frames(str(store), night, none))
    assert staged and len(staged) == len(read)
    for (h1, s1, x1), (h2, s2, x2) in zip(staged, read, strict=True):
        assert x1 is not None and x2 is None
        assert h1.equals(h2.select(h1.columns)) and s1.equals(s2)
        assert x1.equals(h2.select(NP._hash()).to_series().alias("_h"))
    # a part whose staged files are missing (the worker failed to write them) is read from the store
    os.remove(next(stage.glob("*.h.parquet")))
    assert sum(x is None for _h, _s, x in NP._frames(str(store), night, none, str(stage))) == 1


@pytest.mark.parametrize("staged", ["none", "some", "all"])
def test_partitions_read_straight_from_staged_parts_write_the_same_rows(
    store: Path, tmp_path: Path, staged: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A night of few partitions whose parts were staged is checked by jobs that each read every
    staged file and keep their own hands (no partition files); parts the workers did not stage
    (files of an earlier run of the night) and the earlier nights' tails are staged by the pass:
    the same crosshand rows, in the same order, and the same tails."""
    from auditor.batch.engines import InProcess

    monkeypatch.setattr(X, "PARALLEL_HANDS", 1)
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    calls: list[int] = []
    job = NP.staged_partition_job
    monkeypatch.setattr(NP, "staged_partition_job", lambda *a: calls.append(1) or job(*a))
    for night in NIGHTS:
        stage = tmp_path / f"stage-{night}"
        stage.mkdir()
        parts = NP._night_parts(str(copy), date.fromisoformat(night))
        for k, (hp, sp) in enumerate(parts):
            if staged == "all" or (staged == "some" and k % 2 == 0):
                assert sp is not None
                NP.stage_part(str(stage), hp, night, pl.read_parquet(hp), pl.read_parquet(sp))
        calls.clear()
        X.run_night(str(copy), night, InProcess(), 3, str(stage))
        assert len(calls) == 3  # one job per partition, no partition files
        for table in ("crosshand", NP.TAILS):
            d = S.night_dir(str(store), table, night)
            for name in os.listdir(d):
                want = pl.read_parquet(os.path.join(d, name))
                got = pl.read_parquet(os.path.join(S.night_dir(str(copy), table, night), name))
                assert got.equals(want), (night, table)


@pytest.mark.parametrize("staged", ["some", "all"])
def test_a_staged_night_of_more_partitions_than_workers_is_cut_once_by_the_workers(
    store: Path, tmp_path: Path, staged: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A staged night of more partitions than workers: one scatter job a worker cuts a run of the
    staged files into partition files (each staged file read once, by one job), then each partition
    is checked from the files of every scatter job, in order; the partitions are a multiple of the
    workers.  The same crosshand rows, in the same order, and the same tails."""
    from auditor.batch.engines import InProcess

    monkeypatch.setattr(X, "PARALLEL_HANDS", 1)
    monkeypatch.setattr(X, "HANDS_PER_PARTITION", 3)
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    read: list[str] = []
    scattered: list[tuple[int, int]] = []
    jobs: list[int] = []
    scatter, job, real_read, real_scan = NP.scatter_job, NP.partition_job, pl.read_parquet, pl.scan_parquet

    def counted_scatter(files: list[tuple[str, str]], parts: int, out: str, j: int) -> list[int]:
        scattered.append((parts, j))
        return scatter(files, parts, out, j)

    def counted(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(source: Any, *a: Any, **k: Any) -> Any:
            names = [source] if isinstance(source, str) else source if isinstance(source, list) else []
            read.extend(os.path.basename(n) for n in names if isinstance(n, str) and n.endswith(".h.parquet"))
            return real(source, *a, **k)

        return call

    monkeypatch.setattr(NP, "scatter_job", counted_scatter)
    monkeypatch.setattr(NP, "partition_job", lambda *a: jobs.append(1) or job(*a))
    monkeypatch.setattr(NP, "staged_partition_job", lambda *a: pytest.fail("not read directly"))
    monkeypatch.setattr(pl, "read_parquet", counted(real_read))
    monkeypatch.setattr(pl, "scan_parquet", counted(real_scan))
    monkeypatch.setattr(NP, "SCAN_BYTES", 1)  # a scan a file
    for night in NIGHTS:
        stage = tmp_path / f"stage-{night}"
        stage.mkdir()
        parts = NP._night_parts(str(copy), date.fromisoformat(night))
        for k, (hp, sp) in enumerate(parts):
            if staged == "all" or k % 2 == 0:
                assert sp is not None
                NP.stage_part(str(stage), hp, night, real_read(hp), real_read(sp))
        read.clear()
        scattered.clear()
        jobs.clear()
        X.run_night(str(copy), night, InProcess(), 2, str(stage))
        assert len(scattered) == 2 and scattered[0][0] > 2 and scattered[0][0] % 2 == 0
        assert sorted(j for _p, j in scattered) == [0, 1]
        assert len(read) == len(set(read)) >= len(parts)  # each staged file read once
        assert 0 < len(jobs) <= scattered[0][0]  # the partitions with hands (a few tables here)
        for table in ("crosshand", NP.TAILS):
            d = S.night_dir(str(store), table, night)
            for name in os.listdir(d):
                want = real_read(os.path.join(d, name))
                got = real_read(os.path.join(S.night_dir(str(copy), table, night), name))
                assert got.equals(want), (night, table)
    assert not [d for d in os.listdir(copy) if d.startswith("crosshand-")]


def test_slices_cut_the_staged_files_in_runs_of_about_one_size(tmp_path: Path) -> None:
    files = []
    for i, size in enumerate([10, 10, 10, 10, 40, 10, 10]):
        h, s = tmp_path / f"{i}.h", tmp_path / f"{i}.s"
        h.write_bytes(b"x" * size)
        s.write_bytes(b"")
        files.append((str(h), str(s)))
    runs = NP.slices(files, 2)
    assert [f for r in runs for f in r] == files  # consecutive, in order, each once
    assert [len(r) for r in runs] == [4, 3]
    assert NP.slices(files[:1], 3) == [files[:1]]  # none empty
    groups = list(NP._groups(files, 25))  # a scatter job's scans: consecutive files up to 25 bytes, one at least
    assert [f for g in groups for f in g] == files
    assert [len(g) for g in groups] == [2, 2, 1, 2]


def _tables_store(root: Path, tables: int, hands: int = 4) -> Path:
    """A night of ``tables`` cash tables (a file each) of ``hands`` hands: the same hand dealt again
    with its starting stacks, so every later hand of a table breaks the chain (T-findings)."""
    from tests.test_batch import CLEAN, hand

    src = root / f"in-{tables}"
    src.mkdir()
    for t in range(tables):
        text = CLEAN.replace("Table 'Andromeda IV'", f"Table 'Bound {t:03d}'")
        (src / f"t{t:03d}.txt").write_text(
            "\n\n\n".join(hand(text, 800_000_000_000 + 1000 * t + i) for i in range(hands)) + "\n", "utf-8"
        )
    store = root / f"store-{tables}"
    _batch(store, [src], NIGHTS[0])
    return store


class _Counting(Executor):
    """Runs each job when it is submitted; counts the jobs handed out and not yet taken."""

    def __init__(self) -> None:
        self.out = 0
        self.most = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        ex = self

        class _Taken(Future[Any]):
            def result(self, timeout: float | None = None) -> Any:
                ex.out -= 1
                return super().result(timeout)

        f = _Taken()
        f.set_result(fn(*args, **kwargs))
        self.out += 1
        self.most = max(self.most, self.out)
        return f


def test_the_night_pass_holds_a_bounded_part_of_the_night_whatever_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: a night is checked in partitions of about HANDS_PER_PARTITION hands whatever the
    number of workers, each job spills its results and gives back only their paths, at most
    JOBS_PER_WORKER jobs a worker are handed out at once, and the batch process reads the spilled
    rows back ROWS_PER_RANGE at a time: three times the night, three times the partitions, none
    larger; and the rows are those of the night checked whole."""
    per_part, per_range, workers = 12, 5, 2
    sizes: dict[int, dict[str, list[int]]] = {}
    check, in_ranges, job = X._check_frame, NP.in_ranges, NP.partition_job
    for tables in (12, 36):
        store = _tables_store(tmp_path, tables)
        whole = pl.read_parquet(os.path.join(S.night_dir(str(store), "crosshand", NIGHTS[0]), "crosshand.parquet"))
        tails = NP.write_tails(str(store), NIGHTS[0])  # from the night's hands, one query
        assert whole.height >= tables and tails is not None
        seen: dict[str, list[int]] = {"hands": [], "range": [], "results": []}

        def counted_check(part: X.Part, seen: dict[str, list[int]] = seen) -> pl.DataFrame:
            seen["hands"].append(part[0].height)
            return check(part)

        def counted_ranges(*a: Any, seen: dict[str, list[int]] = seen, **k: Any) -> Any:
            for e, df in in_ranges(*a, **k):
                seen["range"].append(df.height)
                yield e, df

        def counted_job(*a: Any, seen: dict[str, list[int]] = seen) -> Any:
            r = job(*a)
            seen["results"].append(all(x is None or isinstance(x, str) for x in r))
            return r

        ex = _Counting()
        with monkeypatch.context() as m:
            m.setattr(X, "HANDS_PER_PARTITION", per_part)
            m.setattr(X, "_check_frame", counted_check)
            m.setattr(NP, "ROWS_PER_RANGE", per_range)
            m.setattr(NP, "in_ranges", counted_ranges)
            m.setattr(NP, "partition_job", counted_job)
            X.run_night(str(store), NIGHTS[0], ex, workers)
        got = pl.read_parquet(os.path.join(S.night_dir(str(store), "crosshand", NIGHTS[0]), "crosshand.parquet"))
        assert got.equals(whole)
        d = S.night_dir(str(store), NP.TAILS, NIGHTS[0])
        assert pl.read_parquet(os.path.join(d, os.listdir(d)[0])).equals(tails)
        assert seen["results"] and all(seen["results"])  # paths, never frames
        assert sum(seen["hands"]) == 4 * tables
        assert ex.most <= X.JOBS_PER_WORKER * workers
        # a range holds one path's rows at least (a file: here 3 rows a table), else at most per_range
        assert max(seen["range"]) <= max(per_range, 3)
        sizes[tables] = seen
    small, large = sizes[12], sizes[36]
    assert len(large["hands"]) >= 3 * len(small["hands"]) >= 3 * (4 * 12 // per_part)
    assert max(large["hands"]) <= 3 * per_part  # a table is never split: partitions vary with the hash
    assert len(large["range"]) > len(small["range"])


def test_partition_files_and_ranges_grow_linearly_with_the_night(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: the night streamed into partitions writes two files per partition however many
    times its buffer is flushed (a flush per hands part here: each flush appends a segment), the
    spilled rows are read once each when merged by range (each spilled file read once, each range
    from its own file: the rows read are the rows), and the duplicate ids cut the store once into
    one file per bucket; the rows are those of the night checked whole."""
    per_part, per_range = 12, 5
    seen: dict[int, dict[str, int]] = {}
    stream, read, cut = NP.stream_night, pl.read_parquet, NP._bucket_files
    for tables in (12, 36):
        store = _tables_store(tmp_path, tables)
        whole = pl.read_parquet(os.path.join(S.night_dir(str(store), "crosshand", NIGHTS[0]), "crosshand.parquet"))
        count = {"files": 0, "parts": 0, "segments": 0, "spilled": 0, "spilled_files": 0, "cuts": 0, "buckets": 0}

        def counted_stream(store: str, night: str, tmp: str, *a: Any, count: dict[str, int] = count) -> Any:
            got = stream(store, night, tmp, *a)
            count["files"] = len([n for n in os.listdir(tmp) if n.endswith(".arrows")])
            count["parts"] = len(got)
            count["segments"] = max(len(NP._segments(h)) for h, _s in got)
            return got

        def counted_read(source: Any, *a: Any, count: dict[str, int] = count, **k: Any) -> pl.DataFrame:
            df = read(source, *a, **k)
            if isinstance(source, str) and os.path.basename(source).startswith(("rows-", "tails-", "dups-")):
                count["spilled"] += df.height
                count["spilled_files"] += 1
            return df

        def counted_cut(store: str, night: str, per_bucket: int, tmp: str, count: dict[str, int] = count) -> Any:
            got = cut(store, night, per_bucket, tmp)
            count["cuts"] += 1
            count["buckets"] = len([n for n in os.listdir(tmp) if n.endswith(".arrows")])
            return got

        with monkeypatch.context() as m:
            m.setattr(X, "HANDS_PER_PARTITION", per_part)
            m.setattr(NP, "CHUNK_BYTES", 1)  # a flush for every hands part
            m.setattr(NP, "ROWS_PER_RANGE", per_range)
            m.setattr(NP, "IDS_PER_BUCKET", 2 * tables)
            m.setattr(NP, "stream_night", counted_stream)
            m.setattr(NP, "_bucket_files", counted_cut)
            m.setattr(pl, "read_parquet", counted_read)
            X.run_night(str(store), NIGHTS[0], None, 1)
        got = pl.read_parquet(os.path.join(S.night_dir(str(store), "crosshand", NIGHTS[0]), "crosshand.parquet"))
        assert got.equals(whole)
        assert count["files"] == 2 * count["parts"]  # hands and seats: one file each per partition
        assert count["segments"] > 1  # several flushes appended to one file
        spilled = whole.height + NP.write_tails(str(store), NIGHTS[0]).height  # type: ignore[union-attr]
        assert count["spilled"] == spilled  # every spilled row read once (no duplicate ids here)
        assert count["cuts"] == 1 and count["buckets"] == 2  # 4 * tables ids, 2 * tables a bucket
        seen[tables] = count
    small, large = seen[12], seen[36]
    assert large["parts"] == 3 * small["parts"] and large["files"] == 3 * small["files"]


def test_frames_that_fit_one_range_are_written_without_a_spill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """write_frames: frames of at most ROWS_PER_RANGE rows in all are written as they are (no spill
    read back); more are gathered into batches of at most that many rows, each spilled once, and
    streamed into the file; the rows are the frames' in order either way."""
    frames = [pl.DataFrame({"a": list(range(i * 10, i * 10 + n))}) for i, n in enumerate([3, 4, 0, 5, 2])]
    want = pl.concat(frames)
    spilled: list[int] = []
    write = pl.DataFrame.write_parquet

    def counted(df: pl.DataFrame, file: Any, *a: Any, **k: Any) -> None:
        if isinstance(file, str) and "crosshand-" in file:
            spilled.append(df.height)
        write(df, file, *a, **k)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", counted)
    for limit, batches in ((100, []), (14, []), (7, [7, 7]), (1, [3, 4, 5, 2])):
        spilled.clear()
        monkeypatch.setattr(NP, "ROWS_PER_RANGE", limit)
        path = tmp_path / f"out-{limit}.parquet"
        NP.write_frames(str(tmp_path), str(path), iter(frames), {"a": pl.Int64()})
        assert pl.read_parquet(path).equals(want), limit
        assert spilled == batches, limit
    NP.write_frames(str(tmp_path), str(tmp_path / "none.parquet"), iter([]), {"a": pl.Int64()})
    assert pl.read_parquet(tmp_path / "none.parquet").schema == {"a": pl.Int64()}
    assert not [d for d in os.listdir(tmp_path) if d.startswith("crosshand-")]


def test_spilled_rows_that_fit_one_range_come_as_one(tmp_path: Path) -> None:
    files = []
    for i in range(3):
        df = pl.DataFrame({"path": [f"p{j}" for j in (i, i + 3, i + 6)], "x": [i] * 3})
        got = NP.spill(df, str(tmp_path / f"rows-{i}.parquet"), "path")
        assert got is not None
        files.append(got)
    whole = [df for _e, df in NP.in_ranges(files, "path", limit=9)]
    assert len(whole) == 1 and whole[0].equals(pl.concat([pl.read_parquet(f) for f in files]))
    cut = [df for _e, df in NP.in_ranges(files, "path", limit=4)]
    assert len(cut) > 1 and pl.concat(cut).sort("path").equals(whole[0].sort("path"))


def test_the_manifest_is_read_once_while_it_stays_the_same(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(store, copy)
    first = NP._manifest(str(copy))
    assert NP._manifest(str(copy)) is first  # cached
    src = tmp_path / "extra.txt"
    src.write_text((FIX / "T003" / "good.txt").read_text("utf-8"), "utf-8")
    _batch(copy, [src], NIGHTS[0])  # one more file: the manifest changed
    again = NP._manifest(str(copy))
    assert again is not first and again.height == first.height + 1
    assert again.equals(S.load_manifest(str(copy), NP._MANIFEST_COLS))


@pytest.mark.parametrize("night", NIGHTS)
def test_rows_located_by_the_partitions_equal_the_rows_located_through_the_night(
    store: Path, tmp_path: Path, night: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each partition's job locates its own rows and makes them store rows when no file of the
    night repeats a hand id (nightpass.located_here): the same crosshand file as the batch process
    locating them through the whole night, with or without partitions."""
    from auditor.batch.engines import InProcess

    monkeypatch.setattr(X, "PARALLEL_HANDS", 1)
    assert NP.located_here(str(store), night)
    made: list[bool] = []
    located = NP.located_rows
    monkeypatch.setattr(NP, "located_rows", lambda *a: made.append(True) or located(*a))
    got = {}
    for here in (True, False):
        for workers in (1, 3):
            copy = tmp_path / f"copy-{here}-{workers}"
            shutil.copytree(store, copy)
            with monkeypatch.context() as m:
                m.setattr(NP, "located_here", lambda *a, here=here: here)
                X.run_night(str(copy), night, InProcess(), workers)
            got[here, workers] = pl.read_parquet(S.night_dir(str(copy), "crosshand", night) + "/crosshand.parquet")
    assert made  # the partitions located their rows
    want = pl.read_parquet(S.night_dir(str(store), "crosshand", night) + "/crosshand.parquet")
    assert want.height
    for key, df in got.items():
        assert df.equals(want), key


def test_a_night_whose_file_repeats_a_hand_id_is_located_through_the_night(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file with one hand id at two tables (H001 of its own audit): a row of one table's hand
    could be located to the other table's hand, in another partition, so the batch process locates
    the rows through the whole night (nightpass.located_here is False); the rows are those of the
    pass in one process."""
    from auditor.batch.engines import InProcess
    from tests.test_batch import CLEAN, hand

    src = tmp_path / "in"
    src.mkdir()
    other = CLEAN.replace("Table 'Andromeda IV'", "Table 'Other'")
    texts = [hand(CLEAN, 700_000_000_001), hand(CLEAN, 700_000_000_002), hand(other, 700_000_000_001)]
    (src / "f.txt").write_text("\n\n\n".join(texts) + "\n", "utf-8")
    (src / "g.txt").write_text(hand(CLEAN, 700_000_000_003) + "\n", "utf-8")
    store = tmp_path / "store"
    _batch(store, [src], NIGHTS[0])
    assert not NP.located_here(str(store), NIGHTS[0])
    assert NP.located_here(str(store), NIGHTS[1])  # a night without a file: nothing to repeat
    want = pl.read_parquet(S.night_dir(str(store), "crosshand", NIGHTS[0]) + "/crosshand.parquet")
    assert {"H001"} <= set(pl.read_parquet(S.night_dir(str(store), "findings", NIGHTS[0]))["code"])
    monkeypatch.setattr(X, "PARALLEL_HANDS", 1)
    monkeypatch.setattr(NP, "located_rows", lambda *a: pytest.fail("located by a partition"))
    X.run_night(str(store), NIGHTS[0], InProcess(), 3)
    assert pl.read_parquet(S.night_dir(str(store), "crosshand", NIGHTS[0]) + "/crosshand.parquet").equals(want)


@pytest.mark.xfail(
    strict=True,
    reason="known since session 15, also in session 14's code: a hand with n_seats 0 and no seat rows is "
    "left out of the partitions' tails (not chainable) but kept, with null seats, among the last two of "
    "its table by write_tails (chainable in the flat form, then nested to null); which one the next "
    "night should chain from is undecided; no such hand in the whole corpus's batch store (n_seats "
    "min 1, 76 null, of 10,160)",
)
def test_a_hand_without_seat_rows_gives_the_same_tails_from_the_partitions(store: Path, tmp_path: Path) -> None:
    """A hand whose ``n_seats`` is 0 and that has no seat rows (the last hand of a table, so a tail
    candidate) should be judged alike by the partitions' tails (``nightpass._partition_tails``) and by
    the tails read from the store (``write_tails``, the seats nested first)."""
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    night = NIGHTS[0]
    (hp,) = (copy / "hands" / f"night={night}").glob("a_txt-*.parquet")
    (sp,) = (copy / "seats" / f"night={night}").glob("a_txt-*.parquet")
    hands = pl.read_parquet(hp)
    last = hands["hand_no"].max()
    hands.with_columns(pl.when(pl.col("hand_no") == last).then(0).otherwise(pl.col(C.N_SEATS)).cast(pl.Int32)
                       .alias(C.N_SEATS)).write_parquet(hp)  # fmt: skip
    seats = pl.read_parquet(sp)
    assert seats.filter(pl.col("hand_no") == last).height > 0
    seats.filter(pl.col("hand_no") != last).write_parquet(sp)
    parts: list[pl.DataFrame] = []
    X.check_night(str(copy), night, per_part=2, tails_out=parts)
    got = pl.concat(parts)
    want = NP.write_tails(str(copy), night)
    assert got.schema == want.schema
    assert _key(got) == _key(want)
