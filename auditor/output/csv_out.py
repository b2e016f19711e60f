"""CSV for spreadsheets, one finding a row; cells that a spreadsheet would run as a formula
(starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) are neutralised with a
leading apostrophe — player names and hand text are attacker-controlled."""

from __future__ import annotations

import csv
from typing import TextIO

from auditor.findings import Finding
from auditor.pipeline import Summary

COLUMNS = ("code", "name", "severity", "site", "hand_id", "path", "line", "column", "message")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA) else text


class CsvFormatter:
    def __init__(self, out: TextIO) -> None:
        self.w = csv.writer(out, lineterminator="\n")
        self.w.writerow(COLUMNS)

    def write(self, f: Finding) -> None:
        d = f.as_dict()
        self.w.writerow([safe(d[c]) for c in COLUMNS])

    def close(self, s: Summary) -> None:
        """The summary is not part of the table (it would break column types); see --format json."""
