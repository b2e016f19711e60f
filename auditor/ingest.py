"""Reading input: decode bytes, split the text into hands, detect each hand's site.

Everything here streams: a file is read in fixed-size blocks and yielded hand by hand, so memory
does not grow with the size of the input (only with the size of the largest hand, which is capped
at :data:`MAX_HAND_LINES`).

Encodings understood: UTF-8 with or without one or more byte-order marks, UTF-16 LE/BE with or
without a BOM (stray NULs are dropped), and cp1252.  Line endings: LF, CRLF or CR.  Bytes that do
not decode become U+FFFD and a ``P004`` finding at their line; nothing is dropped silently.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from auditor import findings as F
from auditor.findings import Finding
from auditor.formats.chunk import Chunk
from auditor.formats.registry import REGISTRY

BLOCK = 1 << 20
SNIFF = 1 << 16
MAX_HAND_LINES = 5000
MAX_LINE_CHARS = 1 << 20
# Files that other tools keep next to hand histories (fpdb sidecars, golden files, notes, code).
# Under a directory they are skipped and counted (``files_skipped``); named explicitly, they are read.
SKIP_SUFFIXES = (".hp", ".hands", ".gt", ".json", ".md", ".py", ".ts", ".pyc", ".parquet")

__all__ = ["Chunk", "FileInfo", "expand_paths", "open_source", "read_stream", "read_text"]


@dataclass(slots=True)
class FileInfo:
    """What was read from one source: size, encoding, and how many hand headers it held."""

    path: str
    size: int
    encoding: str
    hands: int = 0


def sniff_encoding(head: bytes) -> tuple[str, int]:
    """Guess the encoding of a file from its first bytes; returns (codec, bytes of BOM to skip)."""
    if head.startswith(codecs.BOM_UTF8):
        n = 0
        while head.startswith(codecs.BOM_UTF8, n):
            n += len(codecs.BOM_UTF8)
        return "utf-8", n
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    sample = head[:4096]
    if sample.count(0) * 4 >= len(sample) > 0:
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        return ("utf-16-le" if odd >= even else "utf-16-be"), 0
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return "utf-8", 0
    except UnicodeDecodeError:
        return "cp1252", 0


def iter_lines(stream: BinaryIO, path: str, info: FileInfo) -> Iterator[tuple[int, str] | Finding]:
    """Decode ``stream`` block by block and yield (line number, text) pairs.

    Trailing whitespace and stray NULs / BOMs are removed from each line (columns of the
    remaining text are unchanged).  Undecodable bytes yield a P004 finding at their line.
    """
    head = stream.read(SNIFF)
    encoding, skip = sniff_encoding(head)
    info.encoding = encoding
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    sample = head.decode(encoding, errors="replace")
    cr_only = "\r" in sample and "\n" not in sample  # classic Mac line endings
    pending = ""
    lineno = 0
    block: bytes = head[skip:]
    reported = 0
    while True:
        final = not block
        if final and encoding.startswith("utf-16") and decoder.getstate()[0] in (b"\n", b"\r"):
            # a UTF-16 file that ends in one byte-mode line break (2016 WPN exports): the byte
            # ends the last line; it is not half of a character
            decoder.reset()
            block = b"\n\x00" if encoding == "utf-16-le" else b"\x00\n"
        text = pending + decoder.decode(block, final=final)
        if cr_only:
            text = text.replace("\r", "\n")
        parts = text.split("\n")
        pending = "" if final else parts.pop()
        if len(pending) > MAX_LINE_CHARS:
            # a "line" longer than any hand history prints (a file with no line breaks): cut it,
            # so that memory stays bounded; it becomes unrecognised text, reported as such
            parts.append(pending)
            pending = ""
        if final and parts and parts[-1] == "":
            parts.pop()
        for raw in parts:
            lineno += 1
            line = raw.replace("\x00", "").lstrip("\ufeff").rstrip(" \t\r\u00a0")
            if "\ufffd" in line and reported < 50:
                reported += 1
                yield F.make(
                    "P004",
                    path,
                    lineno,
                    line.index("\ufffd") + 1,
                    f"bytes that are not valid {encoding} on this line were replaced by U+FFFD",
                    encoding=encoding,
                )
            yield lineno, line
        if final:
            break
        block = stream.read(BLOCK)


def split_hands(lines: Iterable[tuple[int, str] | Finding], path: str, info: FileInfo) -> Iterator[Chunk | Finding]:
    """Group decoded lines into hands.  Text outside any hand is reported, never dropped."""
    site: str | None = None
    start = 0
    buf: list[str] = []
    overflow = False
    stray_first: int | None = None
    stray_count = 0
    other = None  # a format hhaudit knows of but does not read, met outside any hand

    def flush() -> Chunk | None:
        nonlocal buf
        if site is None:
            return None
        while buf and not buf[-1]:
            buf.pop()
        chunk = Chunk(path, site, start, tuple(buf), overflow)
        buf = []
        return chunk

    detect = REGISTRY.detect
    sniffed = not REGISTRY.sniffers
    it = iter(lines)
    for item in it:
        if isinstance(item, Finding):
            yield item
            continue
        lineno, line = item
        if not sniffed and line.strip():
            # a document format (XML, JSON, TOML) is recognised by its first line: its reader splits it
            sniffed = True
            doc = REGISTRY.sniff_document(line.lstrip())
            if doc is not None:
                for out in doc.reader.split(itertools.chain([item], it), path):  # type: ignore[attr-defined]
                    if isinstance(out, Chunk):
                        info.hands += 1
                    yield out
                return
        s = detect(line)
        if s is not None:
            c = flush()
            if c is not None:
                yield c
            site, start, overflow = s, lineno, False
            info.hands += 1
            buf = [line]
            continue
        if site is None:
            if line.strip():
                stray_count += 1
                if stray_first is None:
                    stray_first = lineno
                if other is None and stray_count <= 200:
                    other = REGISTRY.recognise(line)
            continue
        if len(buf) >= MAX_HAND_LINES:
            overflow = True
            continue
        buf.append(line)
    c = flush()
    if c is not None:
        yield c
    if stray_first is not None:
        if info.hands == 0 and other is not None:
            msg = f"this file holds {other.title} hands, a format hhaudit does not read yet"
        elif info.hands == 0:
            msg = "no hand history of a format hhaudit reads was found in this file (`hhaudit formats` lists them)"
        else:
            msg = f"{stray_count} line(s) before the first hand header are not part of any hand"
        yield F.make("P003", path, stray_first, 1, msg, lines=stray_count, format=other.name if other else None)
    elif info.hands == 0:
        yield F.make(
            "P003",
            path,
            None,
            None,
            "the file holds no text" if info.size == 0 else "the file holds only blank lines",
            lines=0,
        )


def read_stream(stream: BinaryIO, path: str, size: int = -1) -> tuple[FileInfo, Iterator[Chunk | Finding]]:
    """Read one binary stream; returns its :class:`FileInfo` (filled in as it is read) and items."""
    info = FileInfo(path, size, "unknown")
    return info, split_hands(iter_lines(stream, path, info), path, info)


def expand_paths(paths: Iterable[str], skipped: list[str] | None = None) -> Iterator[str]:
    """Files named, and files under directories named (recursively, sorted), ``-`` for stdin.

    Under a directory, files whose suffix marks them as another tool's sidecar (``.hp``, ``.json``
    ...) are skipped; a file named explicitly is always read.
    """
    for p in paths:
        if p == "-" or not os.path.isdir(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for name in sorted(files):
                if name.lower().endswith(SKIP_SUFFIXES) or name.startswith("."):
                    if skipped is not None:
                        skipped.append(os.path.join(root, name))
                    continue
                yield os.path.join(root, name)


def open_source(path: str) -> tuple[BinaryIO, int]:
    """Open a path (or ``-`` for standard input) for binary reading; raises OSError."""
    if path == "-":
        return sys.stdin.buffer, -1
    f = open(path, "rb")  # noqa: SIM115 - closed by the caller
    return f, os.fstat(f.fileno()).st_size


def read_text(text: str, path: str = "<text>") -> Iterator[Chunk | Finding]:
    """Split an in-memory string into hands (tests, the explain command)."""
    data = text.encode("utf-8")
    return read_stream(io.BytesIO(data), path, len(data))[1]
