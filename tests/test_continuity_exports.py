"""Cross-hand rules and how sites export hands: a dead button printed on the last live seat, and
exports of single hands (one hand of a table per file).

* Everleaf and 888 print, after a hand dealt without a small blind (its player busted), the next
  hand's button on the same seat again while the blinds move on: the dead button of the TDA rule,
  printed at the last live button (export fact ``button_stays_after_dead_small_blind``).  A real
  Everleaf excerpt (``fixtures/continuity/T005/dead-sb-good.txt``) audits clean; the same session with
  the button kept after a hand that had its small blind (``dead-sb-bad.txt``) is T005.
* Two hands each alone in its own file say nothing of the hands dealt between them (test files of
  parsers, hand-by-hand exports): the chain breaks there (T001 ``single``); a file of many hands
  chains to the next file as before, in ``hhaudit audit`` and across nights in ``hhaudit batch``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from auditor import continuity as C
from auditor.batch import store as S
from auditor.batch.runner import Options, run_batch
from auditor.formats import REGISTRY
from auditor.pipeline import audit
from tests.conftest import ROOT
from tests.test_continuity import rows_of, t_findings

FIX = ROOT / "fixtures" / "continuity"
DEAD_SB = FIX / "T005"


def test_dead_small_blind_button_kept_on_the_last_live_seat_is_clean() -> None:
    _s, found = audit([str(DEAD_SB / "dead-sb-good.txt")], select="ALL,T001")
    assert found == []
    rows = rows_of(DEAD_SB / "dead-sb-good.txt")
    # the hand without a small blind (242840011) is the one whose button the next hand keeps
    assert [(r["hand_id"], r["keeps_button"]) for r in rows] == [
        ("242839981", False), ("242840011", True), ("242840031", False), ("242840051", False)
    ]  # fmt: skip


def test_without_the_export_fact_the_kept_button_is_flagged() -> None:
    rows = [{**r, "keeps_button": False} for r in rows_of(DEAD_SB / "dead-sb-good.txt")]
    ts = t_findings(rows)
    assert [(f.code, f.hand_id, f.data["previous_hand_id"], f.data["reason"]) for f in ts] == [
        ("T005", "242840031", "242840011", "stayed")
    ]


def test_a_button_kept_after_a_hand_with_its_small_blind_is_still_caught() -> None:
    _s, found = audit([str(DEAD_SB / "dead-sb-bad.txt")], select="ALL,T001")
    ts = [f for f in found if f.code.startswith("T")]
    assert [(f.code, f.hand_id, f.data["previous_hand_id"], f.data["expected"], f.data["actual"]) for f in ts] == [
        ("T005", "242840051", "242840031", 2, 10)
    ]


def test_the_fact_is_declared_by_the_sites_that_print_it_only() -> None:
    keeping = sorted(f.name for f in REGISTRY.formats.values() if f.facts.button_stays_after_dead_small_blind)
    assert keeping == ["888poker", "everleaf"]


# ---------------------------------------------------------------------------------- single-hand exports


def _hands(code: str) -> list[str]:
    return (FIX / code / "bad.txt").read_text("utf-8").strip("\n").split("\n\n\n\n")


def _write(tmp: Path, groups: list[list[str]]) -> list[Path]:
    out = []
    for i, g in enumerate(groups):
        p = tmp / f"part{i}.txt"
        p.write_text("\n\n\n\n".join(g) + "\n", "utf-8")
        out.append(p)
    return out


def test_hands_exported_one_per_file_are_not_chained(tmp_path: Path) -> None:
    hands = _hands("T002")  # Cy's stack is $50 lower from hand 3 on
    files = _write(tmp_path, [[h] for h in hands])
    _s, found = audit([str(p) for p in files], select="ALL,T001")
    ts = [(f.code, f.data["reason"]) for f in found if f.code.startswith("T")]
    assert ts == [("T001", "single")] * (len(hands) - 1)
    assert "alone in their file" in next(f.message for f in found if f.code == "T001")


def test_files_of_several_hands_chain_to_each_other(tmp_path: Path) -> None:
    hands = _hands("T002")
    # hand 3 (the shrunk stack) alone in its file, after a file of two hands: still judged
    for groups in ([hands[:2], hands[2:]], [hands[:2], hands[2:3], hands[3:]], [hands[:3], hands[3:]]):
        files = _write(tmp_path, groups)
        _s, found = audit([str(p) for p in files], select="ALL,T001")
        ts = [(f.code, f.hand_id) for f in found if f.code.startswith("T")]
        assert ts == [("T002", "260000000003")], groups


def _batch(store: Path, source: Path, night: str) -> None:
    run_batch(Options([str(source)], str(store), night=night, progress="none"), io.StringIO(), io.StringIO())


def test_batch_chains_a_single_hand_night_to_the_file_of_the_night_before(tmp_path: Path) -> None:
    hands = _hands("T002")
    n1, n2 = _write(tmp_path, [hands[:2], hands[2:3]])
    store = tmp_path / "store"
    _batch(store, n1, "2026-11-01")
    _batch(store, n2, "2026-11-02")
    got = S.scan(str(store), "crosshand").collect()
    assert [(r["code"], r["hand_id"]) for r in got.iter_rows(named=True) if r["code"] != "T001"] == [
        ("T002", "260000000003")
    ]


def test_batch_does_not_chain_single_hand_files_across_nights(tmp_path: Path) -> None:
    hands = _hands("T002")
    n1, n2 = _write(tmp_path, [hands[1:2], hands[2:3]])
    store = tmp_path / "store"
    _batch(store, n1, "2026-11-01")
    _batch(store, n2, "2026-11-02")
    got = S.scan(str(store), "crosshand").collect()
    assert [(r["code"], r["hand_id"]) for r in got.iter_rows(named=True)] == [("T001", "260000000003")]


def test_columns_hold_the_new_fact() -> None:
    assert C.COLUMNS["keeps_button"] == C.pl.Boolean()


def test_batch_cross_hand_rows_built_in_chunks_are_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The night's cross-hand findings become store rows a chunk at a time (bounded memory): the
    written findings do not depend on the chunk size."""
    from auditor.batch import crosshand as X

    hands = _hands("T002")
    src = tmp_path / "src"
    src.mkdir()
    files = _write(src, [hands[:1], hands[1:2], hands[2:3], hands[3:]])  # single-hand files: T001 each
    got = []
    for size in (X.ROWS_PER_FRAME, 1, 2):
        monkeypatch.setattr(X, "ROWS_PER_FRAME", size)
        store = tmp_path / f"store-{size}"
        _batch(store, files[0].parent, "2026-11-01")
        got.append(S.scan(str(store), "crosshand").collect().drop("file_key", "audit_id"))
    assert got[0].height >= 2
    assert got[1].equals(got[0]) and got[2].equals(got[0])
