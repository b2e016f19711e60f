"""Issue 11: a corrupt or zero-byte part or manifest file in the audit store is found at the start
of the next run, named, removed, and its source file audited again: the store ends exactly as an
uninterrupted run leaves it, and the report can read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.batch import store as S
from tests.conftest import FIXTURES
from tests.test_batch import assert_same_store, batch, make_inputs, runs


def _one(store: Path, table: str) -> Path:
    parts = sorted(p for p in (store / table).rglob("*.parquet") if not p.name.startswith("."))
    assert parts, table
    return parts[0]


@pytest.mark.parametrize("damage", ["zero-byte", "cut"])
@pytest.mark.parametrize("table", ["hands", "findings", "files"])
def test_a_damaged_store_file_is_repaired_by_the_next_run(tmp_path: Path, table: str, damage: str) -> None:
    src = tmp_path / "in"
    make_inputs(src)
    (src / "disputed.txt").write_text((FIXTURES / "samples" / "disputed_reraise.txt").read_text("utf-8"))
    clean, store = tmp_path / "clean", tmp_path / "store"
    assert batch([src], clean)[0] in (0, 1)
    assert batch([src], store)[0] in (0, 1)
    victim = _one(store, table)
    data = victim.read_bytes()
    victim.write_bytes(b"" if damage == "zero-byte" else data[: len(data) // 2])

    code, _out, err = batch([src], store)
    assert code in (0, 1), err
    assert "unreadable store file" in err
    assert any("not a readable Parquet file" in m for m in runs(store).row(-1, named=True)["errors"])
    assert_same_store(clean, store)
    S.scan(str(store), "findings").collect()  # the report's query reads the repaired store


@pytest.mark.parametrize("streamed", [False, True], ids=["night-whole", "night-streamed"])
def test_a_damaged_part_of_a_file_not_listed_is_removed_while_the_workers_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, streamed: bool
) -> None:
    """Issue 16: no footer is read before the first file; the parts of files this run does not list
    are checked by a thread of the batch process, and the damaged one is removed before the night
    pass reads the store; the next run that lists its file audits it again.  ``night-streamed``: the
    same with a night larger than a partition (split part by part into partition files, whose reader
    must not open the removed part either)."""
    if streamed:
        from auditor.batch import crosshand as X

        monkeypatch.setattr(X, "HANDS_PER_PARTITION", 3)
    src = tmp_path / "in"
    make_inputs(src)
    clean, store = tmp_path / "clean", tmp_path / "store"
    assert batch([src], clean)[0] in (0, 1)
    assert batch([src], store)[0] in (0, 1)
    victim = sorted((store / "hands").rglob("*.parquet"))[0]
    listed = [d for d in sorted(src.iterdir()) if not any(victim.name.startswith(S.file_key(str(f)))
                                                          for f in d.rglob("*.txt"))]  # fmt: skip
    assert listed and len(listed) < len(list(src.iterdir()))
    victim.write_bytes(b"")

    code, _out, err = batch(listed, store)
    assert code in (0, 1), err
    assert not victim.exists() and "unreadable store file" in err
    assert any("not a readable Parquet file" in m for m in runs(store).row(-1, named=True)["errors"])
    assert runs(store).row(-1, named=True)["files_skipped"] == sum(len(list(d.rglob("*.txt"))) for d in listed)
    assert batch([src], store)[0] in (0, 1)
    assert_same_store(clean, store)
