"""Table timelines (``auditor.batch.timeline``): a table's hands in order with each seat's stack and
the T-codes marked, in the store report (``tables/<key>.html``, linked from "Table timelines") and in
``hhaudit serve`` (``/store/table``).

* a ratholing session stored over two nights: six hands in order, the T002 hand marked, its player
  named, the changed seat marked;
* the store report writes one page per listed table and links it; serve answers the same view (and
  404 for a table the store does not hold);
* a real corpus session stored as is: every hand in the table's order, with its stacks.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from auditor.batch.report import write_store_report
from auditor.batch.runner import Options, run_batch
from auditor.batch.timeline import table_key, table_timeline
from auditor.serve.app import Config, create_app
from tests.conftest import CORPUS, ROOT

FIX = ROOT / "fixtures" / "continuity"


def two_night_store(root: Path) -> Path:
    """T002's bad session split over two nights (the ratholing between them), and T007's two tables."""
    text = (FIX / "T002" / "bad.txt").read_text("utf-8").split("\n\n\n\n")
    n1, n2 = root / "n1", root / "n2"
    n1.mkdir()
    n2.mkdir()
    (n1 / "altair-1.txt").write_text("\n\n\n\n".join(text[:2]) + "\n", "utf-8")
    (n2 / "altair-2.txt").write_text("\n\n\n\n".join(text[2:]) + "\n", "utf-8")
    (n2 / "two-tables.txt").write_text((FIX / "T007" / "bad.txt").read_text("utf-8"), "utf-8")
    store = root / "store"
    for night, src in (("2026-11-01", n1), ("2026-11-02", n2)):
        run_batch(Options([str(src)], str(store), night=night, progress="none"), io.StringIO(), io.StringIO())
    return store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_night_store(tmp_path_factory.mktemp("timeline"))


def test_a_tables_hands_in_order_with_stacks_and_the_finding_marked(store: Path) -> None:
    tl = table_timeline(str(store), "pokerstars", "Altair", None)
    assert tl is not None and tl.total == 6 and tl.codes == "T002 1"
    assert [h.hand_id for h in tl.hands] == [f"26000000000{i}" for i in range(1, 7)]
    assert [h.night for h in tl.hands] == ["2026-11-01"] * 2 + ["2026-11-02"] * 4
    flagged = [h for h in tl.hands if h.marks]
    assert [(h.hand_id, [m.code for m in h.marks]) for h in flagged] == [("260000000003", ["T002"])]
    cy = next(s for s in flagged[0].seats if s.player == "Cy")
    assert cy.named and cy.changed and cy.stack == "50.00"
    assert all(not s.changed for h in tl.hands if h is not flagged[0] for s in h.seats)
    assert [s.player for s in tl.hands[0].seats] == ["Ann", "Bob", "Cy", "Dan"]
    assert tl.hands[0].seats[1].stack == "100.00" and tl.hands[0].seats[1].final == "99.50"
    assert table_timeline(str(store), "pokerstars", "Altair", None, limit=2).hands[-1].hand_id == "260000000002"  # type: ignore[union-attr]
    assert table_timeline(str(store), "pokerstars", "Nowhere", None) is None


def test_tournament_table_timeline(store: Path) -> None:
    tl = table_timeline(str(store), "pokerstars", "999000222 2", "999000222")
    assert tl is not None and tl.total == 8 and tl.codes == "T007 1"
    assert [m.code for h in tl.hands for m in h.marks] == ["T007"]
    assert table_timeline(str(store), "pokerstars", "999000222 2", "another") is None


def test_store_report_writes_and_links_each_tables_timeline(store: Path, tmp_path: Path) -> None:
    index = Path(write_store_report(str(store), str(tmp_path / "report")))
    html = index.read_text("utf-8")
    key = table_key("pokerstars", "Altair", None)
    assert f'href="tables/{key}.html"' in html
    page = (tmp_path / "report" / "tables" / f"{key}.html").read_text("utf-8")
    assert page.count('class="tl-hand') == 6 and "T002" in page and 'href="../static/report.css"' in page
    assert page.count("tl-named") >= 1


def test_serve_shows_the_timeline(store: Path) -> None:
    client = TestClient(create_app(Config(store=str(store))), base_url="http://127.0.0.1")
    home = client.get("/store")
    assert home.status_code == 200 and "/store/table?site=pokerstars&amp;table=Altair" in home.text
    r = client.get("/store/table", params={"site": "pokerstars", "table": "Altair"})
    assert r.status_code == 200
    assert r.text.count('class="tl-hand') == 6 and 'href="/rules/T002.html"' in r.text
    assert "/store/hand/" in r.text
    r = client.get("/store/table", params={"site": "pokerstars", "table": "999000222 1", "tournament": "999000222"})
    assert r.status_code == 200 and r.text.count('class="tl-hand') == 8
    assert client.get("/store/table", params={"site": "pokerstars", "table": "Nowhere"}).status_code == 404


@pytest.mark.corpus
def test_a_real_session_in_a_store(tmp_path: Path) -> None:
    path = CORPUS / "pokerstars" / "cash-flop" / "fpdb3" / "NLHE-6max-EUR-0.05-0.10-200911.txt"
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {path} (set HHAUDIT_CORPUS to its location)")
    store = tmp_path / "store"
    run_batch(Options([str(path)], str(store), night="2026-11-01", progress="none"), io.StringIO(), io.StringIO())
    tl = table_timeline(str(store), "pokerstars", "Lampland", None)
    assert tl is not None and tl.total == len(tl.hands) >= 60
    assert tl.codes == ""
    times = [h.time for h in tl.hands]
    assert times == sorted(times)
    assert all(h.seats and all(s.stack != "?" for s in h.seats) for h in tl.hands)
