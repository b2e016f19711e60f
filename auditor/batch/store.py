"""The audit store: Parquet tables partitioned by night, written atomically, read back consistently.

Layout (``STORE`` is the directory given to ``hhaudit batch --store``)::

    STORE/
      files/night=2026-11-29/f-<key>.parquet           manifest: one row per audited file, its "done" mark
      files/night=2026-11-29/m-<run_id>.parquet        the night's manifest rows, compacted at the end of a run
      hands/night=2026-11-29/<key>.<audit_id>.0000.parquet      one part per file (more for large files)
      seats/night=2026-11-29/<key>.<audit_id>.0000.parquet      the seats of the hands of the same part
      findings/night=2026-11-29/<key>.<audit_id>.0000.parquet
      runs/night=2026-11-29/<run_id>.parquet           the run log: one row per run
      crosshand/night=2026-11-29/crosshand.parquet     findings across hands and files (T-codes, H001/H005
                                                       across files), rewritten after each run of the night
      .lock                                            held (flock) while a batch runs

``night`` is the date of the run that audited the file (``--night`` overrides it), so a night's
results are the files that were new or changed that night and can be read alone.  ``key`` is
:func:`file_key` of the source path; ``audit_id`` is :func:`audit_id` of the file's SHA-256, the
hhaudit version, the rule profile and the part size, so the same input always produces the same
part names with the same rows.

Commit protocol (what makes a killed run harmless):

1. Every file is written under a temporary name in the same directory and renamed into place
   (:func:`write_atomic`): a reader never sees half a Parquet file.
2. A file's ``hands`` and ``findings`` parts are written first, its manifest row last.  A part
   is *committed* when the newest manifest row of its key names its night and ``audit_id`` and
   its number is below the row's part count; anything else is garbage from a killed run.
3. Only then are the parts of the file's previous audit (if its content changed) deleted.
4. At the start of every run, under the store lock, :func:`collect_garbage` deletes
   uncommitted parts and temporary files, and flags manifest rows whose parts are missing so
   that their files are audited again.

Between a killed run and the next one a plain ``pl.scan_parquet`` glob can see uncommitted parts;
:func:`scan` never does (it keeps the committed parts only), and after any completed run the two
agree.  The manifest may hold a superseded row for a key until :func:`compact_manifest` runs at
the end of a run; readers keep the newest row per key (ordered by the coordinator's run start
time, then the worker's audit time).

Why one module of ~580 lines: the store's layout, schemas, crash-safe writes and repair must
change together; every other batch module reaches the store only through this one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any

import polars as pl

from auditor import continuity, tables

TABLES = ("files", "hands", "findings", "runs", "crosshand", "seats")
#: The tables written in numbered parts per audited file (committed by the file's manifest row).
PART_TABLES = ("hands", "findings", "seats")
NIGHT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
NIGHT = "night"
UTC_TIME = pl.Datetime("us", "UTC")

#: Manifest: one row per audited file (the newest row per ``file_key`` is the truth).
FILES: dict[str, pl.DataType] = {
    "file_key": pl.String(),
    "path": pl.String(),
    "size": pl.Int64(),
    "mtime": UTC_TIME,
    "sha256": pl.String(),
    "encoding": pl.String(),
    "status": pl.String(),  # "ok" (audited; its findings say what is wrong with it) or "error"
    "error": pl.String(),
    "hhaudit_version": pl.String(),
    "profile": pl.String(),  # the --rules profile, "site" for each hand's site profile
    "audit_id": pl.String(),
    "hand_parts": pl.Int32(),
    "finding_parts": pl.Int32(),
    "seat_parts": pl.Int32(),  # layout 2: one ``seats`` part per ``hands`` part (null: an older store)
    "hands_seen": pl.Int64(),
    "hands_parsed": pl.Int64(),
    "hands_failed": pl.Int64(),
    "findings": pl.Int64(),
    "worst": pl.String(),  # the most severe finding's severity, null when there is none
    "by_code": pl.String(),  # JSON object code -> count
    "run_id": pl.String(),
    "run_started_at": UTC_TIME,
    "audited_at": UTC_TIME,
    "seconds": pl.Float64(),
}

#: Hands: the columns of :data:`auditor.tables.HANDS` plus where they came from and what was found,
#: and the cross-hand stage's columns (:data:`auditor.continuity.COLUMNS`: seats with starting and
#: final stacks, the start in UTC, a fingerprint of the hand's text for duplicate ids across files).
HANDS: dict[str, pl.DataType] = {
    "file_key": pl.String(),
    "audit_id": pl.String(),
    **tables.HANDS,
    "players": pl.List(pl.String()),
    "findings": pl.Int32(),
    "worst": pl.String(),
    **continuity.COLUMNS,
    continuity.N_SEATS: pl.Int32(),
}

#: Seats (store layout 2): one row per seat of each hand, the flat form of the cross-hand stage's
#: seats (:data:`auditor.continuity.SEAT_FIELDS`), written in the order of the hands of the ``hands``
#: part of the same name, each hand's seats in its order: its ``n_seats`` rows.  A hand of layout 2
#: has ``n_seats`` (and a null nested ``seats``); an older store's hands have their seats nested.
SEATS: dict[str, pl.DataType] = {
    "file_key": pl.String(),
    "audit_id": pl.String(),
    "hand_no": pl.Int64(),
    **continuity.SEAT_FIELDS,
}

#: Findings: one row per finding.  ``hand_no`` numbers the hand headers of a file (null for a
#: finding about the file itself); ``table`` and ``player`` are filled when they are known.
FINDINGS: dict[str, pl.DataType] = {
    "file_key": pl.String(),
    "audit_id": pl.String(),
    "hand_no": pl.Int64(),
    "site": pl.String(),
    "hand_id": pl.String(),
    "table": pl.String(),
    "player": pl.String(),
    "code": pl.String(),
    "name": pl.String(),
    "severity": pl.String(),
    "path": pl.String(),
    "line": pl.Int64(),
    "column": pl.Int32(),
    "message": pl.String(),
    "profile": pl.String(),
    "data": pl.String(),  # the finding's data as JSON
}

#: The run log: one row per run, rewritten when the run ends.
RUNS: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "status": pl.String(),  # running, complete, interrupted, failed
    "started_at": UTC_TIME,
    "finished_at": UTC_TIME,
    "seconds": pl.Float64(),
    "hhaudit_version": pl.String(),
    "profile": pl.String(),
    "engine": pl.String(),
    "workers": pl.Int32(),
    "sources": pl.List(pl.String()),
    "files_seen": pl.Int64(),
    "files_audited": pl.Int64(),
    "files_replaced": pl.Int64(),
    "files_skipped": pl.Int64(),
    "files_error": pl.Int64(),
    "hands_seen": pl.Int64(),
    "hands_parsed": pl.Int64(),
    "hands_failed": pl.Int64(),
    "findings": pl.Int64(),
    "by_code": pl.String(),  # JSON object code -> count, this run's audited files
    "crosshand_by_code": pl.String(),  # JSON object code -> count, the night's cross-hand pass (crosshand table)
    "hands_per_s": pl.Float64(),
    "garbage_removed": pl.Int64(),  # uncommitted parts of a killed run deleted at the start
    "errors": pl.List(pl.String()),  # the first messages of files that could not be audited
    "exit_status": pl.Int32(),
}

SCHEMAS: dict[str, dict[str, pl.DataType]] = {"files": FILES, "hands": HANDS, "findings": FINDINGS, "runs": RUNS,
                                              "crosshand": FINDINGS, "seats": SEATS}  # fmt: skip

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class StoreBusy(RuntimeError):
    """Another batch holds the store's lock."""


