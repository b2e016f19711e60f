"""SARIF 2.1.0, for code-scanning dashboards: one run, the rule catalogue, one result a finding."""

from __future__ import annotations

import json
from typing import TextIO

from auditor import __version__
from auditor.findings import RULES, Finding, Severity
from auditor.pipeline import Summary

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


class SarifFormatter:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.n = 0
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
        head = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "hhaudit", "version": __version__, "rules": rules}}}],
        }
        text = json.dumps(head, ensure_ascii=False)
        # stream the results into the run: everything up to the run's closing braces, then results
        out.write(text[: -len("}]}")] + ', "results": [')

    def write(self, f: Finding) -> None:
        region = {"startLine": f.line or 1, "startColumn": f.column or 1}
        result = {
            "ruleId": f.code,
            "level": _LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path}, "region": region}}],
            "properties": {"site": f.site, "hand_id": f.hand_id, **f.data},
        }
        self.out.write(("," if self.n else "") + "\n  " + json.dumps(result, ensure_ascii=False, default=str))
        self.n += 1

    def close(self, s: Summary) -> None:
        props = json.dumps({"summary": s.as_dict()})
        self.out.write(f'\n], "properties": {props}}}]}}\n')
