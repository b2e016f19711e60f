"""Reading input: decode bytes, split the text into hands, detect each hand's site.

Everything here streams: a file is read in fixed-size blocks and yielded hand by hand, so memory
does not grow with the size of the input (only with the size of the largest hand, which is capped
at :data:`MAX_HAND_LINES`).

Encodings understood: UTF-8 with or without one or more byte-order marks, UTF-16 LE/BE with or
without a BOM (stray NULs are dropped), and cp1252.  Line endings: LF, CRLF or CR.  Bytes that do
not decode become U+FFFD and a ``P004`` finding at their line; nothing is dropped silently.

Why one module of ~800 lines: decoding (re-decided at every change of encoding), the size
limits and the split into hands work on the same stream of bytes and lines, in one pass.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from auditor import findings as F
from auditor.findings import Finding
from auditor.formats.chunk import Chunk
from auditor.formats.registry import REGISTRY
from auditor.mypyc_shim import mypyc_attr

#: A line that is only an XML declaration (the format is told by the line after it).
_XML_DECL = re.compile(r"\s*(?:\ufeff)*<\?xml[^>]*\?>\s*$")
#: A line of a hand's play or result, in the words every English text export uses: stray lines
#: before a file's first hand header that hold one are the tail of a hand cut off before the file
#: (P005), other stray text is P003
_PLAY_RE = re.compile(r"\b(?:folds|checks|calls|bets|raises|is all.in|wins|collected|mucks|shows)\b|^Seat \d+:"
                      r"|^\*\*\* SUMMARY|^Total pot", re.IGNORECASE)  # fmt: skip

BLOCK = 1 << 18
BULK = 1 << 18  # bytes of 8-bit text decoded at once
SNIFF = 1 << 16
#: A hand is read up to this many lines and characters; a larger one is not read (``P007`` where
#: the limit was reached, ``P001`` for the hand).  Real hands are a few KB.
MAX_HAND_LINES = 5000
MAX_HAND_CHARS = 1 << 20
#: A line is read up to this many bytes; the rest of a longer one is skipped (``P007`` inside a
#: hand; outside a hand it is text that belongs to no hand, ``P003``).
MAX_LINE_BYTES = 1 << 16
# Files that other tools keep next to hand histories (fpdb sidecars, golden files, notes, code).
# Under a directory they are skipped and counted (``files_skipped``); named explicitly, they are read.
SKIP_SUFFIXES = (".hp", ".hands", ".gt", ".json", ".jsonl", ".md", ".py", ".ts", ".pyc", ".parquet")

__all__ = ["Chunk", "FileInfo", "Run", "expand_paths", "iter_lines", "iter_runs", "open_source", "read_stream",
           "read_text"]  # fmt: skip


@mypyc_attr(serializable=True)  # (compiled: pickled with the run's summary, auditor/finish.py)
@dataclass(slots=True)
class FileInfo:
    """What was read from one source: size, encoding, and how many hand headers it held."""

    path: str  # as shown (display_path)
    size: int
    encoding: str
    hands: int = 0
    source: str = ""  # the path as given, to open the file again


_UTF16 = ("utf-16-le", "utf-16-be")
_TERM8 = re.compile(rb"\r\n|\r|\n")
# One UTF-16 line: code units that are not CR or LF (a unit is two bytes), then its line break.
_LINE16 = {
    "utf-16-le": re.compile(rb"(?:[^\r\n].|[\r\n][^\x00])*", re.S),
    "utf-16-be": re.compile(rb"(?:[^\x00].|\x00[^\r\n])*", re.S),
}
_CR16 = {"utf-16-le": (b"\r\x00", b"\n\x00"), "utf-16-be": (b"\x00\r", b"\x00\n")}


def _end16(mode: str, buf: bytes, pos: int, limit: int) -> int:
    """Where the UTF-16 line starting at ``pos`` ends (its line break, or ``limit``)."""
    m = _LINE16[mode].match(buf, pos, limit)
    return m.end() if m is not None else pos


_NOT_NUL = re.compile(rb"[^\x00]")
_WINDOW = 128


def _looks_like(window: bytes) -> str:
    """What the bytes at the start of a line look like: ``nul`` (a run of NULs), ``utf-16-le``,
    ``utf-16-be`` (NULs in every other byte, as ASCII text in UTF-16 has) or ``8bit``."""
    if not window.strip(b"\x00"):
        return "nul"
    n = len(window) // 2
    if n < 2:
        return ""  # too short to tell: as before
    even = window[0 : 2 * n : 2].count(0)
    odd = window[1 : 2 * n : 2].count(0)
    if odd * 4 >= n and even * 8 < n:
        return "utf-16-le"
    if even * 4 >= n and odd * 8 < n:
        return "utf-16-be"
    return "8bit"


def _eight_bit_codec(sample: bytes) -> str:
    """utf-8 if ``sample`` (the start of an 8-bit part) is valid UTF-8, else cp1252."""
    for bom in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        cut = sample.find(bom)
        if cut >= 0:
            sample = sample[:cut]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
        return "utf-8"
    except UnicodeDecodeError:
        return "cp1252"


def sniff_encoding(head: bytes) -> tuple[str, int]:
    """Guess the encoding of the start of a file; returns (codec, bytes to skip: BOMs, leading NULs).

    :func:`iter_lines` applies the same test again at every line start where the bytes change
    shape, so a file whose parts were exported in different encodings is read part by part.
    """
    skip = 0
    while True:
        if head.startswith(codecs.BOM_UTF8, skip):
            while head.startswith(codecs.BOM_UTF8, skip):
                skip += len(codecs.BOM_UTF8)
            return "utf-8", skip
        if head.startswith(codecs.BOM_UTF16_LE, skip):
            return "utf-16-le", skip + 2
        if head.startswith(codecs.BOM_UTF16_BE, skip):
            return "utf-16-be", skip + 2
        shape = _looks_like(head[skip : skip + _WINDOW])
        if shape == "nul":
            m = _NOT_NUL.search(head, skip)
            if m is None:
                return "utf-8", len(head)
            skip = m.start()
            continue
        if shape in _UTF16:
            return shape, skip
        return _eight_bit_codec(head[skip : skip + SNIFF]), skip


def _p004(path: str, lineno: int, line: str, codec: str) -> Finding:
    return F.make("P004", path, lineno, line.index("\ufffd") + 1,
                  f"bytes that are not valid {codec} on this line were replaced by U+FFFD", encoding=codec)  # fmt: skip


def _cut_message(n: int) -> str:
    return f"line longer than {MAX_LINE_BYTES:,} bytes: its first {MAX_LINE_BYTES:,} bytes were read, {n:,} skipped"


class Run:
    """A run of decoded lines (:func:`iter_runs`): ``lines``, the first of them line number
    ``first``.  :func:`split_hands` reads it from line ``i`` on (``pos``: where the newline before
    line ``i`` is in :attr:`text`, once made), finding its hand headers with one search."""

    def __init__(self, first: int, lines: list[str]) -> None:
        self.first = first
        self.lines = lines
        self.i = 0
        self.pos = 0
        self.text = ""  # (made when searched: every line preceded by a newline)
        self.found = -1  # the next line that may be a header or a separator, once searched (at found_pos)
        self.found_pos = 0

    def pairs(self) -> Iterator[tuple[int, str]]:
        """(line number, text) of the lines not read yet."""
        return zip(itertools.count(self.first + self.i), self.lines[self.i :])


def _pairs(items: Iterable[tuple[int, str] | Run | Finding]) -> Iterator[tuple[int, str] | Finding]:
    """``items`` with every :class:`Run` given line by line."""
    for item in items:
        if isinstance(item, Run):
            yield from item.pairs()
        else:
            yield item


def iter_lines(stream: BinaryIO, path: str, info: FileInfo) -> Iterator[tuple[int, str] | Finding]:
    """Decode ``stream`` and yield (line number, text) pairs: :func:`iter_runs` line by line."""
    return _pairs(iter_runs(stream, path, info))


#: What :func:`iter_runs` strips at the right of every line.
_TRAILING = " \t\r\u00a0"


def iter_runs(stream: BinaryIO, path: str, info: FileInfo) -> Iterator[tuple[int, str] | Run | Finding]:
    """Decode ``stream`` and yield (line number, text) pairs, in memory bounded by the block size;
    runs of plain 8-bit lines (the common case: no U+FFFD, no NUL, no over-long line) come as one
    :class:`Run` of up to a block of lines, decoded, split and stripped in a few C calls.

    The encoding is decided again wherever the bytes change shape at a line start (a byte-order
    mark, NULs in every other byte, a run of NULs), so a UTF-16 export followed by a UTF-8 one,
    or a file that starts with a run of NULs, is read whole.  CR, LF and CRLF each end a line,
    mixed in one file.  Trailing whitespace and stray NULs / BOMs are removed from each line
    (columns of the remaining text are unchanged).  Undecodable bytes yield a P004 finding at
    their line; a line longer than :data:`MAX_LINE_BYTES` a P007 (its first bytes are kept); a
    read error a P008, which ends the file.
    """
    buf = b""
    pos = 0
    eof = False
    mode = ""  # "", "8bit", "utf-16-le", "utf-16-be"
    codec8 = ""  # utf-8 or cp1252, decided at the first 8-bit part
    used: list[str] = []
    lineno = 0
    reported = 0
    checked = -1  # the buffer position whose shape was last checked
    slow_until = 0  # 8-bit text up to here is read line by line (it holds a long line)

    def use(codec: str) -> None:
        if codec not in used:
            used.append(codec)
            info.encoding = "+".join(used)

    while True:
        if not eof and len(buf) - pos < MAX_LINE_BYTES + 8:
            try:
                data = stream.read(BLOCK)
            except OSError as e:
                yield F.make("P008", path, lineno + 1, None, f"reading stopped: {e.strerror or e}", error=str(e))
                return
            buf = buf[pos:] + data
            checked -= pos
            pos = 0
            eof = not data
            continue
        if pos >= len(buf):
            break
        # ---- the common case: a run of 8-bit lines without NULs, decoded and split at once
        if mode == "8bit" and pos >= slow_until and buf[pos] not in (0, 0xFE, 0xFF):
            stop = min(len(buf), pos + BULK)
            nul = buf.find(b"\x00", pos, stop)
            stop = nul if nul >= 0 else stop
            if eof and stop == len(buf):
                end = stop
            else:
                end = max(buf.rfind(b"\n", pos, stop), buf.rfind(b"\r", pos, stop - 1)) + 1
            if end > pos:
                text = buf[pos:end].decode(codec8, errors="replace")
                parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
                if max(map(len, parts)) > MAX_LINE_BYTES // 4:
                    slow_until = end  # a long line: read this run line by line, with the limit
                    continue
                if text[-1:] in ("\n", "\r"):
                    parts.pop()
                pos = end
                if "\ufffd" not in text:
                    if "\ufeff" in text:
                        parts = [raw_line.lstrip("\ufeff") for raw_line in parts]
                    yield Run(lineno + 1, list(map(str.rstrip, parts, itertools.repeat(_TRAILING))))
                    lineno += len(parts)
                    continue
                for raw_line in parts:
                    lineno += 1
                    line = raw_line.lstrip("\ufeff").rstrip(" \t\r\u00a0")
                    if "\ufffd" in line and reported < 50:
                        reported += 1
                        yield _p004(path, lineno, line, codec8)
                    yield lineno, line
                continue
        # ---- at a line start: byte-order marks, NUL runs, and the shape of the bytes
        if mode != "8bit" or buf[pos] in (0, 0xEF, 0xFE, 0xFF) or checked == pos:
            if buf.startswith(codecs.BOM_UTF8, pos):
                while buf.startswith(codecs.BOM_UTF8, pos):
                    pos += len(codecs.BOM_UTF8)
                if mode != "8bit":
                    mode, codec8 = "8bit", codec8 or "utf-8"
                continue
            if buf.startswith(codecs.BOM_UTF16_LE, pos) or buf.startswith(codecs.BOM_UTF16_BE, pos):
                mode = "utf-16-le" if buf.startswith(codecs.BOM_UTF16_LE, pos) else "utf-16-be"
                pos += 2
                continue
            shape = _looks_like(buf[pos : pos + _WINDOW])
            if shape == "nul":
                m = _NOT_NUL.search(buf, pos)
                pos = m.start() if m else len(buf)
                continue
            shape = shape or mode or "8bit"
            if mode == "" or mode in _UTF16 or shape in _UTF16:
                if shape == "8bit" and mode != "8bit":
                    codec8 = codec8 or _eight_bit_codec(buf[pos : pos + SNIFF])
                mode = shape
            checked = pos
        codec = codec8 if mode == "8bit" else mode
        use(codec)
        # ---- find the end of the line
        limit = min(len(buf), pos + MAX_LINE_BYTES + 4)
        end = nxt = -1
        if mode == "8bit":
            t = _TERM8.search(buf, pos, limit)
            if t is not None:
                end, nxt = t.start(), t.end()
            if checked != pos and buf.find(b"\x00", pos, end if end >= 0 else limit) >= 0:
                checked = pos  # NULs inside an 8-bit line: UTF-16 text may start here, look again
                continue
        else:
            e16 = _end16(mode, buf, pos, limit)
            cr, lf = _CR16[mode]
            if buf.startswith(lf, e16) and e16 + 2 <= limit:
                end, nxt = e16, e16 + 2
            elif buf.startswith(cr, e16) and e16 + 2 <= limit:
                end, nxt = e16, e16 + 2 + (2 if buf.startswith(lf, e16 + 2) else 0)
        skipped = 0
        if end < 0:
            if eof and len(buf) - pos <= MAX_LINE_BYTES:
                end = nxt = len(buf)
            else:
                end = pos + MAX_LINE_BYTES
                if mode != "8bit":
                    end -= (end - pos) % 2
                nxt = -1
        raw = buf[pos:end]
        if mode in _UTF16 and len(raw) % 2 and raw[-1:] in (b"\n", b"\r"):
            raw = raw[:-1]  # a UTF-16 file that ends in one byte-mode line break (2016 WPN exports)
        lineno += 1
        if nxt < 0:
            # an over-long line: keep its start, skip the rest up to the next line break
            pos = end
            while True:
                found: tuple[int, int] | None = None
                if mode == "8bit":
                    t = _TERM8.search(buf, pos)
                    if t is not None and (t.group() != b"\r" or t.end() < len(buf) or eof):
                        found = (t.start(), t.end())
                    keep = t.start() if t is not None else len(buf)
                else:
                    keep = _end16(mode, buf, pos, len(buf))
                    cr, lf = _CR16[mode]
                    if buf.startswith(lf, keep):
                        found = (keep, keep + 2)
                    elif buf.startswith(cr, keep) and (len(buf) >= keep + 4 or eof):
                        found = (keep, keep + (4 if buf.startswith(lf, keep + 2) else 2))
                if found is not None or eof:
                    skipped += (found[0] if found else len(buf)) - pos
                    pos = found[1] if found else len(buf)
                    break
                skipped += keep - pos
                try:
                    data = stream.read(BLOCK)
                except OSError as e:
                    yield F.make("P008", path, lineno, None, f"reading stopped: {e.strerror or e}", error=str(e))
                    return
                buf, pos, eof = buf[keep:] + data, 0, not data
                checked = -1
            yield F.make("P007", path, lineno, MAX_LINE_BYTES + 1, _cut_message(skipped),
                         limit=MAX_LINE_BYTES, skipped=skipped)  # fmt: skip
        else:
            pos = nxt
        line = raw.decode(codec, errors="replace").replace("\x00", "").lstrip("\ufeff").rstrip(" \t\r\u00a0")
        if "\ufffd" in line and reported < 50:
            reported += 1
            yield _p004(path, lineno, line, codec)
        yield lineno, line
    if not used:
        info.encoding = "utf-8"


class HeaderDispatch:
    """:meth:`Registry.detect <auditor.formats.registry.Registry.detect>` tried only with the
    formats whose header can start with the line's first character (issue 16).

    Most lines of a file are not headers, and the detector (one alternation of every format's
    header pattern) fails on each of them at ~0.8 us a line, most of a split's time.  The first
    characters of each format's header pattern are read from the pattern
    (:func:`auditor.formats.firstchars.first_chars`: an over-approximation; a pattern it cannot
    read counts as "any character"); a line is matched against the alternation of the formats
    that can start with its first character, in the detector's order, with the detector's group
    names, so the answer is the detector's (``tests/test_ingest_dispatch.py`` compares them on every
    corpus and fixture line).  Its tables are derived once from the patterns and kept in the
    on-disk cache (:attr:`Registry.header_dispatch <auditor.formats.registry.Registry.header_dispatch>`:
    ~1 ms to load, ~20 ms to derive); taken after :data:`WARM` lines (a one-hand run never loads
    them), and again when the registry's detector changes (a format added or removed).

    Built with it, :attr:`scan` finds in a run of lines (:class:`Run`) the lines that may be a
    hand header or an archive's separator: the literal starts of every format's header pattern and
    of the separator pattern (:func:`auditor.lineprefix.prefixes`, an over-approximation read from
    the patterns) in one trie, searched after each newline; None when a pattern may start with any
    text.  A line it does not find is neither (``tests/test_ingest_runs.py``)."""

    #: Lines detected with the plain detector before the dispatch is built (start-up: loading its
    #: tables takes ~1 ms, deriving them when the cache is cold ~20 ms; ~25 hands).
    WARM = 1_000

    def __init__(self) -> None:
        self.source: re.Pattern[str] | None = None
        self.lines = 0
        self.other: re.Pattern[str] | None = None
        self.by_char: dict[str, re.Pattern[str] | None] = {}
        self.scan: re.Pattern[str] | None = None

    def _build(self, detector: re.Pattern[str]) -> None:
        """Take the registry's tables (:attr:`Registry.header_dispatch
        <auditor.formats.registry.Registry.header_dispatch>`: derived from the patterns once, and
        kept in the on-disk cache); :attr:`by_char` is filled in place (the split holds it)."""
        tables = REGISTRY.header_dispatch
        self.by_char.clear()
        self.by_char.update(tables["by_char"])
        self.other = tables["other"]
        self.scan = tables["scan"]
        self.source = detector

    def scanner(self) -> re.Pattern[str] | None:
        """:attr:`scan`, when built for the registry's formats as they are (else None)."""
        return self.scan if REGISTRY.detector is self.source else None

    def table(self) -> dict[str, re.Pattern[str] | None]:
        """The patterns by first character (a character not in it: call the dispatch), for a
        caller that inlines the lookup; empty until built, and emptied when the registry changed."""
        if REGISTRY.detector is not self.source:
            self.by_char.clear()
        return self.by_char

    def _for(self, c: str) -> re.Pattern[str] | None:
        rx = self.other  # (a character no format's header is known to start with)
        self.by_char[c] = rx
        return rx

    def __call__(self, line: str) -> str | None:
        detector = REGISTRY.detector
        if detector is not self.source:
            if self.lines < self.WARM:
                self.lines += 1
                m = detector.match(line)
                return m.lastgroup[4:] if m is not None and m.lastgroup else None
            self._build(detector)
        c = line[:1]
        rx = self.by_char[c] if c in self.by_char else self._for(c)
        if rx is None:
            return None
        m = rx.match(line)
        return m.lastgroup[4:] if m is not None and m.lastgroup else None


_UNSEEN = re.compile("(?!)")  # (a character the dispatch has not met yet)

#: The run's header detector (:class:`HeaderDispatch`), shared by every file.
detect_header = HeaderDispatch()


def split_hands(
    lines: Iterable[tuple[int, str] | Run | Finding], path: str, info: FileInfo
) -> Iterator[Chunk | Finding]:
    """Group decoded lines into hands.  Text outside any hand is reported, never dropped.

    ``lines`` as :func:`iter_runs` yields them: inside a hand, the lines of a :class:`Run` up to
    the next that may be a header or a separator (:meth:`HeaderDispatch.scanner`) are taken at
    once; every other line is read one at a time, with the same result (``tests/test_ingest_runs.py``
    compares the split of every corpus file and of hostile inputs given as runs and line by line)."""
    site: str | None = None
    start = 0
    buf: list[str] = []
    overflow = False
    stray_first: int | None = None
    stray_count = 0
    stray_play = False  # a stray line reads like a hand's betting or result (the tail of a cut hand)
    chars = 0
    other = None  # a format hhaudit knows of but does not read, met outside any hand
    summary = False  # the file is a tournament summary (a card's ``summary`` pattern), not hands
    archive = False  # an archive whose hands are separated by a card's ``separator`` lines
    known = 0  # preamble lines before the first hand (known text of a format: no finding)

    def flush(before_hand: bool = False) -> Chunk | Finding | None:
        nonlocal buf, known
        if site is None:
            return None
        while buf and not buf[-1]:
            buf.pop()
        if len(buf) == 1 and REGISTRY.lead_ins and REGISTRY.is_lead_in(site, buf[0]):
            # a lead-in line (888 "#Game No : N") with no hand of its format after it: not a hand.
            # Before another format's hand that prints the same line as its preamble (PartyPoker
            # clients print "#Game No : N" too), it is that hand's known text: no finding.
            info.hands -= 1
            text, buf = buf[0], []
            if REGISTRY.preamble.match(text):
                known += 0 if before_hand else 1
                return None
            return F.make("P003", path, start, 1, f"the {site} line {text[:60]!r} is followed by no hand",
                          lines=1, format=site)  # fmt: skip
        chunk = Chunk(path, site, start, tuple(buf), overflow)
        buf = []
        return chunk

    detect = detect_header
    by_char = detect_header.table()
    sep_firsts = REGISTRY.separator_firsts
    separator = REGISTRY.separator_line.match
    summary_start = REGISTRY.summary_start.match
    preamble = REGISTRY.preamble.match
    sniffed = not REGISTRY.sniffers
    it = iter(lines)
    run: Run | None = None  # the run being read (its lines from run.i on are not read yet)
    while True:
        if run is None:
            got = next(it, None)
            if got is None:
                break
            if isinstance(got, Finding):
                if got.code != "P007" or site is not None:
                    yield got  # a cut line outside any hand is counted with the stray text (P003)
                continue
            if not isinstance(got, Run):
                item = got
                lineno, line = item
            else:
                run = got
        if run is not None:
            # the lines of a run up to the next one that may be a header or a separator, taken at
            # once where the loop below would do the same to each of them: inside a hand, add
            # them to it (or, past its size limit, skip them); in a tournament summary, skip them
            runlines, i = run.lines, run.i
            scan = detect_header.scanner() if sniffed and not archive and (site is not None or summary) else None
            if scan is not None:
                if not run.text:
                    run.text = "\n" + "\n".join(runlines)
                    run.pos = sum(map(len, runlines[:i])) + i
                if run.found < i:  # (searched once up to it: a stretch read line by line is not searched again)
                    m = scan.search(run.text, run.pos)
                    run.found_pos = m.start() if m is not None else len(run.text)
                    run.found = i + run.text.count("\n", run.pos, run.found_pos)
                j, nxt = run.found, run.found_pos
                if site is None or overflow:
                    i, run.pos = j, nxt
                elif j > i and len(buf) + j - i <= MAX_HAND_LINES and chars + nxt - run.pos <= MAX_HAND_CHARS:
                    buf.extend(runlines[i:j])
                    chars += nxt - run.pos
                    i, run.pos = j, nxt
            if i >= len(runlines):
                run = None
                continue
            lineno, line = run.first + i, runlines[i]
            item = (lineno, line)
            run.i = i + 1
            if run.text:
                run.pos += len(line) + 1
        # ---- one line at a time
        if (sep_firsts is None or line[:1] in sep_firsts) and separator(line):
            # a line between two hands of an archive: it ends the hand before it, and it is no stray text
            c = flush()
            if c is not None:
                yield c
            site, archive = None, True
            continue
        if archive and line.startswith(" "):
            line = line[1:]  # archives indent every line of a hand by one space
        if not sniffed and line.strip():
            # a document format (XML, JSON, TOML) is recognised by its first line: its reader splits it
            sniffed = True
            doc = REGISTRY.sniff_document(line.lstrip()) or REGISTRY.document_for(path)
            head: list[tuple[int, str] | Finding] = [item]
            if doc is not None and _XML_DECL.match(line):
                # an XML declaration alone says nothing of the format: the first element's line does
                # (iPoker "<session", Boss Media "<ROOT>"/"<HISTORY"); the declaration goes with it
                rest = _pairs(itertools.chain((run,) if run is not None else (), it))
                for later in rest:
                    head.append(later)
                    if not isinstance(later, Finding) and later[1].strip():
                        doc = REGISTRY.sniff_document(later[1].lstrip()) or doc
                        break
                run, it = None, rest
            if doc is not None:
                rest = _pairs(itertools.chain((run,) if run is not None else (), it))
                for out in doc.reader.split(itertools.chain(head, rest), path):  # type: ignore[attr-defined]
                    if isinstance(out, Chunk):
                        info.hands += 1
                    yield out
                return
        # detect(line), with its lookup by first character inlined (most lines are not headers)
        rx = by_char.get(line[:1], _UNSEEN)
        if rx is _UNSEEN:
            s = detect(line)
        elif rx is None:
            s = None
        else:
            m = rx.match(line)
            s = m.lastgroup[4:] if m is not None and m.lastgroup else None
        if s is not None and site is not None and s != site and buf and REGISTRY[site].is_body_line(line):
            # another format's header that reads as a line of the hand being split: a player named
            # like a header ("Poker Hand #1: collected $5 from pot" inside a PokerStars hand)
            s = None
        if s is not None and s == site and REGISTRY.joins(s, buf[0], line) and not any(buf[1:]):
            # the format's lead-in line (888 "#Game No : N") and its header start one hand
            buf.append(line)
            continue
        if s is not None:
            c = flush(before_hand=True)
            if c is not None:
                yield c
            site, start, overflow = s, lineno, False
            info.hands += 1
            buf = [line]
            chars = len(line) + 1
            continue
        if site is None:
            if stray_first is None and preamble(line):
                known += 1
                continue
            if not summary and not info.hands and stray_count < 200 and summary_start(line):
                summary = True
            if summary:
                continue
            if line.strip():
                stray_count += 1
                if stray_first is None:
                    stray_first = lineno
                if other is None and stray_count <= 200:
                    other = REGISTRY.recognise(line)
                stray_play = stray_play or bool(_PLAY_RE.search(line))
            continue
        if overflow:
            continue
        chars += len(line) + 1
        if len(buf) >= MAX_HAND_LINES or chars > MAX_HAND_CHARS:
            overflow = True
            yield F.make("P007", path, lineno, 1,
                         f"hand larger than {MAX_HAND_LINES:,} lines or {MAX_HAND_CHARS:,} characters: "
                         "the rest of it is not read", site=site, lines=len(buf), chars=chars)  # fmt: skip
            continue
        buf.append(line)
    c = flush()
    if c is not None:
        yield c
    if summary and info.hands == 0:
        pass  # a tournament summary (with, perhaps, the e-mail lines around it): recognised, not hands
    elif stray_first is not None:
        if info.hands == 0 and other is not None:
            msg = f"this file holds {other.title} hands, a format hhaudit does not read yet"
        elif info.hands == 0:
            msg = "no hand history of a format hhaudit reads was found in this file (`hhaudit formats` lists them)"
        elif stray_play:
            msg = None
        else:
            msg = f"{stray_count} line(s) before the first hand header are not part of any hand"
        if msg is None:  # a hand-history file that starts inside a hand: its head is not in the file
            yield F.make("P005", path, stray_first, 1,
                         f"the file starts inside a hand: {stray_count} line(s) before the first hand header belong "
                         "to a hand whose start is not in this file (cut off before it); they are not audited",
                         lines=stray_count)  # fmt: skip
        else:
            yield F.make("P003", path, stray_first, 1, msg, lines=stray_count, format=other.name if other else None)
    elif info.hands == 0 and known and not summary:
        yield F.make("P003", path, None, None,
                     "no hand history of a format hhaudit reads was found in this file (`hhaudit formats` lists them)",
                     lines=known)  # fmt: skip
    elif info.hands == 0 and not summary:
        yield F.make(
            "P003",
            path,
            None,
            None,
            "the file holds no text" if info.size == 0 else "the file holds only blank lines",
            lines=0,
        )


class Unreadable:
    """What :func:`open_source` returns for a source it will not or cannot read: no bytes, and why.

    A plain class, not an empty :class:`io.BytesIO` (mypyc compiles no subclass of it, and this
    module is compiled): it holds the reason and closes, also as a context manager, as the callers
    of :func:`open_source` close a stream."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def close(self) -> None:
        pass

    def __enter__(self) -> Unreadable:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def display_path(path: str) -> str:
    """``path`` as text that every output can encode: bytes of a file name that are not valid
    UTF-8 (kept by Python as surrogates) are shown as ``\\xNN``."""
    if path.isascii():
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def read_stream(stream: BinaryIO | Unreadable, path: str, size: int = -1) -> tuple[FileInfo, Iterator[Chunk | Finding]]:
    """Read one binary stream; returns its :class:`FileInfo` (filled in as it is read) and items.

    Findings, chunks and the file info carry :func:`display_path` of ``path``; ``FileInfo.source``
    keeps ``path`` itself.  An :class:`Unreadable` stream yields one P008 finding.
    """
    shown = display_path(path)
    info = FileInfo(shown, size, "unknown", source=path)
    if isinstance(stream, Unreadable):
        info.encoding = "unreadable"
        return info, iter([F.make("P008", shown, None, None, stream.reason)])
    return info, split_hands(iter_runs(stream, shown, info), shown, info)


def expand_paths(paths: Iterable[str], skipped: list[str] | None = None) -> Iterator[str]:
    """Files named, and files under directories named (recursively, sorted), ``-`` for stdin.

    Under a directory, files whose suffix marks them as another tool's sidecar (``.hp``, ``.json``
    ...) are skipped; a file named explicitly is always read.  Symbolic links to directories are
    not followed (no loops); a directory that cannot be listed is yielded itself, and
    :func:`open_source` says why it is not read.
    """
    failed: list[str] = []
    for p in paths:
        if p == "-" or not os.path.isdir(p):
            yield p
            continue
        for root, dirs, files in os.walk(p, onerror=lambda e: failed.append(str(e.filename))):
            yield from sorted(failed)
            failed.clear()
            dirs.sort()
            for name in sorted(files):
                if name.lower().endswith(SKIP_SUFFIXES) or name.startswith("."):
                    if skipped is not None:
                        skipped.append(os.path.join(root, name))
                    continue
                yield os.path.join(root, name)
        yield from sorted(failed)


#: Paths that name a pipe on purpose (``hhaudit audit <(zcat hands.gz)``, ``/dev/stdin``).
PIPE_PATHS = ("/dev/stdin", "/dev/fd/", "/proc/self/fd/")
_KINDS = {
    stat.S_IFDIR: "a directory that cannot be listed",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def open_source(path: str) -> tuple[BinaryIO | Unreadable, int]:
    """Open a path (or ``-`` for standard input) for binary reading.

    Raises OSError only when ``path`` does not exist at all (a usage error).  A source that exists
    but cannot be read (permissions, a dangling link, a link loop), and special files (FIFOs,
    devices, sockets: reading them could block or never end) are returned as :class:`Unreadable`,
    which :func:`read_stream` reports as P008.  The file is opened non-blocking and checked on
    its descriptor, so a FIFO swapped in after listing cannot hang the run.
    """
    if path == "-":
        if sys.stdin is None or sys.stdin.closed:
            return Unreadable("standard input is closed"), -1
        try:
            return sys.stdin.buffer, -1
        except (AttributeError, ValueError):
            return Unreadable("standard input cannot be read as bytes"), -1
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        if not os.path.lexists(path):
            raise
        return Unreadable(f"cannot read {display_path(path)}: a symbolic link to a missing file"), -1
    except OSError as e:
        return Unreadable(f"cannot read {display_path(path)}: {e.strerror or e}"), -1
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) and not (stat.S_ISFIFO(st.st_mode) and path.startswith(PIPE_PATHS)):
        os.close(fd)
        kind = _KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file")
        return Unreadable(f"{display_path(path)} is {kind}: skipped, only regular files are read"), -1
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb"), st.st_size if stat.S_ISREG(st.st_mode) else -1


def read_text(text: str, path: str = "<text>") -> Iterator[Chunk | Finding]:
    """Split an in-memory string into hands (tests, the explain command)."""
    data = text.encode("utf-8")
    return read_stream(io.BytesIO(data), path, len(data))[1]
