"""Open one hand of the audit store: read it again from the file the store recorded, and judge it.

The store keeps no hand text, so the text comes from the file its manifest recorded (never a path
from the request).  The file must still be the one audited: its SHA-256 is checked first; a file
that changed or disappeared is said so, and the hand's stored findings are shown without its text.
The hand is the ``hand_no``-th hand chunk of the file, exactly as ``hhaudit batch`` numbered them,
and it is audited again by the one audit step with the profile the store recorded.
"""

from __future__ import annotations

import os

from auditor.audit import AuditRun
from auditor.formats import Chunk
from auditor.ingest import open_source, read_stream
from auditor.report import sha256_of
from auditor.report.views import HandView, Kept, hand_view
from auditor.serve.browse import HandRecord


def open_store_hand(rec: HandRecord) -> tuple[HandView | None, str]:
    """The hand page's view of ``rec`` (None when its file cannot be read as audited) and a note."""
    path = rec.path
    if not os.path.isfile(path):
        return None, f"The file the store recorded, {rec.shown_path}, is no longer there: its text cannot be shown."
    try:
        same = sha256_of(path) == rec.sha256
    except OSError as e:
        return None, f"The file {rec.shown_path} cannot be read: {e.strerror or e}."
    if not same:
        return None, (f"The file {rec.shown_path} has changed since it was audited on {rec.night} (its SHA-256 "
                      "differs): its text is not shown, the stored findings are.")  # fmt: skip
    stream, size = open_source(path)
    try:
        _info, items = read_stream(stream, path, size)
        n = -1
        for item in items:
            if not isinstance(item, Chunk):
                continue
            n += 1
            if n == rec.hand_no:
                run = AuditRun(rules=None if rec.profile in ("", "site") else rec.profile)
                r = run.process(item)
                note = f"Read again from {rec.shown_path} (unchanged since it was audited on {rec.night})."
                return hand_view(Kept(rec.hand_no + 1, r.audited, item, r.findings), "/"), note
    finally:
        stream.close()
    return None, f"The file {rec.shown_path} holds fewer hands than the store recorded."
