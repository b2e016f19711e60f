"""T007: the blind schedule of a tournament across its tables (``auditor.schedule``).

* ``fixtures/continuity/T007/good.txt`` (two tables of one tournament, level II from 20:04 at both)
  audits clean; ``bad.txt`` (table 2 stays at level I) is T007 once, on table 2's first hand three
  minutes or more after table 1 went up, naming table 1's first hand at level II;
* placeholder tournament ids, and hands of one id hours apart, are not compared;
* a real multi-table PokerStars tournament of the corpus audits clean, and is caught once a table is
  made to stay a level behind the others;
* ``hhaudit batch`` reports what ``hhaudit audit`` reports, and partitions (in process and on Dask)
  keep a tournament's tables together.
"""

from __future__ import annotations

import copy
import io
from datetime import timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from auditor import continuity as C
from auditor import schedule
from auditor.batch import crosshand as X
from auditor.batch import store as S
from auditor.batch.dask_engine import executor as dask_executor
from auditor.batch.runner import Options, run_batch
from auditor.pipeline import audit
from tests.conftest import CORPUS, ROOT
from tests.test_continuity import rows_of, t_findings

FIX = ROOT / "fixtures" / "continuity" / "T007"


def _t007(rows: list[dict[str, Any]]) -> list[tuple[str, str, int | None, int | None]]:
    return [(f.hand_id or "", f.data["previous_hand_id"], f.data["expected"], f.data["actual"])
            for f in t_findings(rows) if f.code == "T007"]  # fmt: skip


def test_good_tables_are_clean_and_the_table_behind_is_caught_once() -> None:
    _s, good = audit([str(FIX / "good.txt")], select="ALL,T001")
    assert good == []
    _s, found = audit([str(FIX / "bad.txt")], select="ALL,T001")
    assert [(f.code, f.hand_id, f.line, f.data["previous_hand_id"], f.data["previous_line"]) for f in found] == [
        ("T007", "260000002008", 361, "260000001005", 193)
    ]
    f = found[0]
    assert f.data["expected"] == 30 and f.data["actual"] == 20 and f.data["table"] == "999000222 2"
    assert "another table" in f.message


def test_the_tolerance_decides_which_hand_is_first_behind() -> None:
    rows = rows_of(FIX / "bad.txt")
    df = C.frame(rows).lazy()
    # with no tolerance the first hand of table 2 after 20:04 is behind
    got = schedule.check(df, tolerance=timedelta(0)).collect()
    assert got["hand_id"].to_list() == ["260000002005"]
    assert schedule.check(df, tolerance=timedelta(minutes=10)).collect().is_empty()


@pytest.mark.parametrize("tid", ["999999999", "?", "0"])
def test_placeholder_tournament_ids_are_not_grouped(tid: str) -> None:
    rows = [{**r, "tournament_id": tid} for r in rows_of(FIX / "bad.txt")]
    assert _t007(rows) == []


def test_hands_of_one_id_hours_apart_are_not_compared() -> None:
    rows = rows_of(FIX / "bad.txt")
    later = [{**r, "start_utc": r["start_utc"] + timedelta(hours=5)} if r["table"].endswith(" 2") else r for r in rows]
    assert _t007(later) == []


def test_a_table_whose_own_blinds_went_down_is_t006_only() -> None:
    rows = rows_of(FIX / "good.txt")
    mutated = copy.deepcopy(rows)
    # table 2's hand at 20:07:30 drops back to level I: T006 there, and no T007 besides
    k = next(i for i, r in enumerate(mutated) if r["hand_id"] == "260000002008")
    mutated[k].update(small_blind=10, big_blind=20)
    assert [(f.code, f.hand_id) for f in t_findings(mutated)] == [("T006", "260000002008")]


# ---------------------------------------------------------------------------------- a real tournament

MTT = ("pokerstars", "tournament-flop", "fpdb3", "NLHE-USD-MTT-1-KO.201008.txt")


