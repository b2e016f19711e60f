"""The blind schedule in bounded memory (issue 16, s13-bound): :class:`auditor.schedule.Stream`
gives exactly the rows of :func:`auditor.schedule.check` (T007, and T001 ``clock``), from hands
given a batch at a time and sorted on disk in runs of a few hands, so that every run of the sort,
every run of a tournament and every batch is cut everywhere.

* hypothesis's tournaments: several ids (a placeholder one too), flights, tables, levels going up
  and down, runs hours apart, hands on UTC, on a printed zone, on a file's clock (one that goes
  back), with no time, cancelled, a pool's, without a big blind or a table;
* the T007 fixtures and the clock examples of ``tests/test_schedule_clocks.py``;
* real tournaments of the corpus (PokerStars on UTC, 888poker on local time), as they are and with
  a table put a level behind.
"""

from __future__ import annotations

import functools
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor import schedule
from auditor.continuity import FINDINGS, FLAT
from auditor.crosshand_audit import SCHEDULE_INPUT
from tests.conftest import ROOT, corpus_path
from tests.test_continuity import rows_of
from tests.test_schedule import table_put_behind
from tests.test_schedule_clocks import _888, _local

Rows = list[dict[str, Any]]
NARROW = {c: t for c, t in FLAT.items() if c in SCHEDULE_INPUT}


def frame(rows: Rows) -> pl.DataFrame:
    return pl.DataFrame([{c: r.get(c) for c in NARROW} for r in rows], schema=NARROW)


def whole(rows: Rows, **kw: Any) -> list[tuple[Any, ...]]:
    """The reference: ``check`` on every hand at once (its rows in a set order: every column)."""
    got = schedule.check(frame(rows).lazy(), **kw).collect().select(list(FINDINGS))
    return got.sort(list(FINDINGS), nulls_last=True).rows()


def streamed(rows: Rows, tmp: Path, batch: int, run_rows: int, **kw: Any) -> list[tuple[Any, ...]]:
    s = schedule.Stream(tmp / "s", run_rows=run_rows, block_rows=1, fan_in=2, **kw)
    try:
        for i in range(0, len(rows), batch):
            s.add(frame(rows[i : i + batch]))
        frames = list(s.rows(out_rows=3))
    finally:
        s.close()
    assert not (tmp / "s").exists()  # the sorted runs are removed
    assert all(f.height <= 3 for f in frames)
    got = pl.concat(frames) if frames else pl.DataFrame(schema=FINDINGS)
    return got.sort(list(FINDINGS), nulls_last=True).rows()


