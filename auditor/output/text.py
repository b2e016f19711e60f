"""``path:line:col: CODE [severity] message [hand ID]``, one finding a line, then a summary line.

A finding that concerns a whole file or hand rather than one line (no line number) is written
``path:0:0:``.  Every piece of input text (paths, messages, hand ids) goes through
:func:`~auditor.output.safe.visible`, so control characters are printed escaped, never raw.
With ``--statistics`` the findings are counted by code instead of listed; with ``--quiet`` the
summary line is left out.
"""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from auditor.findings import RULES, Finding, Severity
from auditor.output import Options, RunSummary
from auditor.output.safe import visible
from auditor.pipeline import Summary

_SEV_COLOR = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFO: "36"}


def _c(on: bool, code: str, text: str) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if on else text


def finding_line(f: Finding, color: bool = False) -> str:
    """One finding as a text line (without the line break)."""
    where = f"{visible(f.path)}:{f.line if f.line is not None else 0}:{(f.column or 1) if f.line is not None else 0}"
    hand = f" [hand {visible(f.hand_id)}]" if f.hand_id else ""
    sev = _c(color, _SEV_COLOR[f.severity], f"[{f.severity}]")
    return f"{_c(color, '1', where)}: {_c(color, '1', f.code)} {sev} {visible(f.message)}{hand}"


def summary_line(s: Summary) -> str:
    codes = ", ".join(f"{k} {v}" for k, v in sorted(s.by_code.items())) or "none"
    skipped = f" ({s.files_skipped} sidecar file(s) skipped)" if s.files_skipped else ""
    hidden = []
    if isinstance(s, RunSummary):
        if s.excluded:
            skipped += f" ({s.excluded} excluded)"
        if s.ignored:
            hidden.append(f"{s.ignored} ignored (--select/--ignore)")
    if s.baselined:
        hidden.append(f"{s.baselined} baselined")
    tail = f"; not shown: {', '.join(hidden)}" if hidden else ""
    return (
        f"{s.files} file(s){skipped}, {s.hands_seen} hands seen, {s.hands_parsed} parsed, "
        f"{s.hands_failed} failed; {s.findings} finding(s): {codes}{tail}"
    )


class TextFormatter:
    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.out = out
        self.opt = options or Options()
        self.stats: Counter[str] = Counter()

    def write(self, f: Finding) -> None:
        if self.opt.statistics:
            self.stats[f.code] += 1
            return
        self.out.write(finding_line(f, self.opt.color) + "\n")

    def close(self, s: Summary) -> None:
        if self.opt.statistics:
            self.out.write(statistics_table(self.stats))
        if not self.opt.quiet:
            self.out.write(summary_line(s) + "\n")


def statistics_table(stats: Counter[str]) -> str:
    """``count  code  name  severity``, most frequent first (``--statistics``)."""
    if not stats:
        return ""
    rows = sorted(stats.items(), key=lambda kv: (-kv[1], kv[0]))
    width = max(len(str(n)) for _c, n in rows)
    name_w = max(len(RULES[c].name) if c in RULES else 0 for c, _n in rows)
    out = []
    for code, n in rows:
        r = RULES.get(code)
        name, sev = (r.name, str(r.severity)) if r else ("", "")
        out.append(f"{n:>{width}}  {code}  {name:<{name_w}}  {sev}".rstrip() + "\n")
    return "".join(out)
