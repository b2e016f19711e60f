"""The split's header detection by first character (``ingest.HeaderDispatch``) answers exactly what
the registry's detector answers, on every line: it only leaves out formats whose header could not
start with the line's first character (issue 16)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.formats import REGISTRY
from auditor.formats.firstchars import first_chars
from auditor.formats.registry import Registry
from auditor.ingest import HeaderDispatch, expand_paths, read_stream
from auditor.lineprefix import prefixes, scanner
from tests.conftest import FIXTURES, corpus_dir
from tests.test_pegline import lines_under


def _dispatch() -> HeaderDispatch:
    d = HeaderDispatch()
    d.WARM = 0  # built at once
    return d


def test_every_fixture_and_corpus_line_is_detected_as_the_registry_detects_it() -> None:
    d = _dispatch()
    lines = lines_under(FIXTURES, corpus_dir())
    assert len(lines) > 50_000
    wrong = [(line, d(line), REGISTRY.detect(line)) for line in lines if d(line) != REGISTRY.detect(line)]
    assert wrong == []
    # and the headers are there to be found (the comparison is not between two Nones)
    assert sum(1 for line in lines if d(line) is not None) > 5_000


#: The characters header patterns start with, and a few that none does.
_HEADS = ["PokerStars Hand #1: ", "Poker Hand #HD1: ", "#Game No : 12", "***** Hand History for Game 1 *****",
          "Game #1: ", "Winamax Poker - ", "Hand #1-2 - 2012-", "Stage #C1: ", "Seat 1: a",
          "\ufeffPokerStars Game #2: ", "Full Tilt Poker Game #3: Table x - ", "", " ", "x"]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_HEADS), st.text(max_size=30), st.booleans())
def test_any_line_is_detected_as_the_registry_detects_it(head: str, tail: str, cut: bool) -> None:
    d = _dispatch()
    line = (head[: len(tail) % (len(head) + 1)] if cut else head) + tail
    assert d(line) == REGISTRY.detect(line)
    assert d(tail) == REGISTRY.detect(tail)


def test_the_split_is_the_same_before_and_after_the_dispatch_is_built() -> None:
    """A whole folder split with the plain detector (a one-hand run never builds the dispatch) and
    with the dispatch gives the same chunks and findings."""
    import auditor.ingest as ingest

    def split_all() -> list[object]:
        out: list[object] = []
        for p in expand_paths([str(FIXTURES / "sites"), str(FIXTURES / "samples")]):
            with open(p, "rb") as f:
                data = f.read()
            out.extend(read_stream(io.BytesIO(data), p, len(data))[1])
        return out

    saved = ingest.detect_header
    try:
        ingest.detect_header = HeaderDispatch()
        ingest.detect_header.WARM = 10**9
        plain = split_all()
        assert not ingest.detect_header.by_char
        ingest.detect_header = _dispatch()
        fast = split_all()
        assert ingest.detect_header.by_char
    finally:
        ingest.detect_header = saved
    assert fast == plain
    assert len(plain) > 200


def test_the_dispatch_tables_from_the_cache_are_those_derived_from_the_patterns(cache_dir: Path) -> None:
    """The split's tables (``Registry.header_dispatch``) come from the on-disk cache with their
    programs (issue 16): equal to deriving them now, cold, warm and after a corrupt file; each
    character's pattern is the alternation of the formats' header groups it can start, in order."""
    r = Registry()
    parts = [f"(?P<fmt_{f.name}>{f.header_pattern()})" for f in r.supported() if not f.is_document]
    firsts = [first_chars(re.compile(p)) for p in parts]
    chars = {c for f in firsts if f is not None for c in f}
    assert len(chars) > 10

    def alternation(c: str | None) -> re.Pattern[str] | None:
        chosen = [p for p, f in zip(parts, firsts, strict=True) if f is None or (c is not None and c in f)]
        return re.compile("|".join(chosen)) if chosen else None

    starts: set[str] = set()
    for rx in (*map(re.compile, (f.header_pattern() for f in r.supported() if not f.is_document)), r.separator_line):
        found = prefixes(rx)
        assert found is not None
        starts |= found
    scan = scanner(frozenset(starts))
    want = {"by_char": {c: alternation(c) for c in chars}, "other": alternation(None), "scan": scan}
    for r in (Registry(), Registry()):  # cold, then warm
        assert r.header_dispatch == want
        assert r.separator_firsts == first_chars(r.separator_line) == frozenset("*")
    (path,) = cache_dir.glob("dispatch-*.pickle")
    path.write_bytes(b"\x80\x05garbage")
    assert Registry().header_dispatch == want  # rebuilt
