"""GitHub Actions workflow commands: ``::error file=PATH,line=N,col=C,title=CODE name::message``.

A workflow step that runs ``hhaudit audit ... --format github`` gets every finding as an
annotation on the file and line (errors as ``error``, warnings as ``warning``, info as ``notice``).
Property values and messages are escaped as the runner expects (``%``, CR, LF, and in
properties ``:`` and ``,``), so input text cannot end an annotation or start a new command.
The summary is written as a ``notice`` without a file.
"""

from __future__ import annotations

from typing import TextIO

from auditor.findings import Finding, Severity
from auditor.output import Options
from auditor.output.text import summary_line
from auditor.pipeline import Summary

_CMD = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubFormatter:
    def __init__(self, out: TextIO, options: Options | None = None) -> None:
        self.out = out
        self.opt = options or Options()

    def write(self, f: Finding) -> None:
        props = [f"file={escape_property(f.path)}"]
        if f.line is not None:
            props += [f"line={f.line}", f"col={f.column or 1}"]
        props.append(f"title={escape_property(f'{f.code} {f.name}')}")
        hand = f" [hand {f.hand_id}]" if f.hand_id else ""
        self.out.write(f"::{_CMD[f.severity]} {','.join(props)}::{escape_data(f.message + hand)}\n")

    def close(self, s: Summary) -> None:
        if not self.opt.quiet:
            self.out.write(f"::notice title=hhaudit::{escape_data(summary_line(s))}\n")
