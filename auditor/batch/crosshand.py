"""The store's cross-hand pass: continuity (T-codes) and duplicate hand ids across files and nights.

``hhaudit batch`` audits files independently (in parallel, on any worker), so what lies between
files - the next hand of a table in another file, the same hand id in two files or on two nights -
is judged after the per-file pass, by polars queries over the store's ``hands`` table, which keeps
for every hand the columns of :data:`auditor.continuity.COLUMNS` (the seats with starting and final
stacks, the start in UTC, a 24-hex-digit fingerprint of the hand's text):

* :func:`night_input`: the night's hands and, for each table, the last hand of the nights before,
  so each night is chained to the previous night's last hands of each table;
* :func:`duplicates`: hand ids found in more than one file (any night), the later occurrence named
  H005 when its fingerprint equals the first's (an identical copy) and H001 otherwise, exactly as
  ``hhaudit audit`` names them across the files it is given (occurrences ordered by night, path and
  line; pairs within one file are the per-file audit's own findings and are not repeated);
* :func:`run_night` writes both into ``crosshand/night=N/crosshand.parquet`` (rows of the store's
  ``findings`` schema), replacing that night's previous result;
* :func:`check_partitioned` runs the continuity query on partitions of the hands by table, in
  process or on an executor (a process pool, a Dask cluster: the night pass's path; a chain never
  crosses tables, so the result is the same).

What would grow with the night or with the store's history is in :mod:`auditor.batch.nightpass`
(issue 16): the earlier nights' last hands come from small per-night *table tails* files, a night of
more than :data:`HANDS_PER_PARTITION` hands is streamed part by part into partition files of about
that many hands (whatever the number of workers) and each checked alone as a job that spills its
results to files, :func:`run_night` checks duplicate ids bucket by bucket of hand-id hash, and the
spilled rows and tails are merged range by range (:func:`auditor.batch.nightpass.in_ranges`), so the
batch process holds one range of rows, never the night's.  With a pool, a staged night of more
partitions than workers is cut by the workers first (:func:`auditor.batch.nightpass.scatter_job`),
each job locates its own rows when no file repeats a hand id
(:func:`auditor.batch.nightpass.located_rows`), and the tails are merged on a worker while the
batch process writes the findings (:func:`duplicates` stays the whole-store
query, the reference its tests compare with).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from datetime import date
from typing import Any, Generic, TextIO, TypeVar

import polars as pl

from auditor import continuity as C
from auditor import findings as F
from auditor.batch import store as S
from auditor.findings import Finding

_LOC = ["file_key", "audit_id", "hand_no", "night"]
R = TypeVar("R")


def _hands(store: str) -> pl.LazyFrame:
    return S.scan(store, "hands").select(*C.INPUT, C.N_SEATS, *_LOC)


def night_input(store: str, night: str) -> pl.LazyFrame:
    """The hands of ``night`` and the last two hands of each table from the nights before it (the
    last one is chained to the night's first; the one before tells whether it was alone in its file:
    findings on earlier nights' hands are dropped by :func:`_rows`)."""
    from auditor.batch.nightpass import tails

    day = date.fromisoformat(night)
    now = _hands(store).filter(pl.col(S.NIGHT) == day)
    return pl.concat([now, tails(store, night).lazy()], how="vertical_relaxed")


_SEAT_KEY = [S.NIGHT, "file_key", "hand_no"]


def _table_seats(seats: pl.LazyFrame, hands: pl.DataFrame) -> pl.DataFrame:
    """The rows of the store's ``seats`` table (``seats``, already narrowed to the hands' nights) of
    ``hands`` (layout 2 rows: ``n_seats`` set), in the hands' order, each hand's seats in its order.

    Both tables are written part by part in the same order and read the same way, so the seats
    usually come in the hands' order already: that is verified (night, file and hand number of every
    seat); otherwise (or for a few hands of other nights) they are joined by night, file and hand."""
    want = hands.select(*_SEAT_KEY, n=pl.col(C.N_SEATS).cast(pl.Int64)).with_row_index("_k")
    cols = [*_SEAT_KEY, *C.SEAT_FIELDS]
    got = seats.select(cols).collect()
    expect = want.select(pl.col(c).repeat_by("n").explode().drop_nulls() for c in _SEAT_KEY)
    if got.height == expect.height and got.select(_SEAT_KEY).equals(expect):
        return got
    got = got.join(want.drop("n"), on=_SEAT_KEY, how="inner", maintain_order="left")
    return got.sort("_k", maintain_order=True).drop("_k")


def night_frames(store: str, night: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`night_input` in the flat form of :func:`auditor.continuity.check` (the hands with
    ``n_seats`` and the location columns, and their seats): layout 2 hands take their seats from the
    ``seats`` table (read with only the needed columns), older hands from their nested ``seats``."""
    day = date.fromisoformat(night)
    hands = night_input(store, night).collect()
    flat = pl.col(C.N_SEATS).is_not_null()
    nested = ~flat & pl.col("seats").is_not_null()
    seats = S.scan(store, "seats")
    parts: list[pl.DataFrame] = []
    now = hands.with_row_index("_in").filter(flat & (pl.col(S.NIGHT) == day))
    if now.height:
        parts.append(_table_seats(seats.filter(pl.col(S.NIGHT) == day), now).with_columns(_in=now["_in"].gather(
            pl.int_range(now.height, eager=True).repeat_by(now[C.N_SEATS]).explode().drop_nulls())))  # fmt: skip
    old = hands.with_row_index("_in").filter(flat & (pl.col(S.NIGHT) != day))
    if old.height:
        keys = old.select(_SEAT_KEY)
        some = seats.filter(pl.col(S.NIGHT) < day).join(keys.lazy(), on=_SEAT_KEY, how="semi")
        parts.append(_table_seats(some, old).with_columns(_in=old["_in"].gather(
            pl.int_range(old.height, eager=True).repeat_by(old[C.N_SEATS]).explode().drop_nulls())))  # fmt: skip
    if hands.select(nested.any()).item():
        sub = hands.with_row_index("_row").filter(nested)
        ex = C.flat_seats(sub)
        parts.append(ex.with_columns(_in=sub["_row"].cast(pl.Int64).gather(ex["_in"])))
    sf = pl.concat([p.select(*C.SEAT_FIELDS, pl.col("_in").cast(pl.Int64)) for p in parts]) if parts else None
    if sf is None:
        sf = pl.DataFrame(schema={**C.SEAT_FIELDS, "_in": pl.Int64()})
    if len(parts) > 1:  # seats of several sources: in the hands' order
        sf = sf.sort("_in", maintain_order=True)
    n = pl.when(flat).then(pl.col(C.N_SEATS)).when(nested).then(pl.col("seats").list.len().cast(pl.Int32))
    hands = hands.with_columns(n.alias(C.N_SEATS)).drop("seats")
    return hands, sf.drop("_in")


def duplicates(store: str, night: str | None = None) -> pl.DataFrame:
    """Hand ids in more than one file: one row per later occurrence (of ``night``, or of any night),
    with ``code`` H005 (same fingerprint as the first occurrence) or H001, and the first's place."""
    h = (
        S.scan(store, "hands")
        .select("site", "hand_id", "path", "first_line", "fingerprint", "table", *_LOC)
        .filter(pl.col("fingerprint").is_not_null())
        .sort([S.NIGHT, "path", "first_line"])
    )
    g = ["site", "hand_id"]
    h = h.with_columns(
        n=pl.len().over(g),
        first_fp=pl.col("fingerprint").first().over(g),
        first_path=pl.col("path").first().over(g),
        first_at=pl.col("first_line").first().over(g),
        first_key=pl.col("file_key").first().over(g),
    ).filter((pl.col("n") > 1) & (pl.col("file_key") != pl.col("first_key")))
    if night is not None:
        h = h.filter(pl.col(S.NIGHT) == date.fromisoformat(night))
    own = S.scan(store, "findings").filter(pl.col("code").is_in(["H001", "H005"])).select("file_key", "hand_no")
    h = h.join(own.unique(), on=["file_key", "hand_no"], how="anti")
    code = pl.when(pl.col("fingerprint") == pl.col("first_fp")).then(pl.lit("H005")).otherwise(pl.lit("H001"))
    return h.with_columns(code=code).sort("path", "first_line").collect()


def _dup_findings(df: pl.DataFrame) -> list[tuple[Finding, dict[str, Any]]]:
    out = []
    for r in df.iter_rows(named=True):
        where = f"{r['first_path']}:{r['first_at']}"
        if r["code"] == "H005":
            msg = (f"hand {r['hand_id']} is an identical copy of the hand at {where} (another file of the store: "
                   "both files were audited)")  # fmt: skip
        else:
            msg = f"hand id {r['hand_id']} already appeared at {where} with a different record"
        f = F.make(r["code"], r["path"], r["first_line"], 1, msg, site=r["site"], hand_id=r["hand_id"],
                   first_path=r["first_path"], first_line=r["first_at"])  # fmt: skip
        out.append((f, r))
    return out


#: One partition as shipped to a worker: its hands (the flat form, :data:`auditor.continuity.FLAT`)
#: and their seats (:data:`auditor.continuity.SEAT_FIELDS`, each hand's ``n_seats`` rows in order).
Part = tuple[pl.DataFrame, pl.DataFrame]


def _check_frame(part: Part) -> pl.DataFrame:
    hands, seats = part
    return C.check(hands.lazy(), seats=seats.lazy()).collect()


def flatten(hands: pl.DataFrame) -> Part:
    """Hands with nested ``seats`` (:data:`auditor.continuity.INPUT`) in the flat form: the hands
    with ``n_seats`` (null where ``seats`` is null) and one row per seat."""
    sf = C.flat_seats(hands).drop("_in")
    n = pl.col("seats").list.len().cast(pl.Int32).alias(C.N_SEATS)
    return hands.with_columns(n).drop("seats"), sf


def split_flat(hands: pl.DataFrame, seats: pl.DataFrame, parts: int) -> list[Part]:
    """The flat ``hands`` and ``seats`` in ``parts`` partitions by table (a tournament's tables in
    one: :func:`auditor.continuity.partition_key`), each hand with its seats, in their order.
    Partitions without a hand are left out."""
    p = hands.select((C.partition_key().hash(seed=7) % parts).cast(pl.Int64)).to_series()
    n = hands[C.N_SEATS].fill_null(0)
    seat_p = p.gather(pl.int_range(hands.height, eager=True).repeat_by(n).explode().drop_nulls())
    out = []
    for i in range(parts):
        hi = p == i
        if hi.any():
            out.append((hands.filter(hi), seats.filter(seat_p == i)))
    return out


def _merge(results: list[pl.DataFrame]) -> pl.DataFrame:
    cols = list(C.FINDINGS)
    if not results:  # no hand
        results = [_check_frame((pl.DataFrame(schema=C.FLAT), pl.DataFrame(schema=C.SEAT_FIELDS)))]
    return pl.concat([r.select(cols) for r in results], how="vertical_relaxed").sort(
        ["path", "line", "code", "player", "hand_id"], nulls_last=True
    )


def check_partitioned(
    hands: pl.DataFrame,
    parts: int,
    pool: Executor | None = None,
    seats: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """:func:`auditor.continuity.check` on ``parts`` partitions of ``hands`` by table (the tables of
    one tournament in one partition).

    ``hands`` with nested ``seats`` (:data:`auditor.continuity.INPUT`), or with ``seats`` the flat
    form (the store's layout 2: hands with ``n_seats``, and their seat rows); either way each
    partition is shipped flat, a hands frame and its seats frame (issue 16: nested lists of structs
    cost more to serialise and to read than the same seats as plain columns).

    ``pool``: where the partitions are checked, one job each, as :func:`run_night` runs the night's
    partitions (:class:`_Job`): a local process pool, or a Dask cluster through
    :func:`auditor.batch.dask_engine.executor` (what ``DaskEngine.executor`` hands the night
    pass); default: one after the other, in this process.  The result equals ``check`` on the whole
    frame.
    """
    from auditor.batch.engines import InProcess

    if seats is None:
        hands, seats = flatten(hands.select(list(C.INPUT)))
    else:
        hands = hands.select(list(C.FLAT))
        seats = seats.select(list(C.SEAT_FIELDS))
    ex: Executor = pool if pool is not None else InProcess()
    jobs = [_Job(ex, _check_frame, f) for f in split_flat(hands, seats, parts)]
    return _merge([j.result() for j in jobs])


def _located(
    store: str, night: str, df: pl.DataFrame, where: pl.Expr | None = None, parts: pl.DataFrame | None = None
) -> pl.DataFrame:
    """The continuity rows ``df`` with the store location of their hand (located through the
    night's hands), once each, in path and line order.  ``where``: the range of paths the rows are
    in (:func:`auditor.batch.nightpass.ranges`): only the hands of those paths are read; with
    ``parts`` (:func:`auditor.batch.nightpass.path_parts`), only the night's hands parts that hold
    those paths are opened (issue 16: a scan of the night opened every part for every range)."""
    from auditor.batch.nightpass import locate, path_parts_scan

    if df.is_empty():
        return df
    on = ["site", "hand_id", "path"]
    if where is not None and parts is not None:
        hands = path_parts_scan(parts, where, night)
    else:
        hands = _hands(store).filter(pl.col(S.NIGHT) == date.fromisoformat(night))
    loc = (  # only the hands with a finding (a semi-join: not the whole night in memory)
        (hands if where is None else hands.filter(where))
        .select("site", "hand_id", "path", "file_key", "audit_id", "hand_no")
        .join(df.select(on).unique().lazy(), on=on, how="semi").collect()
    )  # fmt: skip
    return locate(df, loc)  # in a fixed order, once each


def _rows(df: pl.DataFrame) -> list[dict[str, Any]]:
    """Store ``findings`` rows for located continuity rows (:func:`_located`)."""
    from auditor.batch.work import finding_row

    out = []
    loc_cols = df.select("file_key", "audit_id", "hand_no", "table")
    for f, (key, aid, hand_no, table) in zip(C.to_findings(df), loc_cols.iter_rows(), strict=True):
        row = finding_row(f, key, aid, hand_no, None)
        row["table"] = table
        out.append(row)
    return out


#: ``json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)`` as
#: :func:`auditor.batch.work.finding_row` writes a finding's data, with one encoder for every row.
_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str).encode


def findings_frame(df: pl.DataFrame) -> pl.DataFrame:
    """The store ``findings`` rows of located continuity rows (:func:`_located`) as a frame: the
    rows of :func:`_rows` (``S.frame(_rows(df), S.FINDINGS)``), built column by column (issue 16:
    a row dictionary per finding cost half of a night pass whose hands each have a finding)."""
    fs = C.to_findings(df)
    players = [f.data.get("player") for f in fs]
    profiles = [f.data.get("profile") for f in fs]
    cols: dict[str, list[Any]] = {
        "file_key": df["file_key"].to_list(),
        "audit_id": df["audit_id"].to_list(),
        "hand_no": df["hand_no"].to_list(),
        "site": [f.site for f in fs],
        "hand_id": [f.hand_id for f in fs],
        "table": df["table"].to_list(),
        "player": [p if isinstance(p, str) else None for p in players],
        "code": [f.code for f in fs],
        "name": [f.name for f in fs],
        "severity": [str(f.severity) for f in fs],
        "path": [f.path for f in fs],
        "line": [f.line for f in fs],
        "column": [f.column for f in fs],
        "message": [f.message for f in fs],
        "profile": [p if isinstance(p, str) else None for p in profiles],
        "data": [_ENCODE(f.data) if f.data else None for f in fs],
    }
    return S.frame_columns(cols, S.FINDINGS)


#: Findings turned into store rows at once by :func:`run_night` (issue 16: rows as dictionaries
#: cost ~2 KiB each, a frame ~0.2 KiB: a night with a finding on every hand stays bounded).
ROWS_PER_FRAME = 20_000


#: Hands of a night checked at once (issue 16): ``check`` needs ~6 KiB a hand while it runs, so a
#: larger night is first split by table-key hash into partitions of about this many hands.
HANDS_PER_PARTITION = 20_000


def check_night(
    store: str,
    night: str,
    per_part: int = HANDS_PER_PARTITION,
    tails_out: list[pl.DataFrame] | None = None,
) -> pl.DataFrame:
    """:func:`auditor.continuity.check` on the night's hands (:func:`night_frames`, the flat form),
    in bounded memory: ``check`` needs ~6 KiB a hand while it runs, so a night of more than
    ``per_part`` hands is checked in partitions by table (a tournament's tables together), each
    alone.  A chain never crosses tables: the rows are those of the whole query, in
    :func:`check_partitioned`'s order.  ``tails_out``: where a streamed night leaves its table
    tails (:func:`auditor.batch.nightpass.write_tails`), taken from its partitions."""
    from auditor.batch.nightpass import check_streamed

    n = _hands(store).filter(pl.col(S.NIGHT) == date.fromisoformat(night)).select(pl.len()).collect().item()
    if n > per_part:  # streamed into partition files by table-key hash (auditor/batch/nightpass.py)
        return check_streamed(store, night, per_part, tails_out)
    hands, seats = night_frames(store, night)
    return C.check(hands.lazy(), seats=seats.lazy()).collect()


#: A night of at least this many hands is checked in at least as many partitions as there are
#: workers to check them (issue 16: smaller, the round trips cost more than they save).
PARALLEL_HANDS = 2_000


class _Job(Generic[R]):
    """``fn(*args)`` submitted to the night pass's executor; run again in this process if the pool
    broke down (a worker killed) or the Dask cluster could not run it, saying so on ``err`` (standard
    error by default): the night pass never fails because of the pool (a fault of ``fn`` itself is
    raised again here).  On :class:`~auditor.batch.engines.InProcess` a fault is raised at once."""

    def __init__(self, ex: Executor, fn: Callable[..., R], *args: Any, err: TextIO | None = None) -> None:
        from auditor.batch.engines import InProcess

        self.fn, self.args, self.err = fn, args, err
        self.here = isinstance(ex, InProcess)
        self.why = ""
        try:
            self.future: Future[R] | None = ex.submit(fn, *args)
        except Exception as e:  # BrokenExecutor, a lost Dask cluster
            self.future = None
            self.why = f"it could not be submitted: {type(e).__name__}: {e}"

    def result(self) -> R:
        if self.future is not None:
            if self.here:
                return self.future.result()
            try:
                return self.future.result()
            except Exception as e:  # BrokenExecutor, KilledWorker, ...: this process runs it
                self.why = f"{type(e).__name__}: {e}"
        name = getattr(self.fn, "__name__", repr(self.fn))
        print(f"hhaudit: the cross-hand pass's job {name} did not run on the workers ({self.why}): "
              "running it in the batch process", file=self.err if self.err is not None else sys.stderr)  # fmt: skip
        return self.fn(*self.args)


def _whole_night(store: str, night: str, out: str, locate: bool = False) -> tuple[str | None, str | None]:
    """:func:`check_night` of a night of one partition (a job of :func:`run_night`), its rows and
    its table tails spilled to ``out`` (:func:`auditor.batch.nightpass.spill_result`; issue 16: the
    tails taken from the hands in memory, not read from the store again); with ``locate``, the
    rows as store rows (:func:`auditor.batch.nightpass.located_rows`)."""
    from auditor.batch.nightpass import _partition_tails, located_rows, spill_result

    hands, seats = night_frames(store, night)
    day = date.fromisoformat(night)
    tails = _partition_tails(hands, seats, day)
    rows = C.check(hands.lazy(), seats=seats.lazy()).collect()
    return spill_result(out, 0, located_rows(rows, hands, day) if locate else rows, tails)


#: Jobs of the night pass in flight per worker (issue 16: a night's partitions are handed out as
#: the workers take them, not all at once, so a few are in memory whatever the night's size).
JOBS_PER_WORKER = 2


def _results(ex: Executor, calls: list[tuple[Callable[..., R], tuple[Any, ...]]], window: int,
             err: TextIO | None) -> Iterator[R]:  # fmt: skip
    """``fn(*args)`` of each call on ``ex`` (:class:`_Job`), at most ``window`` submitted and not yet
    taken, their results in the calls' order."""
    held: deque[_Job[R]] = deque()
    for fn, args in calls:
        held.append(_Job(ex, fn, *args, err=err))
        if len(held) >= window:
            yield held.popleft().result()
    while held:
        yield held.popleft().result()


def run_night(
    store: str,
    night: str,
    pool: Executor | None = None,
    workers: int = 1,
    stage: str | None = None,
    err: TextIO | None = None,
) -> Counter[str]:
    """Run the cross-hand pass for ``night`` and write its findings; returns their count by code.

    In bounded memory whatever the night's size (issue 16): a night of more than
    :data:`HANDS_PER_PARTITION` hands (or of :data:`PARALLEL_HANDS` with several workers) is checked
    in partitions of about that many hands by table (at least ``workers``), each a job that spills
    its continuity rows and its share of the table tails to files and returns their paths; at most
    :data:`JOBS_PER_WORKER` jobs a worker are handed out at once.  The duplicate ids are checked
    bucket by bucket of hand-id hash in this process meanwhile, each bucket's rows spilled too.
    Then the spilled rows are merged range by range of path (:func:`auditor.batch.nightpass.in_ranges`,
    at most :data:`auditor.batch.nightpass.ROWS_PER_RANGE` rows held), located through the night's
    hands of those paths, turned into store rows :data:`ROWS_PER_FRAME` at a time and each frame
    spilled, then streamed into ``crosshand.parquet``; the tails file is merged the same way by file
    key (on a worker, while this process writes the findings).  When no file of the night repeats a
    hand id, each job locates its own rows and makes them store rows instead
    (:func:`auditor.batch.nightpass.located_rows`), and they are only merged here.  With a ``stage``
    and more partitions than workers, the workers first cut the staged parts into partition files
    (:func:`auditor.batch.nightpass.scatter_job`, one job a worker).  The rows and their order are
    those of the whole night's query.

    ``pool`` (the batch's local process pool, its ``workers`` processes done with the files, or the
    Dask engine's cluster, :meth:`auditor.batch.dask_engine.DaskEngine.executor`): where the
    partitions are checked and the findings turned into rows; default: in this process.  ``stage``:
    where the workers staged the hands parts they wrote (:func:`auditor.batch.nightpass.stage_part`).
    The rows are the same with or without a pool or a stage (:func:`check_night`).  ``err``: where
    a job the pool could not run is named before this process runs it (:class:`_Job`)."""
    from auditor.batch import nightpass as NP
    from auditor.batch.engines import InProcess
    from auditor.batch.work import finding_row

    ex: Executor = pool if pool is not None else InProcess()
    workers = workers if pool is not None else 1
    here = isinstance(ex, InProcess)
    n = NP._count(store, night)  # from the parts' footers
    split = workers if workers > 1 and n >= PARALLEL_HANDS else 1
    tmp = tempfile.mkdtemp(prefix="crosshand-", dir=store)
    try:
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        streamed = n > HANDS_PER_PARTITION or split > 1
        direct = NP.staged_night(store, night, tmp, HANDS_PER_PARTITION, split, stage) if streamed and stage else None
        # each job locates its own rows and makes them store rows, unless a file repeats a hand id
        locate = NP.located_here(store, night)
        calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        scatter: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        if direct is not None and direct[1] <= workers:  # each job reads the staged parts, keeps its hands
            files, parts = direct
            calls = [(NP.staged_partition_job, (files, parts, i, night, out, locate)) for i in range(parts)]
        elif direct is not None:  # each worker cuts a run of the staged parts into partition files
            files, parts = direct
            cut = os.path.join(tmp, "p")
            os.makedirs(cut)
            scatter = [(NP.scatter_job, (run, parts, cut, j)) for j, run in enumerate(NP.slices(files, workers))]
        elif streamed:  # by table-key hash into partition files (auditor/batch/nightpass.py)
            found = NP.stream_night(store, night, tmp, HANDS_PER_PARTITION, split, stage)
            calls = [(NP.partition_job, (hd, sd, night, out, i, locate)) for i, (hd, sd) in enumerate(found)]
        else:
            calls = [(_whole_night, (store, night, out, locate))]
        spilled: list[tuple[str | None, str | None]] = []
        failed: list[BaseException] = []

        def check() -> None:
            try:
                if scatter:  # then partition p is the files of every scatter job, in order
                    wrote = list(_results(ex, scatter, len(scatter), err))
                    for i in range(parts):
                        mine = [NP.scattered(cut, i, j) for j, got in enumerate(wrote) if i in got]
                        if mine:
                            hs, ss = [h for h, _s in mine], [s for _h, s in mine]
                            calls.append((NP.partition_job, (hs, ss, night, out, i, locate)))
                spilled.extend(r for r in _results(ex, calls, JOBS_PER_WORKER * workers, err) if r is not None)
            except BaseException as e:  # raised again in this thread
                failed.append(e)

        checker = None
        if here:  # one after the other, then the duplicate ids
            check()
        else:  # handed out to the workers while this process checks the duplicate ids
            checker = threading.Thread(target=check, name="hhaudit-night-jobs", daemon=True)
            checker.start()
        dups = []
        for b, d in enumerate(NP.duplicate_buckets(store, night)):
            p = NP.spill(d, os.path.join(out, f"dups-{b:06d}.parquet"), "path")
            if p is not None:
                dups.append(p)
        paths = None
        if checker is not None:
            if not locate:  # where the rows will be located, read while the workers check
                paths = NP.path_parts(store, night)
            checker.join()
        if failed:
            raise failed[0]
        rows = [r for r, _t in spilled if r is not None]
        tails = [t for _r, t in spilled if t is not None]

        def frames() -> Iterator[pl.DataFrame]:
            if locate:  # store rows already: merged in their order
                for _where, got in NP.in_ranges(rows, "_o0"):
                    got = got.sort(NP.ORDER_KEYS, nulls_last=True, maintain_order=True).drop(NP.ORDER_KEYS)
                    yield from (got.slice(i, ROWS_PER_FRAME) for i in range(0, got.height, ROWS_PER_FRAME))
            parts = (paths if paths is not None else NP.path_parts(store, night)) if rows and not locate else None
            for where, got in NP.in_ranges(rows if not locate else [], "path"):
                cont = _located(store, night, _merge([got]), where, parts)
                step = ROWS_PER_FRAME if workers <= 1 else max(1, min(ROWS_PER_FRAME, -(-cont.height // workers)))
                slices = [(findings_frame, (cont.slice(i, step),)) for i in range(0, cont.height, step)]
                yield from _results(ex, slices, workers, err)  # at most ``workers`` frames converted at once
            yielded = False
            for _where, d in NP.in_ranges(dups, "path"):
                d = d.sort("path", "first_line", maintain_order=True)
                for i in range(0, d.height, ROWS_PER_FRAME):
                    found = []
                    for f, r in _dup_findings(d.slice(i, ROWS_PER_FRAME)):
                        row = finding_row(f, r["file_key"], r["audit_id"], r["hand_no"], None)
                        row["table"] = r["table"]
                        found.append(row)
                    yield S.frame(found, S.FINDINGS)
                    yielded = True
            if not yielded:
                yield S.frame([], S.FINDINGS)

        # the night's last hands of each table, read by the nights after it: merged on a worker while
        # this process writes the findings (issue 16: the merge's serial part)
        merged = _Job(ex, NP.write_tails, store, night, None, None, tails, err=err)
        path = os.path.join(S.night_dir(store, "crosshand", night), "crosshand.parquet")
        by_code = NP.write_findings(store, path, frames())
        merged.result()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return by_code


def worst(by_code: Counter[str]) -> int:
    """The worst severity (as an int) of findings counted by code."""
    cat = F.catalogue()
    return max((int(cat[c].severity) for c in by_code if c in cat), default=0)


def as_json(by_code: Counter[str]) -> str:
    return json.dumps(dict(sorted(by_code.items())))
