"""Fingerprints of a hand's text (issue 16): what the duplicate-id check (H001/H005) and the
cross-hand stage (a copy of a hand is not a second hand of its table) remember of a hand instead
of its text.

Both read the same text, the hand's lines stripped at the right, each followed by a newline:

* :func:`text_digest`, 12 bytes of BLAKE2b of the whole text: equal for a copy, different for
  another record (what decides H005 against H001, and the cross-hand row's ``fingerprint``);
* :func:`line_prints`, a CRC-32 of each line (4 bytes a line): where two records of one id first
  differ (H001's ``differs_at``).  A CRC can collide where a digest would not; a collision can only
  move the line H001 names later, never decide whether two records differ.

They are made in a few C calls over the joined text (no Python loop over the lines), and the last
hand's are kept (:func:`prints`), so that the duplicate-id check and the cross-hand row of one hand
make them once.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Sequence

from auditor.digests import blake2b

#: Bytes of the whole text's digest at the start of :func:`prints`'s value.
DIGEST = 12

_last: tuple[Sequence[str], bytes] | None = None


def _text(lines: Sequence[str]) -> bytes:
    text = "\n".join(map(str.rstrip, lines))
    if lines:
        text += "\n"
    return text.encode("utf-8", "surrogatepass")


def prints(lines: Sequence[str]) -> bytes:
    """:func:`text_digest` of ``lines`` followed by their :func:`line_prints`.  The value of the
    last tuple of lines given is kept (a chunk's lines are a tuple, never changed)."""
    global _last
    last = _last
    if last is not None and last[0] is lines:
        return last[1]
    data = _text(lines)
    parts = data.split(b"\n")
    parts.pop()  # (the empty text after the last newline; for no line, the empty text itself)
    if len(parts) == len(lines):
        crcs = array("I", map(zlib.crc32, parts))
    else:  # a line holding a newline (a document reader's line): one CRC per line as given
        crcs = array("I", [zlib.crc32(line.rstrip().encode("utf-8", "surrogatepass")) for line in lines])
    if sys.byteorder != "little":
        crcs.byteswap()  # (the same bytes on every machine)
    out = blake2b(data, digest_size=DIGEST).digest() + crcs.tobytes()
    if type(lines) is tuple:
        _last = (lines, out)
    return out


def text_digest(lines: Sequence[str]) -> bytes:
    """12 bytes of BLAKE2b of the lines stripped at the right, each followed by a newline."""
    return prints(lines)[:DIGEST]


def line_prints(lines: Sequence[str]) -> bytes:
    """A CRC-32 of each line stripped at the right (UTF-8), 4 bytes little-endian a line."""
    return prints(lines)[DIGEST:]


def first_difference(a: bytes, b: bytes) -> int:
    """The index of the first line whose :func:`line_prints` differ between two :func:`prints`
    values, or the number of lines the shorter has when every line of it is equal."""
    la, lb = a[DIGEST:], b[DIGEST:]
    common = min(len(la), len(lb)) // 4
    return next((i for i in range(common) if la[4 * i : 4 * i + 4] != lb[4 * i : 4 * i + 4]), common)
