"""JUnit XML, for CI systems that show test reports: one test suite per rule code that fired,
one failing test case per finding (named by file, line and hand).  A clean run is one suite
``hhaudit`` with a single passing case, so the report always shows that the audit ran.

The suites come in code order and their counts come first, so nothing can be written before
``close``; each finding's test case is made into its XML text when it arrives and kept in a
:class:`auditor.spillsort.RowSpill` (sorted runs on disk past :data:`RUN_ROWS` cases, in a private
temporary folder), not as a ``Finding`` in memory: a run's findings grow with the run (issue 16,
s11-finish).  The text is what ``xml.etree.ElementTree`` writes for the whole document indented
(``ET.indent``); XML cannot hold most control characters, so they are replaced by their visible
escapes.
"""

from __future__ import annotations

import contextlib
import operator
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import TextIO

from auditor.findings import RULES, Finding
from auditor.output import Options
from auditor.output.safe import visible
from auditor.output.text import finding_line
from auditor.pipeline import Summary
from auditor.spillsort import RowSpill

#: Test cases (their XML text) held in memory before a sorted run of them is written to disk.
RUN_ROWS = 2_000
_INDENT = "  "


def _x(text: str) -> str:
    return visible(text)


def case_xml(f: Finding) -> str:
    """``f``'s ``<testcase>`` element, indented as at its depth in the document, without its tail."""
    where = f"{f.path}:{f.line or 0}" + (f" hand {f.hand_id}" if f.hand_id else "")
    case = ET.Element("testcase", classname=f.code, name=_x(where), file=_x(f.path))
    if f.line is not None:
        case.set("line", str(f.line))
    fail = ET.SubElement(case, "failure", type=str(f.severity), message=_x(f.message))
    fail.text = finding_line(f)
    ET.indent(case, _INDENT, level=2)
    case.tail = None
    return ET.tostring(case, encoding="unicode")


class JunitFormatter:
    def __init__(self, out: TextIO, options: Options | None = None, run_rows: int = RUN_ROWS) -> None:
        self.out = out
        self.opt = options or Options()
        self.run_rows = run_rows
        self.counts: Counter[str] = Counter()
        self.cases: RowSpill | None = None  # (code, XML text) of each finding, made at the first

    def write(self, f: Finding) -> None:
        if self.cases is None:
            import tempfile

            tmp = Path(tempfile.mkdtemp(prefix="hhaudit-junit-"))
            self.cases = RowSpill(tmp, operator.itemgetter(0), run_rows=self.run_rows)
        self.counts[f.code] += 1
        self.cases.add((f.code, case_xml(f)))

    def close(self, s: Summary) -> None:
        total = sum(self.counts.values())
        w = self.out.write
        w('<?xml version="1.0" encoding="UTF-8"?>\n')
        w(f'<testsuites name="hhaudit" tests="{max(total, 1)}" failures="{total}">')
        if self.cases is None:
            w('\n  <testsuite name="hhaudit" tests="1" failures="0">\n    <testcase classname="hhaudit" name="audit" />'
              "\n  </testsuite>\n</testsuites>\n")  # fmt: skip
            return
        try:
            code = None
            for c, text in self.cases.sorted():  # (stable: each code's cases in the order they came)
                if c != code:
                    if code is not None:
                        w("\n  </testsuite>")
                    code = c
                    n = self.counts[c]
                    name = f"{c} {RULES[c].name}" if c in RULES else c
                    head = ET.tostring(ET.Element("testsuite", name=name, tests=str(n), failures=str(n)),
                                       encoding="unicode")  # fmt: skip
                    w("\n  " + head[: -len(" />")] + ">")
                w("\n    " + text)
            w("\n  </testsuite>\n</testsuites>\n")
        finally:
            self.cases.close()
            with contextlib.suppress(OSError):
                self.cases.tmp.rmdir()
