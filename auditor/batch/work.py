"""The per-file work of a batch: one function, :func:`audit_file`, run by every engine.

``audit_file(task)`` takes a picklable :class:`FileTask` (a file, the store, the rule profile, the
hhaudit version and the file's previous manifest entry) and returns a small :class:`FileResult`
(counts, codes, worst severity, an error message).  Everything big stays in the worker: rows are
streamed into Parquet parts of at most ``batch_size`` rows written straight into the store, so a
worker holds one part's rows at a time however large the file (plus, for the duplicate hand id
check, one entry per hand id of the file).  The serial, process-pool and Dask engines only move
tasks and results.

Steps, in a crash-safe order (see :mod:`auditor.batch.store`):

1. hash the file (SHA-256); if its newest manifest row has the same hash, hhaudit version and
   profile and says ``ok``, and its committed parts are whole Parquet files, return ``skipped`` -
   nothing is parsed (an unreadable part is removed and the file audited again);
2. stream it (``read_stream`` -> :class:`auditor.audit.AuditRun`, the step ``hhaudit audit`` uses,
   with the duplicate-id check per file), writing ``hands`` and ``findings`` parts as they fill;
3. write the manifest row (the file's "done" mark);
4. delete the parts of the file's previous audit.

A file that cannot be decoded or parsed is audited like any other: its problems are findings
(P001-P006).  A file that cannot be read, or on which hhaudit itself fails, gets a manifest row
with status ``error`` and the message, and is tried again on the next run; it never stops the batch.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import polars as pl

from auditor import __version__, continuity
from auditor import model as M
from auditor.audit import AuditRun
from auditor.batch import DEFAULT_BATCH_SIZE
from auditor.batch import store as S
from auditor.findings import Finding, Severity
from auditor.ingest import read_stream
from auditor.tables import hand_row


@dataclass(frozen=True, slots=True)
class FileTask:
    """One file to audit, with everything the worker needs (picklable; shipped to Dask workers)."""

    path: str  # absolute
    key: str  # store.file_key(path)
    night: str  # YYYY-MM-DD partition the rows go to
    store: str  # absolute; on a cluster, a directory every worker can write
    profile: str  # --rules value; "" judges each hand by its site's profile
    version: str  # the coordinator's hhaudit version; a worker running another one refuses the task
    run_id: str
    run_started_at: datetime
    batch_size: int = DEFAULT_BATCH_SIZE  # rows per Parquet part
    old: S.Entry | None = None  # the file's newest manifest row, if any
    pause: float = 0.0  # test hook (HHAUDIT_BATCH_PAUSE): seconds to sleep after each part written
    stage: str | None = None  # a folder for each hands part's rows as the night pass reads them (nightpass.stage_part)


@dataclass(slots=True)
class FileResult:
    """What a worker reports about one file (small: no rows)."""

    path: str
    key: str
    status: str  # "audited", "skipped" or "error"
    replaced: bool = False  # audited again because its content (or version, profile) changed
    size: int = 0
    hands_seen: int = 0
    hands_parsed: int = 0
    hands_failed: int = 0
    by_code: dict[str, int] = field(default_factory=dict)
    worst: int = 0  # int(Severity) of the worst finding, 0 when there is none
    error: str | None = None
    seconds: float = 0.0
    corrupt: list[str] = field(default_factory=list)  # unreadable parts of its previous audit, removed
    pid: int = 0  # the process that audited the file, and its CPU seconds so far (start-up included):
    cpu: float = 0.0  # each worker's own CPU, for the run's timings (benchmarks/bench_batch.py --phases)
    cpu_started: float = 0.0  # the worker's CPU seconds when it took the file,
    started: float = 0.0  # and the system's monotonic clock then and when it was done (one clock for every
    ended: float = 0.0  # process of the machine: a worker's idle time between its files, --phases)

    @property
    def findings(self) -> int:
        return sum(self.by_code.values())


class StoreWriteError(Exception):
    """A part could not be written to the store (disk full, permissions): not the source file's fault."""


class _HashingFile(io.FileIO):
    """A raw binary file that hashes every byte read through it (the content actually audited)."""

    def __init__(self, path: str) -> None:
        super().__init__(path, "rb")
        self.digest = hashlib.sha256()
        self.nbytes = 0

    def read(self, size: int | None = -1, /) -> bytes:
        data = super().read(size)
        if data:
            self.digest.update(data)
            self.nbytes += len(data)
        return data or b""


