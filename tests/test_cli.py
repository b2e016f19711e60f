"""The command-line contract: JSON shape, exit codes, rules catalogue, parse tables."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl

from auditor.cli import main
from tests.conftest import FIXTURES

PS = FIXTURES / "sites" / "pokerstars"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "auditor.cli", *args], input=stdin, capture_output=True, check=False)


def test_audit_json_contract(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    text = (PS / "cash_nlhe_basic.txt").read_text()
    bad.write_text(text.replace("alice: bets $0.40", "alice: winks") + "\n\n" + text.replace("Table '", "Tabel '"))
    r = run("audit", str(PS), str(bad), "--format", "json", "--select", "P")
    assert r.returncode == 1  # P001 is an error
    doc = json.loads(r.stdout)
    s = doc["summary"]
    assert set(s) >= {"files", "hands_seen", "hands_parsed", "hands_failed", "findings", "by_code"}
    assert s["files"] == len(list(PS.glob("*.txt"))) + 1
    assert s["hands_seen"] == s["hands_parsed"] + s["hands_failed"]
    assert s["hands_failed"] == 1
    # (P009, info: the folder's two fixtures of converted exports, once a file)
    assert s["by_code"] == {"P001": 1, "P002": 1, "P009": 2}
    assert s["findings"] == 4
    for f in doc["findings"]:
        assert set(f) >= {"code", "name", "severity", "site", "hand_id", "path", "line", "column", "message"}
    p002 = next(f for f in doc["findings"] if f["code"] == "P002")
    assert (p002["line"], p002["column"], p002["name"], p002["severity"]) == (17, 1, "unrecognised-line", "warning")
    # without --select, the same input also has the copied hand's duplicate id and the fold out of
    # turn that the unreadable bet leaves behind
    full = json.loads(run("audit", str(PS), str(bad), "--format", "json").stdout)["summary"]["by_code"]
    assert full == {"A001": 1, "A010": 1, "B004": 1, "H001": 1, "P001": 1, "P002": 1, "P009": 2}


def test_exit_codes_and_fail_on(tmp_path: Path) -> None:
    assert run("audit", str(PS)).returncode == 0
    warn = tmp_path / "w.txt"
    warn.write_text((PS / "zoom.txt").read_text().replace("jan: folds", "jan: sneezes"))
    assert run("audit", str(warn)).returncode == 0  # P002 is a warning
    assert run("audit", str(warn), "--fail-on", "warning").returncode == 1
    assert run("audit", str(warn), "--ignore", "P002", "--fail-on", "info").returncode == 0
    assert run("audit", str(tmp_path / "missing.txt")).returncode == 2
    assert run("audit", str(PS), "--format", "yaml").returncode == 2
    assert run("audit", str(PS), "--fail-on", "fatal").returncode == 2


def test_stdin_and_text_format() -> None:
    data = (PS / "cash_nlhe_basic.txt").read_bytes().replace(b"dave: checks", b"dave: ponders")
    r = run("audit", "-", stdin=data)
    assert r.returncode == 0
    out = r.stdout.decode()
    assert out.splitlines()[0].startswith("-:16:1: P002 ")
    assert "1 hands seen, 1 parsed, 0 failed" in out


def test_jsonl_last_line_is_summary() -> None:
    r = run("audit", str(PS), "--format", "jsonl")
    lines = r.stdout.decode().splitlines()
    assert json.loads(lines[-1])["summary"]["hands_seen"] == len(list(PS.glob("*.txt")))


def test_rules_catalogue(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for code in ("P001", "P002", "P003", "P004", "P005", "P006"):
        assert code in out
    assert main(["rules", "p002"]) == 0
    assert "unrecognised-line" in capsys.readouterr().out
    assert main(["rules", "Z999"]) == 2


def test_parse_writes_parquet_and_jsonl(tmp_path: Path) -> None:
    assert main(["parse", str(FIXTURES / "sites"), "--to", "parquet", "--out", str(tmp_path / "pq")]) == 0
    hands = pl.read_parquet(tmp_path / "pq" / "hands" / "*.parquet")
    seats = pl.read_parquet(tmp_path / "pq" / "seats" / "*.parquet")
    events = pl.read_parquet(tmp_path / "pq" / "events" / "*.parquet")
    n = len(list((FIXTURES / "sites").glob("*/*.txt")))
    assert hands.height == n
    assert hands["hand_no"].n_unique() == n
    assert seats.join(hands, on="hand_no").height == seats.height
    assert events["amount"].dtype == pl.Int64
    # money stays exact: the stacks of the basic hand, in cents
    basic = hands.filter(pl.col("hand_id") == "250000000001")
    st = seats.join(basic.select("hand_no"), on="hand_no").sort("seat")["stack"].to_list()
    assert st == [1000, 1240, 815, 1000]
    assert main(["parse", str(FIXTURES / "sites"), "--to", "jsonl", "--out", str(tmp_path / "js")]) == 0
    rows = [json.loads(r) for r in (tmp_path / "js" / "events.jsonl").read_text().splitlines()]
    assert len(rows) == events.height
    assert rows[0]["hand_no"] == 0 and rows[0]["type"] == events["type"][0]


def test_sarif_csv_and_baseline(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    text = (PS / "cash_nlhe_basic.txt").read_text()
    # an illegal check facing a raise (B006), and a player named like a spreadsheet formula
    bad.write_text(text.replace("dave: calls $0.20", "dave: checks").replace("bob", "=HYPERLINK(1)"))
    sarif = json.loads(run("audit", str(bad), "--format", "sarif").stdout)
    run0 = sarif["runs"][0]
    assert sarif["version"] == "2.1.0"
    assert {r["id"] for r in run0["tool"]["driver"]["rules"]} >= {"P001", "B001", "S001", "H001"}
    res = run0["results"]
    assert res[0]["ruleId"] == "B006"
    assert res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 14
    assert run0["properties"]["summary"]["hands_seen"] == 1

    rows = run("audit", str(bad), "--format", "csv").stdout.decode().splitlines()
    assert rows[0] == "code,name,severity,site,hand_id,path,line,column,message"
    assert rows[1].startswith("B006,impossible-action,error,pokerstars,250000000001,")
    import csv as _csv

    from auditor.output.csv_out import safe

    assert safe("=HYPERLINK(1)") == "'=HYPERLINK(1)" and safe("-1") == "'-1" and safe("\tx") == "'\tx"
    assert safe("bob") == "bob"
    for row in _csv.reader(rows[1:]):
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row)

    base = tmp_path / "base.json"
    base.write_text(run("audit", str(bad), "--format", "json").stdout.decode())
    r = run("audit", str(bad), "--baseline", str(base), "--format", "json")
    assert r.returncode == 0
    s = json.loads(r.stdout)["summary"]
    assert s["findings"] == 0 and s["baselined"] >= 1


def test_rules_profile_option_and_rule_docs(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["rules", "B001"]) == 0
    doc = capsys.readouterr().out
    assert "illegal-reraise" in doc and "Example" in doc
    assert run("audit", str(PS), "--rules", "wsop-live").returncode == 0
    assert run("audit", str(PS), "--rules", "nonsense").returncode == 2
