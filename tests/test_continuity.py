"""The cross-hand stage (T-codes): fixtures, mutations of real corpus sessions, audit and batch agree.

* ``fixtures/continuity/<CODE>/good.txt`` audits with no T finding; ``bad.txt`` with the code, on
  the later hand, naming the earlier one (``scripts/make_continuity_fixtures.py`` writes them);
* real PokerStars sessions of the shared corpus, mutated between two hands (chips removed from a
  seated cash player, tournament chips added, the button skipped, a blind level lowered), are
  caught with the right code and both hands named;
* ``hhaudit audit`` and ``hhaudit batch`` report the same duplicate hand ids across files
  (H001/H005) and the same T findings on the same files;
* the partitioned run (by table, in process and on Dask with 2 workers) equals the whole query.
"""

from __future__ import annotations

import copy
import io
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from auditor import continuity as C
from auditor.audit import AuditRun
from auditor.batch import crosshand as X
from auditor.batch import store as S
from auditor.batch.dask_engine import executor as dask_executor
from auditor.batch.runner import Options, run_batch
from auditor.crosshand_audit import Bounded
from auditor.pipeline import Summary, audit, iter_chunks
from tests.conftest import CORPUS, ROOT

FIX = ROOT / "fixtures" / "continuity"
CODES = ["T001", "T002", "T003", "T004", "T005", "T006"]


def rows_of(*paths: Path | str) -> list[dict[str, Any]]:
    keep = Bounded(rows_per_batch=10**9, in_process=10**9)  # every row kept in memory
    run = AuditRun(crosshand=keep)
    for item in iter_chunks([str(p) for p in paths], Summary()):
        if not isinstance(item, C.Finding):
            run.process(item)
    return keep.rows


def t_findings(rows: list[dict[str, Any]]) -> list[C.Finding]:
    return C.to_findings(C.check(C.frame(rows).lazy()).collect())


@pytest.mark.parametrize("code", CODES)
def test_good_session_has_no_cross_hand_finding(code: str) -> None:
    _summary, found = audit([str(FIX / code / "good.txt")])
    assert [f for f in found if f.code.startswith("T")] == []
    assert found == []


@pytest.mark.parametrize("code", [c for c in CODES if c != "T004"])
def test_bad_session_is_caught_naming_both_hands(code: str) -> None:
    _summary, found = audit([str(FIX / code / "bad.txt")], select="ALL,T001")
    ts = [f for f in found if f.code.startswith("T")]
    assert [f.code for f in ts] == [code], ts
    f = ts[0]
    assert f.hand_id == "260000000003" and f.data["previous_hand_id"] == "260000000002"
    assert f.path.endswith("bad.txt") and f.line is not None and f.data["previous_line"] == 25


def test_top_up_is_flagged_only_where_the_profile_forbids_it() -> None:
    rows = rows_of(FIX / "T004" / "bad.txt")
    assert t_findings(rows) == []  # PokerStars allows top-ups between hands
    strict = [{**r, "top_ups": False} for r in rows]
    ts = t_findings(strict)
    assert [(f.code, f.data["amount"], f.data["player"]) for f in ts] == [("T004", 5000, "Cy")]
    assert t_findings([{**r, "top_ups": False} for r in rows_of(FIX / "T004" / "good.txt")]) == []


def test_gap_breaks_the_chain_and_nothing_is_judged_across_it() -> None:
    rows = rows_of(FIX / "T001" / "bad.txt")
    mutated = _change_stack(rows, 2, "Cy", -5000)  # ratholing across the gap: not judged
    assert [f.code for f in t_findings(mutated)] == ["T001"]


# ---------------------------------------------------------------------------------- mutations


def _change_stack(rows: list[dict[str, Any]], k: int, player: str, amount: int) -> list[dict[str, Any]]:
    """The player's stack changed by ``amount`` from hand ``k`` on (as a site would print it)."""
    out = copy.deepcopy(rows)
    for r in out[k:]:
        for s in r["seats"]:
            if s["player"] == player:
                s["stack"] += amount
                if s["final"] is not None:
                    s["final"] += amount
    return out