def sha256_file(path: str) -> str:
    """The SHA-256 of a file, read in blocks."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _player_at(hand: M.Hand, line: int | None) -> str | None:
    """The player of the first event (or seat) printed on ``line`` of ``hand``, if any."""
    if line is None:
        return None
    for e in hand.events:
        if e.line == line:
            p = getattr(e, "player", None)
            if isinstance(p, str):
                return p
    for s in hand.seats:
        if s.line == line:
            return s.player
    return None


def finding_row(f: Finding, key: str, aid: str, hand_no: int | None, hand: M.Hand | None) -> dict[str, Any]:
    """A finding as a ``findings`` row; ``player`` comes from its data, else from the line it points at."""
    player = f.data.get("player")
    if not isinstance(player, str):
        player = _player_at(hand, f.line) if hand is not None else None
    profile = f.data.get("profile")
    return {
        "file_key": key,
        "audit_id": aid,
        "hand_no": hand_no,
        "site": f.site,
        "hand_id": f.hand_id,
        "table": hand.table if hand is not None else None,
        "player": player,
        "code": f.code,
        "name": f.name,
        "severity": str(f.severity),
        "path": f.path,
        "line": f.line,
        "column": f.column,
        "message": f.message,
        "profile": profile if isinstance(profile, str) else None,
        "data": json.dumps(f.data, ensure_ascii=False, sort_keys=True, default=str) if f.data else None,
    }


class _Parts:
    """Buffers one file's rows and writes them as numbered Parquet parts of at most ``size`` rows."""

    def __init__(self, task: FileTask, aid: str) -> None:
        self.task = task
        self.aid = aid
        self.hands: list[dict[str, Any]] = []
        self.seats: list[dict[str, Any]] = []  # the seats of ``hands`` (layout 2: a ``seats`` part per hands part)
        self.findings: list[dict[str, Any]] = []
        self.hand_parts = 0
        self.finding_parts = 0
        self.written: list[str] = []

    def add(self, hand_no: int | None, hand: M.Hand | None, fs: list[Finding],
            extra: dict[str, Any] | None = None) -> None:  # fmt: skip
        t = self.task
        for f in fs:
            self.findings.append(finding_row(f, t.key, self.aid, hand_no, hand))
        if hand is not None and hand_no is not None:
            row = hand_row(hand_no, hand)
            worst = max((int(f.severity) for f in fs), default=0)
            row.update(
                file_key=t.key,
                audit_id=self.aid,
                players=[s.player for s in hand.seats],
                findings=len(fs),
                worst=str(Severity(worst)) if worst else None,
            )
            if extra:
                # the seats go flat to the ``seats`` part (store layout 2); the hand keeps ``n_seats``
                hand_extra, seats = continuity.flat_row(extra)
                row.update(hand_extra)
                row["seats"] = None
                loc = {"file_key": t.key, "audit_id": self.aid, "hand_no": hand_no}
                self.seats += [{**loc, **x} for x in seats]
            self.hands.append(row)
        if len(self.hands) >= t.batch_size:
            self._flush_hands()
        if len(self.findings) >= t.batch_size:
            self._flush_findings()

    def _write(self, table: str, n: int, rows: list[dict[str, Any]]) -> pl.DataFrame:
        t = self.task
        path = S.part_path(t.store, table, t.night, t.key, self.aid, n)
        df = S.frame(rows, S.SCHEMAS[table])
        try:
            S.write_atomic(df, path)
        except OSError as e:
            raise StoreWriteError(f"{path}: {e.strerror or e}") from e
        self.written.append(path)
        rows.clear()
        if t.pause:
            time.sleep(t.pause)
        return df

    def _flush_hands(self) -> None:
        if self.hands:
            seats = self._write("seats", self.hand_parts, self.seats)
            hands = self._write("hands", self.hand_parts, self.hands)
            t = self.task
            if t.stage:  # the night pass's view of the part, while it is in memory (issue 16)
                from auditor.batch.nightpass import stage_part

                stage_part(t.stage, S.part_path(t.store, "hands", t.night, t.key, self.aid, self.hand_parts),
                           t.night, hands, seats)  # fmt: skip
            self.hand_parts += 1

    def _flush_findings(self) -> None:
        if self.findings:
            self._write("findings", self.finding_parts, self.findings)
            self.finding_parts += 1

    def close(self) -> None:
        self._flush_hands()
        self._flush_findings()

    def discard(self) -> None:
        for p in self.written:
            S.remove_quietly(p)
        self.written.clear()


