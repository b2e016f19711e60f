"""``hhaudit batch`` and the audit store: incremental runs, replacement, kill-and-resume, engines,
bad files, exit codes, progress, and the HTML report of the store."""

from __future__ import annotations

import argparse
import io
import os
import re
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import auditor.audit as audit_mod
from auditor.batch import cli as batch_cli
from auditor.batch import store as S
from auditor.batch import work
from auditor.batch.report import write_store_report
from auditor.batch.runner import Options, run_batch
from auditor.findings import Severity
from tests.conftest import FIXTURES, ROOT

PS = FIXTURES / "sites" / "pokerstars"
CLEAN = (PS / "cash_nlhe_basic.txt").read_text("utf-8")  # no finding once its id is unique
B001 = (FIXTURES / "samples" / "disputed_reraise.txt").read_text("utf-8")  # one B001 (an error)
XSS = "<script>alert(1)</script>"
NIGHT1, NIGHT2 = "2026-11-28", "2026-11-29"
RUN_COLS = ["run_id", "run_started_at", "audited_at", "seconds"]


def hand(template: str, hand_id: int) -> str:
    """``template`` with a fresh hand id."""
    return re.sub(r"Hand #\d+:", f"Hand #{hand_id}:", template, count=1)


def write_file(path: Path, ids: list[int], template: str = CLEAN) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n\n".join(hand(template, i) for i in ids) + "\n", "utf-8")
    return path


def make_inputs(root: Path, files: int = 4, hands: int = 3, base: int = 700_000_000_000) -> list[Path]:
    out = []
    for f in range(files):
        out.append(write_file(root / f"day{f // 2}" / f"export_{f}.txt", [base + 100 * f + h for h in range(hands)]))
    return out


