"""The input files of a command: directories expanded, ``--exclude`` applied, progress shown.

Files are listed before any is read, so the progress bar knows its total and an empty input is
reported up front.  ``--exclude`` applies to files found under a directory; a file named on the
command line is always read (as for sidecar files, see :func:`auditor.ingest.expand_paths`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, TypeVar

from auditor.config import matches
from auditor.ingest import expand_paths
from auditor.pipeline import Summary

T = TypeVar("T")


@dataclass
class Inputs:
    files: list[str] = field(default_factory=list)
    skipped: int = 0  # sidecar files skipped under directories
    excluded: int = 0  # files dropped by --exclude
    missing: list[str] = field(default_factory=list)  # named paths that do not exist


def collect(paths: Iterable[str], exclude: list[str], base: Path) -> Inputs:
    """Every file to read, in order."""
    out = Inputs()
    skipped: list[str] = []
    for p in paths:
        if p == "-" or not os.path.isdir(p):
            out.files.append(p)  # named explicitly: read (a missing one is an I/O error later)
            continue
        for f in expand_paths([p], skipped):
            if matches(f, exclude, base):
                out.excluded += 1
            else:
                out.files.append(f)
    out.skipped = len(skipped)
    return out


def progress(items: Iterable[T], summary: Summary, total: int, stream: TextIO | None = None,
             enabled: bool = True, unit: str = "file") -> Iterator[T]:  # fmt: skip
    """``items`` unchanged, with a progress bar of files read (tqdm) on ``stream`` (standard error)
    while it is a terminal; on a pipe, a file or with ``enabled`` false, nothing is drawn."""
    stream = stream if stream is not None else sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not (enabled and tty and total > 1):
        yield from items
        return
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, file=stream, leave=False, dynamic_ncols=True) as bar:
        for item in items:
            if summary.files != bar.n:
                bar.update(summary.files - bar.n)
                bar.set_postfix_str(f"{summary.hands_seen:,} hands", refresh=False)
            yield item
        bar.update(summary.files - bar.n)
