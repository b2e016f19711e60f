"""Output formatters, one module per format.  Each formatter streams: it gets findings one by one
(``write``) and the summary at the end (``close``), so memory does not grow with the input."""

from __future__ import annotations

from typing import Protocol, TextIO

from auditor.findings import Finding
from auditor.pipeline import Summary


class Formatter(Protocol):
    def __init__(self, out: TextIO) -> None: ...
    def write(self, finding: Finding) -> None: ...
    def close(self, summary: Summary) -> None: ...


def formatter(name: str, out: TextIO) -> Formatter:
    from auditor.output import csv_out, json_out, sarif, text

    table: dict[str, type] = {
        "text": text.TextFormatter,
        "json": json_out.JsonFormatter,
        "jsonl": json_out.JsonlFormatter,
        "sarif": sarif.SarifFormatter,
        "csv": csv_out.CsvFormatter,
    }
    try:
        return table[name](out)  # type: ignore[no-any-return]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(table)}") from None


FORMATS = ("text", "json", "jsonl", "sarif", "csv")
