"""What a command hid from its report, said on the report's first screen (issue 14): the rule
selectors, per-file ignores, the baseline and excluded files, with the number each one hid."""

from __future__ import annotations

from typing import Any

from auditor.report.views import FilterNote


def _n(count: int, what: str) -> str:
    return f"{count:,} {what}{'' if count == 1 else 's'}"


def filter_notes(st: Any, summary: Any, baseline: str | None) -> list[FilterNote]:
    """The filters of an ``audit`` run: ``st`` its settings (:class:`auditor.config.Settings`),
    ``summary`` its :class:`auditor.output.RunSummary`.  An empty list: nothing was hidden."""
    notes: list[FilterNote] = []
    ignored = int(getattr(summary, "ignored", 0))
    sel: list[str] = []
    if list(st["select"]) != ["ALL"]:
        sel.append(f"--select {','.join(st['select'])}")
    if st["extend-select"]:
        sel.append(f"--extend-select {','.join(st['extend-select'])}")
    if st["ignore"]:
        sel.append(f"--ignore {','.join(st['ignore'])}")
    for glob, codes in st["per-file-ignores"].items():
        sel.append(f"per-file-ignores {glob} = {','.join(codes)}")
    if sel or ignored:
        notes.append(FilterNote("rule selectors: " + "; ".join(sel or ["(from the configuration)"]),
                                f"{_n(ignored, 'finding')} hidden"))  # fmt: skip
    if baseline:
        notes.append(FilterNote(f"baseline {baseline}: findings it already lists are accepted",
                                f"{_n(int(summary.baselined), 'finding')} hidden"))  # fmt: skip
    excluded = int(getattr(summary, "excluded", 0))
    if st["exclude"] or excluded:
        notes.append(FilterNote(f"--exclude {','.join(st['exclude'])}", f"{_n(excluded, 'file')} not read"))
    return notes
