"""The fast body path (line rules tried one line at a time) gives exactly what the full
parsimonious parse gives: same Hand, same findings, on every fixture and corpus hand."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

from auditor.formats import REGISTRY, Chunk, peg
from auditor.formats.peg import MEMO_LINES, PegGrammar, read_hand
from auditor.formats.quick import READERS
from auditor.ingest import expand_paths, read_stream
from tests.conftest import FIXTURES, corpus_dir


def chunks(paths: list[str]) -> list[Chunk]:
    out: list[Chunk] = []
    for p in expand_paths(paths):
        data = Path(p).read_bytes()
        # the fast path is the PEG reader's: document formats (iPoker XML) have their own reader
        out += [
            c
            for c in read_stream(io.BytesIO(data), p, len(data))[1]
            if isinstance(c, Chunk) and not REGISTRY[c.site].is_document
        ]
    return out


def same(cs: list[Chunk]) -> int:
    n = 0
    for c in cs:
        if REGISTRY[c.site].is_document:
            continue  # read by a reader module, not a grammar: no fast path to compare
        n += 1
        g = REGISTRY[c.site].peg
        fast, slow = read_hand(g, c, fast=True), read_hand(g, c, fast=False)
        assert fast == slow, f"{c.path}:{c.first_line}"
    return n


def test_fixtures_fast_equals_full() -> None:
    assert same(chunks([str(FIXTURES / "sites")])) >= 30


def test_broken_hands_fast_equals_full() -> None:
    text = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text()
    variants = [
        text.replace("alice: bets $0.40", "alice: bets $0.40 and sings"),  # unknown line
        text.replace("Table 'Andromeda IV'", "Tabel"),  # P001 in the head
        text.replace("Seat 3: carol ($8.15 in chips)", "Seat 3: carol ($8.155 in chips)"),  # P006
        "\n".join(text.splitlines()[:12]),  # truncated: P005
        text.replace("dave: checks", "dave: checks\n\n\ndave: checks"),  # blank lines in the body
    ]
    cs = [c for v in variants for c in chunks_of(v)]
    assert same(cs) == len(variants)


def chunks_of(text: str) -> list[Chunk]:
    data = text.encode()
    return [c for c in read_stream(io.BytesIO(data), "v.txt", len(data))[1] if isinstance(c, Chunk)]


@pytest.mark.corpus
@pytest.mark.parametrize("site", ["pokerstars", "ggpoker", "winamax"])
def test_corpus_fast_equals_full(site: str) -> None:
    assert same(chunks([str(corpus_dir(site))])) > 100


def memo_answer(g: PegGrammar, line: str) -> tuple[object, tuple[object, ...]] | None:
    """What the fast path's matching gives a line, without the memo: the reader of the first rule
    that reads the whole line and the line's values (None: no quick reader reads it)."""
    for prefix, needs, regex, _expr, _name, handler, _fast, quick in g.dispatch.rules_for(line):
        if (prefix and not line.startswith(prefix)) or (needs and needs not in line) or regex is None:
            continue
        m = regex.match(line)
        if m is not None:
            assert m.end() == len(line), line
            return (READERS[handler], m.group(*quick)) if quick is not None else None
    return None


def test_the_line_memo_holds_the_grammars_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line the body-line memo holds (``Dispatch.memo``) is read, when matched again, by the same
    reader with the same values; the memo never holds more than ``MEMO_LINES`` lines (it starts
    again empty), and hands read with a full, a cleared or a tiny memo are the same."""
    cs = chunks([str(FIXTURES / "sites")])
    grammars = list({id(g): g for g in (REGISTRY[c.site].peg for c in cs)}.values())
    for g in grammars:
        g.dispatch.memo.clear()
    first = [read_hand(REGISTRY[c.site].peg, c) for c in cs]
    held = 0
    for g in grammars:
        assert len(g.dispatch.memo) <= MEMO_LINES
        for line, known in g.dispatch.memo.items():
            assert memo_answer(g, line) == known, (g.format, line)
            held += 1
    assert held > 200
    assert [read_hand(REGISTRY[c.site].peg, c) for c in cs] == first  # read again: memo hits
    monkeypatch.setattr(peg, "MEMO_LINES", 3)
    for g in grammars:
        g.dispatch.memo.clear()
    assert [read_hand(REGISTRY[c.site].peg, c) for c in cs] == first
    assert all(len(g.dispatch.memo) <= 3 for g in grammars)


def test_the_line_memo_is_not_pickled_with_the_grammar() -> None:
    g = REGISTRY["pokerstars"].peg
    read_hand(g, chunks([str(FIXTURES / "sites" / "pokerstars")])[0])
    assert g.dispatch.memo
    again = pickle.loads(pickle.dumps(g.dispatch))
    assert again.memo == {} and set(again.by_first) == set(g.dispatch.by_first)
    assert len(again.other) == len(g.dispatch.other)