def _mtt() -> list[dict[str, Any]]:
    path = CORPUS.joinpath(*MTT)
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {path} (set HHAUDIT_CORPUS to its location)")
    rows = rows_of(path)
    rows.sort(key=lambda r: (r["start_utc"], r["hand_id"]))
    return rows


@pytest.mark.corpus
def test_real_multi_table_tournament_is_clean() -> None:
    rows = _mtt()
    assert len({r["table"] for r in rows}) >= 3
    assert _t007(rows) == []
    # not even with no tolerance at all
    assert schedule.check(C.frame(rows).lazy(), tolerance=timedelta(0)).collect().is_empty()


@pytest.mark.corpus
def test_mutation_a_table_stays_a_level_behind() -> None:
    rows = _mtt()
    mutated, late, first_at, below = table_put_behind(rows, "start_utc")
    bb = first_at["big_blind"]
    assert _t007(mutated) == [(late["hand_id"], first_at["hand_id"], bb, below["big_blind"])]
    assert [f.code for f in t_findings(mutated) if f.code in ("T006", "T007")] == ["T007"]


def table_put_behind(
    rows: list[dict[str, Any]], clock: str
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A copy of a tournament's ``rows`` (ordered by ``clock``) where a table that played a level
    another table had reached before it (the player moved tables), long enough to be behind, has its
    hands at that level set to the level below: (the copy, its first late hand, the tournament's
    first hand at that level, the tournament's first hand at the level below)."""
    first: dict[int, dict[str, Any]] = {}  # big blind -> the tournament's first hand at it
    for r in rows:
        first.setdefault(r["big_blind"], r)
    levels = sorted(first)
    for table in sorted({r["table"] for r in rows}):
        mine = [i for i, r in enumerate(rows) if r["table"] == table]
        for bb in levels[1:]:
            at_level = [i for i in mine if rows[i]["big_blind"] == bb]
            late = [i for i in at_level if rows[i][clock] - first[bb][clock] >= schedule.TOLERANCE]
            if first[bb]["table"] == table or not late:
                continue
            below = first[levels[levels.index(bb) - 1]]
            mutated = copy.deepcopy(rows)
            for i in at_level:
                mutated[i].update(small_blind=below["small_blind"], big_blind=below["big_blind"], ante=below["ante"])
            return mutated, rows[late[0]], first[bb], below
    raise AssertionError("no table of the tournament played a level another table reached first")


# ---------------------------------------------------------------------------------- batch and Dask


def test_batch_reports_what_audit_reports(tmp_path: Path) -> None:
    bad = FIX / "bad.txt"
    _s, found = audit([str(bad)], select="ALL,T")
    want = {(f.code, Path(f.path).name, f.line, f.hand_id) for f in found if f.code.startswith("T")}
    store = tmp_path / "store"
    run_batch(Options([str(bad)], str(store), night="2026-11-01", progress="none"), io.StringIO(), io.StringIO())
    got = S.scan(str(store), "crosshand").collect()
    assert {(r["code"], Path(r["path"]).name, r["line"], r["hand_id"]) for r in got.iter_rows(named=True)} == want


def test_partitions_keep_a_tournament_together() -> None:
    df = C.frame(rows_of(FIX / "bad.txt"))
    whole = C.check(df.lazy()).collect().sort(["path", "line", "code", "player", "hand_id"], nulls_last=True)
    assert whole["code"].to_list() == ["T007"]
    for parts in (2, 5):
        assert X.check_partitioned(df, parts).equals(whole)


def test_dask_with_two_workers_finds_it_too() -> None:
    distributed = pytest.importorskip("distributed")
    df = C.frame(rows_of(FIX / "bad.txt"))
    with distributed.Client(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as client:
        got = X.check_partitioned(df, 4, dask_executor(client))
    assert got["code"].to_list() == ["T007"]
    assert pl.Series(got["hand_id"]).to_list() == ["260000002008"]
