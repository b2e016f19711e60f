"""The cross-hand stage on real sessions of the shared corpus (files of many consecutive hands of one
table, from several sites): each audits with no cross-hand finding but gaps, its chain is followed
(few gaps), and each fault injected between two of its hands is caught with the right code, naming
both hands:

* chips removed from a seated cash player between two hands: T002;
* tournament chips added between two hands: T003;
* the button skipping a player: T005;
* a tournament blind level lowered: T006;
* two different records under one hand id, in one audit (H001) and on two nights of a store (H001
  from the store's duplicate pass), naming the first record.

Sessions are read in place from the corpus; the tests skip, saying so, when it is absent.
"""

from __future__ import annotations

import copy
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from auditor.batch import store as S
from auditor.batch.runner import Options, run_batch
from auditor.pipeline import audit
from tests.conftest import CORPUS
from tests.test_continuity import _change_stack, _seated, rows_of, t_findings

pytestmark = pytest.mark.corpus

#: (site folder..., file, table): cash sessions.
CASH = [
    ("pokerstars/cash-flop/fpdb3/NLHE-6max-EUR-0.05-0.10-200911.txt", "Lampland"),
    ("pokerstars/cash-nlhe/pokerregion/HH20200417 Genoveva III - $0,01-$0,02 - USD No Limit Hold'em.txt",
     "Genoveva III"),
    ("winamax/cash-flop/fpdb3/PLO-FR-EUR-0.02-0.05-201009.Sample", "Petit-Bourg"),
    ("ggpoker/cash-flop/fpdb3/PLO-6max-USD-0.50-1.00-202004.txt", "PLOBronze12"),
    ("ipoker/cash-flop/fpdb3/NLHE-USD-0.02-0.04-201111.txt", "Pastel, 262225321"),
    ("entraction/unsupported-format/fpdb3/Table_35134072.txt", "Aburatsu"),
    ("fulltilt/cash-mix/fpdb3/10Game-6max-USD-2.50-5.201104.Sample.txt", "Jackrabbit"),
    ("pokertracker-converted/cash-flop/fpdb3/NLHE-USD-0.05-0.10-201110.iPoker.txt", "Goole"),
]  # fmt: skip
#: Tournament sessions.
TOURNEY = [
    ("pokerstars/tournament-flop/fpdb3/NLHE-USD-MTT-5r-200710.txt", "63858762 9"),
    ("pokerstars/tournament-flop/fpdb3/NLHE-USD-MTT-1-KO.201008.txt", "297808375 8"),
    ("ggpoker/tournament-flop/fpdb3/NLHE-8max-MTT-USD-250-202006.txt", "6"),
    ("fulltilt/tournament-flop/fpdb3/NLHE-6max-Matrix-USD-26-201211.match2.txt", "Match 2"),
    ("ongame/tournament/fpdb3/R-274-110.txt", "Table #45"),
    ("winamax/tournament-flop/fpdb3/NLHE-Free-MTT-201103.Full.History.txt", "Freeroll 100€(13133717)#118"),
    ("partypoker/tournament-flop/fpdb3/NLHE-4max-STT-USD-1-201607.second.trny.format.txt",
     "$1 Sit & Go Hero (128487129) Table #1"),
    ("pokertracker-converted/tournament-flop/fpdb3/LHE-EUR-SNG-201111.Everest.txt", "49630157-0"),
]  # fmt: skip


def _path(rel: str) -> Path:
    path = CORPUS / rel
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {path} (set HHAUDIT_CORPUS to its location)")
    return path


def _session(rel: str, table: str) -> list[dict[str, Any]]:
    rows = [r for r in rows_of(_path(rel)) if r["table"] == table]
    # in table order: by time (UTC, else the printed time of a site that prints no zone), then id
    rows.sort(key=lambda r: (r["start_utc"] or r["local_start"] or 0, r["hand_id"]))
    assert len(rows) >= 15
    return rows


