"""JUnit XML, for CI systems that show test reports: one test suite per rule code that fired,
one failing test case per finding (named by file, line and hand).  A clean run is one suite
``hhaudit`` with a single passing case, so the report always shows that the audit ran.

The document is built in memory (one element per finding) and written at ``close``; XML cannot
hold most control characters, so they are replaced by their visible escapes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from typing import TextIO

from auditor.findings import RULES, Finding
from auditor.output import Options
from auditor.output.safe import visible
from auditor.output.text import finding_line
from auditor.pipeline import Summary


def _x(text: str) -> str:
    return visible(text)


class JunitFormatter:
    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.out = out
        self.opt = options or Options()
        self.by_code: dict[str, list[Finding]] = defaultdict(list)

    def write(self, f: Finding) -> None:
        self.by_code[f.code].append(f)

    def close(self, s: Summary) -> None:
        total = sum(len(v) for v in self.by_code.values())
        root = ET.Element("testsuites", name="hhaudit", tests=str(max(total, 1)), failures=str(total))
        if not self.by_code:
            suite = ET.SubElement(root, "testsuite", name="hhaudit", tests="1", failures="0")
            ET.SubElement(suite, "testcase", classname="hhaudit", name="audit")
        for code in sorted(self.by_code):
            fs = self.by_code[code]
            name = f"{code} {RULES[code].name}" if code in RULES else code
            suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(fs)), failures=str(len(fs)))
            for f in fs:
                where = f"{f.path}:{f.line or 0}" + (f" hand {f.hand_id}" if f.hand_id else "")
                case = ET.SubElement(suite, "testcase", classname=code, name=_x(where), file=_x(f.path))
                if f.line is not None:
                    case.set("line", str(f.line))
                fail = ET.SubElement(case, "failure", type=str(f.severity), message=_x(f.message))
                fail.text = finding_line(f)
        ET.indent(root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n")
