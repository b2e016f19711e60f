"""The dispute page's work: audit pasted or uploaded bytes with the one audit step.

The bytes go through the same path as ``hhaudit audit`` and ``hhaudit explain``: the ingest
(:func:`auditor.ingest.read_stream`: encodings, line endings, hand splitting and format detection),
each format's reader and :meth:`auditor.audit.AuditRun.process` (:func:`auditor.audit.audit_hand`).
Nothing is written to disk.  The results of a submission are kept in memory (a small LRU of the
latest submissions, under an unguessable id) so that each of its hands has a page.
"""

from __future__ import annotations

import io
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from auditor.audit import AuditRun, Result
from auditor.findings import Finding
from auditor.formats import Chunk
from auditor.ingest import read_stream
from auditor.profiles import PROFILES

#: Hands audited from one submission at most (a paste is a disputed hand or a session, not a night).
MAX_HANDS = 500
_SAFE_NAME = re.compile(r"[^\w.\- ]+")


@dataclass
class Submission:
    """One paste or upload, audited: every hand's result and the findings outside any hand."""

    id: str
    label: str
    profile: str
    results: list[Result] = field(default_factory=list)
    loose: list[Finding] = field(default_factory=list)
    truncated: bool = False

    @property
    def hands(self) -> int:
        return len(self.results)


def label_of(filename: str | None) -> str:
    """The name a submission's findings carry: ``pasted``, or ``upload/<basename>`` (shown only)."""
    if not filename:
        return "pasted"
    base = _SAFE_NAME.sub("_", filename.replace("\\", "/").rsplit("/", 1)[-1])[:80].strip() or "file"
    return f"upload/{base}"


def audit_bytes(data: bytes, label: str, profile: str = "") -> Submission:
    """Audit ``data`` as one hand-history file named ``label``; ``profile`` "" is each site's own."""
    if profile and profile not in PROFILES:
        raise ValueError(f"unknown rule profile {profile!r}; choose from {', '.join(PROFILES)}")
    sub = Submission(secrets.token_urlsafe(12), label, profile)
    run = AuditRun(rules=profile or None)
    _info, items = read_stream(io.BytesIO(data), label, len(data))
    for item in items:
        if isinstance(item, Chunk):
            if len(sub.results) >= MAX_HANDS:
                sub.truncated = True
                break
            sub.results.append(run.process(item))
        else:
            sub.loose.append(item)
    return sub


class Recent:
    """The latest submissions by id (thread-safe LRU: the server may run handlers in threads)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._items: OrderedDict[str, Submission] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, s: Submission) -> None:
        with self._lock:
            self._items[s.id] = s
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, sid: str) -> Submission | None:
        with self._lock:
            s = self._items.get(sid)
            if s is not None:
                self._items.move_to_end(sid)
            return s
