"""Golden files of rendered report pages (times and the temporary paths scrubbed).  Regenerate
with ``pytest tests/test_report_golden.py --update-golden`` and review the diff like code."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES, ROOT

GOLDEN = ROOT / "tests" / "golden" / "report"
PAGES = ["index.html", "code-B001-1.html", "hands/1.html", "hands/2.html", "hands/3.html", "rules/B001.html",
         "rules/A004.html"]  # fmt: skip


def scrub(text: str, root: str) -> str:
    text = text.replace(root, "<SRC>")
    text = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC", "<TIME>", text)
    return re.sub(r"hhaudit \d+\.\d+\.\d+\S*", "hhaudit <VERSION>", text)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    src = tmp_path_factory.mktemp("golden-src")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    out = tmp_path_factory.mktemp("golden-out")
    text = tmp_path_factory.mktemp("golden-text") / "report.txt"  # not inside the report: it is replaced whole
    assert main(["audit", str(src), "--html", str(out), "--fail-on", "none", "-o", str(text)]) == 0
    return out, str(src)


@pytest.mark.parametrize("name", PAGES)
def test_page_matches_golden(rendered: tuple[Path, str], name: str, update_golden: bool) -> None:
    out, src = rendered
    got = scrub((out / name).read_text("utf-8"), src)
    golden = GOLDEN / name
    if update_golden or not golden.exists():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got, "utf-8")
        if not update_golden:
            pytest.fail(f"golden page {name} was missing and has been written; review and commit it")
    assert got == golden.read_text("utf-8")
