"""Issue 11, output and store side: reproductions of the fuzzing campaign that concern what
hhaudit writes (HTML reports, tables, the audit store) when the input or the destination is hostile."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from auditor.batch import store as S
from auditor.report.views import Collector
from tests.conftest import FIXTURES
from tests.test_hostile_input import BAD_NAME, HAND, cli

FINDING = HAND.replace("dave: checks", "dave: winks")  # a P002 warning: the hand gets a page
BIG_SEAT = HAND.replace("Seat #2 is the button", "Seat #40000 is the button")
BIG_AMOUNT = HAND.replace("Seat 1: alice ($10 in chips)", "Seat 1: alice ($100000000000000000000 in chips)")


def test_html_does_not_follow_a_link_planted_at_a_temporary_name(tmp_path: Path) -> None:
    src, out, victim = tmp_path / "h.txt", tmp_path / "html", tmp_path / "victim.txt"
    src.write_text(FINDING)
    victim.write_text("precious")
    out.mkdir()
    for name in ("index.html.tmp", ".index.html.tmp"):
        (out / name).symlink_to(victim)
    (out / "index.html").symlink_to(victim)
    code, _o, err = cli("audit", str(src), "--html", str(out), "--fail-on", "none")
    assert code == 0, err
    assert victim.read_text() == "precious"
    assert not (out / "index.html").is_symlink()
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


def test_html_with_a_linked_subfolder_is_refused(tmp_path: Path) -> None:
    src, out, elsewhere = tmp_path / "h.txt", tmp_path / "html", tmp_path / "elsewhere"
    src.write_text(FINDING)
    out.mkdir()
    elsewhere.mkdir()
    (out / "hands").symlink_to(elsewhere)
    code, _o, err = cli("audit", str(src), "--html", str(out), "--fail-on", "none")
    assert code == 2 and "Traceback" not in err
    assert list(elsewhere.iterdir()) == []


def test_unwritable_outputs_exit_2_and_leave_nothing(tmp_path: Path) -> None:
    src = tmp_path / "h.txt"
    src.write_text(FINDING)
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert cli("audit", str(src), "--html", str(afile))[0] == 2
    adir = tmp_path / "adir"
    adir.mkdir()
    code, _o, err = cli("explain", str(src), "--hand", "250000000001", "--html", str(adir))
    assert code == 2 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir", "afile", "h.txt"]
    assert cli("parse", str(src), "--out", str(afile))[0] == 2


def test_explain_matches_the_whole_hand_id(tmp_path: Path) -> None:
    src = tmp_path / "h.txt"
    src.write_text(HAND.replace("#250000000001", "#5551"))
    code, _o, err = cli("explain", str(src), "--hand", "555")
    assert code == 2 and "no hand 555" in err
    assert cli("explain", str(src), "--hand", "5551")[0] == 0


@pytest.mark.parametrize("text", [BIG_SEAT, BIG_AMOUNT], ids=["seat-40000", "amount-2^63"])
def test_parse_writes_values_beyond_the_column_types(tmp_path: Path, text: str) -> None:
    src = tmp_path / "h.txt"
    src.write_text(HAND + text + "\n\n" + HAND.replace("250000000001", "250000000002"))
    code, _o, err = cli("parse", str(src), "--out", str(tmp_path / "t"))
    assert code == 0, err
    from auditor.tables import read_tables

    assert len(read_tables(str(tmp_path / "t"))["hands"]) == 3


def test_batch_keeps_the_good_hands_of_a_file_with_a_hostile_value(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    good = [HAND.replace("250000000001", f"2500000{i:05d}") for i in range(20)]
    (src / "a.txt").write_text("".join(good[:10]) + BIG_SEAT + "\n\n" + BIG_AMOUNT.replace("01", "99") + "\n\n"
                               + "".join(good[10:]))  # fmt: skip
    (src / BAD_NAME).write_text(HAND)
    store = str(tmp_path / "store")
    for _night in range(2):
        code, _o, err = cli("batch", str(src), "--store", store, "-q", "--fail-on", "none")
        assert code == 0, err
    assert len(S.scan(store, "hands").collect()) == 23
    paths = S.scan(store, "files").collect()["path"].to_list()
    assert any("\\xff\\xfe.txt" in p for p in paths)


def test_batch_skips_a_fifo_and_a_link_to_dev_zero(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(HAND)
    os.mkfifo(src / "fifo.txt")
    (src / "zero.txt").symlink_to("/dev/zero")
    store = str(tmp_path / "store")
    done: list[tuple[int, str, str]] = []
    t = threading.Thread(target=lambda: done.append(cli("batch", str(src), "--store", store, "-q")), daemon=True)
    t.start()
    t.join(60)
    assert done, "batch blocked on a FIFO or /dev/zero"
    assert done[0][0] == 0, done[0][2]
    runs = S.scan(store, "runs").collect()
    assert any("fifo.txt" in m for m in runs["errors"][0])


def test_report_top_must_be_positive(tmp_path: Path) -> None:
    src = tmp_path / "h.txt"
    src.write_text(HAND)
    store = str(tmp_path / "store")
    assert cli("batch", str(src), "--store", store, "-q")[0] == 0
    code, _o, err = cli("report", "--store", store, "--html", str(tmp_path / "r"), "--top", "-5")
    assert code == 2 and "--top" in err


def test_the_html_collector_keeps_no_hand_text_in_memory(tmp_path: Path) -> None:
    """Each hand's page is written when the hand is audited; the collector keeps only findings, and
    those on disk past ``run_rows`` of them (issue 16: sorted runs, only their counts in memory)."""
    from auditor.pipeline import Summary, iter_parsed

    src = tmp_path / "h.txt"
    src.write_text(FINDING * 3)
    col = Collector(str(tmp_path / "report"), run_rows=2)
    for _ in iter_parsed([str(src)], Summary(), on_hand=col.on_hand):
        pass
    assert col.pages == 3 and col.spill.rows == col.tally.total >= 3
    rows = col.spill.rows  # written two at a time, the rest held
    assert len(col.spill.runs) == rows // 2 and len(col.spill.held) == rows % 2
    assert not any(isinstance(x, (str, tuple)) and "PokerStars Hand" in str(x) for x in vars(col).values())
    pages = sorted(col.hands_dir.glob("*.html"))  # the staging folder: write_report swaps it in
    assert [p.name for p in pages] == ["1.html", "2.html", "3.html"]
    assert all("PokerStars Hand #2500000000" in p.read_text("utf-8") for p in pages)
    col.close()


@pytest.mark.parametrize("content", ["[1,2,3]", '"abc"', "[" * 50_000 + "]" * 50_000, '{"findings": 5}',
                                     '[{"code": 1}]', "not json\n{]"])  # fmt: skip
def test_a_baseline_of_the_wrong_shape_is_a_usage_error(tmp_path: Path, content: str) -> None:
    bl = tmp_path / "baseline.json"
    bl.write_text(content)
    code, _out, err = cli("audit", str(FIXTURES / "samples" / "disputed_reraise.txt"), "--baseline", str(bl))
    assert code == 2 and "cannot read baseline" in err and "Traceback" not in err
