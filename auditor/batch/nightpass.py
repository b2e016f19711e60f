"""The batch cross-hand pass in bounded memory (issue 16): what grows with the night or the store's
history is streamed through files, so a night of millions of hands needs the memory of one
partition, not of the night.

* **Table tails** (:func:`tails`): the last two hands of each table of a night, with their seats
  nested, written to ``tails/night=N/tails-<digest>.parquet`` when the night's cross-hand pass runs
  (``digest``: a hash of the night's committed files and audits in the manifest, so a file of a
  night audited again makes that night's tails stale, and they are rebuilt).  A night is chained to
  the last two hands of each table among the earlier nights' tails (read those small files, not
  every earlier night's hands); a night without a tails file (an older store) is read from its
  hands once and its tails file written.
* **Streamed partitions** (:func:`stream_night`): the night's ``hands`` parts and their paired
  ``seats`` parts are read one part at a time, each hand tagged with the hash of its
  :func:`auditor.continuity.partition_key` (a tournament's tables together), buffered up to
  :data:`CHUNK_BYTES`, and each buffer appended as one more segment (:func:`_append`) to the hands
  and seats files of each partition it touches: two files per partition, whatever the night's size;
  each partition (its files' segments, in order) is checked alone.  The partitions are exactly
  those of :func:`auditor.batch.crosshand.split_flat` (same hash, same order), so the rows are the
  same.
* **Staged nights** (:func:`staged_night`, issue 16): with a local pool the workers stage each
  hands part as they write it (:func:`stage_part`); a night of as many partitions as workers is
  checked by jobs that each read every staged file and keep their own hands
  (:func:`staged_partition_job`); a larger one (its partitions a multiple of the workers) is first
  cut by one :func:`scatter_job` a worker, each over a run of consecutive staged files
  (:func:`slices`) read a few files a scan, into partition files of its own, so each staged file
  is read once, by one worker; partition ``p`` is then the files of every scatter job, in order.
* **Rows located by their partition** (:func:`located_rows`): when no file of the night repeats a
  hand id (:func:`located_here`, from the manifest's ``by_code``), a (site, hand id, path) is one
  hand of the night, in one partition, so each job locates its own rows and makes them store rows
  with the keys of their order, and the batch process only merges them; otherwise it locates the
  rows through the night's hands (:func:`auditor.batch.crosshand._located`).
* **Duplicate ids by bucket** (:func:`night_duplicates`): the night's (site, hand id) pairs go to
  B buckets by a hash of the pair; the store's hands are cut once into one file per bucket
  (:func:`_bucket_files`), each bucket's ids are matched against the store's hands of the same
  bucket (no sort of every id of the store), and only those rows are ordered to find each id's
  first occurrence, as :func:`auditor.batch.crosshand.duplicates` does.

* **Results spilled and merged by range** (:func:`spill`, :func:`in_ranges`): each partition's job
  writes its continuity rows (ordered by path) and its share of the tails (ordered by file key) to
  files and returns their paths (:func:`spill_result`), and the duplicate-id buckets are spilled
  the same way; the batch process then cuts them into ranges of path (or file key) of at most
  :data:`ROWS_PER_RANGE` rows, reading each file once and appending its rows to one file per range,
  and reads them back range by range, sorts each range as the whole night's rows would be sorted,
  and writes it on: one range in memory, whatever the night's size, and each row read once.

Temporary files live in ``STORE/crosshand-<random>/`` and are removed when the pass ends.  The
store's manifest is read once a pass while its files stay the same (:func:`_manifest`).  What fits
in one range is not spilled twice: one bucket of ids is read straight from the store, spilled rows
of at most :data:`ROWS_PER_RANGE` come back in one read, and findings of at most that many rows are
written as they are (:func:`write_frames`).
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import date

import polars as pl

from auditor import continuity as C
from auditor.batch import store as S

_LOC = ["file_key", "audit_id", "hand_no", "night"]
_SEAT_KEY = [S.NIGHT, "file_key", "hand_no"]
#: Hand ids matched at once by :func:`night_duplicates`.
IDS_PER_BUCKET = 100_000
TAILS = "tails"


# ------------------------------------------------------------------------------------- table tails


def _digest(entries: pl.DataFrame) -> str:
    rows = sorted(f"{k}\0{a}" for k, a in entries.select("file_key", "audit_id").iter_rows())
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]


_MANIFEST_COLS = ["file_key", "audit_id", "status", "hand_parts", "seat_parts", "by_code"]
_manifests: dict[str, tuple[tuple[tuple[str, int, int, int], ...], pl.DataFrame]] = {}


def _manifest(store: str) -> pl.DataFrame:
    """The store's ``files`` table (:func:`auditor.batch.store.load_manifest`, the columns the pass
    reads), loaded once while its files stay the same (path, inode, size, modification time): the
    night pass reads it several times (issue 16: ~5-10 ms each)."""
    try:
        sig = tuple((f, st.st_ino, st.st_size, st.st_mtime_ns) for f in S.manifest_files(store) for st in [os.stat(f)])
    except OSError:  # a file replaced while listed: read it without the cache
        return S.load_manifest(store, _MANIFEST_COLS)
    got = _manifests.get(store)
    if got is None or got[0] != sig:
        got = (sig, S.load_manifest(store, _MANIFEST_COLS))
        _manifests.clear()  # the last store only
        _manifests[store] = got
    return got[1]


def _live(store: str) -> pl.DataFrame:
    m = _manifest(store).select("file_key", "audit_id", "status", S.NIGHT)
    return m.filter(pl.col("status") == "ok")


def _nested(store: str, day: date, hands: pl.DataFrame) -> pl.DataFrame:
    """``hands`` (rows of one night, flat or nested) with their seats nested and ``n_seats`` null."""
    from auditor.batch.crosshand import _table_seats

    flat = hands.filter(pl.col(C.N_SEATS).is_not_null())
    if flat.height:
        keys = flat.select(_SEAT_KEY).lazy()
        some = S.scan(store, "seats").filter(pl.col(S.NIGHT) == day).join(keys, on=_SEAT_KEY, how="semi")
        sf = _table_seats(some, flat)
        grouped = sf.group_by(_SEAT_KEY, maintain_order=True).agg(pl.struct(list(C.SEAT_FIELDS)).alias("_s"))
        hands = hands.join(grouped, on=_SEAT_KEY, how="left", maintain_order="left")
        hands = hands.with_columns(
            pl.when(pl.col(C.N_SEATS).is_not_null()).then(pl.col("_s")).otherwise(pl.col("seats")).alias("seats")
        ).drop("_s")
    return hands.with_columns(pl.col("seats").cast(pl.List(C.SEAT)), pl.lit(None, pl.Int32).alias(C.N_SEATS))


def _cols(lf: pl.LazyFrame) -> pl.LazyFrame:
    return lf.select(*C.INPUT, C.N_SEATS, *_LOC)


def _last_two(lf: pl.LazyFrame) -> pl.LazyFrame:
    return _cols(C.order(lf).filter(pl.col("k") >= pl.col("k").max().over("tkey") - 1))


def tails_path(store: str, night: str, digest: str) -> str:
    return os.path.join(S.night_dir(store, TAILS, night), f"tails-{digest}.parquet")


def write_tails(
    store: str,
    night: str,
    parts: list[pl.DataFrame] | None = None,
    live: pl.DataFrame | None = None,
    files: list[str] | None = None,
) -> pl.DataFrame | None:
    """Write the tails file of ``night`` (replacing any older one): from ``parts`` (the tails of
    each partition of a streamed night, :func:`check_streamed`), from ``files`` (those tails spilled
    to files by the partitions' jobs, :func:`spill_result`: merged range by range of file key, so
    the night's tails are never held whole; returns None) or, when neither is given, from the
    night's hands (a night of at most one partition, or an older store).  Returns the rows written."""
    day = date.fromisoformat(night)
    live = _live(store) if live is None else live
    mine = live.filter(pl.col(S.NIGHT) == day)
    path = tails_path(store, night, _digest(mine))
    out: pl.DataFrame | None
    if files:
        # one order whichever way they were taken (issue 16: the same file from one process or a pool)
        frames = (f.sort(_LOC, maintain_order=True) for _e, f in in_ranges(files, "file_key"))
        write_frames(store, path, frames, dict(pl.read_parquet_schema(files[0])))
        out = None
    else:
        if parts:
            out = pl.concat(parts, how="vertical_relaxed")
        else:
            hands = S.scan(store, "hands").filter(pl.col(S.NIGHT) == day)
            out = _nested(store, day, _last_two(hands).collect())
        out = out.sort(_LOC, maintain_order=True)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        S.write_atomic(out, path)
    for f in os.scandir(os.path.dirname(path)):
        if f.name.startswith("tails-") and f.path != path:
            S.remove_quietly(f.path)
    return out


def tails(store: str, night: str) -> pl.DataFrame:
    """The last two hands of each table before ``night`` (the rows of the nights before it, nested
    seats), read from the earlier nights' tails files (written where missing or stale)."""
    day = date.fromisoformat(night)
    live = _live(store)
    frames = []
    for d in sorted(live.filter(pl.col(S.NIGHT) < day)[S.NIGHT].unique().to_list()):
        n = d.isoformat()
        path = tails_path(store, n, _digest(live.filter(pl.col(S.NIGHT) == d)))
        got = pl.read_parquet(path) if os.path.exists(path) else write_tails(store, n, None, live)
        frames.append(got if got is not None else pl.read_parquet(path))
    if not frames:
        return _nested(store, day, _cols(S.scan(store, "hands")).head(0).collect())
    return _last_two(pl.concat(frames, how="vertical_relaxed").lazy()).collect()


def write_frames(store: str, path: str, frames: Iterable[pl.DataFrame], schema: dict[str, pl.DataType]) -> None:
    """Write ``frames`` (rows of ``schema``) in order as one Parquet file at ``path`` (through a
    temporary name and a rename), holding at most :data:`ROWS_PER_RANGE` rows and one frame: frames
    are gathered up to that many rows, each batch spilled to a file, then all are streamed into
    ``path`` (an empty frame of ``schema`` when there is none).  Rows that fit in one batch are
    written as they are (issue 16: not spilled and read back)."""
    tmp = tempfile.mkdtemp(prefix="crosshand-", dir=store)
    try:
        names: list[str] = []
        held: list[pl.DataFrame] = []
        rows = 0

        def spill() -> None:
            names.append(os.path.join(tmp, f"{len(names):06d}.parquet"))
            pl.concat(held).write_parquet(names[-1])
            held.clear()

        for f in frames:
            if not f.height:  # (nothing to write: the schema is ``schema``)
                continue
            if held and rows + f.height > ROWS_PER_RANGE:
                spill()
                rows = 0
            held.append(f)
            rows += f.height
        if not names:
            S.write_atomic(pl.concat(held) if held else pl.DataFrame(schema=schema), path)
        else:
            if held:
                spill()
            part = os.path.join(tmp, "all.parquet")
            # row groups of a range's size: the sink holds about one (issue 16: by default it held
            # more, growing with the number of files)
            pl.scan_parquet(names).sink_parquet(
                part, compression="zstd", maintain_order=True, row_group_size=ROWS_PER_RANGE
            )
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.move(part, path + ".tmp")
            os.replace(path + ".tmp", path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_findings(store: str, path: str, frames: Iterable[pl.DataFrame]) -> Counter[str]:
    """Write ``frames`` (rows of the store's ``findings`` schema) in order as one Parquet file at
    ``path`` (:func:`write_frames`: one frame held at a time).  Returns the rows' count by code."""
    by_code: Counter[str] = Counter()

    def counted() -> Iterator[pl.DataFrame]:
        for f in frames:
            by_code.update(dict(f.group_by("code").len().iter_rows()))
            yield f

    write_frames(store, path, counted(), S.FINDINGS)
    return Counter({k: v for k, v in by_code.items() if v})


# ------------------------------------------------------------------------------ streamed partitions


def _night_parts(store: str, day: date) -> list[tuple[str, str | None]]:
    """The night's committed ``hands`` parts (in the order a scan of the table reads them) with
    their paired ``seats`` part (None for an older store's part).  A part that is not there (removed
    as unreadable while the workers ran: ``store.scan`` does not see it either) is left out."""
    rows = _manifest(store)
    rows = rows.filter((pl.col(S.NIGHT) == day) & (pl.col("status") == "ok"))
    out = []
    for key, aid, hp, sp in rows.select("file_key", "audit_id", "hand_parts", "seat_parts").iter_rows():
        for n in range(hp or 0):
            seats = S.part_path(store, "seats", day.isoformat(), key, aid, n) if n < (sp or 0) else None
            hands = S.part_path(store, "hands", day.isoformat(), key, aid, n)
            if os.path.exists(hands):
                out.append((hands, seats))
    return sorted(out)


def _flat(hands: pl.DataFrame, seats: pl.LazyFrame | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Hands (flat rows with ``n_seats``, or nested) and their seats in the flat form, in order."""
    from auditor.batch.crosshand import _table_seats

    flat = pl.col(C.N_SEATS).is_not_null()
    nested = ~flat & pl.col("seats").is_not_null()
    hands = hands.with_row_index("_in")
    parts = []
    f = hands.filter(flat)
    if f.height and seats is not None:
        idx = f["_in"].gather(pl.int_range(f.height, eager=True).repeat_by(f[C.N_SEATS]).explode().drop_nulls())
        parts.append(_table_seats(seats, f).with_columns(_in=idx))
    sub = hands.filter(nested)
    if sub.height:
        ex = C.flat_seats(sub.drop("_in"))
        parts.append(ex.with_columns(_in=sub["_in"].gather(ex["_in"])))
    if parts:
        sf = pl.concat([p.select(*C.SEAT_FIELDS, pl.col("_in").cast(pl.Int64)) for p in parts])
        if len(parts) > 1:
            sf = sf.sort("_in", maintain_order=True)
    else:
        sf = pl.DataFrame(schema={**C.SEAT_FIELDS, "_in": pl.Int64()})
    n = pl.when(flat).then(pl.col(C.N_SEATS)).when(nested).then(pl.col("seats").list.len().cast(pl.Int32))
    return hands.with_columns(n.alias(C.N_SEATS)).drop("seats", "_in"), sf.drop("_in")


def _frames(
    store: str, night: str, before: pl.DataFrame, stage: str | None = None
) -> Iterator[tuple[pl.DataFrame, pl.DataFrame, pl.Series | None]]:
    """The night's hands part by part (flat, with their seats, and their partition-key hashes when
    the part was staged), then the earlier nights' tails.  A part staged in ``stage`` by the worker
    that wrote it (:func:`stage_part`) is read from there; the others from the store."""
    day = date.fromisoformat(night)
    for hp, sp in _night_parts(store, day):
        if stage is not None and sp is not None:
            shp, ssp = _staged(stage, hp)
            if os.path.exists(shp) and os.path.exists(ssp):
                h = pl.read_parquet(shp)
                yield h.drop("_h"), pl.read_parquet(ssp).drop("_h"), h["_h"]
                continue
        h = _cols(pl.scan_parquet(hp, schema=S.HANDS, missing_columns="insert").with_columns(
            pl.lit(day).alias(S.NIGHT))).collect()  # fmt: skip
        s = None
        if sp is not None:
            s = pl.scan_parquet(sp, schema=S.SEATS, missing_columns="insert").with_columns(pl.lit(day).alias(S.NIGHT))
        yield *_flat(h, s), None
    if before.height:
        yield *_flat(before, None), None


def _hash() -> pl.Expr:
    return C.partition_key().hash(seed=7)


def _staged(stage: str, hands_part: str) -> tuple[str, str]:
    base = os.path.basename(hands_part).removesuffix(".parquet")
    return os.path.join(stage, f"{base}.h.parquet"), os.path.join(stage, f"{base}.s.parquet")


def path_parts(store: str, night: str) -> pl.DataFrame:
    """The night's committed ``hands`` parts (:func:`_night_parts`) with the paths of their hands:
    one row per (``path``, ``part``) (the path column of the night read once), so that a range of
    paths opens only its own parts (:func:`path_parts_scan`).  A part that is not there (removed as
    unreadable while the workers ran: ``store.scan`` does not see it either) is left out."""
    paths = [h for h, _s in _night_parts(store, date.fromisoformat(night))]
    if not paths:
        return pl.DataFrame(schema={"path": pl.String(), "part": pl.String()})
    scan = pl.scan_parquet(paths, schema=S.HANDS, missing_columns="insert", include_file_paths="part")
    return scan.select("path", "part").unique(maintain_order=True).collect(engine="streaming")


def path_parts_scan(parts: pl.DataFrame, where: pl.Expr, night: str) -> pl.LazyFrame:
    """The night's hands (as :func:`auditor.batch.crosshand._hands` gives them) of the parts of
    ``parts`` (:func:`path_parts`) that hold a path of the range ``where``."""
    files = parts.filter(where)["part"].unique(maintain_order=True).to_list()
    if not files:
        return _cols(pl.DataFrame(schema={**S.HANDS, S.NIGHT: pl.Date()}).lazy())
    day = date.fromisoformat(night)
    return _cols(
        pl.scan_parquet(files, schema=S.HANDS, missing_columns="insert").with_columns(pl.lit(day).alias(S.NIGHT))
    )


def stage_part(stage: str, hands_part: str, night: str, hands: pl.DataFrame, seats: pl.DataFrame) -> None:
    """Write a hands part's rows as :func:`stream_night` reads them (the flat hands with their
    location and partition-key hash, and their seats) into ``stage``, from the frames the worker
    has just written to the store (issue 16: the night pass then reads two narrow files per part
    instead of the part and its seats, and converts nothing, after the last file).

    Called by a worker after it wrote the part (``FileTask.stage``).  A cache: a part without its
    staged files (a failure here is ignored) is read from the store by the night pass."""
    hp, sp = _staged(stage, hands_part)
    try:
        day = date.fromisoformat(night)
        h = _cols(hands.lazy().with_columns(pl.lit(day).alias(S.NIGHT))).collect()
        hf, sf = _flat(h, seats.lazy().with_columns(pl.lit(day).alias(S.NIGHT)))
        _write_staged(hf, sf, hp, sp)
    except Exception:
        S.remove_quietly(hp)
        S.remove_quietly(sp)


def _write_staged(hands: pl.DataFrame, seats: pl.DataFrame, hp: str, sp: str) -> None:
    """Flat hands (:func:`_flat`) and their seats as staged files: the hands' flat columns, location
    and partition-key hash ``_h``; the seats' columns and the hash of their hand."""
    h = hands.select(*C.FLAT, *_LOC).with_columns(_hash().alias("_h"))
    n = h[C.N_SEATS].fill_null(0)
    at = pl.int_range(h.height, eager=True).repeat_by(n).explode().drop_nulls()
    S.write_atomic(seats.select(*C.SEAT_FIELDS).with_columns(h["_h"].gather(at)), sp, durable=False)
    S.write_atomic(h, hp, durable=False)


def _count(store: str, night: str) -> int:
    """The night's committed hands, from the parts' Parquet metadata (nothing else is read)."""
    paths = [h for h, _s in _night_parts(store, date.fromisoformat(night))]
    return int(pl.scan_parquet(paths).select(pl.len()).collect().item()) if paths else 0


def _append(path: str, df: pl.DataFrame) -> None:
    """Append ``df`` to the segment file ``path`` as one more segment: an Arrow IPC stream (LZ4)
    prefixed by its length in bytes (8, little-endian), so a file is written piece by piece with
    nothing held open, and read back whole by :func:`_segments`."""
    buf = io.BytesIO()
    df.write_ipc_stream(buf, compression="lz4")
    data = buf.getbuffer()
    with open(path, "ab") as f:
        f.write(len(data).to_bytes(8, "little"))
        f.write(data)


def _segments(path: str) -> list[pl.DataFrame]:
    """The frames appended to ``path`` by :func:`_append`, in order (none when it does not exist)."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = memoryview(f.read())
    out, at = [], 0
    while at < len(data):
        n = int.from_bytes(data[at : at + 8], "little")
        out.append(pl.read_ipc_stream(io.BytesIO(data[at + 8 : at + 8 + n])))
        at += 8 + n
    return out


#: Bytes of the night (polars' estimate of the frames) buffered by :func:`stream_night` before the
#: buffer is appended to the partition files (bounds the stream's memory; the files are one per
#: partition whatever the number of flushes).
CHUNK_BYTES = 16 * 2**20


def stream_night(
    store: str, night: str, tmp: str, per_part: int, min_parts: int = 1, stage: str | None = None
) -> list[tuple[str, str]]:
    """Write the night's hands (and the earlier nights' tails) into partition files under ``tmp``
    by partition-key hash (as :func:`auditor.batch.crosshand.split_flat` splits them), each hand with
    its seats; returns the (hands, seats) files of the partitions that have hands.

    The parts are read one at a time and buffered up to :data:`CHUNK_BYTES`; each flush appends one
    segment (:func:`_append`) to the hands and seats files of each partition it touches
    (``h-<p>.arrows`` and ``s-<p>.arrows``), so a partition is two files whatever the night's size
    (the files grow linearly with the night) and memory holds one buffer.
    ``min_parts``: at least that many partitions (one for each worker that checks them);
    ``stage``: where the workers staged the parts they wrote (:func:`stage_part`)."""
    before = tails(store, night)
    total = _count(store, night) + before.height
    if not total:
        return []
    parts = max(-(-total // per_part), min_parts)
    buf_h: list[pl.DataFrame] = []
    buf_s: list[pl.DataFrame] = []
    seen: set[int] = set()

    def files(i: int) -> tuple[str, str]:
        return os.path.join(tmp, f"h-{i:06d}.arrows"), os.path.join(tmp, f"s-{i:06d}.arrows")

    def flush() -> None:
        if not buf_h:
            return
        h, sv = pl.concat(buf_h, how="vertical_relaxed"), pl.concat(buf_s, how="vertical_relaxed")
        buf_h.clear()
        buf_s.clear()
        ss = sv.partition_by("_p", as_dict=True, include_key=False, maintain_order=True)
        for (i,), df in h.partition_by("_p", as_dict=True, include_key=False, maintain_order=True).items():
            hp, sp = files(int(i))
            _append(hp, df)
            if (i,) in ss:
                _append(sp, ss[(i,)])
            seen.add(int(i))

    held = 0
    for h, s, hashes in _frames(store, night, before, stage):
        pv = ((h.select(_hash()).to_series() if hashes is None else hashes) % parts).cast(pl.Int64).alias("_p")
        n = h[C.N_SEATS].fill_null(0)
        spv = pv.gather(pl.int_range(h.height, eager=True).repeat_by(n).explode().drop_nulls())
        buf_h.append(h.select(*C.FLAT, *_LOC).with_columns(pv))
        buf_s.append(s.select(*C.SEAT_FIELDS).with_columns(spv))
        held += int(buf_h[-1].estimated_size() + buf_s[-1].estimated_size())
        if held >= CHUNK_BYTES:
            flush()
            held = 0
    flush()
    return [files(i) for i in sorted(seen)]


def staged_night(
    store: str, night: str, tmp: str, per_part: int, min_parts: int, stage: str
) -> tuple[list[tuple[str, str]], int] | None:
    """The night as staged files in :func:`stream_night`'s order (its parts, then the earlier
    nights' tails) and the number of partitions (at least ``min_parts``, the workers, and a multiple
    of it: each worker checks as many), for :func:`staged_partition_job` (as many partitions as
    workers: each job reads every staged file and keeps its own hands) or :func:`scatter_job` then
    :func:`partition_job` (more: each staged file is read once).  Parts the workers did not stage
    (files of an earlier run of the night) and the tails are staged into ``tmp`` now.  None when
    the night has no hand."""
    day = date.fromisoformat(night)
    before = tails(store, night)
    total = _count(store, night) + before.height
    if not total:
        return None
    parts = max(-(-total // per_part), min_parts)
    parts = -(-parts // min_parts) * min_parts
    out: list[tuple[str, str]] = []
    for hp, sp in _night_parts(store, day):
        staged = _staged(stage, hp)
        if sp is None or not (os.path.exists(staged[0]) and os.path.exists(staged[1])):
            staged = _staged(tmp, hp)
            h = _cols(pl.scan_parquet(hp, schema=S.HANDS, missing_columns="insert").with_columns(
                pl.lit(day).alias(S.NIGHT))).collect()  # fmt: skip
            s = None
            if sp is not None:
                s = pl.scan_parquet(sp, schema=S.SEATS, missing_columns="insert").with_columns(
                    pl.lit(day).alias(S.NIGHT))  # fmt: skip
            _write_staged(*_flat(h, s), *staged)
        out.append(staged)
    if before.height:
        staged = _staged(tmp, "tails-before.parquet")
        _write_staged(*_flat(before, None), *staged)
        out.append(staged)
    return out, parts


def staged_partition_job(
    files: list[tuple[str, str]], parts: int, i: int, night: str, out: str | None = None, locate: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame] | Spilled | None:
    """:func:`partition_job` of partition ``i`` of ``parts``, read from the staged ``files``
    (:func:`staged_night`): its hands and seats in the files' order; None when it has no hand.
    With ``out``, its results are spilled there (:func:`spill_result`) and their paths returned;
    with ``locate``, its rows as store rows (:func:`located_rows`)."""
    from auditor.batch.crosshand import _check_frame

    mine = pl.col("_h") % parts == i
    hands = pl.scan_parquet([h for h, _s in files]).filter(mine).drop("_h").collect()
    if not hands.height:
        return None
    seats = pl.scan_parquet([s for _h, s in files]).filter(mine).drop("_h").collect()
    hands = hands.select(list(_HANDS_LOC)).cast(_HANDS_LOC)  # type: ignore[arg-type]
    seats = seats.select(list(C.SEAT_FIELDS)).cast(C.SEAT_FIELDS)  # type: ignore[arg-type]
    checked = _check_frame((hands.select(list(C.FLAT)), seats))
    day = date.fromisoformat(night)
    tails = _partition_tails(hands, seats, day)
    if locate:
        checked = located_rows(checked, hands, day)
    return (checked, tails) if out is None else spill_result(out, i, checked, tails)


def scatter_job(files: list[tuple[str, str]], parts: int, out: str, j: int) -> list[int]:
    """Cut the staged ``files`` (a run of consecutive files of :func:`staged_night`'s list) by
    partition (``_h % parts``, as :func:`stream_night` cuts them) into this job's own partition
    files ``out/h-<p>-<j>.arrows`` and ``out/s-<p>-<j>.arrows``, buffered up to :data:`CHUNK_BYTES`
    and appended segment by segment (:func:`_append`); returns the partitions it wrote.  A job of
    :func:`auditor.batch.crosshand.run_night` on a pool worker, one for each worker, so that a night
    of more partitions than workers reads each staged file once, not once per partition (issue 16):
    partition ``p`` is then the files ``h-<p>-<j>`` of every job ``j`` in order (:func:`scattered`)."""
    buf_h: list[pl.DataFrame] = []
    buf_s: list[pl.DataFrame] = []
    seen: set[int] = set()

    def flush() -> None:
        if not buf_h:
            return
        h, sv = pl.concat(buf_h), pl.concat(buf_s)
        buf_h.clear()
        buf_s.clear()
        ss = sv.partition_by("_p", as_dict=True, include_key=False, maintain_order=True)
        for (i,), df in h.partition_by("_p", as_dict=True, include_key=False, maintain_order=True).items():
            hp, sp = scattered(out, int(i), j)
            _append(hp, df)
            if (i,) in ss:
                _append(sp, ss[(i,)])
            seen.add(int(i))

    held = 0
    p = (pl.col("_h") % parts).cast(pl.Int64).alias("_p")
    for group in _groups(files, SCAN_BYTES):  # a few files a scan (issue 16: a scan a file cost ~1 ms each)
        buf_h.append(pl.scan_parquet([h for h, _s in group]).with_columns(p).drop("_h").collect())
        buf_s.append(pl.scan_parquet([s for _h, s in group]).with_columns(p).drop("_h").collect())
        held += int(buf_h[-1].estimated_size() + buf_s[-1].estimated_size())
        if held >= CHUNK_BYTES:
            flush()
            held = 0
    flush()
    return sorted(seen)


#: Bytes on disk of the staged files :func:`scatter_job` reads in one scan (about 1,000 hands are
#: ~0.1 MB staged, ~1 MB in memory: a scan holds a few MB).
SCAN_BYTES = 2**20


def _groups(files: list[tuple[str, str]], limit: int) -> Iterator[list[tuple[str, str]]]:
    """``files`` in runs of consecutive files of at most ``limit`` bytes on disk (at least one file)."""
    run: list[tuple[str, str]] = []
    size = 0
    for h, s in files:
        b = os.path.getsize(h) + os.path.getsize(s)
        if run and size + b > limit:
            yield run
            run, size = [], 0
        run.append((h, s))
        size += b
    if run:
        yield run


def scattered(out: str, i: int, j: int) -> tuple[str, str]:
    """The hands and seats files of partition ``i`` written by :func:`scatter_job` ``j``."""
    return os.path.join(out, f"h-{i:06d}-{j:03d}.arrows"), os.path.join(out, f"s-{i:06d}-{j:03d}.arrows")


def slices(files: list[tuple[str, str]], n: int) -> list[list[tuple[str, str]]]:
    """``files`` cut into at most ``n`` runs of consecutive files of about the same size on disk
    (one :func:`scatter_job` each); none empty."""
    size = [os.path.getsize(h) + os.path.getsize(s) for h, s in files]
    total = sum(size) or 1
    out: list[list[tuple[str, str]]] = [[] for _ in range(n)]
    at = 0
    for f, b in zip(files, size, strict=True):
        out[min(n - 1, (2 * at + b) * n // (2 * total))].append(f)  # by the file's middle
        at += b
    return [x for x in out if x]


def _read(paths: str | list[str], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """A partition's files of :func:`stream_night` or :func:`scatter_job` (their segments in order)
    as a frame of ``schema``."""
    names = [paths] if isinstance(paths, str) else paths
    frames = [f.select(list(schema)).cast(schema) for p in names for f in _segments(p)]  # type: ignore[arg-type]
    return pl.concat(frames) if frames else pl.DataFrame(schema=schema)


_HANDS_LOC: dict[str, pl.DataType] = {**C.FLAT, **{c: S.HANDS[c] for c in _LOC if c != S.NIGHT}, S.NIGHT: pl.Date()}


def _partition_tails(hands: pl.DataFrame, seats: pl.DataFrame, day: date) -> pl.DataFrame:
    """The last two hands of each table of ``day`` among a partition's hands (flat, with their
    location), their seats nested: this partition's share of the night's tails file.  The last two
    are found on the flat hands and only their seats are nested (issue 16: not every hand's); a hand
    without a seat row has no seats, as when the seats are nested first."""
    n = pl.col(C.N_SEATS)
    h = hands.with_row_index("_in").filter(pl.col(S.NIGHT) == day).with_columns(pl.when(n > 0).then(n).alias(C.N_SEATS))
    # C.order's rows and order, the last two of each table kept before the hands' columns are joined
    base, keys = C.table_keys(h.lazy())
    two = keys.filter(pl.col("k") >= pl.col("k").max().over("tkey") - 1)
    last = two.join(base.drop("tkey"), on="_r", how="inner", maintain_order="left").drop("_r").collect()
    sf = C.link_seats(hands, seats).filter(pl.col("_in").is_in(last["_in"].implode()))
    nested = sf.group_by("_in", maintain_order=True).agg(pl.struct(list(C.SEAT_FIELDS)).alias("seats"))
    out = last.join(nested, on="_in", how="left", maintain_order="left")
    out = out.with_columns(pl.col("seats").cast(pl.List(C.SEAT)), pl.lit(None, pl.Int32).alias(C.N_SEATS))
    return out.select(*C.INPUT, C.N_SEATS, *_LOC)


def check_streamed(store: str, night: str, per_part: int, tails_out: list[pl.DataFrame] | None = None) -> pl.DataFrame:
    """:func:`auditor.continuity.check` on the night streamed into partitions, each checked alone
    (:func:`partition_job`); the rows of :func:`auditor.batch.crosshand.check_partitioned` on the
    whole night.  With ``tails_out``, each partition's share of the night's table tails is appended
    to it."""
    from auditor.batch.crosshand import _merge

    tmp = tempfile.mkdtemp(prefix="crosshand-", dir=store)
    try:
        done = [_checked(hd, sd, night) for hd, sd in stream_night(store, night, tmp, per_part)]
        if tails_out is not None:
            tails_out.extend(t for _rows, t in done)
        return _merge([rows for rows, _t in done])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def partition_job(
    hands_file: str | list[str],
    seats_file: str | list[str],
    night: str,
    out: str | None = None,
    i: int = 0,
    locate: bool = False,
) -> tuple[pl.DataFrame, pl.DataFrame] | Spilled:
    """One partition of a streamed night (:func:`stream_night`'s two files, or the files of every
    :func:`scatter_job`, in order), checked alone: its
    :func:`auditor.continuity.check` rows and its share of the night's table tails.  A job of
    :func:`auditor.batch.crosshand.run_night`, run on a pool worker when there is a pool, which
    spills the results to ``out`` (:func:`spill_result`, as partition ``i``) and returns their
    paths: the batch process then merges them range by range, and a Dask worker keeps no result.
    With ``locate``, its rows as store rows (:func:`located_rows`)."""
    checked, tails = _checked(hands_file, seats_file, night, locate)
    return (checked, tails) if out is None else spill_result(out, i, checked, tails)


def _checked(
    hands_file: str | list[str], seats_file: str | list[str], night: str, locate: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame]:
    from auditor.batch.crosshand import _check_frame

    hands, seats = _read(hands_file, _HANDS_LOC), _read(seats_file, C.SEAT_FIELDS)
    checked = _check_frame((hands.select(list(C.FLAT)), seats))
    day = date.fromisoformat(night)
    return located_rows(checked, hands, day) if locate else checked, _partition_tails(hands, seats, day)


#: The order of the night's located continuity rows (:func:`auditor.batch.crosshand._located`),
#: carried by :func:`located_rows` as ``_o0`` ... for the merge.
LOCATED_ORDER = ["path", "line", "code", "player", "reason", "file_key", "hand_no"]
ORDER_KEYS = [f"_o{i}" for i in range(len(LOCATED_ORDER))]


def locate(rows: pl.DataFrame, loc: pl.DataFrame) -> pl.DataFrame:
    """Continuity ``rows`` with their hand's store location (``loc``: site, hand id and path to
    ``file_key``, ``audit_id``, ``hand_no``), in :data:`LOCATED_ORDER` (the same rows in the same order
    from one process or from a pool's partitions: a hand's rows by code, player and reason), once
    each: of a row found twice (a hand id twice in one file), the first hand's."""
    df = rows.join(loc, on=["site", "hand_id", "path"], how="inner").sort(LOCATED_ORDER, nulls_last=True,
                                                                          maintain_order=True)  # fmt: skip
    return df.unique(["code", "path", "line", "player", "reason"], keep="first", maintain_order=True)


