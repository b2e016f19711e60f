"""The tables of `hhaudit parse`: documented schema, keys, UTC times, and a join of two outputs."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from auditor.cli import main
from auditor.tables import SCHEMAS, dtype_name, read_tables
from auditor.times import ASSUMED, ZONES, utc_of
from tests.conftest import FIXTURES, ROOT

DOC = ROOT / "docs" / "schema.md"


def documented() -> dict[str, list[tuple[str, str]]]:
    """(column, type) of every table of docs/schema.md, in order."""
    out: dict[str, list[tuple[str, str]]] = {}
    table = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            table = line[3:].strip()
        m = re.match(r"\| `(\w+)` \| ([^|]+) \|", line)
        if m and table in SCHEMAS:
            out.setdefault(table, []).append((m.group(1), m.group(2).strip()))
    return out


@pytest.fixture(scope="module")
def two_nights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("nights")
    sites = FIXTURES / "sites"
    both = str(sites / "pokerstars" / "cash_nlhe_basic.txt")
    assert main(["parse", str(sites / "pokerstars"), "--out", str(d / "night1"), "-q"]) == 0
    assert main(["parse", str(sites / "ggpoker"), str(sites / "winamax"), both, "--out", str(d / "night2"), "-q"]) == 0
    return d


def test_docs_list_every_column_with_its_type(two_nights: Path) -> None:
    doc = documented()
    assert set(doc) == {"hands", "seats", "events"}
    for name, df in read_tables(str(two_nights / "night1")).items():
        assert [(c, dtype_name(t)) for c, t in df.schema.items()] == doc[name], name
        assert [(c, dtype_name(t)) for c, t in SCHEMAS[name].items()] == doc[name], name


def test_every_table_has_site_and_a_unique_hand_key(two_nights: Path) -> None:
    t = read_tables(str(two_nights / "night2"))
    hands = t["hands"]
    assert hands["hand_key"].n_unique() == hands.height
    assert set(hands["site"].cast(pl.String)) == {"pokerstars", "ggpoker", "winamax"}
    for name in ("seats", "events"):
        df = t[name]
        assert df["site"].null_count() == 0
        joined = df.join(hands.select("hand_key", "hand_id", site_h="site"), on="hand_key", how="left")
        assert joined["site_h"].null_count() == 0
        assert (joined["hand_id"] == joined["hand_id_right"]).all()
        assert (joined["site"] == joined["site_h"]).all()


def test_duplicate_hand_ids_get_distinct_keys(tmp_path: Path) -> None:
    src = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text()
    f = tmp_path / "dup.txt"
    f.write_text(src + "\n\n\n" + src)
    assert main(["parse", str(f), "--out", str(tmp_path / "o"), "-q"]) == 0
    hands = read_tables(str(tmp_path / "o"))["hands"]
    assert hands.height == 2 and hands["hand_id"].n_unique() == 1 and hands["hand_key"].n_unique() == 2


def test_start_utc_is_a_timestamp(two_nights: Path) -> None:
    hands = read_tables(str(two_nights / "night2"))["hands"]
    assert hands.schema["start_utc"] == pl.Datetime("us", "UTC")
    gg = hands.filter(pl.col("site") == "ggpoker")
    assert gg["zone_assumed"].all() and set(gg["zone"]) == {ASSUMED["ggpoker"]}
    assert hands["start_utc"].null_count() == 0


def test_the_documented_join_of_two_nights_runs(two_nights: Path) -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert code, "docs/schema.md has a polars example"
    ns: dict[str, object] = {}
    cwd = os.getcwd()
    os.chdir(two_nights)
    try:
        exec(code.group(1), ns)
    finally:
        os.chdir(cwd)
    per_player = ns["per_player"]
    again = ns["again"]
    assert isinstance(per_player, pl.DataFrame) and isinstance(again, pl.DataFrame)
    assert set(per_player["night"]) == {"night1", "night2"}
    assert again.height == 1 and again["hand_id"][0] == "250000000001"


@pytest.mark.parametrize(
    ("site", "date", "tz", "date2", "utc", "zone", "assumed"),
    [
        (
            "pokerstars",
            "2025/08/02 11:24:53",
            "CET",
            "2025/08/02 5:24:53 ET",
            "2025-08-02 09:24:53",
            "Europe/Paris",
            False,
        ),
        ("pokerstars", "2025/01/02 11:24:53", "CET", None, "2025-01-02 10:24:53", "Europe/Paris", False),
        ("pokerstars", "2005/05/11 1:29:15", "ET", None, "2005-05-11 05:29:15", "America/New_York", False),
        ("pokerstars", "2009/01/02 - 11:24:53", "ET", None, "2009-01-02 16:24:53", "America/New_York", False),
        (
            "pokerstars",
            "2025/08/02 11:24:53",
            "CUST",
            "2025/08/02 5:24:53 ET",
            "2025-08-02 09:24:53",
            "America/New_York",
            False,
        ),
        ("pokerstars", "2020/06/01 12:00:00", "MSK", None, "2020-06-01 09:00:00", "Europe/Moscow", False),
        ("pokerstars", "2020/06/01 12:00:00", "IST", None, "2020-06-01 06:30:00", "Asia/Kolkata", False),
        ("pokerstars", "2020/06/01 12:00:00", "AEST", None, "2020-06-01 02:00:00", "Australia/Sydney", False),
        ("winamax", "2024/03/01 20:15:00", "UTC", None, "2024-03-01 20:15:00", "UTC", False),
        ("ggpoker", "2025/08/21 14:52:36", None, None, "2025-08-21 14:52:36", "UTC", True),
        ("pokerstars", "2010/01/01 10:00:00", None, None, "2010-01-01 15:00:00", "America/New_York", True),
    ],
)
def test_utc_of(site: str, date: str, tz: str | None, date2: str | None, utc: str, zone: str, assumed: bool) -> None:
    got = utc_of(site, date, tz, date2)
    assert got == (datetime.fromisoformat(utc).replace(tzinfo=UTC), zone, assumed)


def test_utc_of_unreadable() -> None:
    assert utc_of("pokerstars", None, "ET") == (None, None, False)
    assert utc_of("pokerstars", "yesterday", "ET") == (None, None, False)
    assert utc_of("pokerstars", "2020/06/01 12:00:00", "XYZ") == (None, None, False)
    assert utc_of("unknown-site", "2020/06/01 12:00:00", None) == (None, None, False)
    assert all("/" in z or z == "UTC" for z in ZONES.values())


@pytest.mark.corpus
def test_two_printed_dates_give_the_same_utc_on_the_corpus() -> None:
    """PokerStars headers with a local and an ET date: both read to the same instant (98 %+; the
    rest are hand-edited samples of the corpus)."""
    from auditor.pipeline import Summary, iter_parsed
    from auditor.times import _local
    from tests.conftest import corpus_dir

    both = agree = 0
    for h, _fs in iter_parsed([str(corpus_dir("pokerstars"))], Summary(), rules=None):
        if h is None or not h.extras.get("date2"):
            continue
        one = utc_of(h.site, h.start_time, h.time_zone)[0]
        local = _local(h.extras["date2"])
        assert local is not None and local[1] is not None
        two = utc_of(h.site, h.extras["date2"], local[1])[0]
        both += 1
        agree += one == two
    assert both > 100 and agree / both >= 0.98, (agree, both)
