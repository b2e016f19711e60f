"""``path:line:col: CODE message``, one finding a line, then a summary line."""

from __future__ import annotations

from typing import TextIO

from auditor.findings import Finding
from auditor.pipeline import Summary


class TextFormatter:
    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, f: Finding) -> None:
        where = f.path
        if f.line is not None:
            where += f":{f.line}:{f.column or 1}"
        hand = f" [hand {f.hand_id}]" if f.hand_id else ""
        self.out.write(f"{where}: {f.code} {f.message}{hand}\n")

    def close(self, s: Summary) -> None:
        codes = ", ".join(f"{k} {v}" for k, v in sorted(s.by_code.items())) or "none"
        skipped = f" ({s.files_skipped} sidecar file(s) skipped)" if s.files_skipped else ""
        self.out.write(
            f"{s.files} file(s){skipped}, {s.hands_seen} hands seen, {s.hands_parsed} parsed, "
            f"{s.hands_failed} failed; {s.findings} finding(s): {codes}\n"
        )