def located_here(store: str, night: str) -> bool:
    """Whether each partition's job can locate its continuity rows among its own hands
    (:func:`located_rows`): no file of the night has a hand id twice (no H001 or H005 of its own
    audit in the manifest's ``by_code``), so a (site, hand id, path) is one hand of the night, in
    one partition, and the rows are those the batch process would locate through the whole night."""
    day = date.fromisoformat(night)
    m = _manifest(store).filter((pl.col(S.NIGHT) == day) & (pl.col("status") == "ok"))
    codes = m["by_code"]
    return codes.null_count() == 0 and not codes.str.contains('"H00[15]"').any()


def located_rows(rows: pl.DataFrame, hands: pl.DataFrame, day: date) -> pl.DataFrame:
    """A partition's continuity rows ``rows`` located among its own hands of ``day`` (``hands``,
    flat with their location) as :func:`auditor.batch.crosshand._located` locates them through the
    night's hands, as store ``findings`` rows (:func:`auditor.batch.crosshand.findings_frame`), with
    the keys of their order (:data:`ORDER_KEYS`) for the batch process's merge.  Only when
    :func:`located_here` (else a row's hand id could name a hand of another partition too).
    Issue 16: the batch process then only merges rows, it does not locate and convert them."""
    from auditor.batch.crosshand import _merge, findings_frame

    on = ["site", "hand_id", "path"]
    mine = hands.filter(pl.col(S.NIGHT) == day).select(*on, "file_key", "audit_id", "hand_no")
    df = locate(_merge([rows]), mine.join(rows.select(on).unique(), on=on, how="semi"))
    keys = df.select(pl.col(c).alias(k) for c, k in zip(LOCATED_ORDER, ORDER_KEYS, strict=True))
    return pl.concat([findings_frame(df), keys], how="horizontal")


