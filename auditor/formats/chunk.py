"""A chunk: the text of one hand as it was split from its file, before any reader looks at it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one hand: its site, file, and the file line number of its first line."""

    path: str
    site: str
    first_line: int
    lines: tuple[str, ...]
    overflow: bool = False
    # what a document reader needs besides the hand's own lines (an XML session's header), as text
    context: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
