"""Issue 13 and the output-safety items of issue 11: selectors, configuration, flags, formats."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import jsonschema
import pytest

from auditor.cli import main
from auditor.output import color_wanted
from auditor.output.safe import visible
from tests.conftest import FIXTURES, ROOT

PS = FIXTURES / "sites" / "pokerstars"
SAMPLES = FIXTURES / "samples"
REPORT_SCHEMA = json.loads((ROOT / "auditor" / "schemas" / "report.schema.json").read_text())
SARIF_SCHEMA = json.loads((ROOT / "tests" / "fixtures" / "sarif-2.1.0-subset.schema.json").read_text())


def audit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- selectors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--select", "Z999", "unknown rule selector 'Z999'; did you mean"),
        ("--select", "ilegal-reraise", "did you mean illegal-reraise?"),
        ("--select", "B099", "did you mean B009?"),
        ("--ignore", "X", "unknown rule selector 'X'"),
        ("--extend-select", "P9", "unknown rule selector 'P9'"),
        ("--select", "B001,nonsense", "unknown rule selector 'nonsense'"),
    ],
)
def test_unknown_selector_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], flag: str, value: str, message: str
) -> None:
    code, out, err = audit(capsys, str(SAMPLES), flag, value)
    assert code == 2 and out == ""
    assert message in err


@pytest.mark.parametrize(
    ("args", "codes"),
    [
        (["--select", "illegal-reraise"], {"B001"}),
        (["--select", "b001"], {"B001"}),
        (["--select", "P"], {"P002", "P003", "P005"}),
        (["--select", "ALL", "--ignore", "P"], {"B001"}),
        (["--select", "B", "--extend-select", "P003"], {"B001", "P003"}),
        (["--ignore", "ALL"], set()),
        (["--select", "B001", "--ignore", "B"], set()),
    ],
)
def test_selectors(capsys: pytest.CaptureFixture[str], args: list[str], codes: set[str]) -> None:
    _code, out, _ = audit(capsys, str(SAMPLES), "--format", "json", "--isolated", *args)
    doc = json.loads(out)
    assert set(doc["summary"]["by_code"]) == codes
    assert doc["summary"]["ignored"] == 4 - len(codes)


def test_summary_says_what_was_hidden(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _c, out, _ = audit(capsys, str(SAMPLES), "--ignore", "P002,P005", "--fail-on", "none")
    assert out.splitlines()[-1].endswith("; not shown: 2 ignored (--select/--ignore)")
    base = tmp_path / "b.json"
    audit(capsys, str(SAMPLES), "--format", "json", "-o", str(base))
    _c, out, _ = audit(capsys, str(SAMPLES), "--baseline", str(base), "--ignore", "P002")
    assert out.splitlines()[-1].endswith("; not shown: 1 ignored (--select/--ignore), 3 baselined")


# --- configuration ---------------------------------------------------------------------------


def test_config_file_then_flags(capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    (in_tmp / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.hhaudit]\nignore = ["P002"]\nfail-on = "none"\n'
        'per-file-ignores = { "*mixed_export*" = ["P005"] }\n'
    )
    sub = in_tmp / "deeper" / "still"
    sub.mkdir(parents=True)
    os.chdir(sub)  # found by walking up
    code, out, _ = audit(capsys, str(SAMPLES), "--format", "json")
    s = json.loads(out)["summary"]
    assert code == 0 and set(s["by_code"]) == {"B001", "P003"} and s["ignored"] == 2
    # a flag replaces the file's value of the same key
    code, out, _ = audit(capsys, str(SAMPLES), "--format", "json", "--ignore", "P003", "--fail-on", "error")
    s = json.loads(out)["summary"]
    assert code == 1 and set(s["by_code"]) == {"B001", "P002"}
    # hhaudit config says where each setting came from
    assert main(["config", "--fail-on", "warning"]) == 0
    text = capsys.readouterr().out
    assert f'ignore = ["P002"]  # {in_tmp / "pyproject.toml"}' in text
    assert 'fail-on = "warning"  # command line' in text
    assert 'select = ["ALL"]  # default' in text
    # --isolated reads no file
    _c, out, _ = audit(capsys, str(SAMPLES), "--format", "json", "--isolated", "--fail-on", "none")
    assert json.loads(out)["summary"]["ignored"] == 0


def test_hhaudit_toml_and_bad_config(capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    (in_tmp / "hhaudit.toml").write_text('select = ["B"]\nexclude = ["mixed_*"]\n')
    code, out, _ = audit(capsys, str(SAMPLES), "--format", "json")
    s = json.loads(out)["summary"]
    assert s["by_code"] == {"B001": 1} and s["files_excluded"] == 1 and code == 1
    (in_tmp / "hhaudit.toml").write_text('selct = ["B"]\n')
    code, _o, err = audit(capsys, str(SAMPLES))
    assert code == 2 and "unknown setting 'selct'; did you mean 'select'?" in err
    (in_tmp / "hhaudit.toml").write_text('select = ["Q"]\n')
    code, _o, err = audit(capsys, str(SAMPLES))
    assert code == 2 and "unknown rule selector 'Q'" in err
    (in_tmp / "hhaudit.toml").write_text("select = [\n")
    code, _o, err = audit(capsys, str(SAMPLES))
    assert code == 2 and "not valid TOML" in err


# --- flags -----------------------------------------------------------------------------------


def test_exclude_statistics_quiet_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = audit(capsys, str(SAMPLES), "--exclude", "*.xml", "--isolated", "--statistics")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].split() == ["1", "B001", "illegal-reraise", "error"]
    assert "(1 excluded)" in lines[-1] and "P003" not in out
    code, out, _ = audit(capsys, str(SAMPLES), "--isolated", "--quiet", "--exit-zero")
    assert code == 0 and len(out.splitlines()) == 4 and "hands seen" not in out
    code, out, _ = audit(capsys, str(SAMPLES), "--isolated", "--statistics", "--format", "json")
    doc = json.loads(out)
    jsonschema.validate(doc, REPORT_SCHEMA)
    assert [r["code"] for r in doc["statistics"]] == ["B001", "P002", "P003", "P005"]
    assert audit(capsys, str(SAMPLES), "--statistics", "--format", "sarif")[0] == 2


def test_no_input_file_warns_and_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = audit(capsys, str(tmp_path))
    assert code == 2 and out == "" and "warning: no hand-history file found" in err
    (tmp_path / "a.txt").write_text("x")
    code, _o, err = audit(capsys, str(tmp_path), "--exclude", "*.txt")
    assert code == 2 and "(1 excluded)" in err
    assert main(["parse", str(tmp_path / "empty_dir_missing"), "--out", str(tmp_path / "o")]) == 2


def test_output_file_parents_created_or_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "missing" / "dir" / "out.json"
    code, out, _ = audit(capsys, str(PS), "-o", str(target), "--format", "json")
    assert code == 0 and out == "" and json.loads(target.read_text())["schema_version"] == 1
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _o, err = audit(capsys, str(PS), "-o", str(blocker / "out.json"))
    assert code == 2 and err.startswith("hhaudit: cannot write") and "Traceback" not in err


def test_color_and_no_color(capsys: pytest.CaptureFixture[str]) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert color_wanted("auto", Tty(), {}) is True
    assert color_wanted("auto", Tty(), {"NO_COLOR": "1"}) is False
    assert color_wanted("auto", Tty(), {"NO_COLOR": ""}) is True  # empty means unset (no-color.org)
    assert color_wanted("auto", Tty(), {"TERM": "dumb"}) is False
    assert color_wanted("auto", io.StringIO(), {}) is False
    assert color_wanted("always", io.StringIO(), {"NO_COLOR": "1"}) is True  # the flag wins
    assert color_wanted("never", Tty(), {}) is False
    _c, out, _ = audit(capsys, str(SAMPLES), "--isolated", "--color", "always")
    assert "\x1b[31m[error]\x1b[0m" in out and "\x1b[33m[warning]\x1b[0m" in out
    _c, out, _ = audit(capsys, str(SAMPLES), "--isolated")
    assert "\x1b" not in out


def test_severity_in_every_text_line_and_lineless_form(capsys: pytest.CaptureFixture[str]) -> None:
    from auditor.findings import Finding, Severity
    from auditor.output.text import finding_line

    _c, out, _ = audit(capsys, str(SAMPLES), "--isolated")
    for line in out.splitlines()[:-1]:
        assert any(f" [{s}] " in line for s in ("info", "warning", "error")), line
    f = Finding("H001", "duplicate-hand-id", Severity.ERROR, "a.txt", None, None, "twice")
    assert finding_line(f) == "a.txt:0:0: H001 [error] twice"


def test_progress_bar_only_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    from auditor.inputs import progress
    from auditor.pipeline import Summary

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    pipe, tty = io.StringIO(), Tty()
    s = Summary()
    assert list(progress(iter(range(3)), s, 5, pipe)) == [0, 1, 2] and pipe.getvalue() == ""

    def items():  # type: ignore[no-untyped-def]
        for i in range(5):
            s.files = i + 1
            yield i

    assert list(progress(items(), s, 5, tty)) == [0, 1, 2, 3, 4]
    assert "/5 [" in tty.getvalue()
    quiet = Tty()
    assert list(progress(iter(range(3)), s, 5, quiet, enabled=False)) == [0, 1, 2] and quiet.getvalue() == ""
    _c, _out, err = audit(capsys, str(SAMPLES), "--isolated")
    assert "%" not in err  # captured standard error is not a terminal


# --- output safety (issue 11) ----------------------------------------------------------------

EVIL = "x\x1b]0;pwn\x07\x1b[2J\u202ey"  # no line break: the parser would split the line there
EVIL_FILE = "evil\n.txt:1:1: B001 [error] forged\r\x1b[31m\u2028.txt"


def evil_hand(tmp_path: Path, name: str = EVIL, filename: str = "evil.txt") -> Path:
    text = (PS / "cash_nlhe_basic.txt").read_text().replace("dave: calls $0.20", "dave: checks")
    f = tmp_path / filename
    f.write_text(text.replace("bob", name), encoding="utf-8")
    return f


def test_control_characters_never_reach_the_terminal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = evil_hand(tmp_path, filename=EVIL_FILE)
    _c, out, _ = audit(capsys, str(tmp_path), "--isolated")
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out and "\u202e" not in out
    assert "\u2028" not in out
    lines = out.splitlines()
    # four findings (the flop dealt early is a consequence folded into B006): the file name forged no line
    assert len(lines) == 5 and lines[-1].startswith("1 file(s)")
    assert all(line.startswith(visible(str(f)) + ":") for line in lines[:-1])
    assert "evil\\n.txt:1:1: B001 [error] forged\\r\\x1b[31m\\u2028.txt" in lines[0]
    assert visible("a\x1bb") == "a\\x1bb" and visible("C:\\dir\\f.txt") == "C:\\dir\\f.txt"


@pytest.mark.parametrize("name", ["ab\r=HYPERLINK(1)", "ab\n+cmd", "\r=x", "=1+1", "@sum", "a\r\n-2"])
def test_csv_line_breaks_cannot_bypass_the_formula_guard(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    from auditor.findings import Finding, Severity
    from auditor.output.csv_out import CsvFormatter

    buf = io.StringIO()
    w = CsvFormatter(buf)
    w.write(Finding("B006", "impossible-action", Severity.ERROR, "p.txt", 1, 1, f"{name} checks", hand_id=name))
    text = buf.getvalue()
    # a reader that splits rows at any CR or LF (as some importers do) sees no formula either
    for raw in text.replace("\r", "\n").split("\n"):
        for cell in raw.split(","):
            assert not cell.lstrip('"').startswith(("=", "+", "-", "@")), (cell, text)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 2 and len(rows[1]) == 9  # the CR did not end the row
    assert rows[1][4].replace("'", "") == name.replace("'", "")


def test_jsonl_and_json_escape_line_separators(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    evil_hand(tmp_path, filename=EVIL_FILE)
    for fmt in ("jsonl", "json", "sarif"):
        _c, out, _ = audit(capsys, str(tmp_path), "--isolated", "--format", fmt)
        assert "\u2028" not in out, (fmt, out[out.find("\u2028") - 300 :][:400])
        assert "\\u2028" in out or "%E2%80%A8" in out
    _c, out, _ = audit(capsys, str(tmp_path), "--isolated", "--format", "jsonl")
    lines = out.splitlines()
    assert all(json.loads(line) for line in lines)
    assert json.loads(lines[0])["path"].endswith(EVIL_FILE)


# --- JSON schema -----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [[], ["--select", "P"], ["--ignore", "ALL"], ["--statistics"]])
def test_json_and_jsonl_validate_against_the_published_schema(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    paths = [str(SAMPLES), str(FIXTURES / "sites"), str(FIXTURES / "rules")]
    _c, out, _ = audit(capsys, *paths, "--isolated", "--format", "json", *args)
    doc = json.loads(out)
    jsonschema.validate(doc, REPORT_SCHEMA)
    line_schema = {**REPORT_SCHEMA, "$ref": "#/$defs/jsonl_line"}
    for k in ("required", "properties", "oneOf", "additionalProperties", "type"):
        line_schema.pop(k, None)
    _c, out, _ = audit(capsys, *paths, "--isolated", "--format", "jsonl", *args)
    for line in out.splitlines():
        jsonschema.validate(json.loads(line), line_schema)


def test_money_in_finding_data_is_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    _c, out, _ = audit(capsys, str(FIXTURES / "rules"), "--isolated", "--format", "json")
    findings = json.loads(out)["findings"]
    b001 = next(f for f in findings if f["code"] == "B001")
    assert set(b001["data"]["money"]) == {"currency", "decimals", "play_money", "fields"}
    assert b001["data"]["money"]["fields"] == ["actual", "facing", "full_raise"]
    for f in findings:
        m = f["data"].get("money")
        if f["code"] == "B010" or f["code"].startswith(("P", "D", "H")):
            assert m is None, f
        if m:
            assert all(isinstance(f["data"][k], int | list) for k in m["fields"])


def test_schema_is_shipped_in_the_package() -> None:
    from importlib.resources import files

    text = (files("auditor") / "schemas" / "report.schema.json").read_text(encoding="utf-8")
    assert json.loads(text)["properties"]["schema_version"] == {"const": 1}


# --- SARIF, GitHub, JUnit --------------------------------------------------------------------


def test_sarif_validates_and_is_stable(capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    folder = in_tmp / "my exports" / "100% real"
    folder.mkdir(parents=True)
    evil_hand(folder, name="bob")
    (folder / "not.xml").write_text("<xml/>")
    runs = []
    for _ in range(2):
        code, out, _ = audit(capsys, "my exports", "--isolated", "--format", "sarif")
        doc = json.loads(out)
        jsonschema.validate(doc, SARIF_SCHEMA)
        runs.append(doc["runs"][0])
    run = runs[0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == in_tmp.resolve().as_uri() + "/"
    locs = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert {loc["uri"] for loc in locs} == {"my%20exports/100%25%20real/evil.txt", "my%20exports/100%25%20real/not.xml"}
    assert all(loc["uriBaseId"] == "%SRCROOT%" for loc in locs)
    fps = [r["partialFingerprints"]["hhaudit/v1"] for r in run["results"]]
    assert fps == [r["partialFingerprints"]["hhaudit/v1"] for r in runs[1]["results"]] and len(set(fps)) == len(fps)
    import hashlib

    art = {a["location"]["uri"]: a for a in run["artifacts"]}
    evil = art["my%20exports/100%25%20real/evil.txt"]
    assert evil["hashes"]["sha-256"] == hashlib.sha256((folder / "evil.txt").read_bytes()).hexdigest()
    assert locs[0]["index"] == run["artifacts"].index(art[locs[0]["uri"]])
    inv = run["invocations"][0]
    assert inv["exitCode"] == code == 1 and inv["executionSuccessful"] is True
    assert "--format" in inv["arguments"]


def test_github_annotations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    evil_hand(tmp_path, name="b,o:b%x", filename="a,b:c%\nd.txt")
    _c, out, _ = audit(capsys, str(tmp_path), "--isolated", "--format", "github")
    lines = out.splitlines()
    assert lines[0].startswith(
        f"::error file={tmp_path}/a%2Cb%3Ac%25%0Ad.txt,line=14,col=1,title=B006 impossible-action::"
    )
    assert lines[-1].startswith("::notice title=hhaudit::") and len(lines) == 5


def test_junit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    evil_hand(tmp_path)
    _c, out, _ = audit(capsys, str(tmp_path), "--isolated", "--format", "junit")
    root = ET.fromstring(out)
    cases = root.findall("testsuite/testcase")
    assert root.tag == "testsuites" and root.get("failures") == str(len(cases)) == "4"
    b006 = [c for c in cases if c.get("classname") == "B006"]
    assert len(b006) == 1 and b006[0].find("failure") is not None and b006[0].get("line") == "14"
    assert "\x1b" not in out
    _c, out, _ = audit(capsys, str(PS), "--isolated", "--format", "junit", "--ignore", "P009")
    assert ET.fromstring(out).get("failures") == "0"  # (P009: the info notes of the converted fixtures)


def test_junit_holds_a_bounded_number_of_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JUnit report groups its findings by code, so it keeps them until ``close``: as test-case
    text in sorted runs on disk past ``run_rows`` (s11-finish), never more than ``run_rows`` in memory,
    and the same bytes as with every case in memory; its temporary folder is removed."""
    import xml.etree.ElementTree as ET

    from auditor.output.junit import JunitFormatter
    from auditor.pipeline import audit as run_audit

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # (TMPDIR read again)
    s, fs = run_audit([str(FIXTURES / "continuity"), str(FIXTURES / "samples")], select="ALL,T001")
    assert len({f.code for f in fs}) > 3
    texts = []
    for run_rows in (3, 10**9):
        out = io.StringIO()
        fmt = JunitFormatter(out, run_rows=run_rows)
        most = 0
        for f in fs:
            fmt.write(f)
            assert fmt.cases is not None
            most = max(most, len(fmt.cases.held))
        assert fmt.cases is not None
        runs = fmt.cases.store.made
        fmt.close(s)
        texts.append(out.getvalue())
        assert (most, runs > len(fs) // 3 - 1) == ((2, True) if run_rows == 3 else (len(fs), False))
    assert texts[0] == texts[1]
    root = ET.fromstring(texts[0])
    assert len(root.findall("testsuite/testcase")) == len(fs) == int(root.get("failures") or 0)
    assert not list(tmp_path.iterdir())


# --- rules and profiles ----------------------------------------------------------------------


def test_rules_align_long_names(capsys: pytest.CaptureFixture[str]) -> None:
    from auditor.findings import RULES

    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(RULES)
    starts = {line.index(" " + str(r.severity) + " ") for line in lines for r in [RULES[line[:4]]]}
    assert len(starts) == 1, "the severity column starts at the same place on every line"
    assert main(["rules", "illegal-reraise"]) == 0 and capsys.readouterr().out.startswith("B001 illegal-reraise")


def test_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    from auditor.profiles import PROFILES

    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in PROFILES)
    assert "fl-cap-raises=3" in out
    assert main(["profiles", "tda"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"pl-preflop-blinds +assume_full +\(differs from the default\)", out)
    assert "B001  TDA 2026 Rule 49-A (2024: 47-A)" in out
    assert main(["profiles", "tdaa"]) == 2 and "did you mean tda?" in capsys.readouterr().err
