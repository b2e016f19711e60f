"""The cross-hand stage of ``hhaudit audit`` (T-codes), lazy and in bounded memory (issue 16).

:func:`auditor.continuity.check` needs every hand of a table at once, and polars' query engine
takes ~60-75 MiB of working memory however few hands it reads.  So the stage keeps its query out
of the auditing process:

* :class:`FirstHandFirst` starts the stage only when a second hand arrives: every T-rule compares
  two hands of one table, so a run of zero or one hand has no cross-hand finding;
* :class:`Bounded` keeps at most :data:`ROWS_PER_BATCH` hand rows (:mod:`auditor.crosshand_rows`,
  seats nested) in memory and appends the others to a file in
  a private temporary folder (compressed pickles, ~0.1 KiB a hand): what the auditing process holds
  for the stage does not grow with the run, and it never imports polars.  At the end, a run
  of at most :data:`IN_PROCESS` hands (nothing written) is checked in the process; a larger one in
  a **child process** (``python -m auditor.crosshand_audit``, :func:`main`), which returns the
  findings in a file of the same folder, or, with ``defer`` (``hhaudit audit`` run as its own
  process), not at all: the query is left as a :class:`Deferred` to ``hhaudit audit``, which
  replaces the auditing process with a fresh interpreter that runs it (:mod:`auditor.finish`), so
  that the auditing process and polars are never in memory at once;
* :func:`findings_of` (the child's work) checks a run of at most :data:`HANDS_PER_PARTITION`
  hands at once; a larger one it first sorts into buckets by a hash of the table key (files of
  rows, :data:`BUFFER_ROWS` rows in memory at a time, no polars), then checks one bucket at a
  time.  A bucket holds its tables' hands in input order, in the flat form of
  :func:`auditor.continuity.flat_frames` (a hands frame and a seats frame, ``check(hands,
  seats=seats)``); the findings of all buckets are sorted as
  :func:`auditor.batch.crosshand.check_partitioned` sorts them, on disk past
  :data:`auditor.spillsort.RUN_ROWS` finding rows (sorted runs merged: :mod:`auditor.spillsort`),
  so that the child holds neither every hand nor every finding of a run of millions of hands
  (with T001 selected, ~8 % of the corpus's hands have a cross-hand finding).  A chain of hands never crosses
  tables (nor a tournament's tables: :func:`bucket_key` groups as
  :func:`auditor.continuity.partition_key`), so the result equals ``check`` on the whole run
  (``tests/test_crosshand_audit.py``);
* a bucket that stays larger than 1.5 times the partition size (one huge table or tournament:
  a month of a cash table, a Sunday major's million hands under one id, which no hash splits) is
  not checked whole but by :func:`windowed_frames`: its hands sorted on disk into chain order and
  checked a partition at a time, each window with the hands it needs around it, the tournament's
  blind schedule in one pass over its hands sorted by time (:class:`auditor.schedule.Stream`); the
  same findings (``tests/test_crosshand_windows.py``, ``tests/test_schedule_stream.py``).

The temporary folder is removed at the end (or when the object is collected).  Its files are
written and read only by this module, in a folder only the user can read (``tempfile.mkdtemp``).
"""

from __future__ import annotations

import os
import sys
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from auditor.digests import blake2b
from auditor.findings import Finding
from auditor.spillsort import dump as _dump
from auditor.spillsort import load_all as _load_all

if TYPE_CHECKING:
    import polars as pl

    from auditor.audit import Audited

