"""A huge table or tournament checked in windows (issue 16, s12-bucket:
:func:`auditor.crosshand_audit.windowed_frames`) finds exactly what
:func:`auditor.continuity.check` finds on all its hands at once: the same rows, sorted as the
finisher sorts them, with windows small enough to cut every chain everywhere."""

from __future__ import annotations

import functools
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor import crosshand_audit as X
from auditor.continuity import FINDINGS
from tests.conftest import corpus_dir
from tests.test_crosshand_audit import chunks, rows_of, sessions

Rows = list[dict[str, Any]]


def whole(rows: Rows) -> list[tuple[Any, ...]]:
    """The reference: ``check`` on every row at once, sorted as the finisher sorts (stably)."""
    return X.check_rows(rows).sort(X.ORDER, nulls_last=True, maintain_order=True).rows()


def windowed(rows: Rows, tmp: Path, per_part: int, batch: int = 7) -> list[tuple[Any, ...]]:
    batches = [rows[i : i + batch] for i in range(0, len(rows), batch)]
    frames = [df.select(list(FINDINGS)) for df in X.windowed_frames(batches, tmp / "chain", per_part)]
    got = pl.concat(frames, how="vertical_relaxed") if frames else pl.DataFrame(schema=FINDINGS)
    assert not (tmp / "chain").exists() and not (tmp / "chain.schedule").exists()  # the sorted runs are removed
    return got.sort(X.ORDER, nulls_last=True, maintain_order=True).rows()


def one_table(rows: Rows, tournament: str | None = None, tables: int = 1) -> Rows:
    """``rows`` at ``tables`` tables of one key (a cash table, or a tournament's tables)."""
    out = []
    for i, r in enumerate(rows):
        r = dict(r)
        r["table"], r["tournament_id"], r["flight"] = f"Big {i % tables}", tournament, None
        out.append(r)
    return out


@functools.cache
def session_rows() -> list[Rows]:
    """Each continuity fixture session's rows (audited once per process, when first needed)."""
    return [rows_of(cs) for cs in sessions()]


@functools.cache
def fixture_cases() -> list[tuple[Rows, list[tuple[Any, ...]]]]:
    """Each fixture session's rows, then all of them at one cash table and at one tournament's two
    tables, each with its reference (made once: the audit and the whole check are the slow part)."""
    every = [r for rows in session_rows() for r in rows]
    return [(rows, whole(rows)) for rows in (*session_rows(), one_table(every), one_table(every, "777", 2))]


@pytest.mark.parametrize("per_part", [1, 3])
def test_windows_give_the_whole_check_on_the_continuity_fixtures(tmp_path: Path, per_part: int) -> None:
    """Each fixture session as it is, and all of them at one cash table and at one tournament's two tables."""
    for i, (rows, want) in enumerate(fixture_cases()):
        d = tmp_path / str(i)
        d.mkdir()
        assert windowed(rows, d, per_part) == want, rows[0]["path"] if rows else i


@pytest.mark.corpus
@pytest.mark.parametrize("per_part", [7])
def test_windows_give_the_whole_check_on_corpus_hands(tmp_path: Path, per_part: int) -> None:
    """Real PokerStars hands: as they are (their own tables and tournaments), all at one cash table,
    and all in one tournament of three tables."""
    cs: list[Any] = []
    for p in sorted(corpus_dir("pokerstars").rglob("*.txt")):  # (the first 600 hands: the files they are in)
        cs += [c for c in chunks([p]) if c.site == "pokerstars"]
        if len(cs) >= 600:
            break
    rows = rows_of(cs[:600])
    for j, rs in enumerate((rows, one_table(rows), one_table(rows, "4242", 3))):
        t = tmp_path / str(j)
        t.mkdir()
        want = whole(rs)
        assert want  # (the repeated tables break chains: gaps, returns, moves)
        assert windowed(rs, t, per_part, batch=100) == want


