"""The HTML report in bounded memory (issue 16): the collector keeps the findings on disk in sorted
runs (``auditor.spillsort.RowSpill``) and the pages are written one at a time from their merge.
A report made with runs of a few findings is the report made with everything in memory, byte for
byte; every list page is linked, holds at most a page of rows, and the lists add up; a list of
thousands of pages gets a pager of a bounded number of links."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import auditor.report.views as V
from auditor.cli import main
from auditor.spillsort import RowSpill
from tests.conftest import FIXTURES
from tests.test_report_browser import browser  # noqa: F401  (the shared Chromium fixture)

SAMPLE = FIXTURES / "samples" / "disputed_reraise.txt"  # a B001 (and its consequences) in one hand
MIXED = FIXTURES / "samples" / "mixed_export.txt"


@settings(max_examples=100, deadline=None)
@given(
    keys=st.lists(st.tuples(st.sampled_from(["", "a", "b/é", "z"]), st.integers(0, 3)), max_size=80),
    run_rows=st.integers(1, 12),
    block_rows=st.integers(1, 5),
    fan_in=st.integers(2, 4),
)
def test_row_spill_sorts_stably_whatever_the_run_sizes(
    tmp_path_factory: pytest.TempPathFactory, keys: list[tuple[str, int]], run_rows: int, block_rows: int, fan_in: int
) -> None:
    tmp = tmp_path_factory.mktemp("spill") / "runs"
    spill = RowSpill(tmp, lambda r: r[:2], run_rows, block_rows, fan_in)
    rows = [(p, ln, i) for i, (p, ln) in enumerate(keys)]
    for r in rows:
        spill.add(r)
    assert len(spill.held) < run_rows and len(spill.runs) == len(rows) // run_rows
    assert sorted(spill.scan()) == sorted(rows)
    assert list(spill.sorted()) == sorted(rows, key=lambda r: r[:2])  # stable: equal keys in input order
    spill.close()
    assert not tmp.exists()


def test_the_pager_links_every_page_of_a_short_list_and_a_window_of_a_long_one() -> None:
    short = V.pager("code-B001", 3, 1)
    assert [(p.label, p.href) for p in short] == [("1", "code-B001-1.html"), ("2", None), ("3", "code-B001-3.html")]
    assert V.pager("findings", 2, 1)[0].href == "index.html"  # the first page of all findings is the index
    long = V.pager("findings", 2_000, 999)
    assert len(long) <= 2 * V.PAGER_NEAR + 7  # not 2,000 links on each of 2,000 pages
    hrefs = [p.href for p in long if p.href]
    assert hrefs[0] == "findings-999.html" and long[0].rel == "prev" and long[-1].rel == "next"
    assert "index.html" in hrefs and "findings-2000.html" in hrefs and "findings-1001.html" in hrefs
    assert [p.label for p in long if not p.href and not p.gap] == ["1,000"]  # the current page
    assert sum(p.gap for p in long) == 2
    first, last = V.pager("findings", 2_000, 0), V.pager("findings", 2_000, 1_999)
    assert first[0].label == "1" and first[0].href is None and last[-1].label == "2,000" and last[-1].href is None


def _inputs(d: Path, hands: int) -> Path:
    """``hands`` copies of the disputed hand with fresh ids in three files, and the mixed export."""
    d.mkdir()
    text = SAMPLE.read_text("utf-8").strip() + "\n\n\n"
    for part in range(3):
        with (d / f"part-{part}.txt").open("w", encoding="utf-8") as f:
            for i in range(part, hands, 3):
                f.write(text.replace("250000000101", str(710_000_000_000 + i)))
    (d / "mixed.txt").write_text(MIXED.read_text("utf-8"), "utf-8")
    return d


def _report(src: Path, out: Path) -> dict[str, str]:
    assert main(["audit", str(src), "--html", str(out), "--format", "json", "-o", str(out) + ".json", "--quiet",
                 "--fail-on", "none", "--no-progress"]) == 0  # fmt: skip
    when = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC")
    return {str(p.relative_to(out)): when.sub("<TIME>", p.read_text("utf-8")) for p in out.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _inputs(tmp_path_factory.mktemp("bounded") / "src", 60)


def test_a_report_spilled_to_disk_is_the_report_made_in_memory(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(V, "PAGE_SIZE", 7)
    monkeypatch.setattr(V, "RUN_ROWS", 10**9)
    held = _report(source, tmp_path / "held")
    monkeypatch.setattr(V, "RUN_ROWS", 5)
    spilled = _report(source, tmp_path / "spilled")
    assert sorted(held) == sorted(spilled) and len([n for n in held if n.startswith("code-")]) > 3
    assert [n for n in held if held[n] != spilled[n]] == []
    assert not any(".findings.tmp" in n or n.endswith(".tmp") for n in spilled)  # the runs are removed


def test_every_list_page_is_linked_full_and_in_order(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(V, "PAGE_SIZE", 3)
    monkeypatch.setattr(V, "RUN_ROWS", 11)
    monkeypatch.setattr(V, "PAGER_ALL", 4)
    monkeypatch.setattr(V, "PAGER_NEAR", 1)
    out = tmp_path / "r"
    pages = _report(source, out)
    total = len(json.loads((tmp_path / "r.json").read_text())["findings"])
    assert total > 3 * 4 * 3  # more than PAGER_ALL pages in the lists of each file
    row = re.compile(r'<tr data-code="([A-Z]\d{3})"')
    where = re.compile(r'<td class="code">([^<]*)</td>\n  <td class="wrap">')
    lists: dict[str, list[str]] = {}
    for name, text in pages.items():
        m = re.fullmatch(r"(index|findings|code-\w+|site-\w+|file-\d+|across)(?:-(\d+))?\.html", name)
        if not m:
            continue
        rows = row.findall(text)
        assert 0 < len(rows) <= 3, name
        pager = re.search(r'<p class="pager">(.*)</p>', text)
        links = re.findall(r'href="([^"]+)"', pager.group(1)) if pager else []
        assert len(links) <= 2 * 1 + 4, name  # prev, first, near, last, next
        assert all(link in pages for link in links), name
        key = "findings" if m.group(1) == "index" else m.group(1)
        number = 1 if m.group(1) == "index" else int(m.group(2))
        lists.setdefault(key, []).append(f"{number:06d}")
        if key == "findings":
            lists.setdefault("rows", []).extend(f"{number:06d} {i:03d} {w}" for i, w in enumerate(where.findall(text)))
    assert sorted(lists["findings"]) == [f"{i:06d}" for i in range(1, -(-total // 3) + 1)]
    assert len(lists["rows"]) == total
    shown = [r.split(" ", 2)[2] for r in sorted(lists["rows"])]  # page by page, row by row
    keys = [(w.rsplit(":", 2)[0], int(w.rsplit(":", 2)[1])) for w in shown]
    assert keys == sorted(keys)  # the report's order (path, line) across the pages
    for key, numbers in lists.items():
        if key != "rows":
            assert sorted(numbers) == [f"{i:06d}" for i in range(1, len(numbers) + 1)], key


def _search_rows(report: Path) -> list[list[str]]:
    main_js = (report / "search-index.js").read_text("ascii")
    index = json.loads(main_js.removeprefix("window.hhauditSearch = ").removesuffix(";\n"))
    rows: list[list[str]] = index["rows"]
    for name in index.get("parts", []):
        part = (report / name).read_text("ascii")
        rows += json.loads(part.removeprefix("window.hhauditSearchPart(").removesuffix(");\n"))
    return rows


def test_a_large_search_index_is_written_in_parts_with_the_same_entries(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    _report(source, whole)
    assert "parts" not in (whole / "search-index.js").read_text("ascii")
    monkeypatch.setattr(V, "SEARCH_PART", 25)
    parted = tmp_path / "parted"
    _report(source, parted)
    names = sorted(p.name for p in parted.glob("search-index-*.js"))
    assert names == ["search-index-1.js", "search-index-2.js", "search-index-3.js"]  # 62 entries, 25 a part
    assert '"rows": [], "parts": ["search-index-1.js"' in (parted / "search-index.js").read_text("ascii")
    assert _search_rows(parted) == _search_rows(whole) and len(_search_rows(whole)) == 62


def test_the_search_box_loads_the_parts_when_first_used(
    source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    browser,  # type: ignore[no-untyped-def]  # noqa: F811
) -> None:
    monkeypatch.setattr(V, "SEARCH_PART", 25)
    out = tmp_path / "r"
    _report(source, out)
    page = browser.new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url.rsplit("/", 1)[-1]))
    page.goto((out / "index.html").as_uri())
    assert page.locator("#q").is_visible()
    assert not [u for u in requested if u.startswith("search-index-")]  # the page opens without them
    page.locator("#q").fill("710000000059")  # the last hand: in the last part
    page.wait_for_function("document.getElementById('search-status').textContent.indexOf('match') >= 0")
    assert page.locator("#search-status").inner_text() == "1 finding match"
    assert "710000000059" in page.locator("#search-results li").first.inner_text()
    assert sorted(u for u in requested if u.startswith("search-index-")) == [f"search-index-{i}.js" for i in (1, 2, 3)]
    page.locator("#q").fill("B001")
    b001 = sum(r[3] == "B001" for r in _search_rows(out))
    assert page.locator("#search-status").inner_text() == f"{b001} findings match"