#: Hand rows kept in the auditing process before they are appended to the rows file (~4 KiB each).
ROWS_PER_BATCH = 500
#: Runs of at most this many hands are checked in the auditing process (no child, no file).
IN_PROCESS = 1_000
#: Hands checked at once (a bucket of tables): ``check`` needs a few KiB a hand while it runs.
HANDS_PER_PARTITION = 2_000
#: Rows the child keeps in memory while it sorts them into buckets (~4 KiB each).
BUFFER_ROWS = 2_000
#: A bucket of more than 1.5 times :data:`HANDS_PER_PARTITION` hands (its tables happened to be
#: long) is split again by another hash of the same key, up to this many times (the first of them
#: splits the :data:`MAX_BUCKETS` first buckets of a run of more than 128,000 hands): the largest
#: bucket then stays near the partition size however many buckets a run has (without it, the
#: largest of 500 buckets at 1M hands held 4,462 hands, of 50 at 100,000 hands 3,387).
MAX_SPLITS = 4
#: Buckets a run is first sorted into (each larger one is then split as an unlucky bucket is): with a
#: bucket per :data:`HANDS_PER_PARTITION` hands at once, 10M hands would make 5,000 files, each
#: flush of :data:`BUFFER_ROWS` rows appending about one row to each (10M file appends of one row).
MAX_BUCKETS = 64
#: polars' allocator (jemalloc) in the child: freed pages given back at once, one arena, no
#: per-thread caches (with :data:`THREADS`: 100,000 hands 122 -> 117 MiB, ~10 % more CPU in the child).
ALLOCATOR = "narenas:1,tcache:false"
#: polars' threads in the child (``POLARS_MAX_THREADS``; unless set by the user): one query at a
#: time on a few thousand hands gains little from more, and each thread keeps its own buffers.
THREADS = "1"
#: The sort of the partitioned result (as :func:`auditor.batch.crosshand.check_partitioned`).
ORDER = ["path", "line", "code", "player", "hand_id", "reason"]

ROWS_FILE = "rows.pickle"
FINDINGS_FILE = "findings.pickle"

Rows = list[dict[str, Any]]


class Bounded:
    """Gathers the cross-hand rows of an ``hhaudit audit`` run in bounded memory; :meth:`findings`
    runs the T-rules (in a child process for a run of more than ``in_process`` hands)."""

    def __init__(self, rows_per_batch: int | None = None, hands_per_partition: int | None = None,
                 in_process: int | None = None, defer: bool = False) -> None:  # fmt: skip
        # (the module's values read now, not when the class was defined: a test can lower them)
        self.rows_per_batch = ROWS_PER_BATCH if rows_per_batch is None else rows_per_batch
        self.hands_per_partition = HANDS_PER_PARTITION if hands_per_partition is None else hands_per_partition
        self.in_process = IN_PROCESS if in_process is None else in_process
        self.rows: Rows = []  # the hands not yet written, with their seats nested
        self.hands = 0
        self.dir: Path | None = None
        self.out: BinaryIO | None = None
        self.child: bool | None = None  # after findings(): whether a child process ran the query
        self._cleanup: weakref.finalize[Any, Any] | None = None
        #: with ``defer``, :meth:`findings` of a large run gives nothing and leaves the query to
        #: whoever takes :attr:`deferred` (``hhaudit audit``'s finisher, :mod:`auditor.finish`)
        self.defer = defer
        self.deferred: Deferred | None = None
        from auditor.crosshand_rows import hand_row  # (no polars in the auditing process)

        self._row = hand_row

    def add(self, a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
        self.rows.append(self._row(a, findings, lines))
        self.hands += 1
        if len(self.rows) >= self.rows_per_batch:
            self._write()

    def _write(self) -> None:
        if not self.rows:
            return
        if self.out is None:
            import tempfile  # (issue 16: start-up; tempfile, shutil and subprocess when first needed)

            self.dir = Path(tempfile.mkdtemp(prefix="hhaudit-crosshand-"))
            self.out = open(self.dir / ROWS_FILE, "wb")  # noqa: SIM115 (closed in findings or cleanup)
            self._cleanup = weakref.finalize(self, _remove, self.out, str(self.dir))
        _dump(self.rows, self.out)
        self.rows = []

    def findings(self) -> Iterator[Finding]:
        """The findings, read a thousand at a time from the child's file (their number grows with the run)."""
        if self.out is None and self.hands <= self.in_process:
            import tempfile

            self.child = False
            with tempfile.TemporaryDirectory(prefix="hhaudit-crosshand-") as tmp:
                found = findings_of([self.rows], Path(tmp), self.hands, self.hands_per_partition)
            yield from found
            return
        self._write()
        assert self.out is not None and self.dir is not None
        self.out.close()
        self.child = True
        if self.defer:
            if self._cleanup is not None:
                self._cleanup.detach()  # the folder is the taker's now (Deferred.remove)
            self.deferred = Deferred(self.dir, self.hands, self.hands_per_partition)
            return
        give_back()  # the parent waits for the child: both count against the machine
        try:
            yield from _run_child(self.dir, self.hands, self.hands_per_partition)
        finally:
            if self._cleanup is not None:
                self._cleanup()


class Deferred(NamedTuple):
    """The cross-hand query of a large run, not run yet: its folder (the rows file, written and
    closed), the number of hands and the partition size.  Whoever takes it runs it once
    (:meth:`in_process` or :meth:`in_child`) and removes the folder (:meth:`remove`)."""

    dir: Path
    hands: int
    per_part: int

    def in_process(self) -> Iterator[Finding]:
        """The findings, computed in this process (polars imported here), a thousand at a time."""
        for part in finding_parts(self.dir, self.hands, self.per_part):
            yield from part

    def in_child(self) -> Iterator[Finding]:
        """The findings, computed in a child process (as :meth:`Bounded.findings`)."""
        give_back()
        return _run_child(self.dir, self.hands, self.per_part)

    def remove(self) -> None:
        import shutil

        shutil.rmtree(self.dir, ignore_errors=True)


def give_back() -> None:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``; nothing elsewhere).
    An audit's parent process holds ~10 MiB of freed heap after its last hand (30,000 hands: RSS
    71 -> 61 MiB), which it would otherwise keep while it waits for the cross-hand child."""
    import ctypes

    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL(None).malloc_trim  # (the process's own symbols: the C library it runs on)
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trim(0)


def _remove(out: BinaryIO, directory: str) -> None:
    import shutil

    out.close()
    shutil.rmtree(directory, ignore_errors=True)


def _child_env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parent.parent)  # this very package, not the working directory's
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONSAFEPATH": "1", "PYTHONPATH": path}
    # polars' allocator (jemalloc) returns freed pages at once instead of keeping them for reuse
    # (the opposite of what ``hhaudit batch`` chooses for speed: auditor/batch/allocator.py)
    from auditor.batch import allocator

    if not env.get(allocator.OPT_OUT):
        env.setdefault(allocator.ENV, f"{allocator.GIVE_BACK},{ALLOCATOR}")
    env.setdefault("POLARS_MAX_THREADS", THREADS)
    return env


def _run_child(directory: Path, hands: int, per_part: int) -> Iterator[Finding]:
    """:func:`main` in a fresh interpreter on ``directory``'s rows file; its findings."""
    import subprocess

    argv = [sys.executable, "-m", "auditor.crosshand_audit", str(directory), str(hands), str(per_part)]
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=_child_env(), check=False)
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip()
        raise RuntimeError(f"the cross-hand check failed in its child process ({done.returncode}): {err}")
    with open(directory / FINDINGS_FILE, "rb") as f:
        for part in _load_all(f):
            yield from part


