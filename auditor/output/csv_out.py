"""CSV for spreadsheets, one finding a row.

Player names and hand text are attacker-controlled, so every cell is made inert:

* a cell that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a
  tab or a carriage return) gets a leading apostrophe — and so does every line of a cell that
  starts with one of those after a CR or LF, for importers that split cells at line breaks;
* a row holding a CR or LF anywhere is written with every field quoted, so a bare CR can neither
  end the row early nor start a new, unguarded one.
"""

from __future__ import annotations

import csv
import re
from typing import TextIO

from auditor.findings import Finding
from auditor.output import Options
from auditor.pipeline import Summary

COLUMNS = ("code", "name", "severity", "site", "hand_id", "path", "line", "column", "message")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_AFTER_BREAK = re.compile(r"([\r\n])(?=[=+\-@\t])")


def safe(value: object) -> str:
    text = "" if value is None else str(value)
    text = _AFTER_BREAK.sub(r"\1'", text)
    return "'" + text if text.startswith(_FORMULA) else text


class CsvFormatter:
    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.w = csv.writer(out, lineterminator="\n")
        self.all = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
        self.w.writerow(COLUMNS)

    def write(self, f: Finding) -> None:
        d = f.as_dict()
        row = [safe(d[c]) for c in COLUMNS]
        (self.all if any("\r" in c or "\n" in c for c in row) else self.w).writerow(row)

    def close(self, s: Summary) -> None:
        """The summary is not part of the table (it would break column types); see --format json."""
