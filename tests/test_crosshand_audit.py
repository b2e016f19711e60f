"""The cross-hand stage of ``hhaudit audit`` in bounded memory (issue 16, auditor/crosshand_audit.py):
spilled to disk by table-key hash and checked one hash range at a time, it finds exactly what
:class:`auditor.continuity.Collect` finds on the whole run, in the same order."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from auditor.audit import AuditRun
from auditor.continuity import Collect
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


def run(collector: Collect | Bounded | FirstHandFirst, cs: list[Chunk]) -> list[object]:
    r = AuditRun(crosshand=collector)
    for c in cs:
        r.process(c)
    return list(collector.findings())


@pytest.mark.parametrize(
    ("rows", "spill", "per_part"),
    [(1_000, 16 * 2**20, 25_000), (3, 1, 5), (7, 1, 1), (2, 20_000, 40), (1, 1, 10**9)],
    ids=["in-memory", "spill-every-frame", "a-partition-per-hand", "some-spills", "one-partition"],
)
def test_bounded_equals_collect_on_the_continuity_fixtures(rows: int, spill: int, per_part: int) -> None:
    codes: set[str] = set()
    for cs in sessions():
        want = run(Collect(), cs)
        codes |= {f.code for f in want}  # type: ignore[attr-defined]
        b = Bounded(rows, spill, per_part)
        assert run(b, cs) == want, cs[0].path
        if spill == 1:
            assert b.spills and b.dir is not None and not b.dir.exists()  # spilled, then removed
    assert codes >= {"T001", "T002", "T003", "T005", "T006"}  # (T004 needs a no-top-up profile)


def test_first_hand_first_equals_collect() -> None:
    for cs in sessions():
        assert run(FirstHandFirst(), cs) == run(Collect(), cs)


@pytest.mark.corpus
def test_bounded_equals_collect_on_a_corpus_folder() -> None:
    d = corpus_dir("pokerstars")
    cs = [c for c in chunks(sorted(d.rglob("*.txt"))) if c.site == "pokerstars"][:1500]
    assert run(Bounded(50, 1, 200), cs) == run(Collect(), cs)


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
