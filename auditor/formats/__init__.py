"""Formats: how hand histories of each site are recognised and read into the canonical Hand.

* :mod:`~auditor.formats.registry`: one *format card* per format (detection, reader, export
  facts, house rules);
* :mod:`~auditor.formats.assembler`: the format-independent hand assembler every reader feeds;
* :mod:`~auditor.formats.peg`: the reader of text formats (composed parsimonious grammars);
* :mod:`~auditor.formats.money`, :mod:`~auditor.formats.vocab`: amounts, and the words sites share.

:func:`parse_chunk` reads one hand of any registered format.
"""

from __future__ import annotations

from collections.abc import Iterator

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats import parsimonious_light
from auditor.formats.chunk import Chunk
from auditor.formats.facts import ExportFacts
from auditor.formats.registry import REGISTRY, Format, Registry

# parsimonious's expressions without its package __init__ until it is needed (start-up, issue 16)
parsimonious_light.install()

__all__ = ["REGISTRY", "Chunk", "ExportFacts", "Format", "Registry", "parse_chunk", "parse_text"]


def parse_chunk(chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
    """Read one hand with its format's reader.  Returns the Hand (or None when it cannot be read)
    and the findings of reading it (P-codes); a hand cut short before its summary gets P005."""
    if chunk.overflow:
        from auditor.formats.peg import quick_id

        return None, [
            F.make(
                "P001",
                chunk.path,
                chunk.first_line,
                1,
                f"hand is longer than the {len(chunk.lines)}-line limit; it was not read",
                site=chunk.site,
                hand_id=quick_id(chunk.lines[0] if chunk.lines else ""),
            )
        ]
    hand, found = REGISTRY[chunk.site].reader.read(chunk)
    if hand is not None and not hand.complete:
        found.append(
            F.make(
                "P005",
                chunk.path,
                hand.last_line,
                1,
                "the hand ends before its summary: the export is cut short",
                site=chunk.site,
                hand_id=hand.hand_id,
            )
        )
    return hand, found


def parse_text(text: str, path: str = "<text>") -> Iterator[M.Hand | Finding]:
    """Parse every hand in a string; yields Hands and Findings in order (tests, tools)."""
    from auditor.ingest import read_text

    for item in read_text(text, path):
        if isinstance(item, Finding):
            yield item
            continue
        hand, fs = parse_chunk(item)
        yield from fs
        if hand is not None:
            yield hand
