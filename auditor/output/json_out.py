"""JSON (one object: ``schema_version``, ``findings`` then ``summary``, streamed) and JSON Lines.

The shape is published as a JSON Schema, ``auditor/schemas/report.schema.json`` (shipped in the
wheel); ``schema_version`` says which version of it a report follows.  Strings are written as
UTF-8, except U+2028 and U+2029, which are escaped (raw, they break lines for some readers).
With ``--statistics`` the report carries ``statistics`` (count by code) instead of ``findings``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from auditor.findings import RULES, Finding
from auditor.output import SCHEMA_VERSION, Options
from auditor.output.safe import json_line_safe
from auditor.pipeline import Summary


def dumps(obj: Any) -> str:
    """Compact-enough JSON text, UTF-8, with the line separators escaped."""
    return json_line_safe(json.dumps(obj, ensure_ascii=False, default=str))


def statistics(stats: Counter[str]) -> list[dict[str, Any]]:
    return [
        {"code": c, "name": RULES[c].name if c in RULES else None,
         "severity": str(RULES[c].severity) if c in RULES else None, "count": n}
        for c, n in sorted(stats.items(), key=lambda kv: (-kv[1], kv[0]))
    ]  # fmt: skip


class JsonFormatter:
    """``{"schema_version": 1, "findings": [...], "summary": {...}}`` written as the findings arrive."""

    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.out = out
        self.opt = options or Options()
        self.n = 0
        self.stats: Counter[str] = Counter()
        key = "statistics" if self.opt.statistics else "findings"
        out.write(f'{{"schema_version": {SCHEMA_VERSION}, "{key}": [')

    def write(self, f: Finding) -> None:
        if self.opt.statistics:
            self.stats[f.code] += 1
            return
        self.out.write(("," if self.n else "") + "\n  " + dumps(f.as_dict()))
        self.n += 1

    def close(self, s: Summary) -> None:
        if self.opt.statistics:
            rows = statistics(self.stats)
            self.out.write("".join(("," if i else "") + "\n  " + dumps(r) for i, r in enumerate(rows)))
            self.n = len(rows)
        self.out.write(("\n" if self.n else "") + '], "summary": ' + dumps(s.as_dict()) + "}\n")


class JsonlFormatter:
    """One JSON object per finding; the last line is ``{"summary": {...}, "schema_version": 1}``."""

    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.out = out
        self.opt = options or Options()
        self.stats: Counter[str] = Counter()

    def write(self, f: Finding) -> None:
        if self.opt.statistics:
            self.stats[f.code] += 1
            return
        self.out.write(dumps(f.as_dict()) + "\n")

    def close(self, s: Summary) -> None:
        for r in statistics(self.stats):
            self.out.write(dumps({"statistic": r}) + "\n")
        self.out.write(dumps({"summary": s.as_dict(), "schema_version": SCHEMA_VERSION}) + "\n")
