"""``hhaudit serve --store``: the store report's night-by-night matrices on the overview (per code,
per site, and each flagged table's timeline), the findings list filtered by table, and search
finding hands that have no finding (the store's ``hands`` table records every parsed hand)."""

from __future__ import annotations

import html
import io
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from starlette.testclient import TestClient

from auditor.batch.runner import Options, run_batch
from auditor.serve.app import Config, create_app
from auditor.serve.browse import TREND_NIGHTS, Filters, Store
from tests.conftest import FIXTURES

NIGHTS = ["2026-11-27", "2026-11-28", "2026-11-29"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three nights; each audits new copies of the samples, and the last one B001's bad hand too."""
    root = tmp_path_factory.mktemp("nights")
    st = root / "store"
    for night in NIGHTS:
        src = root / "src" / night
        shutil.copytree(FIXTURES / "samples", src / "samples")
        if night == NIGHTS[-1]:
            shutil.copytree(FIXTURES / "rules" / "B001", src / "B001")
        code = run_batch(Options(sources=[str(src)], store=str(st), night=night, progress="log"), io.StringIO(),
                         io.StringIO())  # fmt: skip
        assert code in (0, 1)
    return st


def client(store: Path) -> TestClient:
    return TestClient(create_app(Config(store=str(store))), base_url="http://127.0.0.1")


def test_overview_has_the_nights_matrices(store: Path) -> None:
    o = Store(str(store)).overview()
    assert o.by_code is not None and o.by_site is not None and o.tables is not None
    assert o.by_code.columns == NIGHTS and o.trend_note == "every night (3)"
    b001 = next(r for r in o.by_code.rows if r.label == "B001")
    # the disputed reraise each night, and B001's bad hand on the last night
    assert b001.cells == ["1", "1", "2"] and b001.total == "4"
    izar = next(r for r in o.tables.rows if r.label == "Izar III")
    assert izar.note == "pokerstars" and izar.cells == ["1", "1", "1"]
    assert izar.href == "/store/findings?site=pokerstars&table=Izar%20III"
    assert len(NIGHTS) <= TREND_NIGHTS


def test_overview_page_links_each_row_to_its_findings(store: Path) -> None:
    c = client(store)
    r = c.get("/store")
    assert r.status_code == 200
    for tid in ("trend-codes", "trend-sites", "trend-tables"):
        assert f'id="{tid}"' in r.text
    hrefs = [html.unescape(h) for h in re.findall(r'href="(/store/findings\?[^"]*table=[^"]*)"', r.text)]
    assert "/store/findings?site=pokerstars&table=Izar%20III" in hrefs
    page = c.get("/store/findings?site=pokerstars&table=Izar%20III")
    assert page.status_code == 200 and "3 finding(s) where" in page.text and "Izar III" in page.text


def test_findings_filtered_by_table(store: Path) -> None:
    st = Store(str(store))
    rows, total = st.findings(Filters(table="Izar III"))
    assert total == 3 and {r["hand_id"] for r in rows} == {"250000000101"}
    assert st.findings(Filters(table="No Such Table"))[1] == 0


def test_search_finds_hands_without_findings(store: Path) -> None:
    st = Store(str(store))
    rows, what = st.search("250000000104")  # Andromeda IV: a clean hand of the mixed export
    assert what == "hand id" and len(rows) == len(NIGHTS)
    assert all(r["findings"] == 0 and not r["worst"] for r in rows)
    rows, what = st.search("alice")
    assert what == "player" and {r["hand_id"] for r in rows} == {"250000000104"}
    r = client(store).get(f"/store/hand/{rows[0]['file_key']}/{rows[0]['hand_no']}")
    assert r.status_code == 200 and "No finding: the site" in r.text
    # the report's hand page, in serve: the header leads to serve's start page, not a report index
    assert '<a href="/">hhaudit serve</a>' in r.text and "report index" not in r.text


def test_a_file_in_several_parts(tmp_path: Path) -> None:
    """A file whose hands the batch wrote as several parts (--batch-size 1): search by file and by
    code, and a hand's page, read exactly that file's parts, the last one too."""
    src = tmp_path / "src"
    shutil.copytree(FIXTURES / "samples", src / "samples")
    st = tmp_path / "store"
    code = run_batch(Options(sources=[str(src)], store=str(st), night=NIGHTS[0], progress="log", batch_size=1),
                     io.StringIO(), io.StringIO())  # fmt: skip
    assert code in (0, 1)
    store = Store(str(st))
    parts = store.manifest().filter(pl.col("path").str.ends_with("mixed_export.txt"))["hand_parts"].item()
    assert parts >= 3
    rows, what = store.search("mixed_export")
    assert what == "file" and [r["hand_id"] for r in rows] == ["250000000104", "250000000102", "250000000103"]
    last = rows[-1]  # in the file's last part
    rec = store.hand(last["file_key"], last["hand_no"])
    assert rec is not None and rec.hand is not None and rec.hand["hand_id"] == "250000000103"
    rows, what = store.search("B001")
    assert what == "code" and [r["hand_id"] for r in rows] == ["250000000101"]
    assert store.hand(last["file_key"], 99) is None