@functools.cache
def base_rows() -> Rows:
    """The first six sessions' rows: what :func:`generated` re-deals."""
    return [r for rows in session_rows()[:6] for r in rows]


@st.composite
def generated(draw: st.DrawFn) -> tuple[Rows, int]:
    """Fixture hands re-dealt at a few tables of one key: repeated and shuffled hand ids, equal and
    missing start times (a tournament's on other clocks too), players leaving and coming back, hands
    alone in their files, cancelled and seatless hands; and a window size."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(2, 60))
    tour = draw(st.sampled_from([None, "55"]))
    tables = draw(st.integers(1, 3))
    pool = [f"p{i}" for i in range(draw(st.integers(2, 9)))]
    rows: Rows = []
    for i in range(n):
        r = dict(rnd.choice(base_rows()))
        r["table"], r["tournament_id"], r["flight"] = f"T{rnd.randrange(tables)}", tour, None
        r["hand_id"] = str(1000 + rnd.randrange(n + 3))  # repeats
        start = r.get("start_utc")
        if start is not None and rnd.random() < 0.9:
            r["start_utc"] = start + timedelta(seconds=60 * rnd.randrange(n))
        elif rnd.random() < 0.5:
            r["start_utc"] = None
        r["path"] = rnd.choice(["a.txt", "b.txt", f"single-{i}.txt"])
        if tour and r.get("start_utc") is not None and rnd.random() < 0.2:  # a printed time of its own clock
            r["local_start"], r["start_utc"] = r["start_utc"].replace(tzinfo=None), None
            r["clock"] = rnd.choice([None, "CET"])
        r["first_line"] = i * 40 + 1
        if rnd.random() < 0.05:
            r["cancelled"] = True
        if r.get("seats") is not None:
            if rnd.random() < 0.05:
                r["seats"] = None
            else:
                names = rnd.sample(pool, min(len(pool), len(r["seats"])))
                r["seats"] = [{**s, "player": p} for s, p in zip(r["seats"], names, strict=False)]
        rows.append(r)
    return rows, draw(st.integers(1, 8))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generated())
def test_windows_give_the_whole_check_on_generated_tables(tmp_path_factory: pytest.TempPathFactory,
                                                          case: tuple[Rows, int]) -> None:  # fmt: skip
    rows, per_part = case
    tmp = tmp_path_factory.mktemp("w")
    assert windowed(rows, tmp, per_part, batch=5) == whole(rows)


def test_a_huge_key_is_checked_in_windows_of_the_partition_size(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The finisher gives one table (or tournament) of many hands to :func:`windowed_frames`, never
    whole to ``check``: no query sees more than the partition size and the context hands, and the
    tournament's schedule is never one query (:class:`auditor.schedule.Stream`)."""
    from auditor import continuity, schedule

    seen: list[int] = []
    scheduled: list[int] = []
    check, whole_schedule = continuity.check, schedule.check

    def recording(hands: pl.LazyFrame, *a: Any, **k: Any) -> pl.LazyFrame:
        seen.append(hands.collect().height)
        return check(hands, *a, **k)

    def recording_schedule(hands: pl.LazyFrame, *a: Any, **k: Any) -> pl.LazyFrame:
        scheduled.append(hands.collect().height)
        return whole_schedule(hands, *a, **k)

    every = [r for rows in session_rows() for r in rows]
    per_part = 20
    for rows in (one_table(every), one_table(every, "777", 3)):
        want = list(continuity.to_findings(X.check_rows(rows)))
        with monkeypatch.context() as m:
            m.setattr(continuity, "check", recording)
            m.setattr(schedule, "check", recording_schedule)
            got = X.findings_of([rows], tmp_path, len(rows), per_part)
        assert max(seen) <= per_part + X.BEFORE + X.AFTER
        # (only the small buckets of the fixtures' other sites are checked whole, schedule and all)
        assert max(scheduled) <= per_part * 3 // 2 < len(rows)
        assert got == want
