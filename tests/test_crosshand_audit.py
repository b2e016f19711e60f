"""The cross-hand stage of ``hhaudit audit`` in bounded memory (issue 16, auditor/crosshand_audit.py):
in the auditing process or in a child process, on the whole run or bucket by bucket of tables, it
finds exactly what :func:`auditor.continuity.check` finds on all the hands at once (nested seats),
in the same order; what the auditing process keeps stays bounded by count."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from auditor import continuity as C
from auditor.audit import AuditRun
from auditor.crosshand_audit import Bounded, FirstHandFirst
from auditor.formats import Chunk
from auditor.ingest import read_stream
from tests.conftest import FIXTURES, corpus_dir


def chunks(paths: list[Path]) -> list[Chunk]:
    out: list[Chunk] = []
    for p in paths:
        data = p.read_bytes()
        out += [c for c in read_stream(io.BytesIO(data), str(p), len(data))[1] if isinstance(c, Chunk)]
    return out


def sessions() -> list[list[Chunk]]:
    """Each continuity fixture file (``fixtures/continuity/<CODE>/{good,bad}.txt``): one session each."""
    return [chunks([p]) for p in sorted((FIXTURES / "continuity").rglob("*.txt"))]


def run(collector: Bounded | FirstHandFirst, cs: list[Chunk]) -> list[object]:
    r = AuditRun(crosshand=collector)
    for c in cs:
        r.process(c)
    return list(collector.findings())


def rows_of(cs: list[Chunk]) -> list[dict[str, object]]:
    b = Bounded(rows_per_batch=10**9, in_process=10**9)
    r = AuditRun(crosshand=b)
    for c in cs:
        r.process(c)
    return b.rows


def whole(cs: list[Chunk]) -> list[object]:
    """The reference: every hand's row kept, then ``check`` once on the nested form."""
    return list(C.to_findings(C.check(C.frame(rows_of(cs)).lazy()).collect()))


def test_bounded_equals_the_whole_query_on_the_continuity_fixtures() -> None:
    """In the process (a small run) and in a child process (rows written in batches of 3, buckets
    of 5 hands) alike; the temporary folder is removed."""
    codes: set[str] = set()
    for cs in sessions():
        want = whole(cs)
        codes |= {f.code for f in want}  # type: ignore[attr-defined]
        small = Bounded()
        assert run(small, cs) == want, cs[0].path
        assert small.child is False and small.dir is None
        child = Bounded(rows_per_batch=3, hands_per_partition=5, in_process=0)
        assert run(child, cs) == want, cs[0].path
        assert child.child is True and child.dir is not None and not child.dir.exists()
    assert codes >= {"T001", "T002", "T003", "T005", "T006"}  # (T004 needs a no-top-up profile)


@pytest.mark.parametrize(("per_part", "buffer_rows", "run_rows", "max_buckets"),
                         [(1, 1, None, None), (2, 3, 1, None), (5, 2, 2, None), (40, 7, None, None),
                          (10**9, 1, None, None), (3, 5, 3, None), (1, 2, None, 2), (2, 3, 2, 3)])  # fmt: skip
def test_buckets_of_any_size_give_the_whole_query(tmp_path: Path, per_part: int, buffer_rows: int,
                                                  run_rows: int | None, max_buckets: int | None) -> None:  # fmt: skip
    """The child's work (:func:`findings_of`): a bucket per hand, a few, one; any buffer; the
    findings sorted in memory or on disk (``run_rows`` finding rows a run: :mod:`auditor.spillsort`);
    few first buckets (``max_buckets``), each then split again."""
    from auditor.crosshand_audit import findings_of

    for i, cs in enumerate(sessions()):
        rows = rows_of(cs)
        d = tmp_path / str(i)
        d.mkdir()
        batches = [rows[j : j + 4] for j in range(0, len(rows), 4)]
        got = findings_of(batches, d, len(rows), per_part, buffer_rows, run_rows, max_buckets)
        assert got == list(C.to_findings(C.check(C.frame(rows).lazy()).collect())), cs[0].path
        assert not list(d.iterdir())  # every bucket file read and removed


def test_first_hand_first_equals_the_whole_query() -> None:
    for cs in sessions():
        assert run(FirstHandFirst(), cs) == whole(cs)


def test_bounded_keeps_at_most_a_batch_of_rows() -> None:
    """What the auditing process holds for the stage is bounded by count, whatever the run's size."""
    cs = [c for s in sessions() for c in s]
    b = Bounded(rows_per_batch=4, in_process=0)
    r = AuditRun(crosshand=b)
    most = 0
    for c in cs:
        r.process(c)
        most = max(most, len(b.rows))
    assert b.hands > 4 * 4 and most < 4 and b.out is not None  # the rest went to the rows file
    assert run(Bounded(rows_per_batch=4, in_process=0), cs) == list(b.findings())


def test_a_failing_child_is_an_error_not_an_empty_result() -> None:
    cs = sessions()[0]
    b = Bounded(rows_per_batch=1, hands_per_partition=0, in_process=0)  # 0 hands a bucket: the child fails
    with pytest.raises(RuntimeError, match="child process"):
        run(b, cs)
    assert b.dir is not None and not b.dir.exists()


@pytest.mark.corpus
def test_bounded_equals_the_whole_query_on_a_corpus_folder() -> None:
    d = corpus_dir("pokerstars")
    cs = [c for c in chunks(sorted(d.rglob("*.txt"))) if c.site == "pokerstars"][:1500]
    want = whole(cs)
    assert run(Bounded(50, 200, 0), cs) == want
    assert run(Bounded(), cs) == want


