"""T007 without UTC times, and flights of one tournament id (``auditor.schedule``).

* A hand whose site printed no zone it can read keeps its printed time (``local_start``) on a clock:
  the zone as printed, or the file's own.  Tables on one clock are compared (an unknown offset they
  share cancels out); tables on different clocks, or hands with no time, are not, and this is said
  once per tournament (T001, reason ``clock``).  A clock on which a table's hands go back in time is
  not trusted.  No zone is ever guessed.
* Two flights of one id (GGPoker prints ``[Flight W]`` in the tournament's name) are two
  tournaments: ``fixtures/continuity/T007/flights.txt`` (flight W at level 2, flight X at level 1,
  both on tables '1' and '2') audits clean; ``flights_bad.txt`` (flight W's table 2 behind) is T007
  once.
* Real 888poker tournaments (local times, no zone) audit clean, and a table kept a level behind is
  caught.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from auditor import continuity as C
from auditor import schedule
from auditor.pipeline import audit
from tests.conftest import ROOT, corpus_path
from tests.test_continuity import rows_of, t_findings
from tests.test_schedule import table_put_behind

FIX = ROOT / "fixtures" / "continuity" / "T007"


def _codes(rows: list[dict[str, Any]]) -> list[tuple[str, str, str | None, str | None]]:
    return [(f.code, f.hand_id or "", f.data.get("reason"), f.data.get("previous_hand_id")) for f in t_findings(rows)]


def _local(
    rows: list[dict[str, Any]],
    offset: timedelta = timedelta(hours=5),
    clock: str | None = None,
    path: str | None = None,
) -> list[dict[str, Any]]:
    """The rows as a site that prints its local time with no zone would give them: no UTC time, the
    printed time ``offset`` away from UTC (unknown to the auditor), the zone ``clock`` as printed."""
    out = []
    for r in rows:
        local = r["start_utc"].replace(tzinfo=None) + offset
        out.append({**r, "start_utc": None, "local_start": local, "clock": clock, **({"path": path} if path else {})})
    return out


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2022-07-11 15:03:22", datetime(2022, 7, 11, 15, 3, 22)),  # Bovada, iPoker
        ("2012/04/12 - 22:32:06", datetime(2012, 4, 12, 22, 32, 6)),  # Cake
        ("2011/08/07 16:02", datetime(2011, 8, 7, 16, 2)),  # Chico
        ("27 03 2016 22:36:34", datetime(2016, 3, 27, 22, 36, 34)),  # 888poker: day, month, year
        ("Tue Dec 18 01:53:38 2012", datetime(2012, 12, 18, 1, 53, 38)),  # OnGame
        ("July 27, 23:00:33 2012", datetime(2012, 7, 27, 23, 0, 33)),  # PartyPoker
        ("31 02 2016 10:00:00", None),
        ("", None),
        (None, None),
    ],
)
def test_printed_times_are_read_without_a_zone(text: str | None, want: datetime | None) -> None:
    assert schedule.local_start(text) == want


def test_a_hand_with_a_printed_zone_or_a_cash_hand_has_no_local_time() -> None:
    utc = datetime(2026, 1, 5, 20, 0)
    assert schedule.hand_columns(utc, False, "2026/01/05 20:00:00", "ET", {}, True)["local_start"] is None
    assert schedule.hand_columns(None, False, "27 03 2016 22:36:34", None, {"buyin": "$1"}, False) == {
        "local_start": None, "clock": None, "flight": None}  # fmt: skip
    got = schedule.hand_columns(None, False, "Mon Dec 27 09:28:36 2010", "GMT+0100", {"tournament_name": "Coinflip"},
                                True)  # fmt: skip
    assert got == {"local_start": datetime(2010, 12, 27, 9, 28, 36), "clock": "GMT+0100", "flight": "Coinflip\x1f"}
    # a zone the reader assumed (GGPoker prints none) is no clock: the printed time, on the file's clock
    got = schedule.hand_columns(utc, True, "2026/01/05 20:00:00", None, {}, True)
    assert got == {"local_start": datetime(2026, 1, 5, 20, 0), "clock": None, "flight": None}


# ---------------------------------------------------------------------------------- clocks


def test_tables_of_one_file_without_a_zone_are_compared_on_its_clock() -> None:
    want = [("T007", "260000002008", "schedule", "260000001005")]
    assert _codes(_local(rows_of(FIX / "bad.txt"))) == want
    assert _codes(_local(rows_of(FIX / "good.txt"))) == []


def test_a_printed_zone_is_one_clock_across_files() -> None:
    rows = _local(rows_of(FIX / "bad.txt"), clock="GMT+0100")
    moved = [{**r, "path": "other.txt"} if r["table"].endswith(" 2") else r for r in rows]
    assert _codes(moved) == [("T007", "260000002008", "schedule", "260000001005")]


def test_tables_in_two_files_without_a_zone_are_not_compared_and_this_is_said_once() -> None:
    rows = _local(rows_of(FIX / "bad.txt"))
    moved = [{**r, "path": "other.txt"} if r["table"].endswith(" 2") else r for r in rows]
    got = t_findings(moved)
    # the gap is reported on the first hand off the main clock, naming that clock's first hand
    assert [(f.code, f.hand_id, f.data["reason"], f.data["previous_hand_id"]) for f in got] == [
        ("T001", "260000002001", "clock", "260000001001")
    ]
    assert "not checked across this table" in got[0].message
    # one clock with UTC times and one without: not compared either
    mixed = [r if r["table"].endswith(" 1") else m for r, m in zip(rows_of(FIX / "bad.txt"), rows, strict=True)]
    assert [(f.code, f.data["reason"]) for f in t_findings(mixed)] == [("T001", "clock")]


def test_a_local_clock_that_goes_back_is_not_trusted() -> None:
    rows = _local(rows_of(FIX / "bad.txt"))
    # table 2's hands from its fifth on are printed an hour earlier (a clock set back: daylight saving)
    back = [{**r, "local_start": r["local_start"] - timedelta(hours=1)}
            if r["table"].endswith(" 2") and int(r["hand_id"]) % 1000 >= 5 else r for r in rows]  # fmt: skip
    got = t_findings(back)
    assert [(f.code, f.data["reason"], f.data["previous_hand_id"]) for f in got] == [("T001", "clock", None)]
    assert "goes back" in got[0].message


def test_hands_with_no_time_are_said_once_and_a_single_table_is_silent() -> None:
    rows = [{**r, "start_utc": None} for r in rows_of(FIX / "bad.txt")]
    assert [(f.code, f.data["reason"]) for f in t_findings(rows)] == [("T001", "clock")]
    one = [r for r in _local(rows_of(FIX / "bad.txt")) if r["table"].endswith(" 1")]
    assert t_findings([{**r, "local_start": None} for r in one]) == []


# ---------------------------------------------------------------------------------- flights


def test_two_flights_of_one_id_audit_clean_and_a_table_behind_is_caught() -> None:
    _s, good = audit([str(FIX / "flights.txt")], select="ALL,T001")
    assert good == []
    _s, bad = audit([str(FIX / "flights_bad.txt")], select="ALL,T001")
    assert [(f.code, f.hand_id, f.data["previous_hand_id"], f.data["table"]) for f in bad] == [
        ("T007", "TM260000002008", "TM260000001005", "2")
    ]
    assert bad[0].data["expected"] == 30 and bad[0].data["actual"] == 20


def test_without_the_flight_the_flights_would_be_false_alarms() -> None:
    rows = rows_of(FIX / "flights.txt")
    assert {r["flight"] for r in rows} == {
        "WSOP #77: $5,000 No Limit Hold'em Main Event [Flight W], $25M GTD\x1f",
        "WSOP #77: $5,000 No Limit Hold'em Main Event [Flight X], $25M GTD\x1f",
    }
    merged = {f.code for f in t_findings([{**r, "flight": None} for r in rows])}
    # the tables '1' (and '2') of both flights chained as one: blinds "going down" (T006) between them
    assert merged & {"T003", "T005", "T006", "T007"}


def test_flights_are_kept_in_one_partition() -> None:
    from auditor.batch import crosshand as X

    df = C.frame(rows_of(FIX / "flights_bad.txt"))
    whole = C.check(df.lazy()).collect()
    assert whole["code"].to_list() == ["T007"]
    for parts in (2, 3):
        assert X.check_partitioned(df, parts).select("code", "hand_id").equals(whole.select("code", "hand_id"))


# ---------------------------------------------------------------------------------- real tournaments

_888 = ("888poker", "tournament-flop", "fpdb3")


@pytest.mark.corpus
def test_real_888_tournament_on_local_time_is_clean_and_a_table_behind_is_caught() -> None:
    rows = rows_of(corpus_path(*_888, "NLHE-FREE-MTT-$75Freeroll20120217.txt"))
    rows = [r for r in rows if r["tournament_id"] == "36216773"]
    assert all(r["start_utc"] is None and r["local_start"] is not None for r in rows)
    assert len({r["table"] for r in rows}) >= 4
    assert [f for f in t_findings(rows) if f.code in ("T006", "T007") or f.data.get("reason") == "clock"] == []
    assert schedule.check(C.frame(rows).lazy(), tolerance=timedelta(0)).collect().is_empty()
    rows.sort(key=lambda r: (r["local_start"], r["hand_id"]))
    mutated, late, first_at, _below = table_put_behind(rows, "local_start")
    got = [(f.hand_id, f.data["previous_hand_id"]) for f in t_findings(mutated) if f.code == "T007"]
    assert got == [(late["hand_id"], first_at["hand_id"])]


@pytest.mark.corpus
def test_real_888_tournament_in_several_files_is_one_clock_gap() -> None:
    paths = [corpus_path(*_888, n) for n in ("NLHE-USD-MTT-0.90-201205.multiway.allin.blind.txt",
                                          "NLHE-USD-MTT-0.90-201205.uncalledbets.correct.txt",
                                          "NLHE-USD-MTT-0.90-201205.uncalledbets.false.positive.txt",
                                          "NLHE-USD-MTT-0.90-201205.walk.txt")]  # fmt: skip
    rows = [r for r in rows_of(*paths) if r["tournament_id"] == "38340077"]
    assert len({r["table"] for r in rows}) == 2 and len({r["path"] for r in rows}) >= 2
    got = [f for f in t_findings(rows) if f.data.get("reason") == "clock" or f.code == "T007"]
    assert [(f.code, f.data["reason"]) for f in got] == [("T001", "clock")]


def test_dask_with_two_workers_gives_the_in_process_result_on_clocks_and_flights() -> None:
    """Flights, a zone-less tournament in one file (judged) and one in two files (a clock gap): the
    same rows from two Dask workers as in process."""
    from auditor.batch import crosshand as X
    from auditor.batch.dask_engine import executor as dask_executor

    distributed = pytest.importorskip("distributed")
    rows = rows_of(FIX / "flights_bad.txt")
    local = _local(rows_of(FIX / "bad.txt"))
    rows += [{**r, "tournament_id": "5550001"} for r in local]
    rows += [{**r, "tournament_id": "5550002", **({"path": "other.txt"} if r["table"].endswith(" 2") else {})}
             for r in local]  # fmt: skip
    df = C.frame(rows)
    here = X.check_partitioned(df, 4)
    assert sorted(zip(here["code"], here["reason"], strict=True)) == [
        ("T001", "clock"), ("T007", "schedule"), ("T007", "schedule")]  # fmt: skip
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl,
        distributed.Client(cl) as client,
    ):
        remote = X.check_partitioned(df, 4, dask_executor(client))
    assert remote.equals(here)
