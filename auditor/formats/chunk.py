"""A chunk: the text of one hand as it was split from its file, before any reader looks at it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from auditor import findings as F
from auditor.fastinit import by_fields, frozen_class
from auditor.findings import Finding


@dataclass(slots=True, unsafe_hash=True)  # frozen: see the end of the module
class Chunk:
    """The text of one hand: its site, file, and the file line number of its first line.

    Built once a hand by the splitter and read by every reader.  Frozen as the model's events are
    (``auditor/model.py``): declared ``unsafe_hash=True`` with its own ``__init__`` and made frozen
    after the class (:func:`~auditor.fastinit.frozen_class`), so the compiled build (mypyc) stores
    its fields natively and the readers read them as native attributes (issue 16); pickled through
    its constructor.
    """

    path: str
    site: str
    first_line: int
    lines: tuple[str, ...]
    overflow: bool = False
    # what a document reader needs besides the hand's own lines (an XML session's header), as text
    context: tuple[str, ...] = ()

    def __init__(self, path: str, site: str, first_line: int, lines: tuple[str, ...], overflow: bool = False,
                 context: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.path = path
        self.site = site
        self.first_line = first_line
        self.lines = lines
        self.overflow = overflow
        self.context = context

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


frozen_class(Chunk)


def split_elements(lines: Iterable[tuple[int, str] | Finding], path: str, site: str, title: str,
                   start: re.Pattern[str], end: re.Pattern[str], quiet: re.Pattern[str],
                   trim: bool = False) -> Iterator[Chunk | Finding]:  # fmt: skip
    """Split an XML export with one element per hand (Microgaming ``<Game>``, Boss Media
    ``<HISTORY>``) into chunks, from the line ``start`` finds to the line ``end`` finds.  A hand
    cut short ends where the next begins; a line outside every hand is a P002 unless ``quiet``
    matches it.  ``trim``: text before the start tag and after the end tag on their lines is
    left out."""
    first: int | None = None
    buf: list[str] = []
    for item in lines:
        if isinstance(item, Finding):
            yield item
            continue
        lineno, text = item
        m = start.search(text) if trim else start.match(text)
        if m is not None:
            if first is not None:  # a hand cut short: the next hand begins before its end tag
                yield Chunk(path, site, first, tuple(buf))
            first, buf = lineno, []
            if trim:
                text = text[m.start() :]
        if first is not None:
            e = end.search(text)
            buf.append(text[: e.end()] if e and trim else text)
            if e:
                yield Chunk(path, site, first, tuple(buf))
                first, buf = None, []
            continue
        if not quiet.match(text):
            yield F.make("P002", path, lineno, 1, f"line outside any {title} hand: {text.strip()[:120]!r}", site=site)
    if first is not None:
        yield Chunk(path, site, first, tuple(buf))