def read_rows(path: Path) -> Iterator[Rows]:
    """The batches of rows :class:`Bounded` appended to ``path``."""
    with open(path, "rb") as f:
        yield from _load_all(f)


def bucket_key(row: dict[str, Any]) -> bytes:
    """What :func:`auditor.continuity.partition_key` groups by: the tournament, or else the table."""
    site, tid, table = row.get("site") or "", row.get("tournament_id"), row.get("table") or ""
    key = f"{site}\x1f{tid}" if tid is not None else f"{site}\x1f\x1f{table}"
    return key.encode("utf-8", "surrogatepass")


def check_rows(rows: Rows) -> pl.DataFrame:
    """:func:`auditor.continuity.check` on ``rows`` in the flat form (hands and seats frames)."""
    from auditor.continuity import FINDINGS, check, flat_frames

    hands, seats = flat_frames(rows)
    return check(hands.lazy(), seats=seats.lazy()).collect().select(list(FINDINGS))


#: A window of a huge table or tournament (:func:`windowed_frames`) is checked with this many of
#: the hands before its own in chain order, and this many after: a hand's findings read the hand
#: before it, and whether that hand and itself are alone in their files (their neighbours').
BEFORE = 2
AFTER = 1
#: Sorted runs of a huge bucket's hands merged at once (:func:`windowed_frames`).
MERGE_RUNS = 64
#: The columns :func:`auditor.schedule.check` reads (a tournament's schedule, checked apart from
#: the windows by :class:`auditor.schedule.Stream`: it compares every table of the tournament).
SCHEDULE_INPUT = ("site", "hand_id", "path", "first_line", "table", "tournament_id", "game", "structure",
                  "decimals", "start_utc", "small_blind", "big_blind", "ante", "cancelled", "pool",
                  "local_start", "clock", "flight")  # fmt: skip


class _Hand(NamedTuple):
    """A chained hand of a huge bucket, in chain order: its row, its table's key, its place ``k``
    in its table's chain, its place ``g`` in the whole stream, and the hand before it at its table."""

    row: dict[str, Any]
    table: tuple[Any, ...]
    k: int
    g: int
    prev: dict[str, Any] | None