def _quiet_pair(rows: list[dict[str, Any]]) -> int:
    """A hand k judged against hand k-1 (no finding on it) at which no stack changed between the two
    hands (a top-up elsewhere at the table would make a second change: a missing hand, T001)."""
    bad = {f.hand_id for f in t_findings(rows)}
    for k in range(len(rows) // 3, len(rows)):
        a, b = rows[k - 1], rows[k]
        if b["hand_id"] in bad or not (a["chips_ok"] and b["chips_ok"]):
            continue
        final = {s["player"]: s["final"] for s in a["seats"]}
        if all(final.get(s["player"], s["stack"]) == s["stack"] for s in b["seats"]):
            return k
    raise AssertionError("no quiet pair of hands")


def _named(found: list[Any]) -> list[tuple[str, str, str]]:
    return [(f.code, f.hand_id, f.data["previous_hand_id"]) for f in found if f.code != "T001"]


@pytest.mark.parametrize(("rel", "table"), CASH + TOURNEY)
def test_real_session_audits_clean_and_its_chain_is_followed(rel: str, table: str) -> None:
    rows = _session(rel, table)
    found = t_findings(rows)
    assert _named(found) == []
    gaps = [f for f in found if f.code == "T001"]
    assert len(gaps) * 5 <= len(rows), [f.message for f in gaps]


@pytest.mark.parametrize(("rel", "table"), CASH)
def test_chips_removed_from_a_seated_cash_player_are_caught(rel: str, table: str) -> None:
    rows = _session(rel, table)
    k = _quiet_pair(rows)
    who = _seated(rows, k)
    amount = -max(1, min(s["stack"] for s in rows[k]["seats"] if s["player"] == who) // 3)
    found = t_findings(_change_stack(rows, k, who, amount))
    assert _named(found) == [("T002", rows[k]["hand_id"], rows[k - 1]["hand_id"])]
    f = next(f for f in found if f.code == "T002")
    assert f.data["amount"] == amount and f.data["player"] == who


@pytest.mark.parametrize(("rel", "table"), TOURNEY)
def test_tournament_chips_added_are_caught(rel: str, table: str) -> None:
    rows = _session(rel, table)
    k = _quiet_pair(rows)
    who = _seated(rows, k)
    # less than the stack: a doubled short stack reads as an unprinted rebuy (T001), not judged
    amount = max(1, min(s["stack"] for s in rows[k]["seats"] if s["player"] == who) // 4)
    found = t_findings(_change_stack(rows, k, who, amount))
    assert _named(found) == [("T003", rows[k]["hand_id"], rows[k - 1]["hand_id"])]


@pytest.mark.parametrize(("rel", "table"), [s for s in CASH + TOURNEY if "10Game" not in s[0]])
def test_button_skipping_a_player_is_caught(rel: str, table: str) -> None:
    rows = _session(rel, table)
    base = t_findings(rows)
    bad = {f.hand_id for f in base}
    # a judged pair of hands with the same three or more players dealt in (the button's rule applies)
    for k in range(len(rows) // 3, len(rows) - 1):
        a, b = rows[k - 1], rows[k]
        dealt = sorted(s["seat"] for s in b["seats"] if s["active"])
        same = {(s["seat"], s["player"]) for s in a["seats"] if s["active"]} == {
            (s["seat"], s["player"]) for s in b["seats"] if s["active"]}  # fmt: skip
        if b["hand_id"] in bad or rows[k + 1]["hand_id"] in bad or not same or len(dealt) < 3:
            continue
        if b["button"] not in dealt or a["button"] not in dealt:
            continue
        nxt = dealt[(dealt.index(b["button"]) + 1) % len(dealt)]
        mutated = copy.deepcopy(rows)
        mutated[k]["button"] = nxt
        found = [f for f in t_findings(mutated) if f.code == "T005"]
        assert [(f.hand_id, f.data["previous_hand_id"], f.data["expected"], f.data["actual"]) for f in found][:1] == [
            (b["hand_id"], a["hand_id"], b["button"], nxt)
        ]
        return
    pytest.skip("no pair of hands with the same players dealt in")


@pytest.mark.parametrize(("rel", "table"), TOURNEY)
def test_a_lowered_blind_level_is_caught(rel: str, table: str) -> None:
    rows = _session(rel, table)
    bb = [r["big_blind"] for r in rows]
    ups = [i for i in range(1, len(rows) - 1) if None not in (bb[i], bb[i - 1]) and bb[i] > bb[i - 1]]
    if not ups:
        pytest.skip("the session plays one level")
    k = ups[0]
    mutated = copy.deepcopy(rows)
    mutated[k + 1].update(big_blind=rows[k - 1]["big_blind"], small_blind=rows[k - 1]["small_blind"],
                          ante=rows[k - 1]["ante"], level=rows[k - 1]["level"])  # fmt: skip
    found = [f for f in t_findings(mutated) if f.code in ("T006", "T007")]
    assert [(f.code, f.hand_id, f.data["previous_hand_id"]) for f in found] == [
        ("T006", rows[k + 1]["hand_id"], rows[k]["hand_id"])
    ]


# ---------------------------------------------------------------------------------- hand ids


def _hands(path: Path) -> list[str]:
    return [
        h for h in re.split(r"(?:\r?\n){2,}(?=PokerStars (?:Hand|Game) #)", path.read_text("utf-8-sig")) if h.strip()
    ]


def _other_record(hand: str) -> str:
    """The same hand id, another record: the header's time one second later."""

    def later(m: re.Match[str]) -> str:
        return f"{m.group(1)}{(int(m.group(2)) + 1) % 60:02d}"

    return re.sub(r"(\d{1,2}:\d{2}:)(\d{2})", later, hand, count=1)


def test_two_different_hands_under_one_id_name_each_other(tmp_path: Path) -> None:
    src = _path(CASH[0][0])
    hands = _hands(src)
    (tmp_path / "a.txt").write_text(src.read_text("utf-8-sig"), "utf-8")
    (tmp_path / "b.txt").write_text(_other_record(hands[5]) + "\n", "utf-8")
    _s, found = audit([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")])
    dup = [f for f in found if f.code == "H001"]
    assert len(dup) == 1
    f = dup[0]
    assert Path(f.path).name == "b.txt" and Path(f.data["first_path"]).name == "a.txt"
    assert f.hand_id == re.search(r"#(\d+)", hands[5]).group(1)  # type: ignore[union-attr]
    # the first record is named by its header line
    assert f"#{f.hand_id}:" in (tmp_path / "a.txt").read_text("utf-8").splitlines()[f.data["first_line"] - 1]


def test_a_hand_id_reused_on_another_night_is_found_from_the_store(tmp_path: Path) -> None:
    src = _path(CASH[0][0])
    hands = _hands(src)
    d1, d2 = tmp_path / "n1", tmp_path / "n2"
    d1.mkdir()
    d2.mkdir()
    shutil.copy(src, d1 / "night1.txt")
    (d2 / "night2.txt").write_text(_other_record(hands[7]) + "\n", "utf-8")
    store = tmp_path / "store"
    for night, folder in (("2026-11-01", d1), ("2026-11-02", d2)):
        run_batch(Options([str(folder)], str(store), night=night, progress="none"), io.StringIO(), io.StringIO())
    cross = S.scan(str(store), "crosshand").filter(pl.col("code") == "H001").collect()
    assert cross.height == 1
    row = cross.row(0, named=True)
    hid = re.search(r"#(\d+)", hands[7]).group(1)  # type: ignore[union-attr]
    assert row["hand_id"] == hid and Path(row["path"]).name == "night2.txt"
    data = json.loads(row["data"])
    assert Path(data["first_path"]).name == "night1.txt"
    assert f"#{hid}:" in (d1 / "night1.txt").read_text("utf-8-sig").splitlines()[data["first_line"] - 1]
    assert "already appeared at" in row["message"]
