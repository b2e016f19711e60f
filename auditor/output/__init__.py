"""Output formatters, one module per format.  Each formatter streams: it gets findings one by one
(``write``) and the summary at the end (``close``), so memory does not grow with the input.

Every formatter is built with the :class:`Options` of the run (colour, quiet, statistics, the
command line); the command sets ``options.exit_code`` before ``close`` so that formats recording
the invocation (SARIF, JUnit) can write it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from auditor.findings import Finding
from auditor.pipeline import Summary

SCHEMA_VERSION = 1
"""The version of the JSON report shape (``auditor/schemas/report.schema.json``): raised when a
field is removed or changes meaning; new fields may appear without a new version."""


@dataclass
class RunSummary(Summary):
    """The pipeline's counts, plus what the command hid and where findings fell."""

    ignored: int = 0  # findings dropped by select / ignore / per-file-ignores
    excluded: int = 0  # files dropped by --exclude
    by_severity: Counter[str] = field(default_factory=Counter)
    findings_by_site: Counter[str] = field(default_factory=Counter)

    def count(self, f: Finding) -> None:
        """Record a finding that is reported."""
        self.by_severity[str(f.severity)] += 1
        self.findings_by_site[f.site or "unknown"] += 1

    def as_dict(self) -> dict[str, Any]:
        d = super().as_dict()
        d.update(
            hands_by_site=d["by_site"],
            findings_by_site=dict(sorted(self.findings_by_site.items())),
            findings_by_severity=dict(sorted(self.by_severity.items())),
            ignored=self.ignored,
            files_excluded=self.excluded,
        )
        return d


@dataclass
class Options:
    """How the report is written; filled from the command line and the configuration."""

    color: bool = False
    quiet: bool = False
    statistics: bool = False
    argv: list[str] = field(default_factory=lambda: list(sys.argv))
    root: str = field(default_factory=os.getcwd)  # SARIF %SRCROOT%: paths are written relative to it
    exit_code: int | None = None  # set by the command before close()


class Formatter(Protocol):
    def write(self, finding: Finding) -> None: ...
    def close(self, summary: Summary) -> None: ...


FORMATS = ("text", "json", "jsonl", "sarif", "csv", "github", "junit")


def formatter(name: str, out: TextIO, options: Options | None = None) -> Formatter:
    # (module, class) of each format: only the chosen one's module is imported (start-up, issue 16)
    table: dict[str, tuple[str, str]] = {
        "text": ("text", "TextFormatter"),
        "json": ("json_out", "JsonFormatter"),
        "jsonl": ("json_out", "JsonlFormatter"),
        "sarif": ("sarif", "SarifFormatter"),
        "csv": ("csv_out", "CsvFormatter"),
        "github": ("github", "GithubFormatter"),
        "junit": ("junit", "JunitFormatter"),
    }
    try:
        module, cls_name = table[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(table)}") from None
    cls: type = getattr(importlib.import_module(f"auditor.output.{module}"), cls_name)
    return cls(out, options or Options())  # type: ignore[no-any-return]


def color_wanted(mode: str, stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """``--color``: ``always``, ``never``, or ``auto`` — colour on a terminal unless ``NO_COLOR``
    is set to a non-empty value (https://no-color.org) or ``TERM=dumb``.  An explicit ``always``
    wins over ``NO_COLOR`` (a flag overrides the environment)."""
    env = os.environ if environ is None else environ
    if mode == "always":
        return True
    if mode == "never" or env.get("NO_COLOR", ""):
        return False
    if env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
