"""The static report's plumbing (issue 14): sizes, relative paths, atomic replacement of the output
folder, the folded cascade and the split label, and the store report's per-night bar."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from auditor.report.views import _size, common_base, relative
from tests.conftest import FIXTURES


def hhaudit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "auditor.cli", *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize(("n", "text"), [(0, "0 B"), (1023, "1,023 B"), (1024, "1.0 KB"), (1536, "1.5 KB"),
                                         (5 * 1024 * 1024, "5.0 MB"), (-1, "stdin")])  # fmt: skip
def test_sizes_are_not_rounded_to_zero(n: int, text: str) -> None:
    assert _size(n) == text


def test_paths_are_relative_to_the_common_input_folder(tmp_path: Path) -> None:
    (tmp_path / "a" / "x").mkdir(parents=True)
    (tmp_path / "a" / "y.txt").write_text("")
    base = common_base([str(tmp_path / "a" / "x"), str(tmp_path / "a" / "y.txt")])
    assert base == str(tmp_path / "a")
    assert relative(str(tmp_path / "a" / "x" / "h.txt"), base) == "x/h.txt"
    assert relative("/elsewhere/h.txt", base) == "/elsewhere/h.txt"
    assert common_base(["-"]) == ""


def test_output_folder_is_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert hhaudit("audit", str(FIXTURES / "samples"), "--html", str(out), "--fail-on", "none", "-q").returncode == 0
    stale = out / "hands" / "999.html"
    stale.write_text("from an earlier run")
    assert hhaudit("audit", str(FIXTURES / "samples" / "disputed_reraise.txt"), "--html", str(out),
                   "--fail-on", "none", "-q").returncode == 0  # fmt: skip
    assert not stale.exists() and (out / "index.html").is_file() and (out / ".hhaudit-report").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # no staging or old folder left


def test_a_folder_that_is_not_a_report_is_not_replaced(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious")
    r = hhaudit("audit", str(FIXTURES / "samples"), "--html", str(out), "--fail-on", "none", "-q")
    assert r.returncode == 2 and "holds no hhaudit report" in r.stderr and "Traceback" not in r.stderr
    assert (out / "notes.txt").read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_store_night_bar_is_scaled_by_findings_per_1000_hands(tmp_path: Path) -> None:
    from auditor.batch.report import build_view
    from tests.test_batch import B001, NIGHT2, batch, make_inputs, write_file

    src = tmp_path / "in"
    make_inputs(src, files=2)  # night 1: 7 hands, 1 finding; night 2: 2 hands, 2 findings
    write_file(src / "night1.txt", [800_000_000_000], B001)
    batch([src], tmp_path / "store", fail_on=None)
    write_file(src / "night2.txt", [800_000_000_001, 800_000_000_002], B001)
    batch([src], tmp_path / "store", fail_on=None, night=NIGHT2)
    rows = {r.night: r for r in build_view(str(tmp_path / "store")).nights}
    n1, n2 = (rows[k] for k in sorted(rows))
    assert (n1.per_1000, n2.per_1000) == ("142.9", "1,000.0")
    assert (n1.bar_pct, n2.bar_pct) == (14, 100)  # by rate (by absolute findings it was 50 and 100)


def test_gg_printed_hand_names_and_split_labels(tmp_path: Path) -> None:
    from auditor import model as M
    from auditor.explain import _why, explain_hand
    from auditor.pipeline import Summary, iter_parsed
    from auditor.replay.pots import Award

    got: list[object] = []
    # the show lines without their names: the summary's ("... and won ($16.39) with a flush, King high") are shown
    text = (FIXTURES / "sites" / "ggpoker" / "allin_insurance.txt").read_text("utf-8")
    src = tmp_path / "gg.txt"
    src.write_text(text.replace("] (King high)", "]").replace("] (three of a kind, Jacks)", "]"), "utf-8")
    list(iter_parsed([str(src)], Summary(),
                     on_hand=lambda r: got.append(r.audited)))  # fmt: skip
    shows = {s.player: s.printed for a in got if a is not None for s in explain_hand(a).shows}  # type: ignore[arg-type]
    assert shows["Hero"] == "a flush, King high"
    assert shows["b9c3d7e1"] == "three of a kind, Jacks"  # ", AII Payout ($15.02)" is not part of the name
    h = next(a for a in got if a is not None).hand  # type: ignore[union-attr]
    even = Award("main", 1, "all", 200, ("a", "b"), (("a", 100), ("b", 100)), "best hand")
    odd = Award("main", 1, "all", 201, ("a", "b"), (("a", 101), ("b", 100)), "best hand")
    assert _why(h, even) == "split 2 ways, best hand tied; no odd chip"
    assert _why(h, odd) == "split 2 ways, best hand tied; odd chip to a, first clockwise from the button"
    assert isinstance(h, M.Hand)