def profile_label(rules: str) -> str:
    """How a ``--rules`` value is recorded: the profile name, or ``site`` for each hand's own."""
    return rules or "site"


def file_key(path: str) -> str:
    """A file's key in the store: a readable stem of its name and a hash of its absolute path.

    Only ``[A-Za-z0-9_-]`` (no dot), so that part names ``<key>.<audit_id>.<n>.parquet`` split on
    dots.  The same file named through another relative path has the same key.
    """
    ap = os.path.abspath(path)
    stem = _UNSAFE.sub("_", os.path.basename(ap))[:48].strip("_") or "file"
    digest = hashlib.sha1(ap.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return f"{stem}-{digest}"


def audit_id(sha256: str, version: str, profile: str, batch_size: int) -> str:
    """The name of one audit of one content: equal inputs give equal part names and rows."""
    text = f"{sha256}\0{version}\0{profile}\0{batch_size}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def night_dir(store: str, table: str, night: str) -> str:
    return os.path.join(store, table, f"{NIGHT}={night}")


def part_path(store: str, table: str, night: str, key: str, aid: str, n: int) -> str:
    """Where part ``n`` of a file's ``hands`` or ``findings`` rows lives."""
    return os.path.join(night_dir(store, table, night), f"{key}.{aid}.{n:04d}.parquet")


def manifest_path(store: str, night: str, key: str) -> str:
    """Where a file's own manifest row is written when the file is done."""
    return os.path.join(night_dir(store, "files", night), f"f-{key}.parquet")


def run_path(store: str, night: str, run_id: str) -> str:
    return os.path.join(night_dir(store, "runs", night), f"{run_id}.parquet")


# ---------------------------------------------------------------------------------- writing


def _fsync_dir(d: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(df: pl.DataFrame, path: str, durable: bool = True) -> None:
    """Write ``df`` as Parquet to ``path`` through a temporary name and a rename.

    The temporary name starts with a dot and ends in ``.tmp``: globs on ``*.parquet`` never see
    it, and :func:`collect_garbage` removes it if the writer was killed.  With ``durable``, the
    data and the directory entry are flushed to disk (survives a power cut, not only a kill).
    """
    d = os.path.dirname(path)
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "wb") as f:
            df.write_parquet(f, compression="zstd")
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(d)


def remove_quietly(path: str) -> bool:
    """Delete a file; False when it was already gone."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    return True


def _text(v: object) -> object:
    """A string that Parquet can hold: surrogates (bytes of a file name that are not UTF-8) escaped."""
    if isinstance(v, str) and not v.isascii():
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            return v.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    elif isinstance(v, list) and any(isinstance(x, str) for x in v):
        return [_text(x) for x in v]
    return v


def frame(rows: list[dict[str, Any]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """A DataFrame of ``rows`` (dicts) with exactly ``schema``'s columns and types.

    Strings that cannot be encoded (a file name that is not valid UTF-8) are escaped and integers
    beyond their column's type become null (:func:`auditor.tables.fit_rows`): one hostile value
    never loses the rows written with it.
    """
    if not rows:
        return pl.DataFrame(schema=schema)
    # column by column (issue 16: a cell at a time cost a worker ~5 % of its time): the values of
    # each schema column (a missing key is null, a key not in the schema is left out, as polars
    # reads rows of dicts), strings escaped, integers fitted
    return frame_columns({name: [r.get(name) for r in rows] for name in schema}, schema)


def frame_columns(columns: dict[str, list[Any]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """:func:`frame` of rows given column by column (``columns``: the values of each schema column,
    all of one length; a column not given is null): the same frame, without building the rows."""
    n = max((len(v) for v in columns.values()), default=0)
    cols: dict[str, list[Any]] = {}
    for name, dt in schema.items():
        values = columns.get(name)
        if values is None:
            values = [None] * n
        if dt == pl.String():
            values = [v if v.__class__ is not str or v.isascii() else _text(v) for v in values]
        elif isinstance(dt, pl.List):
            values = [v if v.__class__ is not list else _text(v) for v in values]
        cols[name] = tables.fit_column(values, dt)
    return pl.DataFrame(cols, schema=schema)


# ---------------------------------------------------------------------------------- reading


def _glob(store: str, table: str) -> str:
    return os.path.join(store, table, "**", "*.parquet")


def _has_parts(store: str, table: str) -> bool:
    root = os.path.join(store, table)
    if not os.path.isdir(root):
        return False
    for d in os.scandir(root):
        if d.is_dir() and d.name.startswith(f"{NIGHT}="):
            for f in os.scandir(d.path):
                if f.name.endswith(".parquet") and not f.name.startswith("."):
                    return True
    return False


def scan_raw(store: str, table: str) -> pl.LazyFrame:
    """Every row of every Parquet file of ``table`` (committed or not), with the ``night`` column."""
    schema = SCHEMAS[table]
    if not _has_parts(store, table):
        return pl.DataFrame(schema={**schema, NIGHT: pl.Date()}).lazy()
    return pl.scan_parquet(
        _glob(store, table),
        hive_partitioning=True,
        hive_schema={NIGHT: pl.Date()},
        schema=schema,
        missing_columns="insert",
    )


def _newest_per_key(lf: pl.LazyFrame) -> pl.LazyFrame:
    return lf.sort(["run_started_at", "audited_at"], nulls_last=False).unique(
        subset=["file_key"], keep="last", maintain_order=True
    )


#: Manifest files read per polars call: reading thousands of one-row Parquet files in one scan
#: costs memory per file; in batches (rechunked) it costs the rows only.
READ_BATCH = 128
_NIGHT_OF = r"night=(\d{4}-\d{2}-\d{2})"


def manifest_files(store: str) -> list[str]:
    """Every Parquet file of the ``files`` table (``f-`` rows of single files, ``m-`` compacted nights)."""
    root = os.path.join(store, "files")
    if not os.path.isdir(root):
        return []
    out = []
    for d in sorted(os.scandir(root), key=lambda e: e.name):
        if d.is_dir() and d.name.startswith(f"{NIGHT}="):
            out += sorted(f.path for f in os.scandir(d.path) if f.name.endswith(".parquet") and f.name[0] != ".")
    return out


def read_manifest(store: str, columns: list[str] | None = None, paths: list[str] | None = None) -> pl.DataFrame:
    """Every manifest row (superseded ones included) with ``night`` and ``source`` (the file it is in)."""
    cols = columns or list(FILES)
    schema = {c: FILES[c] for c in cols}
    frames = []
    paths = manifest_files(store) if paths is None else paths
    for i in range(0, len(paths), READ_BATCH):
        lf = pl.scan_parquet(
            paths[i : i + READ_BATCH], schema=FILES, missing_columns="insert", include_file_paths="source"
        )
        frames.append(lf.select(*cols, "source").collect().rechunk())
    df = pl.concat(frames) if frames else pl.DataFrame(schema={**schema, "source": pl.String()})
    return df.with_columns(pl.col("source").str.extract(_NIGHT_OF).str.to_date().alias(NIGHT)).select(
        *cols, NIGHT, "source"
    )


def load_manifest(store: str, columns: list[str] | None = None) -> pl.DataFrame:
    """The ``files`` table: the newest manifest row of every file key (``columns`` and ``night``)."""
    cols = columns or list(FILES)
    need = list(dict.fromkeys([*cols, "file_key", "run_started_at", "audited_at"]))
    df = _newest_per_key(read_manifest(store, need).lazy()).collect()
    return df.select(*cols, NIGHT)


def scan(store: str, table: str) -> pl.LazyFrame:
    """A consistent view of one table of the store.

    ``files``: the newest manifest row per file.  ``hands``, ``findings`` and ``seats``: the rows of committed
    parts only (a semi-join on the manifest's night, file key and ``audit_id``).  ``runs``: as
    stored.  Every table has the hive partition column ``night`` (a ``Date``).
    """
    if table not in SCHEMAS:
        raise ValueError(f"unknown table {table!r}; the store holds {', '.join(TABLES)}")
    if table == "files":
        return load_manifest(store).lazy()
    raw = scan_raw(store, table)
    if table in ("runs", "crosshand"):
        return raw
    live = load_manifest(store, ["file_key", "audit_id", "status"]).filter(pl.col("status") == "ok")
    live = live.select(NIGHT, "file_key", "audit_id")
    return raw.join(live.lazy(), on=[NIGHT, "file_key", "audit_id"], how="semi")


# ---------------------------------------------------------------------------------- manifest entries


@dataclass(frozen=True, slots=True)
class Entry:
    """What the coordinator needs of a file's newest manifest row (shipped to the worker)."""

    night: str
    file_key: str
    audit_id: str
    sha256: str
    hhaudit_version: str
    profile: str
    status: str
    hand_parts: int
    finding_parts: int
    seat_parts: int = 0

    def part_paths(self, store: str) -> list[str]:
        """The committed parts of this audit (none for a file that could not be audited)."""
        out = [part_path(store, "hands", self.night, self.file_key, self.audit_id, n) for n in range(self.hand_parts)]
        out += [
            part_path(store, "findings", self.night, self.file_key, self.audit_id, n) for n in range(self.finding_parts)
        ]
        out += [part_path(store, "seats", self.night, self.file_key, self.audit_id, n) for n in range(self.seat_parts)]
        return out


ENTRY_COLUMNS = [
    "file_key",
    "audit_id",
    "sha256",
    "hhaudit_version",
    "profile",
    "status",
    "hand_parts",
    "finding_parts",
    "seat_parts",
]


def entries(manifest: pl.DataFrame) -> dict[str, Entry]:
    """Manifest rows (from ``load_manifest(store, ENTRY_COLUMNS)``) by file key."""
    out: dict[str, Entry] = {}
    df = manifest.select(pl.col(NIGHT).cast(pl.String), *ENTRY_COLUMNS)
    for night, key, aid, sha, ver, prof, status, hp, fp, sp in df.iter_rows():
        out[key] = Entry(night, key, aid or "", sha or "", ver or "", prof or "", status or "", hp or 0, fp or 0,
                         sp or 0)  # fmt: skip
    return out


# ---------------------------------------------------------------------------------- cleaning up


@dataclass
class Cleanup:
    """What :func:`collect_garbage` did."""

    removed_parts: int = 0
    removed_temp: int = 0
    incomplete: list[str] = field(default_factory=list)  # keys whose committed parts are missing or corrupt
    corrupt: list[str] = field(default_factory=list)  # committed parts that were unreadable (removed)


def readable(path: str) -> bool:
    """Whether ``path`` is a whole Parquet file (its footer reads): a zero-byte or cut part is not."""
    try:
        pl.read_parquet_schema(path)
    except Exception:  # polars raises several kinds for a bad footer; any of them means "not readable"
        return False
    return True


def verify_manifest(store: str) -> list[str]:
    """Remove manifest files that are not whole Parquet files; returns their paths.

    Call it holding the store lock, before :func:`load_manifest`.  The files whose rows were in a
    removed manifest file lose their "done" mark, so the run audits them again, and the parts of
    their old audit become uncommitted and are collected as garbage: the store repairs itself.
    """
    bad = [p for p in manifest_files(store) if not readable(p)]
    for p in bad:
        remove_quietly(p)
    return bad


def _walk(store: str, table: str) -> Iterator[os.DirEntry[str]]:
    root = os.path.join(store, table)
    if not os.path.isdir(root):
        return
    for d in os.scandir(root):
        if d.is_dir():
            yield from os.scandir(d.path)
        elif d.name.endswith(".tmp"):
            yield d


def remove_unreadable(store: str, entry: Entry) -> list[str]:
    """Remove the committed parts of ``entry`` that exist but are not whole Parquet files (a
    zero-byte or cut part: a full disk, a crash of the disk itself); returns their paths.  Reads
    each part's footer: :func:`collect_garbage` leaves this to later (issue 16: it grows with the
    store's history), to the worker of a listed file and to a thread for the others."""
    broken = [p for p in entry.part_paths(store) if os.path.exists(p) and not readable(p)]
    for p in broken:
        remove_quietly(p)
    return broken


def collect_garbage(store: str, known: dict[str, Entry], footers: bool = True) -> Cleanup:
    """Remove what a killed run left behind; call it holding the store lock, before any work.

    Deletes every ``hands``/``findings`` part that is not committed by its key's newest manifest
    row in ``known`` and every temporary file.  A manifest row whose parts are missing (deleted by
    hand, or by a race with a killed run's orphaned worker) or, with ``footers``, unreadable
    (removed, and named in ``corrupt``: :func:`remove_unreadable`) is reported in ``incomplete`` so
    that its file is audited again.  ``footers=False`` reads no part (only the directory entries):
    the caller runs :func:`remove_unreadable` on the committed parts itself.
    """
    out = Cleanup()
    live: set[str] = set()
    for e in known.values():
        paths = e.part_paths(store)
        live.update(paths)
        if e.status != "ok":
            continue
        broken = remove_unreadable(store, e) if footers else []
        out.corrupt += broken
        if broken or not all(os.path.exists(p) for p in paths):
            out.incomplete.append(e.file_key)
    if os.path.isdir(store):  # a killed cross-hand pass's partition files (auditor/batch/nightpass.py)
        for d in os.scandir(store):
            if d.is_dir() and d.name.startswith("crosshand-"):
                shutil.rmtree(d.path, ignore_errors=True)
                out.removed_temp += 1
    for table in (*TABLES, "tails"):  # tails: the night pass's table tails files
        for f in _walk(store, table):
            if f.name.endswith(".tmp"):
                out.removed_temp += remove_quietly(f.path)
            elif table in PART_TABLES and f.name.endswith(".parquet") and f.path not in live:
                out.removed_parts += remove_quietly(f.path)
    return out


def compact_rows(store: str, night: str, paths: list[str], name: str) -> None:
    """Move the manifest rows of ``paths`` (files of one night) into one file ``name`` of that night.

    The new file is written before the old ones are deleted; a kill in between leaves duplicate
    rows, which readers already ignore (same key, same times).
    """
    if not paths:
        return
    target = os.path.join(night_dir(store, "files", night), name)
    rows = read_manifest(store, paths=paths).drop(NIGHT, "source")
    write_atomic(rows, target)
    for p in paths:
        if os.path.abspath(p) != os.path.abspath(target):
            remove_quietly(p)


def compact_manifest(store: str, run_id: str) -> int:
    """Rewrite each night's manifest as one file holding only the newest row of each key.

    Nights already held in one file with no superseded row are left alone.  Returns the number of
    nights rewritten.
    """
    index = read_manifest(store, ["file_key", "run_started_at", "audited_at"])
    if index.is_empty():
        return 0
    newest = _newest_per_key(index.lazy()).select("file_key", "source").collect()
    rewritten = 0
    for (night,), rows in index.group_by(NIGHT):
        sources = sorted(rows["source"].unique().to_list())
        keep = newest.join(rows.select("file_key", "source"), on=["file_key", "source"], how="semi")
        if len(sources) == 1 and len(keep) == len(rows) and os.path.basename(sources[0]).startswith("m-"):
            continue
        label = night.isoformat()
        target = os.path.join(night_dir(store, "files", label), f"m-{run_id}.parquet")
        if not keep.is_empty():
            full = read_manifest(store, paths=sources)
            full = full.join(keep, on=["file_key", "source"], how="semi").unique(["file_key"], keep="first")
            write_atomic(full.drop(NIGHT, "source").sort("file_key"), target)
        for p in sources:
            if os.path.abspath(p) != os.path.abspath(target):
                remove_quietly(p)
        rewritten += 1
    return rewritten


# ---------------------------------------------------------------------------------- locking


class StoreLock:
    """An exclusive, non-blocking ``flock`` on ``STORE/.lock`` for the length of a run.

    The kernel releases it when the process dies, so a killed run never leaves the store locked.
    Where ``fcntl`` does not exist (Windows) the lock is a no-op.
    """

    def __init__(self, store: str) -> None:
        self.path = os.path.join(store, ".lock")
        self._f: IO[str] | None = None

    def __enter__(self) -> StoreLock:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        f = open(self.path, "a+", encoding="utf-8")  # closed in __exit__
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            self._f = f
            return self
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.close()
            raise StoreBusy(f"another batch is running on this store ({self.path} is locked)") from None
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")
        f.flush()
        self._f = f
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._f is not None:
            self._f.close()  # closing the descriptor releases the flock
            self._f = None