T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Rows, int, int]:
    """Hands of a few tournaments (see the module), a batch size and a sort run size."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(1, 80))
    clocks = draw(st.sampled_from(["utc", "mixed", "local"]))
    tids = rnd.sample(["7", "8", "9", "?"], rnd.randint(1, 3))
    rows: Rows = []
    minute = 0
    for i in range(n):
        minute += rnd.choice([0, 0, 1, 1, 2, 3, 5, 7]) if rnd.random() < 0.97 else rnd.choice([61, 90, 300])
        tid = rnd.choice(tids)
        bb = rnd.choice([20, 40, 40, 60, 100, 100, 200]) if rnd.random() < 0.5 else 20 * (1 + minute // 6)
        r: dict[str, Any] = {
            "site": rnd.choice(["pokerstars", "pokerstars", "888poker"]), "tournament_id": tid,
            "hand_id": rnd.choice([str(1000 + i), f"OM{500 + i}", f"{1000 - i}", "abc"]),
            "path": rnd.choice(["a.txt", "b.txt", f"single-{i}.txt"]), "first_line": 1 + 40 * i,
            "table": rnd.choice([f"{tid} {rnd.randint(1, 4)}"] * 20 + [None]),
            "game": rnd.choice(["holdem"] * 9 + ["omaha"]), "structure": "nl", "decimals": rnd.choice([0] * 9 + [2]),
            "small_blind": rnd.choice([bb // 2, bb // 2, bb // 2 - 1, None]),
            "big_blind": bb if rnd.random() < 0.97 else None,
            "ante": rnd.choice([None, 0, 0, bb // 10]), "cancelled": rnd.random() < 0.03, "pool": rnd.random() < 0.02,
            "flight": rnd.choice([None, None, None, "Day 1A"]), "start_utc": None, "local_start": None, "clock": None,
        }  # fmt: skip
        at = T0 + timedelta(minutes=minute, seconds=rnd.choice([0, 0, 30]))
        ways = {"utc": ["utc"], "mixed": ["utc", "local", "local", "none"], "local": ["local"]}[clocks]
        how = rnd.choice(ways)
        if how == "utc":
            r["start_utc"] = at
        elif how == "local":
            # a clock that sometimes goes back: hands of one table later in number, earlier in time
            back = timedelta(minutes=10) if rnd.random() < 0.05 else timedelta(0)
            r["local_start"] = at.replace(tzinfo=None) - back
            r["clock"] = rnd.choice([None, None, "CET"])
        rows.append(r)
    return rows, draw(st.integers(1, 9)), draw(st.integers(1, 6))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tournaments())
def test_the_stream_gives_the_whole_check_on_generated_tournaments(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[Rows, int, int]
) -> None:
    rows, batch, run_rows = case
    assert streamed(rows, tmp_path_factory.mktemp("s"), batch, run_rows) == whole(rows)


@pytest.mark.parametrize("minutes", [1, 3, 10])
def test_the_stream_reads_the_tolerance_and_the_run_gap_as_check_does(tmp_path: Path, minutes: int) -> None:
    rows = _fixture_rows()
    kw = {"tolerance": timedelta(minutes=minutes), "run_gap": timedelta(minutes=10 * minutes)}
    assert streamed(rows, tmp_path, 5, 4, **kw) == whole(rows, **kw)


def test_no_tolerance_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="tolerance"):
        schedule.Stream(tmp_path, tolerance=timedelta(0))


FIX = ROOT / "fixtures" / "continuity" / "T007"


@functools.cache
def _fixture_rows() -> Rows:
    return [r for rows in _fixture_files() for r in rows]


@functools.cache
def _fixture_files() -> list[Rows]:
    return [rows_of(p) for p in sorted(FIX.glob("*.txt"))]


def test_the_stream_gives_the_whole_check_on_the_fixtures_and_their_clocks(tmp_path: Path) -> None:
    """The T007 fixtures as they are, on their printed time without a zone (one file's clock, or
    each its own), and with a table's clock set back."""
    cases: list[Rows] = []
    for rows in _fixture_files():
        half = len(rows) // 2
        cases += [rows, _local(rows), _local(rows, clock="EET"),
                  _local(rows[:half], path="x.txt") + _local(rows[half:], path="y.txt")]  # fmt: skip
        gone_back = _local(rows)
        gone_back[len(rows) // 2]["local_start"] -= timedelta(hours=1)
        cases.append(gone_back)
    found = 0
    for i, rows in enumerate(cases):
        want = whole(rows)
        found += len(want)
        for batch, run_rows in ((1, 1), (7, 3), (1000, 1000)):
            d = tmp_path / f"{i}-{batch}"
            d.mkdir()
            assert streamed(rows, d, batch, run_rows) == want, (i, batch)
    assert found  # (T007 rows and clock gaps among them)


@pytest.mark.corpus
def test_the_stream_gives_the_whole_check_on_real_tournaments(tmp_path: Path) -> None:
    """A PokerStars multi-table tournament (UTC) and 888poker's (local time, no zone), as they are,
    with a table put a level behind, and split across two files (two clocks)."""
    from tests.test_schedule import MTT

    stars = rows_of(corpus_path(*MTT))
    stars.sort(key=lambda r: (r["start_utc"], r["hand_id"]))
    cases = [stars, table_put_behind(stars, "start_utc")[0]]
    free = rows_of(corpus_path(*_888, "NLHE-FREE-MTT-$75Freeroll20120217.txt"))
    free.sort(key=lambda r: (r["local_start"], r["hand_id"]))
    cases += [free, table_put_behind(free, "local_start")[0]]
    cases.append(rows_of(*(corpus_path(*_888, f"NLHE-USD-MTT-0.90-201205.{n}.txt")
                           for n in ("multiway.allin.blind", "uncalledbets.correct", "walk"))))  # fmt: skip
    half = len(stars) // 2
    cases.append(_local(stars[:half], path="x.txt") + _local(stars[half:], path="y.txt"))
    found = 0
    for i, rows in enumerate(cases):
        want = whole(rows)
        found += len(want)
        d = tmp_path / str(i)
        d.mkdir()
        assert streamed(rows, d, 50, 37) == want, i
    assert found
