"""What a run remembers of every hand for the duplicate hand id check (H001/H005), in bounded
memory.

:class:`SeenStore` maps ``(site, hand id)`` to the first record's ``(path, first line,
fingerprint)``.  It keeps the first ``spill_at`` hands in a dict (a few hundred bytes a hand:
small runs never touch the disk), then moves them to a temporary SQLite database on disk and
keeps every later one there: a run's memory then stops growing with its number of hands (SQLite's
page cache is capped at ``cache_kib``), and the database takes ~360 bytes a hand on disk (mostly
the fingerprint: 8 bytes a line when this was measured, 12 bytes and 4 a line since s9-pipeline),
deleted when the store is closed or collected.  Measured
(``DuplicateIds.copy_of`` alone, hands of 32 lines): 2,000,000 hands peak at 44 MiB of process
memory (21 MiB of it the interpreter), the same at 250,000 as at 2,000,000; on disk, a hand
costs ~22 us of CPU (about 3 % of auditing it).  Lookups are
exact (the key is the site and the id, not a hash of them), so the findings are the same
whichever way a hand is kept.  The standard library's ``sqlite3`` is the on-disk index: a B-tree
with a bounded cache, and no dependency to add.
"""

from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sqlite3, tempfile and shutil are imported when the store spills (issue 16: start-up)
    import sqlite3

#: Hands kept in memory before the store moves to disk (~0.8 KiB a hand of 32 lines in all: ~8 MiB).
SPILL_AT = 10_000
#: SQLite's page cache once on disk, in KiB.
CACHE_KIB = 8 * 1024

First = tuple[str, int, bytes]


def _close(conn: sqlite3.Connection, directory: str) -> None:
    import shutil

    conn.close()
    shutil.rmtree(directory, ignore_errors=True)


class SeenStore:
    """``(site, hand id)`` → ``(path, first line, fingerprint)`` of the first record seen."""

    def __init__(self, spill_at: int | None = None, cache_kib: int | None = None, directory: str | None = None) -> None:
        # (the module's values read now, not when the class was defined: a test can lower them)
        self.spill_at = SPILL_AT if spill_at is None else spill_at
        self.cache_kib = CACHE_KIB if cache_kib is None else cache_kib
        self.directory = directory  # where the temporary database goes (default: the system's temp dir)
        self.mem: dict[tuple[str, str], First] = {}
        self.db: sqlite3.Connection | None = None
        self._finalizer: Any = None

    def __len__(self) -> int:
        if self.db is None:
            return len(self.mem)
        n: int = self.db.execute("SELECT count(*) FROM seen").fetchone()[0]
        return n

    @property
    def on_disk(self) -> bool:
        return self.db is not None

    def get(self, key: tuple[str, str]) -> First | None:
        if self.db is None:
            return self.mem.get(key)
        row = self.db.execute("SELECT path, line, fp FROM seen WHERE site = ? AND hid = ?", key).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def __setitem__(self, key: tuple[str, str], value: First) -> None:
        if self.db is None:
            self.mem[key] = value
            if len(self.mem) > self.spill_at:
                self._spill()
            return
        self.db.execute("INSERT OR REPLACE INTO seen VALUES (?, ?, ?, ?, ?)", (*key, *value))

    def _spill(self) -> None:
        import sqlite3
        import tempfile

        d = tempfile.mkdtemp(prefix="hhaudit-seen-", dir=self.directory)
        db = sqlite3.connect(os.path.join(d, "seen.sqlite"), isolation_level=None, check_same_thread=False)
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "temp_store = FILE",
                       f"cache_size = -{int(self.cache_kib)}"):  # fmt: skip
            db.execute(f"PRAGMA {pragma}")
        db.execute("CREATE TABLE seen (site TEXT, hid TEXT, path TEXT, line INTEGER, fp BLOB, "
                   "PRIMARY KEY (site, hid)) WITHOUT ROWID")  # fmt: skip
        db.execute("BEGIN")
        db.executemany("INSERT INTO seen VALUES (?, ?, ?, ?, ?)", ((*k, *v) for k, v in self.mem.items()))
        self.mem = {}
        self.db = db
        self._finalizer = weakref.finalize(self, _close, db, d)

    def close(self) -> None:
        """Delete the temporary database (if any); the store is empty afterwards."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self.db = None
        self.mem = {}

    def __getstate__(self) -> dict[str, Any]:
        if self.db is not None:
            raise TypeError("a SeenStore on disk cannot be copied to another process")
        return {k: v for k, v in self.__dict__.items() if k != "_finalizer"} | {"_finalizer": None}