def _manifest_row(task: FileTask, res: FileResult, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(S.FILES)
    row.update(
        file_key=task.key,
        path=task.path,
        size=res.size,
        hhaudit_version=task.version,
        profile=S.profile_label(task.profile),
        run_id=task.run_id,
        run_started_at=task.run_started_at,
        audited_at=_now(),
        seconds=res.seconds,
        hand_parts=0,
        finding_parts=0,
        hands_seen=res.hands_seen,
        hands_parsed=res.hands_parsed,
        hands_failed=res.hands_failed,
        findings=res.findings,
        worst=str(Severity(res.worst)) if res.worst else None,
        by_code=json.dumps(dict(sorted(res.by_code.items()))),
    )
    row.update(kw)
    return row


def _commit(task: FileTask, row: dict[str, Any], new_parts: list[str]) -> None:
    """Write the manifest row (the "done" mark), then delete the previous audit's leftovers."""
    if task.pause:
        time.sleep(task.pause)
    S.write_atomic(S.frame([row], S.FILES), S.manifest_path(task.store, task.night, task.key))
    old = task.old
    if old is None:
        return
    keep = set(new_parts)
    for p in old.part_paths(task.store):
        if p not in keep:
            S.remove_quietly(p)
    if old.night != task.night:
        # Only its own manifest file; a row compacted into a night's m- file is superseded by the
        # newer row and dropped by the next compaction.
        S.remove_quietly(S.manifest_path(task.store, old.night, task.key))


def _fail(task: FileTask, res: FileResult, message: str, **kw: Any) -> FileResult:
    res.status = "error"
    res.error = message
    res.hands_seen = res.hands_parsed = res.hands_failed = 0
    res.by_code = {}
    res.worst = 0
    _commit(task, _manifest_row(task, res, status="error", error=message, **kw), [])
    return res


def _unchanged(task: FileTask, sha: str) -> bool:
    old = task.old
    return (
        old is not None
        and old.status == "ok"
        and old.sha256 == sha
        and old.hhaudit_version == task.version
        and old.profile == S.profile_label(task.profile)
    )


def audit_file(task: FileTask) -> FileResult:
    """Audit one file into the store (or skip it when unchanged); never raises.

    See the module documentation for the steps.  The result's ``status`` is ``audited``,
    ``skipped`` or ``error``; ``error`` results were recorded in the manifest when the store could
    be written at all (the message says what failed).
    """
    started, cpu_started = time.monotonic(), time.process_time()
    res = FileResult(task.path, task.key, "error", cpu_started=cpu_started, started=started)
    try:
        if task.version != __version__:
            res.error = f"this worker runs hhaudit {__version__}, the batch was started by hhaudit {task.version}"
            return res
        _audit(task, res)
    except Exception as e:  # the store could not be written: report it and go on with the next file
        res.status = "error"
        res.error = f"cannot write the store: {type(e).__name__}: {e}"
    res.ended = time.monotonic()
    res.seconds = res.ended - started
    res.pid, res.cpu = os.getpid(), time.process_time()
    return res


def _audit(task: FileTask, res: FileResult) -> None:
    try:
        st = os.stat(task.path)
        res.size = st.st_size
        sha = sha256_file(task.path)
    except OSError as e:
        _fail(task, res, f"cannot read {task.path}: {e.strerror or e}")
        return
    mtime = datetime.fromtimestamp(st.st_mtime, UTC)
    if _unchanged(task, sha):
        assert task.old is not None
        # its committed parts' footers (issue 16: read here, in parallel, not by the batch process
        # before the first file): a part that is not a whole Parquet file is removed and the file
        # audited again
        res.corrupt = S.remove_unreadable(task.store, task.old)
        if not res.corrupt:
            res.status = "skipped"
            return
    aid = S.audit_id(sha, task.version, S.profile_label(task.profile), task.batch_size)
    parts = _Parts(task, aid)
    by_code: Counter[str] = Counter()
    worst = 0
    t0 = time.perf_counter()
    try:
        with _HashingFile(task.path) as f:
            info, items = read_stream(f, task.path, st.st_size)
            run = AuditRun(rules=task.profile or None)  # duplicate ids: within this file
            hand_no = 0
            for item in items:
                if isinstance(item, Finding):
                    fs = [item]
                    parts.add(None, None, fs)
                else:
                    res.hands_seen += 1
                    r = run.process(item)
                    hand, fs = r.hand, r.findings
                    if hand is None:
                        res.hands_failed += 1
                    else:
                        res.hands_parsed += 1
                    extra = None
                    if hand is not None:
                        extra = (continuity.hand_columns(r.audited, fs, r.chunk.lines) if r.audited is not None
                                 else continuity.copy_columns(r.chunk.lines))  # fmt: skip
                    parts.add(hand_no, hand, fs, extra)
                    hand_no += 1
                for x in fs:
                    by_code[x.code] += 1
                    worst = max(worst, int(x.severity))
            parts.close()
            streamed_sha, size = f.digest.hexdigest(), f.nbytes
    except StoreWriteError:
        parts.discard()
        raise
    except OSError as e:
        parts.discard()
        _fail(task, res, f"cannot read {task.path}: {e.strerror or e}", sha256=sha, mtime=mtime)
        return
    except Exception as e:  # a bug in hhaudit on this input: record it, keep nothing of the file
        parts.discard()
        where = traceback.extract_tb(e.__traceback__)[-1]
        at = f"{os.path.basename(where.filename)}:{where.lineno}"
        msg = f"hhaudit failed on this file: {type(e).__name__}: {e} ({at})"
        _fail(task, res, msg, sha256=sha, mtime=mtime)
        return
    res.status = "audited"
    res.replaced = task.old is not None and task.old.status == "ok" and not res.corrupt
    res.size = size
    res.by_code = dict(by_code)
    res.worst = worst
    res.seconds = time.perf_counter() - t0
    row = _manifest_row(
        task,
        res,
        status="ok",
        mtime=mtime,
        sha256=streamed_sha,
        encoding=info.encoding,
        audit_id=aid,
        hand_parts=parts.hand_parts,
        finding_parts=parts.finding_parts,
        seat_parts=parts.hand_parts,
    )
    _commit(task, row, parts.written)
