"""The split's fast path (issue 16): runs of plain 8-bit lines (``ingest.iter_runs``) are taken a
stretch at a time, up to the next line that may be a header or a separator (``HeaderDispatch.scan``,
read from the patterns by ``auditor.lineprefix``); the chunks and findings are those of the split
line by line (``ingest.iter_lines``), on every corpus and fixture file and on hostile inputs."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import auditor.ingest as ingest
from auditor.formats import REGISTRY
from auditor.ingest import FileInfo, HeaderDispatch, Run, expand_paths, iter_lines, iter_runs, split_hands
from auditor.lineprefix import prefixes, scanner
from tests.conftest import FIXTURES, corpus_dir
from tests.test_fuzz import mutated
from tests.test_pegline import lines_under


@pytest.fixture(autouse=True)
def built_dispatch() -> Iterator[HeaderDispatch]:
    """The run's dispatch built at once (as after the first 4,000 lines of a run)."""
    saved = ingest.detect_header
    ingest.detect_header = HeaderDispatch()
    ingest.detect_header.WARM = 0
    try:
        yield ingest.detect_header
    finally:
        ingest.detect_header = saved


def both(data: bytes, path: str = "mem.txt") -> tuple[tuple[list[object], FileInfo], tuple[list[object], FileInfo]]:
    """The split of ``data`` line by line, and with runs (each with its file info)."""
    out = []
    for read in (iter_lines, iter_runs):
        info = FileInfo(path, len(data), "unknown", source=path)
        out.append((list(split_hands(read(io.BytesIO(data), path, info), path, info)), info))
    return out[0], out[1]


def test_every_corpus_and_fixture_file_splits_the_same_with_runs() -> None:
    paths = list(expand_paths([str(FIXTURES), str(corpus_dir())]))
    assert len(paths) > 500
    ran = 0
    for p in paths:
        with open(p, "rb") as f:
            data = f.read()
        slow, fast = both(data, p)
        assert fast == slow, p
        ran += len(slow[0])
    assert ran > 5_000
    assert ingest.detect_header.scanner() is not None  # (the runs were searched)


def test_plain_text_comes_as_runs() -> None:
    data = (FIXTURES / "samples" / "disputed_reraise.txt").read_bytes() * 3
    info = FileInfo("x", len(data), "unknown")
    items = list(iter_runs(io.BytesIO(data), "x", info))
    assert any(isinstance(i, Run) for i in items)
    assert [p for i in items for p in (i.pairs() if isinstance(i, Run) else [i])] == list(
        iter_lines(io.BytesIO(data), "x", FileInfo("x", len(data), "unknown"))
    )


def test_every_header_and_separator_line_is_found_by_the_scan() -> None:
    scan = ingest.detect_header.scanner() or _built()
    lines = lines_under(FIXTURES, corpus_dir())
    missed = [line for line in lines if (REGISTRY.detect(line) or REGISTRY.separator_line.match(line))
              and not scan.match("\n" + line)]  # fmt: skip
    assert missed == []


def _built() -> re.Pattern[str]:
    ingest.detect_header("x")
    scan = ingest.detect_header.scanner()
    assert scan is not None
    return scan


_HEADS = ["PokerStars Hand #1: ", "Poker Hand #HD1: ", "#Game No : 12", "***** Hand History for Game 1 *****",
          "Game #1: ", "Winamax Poker - ", "Hand #1-2 - 2012-", "Stage #C1: ", "Seat 1: a", "*** # 12 ***",
          "\ufeffPokerStars Game #2: ", "Full Tilt Poker Game #3: Table x - ", "", " ", "x",
          "\u00ef\u00bb\u00bfHand#"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_HEADS), st.text(max_size=30), st.booleans())
def test_any_header_line_is_found_by_the_scan(head: str, tail: str, cut: bool) -> None:
    scan = _built()
    line = (head[: len(tail) % (len(head) + 1)] if cut else head) + tail
    if "\n" in line:
        return
    if REGISTRY.detect(line) or REGISTRY.separator_line.match(line):
        assert scan.match("\n" + line)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=mutated())