def batch(sources: list[Path], store: Path, **kw: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    kw.setdefault("night", NIGHT1)
    kw.setdefault("progress", "log")
    code = run_batch(Options(sources=[str(s) for s in sources], store=str(store), **kw), out, err)
    return code, out.getvalue(), err.getvalue()


def runs(store: Path) -> pl.DataFrame:
    return S.scan(str(store), "runs").collect().sort("started_at")


def snapshot(store: Path) -> dict[str, pl.DataFrame]:
    """The store's content, sorted, without what differs from run to run."""
    s = str(store)
    return {
        "files": S.scan(s, "files").collect().drop(RUN_COLS).sort("file_key"),
        "hands": S.scan(s, "hands").collect().sort("file_key", "hand_no"),
        "findings": S.scan(s, "findings").collect().sort("file_key", "hand_no", "line", "column", "code", "message"),
    }


def assert_same_store(a: Path, b: Path) -> None:
    sa, sb = snapshot(a), snapshot(b)
    for table in sa:
        assert sa[table].equals(sb[table]), table
    assert len(sa["hands"]) > 0


def plain_glob(store: Path, table: str) -> pl.DataFrame:
    """What a reader gets with a plain glob (committed or not)."""
    return pl.scan_parquet(str(store / table / "**" / "*.parquet"), hive_partitioning=True).collect()


# ---------------------------------------------------------------------------------- incremental


def test_first_run_writes_partitioned_tables(tmp_path: Path) -> None:
    files = make_inputs(tmp_path / "in")
    write_file(tmp_path / "in" / "flagged.txt", [710_000_000_000], B001)
    code, out, _ = batch([tmp_path / "in"], tmp_path / "store", fail_on=None)
    assert code == 0
    assert "5 audited" in out and "B001 1" in out
    for table in ("files", "hands", "findings", "runs"):
        assert (tmp_path / "store" / table / f"night={NIGHT1}").is_dir()
    snap = snapshot(tmp_path / "store")
    assert len(snap["files"]) == 5 and set(snap["files"]["status"]) == {"ok"}
    assert len(snap["hands"]) == 13
    assert snap["findings"]["code"].to_list() == ["B001"]
    f = snap["files"].filter(pl.col("path") == str(files[0].resolve())).row(0, named=True)
    assert f["size"] == files[0].stat().st_size
    assert f["sha256"] == work.sha256_file(str(files[0]))
    assert f["hhaudit_version"] and f["profile"] == "site" and f["hands_seen"] == 3
    # a night's results read alone, with a plain polars glob
    night = pl.scan_parquet(str(tmp_path / "store" / "hands" / f"night={NIGHT1}" / "*.parquet")).collect()
    assert len(night) == 13
    r = runs(tmp_path / "store").row(0, named=True)
    assert (r["status"], r["files_audited"], r["hands_seen"], r["findings"], r["exit_status"]) == (
        "complete",
        5,
        13,
        1,
        0,
    )


def test_second_run_over_unchanged_input_parses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_inputs(tmp_path / "in")
    store = tmp_path / "store"
    assert batch([tmp_path / "in"], store)[0] == 0
    before = snapshot(store)

    def boom(*a: Any, **k: Any) -> Any:
        raise AssertionError("parsed a file that was unchanged")

    monkeypatch.setattr(audit_mod, "parse_chunk", boom)
    code, out, _ = batch([tmp_path / "in"], store, night=NIGHT2)
    assert code == 0, out
    last = runs(store).row(-1, named=True)
    assert (last["files_seen"], last["files_skipped"], last["files_audited"], last["hands_seen"]) == (4, 4, 0, 0)
    assert last["files_error"] == 0
    assert "4 skipped unchanged" in out
    after = snapshot(store)
    for t in before:
        assert before[t].equals(after[t])


def test_other_profile_or_version_audits_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_inputs(tmp_path / "in", files=2)
    store = tmp_path / "store"
    batch([tmp_path / "in"], store)
    batch([tmp_path / "in"], store, rules="tda")
    assert runs(store).row(-1, named=True)["files_audited"] == 2
    assert set(S.scan(str(store), "files").collect()["profile"]) == {"tda"}
    monkeypatch.setattr(work, "__version__", "9.9.9")
    monkeypatch.setattr("auditor.batch.runner.__version__", "9.9.9")
    batch([tmp_path / "in"], store, rules="tda")
    assert runs(store).row(-1, named=True)["files_replaced"] == 2
    assert len(S.scan(str(store), "hands").collect()) == 6


def test_changed_file_replaces_its_rows(tmp_path: Path) -> None:
    files = make_inputs(tmp_path / "in")
    store = tmp_path / "store"
    batch([tmp_path / "in"], store)
    key = S.file_key(str(files[1]))
    old_parts = list((store / "hands" / f"night={NIGHT1}").glob(f"{key}.*.parquet"))
    assert len(old_parts) == 1
    # the file now holds other hands: two new ids and a B001 hand
    write_file(files[1], [720_000_000_001, 720_000_000_002])
    with files[1].open("a", encoding="utf-8") as f:
        f.write("\n\n" + hand(B001, 720_000_000_003))
    code, _out, _ = batch([tmp_path / "in"], store, night=NIGHT2)
    assert code == 1  # the new B001 is an error
    last = runs(store).row(-1, named=True)
    assert (last["files_audited"], last["files_replaced"], last["files_skipped"]) == (1, 1, 3)
    hands = S.scan(str(store), "hands").collect()
    mine = hands.filter(pl.col("file_key") == key)
    assert sorted(mine["hand_id"]) == ["720000000001", "720000000002", "720000000003"]
    assert set(mine["night"].cast(pl.String)) == {NIGHT2}
    assert len(hands) == 12  # 3 files x 3 hands + 3, nothing stale
    assert not any(p.exists() for p in old_parts)
    files_t = S.scan(str(store), "files").collect()
    assert files_t["file_key"].n_unique() == len(files_t) == 4
    # after a completed run a plain glob sees exactly the committed rows
    assert len(plain_glob(store, "hands")) == 12
    assert len(plain_glob(store, "files")) == 4
    assert S.scan(str(store), "findings").collect()["file_key"].to_list() == [key]


def test_manifest_is_compacted_during_and_after_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("auditor.batch.runner.COMPACT_EVERY", 2)
    compacted: list[int] = []
    real = S.compact_rows

    def spy(store: str, night: str, paths: list[str], name: str) -> None:
        compacted.append(len(paths))
        real(store, night, paths, name)

    monkeypatch.setattr(S, "compact_rows", spy)
    make_inputs(tmp_path / "in", files=5)
    store = tmp_path / "store"
    batch([tmp_path / "in"], store)
    assert compacted == [2, 2, 1]
    left = sorted(p.name for p in (store / "files" / f"night={NIGHT1}").iterdir())
    assert len(left) == 1 and left[0].startswith("m-")
    files = pl.read_parquet(store / "files" / f"night={NIGHT1}" / left[0])
    assert len(files) == 5 and files["file_key"].is_unique().all()
    assert S.load_manifest(str(store)).equals(S.scan(str(store), "files").collect())


def test_large_file_is_written_in_several_parts(tmp_path: Path) -> None:
    write_file(tmp_path / "in" / "big.txt", list(range(730_000_000_000, 730_000_000_005)))
    store = tmp_path / "store"
    batch([tmp_path / "in"], store, batch_size=2)
    parts = sorted((store / "hands" / f"night={NIGHT1}").glob("*.parquet"))
    assert len(parts) == 3
    assert [len(pl.read_parquet(p)) for p in parts] == [2, 2, 1]
    f = S.scan(str(store), "files").collect().row(0, named=True)
    assert (f["hand_parts"], f["hands_seen"]) == (3, 5)
    assert S.scan(str(store), "hands").collect()["hand_no"].to_list() == [0, 1, 2, 3, 4]


# ---------------------------------------------------------------------------------- crash safety


def _kill_midway(sources: Path, store: Path, pause: float = 0.25) -> subprocess.CompletedProcess[bytes] | None:
    """Start a batch in a subprocess and SIGKILL it once a file is committed and another half-written."""
    env = dict(os.environ, HHAUDIT_BATCH_PAUSE=str(pause))
    cmd = [
        sys.executable,
        "-m",
        "auditor.batch",
        "batch",
        str(sources),
        "--store",
        str(store),
        "--night",
        NIGHT1,
        "--batch-size",
        "1",
        "--fail-on",
        "none",
        "--quiet",
    ]
    night = store / "hands" / f"night={NIGHT1}"
    before = set(night.glob("*.parquet"))  # parts of an earlier run, if any
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            committed = {p.name[2:-8] for p in (store / "files").glob("night=*/f-*.parquet")}
            parts = {p.name.split(".")[0] for p in set(night.glob("*.parquet")) - before}
            if committed and parts - committed:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                return None
            if proc.poll() is not None:
                break
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    raise AssertionError(f"the batch ended before it could be killed: {proc.stderr.read() if proc.stderr else ''!r}")


def test_kill_and_resume_no_duplicates_no_loss(tmp_path: Path) -> None:
    src = tmp_path / "in"
    make_inputs(src, files=6, hands=3)
    write_file(src / "flagged.txt", [740_000_000_000], B001)
    ref = tmp_path / "ref"
    assert batch([src], ref, batch_size=1, fail_on=None)[0] == 0

    store = tmp_path / "store"
    _kill_midway(src, store)
    assert runs(store).row(-1, named=True)["status"] == "running"
    # the killed run left uncommitted parts: a plain glob sees them, the consistent view does not
    committed = S.scan(str(store), "hands").collect()
    assert len(plain_glob(store, "hands")) > len(committed)
    assert 0 < committed["file_key"].n_unique() < 7

    code, _out, _err = batch([src], store, batch_size=1, fail_on=None)
    assert code == 0
    log = runs(store)
    assert log["status"].to_list() == ["interrupted", "complete"]
    resumed = log.row(-1, named=True)
    assert resumed["garbage_removed"] > 0
    assert resumed["files_skipped"] == committed["file_key"].n_unique()
    assert resumed["files_skipped"] + resumed["files_audited"] == 7
    assert_same_store(ref, store)
    # exactly one set of rows per file, and nothing else on disk
    hands = plain_glob(store, "hands")
    assert len(hands) == 19 and hands.select("file_key", "hand_no").is_unique().all()
    assert not list(store.rglob("*.tmp"))


def test_kill_during_replacement_keeps_old_rows_until_resumed(tmp_path: Path) -> None:
    src = tmp_path / "in"
    files = make_inputs(src, files=6, hands=3)
    store = tmp_path / "store"
    batch([src], store, batch_size=1)
    first = S.scan(str(store), "hands").collect()
    old_ids = {k: set(g["hand_id"].to_list()) for (k,), g in first.group_by("file_key")}
    for n, f in enumerate(files):
        write_file(f, [750_000_000_000 + 10 * n + h for h in range(3)])
    new_ids = {S.file_key(str(f)): {str(750_000_000_000 + 10 * n + h) for h in range(3)} for n, f in enumerate(files)}

    _kill_midway(src, store)
    hands = S.scan(str(store), "hands").collect()
    seen = {k: set(g["hand_id"].to_list()) for (k,), g in hands.group_by("file_key")}
    assert set(seen) == set(old_ids)  # no file lost
    assert all(seen[k] in (old_ids[k], new_ids[k]) for k in seen)  # each file old or new, never a mix
    assert any(seen[k] == new_ids[k] for k in seen) and any(seen[k] == old_ids[k] for k in seen)
    assert len(hands) == 18
    assert len(plain_glob(store, "hands")) > 18  # a half-written new audit is on disk, not committed

    ref = tmp_path / "ref"
    batch([src], ref, batch_size=1)
    assert batch([src], store, batch_size=1)[0] == 0
    assert_same_store(ref, store)
    assert len(plain_glob(store, "hands")) == 18
    assert len(plain_glob(store, "files")) == 6


def test_garbage_collection_and_missing_parts(tmp_path: Path) -> None:
    files = make_inputs(tmp_path / "in", files=2)
    store = tmp_path / "store"
    batch([tmp_path / "in"], store)
    night = store / "hands" / f"night={NIGHT1}"
    orphan = night / "ghost-0000000000000000.abcdabcdabcdabcd.0000.parquet"
    orphan.write_bytes(next(night.glob("*.parquet")).read_bytes())
    (night / ".half-written.parquet.1-ab.tmp").write_bytes(b"PAR1")
    # a committed part deleted behind the store's back: its file must be audited again
    lost = next(night.glob(f"{S.file_key(str(files[0]))}.*.parquet"))
    lost.unlink()
    batch([tmp_path / "in"], store)
    assert not orphan.exists() and not list(store.rglob("*.tmp"))
    last = runs(store).row(-1, named=True)
    assert (last["garbage_removed"], last["files_audited"], last["files_skipped"]) == (1, 1, 1)
    assert len(S.scan(str(store), "hands").collect()) == 6
    assert len(plain_glob(store, "hands")) == 6


def test_store_lock_refuses_a_second_batch(tmp_path: Path) -> None:
    make_inputs(tmp_path / "in", files=1)
    store = tmp_path / "store"
    store.mkdir()
    with S.StoreLock(str(store)):
        code, _out, err = batch([tmp_path / "in"], store)
    assert code == 2 and "another batch is running" in err
    assert batch([tmp_path / "in"], store)[0] == 0


# ---------------------------------------------------------------------------------- engines


def test_process_pool_produces_the_same_store(tmp_path: Path) -> None:
    src = tmp_path / "in"
    make_inputs(src, files=5)
    write_file(src / "flagged.txt", [760_000_000_000], B001)
    batch([src], tmp_path / "serial", fail_on=None)
    code, out, _ = batch([src], tmp_path / "pool", workers=2, fail_on=None)
    assert code == 0, out
    assert_same_store(tmp_path / "serial", tmp_path / "pool")
    assert runs(tmp_path / "pool").row(-1, named=True)["workers"] == 2


def test_dask_local_cluster_produces_the_same_store(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    src = tmp_path / "in"
    make_inputs(src, files=5)
    write_file(src / "flagged.txt", [770_000_000_000], B001)
    batch([src], tmp_path / "local", fail_on=None)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        code, out, err = batch(
            [src], tmp_path / "dask", engine="dask", scheduler=cluster.scheduler_address, fail_on=None
        )
    assert code == 0, out + err
    assert_same_store(tmp_path / "local", tmp_path / "dask")
    r = runs(tmp_path / "dask").row(-1, named=True)
    assert (r["engine"], r["files_audited"]) == ("dask", 6)


def test_dask_unreachable_scheduler_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr("auditor.batch.engines.CONNECT_TIMEOUT", "1s")
    make_inputs(tmp_path / "in", files=1)
    code, _out, err = batch([tmp_path / "in"], tmp_path / "store", engine="dask", scheduler="tcp://127.0.0.1:9")
    assert code == 2 and "scheduler" in err


# ---------------------------------------------------------------------------------- bad files, exit codes


def test_bad_files_are_recorded_and_the_batch_goes_on(tmp_path: Path) -> None:
    src = tmp_path / "in"
    make_inputs(src, files=2)
    (src / "notes.log").write_text("nothing to see here\n", "utf-8")
    (src / "binary.txt").write_bytes(hand(CLEAN, 780_000_000_000).encode("utf-8").replace(b"alice", b"al\x81\x8dice"))
    (src / "cut.txt").write_text(hand(CLEAN, 780_000_000_001).split("*** SUMMARY ***")[0], "utf-8")
    (src / "gone.txt").symlink_to(src / "does-not-exist.txt")
    code, out, err = batch([src], tmp_path / "store")
    assert code == 2  # a file could not be read
    assert "gone.txt" in err and "could not be audited" in out
    files = S.scan(str(tmp_path / "store"), "files").collect()
    by_name = {Path(p).name: r for p, r in zip(files["path"], files.iter_rows(named=True), strict=True)}
    assert by_name["gone.txt"]["status"] == "error" and "cannot read" in by_name["gone.txt"]["error"]
    assert all(r["status"] == "ok" for n, r in by_name.items() if n != "gone.txt")
    codes = S.scan(str(tmp_path / "store"), "findings").collect().group_by("file_key").agg(pl.col("code"))
    got = {k: sorted(c) for k, c in codes.iter_rows()}
    assert "P003" in got[S.file_key(str(src / "notes.log"))]
    assert "P004" in got[S.file_key(str(src / "binary.txt"))]
    assert "P005" in got[S.file_key(str(src / "cut.txt"))]
    assert runs(tmp_path / "store").row(-1, named=True)["files_error"] == 1
    # the file that could not be read is tried again on the next run; the others are skipped
    (src / "gone.txt").unlink()
    write_file(src / "gone.txt", [780_000_000_002])
    assert batch([src], tmp_path / "store")[0] == 0  # --fail-on judges the files audited in this run
    last = runs(tmp_path / "store").row(-1, named=True)
    assert (last["files_audited"], last["files_skipped"], last["files_error"]) == (1, 5, 0)


def test_a_crash_in_hhaudit_on_one_file_does_not_stop_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "in"
    make_inputs(src, files=3)
    real = audit_mod.audit_hand

    def flaky(h: Any, profile: Any = None, facts: Any = None) -> Any:
        if h.hand_id == "700000000101":
            raise ZeroDivisionError("division by zero")
        return real(h, profile, facts)

    monkeypatch.setattr(audit_mod, "audit_hand", flaky)
    code, _out, err = batch([src], tmp_path / "store", batch_size=1)
    assert code == 2 and "ZeroDivisionError" in err
    files = S.scan(str(tmp_path / "store"), "files").collect().sort("path")
    assert files["status"].to_list() == ["ok", "error", "ok"]
    assert len(S.scan(str(tmp_path / "store"), "hands").collect()) == 6  # nothing kept of the failed file
    assert len(plain_glob(tmp_path / "store", "hands")) == 6


def test_a_store_that_cannot_be_written_is_an_error_not_a_bad_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_inputs(tmp_path / "in", files=2)
    real = S.write_atomic

    def full(df: pl.DataFrame, path: str, durable: bool = True) -> None:
        if f"{os.sep}hands{os.sep}" in path:
            raise OSError(28, "No space left on device")
        real(df, path, durable)

    monkeypatch.setattr(S, "write_atomic", full)
    code, _out, err = batch([tmp_path / "in"], tmp_path / "store")
    assert code == 2
    assert err.count("cannot write the store") == 2 and "No space left on device" in err
    assert "cannot read" not in err
    monkeypatch.setattr(S, "write_atomic", real)
    assert batch([tmp_path / "in"], tmp_path / "store")[0] == 0  # retried, and nothing was left behind
    assert runs(tmp_path / "store").row(-1, named=True)["files_audited"] == 2


def test_exit_codes(tmp_path: Path) -> None:
    clean = make_inputs(tmp_path / "clean", files=1)
    flagged = write_file(tmp_path / "flagged" / "b001.txt", [790_000_000_000], B001)
    assert batch(clean, tmp_path / "s1")[0] == 0
    assert batch([flagged], tmp_path / "s2")[0] == 1  # B001 is an error, --fail-on error by default
    assert batch([flagged], tmp_path / "s3", fail_on=None)[0] == 0
    assert batch([flagged], tmp_path / "s4", fail_on=Severity.WARNING)[0] == 1
    for kw in ({"rules": "nope"}, {"engine": "dask"}, {"night": "29/11/2026"}, {"workers": 0}):
        code, _out, err = batch(clean, tmp_path / "s5", **kw)
        assert code == 2 and err.startswith("hhaudit: "), kw
    assert batch([tmp_path / "missing"], tmp_path / "s6")[0] == 2
    ns = argparse.Namespace(
        command="batch",
        sources=[str(flagged)],
        store=str(tmp_path / "s7"),
        rules="",
        engine="local",
        workers=1,
        scheduler=None,
        night=NIGHT1,
        batch_size=10,
        fail_on="fatal",
        progress="log",
        log_interval=30.0,
        quiet=True,
    )
    assert batch_cli.run(ns) == 2


def test_cli_parsers_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = argparse.ArgumentParser(prog="hhaudit")
    sub = p.add_subparsers(dest="command", required=True)
    batch_cli.add_parsers(sub)
    make_inputs(tmp_path / "in", files=2)
    args = p.parse_args(
        [
            "batch",
            str(tmp_path / "in"),
            "--store",
            str(tmp_path / "store"),
            "--quiet",
            "--night",
            NIGHT1,
            "--workers",
            "1",
        ]
    )
    assert batch_cli.run(args) == 0
    out, err = capsys.readouterr()
    assert out == "" and err == ""
    args = p.parse_args(["batch", str(tmp_path / "in"), "--store", str(tmp_path / "store"), "--progress", "log"])
    assert batch_cli.run(args) == 0
    out, err = capsys.readouterr()
    assert "2 skipped unchanged" in out and "2 file(s)" in err
    args = p.parse_args(["report", "--store", str(tmp_path / "store"), "--html", str(tmp_path / "html")])
    assert batch_cli.run(args) == 0
    assert (tmp_path / "html" / "index.html").is_file()
    args = p.parse_args(["report", "--store", str(tmp_path / "nothing"), "--html", str(tmp_path / "html2")])
    assert batch_cli.run(args) == 2


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    make_inputs(tmp_path / "in", files=3)
    err = Tty()
    code = run_batch(Options(sources=[str(tmp_path / "in")], store=str(tmp_path / "store"), night=NIGHT1), None, err)
    assert code == 0
    text = err.getvalue()
    assert "\r" in text and "3/3 files" in text and "hands/s" in text and "100%" in text


# ---------------------------------------------------------------------------------- HTML report


class _Tables(HTMLParser):
    """The text of every table cell, by table id; and every raw start tag seen."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.tags: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "table" and a.get("id"):
            self._table = a["id"]
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._table and self._cell is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def test_html_report_trends_over_nights_and_escaping(tmp_path: Path) -> None:
    src = tmp_path / "in"
    make_inputs(src, files=2)
    evil = B001.replace("Amir", XSS).replace("Izar III", "Izar <b>III</b>")
    write_file(src / "night1.txt", [800_000_000_000], evil)
    store = tmp_path / "store"
    batch([src], store, fail_on=None)
    write_file(src / "night2.txt", [800_000_000_001, 800_000_000_002], evil)
    batch([src], store, fail_on=None, night=NIGHT2)

    index = write_store_report(str(store), str(tmp_path / "html"))
    html = Path(index).read_text("utf-8")
    assert (tmp_path / "html" / "static" / "report.css").is_file()
    assert XSS not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>III</b>" not in html
    doc = _Tables()
    doc.feed(html)
    assert "script" not in doc.tags
    t = doc.tables
    assert {"trend-nights", "trend-sites", "trend-codes", "top-tables", "top-players", "runs-table"} <= set(t)
    nights = {r[0]: r for r in t["trend-nights"][1:]}
    assert nights[NIGHT1][1:4] == ["3", "7", "1"] and nights[NIGHT2][1:4] == ["1", "2", "2"]
    assert t["trend-sites"][0] == ["site", NIGHT1, NIGHT2, "total"]
    assert t["trend-sites"][1] == ["pokerstars", "1", "2", "3"]
    assert t["trend-codes"][1][0].startswith("B001") and t["trend-codes"][1][1:] == ["1", "2", "3"]
    assert t["top-players"][1][:3] == [XSS, "pokerstars", "3"]
    assert t["top-tables"][1][:3] == ["pokerstars", "Izar <b>III</b>", "3"]
    assert [r[3] for r in t["runs-table"][1:]] == ["complete", "complete"]


def test_report_counts_cross_file_duplicate_ids(tmp_path: Path) -> None:
    src = tmp_path / "in"
    write_file(src / "a.txt", [810_000_000_000, 810_000_000_001])
    write_file(src / "b.txt", [810_000_000_001])
    batch([src], tmp_path / "store")
    doc = _Tables()
    doc.feed(Path(write_store_report(str(tmp_path / "store"), str(tmp_path / "html"))).read_text("utf-8"))
    rows = doc.tables["duplicates-table"][1:]
    assert [r[:3] for r in rows] == [["pokerstars", "810000000001", "2"]]


def test_pool_night_pass_and_staged_parts_give_the_serial_crosshand_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a local pool the workers stage their parts for the night pass and the night's
    partitions are checked on the workers (issue 16): the same crosshand rows and table tails as
    one process, and no staging folder left behind."""
    from auditor.batch import crosshand

    monkeypatch.setattr(crosshand, "PARALLEL_HANDS", 1)  # split even these few hands across the workers
    src = tmp_path / "in"
    files = make_inputs(src, files=5)
    (src / "copy.txt").write_text(files[0].read_text("utf-8"), "utf-8")  # H005 across files
    batch([src], tmp_path / "serial", fail_on=None)
    code, out, _ = batch([src], tmp_path / "pool", workers=2, fail_on=None)
    assert code == 0, out
    assert_same_store(tmp_path / "serial", tmp_path / "pool")
    for table in ("crosshand", "tails"):
        a = sorted((tmp_path / "serial" / table).rglob("*.parquet"))
        b = sorted((tmp_path / "pool" / table).rglob("*.parquet"))
        assert [p.name for p in a] == [p.name for p in b] and a, table
        for x, y in zip(a, b, strict=True):
            assert pl.read_parquet(x).equals(pl.read_parquet(y)), x
    assert S.scan(str(tmp_path / "pool"), "crosshand").collect().height > 0
    assert not [d for d in os.listdir(tmp_path / "pool") if d.startswith("crosshand-")]


def test_several_workers_get_the_largest_files_first(tmp_path: Path) -> None:
    """With several workers the files are handed out largest first (issue 16: no worker is left
    alone on a long file at the end); one worker takes them in listing order; the store is the same."""
    from collections.abc import Iterable, Iterator

    src = tmp_path / "in"
    for name, n in (("a.txt", 1), ("b.txt", 3), ("c.txt", 2), ("d.txt", 3)):
        write_file(src / name, [770_000_000_000 + 10 * ord(name[0]) + i for i in range(n)])
    seen: list[str] = []

    def runner(tasks: Iterable[work.FileTask]) -> Iterator[work.FileResult]:
        for t in tasks:
            seen.append(os.path.basename(t.path))
            yield work.audit_file(t)

    out, err = io.StringIO(), io.StringIO()
    opts = Options(sources=[str(src)], store=str(tmp_path / "pool"), workers=2, night=NIGHT1, progress="none")
    assert run_batch(opts, out, err, runner=runner) == 0, err.getvalue()
    assert seen == ["b.txt", "d.txt", "c.txt", "a.txt"]  # by size, ties in listing order
    seen.clear()
    opts = Options(sources=[str(src)], store=str(tmp_path / "serial"), night=NIGHT1, progress="none")
    assert run_batch(opts, out, err, runner=runner) == 0, err.getvalue()
    assert seen == ["a.txt", "b.txt", "c.txt", "d.txt"]
    assert_same_store(tmp_path / "serial", tmp_path / "pool")


def test_timings_keep_each_file_s_worker_and_times_and_the_pool_ends_with_the_night(tmp_path: Path) -> None:
    """``Timings`` (``bench_batch.py --phases``) keeps, for every file, the worker that took it, its
    CPU seconds then and when it was done and the monotonic clock at both (a worker's idle time is
    between its files); the pool's workers are stopped as soon as the night pass is done (issue 16:
    their exit overlaps the run log), so the pool is gone when ``run_batch`` returns."""
    from auditor.batch.engines import Pool
    from auditor.batch.runner import Timings

    src = tmp_path / "in"
    paths = make_inputs(src, files=4)
    pool = Pool(2)
    tm = Timings()
    opts = Options(sources=[str(src)], store=str(tmp_path / "s"), workers=2, night=NIGHT1, progress="none")
    assert run_batch(opts, io.StringIO(), io.StringIO(), runner=pool, timings=tm) == 0
    assert pool.pool is None
    assert sorted(key for key, *_ in tm.jobs) == sorted(S.file_key(str(p)) for p in paths)
    for _key, pid, cpu0, cpu1, t0, t1 in tm.jobs:
        assert pid != os.getpid() and 0 < cpu0 <= cpu1 and 0 < t0 <= t1
        assert tm.marks["submit"][1] <= t1 <= tm.marks["results"][1]
    assert list(tm.marks) == ["locked", "submit", "results", "manifest", "night"]


def test_pool_workers_run_polars_on_one_thread_unless_the_user_chose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool worker's polars has :data:`auditor.batch.engines.WORKER_THREADS` threads (issue 16: the
    workers already keep the cores busy), this process keeps its own, and ``POLARS_MAX_THREADS`` set
    by the user reaches the workers unchanged."""
    from auditor.batch.engines import WORKER_THREADS, Pool

    monkeypatch.delenv("POLARS_MAX_THREADS", raising=False)
    pool = Pool(2)
    try:
        assert pool.pool is not None
        assert {pool.pool.submit(pl.thread_pool_size).result() for _ in range(4)} == {int(WORKER_THREADS)}
    finally:
        pool.close()
    assert "POLARS_MAX_THREADS" not in os.environ
    monkeypatch.setenv("POLARS_MAX_THREADS", "3")
    pool = Pool(2)
    try:
        assert pool.pool is not None
        assert pool.pool.submit(pl.thread_pool_size).result() == 3
    finally:
        pool.close()


def test_a_run_says_when_one_file_keeps_the_workers_from_sharing_the_work(tmp_path: Path) -> None:
    """A file is one worker's: a run whose files to audit cannot keep its workers busy says so at the
    start (log and bar modes, not --quiet), counting only the files not audited before."""
    from auditor.batch.engines import run_serial
    from auditor.batch.runner import parallel_bound

    src = tmp_path / "in"
    write_file(src / "big.txt", [800_000_000_000 + i for i in range(30)])
    write_file(src / "small.txt", [800_000_001_000])

    def run(mode: str, store: str = "s") -> str:
        err = io.StringIO()
        opts = Options([str(src)], str(tmp_path / store), workers=2, night=NIGHT1, progress=mode, fail_on=None)
        assert run_batch(opts, io.StringIO(), err, runner=run_serial) == 0
        return err.getvalue()

    first = run("log")
    assert "a file is audited by one worker, so 2 workers can finish at most 1.0x sooner than one" in first
    assert re.search(r"the largest file to audit is [\d.]+ MB of [\d.]+ MB", first)
    assert "one worker" not in run("log")  # both files unchanged: skipped, nothing to share
    assert "one worker" not in run("none", "s2")  # --quiet
    write_file(src / "big.txt", [800_000_002_000])  # two files of one size, to a new store
    assert "one worker" not in run("log", "s3")

    assert parallel_bound([10, 10], 2) == 2.0
    assert parallel_bound([30, 10], 2) == 40 / 30
    assert parallel_bound([30, 10, 10, 10], 4) == 2.0
    assert parallel_bound([], 2) == parallel_bound([5], 1) == parallel_bound([0, 0], 2) == 1.0