def chainable(row: dict[str, Any]) -> bool:
    """Whether :func:`auditor.continuity.check` chains the hand of ``row``: not cancelled, not a
    fast-fold pool's, at a named table, with its seats (the others have no chain finding)."""
    return not row.get("cancelled") and not row.get("pool") and row.get("table") is not None \
        and row.get("seats") is not None  # fmt: skip


def table_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """The table of a hand as :func:`auditor.continuity.check` chains it (site, tournament, table and
    flight, a missing one as empty; every hand without a site at one key, as polars' null key)."""
    site = row.get("site")
    if site is None:
        return (0,)
    return (1, site, row.get("tournament_id") or "", row.get("table") or "", row.get("flight") or "")


def windowed_frames(batches: Iterable[Rows], tmp: Path, per_part: int) -> Iterator[pl.DataFrame]:
    """The rows of the cross-hand findings of the hand rows in ``batches`` (any tables and
    tournaments, typically one huge one), as :func:`check_rows` finds them on all at once, in frames
    to be sorted (by :data:`ORDER`, stably: a hand's chain findings come before its schedule
    findings, as in ``check``), holding about ``per_part`` hands at a time, whatever the number of
    hands of one table or tournament.

    The chained hands (:func:`chainable`) are sorted on disk (:class:`auditor.spillsort.RowSpill`,
    in ``tmp``) into chain order: by table, start time, hand number (as ``check`` reads it) and input
    order; a hand id already seen at its table is left out, as ``check`` leaves it out (the places
    of a repeated id are found by a second sort, by table, id and place: the later ones are sorted
    into chain order and skipped as the chain is read, so no set of ids is kept).  They are then
    checked by windows of ``per_part`` hands, each with :data:`BEFORE` hands before it and
    :data:`AFTER` after it, whose own findings are dropped: every rule within a table compares a
    hand with the one before it, but one, a player back after hands away (T001 ``returned``), whose
    previous hand may lie before the window; that finding is added from what the stream keeps of
    each player of the current table (the place of their last hand).  The blind schedule across a
    tournament's tables is read from the few columns it needs, sorted on disk in time order, in one
    pass with its running state (:class:`auditor.schedule.Stream`, the rows of
    :func:`auditor.schedule.check`)."""
    import polars as pl

    from auditor import schedule
    from auditor.continuity import FINDINGS, FLAT, _id_number, check, flat_frames
    from auditor.spillsort import RowSpill
    from auditor.tables import fit_rows

    narrow = {c: t for c, t in FLAT.items() if c in SCHEDULE_INPUT}
    # a partition's rows a run, merged 64 runs at once (a run of 128,000 hands in one pass) reading
    # 1/64 of a partition of each: about a partition's rows held while sorting and while merging
    run, block = max(per_part, 1), max(per_part // MERGE_RUNS, 1)
    spill = RowSpill(tmp, key=lambda item: item[0], run_rows=run, block_rows=block, fan_in=MERGE_RUNS)
    # each chained hand's table, id and place in chain order, sorted by them: a repeated id's later places
    ids = RowSpill(tmp.with_suffix(".ids"), run_rows=run, block_rows=block, fan_in=MERGE_RUNS)
    dropped = RowSpill(tmp.with_suffix(".dropped"), run_rows=run, block_rows=block, fan_in=MERGE_RUNS)
    # the blind schedule across the tournament's tables: its hands sorted by time on disk, read once
    sched = schedule.Stream(tmp.with_suffix(".schedule"), run_rows=run, block_rows=block, fan_in=MERGE_RUNS)
    try:
        i = 0
        for batch in batches:
            chained = [r for r in batch if chainable(r)]
            nos = _id_number(pl.Series([r.get("hand_id") for r in chained], dtype=pl.String))[0].to_list()
            for r, no in zip(chained, nos, strict=True):
                t = r.get("start_utc")
                key = (table_key(r), t is None, 0 if t is None else t, no is None, 0 if no is None else no, i)
                spill.add((key, r))
                hid = r.get("hand_id")
                ids.add((key[0], hid is None, hid or "", key))
                i += 1
            timed = [{c: r.get(c) for c in narrow} for r in batch if _scheduled(r)]
            if timed:
                sched.add(pl.DataFrame(fit_rows(timed, narrow), schema=narrow, orient="row"))

        # a hand id seen before at its table (in chain order) keeps its first place: the later ones
        # are left out of the chain, as ``check`` leaves them out
        last: tuple[Any, ...] | None = None
        for table_id, no_id, hid, key in ids.sorted():
            if last == (table_id, no_id, hid):
                dropped.add(key)
            last = (table_id, no_id, hid)
        ids.close()

        def windows() -> Iterator[tuple[list[_Hand], int, int]]:
            buf: list[_Hand] = []  # the hands before the window (``lead`` of them), its own, the one after
            lead = 0
            for hand in _chained(spill.sorted(), dropped.sorted()):
                buf.append(hand)
                if len(buf) - lead >= per_part + AFTER:
                    yield buf, lead, lead + per_part
                    cut = max(0, lead + per_part - BEFORE)
                    buf, lead = buf[cut:], lead + per_part - cut
            if len(buf) > lead:
                yield buf, lead, len(buf)

        players: dict[str, tuple[int, int]] = {}  # of the current table: the place (k, g) of each one's last hand
        table: tuple[Any, ...] | None = None
        for buf, lead, end in windows():
            hands, seats = flat_frames([h.row for h in buf])
            found = check(hands.lazy(), seats=seats.lazy(), across=False).collect().select(list(FINDINGS))
            others = {_who(h.row) for h in buf[:lead] + buf[end:]}
            if others:
                who = pl.struct("hand_id", "path", "table", "site", "tournament_id")
                mine = found.select(who.alias("w"))["w"].to_list()
                found = found.filter(pl.Series([tuple(w.values()) not in others for w in mine], dtype=pl.Boolean))
            back: list[dict[str, Any]] = []
            first = buf[0].g  # the first hand the window's check saw
            for h in buf[lead:end]:
                if h.table != table:
                    table, players = h.table, {}
                for seat in h.row["seats"]:
                    p = seat.get("player")
                    if p is None:
                        continue
                    last = players.get(p)
                    if last is not None and last[1] < first and h.prev is not None:  # unseen by the check
                        back.append(_returned(h, seat, h.k - last[0] - 1))
                    players[p] = (h.k, h.g)
            yield found
            if back:
                yield pl.DataFrame(fit_rows(back, FINDINGS), schema=FINDINGS, orient="row")
        spill.close()
        dropped.close()
        yield from sched.rows()
    finally:
        spill.close()
        ids.close()
        dropped.close()
        sched.close()


def _scheduled(row: dict[str, Any]) -> bool:
    """Whether :func:`auditor.schedule.check` may read the hand of ``row`` (a timed tournament hand
    at a named table, not cancelled, not a pool's): the others are left out of its input."""
    return row.get("tournament_id") is not None and row.get("big_blind") is not None \
        and row.get("table") is not None and not row.get("cancelled") and not row.get("pool")  # fmt: skip


def _who(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row.get("hand_id"), row.get("path"), row.get("table"), row.get("site"), row.get("tournament_id"))


def _chained(items: Iterable[tuple[Any, ...]], dropped: Iterable[tuple[Any, ...]]) -> Iterator[_Hand]:
    """The hands of the sorted ``items`` ((key, row), in chain order) that ``check`` chains: all but
    those whose keys are ``dropped`` (in the same order: a hand id's later places at its table)."""
    table: tuple[Any, ...] | None = None
    prev: dict[str, Any] | None = None
    gone = iter(dropped)
    skip = next(gone, None)
    k = g = 0
    for key, row in items:
        if key[0] != table:
            table, prev, k = key[0], None, 0
        if key == skip:
            skip = next(gone, None)
            continue
        yield _Hand(row, key[0], k, g, prev)
        prev, k, g = row, k + 1, g + 1


def _returned(h: _Hand, seat: dict[str, Any], away: int) -> dict[str, Any]:
    """The T001 row (reason ``returned``) of a player of ``h`` back after ``away`` hands away."""
    r, p = h.row, h.prev
    assert p is not None
    return {"code": "T001", "site": r.get("site"), "hand_id": r.get("hand_id"), "path": r.get("path"),
            "line": seat.get("line"), "table": r.get("table"), "tournament_id": r.get("tournament_id"),
            "player": seat.get("player"), "reason": "returned", "expected": away, "actual": None,
            "decimals": r.get("decimals"), "prev_hand_id": p.get("hand_id"), "prev_path": p.get("path"),
            "prev_line": p.get("first_line")}  # fmt: skip


def findings_of(batches: Iterable[Rows], tmp: Path, hands: int, per_part: int = HANDS_PER_PARTITION,
                buffer_rows: int = BUFFER_ROWS, run_rows: int | None = None,
                max_buckets: int | None = None) -> list[Finding]:  # fmt: skip
    """The cross-hand findings of the ``hands`` hand rows in ``batches`` (:func:`sorted_finding_frames`)."""
    from auditor.continuity import to_findings

    frames = sorted_finding_frames(batches, tmp, hands, per_part, buffer_rows, run_rows, max_buckets=max_buckets)
    return [f for df in frames for f in to_findings(df)]


def finding_rows(batches: Iterable[Rows], tmp: Path, hands: int, per_part: int = HANDS_PER_PARTITION,
                 buffer_rows: int = BUFFER_ROWS) -> pl.DataFrame:  # fmt: skip
    """The rows of the cross-hand findings of ``batches`` in one frame (:func:`sorted_finding_frames`)."""
    import polars as pl

    from auditor.continuity import FINDINGS

    frames = list(sorted_finding_frames(batches, tmp, hands, per_part, buffer_rows))
    return pl.concat(frames, how="vertical_relaxed") if frames else pl.DataFrame(schema=FINDINGS)


def sorted_finding_frames(batches: Iterable[Rows], tmp: Path, hands: int, per_part: int = HANDS_PER_PARTITION,
                          buffer_rows: int = BUFFER_ROWS, run_rows: int | None = None,
                          out_rows: int = 1_000, max_buckets: int | None = None) -> Iterator[pl.DataFrame]:  # fmt: skip
    """The rows of the cross-hand findings of the ``hands`` hand rows in ``batches`` (see the
    module), in their order, as frames of at most ``out_rows`` rows (after a partitioned run).  A
    run of at most ``per_part`` hands is checked at once (one frame, in ``check``'s order); a larger
    one is split into buckets (files in ``tmp``), ``buffer_rows`` rows kept in memory at a time, and
    the buckets' findings are sorted by :data:`ORDER` on disk (:mod:`auditor.spillsort`,
    ``run_rows`` finding rows in memory at a time), so that neither the hands nor the findings of
    the run are held at once.  At most ``max_buckets`` (:data:`MAX_BUCKETS`) buckets are made at
    first; a bucket of more than 1.5 times ``per_part`` hands is split again by another hash."""
    if hands <= per_part:  # small: the whole run at once
        rows = [r for b in batches for r in b]
        if rows:
            yield check_rows(rows)
        return
    parts = min(-(-hands // per_part), MAX_BUCKETS if max_buckets is None else max_buckets)
    keys: dict[int, bytes | None] = {}
    sizes = _bucket(batches, lambda r: zlib.crc32(bucket_key(r)) % parts, lambda i: tmp / f"bucket-{i:06d}.pickle",
                    buffer_rows, keys)  # fmt: skip
    todo = [(tmp / f"bucket-{i:06d}.pickle", sizes[i], 1, keys[i] is not None) for i in sorted(sizes)]

    def checked() -> Iterator[pl.DataFrame]:
        while todo:
            path, size, salt, lone = todo.pop()
            # an unlucky bucket of several keys: split it again (one key cannot be)
            if size > per_part * 3 // 2 and salt <= MAX_SPLITS and not lone:
                k = -(-size // per_part)
                got: dict[int, bytes | None] = {}
                sub = _bucket(read_rows(path), _salted(salt, k), _beside(path), buffer_rows, got)
                path.unlink()
                if len(sub) > 1:  # (one part: keys no hash told apart)
                    todo.extend((_beside(path)(j), m, salt + 1, got[j] is not None) for j, m in sub.items())
                    continue
                path = _beside(path)(next(iter(sub)))
            if size > per_part * 3 // 2:  # still large: a huge table or tournament, in windows
                yield from windowed_frames(read_rows(path), path.with_suffix(".chain"), per_part)
            else:
                yield check_rows(list(r for b in read_rows(path) for r in b))
            path.unlink()

    from auditor import spillsort
    from auditor.continuity import FINDINGS

    yield from spillsort.sorted_frames(checked(), ORDER, FINDINGS, tmp / "runs",
                                       run_rows=run_rows or spillsort.RUN_ROWS, out_rows=out_rows)  # fmt: skip


def _salted(salt: int, k: int) -> Callable[[dict[str, Any]], int]:
    """A row's sub-bucket of ``k``: a hash of its :func:`bucket_key` independent of the first
    bucketing's and of every other ``salt``'s (BLAKE2b keyed by ``salt``).

    Not ``zlib.crc32(key, salt)``: a CRC is affine in its input, so a CRC started from another
    value is the first CRC XOR a constant (for keys of one length): its residues agree with the
    first bucketing's (which is ``crc32 % 64``) for every even ``k`` and stay correlated for the
    others, so the rows of an unlucky bucket went to one sub-bucket again and the bucket was
    checked whole.  At 10M hands the largest bucket checked had ~16,000 hands (8 times the
    partition size): the finisher's peak rose from ~121 MiB at 3M hands to ~202 MiB (s11-finish)."""
    key = salt.to_bytes(8, "little")

    def which(r: dict[str, Any]) -> int:
        return int.from_bytes(blake2b(bucket_key(r), digest_size=8, key=key).digest(), "little") % k

    return which


def _beside(path: Path) -> Callable[[int], Path]:
    return lambda j: path.with_name(f"{path.stem}-{j}.pickle")


def _bucket(batches: Iterable[Rows], which: Callable[[dict[str, Any]], int], file: Callable[[int], Path],
            buffer_rows: int, keys: dict[int, bytes | None] | None = None) -> dict[int, int]:  # fmt: skip
    """Append each row of ``batches`` to the file of its bucket (``file(which(row))``), ``buffer_rows``
    rows in memory at a time; the number of rows of each bucket.  ``keys``, if given, gets each
    bucket's one :func:`bucket_key`, or None for a bucket of several."""
    buf: dict[int, Rows] = {}
    sizes: dict[int, int] = {}
    n = 0

    def flush() -> None:
        for i, rs in buf.items():
            with open(file(i), "ab") as f:
                _dump(rs, f)
        buf.clear()

    for batch in batches:
        for r in batch:
            i = which(r)
            buf.setdefault(i, []).append(r)
            sizes[i] = sizes.get(i, 0) + 1
            if keys is not None and keys.get(i, b"") is not None:  # (a bucket's key, until a second one)
                key = bucket_key(r)
                if keys.setdefault(i, key) != key:
                    keys[i] = None
            n += 1
            if n % buffer_rows == 0:
                flush()
    flush()
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m auditor.crosshand_audit DIR HANDS PER_PART``: the findings of ``DIR``'s rows
    file (``HANDS`` hands), written to ``DIR/findings.pickle`` (the child process of :class:`Bounded`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    directory, hands, per_part = Path(args[0]), int(args[1]), int(args[2])
    with open(directory / FINDINGS_FILE, "wb") as f:
        for part in finding_parts(directory, hands, per_part):
            _dump(part, f)
    return 0


def finding_parts(directory: Path, hands: int, per_part: int) -> Iterator[list[Finding]]:
    """The findings of ``directory``'s rows file (``hands`` hands), in order, a thousand at a time
    (the work of the child process, :func:`main`, and of ``hhaudit audit``'s finisher)."""
    import tempfile

    from auditor.continuity import to_findings

    with tempfile.TemporaryDirectory(prefix="buckets-", dir=directory) as tmp:
        for df in sorted_finding_frames(read_rows(directory / ROWS_FILE), Path(tmp), hands, per_part):
            for i in range(0, df.height, 1_000):
                yield to_findings(df.slice(i, 1_000))


class FirstHandFirst:
    """A :class:`Bounded` collector that starts one hand late (see the module); ``defer``: see
    :class:`Bounded`."""

    def __init__(self, defer: bool = False) -> None:
        self.first: tuple[Audited, list[Finding], list[str]] | None = None
        self.inner: Bounded | None = None
        self.defer = defer

    @property
    def deferred(self) -> Deferred | None:
        """After :meth:`findings`: the query left to the caller (a large run, with ``defer``)."""
        return self.inner.deferred if self.inner is not None else None

    def add(self, a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
        if self.inner is None:
            if self.first is None:
                self.first = (a, list(findings), list(lines))
                return
            self.inner = Bounded(defer=self.defer)
            self.inner.add(*self.first)
            self.first = None
        self.inner.add(a, findings, lines)

    def findings(self) -> Iterator[Finding]:
        if self.inner is None:
            return iter(())  # no hand, or one: no two hands to compare
        return self.inner.findings()


if __name__ == "__main__":
    sys.exit(main())