# -------------------------------------------------------------------- results spilled and merged

#: Rows read back at once when the spilled results of a night's partitions are merged (continuity
#: rows, duplicate ids, table tails: :func:`in_ranges`).
ROWS_PER_RANGE = 20_000


def spill(df: pl.DataFrame, path: str, by: str) -> str | None:
    """Write ``df`` to ``path`` ordered by ``by`` (stably: rows of one value keep their order), for
    :func:`in_ranges`; None (nothing written) when it has no row."""
    if not df.height:
        return None
    df.sort(by, maintain_order=True, nulls_last=True).write_parquet(path)
    return path


def _cut(files: list[str], by: str, limit: int) -> tuple[pl.DataFrame, list[pl.Expr]]:
    """The ranges of :func:`ranges`: each value of ``by`` with its range's number ``_r``, and the
    ranges' filters.  Only the counts by value are read."""
    counts = pl.scan_parquet(files).group_by(by).len().sort(by, nulls_last=True).collect()
    starts: list[object] = []
    at: list[int] = []
    held = 0
    for value, n in counts.iter_rows():
        if held and held + n > limit and value is not None:  # nulls (none expected) join the last range
            starts.append(value)
            held = 0
        held += n
        at.append(len(starts))
    col = pl.col(by)
    out = []
    for lo, hi in zip([None, *starts], [*starts, None], strict=True):
        cut = ([col >= lo] if lo is not None else []) + ([col < hi] if hi is not None else [])
        e = pl.all_horizontal(cut) if cut else pl.lit(True)
        out.append(e | col.is_null() if hi is None and lo is not None else e)
    return counts.select(by).with_columns(pl.Series("_r", at, pl.Int64)), out if counts.height else []


