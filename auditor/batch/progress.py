"""Progress of a batch: a one-line bar on a terminal, plain log lines otherwise (cron), or nothing.

The bar (``mode="bar"``) is redrawn in place at most ten times a second::

    [########............]  41%  123/300 files  45,678 hands  2,345 hands/s  ETA 1m23s

Log mode (``mode="log"``, the default when standard error is not a terminal) prints a line when
the run starts, the same figures at most every ``interval`` seconds, and a line per file that
could not be audited.  ``mode="none"`` (``--quiet``) prints only those error lines.

The ETA is based on bytes: the files' total size is known when the run starts, hands are not.
"""

from __future__ import annotations

import shutil
import time
from typing import TextIO

from auditor.batch.work import FileResult


def duration(seconds: float) -> str:
    """``1h02m``, ``3m05s``, ``42s``."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class Progress:
    """Counts finished files and hands and shows them in the chosen ``mode``."""

    def __init__(
        self, mode: str, files: int, total_bytes: int, stream: TextIO, interval: float = 30.0, width: int = 20
    ) -> None:
        if mode not in ("bar", "log", "none"):
            raise ValueError(f"unknown progress mode {mode!r}")
        self.mode = mode
        self.files = files
        self.total_bytes = total_bytes
        self.stream = stream
        self.interval = interval
        self.width = width
        self.done = 0
        self.done_bytes = 0
        self.hands = 0
        self.start = time.monotonic()
        self._last = self.start
        self._drawn = False

    def status(self) -> str:
        """The figures: files, hands, hands/s, ETA."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.hands / elapsed
        if self.done_bytes and self.total_bytes > self.done_bytes:
            eta = "ETA " + duration(elapsed * (self.total_bytes - self.done_bytes) / self.done_bytes)
        elif self.done >= self.files:
            eta = f"done in {duration(elapsed)}"
        else:
            eta = "ETA --"
        return f"{self.done:,}/{self.files:,} files  {self.hands:,} hands  {rate:,.0f} hands/s  {eta}"

    def _fraction(self) -> float:
        if self.total_bytes > 0:
            return min(1.0, self.done_bytes / self.total_bytes)
        return self.done / self.files if self.files else 1.0

    def _bar(self) -> str:
        frac = self._fraction()
        filled = int(frac * self.width)
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {frac:4.0%}  {self.status()}"
        cols = shutil.get_terminal_size((100, 20)).columns
        return line[: max(cols - 1, 10)]

    def _draw(self) -> None:
        self.stream.write("\r\x1b[2K" + self._bar())
        self.stream.flush()
        self._drawn = True

    def begin(self, text: str) -> None:
        """Announce the run (log mode) or draw an empty bar."""
        if self.mode == "log":
            self.stream.write(text + "\n")
            self.stream.flush()
        elif self.mode == "bar":
            self._draw()

    def note(self, text: str) -> None:
        """A line worth reading but not an error (e.g. how far the workers can share the files):
        printed above the bar or as a log line, not in ``none`` mode."""
        if self.mode != "none":
            self.message(text)

    def update(self, res: FileResult) -> None:
        """Count a finished file, redraw or log when it is time."""
        self.done += 1
        self.done_bytes += res.size
        self.hands += res.hands_seen
        now = time.monotonic()
        if res.status == "error":
            self.message(f"hhaudit: {res.path}: {res.error}")
        if self.mode == "bar" and now - self._last >= 0.1:
            self._last = now
            self._draw()
        elif self.mode == "log" and now - self._last >= self.interval:
            self._last = now
            self.stream.write(f"progress: {self.status()}\n")
            self.stream.flush()

    def message(self, text: str) -> None:
        """A line that must be read (an error): printed above the bar, and even in ``none`` mode."""
        if self.mode == "bar" and self._drawn:
            self.stream.write("\r\x1b[2K")
        self.stream.write(text + "\n")
        if self.mode == "bar":
            self._draw()
        self.stream.flush()

    def close(self) -> None:
        """Leave the finished bar on its own line."""
        if self.mode == "bar":
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
