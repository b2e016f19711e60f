"""JSON (one object: ``findings`` then ``summary``, streamed) and JSON Lines."""

from __future__ import annotations

import json
from typing import TextIO

from auditor.findings import Finding
from auditor.pipeline import Summary


class JsonFormatter:
    """``{"findings": [...], "summary": {...}}`` written as the findings arrive."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.n = 0
        out.write('{"findings": [')

    def write(self, f: Finding) -> None:
        self.out.write(("," if self.n else "") + "\n  " + json.dumps(f.as_dict(), ensure_ascii=False))
        self.n += 1

    def close(self, s: Summary) -> None:
        self.out.write(("\n" if self.n else "") + '], "summary": ' + json.dumps(s.as_dict()) + "}\n")


class JsonlFormatter:
    """One JSON object per finding; the last line is ``{"summary": {...}}``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, f: Finding) -> None:
        self.out.write(json.dumps(f.as_dict(), ensure_ascii=False) + "\n")

    def close(self, s: Summary) -> None:
        self.out.write(json.dumps({"summary": s.as_dict()}) + "\n")