def ranges(files: list[str], by: str, limit: int | None = None) -> list[pl.Expr]:
    """Filters that cut the rows of ``files`` into consecutive ranges of ``by`` (in its order,
    nulls last) of at most ``limit`` (:data:`ROWS_PER_RANGE`) rows each; the rows of one value are
    never split (a range holds at least one value's rows).  Only the counts by value are read."""
    return _cut(files, by, ROWS_PER_RANGE if limit is None else limit)[1] if files else []


def in_ranges(files: list[str], by: str, limit: int | None = None) -> Iterator[tuple[pl.Expr, pl.DataFrame]]:
    """The rows of ``files`` (spilled by :func:`spill`) range by range of ``by`` (:func:`ranges`),
    each range's rows in the files' order, with the range's filter; memory holds one range (and
    one file), whatever the number of rows.

    Each row is read once (issue 16): the files are read one after the other, their rows buffered
    up to ``limit`` rows and appended, range by range, to one segment file per range
    (:func:`_append`); then each range reads its own file.  A partition's file holds rows of every
    range (its tables are in every file of the night), so a range filtering every file would read
    them all again."""
    limit = ROWS_PER_RANGE if limit is None else limit
    if not files:
        return
    if pl.scan_parquet(files).select(pl.len()).collect().item() <= limit:  # one range (from the footers)
        yield pl.lit(True), pl.scan_parquet(files).collect()
        return
    at, cuts = _cut(files, by, limit)
    if len(cuts) <= 1:
        for e in cuts:
            yield e, pl.scan_parquet(files).collect(engine="streaming")
        return
    tmp = tempfile.mkdtemp(prefix="ranges-", dir=os.path.dirname(files[0]))
    try:
        held: list[pl.DataFrame] = []
        rows = 0

        def flush() -> None:
            if held:
                got = pl.concat(held, how="vertical_relaxed")
                for (r,), df in got.partition_by("_r", as_dict=True, include_key=False, maintain_order=True).items():
                    _append(os.path.join(tmp, f"{r:06d}.arrows"), df)
                held.clear()

        last = len(cuts) - 1
        for f in files:
            df = pl.read_parquet(f).join(at, on=by, how="left", maintain_order="left")
            held.append(df.with_columns(pl.col("_r").fill_null(last)))
            rows += df.height
            if rows >= limit:
                flush()
                rows = 0
        flush()
        for r, e in enumerate(cuts):
            name = os.path.join(tmp, f"{r:06d}.arrows")
            got = _segments(name)
            S.remove_quietly(name)
            yield e, pl.concat(got, how="vertical_relaxed")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