def test_hostile_input_splits_the_same_with_runs(data: bytes) -> None:
    slow, fast = both(data)
    assert fast == slow


_PIECES = [b"PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02) - 2020/01/01 1:00:00 ET\n",
           b"Seat 1: a ($1 in chips)\n", b"*** # 7 ***\n", b"PokerStars Tournament #5, Freeroll\n",
           b"#Game No : 12\n", b"\n", b"  \t\n", b"\r\n", b"a: folds \n", b"\xef\xbb\xbf",
           b"Tournament will start in a moment.\n", b"\xa0\n", b"x" * 300 + b"\n"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(_PIECES), max_size=60), st.integers(1, 12))
def test_lines_of_every_kind_split_the_same_with_runs(pieces: list[bytes], limit: int) -> None:
    """Headers, separators, summaries, lead-ins, preambles, blank lines, BOMs, and hands over a
    (lowered) size limit, in any order."""
    saved = ingest.MAX_HAND_LINES, ingest.MAX_HAND_CHARS
    ingest.MAX_HAND_LINES, ingest.MAX_HAND_CHARS = limit, 40 * limit
    try:
        slow, fast = both(b"".join(pieces))
    finally:
        ingest.MAX_HAND_LINES, ingest.MAX_HAND_CHARS = saved
    assert fast == slow


@pytest.mark.parametrize(
    ("pattern", "text"),
    [("a*b", "aaab"), (r"(?:x?)*y", "xxy"), (r"ab{2,5}c", "abbbc"), (r"(?=Poker)P", "Poker"),
     (r"\*{3,} # \d+", "***** # 12"), (r"(?:Bodog(?:\.com| UK)?) Hand", "Bodog UK Hand"), (r"\ufeff?Stage", "Stage")],
)  # fmt: skip
def test_prefixes_start_every_match(pattern: str, text: str) -> None:
    found = prefixes(re.compile(pattern))
    assert found is not None and any(text.startswith(p) for p in found)
    assert scanner(found).match("\n" + text)


@pytest.mark.parametrize("pattern", [r"\d{3}-", r".x", r"[^a]b", r"(?i)poker", r"x?", r"\w+"])
def test_prefixes_of_a_pattern_that_may_start_anywhere_are_unknown(pattern: str) -> None:
    assert prefixes(re.compile(pattern)) is None


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_every_match_of_a_header_pattern_starts_with_one_of_its_prefixes(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from([f.name for f in REGISTRY.supported() if not f.is_document]))
    rx = re.compile(REGISTRY.patterns[name][0])
    found = prefixes(rx)
    assert found is not None
    text = data.draw(st.from_regex(rx, fullmatch=True))
    assert text.startswith(tuple(found)), (name, text)


class _Counting:
    """A scan pattern that counts its searches."""

    def __init__(self, rx: re.Pattern[str]) -> None:
        self.rx = rx
        self.searches = 0

    def search(self, text: str, pos: int) -> re.Match[str] | None:
        self.searches += 1
        return self.rx.search(text, pos)


@pytest.mark.skipif(not ingest.__file__.endswith(".py"), reason="compiled: the dispatch's scan is a typed attribute")
def test_a_hand_over_the_size_limit_is_searched_once_a_stretch(built_dispatch: HeaderDispatch) -> None:
    """A stretch of lines read one at a time (the hand reaches its size limit in it) is not searched
    again at each of its lines (which made a huge hand's split quadratic)."""
    counting = _Counting(_built())
    built_dispatch.scan = counting  # type: ignore[assignment]
    hand = (FIXTURES / "samples" / "disputed_reraise.txt").read_text("utf-8")
    head = hand.split("\n", 1)[0]
    data = (head + "\n" + "a: folds\n" * 30_000 + hand).encode()
    slow, fast = both(data)
    assert fast == slow
    assert [getattr(i, "code", "chunk") for i in fast[0]] == ["P007", "chunk", "chunk"]
    assert counting.searches < 50