def _session(*parts: str) -> list[dict[str, Any]]:
    path = CORPUS.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {path} (set HHAUDIT_CORPUS to its location)")
    rows = rows_of(path)
    rows.sort(key=lambda r: (r["start_utc"], r["hand_id"]))
    return rows


def _clean_pair(rows: list[dict[str, Any]]) -> int:
    """A hand k whose pair (k-1, k) is judged (no finding at all between them)."""
    base = t_findings(rows)
    bad = {f.hand_id for f in base}
    for k in range(len(rows) // 2, len(rows)):
        if rows[k]["hand_id"] not in bad and rows[k - 1]["chips_ok"] and rows[k]["chips_ok"]:
            return k
    raise AssertionError("no clean pair")


def _seated(rows: list[dict[str, Any]], k: int) -> str:
    before = {s["player"] for s in rows[k - 1]["seats"] if s["final"]}
    return next(s["player"] for s in rows[k]["seats"] if s["player"] in before and s["stack"] > 100)


@pytest.mark.corpus
def test_mutation_chips_removed_from_a_seated_cash_player() -> None:
    rows = _session("pokerstars", "cash-flop", "fpdb3", "NLHE-6max-EUR-0.05-0.10-200911.txt")
    assert [f.code for f in t_findings(rows) if f.code != "T001"] == []
    k = _clean_pair(rows)
    who = _seated(rows, k)
    ts = [f for f in t_findings(_change_stack(rows, k, who, -100)) if f.code != "T001"]
    assert [(f.code, f.hand_id, f.data["previous_hand_id"], f.data["amount"]) for f in ts] == [
        ("T002", rows[k]["hand_id"], rows[k - 1]["hand_id"], -100)
    ]


@pytest.mark.corpus
def test_mutation_tournament_chips_added() -> None:
    rows = _session("pokerstars", "tournament-flop", "fpdb3", "NLHE-USD-STT-20-201006.DONturbo.txt")
    assert [f.code for f in t_findings(rows) if f.code != "T001"] == []
    k = _clean_pair(rows)
    who = _seated(rows, k)
    ts = [f for f in t_findings(_change_stack(rows, k, who, 50)) if f.code != "T001"]
    assert [(f.code, f.hand_id, f.data["previous_hand_id"], f.data["amount"]) for f in ts] == [
        ("T003", rows[k]["hand_id"], rows[k - 1]["hand_id"], 50)
    ]


@pytest.mark.corpus
def test_mutation_button_skips_a_player() -> None:
    rows = _session("pokerstars", "tournament-flop", "fpdb3", "NLHE-USD-STT-20-201006.DONturbo.txt")
    k = _clean_pair(rows)
    active = sorted(s["seat"] for s in rows[k]["seats"] if s["active"])
    assert len(active) >= 3
    nxt = active[(active.index(rows[k]["button"]) + 1) % len(active)]
    mutated = copy.deepcopy(rows)
    mutated[k]["button"] = nxt
    ts = [f for f in t_findings(mutated) if f.code == "T005"]
    assert [(f.hand_id, f.data["previous_hand_id"], f.data["expected"], f.data["actual"]) for f in ts][:1] == [
        (rows[k]["hand_id"], rows[k - 1]["hand_id"], rows[k]["button"], nxt)
    ]


@pytest.mark.corpus
def test_mutation_blind_level_lowered() -> None:
    rows = _session("pokerstars", "tournament-flop", "fpdb3", "NLHE-USD-STT-20-201006.DONturbo.txt")
    k = next(i for i in range(1, len(rows)) if rows[i]["big_blind"] > rows[i - 1]["big_blind"])
    mutated = copy.deepcopy(rows)
    mutated[k + 1]["big_blind"] = rows[k - 1]["big_blind"]
    mutated[k + 1]["small_blind"] = rows[k - 1]["small_blind"]
    ts = [f for f in t_findings(mutated) if f.code == "T006"]
    assert [(f.hand_id, f.data["previous_hand_id"]) for f in ts] == [(rows[k + 1]["hand_id"], rows[k]["hand_id"])]


# ---------------------------------------------------------------------------------- audit and batch agree


def _dups(tmp: Path) -> list[Path]:
    text = (FIX / "T002" / "good.txt").read_text("utf-8")
    a, b, c = tmp / "a.txt", tmp / "b.txt", tmp / "c.txt"
    a.write_text(text, "utf-8")
    b.write_text(text.split("\n\n\n\n")[0] + "\n", "utf-8")  # an identical copy of the first hand
    c.write_text(text.split("\n\n\n\n")[1].replace("Dan: folds", "Dan: folds ") + "\n", "utf-8")  # the 2nd, same
    d = tmp / "d.txt"
    d.write_text(text.split("\n\n\n\n")[2].replace("Rake $0", "Rake $0.00") + "\n", "utf-8")  # a different record
    return [a, b, c, d]


def _batch(tmp: Path, sources: list[Path], night: str = "2026-11-01", store: Path | None = None) -> Path:
    store = store or tmp / "store"
    out = io.StringIO()
    run_batch(Options([str(p) for p in sources], str(store), night=night, progress="none"), out, io.StringIO())
    return store


def _store_findings(store: Path, codes: tuple[str, ...]) -> set[tuple[str, str, int, str]]:
    both = pl.concat([S.scan(str(store), "findings").collect(), S.scan(str(store), "crosshand").collect()],
                     how="diagonal_relaxed")  # fmt: skip
    both = both.filter(pl.col("code").str.contains("^(?:" + "|".join(codes) + ")"))
    return {(r["code"], Path(r["path"]).name, r["line"], r["hand_id"]) for r in both.iter_rows(named=True)}


def test_audit_and_batch_report_the_same_duplicates_across_files(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    files = _dups(src)
    _s, found = audit([str(src)])
    want = {(f.code, Path(f.path).name, f.line, f.hand_id) for f in found if f.code in ("H001", "H005")}
    assert {c for c, *_ in want} == {"H001", "H005"}
    store = _batch(tmp_path, files)
    assert _store_findings(store, ("H001", "H005")) == want


def test_same_hand_id_on_two_nights_is_found_from_the_store(tmp_path: Path) -> None:
    day1, day2 = tmp_path / "d1", tmp_path / "d2"
    day1.mkdir()
    day2.mkdir()
    shutil.copy(FIX / "T002" / "good.txt", day1 / "s.txt")
    (day2 / "t.txt").write_text((FIX / "T002" / "good.txt").read_text("utf-8").replace("Rake $0", "Rake $0.00"))
    store = _batch(tmp_path, [day1 / "s.txt"], "2026-11-01")
    _batch(tmp_path, [day2 / "t.txt"], "2026-11-02", store)
    got = _store_findings(store, ("H001",))
    assert len(got) == 6 and {name for _c, name, _l, _h in got} == {"t.txt"}


@pytest.mark.parametrize("code", ["T002", "T003", "T005", "T006"])
def test_batch_reports_the_cross_hand_findings_audit_reports(tmp_path: Path, code: str) -> None:
    bad = FIX / code / "bad.txt"
    _s, found = audit([str(bad)], select="ALL,T")
    want = {(f.code, Path(f.path).name, f.line, f.hand_id) for f in found if f.code.startswith("T")}
    assert _store_findings(_batch(tmp_path, [bad]), ("T",)) == want


def test_each_night_is_chained_to_the_last_hands_of_the_night_before(tmp_path: Path) -> None:
    text = (FIX / "T002" / "bad.txt").read_text("utf-8").split("\n\n\n\n")
    (tmp_path / "n1.txt").write_text("\n\n\n\n".join(text[:2]) + "\n")
    (tmp_path / "n2.txt").write_text("\n\n\n\n".join(text[2:]) + "\n")
    store = _batch(tmp_path, [tmp_path / "n1.txt"], "2026-11-01")
    _batch(tmp_path, [tmp_path / "n2.txt"], "2026-11-02", store)
    got = _store_findings(store, ("T",))
    assert {(c, n, h) for c, n, _l, h in got} == {("T002", "n2.txt", "260000000003")}


# ---------------------------------------------------------------------------------- partitions and Dask


def _many_tables(tmp: Path) -> pl.DataFrame:
    rows: list[dict[str, Any]] = []
    for code in CODES:
        for kind in ("good", "bad"):
            for r in rows_of(FIX / code / f"{kind}.txt"):
                rows.append({**r, "table": f"{r['table']}-{code}-{kind}", "path": f"{code}/{kind}.txt"})
    return C.frame(rows)


def test_partitioned_check_equals_the_whole_query(tmp_path: Path) -> None:
    df = _many_tables(tmp_path)
    whole = C.check(df.lazy()).collect().sort(["path", "line", "code", "player", "hand_id"], nulls_last=True)
    assert whole.height >= 5
    for parts in (1, 3, 7):
        assert X.check_partitioned(df, parts).equals(whole)


def test_dask_with_two_workers_gives_the_in_process_result(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    df = _many_tables(tmp_path)
    local = X.check_partitioned(df, 4)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl,
        distributed.Client(cl) as client,
    ):
        remote = X.check_partitioned(df, 4, dask_executor(client))
    assert remote.equals(local)


def test_heads_up_beginning_may_move_the_button() -> None:
    # Boss Media (Opoker) five-card draw: seat 2 holds the button while sitting out, seats 3 and 5
    # play; then seat 2 leaves and heads-up begins with the button on seat 5, so that seat 5 does
    # not post the big blind twice (TDA Rule 34): not T005
    rows = rows_of(ROOT / "fixtures" / "exports" / "bossmedia" / "cash_fcd_heads_up_begins_2011.txt")
    assert [(r["hand_id"], r["button"]) for r in rows] == [("2692988440", 2), ("2692989117", 5)]
    assert [f.code for f in t_findings(rows) if f.code != "T001"] == []
    # heads-up going on (the button was dealt in): a button that stays is still flagged
    stayed = copy.deepcopy(rows)
    stayed[0]["button"] = 5
    assert [f.code for f in t_findings(stayed)] == ["T005"]


def test_bossmedia_button_past_a_newcomer_is_not_a_skip() -> None:
    rows = rows_of(ROOT / "fixtures" / "exports" / "bossmedia" / "tournament_mtt_newcomer_waits_2011.txt")
    assert [f.code for f in t_findings(rows) if f.code == "T005"] == []


def _next_hand(text: str, hand_id: str, date: str, shrink: str) -> str:
    """The same Microgaming hand dealt again: each seat starts with its end balance (``shrink``'s
    with 1.00 less) and its end balance moves by as much."""
    import re

    def seat(m: re.Match[str]) -> str:
        bal, end = int(m["b"].replace(".", "")), int(m["e"].replace(".", ""))
        new = end - (100 if m["who"] == shrink else 0)
        return f'alias="{m["who"]}"{m["mid"]}balance="{new / 100:.2f}" endbalance="{(end + new - bal) / 100:.2f}"'

    text = re.sub(
        r'alias="(?P<who>[^"]+)"(?P<mid>[^>]*?)balance="(?P<b>[\d.]+)" endbalance="(?P<e>[\d.]+)"', seat, text
    )
    return re.sub(r'<Game id="\d+" date="[^"]+"', f'<Game id="{hand_id}" date="{date}"', text)


def test_microgaming_hands_far_apart_are_not_chained(tmp_path: Path) -> None:
    # Microgaming prints its times without a zone (assumed UTC): two hands of one table 39 minutes
    # apart are a gap (T001), and the stack that shrank between them is not judged (no T002)
    one = (ROOT / "fixtures" / "exports" / "microgaming" / "cash_nlhe_posted_to_play_dead_sb_2011.txt").read_text(
        "utf-8"
    )
    path = tmp_path / "session.txt"
    path.write_text(one + "\n" + _next_hand(one, "4160087999", "2011-11-08 00:58:50", "player2") + "\n", "utf-8")
    rows = rows_of(path)
    assert all(r["start_utc"] is not None for r in rows)
    assert [(f.code, f.data["reason"]) for f in t_findings(rows)] == [("T001", "time")]
    # the same two hands one minute apart: the shrunk stack is judged (and the button, not moved)
    path.write_text(one + "\n" + _next_hand(one, "4160087999", "2011-11-08 00:20:50", "player2") + "\n", "utf-8")
    assert [
        (f.code, f.data.get("player"), f.data.get("amount"), f.data["reason"]) for f in t_findings(rows_of(path))
    ] == [
        ("T005", None, None, "stayed"),
        ("T002", "player2", -100, "stack"),
    ]


def _tournament_pair() -> list[dict[str, Any]]:
    """Two consecutive heads-up tournament hands (Merge, 2012) that chain cleanly."""
    rows = rows_of(ROOT / "fixtures" / "exports" / "merge" / "tournament_v1_chopped_pot_2012.txt")
    assert [f.code for f in t_findings(rows)] == []
    return rows


def test_tournament_player_on_another_seat_was_moved_and_is_not_compared() -> None:
    # a tournament seats its players: a player on another seat was moved to another table (iPoker's
    # session follows the hero across tables), and the first hand there may print the stack after
    # the ante: T001 "moved", not T003
    rows = copy.deepcopy(_tournament_pair())
    hero = next(s for s in rows[1]["seats"] if s["player"] == "Hero")
    hero["seat"], hero["stack"] = 5, hero["stack"] - 24000
    found = [(f.code, f.data["reason"], f.data.get("player")) for f in t_findings(rows)]
    assert found == [("T001", "moved", "Hero")]
    # on the same seat the missing chips are judged
    same = copy.deepcopy(_tournament_pair())
    next(s for s in same[1]["seats"] if s["player"] == "Hero")["stack"] -= 24000
    assert [(f.code, f.data["amount"]) for f in t_findings(same)] == [("T003", -24000)]


def test_chips_bought_in_a_rebuy_tournament_are_not_judged() -> None:
    # a tournament that sells chips between hands (iPoker "$3,500 GP R/A": an add-on of 1,500 the
    # export prints only in the next stack): growth is a rebuy or add-on (T001), never T003
    rows = copy.deepcopy(_tournament_pair())
    next(s for s in rows[1]["seats"] if s["player"] == "Hero")["stack"] += 150000
    assert [f.code for f in t_findings(rows)] == ["T003"]
    for r in rows:
        r["top_ups"] = True  # the hand's record says the tournament has rebuys or add-ons
    assert [(f.code, f.data["reason"]) for f in t_findings(rows)] == [("T001", "rebuy")]
    # chips that vanish are still judged
    gone = copy.deepcopy(_tournament_pair())
    for r in gone:
        r["top_ups"] = True
    next(s for s in gone[1]["seats"] if s["player"] == "Hero")["stack"] -= 24000
    assert [f.code for f in t_findings(gone)] == ["T003"]


def test_hands_each_alone_in_their_file_are_not_chained(tmp_path: Path) -> None:
    # two files of one hand each (test samples, a disputed hand saved alone): picked one by one,
    # so hands of the table may lie between them: a gap (T001 "picked"), the stack and button are
    # not judged; the same two hands in one file are judged (see the Microgaming test above)
    one = (ROOT / "fixtures" / "exports" / "microgaming" / "cash_nlhe_posted_to_play_dead_sb_2011.txt").read_text(
        "utf-8"
    )
    two = _next_hand(one, "4160087999", "2011-11-08 00:20:50", "player2")
    (tmp_path / "a.txt").write_text(one + "\n", "utf-8")
    (tmp_path / "b.txt").write_text(two + "\n", "utf-8")
    rows = rows_of(tmp_path / "a.txt", tmp_path / "b.txt")
    assert [(f.code, f.data["reason"]) for f in t_findings(rows)] == [("T001", "single")]
    # a file of one hand after a file of several is chained (a session split across files)
    mid = _next_hand(one, "4160087800", "2011-11-08 00:20:10", "")
    (tmp_path / "a.txt").write_text(one + "\n" + mid + "\n", "utf-8")
    (tmp_path / "b.txt").write_text(_next_hand(mid, "4160087999", "2011-11-08 00:20:50", "player2") + "\n", "utf-8")
    found = [
        (f.code, f.hand_id, f.data.get("amount")) for f in t_findings(rows_of(tmp_path / "a.txt", tmp_path / "b.txt"))
    ]
    assert ("T002", "4160087999", -100) in found