#: What a partition's job gives back when its results are spilled: the paths of its continuity
#: rows and of its share of the night's table tails (None: it has none).
Spilled = tuple[str | None, str | None]


def spill_result(out: str, i: int, rows: pl.DataFrame, tails: pl.DataFrame | None) -> Spilled:
    """A partition's continuity rows and table tails written to ``out`` (``rows-<i>``, ordered by
    path, or by ``_o0`` when they were located, :func:`located_rows`; ``tails-<i>``, ordered by
    file key) for the batch process to merge range by range."""
    r = spill(rows, os.path.join(out, f"rows-{i:06d}.parquet"), "_o0" if "_o0" in rows.columns else "path")
    t = spill(tails, os.path.join(out, f"tails-{i:06d}.parquet"), "file_key") if tails is not None else None
    return r, t


# ---------------------------------------------------------------------------- duplicate ids


#: The columns of the store's hands that :func:`duplicate_buckets` reads.
_ID_COLS = ["site", "hand_id", "path", "first_line", "fingerprint", "table", *_LOC]


def _bucket_files(store: str, night: str, per_bucket: int, tmp: str) -> tuple[int, dict[str, pl.DataType]]:
    """The store's hands with a fingerprint (the columns :func:`duplicate_buckets` needs) cut into
    segment files ``tmp/<b>.arrows`` by bucket of hand-id hash, the buckets' number from the night's
    ids (``per_bucket`` a bucket).  Returns the number of buckets and the rows' schema.

    One streamed scan of the store (issue 16: before, every bucket scanned the whole store twice,
    so the scans grew with the square of the night): the rows are sunk into one narrow file, which
    is read back :data:`ROWS_PER_RANGE` rows at a time and appended, bucket by bucket, to the buckets'
    files (:func:`_append`)."""
    day = date.fromisoformat(night)
    one = os.path.join(tmp, "ids.parquet")
    S.scan(store, "hands").select(_ID_COLS).filter(pl.col("fingerprint").is_not_null()).sink_parquet(
        one, compression="lz4", row_group_size=ROWS_PER_RANGE, maintain_order=False
    )
    ids = pl.scan_parquet(one)
    n_ids = ids.filter(pl.col(S.NIGHT) == day).select(pl.len()).collect().item()
    total = ids.select(pl.len()).collect().item()
    buckets = max(1, -(-n_ids // per_bucket))
    bucket = (pl.concat_str(["site", "hand_id"], separator="\x1f").hash(seed=17) % buckets).alias("_b")
    for at in range(0, total, ROWS_PER_RANGE):
        got = ids.slice(at, ROWS_PER_RANGE).with_columns(bucket).collect()
        for (b,), df in got.partition_by("_b", as_dict=True, include_key=False, maintain_order=True).items():
            _append(os.path.join(tmp, f"{b:06d}.arrows"), df)
    schema = dict(pl.read_parquet_schema(one))
    S.remove_quietly(one)
    return buckets, schema


def duplicate_buckets(store: str, night: str, per_bucket: int | None = None) -> Iterator[pl.DataFrame]:
    """The rows of :func:`night_duplicates`, bucket by bucket of hand-id hash (each bucket's rows
    in no set order): one bucket held at a time (:func:`_bucket_files`, in a temporary folder of
    the store removed at the end)."""
    day = date.fromisoformat(night)
    g = ["site", "hand_id"]
    own = S.scan(store, "findings").filter(pl.col("code").is_in(["H001", "H005"])).select("file_key", "hand_no")
    own_df = own.unique().collect()
    per_bucket = IDS_PER_BUCKET if per_bucket is None else per_bucket
    ids = S.scan(store, "hands").select(_ID_COLS).filter(pl.col("fingerprint").is_not_null())
    one = ids.filter(pl.col(S.NIGHT) == day).select(pl.len()).collect().item() <= per_bucket
    tmp = tempfile.mkdtemp(prefix="crosshand-", dir=store)
    try:
        # one bucket: the store's ids read straight into it (issue 16: cutting them into a bucket file
        # first held as much, and cost a sink, a read and a write of every id)
        buckets, schema = (1, {}) if one else _bucket_files(store, night, per_bucket, tmp)
        for b in range(buckets):
            if one:
                hb = ids.collect()
            else:
                name = os.path.join(tmp, f"{b:06d}.arrows")
                got = _segments(name)
                S.remove_quietly(name)
                hb = pl.concat(got, how="vertical_relaxed") if got else pl.DataFrame(schema=schema)
            mine = hb.filter(pl.col(S.NIGHT) == day).select(g).unique()
            # only ids in more than one file can give a row
            many = (
                hb.select(*g, "file_key").join(mine, on=g, how="semi")
                .group_by(g).agg(pl.col("file_key").n_unique().alias("_files")).filter(pl.col("_files") > 1)
                .select(g)
            )  # fmt: skip
            rows = hb.join(many, on=g, how="semi")
            del hb
            x = (
                rows.lazy()
                .sort([S.NIGHT, "path", "first_line"])
                .with_columns(
                    n=pl.len().over(g),
                    first_fp=pl.col("fingerprint").first().over(g),
                    first_path=pl.col("path").first().over(g),
                    first_at=pl.col("first_line").first().over(g),
                    first_key=pl.col("file_key").first().over(g),
                )
                .filter((pl.col("n") > 1) & (pl.col("file_key") != pl.col("first_key")) & (pl.col(S.NIGHT) == day))
            )
            x = x.join(own_df.lazy(), on=["file_key", "hand_no"], how="anti")
            code = pl.when(pl.col("fingerprint") == pl.col("first_fp")).then(pl.lit("H005")).otherwise(pl.lit("H001"))
            yield x.with_columns(code=code).collect()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def night_duplicates(store: str, night: str, per_bucket: int | None = None) -> pl.DataFrame:
    """:func:`auditor.batch.crosshand.duplicates` of one night, bucket by bucket of hand-id hash."""
    return pl.concat(list(duplicate_buckets(store, night, per_bucket))).sort("path", "first_line")
