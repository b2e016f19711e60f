"""SARIF 2.1.0, for code-scanning dashboards: one run, the rule catalogue, one result a finding.

* Locations are relative URIs (percent-encoded with :func:`urllib.parse.quote`) against the
  ``%SRCROOT%`` base, which ``originalUriBaseIds`` sets to the working directory; a file outside
  it is written as an absolute ``file://`` URI.
* ``partialFingerprints["hhaudit/v1"]`` is a SHA-256 of the code, site, hand id (or the file for a
  finding outside a hand) and message: the same finding gets the same fingerprint on every run,
  wherever the hand moved in its file.
* ``artifacts`` lists every file read, with its length and SHA-256; ``invocations`` records the
  command line, the working directory and the exit status.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from auditor import __version__
from auditor.findings import RULES, Finding, Severity
from auditor.output import Options
from auditor.output.safe import json_line_safe
from auditor.pipeline import Summary

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
BASE_ID = "%SRCROOT%"


def file_uri(path: str) -> str:
    """An absolute ``file://`` URI, percent-encoded."""
    return Path(os.path.abspath(path)).as_uri()


def artifact_location(path: str, root: str) -> dict[str, Any]:
    """A SARIF artifactLocation: relative to ``%SRCROOT%`` when the file is under ``root``."""
    if path == "-":
        return {"uri": "stdin"}
    full = os.path.abspath(path)
    rootp = os.path.abspath(root)
    try:
        rel = os.path.relpath(full, rootp)
    except ValueError:  # another drive
        rel = ".."
    if rel == ".." or rel.startswith(".." + os.sep):
        return {"uri": file_uri(full)}
    return {"uri": quote(Path(rel).as_posix(), safe="/"), "uriBaseId": BASE_ID}


def fingerprint(f: Finding, root: str) -> str:
    where = f.hand_id or artifact_location(f.path, root)["uri"]
    key = "\0".join([f.code, f.site or "", where, f.message])
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _sha256(path: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def _dumps(obj: Any) -> str:
    return json_line_safe(json.dumps(obj, ensure_ascii=False, default=str))


class SarifFormatter:
    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.out = out
        self.opt = options or Options()
        self.n = 0
        self.index: dict[str, int] = {}  # path -> artifact index, in order of first mention
        rules = [
            {
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.doc},
                "help": {"text": r.doc},
                "defaultConfiguration": {"level": _LEVEL[r.severity]},
            }
            for r in sorted(RULES.values(), key=lambda r: r.code)
        ]
        self.rule_index = {r["id"]: i for i, r in enumerate(rules)}
        root = os.path.abspath(self.opt.root)
        head = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {"driver": {"name": "hhaudit", "version": __version__,
                                        "informationUri": "https://github.com/hhaudit/hhaudit", "rules": rules}},
                    "originalUriBaseIds": {BASE_ID: {"uri": Path(root).as_uri().rstrip("/") + "/"}},
                    "columnKind": "unicodeCodePoints",
                }
            ],
        }  # fmt: skip
        text = _dumps(head)
        # stream the results into the run: everything up to the run's closing braces, then results
        out.write(text[: -len("}]}")] + ', "results": [')

    def _artifact(self, path: str) -> dict[str, Any]:
        loc = artifact_location(path, self.opt.root)
        if path != "-":
            loc["index"] = self.index.setdefault(path, len(self.index))
        return loc

    def write(self, f: Finding) -> None:
        phys: dict[str, Any] = {"artifactLocation": self._artifact(f.path)}
        if f.line is not None and f.line >= 1:
            phys["region"] = {"startLine": f.line, "startColumn": f.column or 1}
        result = {
            "ruleId": f.code,
            "ruleIndex": self.rule_index.get(f.code, -1),
            "level": _LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": phys}],
            "partialFingerprints": {"hhaudit/v1": fingerprint(f, self.opt.root)},
            "properties": {"site": f.site, "hand_id": f.hand_id, **f.data},
        }
        self.out.write(("," if self.n else "") + "\n  " + _dumps(result))
        self.n += 1

    def close(self, s: Summary) -> None:
        sizes = {i.path: i.size for i in s.file_infos}
        for p in sizes:
            if p != "-":
                self.index.setdefault(p, len(self.index))
        artifacts = []
        for path, _i in sorted(self.index.items(), key=lambda kv: kv[1]):
            a: dict[str, Any] = {"location": artifact_location(path, self.opt.root)}
            if path in sizes and sizes[path] >= 0:
                a["length"] = sizes[path]
            digest = _sha256(path)
            if digest:
                a["hashes"] = {"sha-256": digest}
            artifacts.append(a)
        code = self.opt.exit_code
        invocation: dict[str, Any] = {
            "commandLine": " ".join(self.opt.argv),
            "arguments": list(self.opt.argv[1:]),
            "executionSuccessful": code is not None and code != 2,
            "workingDirectory": {"uri": Path(os.path.abspath(self.opt.root)).as_uri()},
        }
        if code is not None:
            invocation["exitCode"] = code
        tail = {"artifacts": artifacts, "invocations": [invocation], "properties": {"summary": s.as_dict()}}
        self.out.write("\n], " + _dumps(tail)[1:] + "]}\n")
