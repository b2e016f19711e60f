"""The fast body path (line rules tried one line at a time) gives exactly what the full
parsimonious parse gives: same Hand, same findings, on every fixture and corpus hand."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from auditor.formats import REGISTRY, Chunk
from auditor.formats.peg import read_hand
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
