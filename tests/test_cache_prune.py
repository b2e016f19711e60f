"""The format/grammar cache stays bounded on disk (``auditor.formats.cache.prune``): a write removes
the files nobody loaded for ``STALE_DAYS`` days and the leftovers of killed writes, a load keeps its
file fresh, and nothing else in the directory is touched."""

from __future__ import annotations

import os
import time
from pathlib import Path

from auditor.formats import cache as C

KEY = "ab" * 32  # a 64-hex-digit key: its file is named by the first 40


def aged(path: Path, days: float) -> None:
    t = time.time() - days * 86_400
    os.utime(path, (t, t))


def test_a_write_removes_stale_files_and_killed_writes_only(cache_dir: Path) -> None:
    C.load_or_build("kind", KEY, dict, lambda: {"a": 1})
    (fresh,) = cache_dir.glob("kind-*.pickle")
    stale = cache_dir / f"grammar-pokerstars-{'c' * 40}.pickle"
    stale.write_bytes(b"old")
    aged(stale, C.STALE_DAYS + 1)
    recent = cache_dir / f"lookup-BadugiHand-{'d' * 40}.pickle"
    recent.write_bytes(b"recent")
    aged(recent, C.STALE_DAYS - 1)
    left = cache_dir / f"cards-{'e' * 40}.pickle.x1y2z3.tmp"
    left.write_bytes(b"half")
    aged(left, 2)
    young_tmp = cache_dir / f"cards-{'f' * 40}.pickle.q9w8e7.tmp"
    young_tmp.write_bytes(b"being written")
    other = cache_dir / "notes.txt"  # not a cache file: never removed, however old
    other.write_text("mine")
    aged(other, 400)

    C.load_or_build("kind", "cd" * 32, dict, lambda: {"b": 2})  # a miss: written, then pruned

    assert not stale.exists() and not left.exists()
    assert fresh.exists() and recent.exists() and young_tmp.exists() and other.exists()
    assert len(list(cache_dir.glob("kind-*.pickle"))) == 2


def test_a_load_keeps_its_file_from_going_stale(cache_dir: Path) -> None:
    built: list[int] = []

    def build() -> dict[str, int]:
        built.append(1)
        return {"a": 1}

    C.load_or_build("kind", KEY, dict, build)
    (path,) = cache_dir.glob("kind-*.pickle")
    aged(path, C.STALE_DAYS - 0.5)
    assert C.load_or_build("kind", KEY, dict, build) == {"a": 1}
    assert time.time() - path.stat().st_mtime < 60  # touched by the load
    assert C.prune(cache_dir, now=time.time() + 2 * 86_400) == []
    assert C.load_or_build("kind", KEY, dict, build) == {"a": 1} and built == [1]


def test_a_file_loaded_today_is_not_touched_again(cache_dir: Path) -> None:
    C.load_or_build("kind", KEY, dict, lambda: {"a": 1})
    (path,) = cache_dir.glob("kind-*.pickle")
    aged(path, 0.5)
    before = path.stat().st_mtime
    C.load_or_build("kind", KEY, dict, lambda: {"a": 2})
    assert path.stat().st_mtime == before


def test_prune_reports_what_it_removed_and_survives_a_missing_directory(tmp_path: Path) -> None:
    assert C.prune(tmp_path / "absent") == []
    p = tmp_path / f"dispatch-{'0' * 40}.pickle"
    p.write_bytes(b"x")
    assert C.prune(tmp_path) == []
    assert C.prune(tmp_path, now=time.time() + (C.STALE_DAYS + 1) * 86_400) == [p.name]
    assert not p.exists()