def test_batch_night_check_in_partitions_equals_the_whole_query(tmp_path: Path) -> None:
    """``hhaudit batch``'s cross-hand pass splits a large night by table-key hash (streamed into
    partition files); any partition size gives the rows of the whole query."""
    import io as _io

    import polars as pl

    from auditor.batch import crosshand as X
    from auditor.batch.runner import Options, run_batch

    bad = sorted((FIXTURES / "continuity").glob("T00*/bad.txt"))
    for i, p in enumerate(bad):  # distinct file names, one night; the sessions stay separate tables
        (tmp_path / f"s{i}.txt").write_bytes(p.read_bytes())
    store = tmp_path / "store"
    opts = Options([str(tmp_path / f"s{i}.txt") for i in range(len(bad))], str(store), night="2026-11-01",
                   progress="none")  # fmt: skip
    run_batch(opts, _io.StringIO(), _io.StringIO())
    order = ["path", "line", "code", "player", "hand_id"]
    whole = X.check_night(str(store), "2026-11-01", per_part=10**9).sort(order, nulls_last=True)
    assert whole.height >= 2  # the sessions share table names: not every code survives the mix
    for per_part in (1, 2, 3, 7):
        part = X.check_night(str(store), "2026-11-01", per_part=per_part)
        assert part.select(whole.columns).equals(whole.select(part.columns).select(whole.columns)), per_part
    assert not [p for p in store.iterdir() if p.name.startswith("crosshand-")]  # temporary folders removed
    assert isinstance(whole, pl.DataFrame)


def test_the_rows_module_names_the_columns_of_the_query() -> None:
    from auditor import crosshand_rows as R

    assert tuple(C.BASE) == R.BASE_NAMES and tuple(C.COLUMNS) == R.COLUMN_NAMES


def test_the_auditing_process_never_imports_polars_for_a_large_run() -> None:
    """Rows are built and written without polars; the query runs in the child."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from auditor.audit import AuditRun\n"
        "from auditor.crosshand_audit import Bounded\n"
        "from auditor.formats import Chunk\n"
        "from auditor.ingest import read_stream\n"
        "b = Bounded(rows_per_batch=2, in_process=0)\n"
        "r = AuditRun(crosshand=b)\n"
        "with open(sys.argv[1], 'rb') as f:\n"
        "    for c in read_stream(f, sys.argv[1], 0)[1]:\n"
        "        if isinstance(c, Chunk):\n"
        "            r.process(c)\n"
        "print('BEFORE', 'polars' in sys.modules)\n"
        "found = list(b.findings())\n"
        "print('AFTER', 'polars' in sys.modules, b.child, len(found))\n"
    )
    root = Path(__file__).resolve().parent.parent
    src = str(FIXTURES / "continuity" / "T002" / "bad.txt")
    argv = [sys.executable, "-c", code, src]
    out = subprocess.run(argv, cwd=root, capture_output=True, text=True, check=True).stdout
    assert "BEFORE False" in out and "AFTER False True" in out, out


def test_bucket_key_keeps_each_partition_key_together() -> None:
    """The child buckets rows without polars (:func:`crosshand_audit.bucket_key`); a chain must never
    be split, so rows with one :func:`continuity.partition_key` must share one bucket key."""
    import itertools

    import polars as pl

    from auditor.continuity import partition_key
    from auditor.crosshand_audit import bucket_key

    rows = [
        {"site": site, "tournament_id": tid, "table": table, "flight": flight}
        for site, tid, table, flight in itertools.product(
            ("pokerstars", "ggpoker"), (None, "123", ""), ("T 1", "T 2", None), (None, "Main\x1f$10", "Day 2\x1f$10")
        )
    ]
    schema = dict.fromkeys(("site", "tournament_id", "table", "flight"), pl.String)
    keys = pl.DataFrame(rows, schema=schema).select(partition_key().alias("k"))["k"].to_list()
    bucket_of: dict[str, bytes] = {}
    for row, key in zip(rows, keys, strict=True):
        assert bucket_of.setdefault(key, bucket_key(row)) == bucket_key(row), (row, key)
    assert len(set(bucket_of.values())) > 1


@pytest.mark.parametrize("hands", [6_000, 24_000])
def test_no_bucket_checked_grows_with_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hands: int) -> None:
    """The finisher's memory is the largest bucket :func:`check_rows` gets (s11-finish): however many
    hands, a bucket of many tables is split until it holds at most 1.5 times the partition size.
    Tables of 10 hands with names of one length, few first buckets (each split again, as the 64 of a
    10M-hand run): a split hash correlated with the first (``crc32(key, salt)``) checked buckets of
    ~8 times the partition size at 10M hands.  The query itself is replaced by a recorder."""
    import polars as pl

    from auditor import crosshand_audit as X
    from auditor.continuity import FINDINGS

    held: list[tuple[int, int]] = []  # (hands, tables) of each bucket checked

    def check_rows(rows: list[dict[str, object]]) -> pl.DataFrame:
        held.append((len(rows), len({X.bucket_key(r) for r in rows})))
        return pl.DataFrame(schema=FINDINGS)

    monkeypatch.setattr(X, "check_rows", check_rows)
    per_part = 40
    rows = [{"site": "pokerstars", "tournament_id": None, "table": f"T{i // 10:07d}"} for i in range(hands)]
    batches = [rows[j : j + 500] for j in range(0, hands, 500)]
    assert list(X.sorted_finding_frames(batches, tmp_path, hands, per_part, max_buckets=4)) == []
    assert sum(n for n, _ in held) == hands  # every hand checked once
    assert max(n for n, _ in held) <= per_part * 3 // 2, sorted(held)[-5:]
    assert not list(tmp_path.iterdir())
