"""Mutation tests on every clean real corpus hand of the Everest (XML) and Seals With Clubs (text)
families: each hand's own lines are edited where its events were printed (found through the
replay, not through the format's syntax), the edited hand is read again by its reader, and the
injected violation must be found with its code at its line.

The edits are format-agnostic: an amount is rewritten in the notation the line already uses (the
printed number, or the integer of minor units in an XML attribute), a card in the notation of the
line, lines are swapped or repeated whole.  tests/test_format_everest.py and
tests/test_format_sealswithclubs.py keep their fixture-based mutations; this file runs the same
kinds over the whole folders.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import Chunk, parse_chunk
from auditor.ingest import expand_paths, read_stream
from auditor.replay import Trace
from tests.conftest import corpus_dir

FOLDERS = ("everest", "sealswithclubs")


@dataclass(frozen=True)
class Clean:
    chunk: Chunk
    hand: M.Hand
    trace: Trace

    def rel(self, line: int) -> int:
        """0-based index in the chunk's lines of a file line."""
        return line - self.chunk.first_line


@dataclass(frozen=True)
class Mutant:
    lines: list[str]
    code: str
    line: int  # the file line the finding must name
    # or one of these (code, line) pairs: a collect beyond the player's pots is also A005 there
    alt: tuple[tuple[str, int], ...] = ()


@cache
def clean_hands(folder: str) -> tuple[Clean, ...]:
    out: list[Clean] = []
    for path in expand_paths([str(corpus_dir(folder))]):
        data = Path(path).read_bytes()
        for c in read_stream(io.BytesIO(data), path, len(data))[1]:
            if not isinstance(c, Chunk):
                continue
            hand, fs = parse_chunk(c)
            if hand is None or fs or hand.cancelled or not hand.complete:
                continue
            a = audit_hand(hand)
            if not a.findings:
                out.append(Clean(c, hand, a.trace))
    return tuple(out)


def audit_lines(c: Clean, lines: list[str]) -> list[Finding]:
    hand, fs = parse_chunk(dataclasses.replace(c.chunk, lines=tuple(lines)))
    return fs + (audit_hand(hand).findings if hand is not None else [])


def _tokens(h: M.Hand, value: int) -> list[tuple[str, Callable[[int], str]]]:
    """The ways a line may print ``value``: the number in the hand's unit ("6.83"), the integer of
    minor units ("17750", Everest's attributes), with thousands commas; each with its writer."""

    def unit(v: int) -> str:
        if h.decimals:
            whole, frac = divmod(v, 10**h.decimals)
            return f"{whole}.{frac:0{h.decimals}d}"
        return str(v)

    return [(unit(value), unit), (str(value), str), (f"{value:,}", lambda v: f"{v:,}")]


def rewrite_amount(h: M.Hand, line: str, value: int, new: int) -> str | None:
    """``line`` with the printed ``value`` replaced by ``new`` in the same notation (None: not found)."""
    for tok, write in _tokens(h, value):
        # an XML amount attribute first (not a position="2"), else the last number standing alone
        # (not the digit of a name like "Player2")
        found = list(re.finditer(rf'(?<=amount="){re.escape(tok)}(?=")', line)) or list(
            re.finditer(rf"(?<![\w.,]){re.escape(tok)}(?![\d])", line)
        )
        if found:
            m = found[0] if 'amount="' in line else found[-1]
            return line[: m.start()] + write(new) + line[m.end() :]
    return None


def _claim_line(c: Clean) -> int:
    claims = [e for e in c.hand.events if isinstance(e, M.PotClaim)]
    claim = next((e for e in claims if e.street == "summary"), claims[0] if claims else None)
    return claim.line if claim is not None else c.hand.last_line


# ------------------------------------------------------------------------------ mutators


def m_a010(c: Clean) -> Iterator[Mutant]:
    """A collect paid one unit more: the chips no longer add up (A010 at the pot's claim)."""
    for e in c.hand.events:
        if isinstance(e, M.Collect) and e.amount > 0:
            lines = list(c.chunk.lines)
            i = c.rel(e.line)
            new = rewrite_amount(c.hand, lines[i], e.amount, e.amount + 1)
            if new is not None:
                lines[i] = new
                yield Mutant(lines, "A010", _claim_line(c), alt=(("A005", e.line),))


def m_a001(c: Clean) -> Iterator[Mutant]:
    """An uncalled bet returned one unit short."""
    for e in c.hand.events:
        if isinstance(e, M.UncalledReturn) and e.amount > 1:
            lines = list(c.chunk.lines)
            i = c.rel(e.line)
            new = rewrite_amount(c.hand, lines[i], e.amount, e.amount - 1)
            if new is not None:
                lines[i] = new
                yield Mutant(lines, "A001", e.line)


def m_s001(c: Clean) -> Iterator[Mutant]:
    """A starting stack one unit below what the player put in (no return to them)."""
    returned = {e.player for e in c.hand.events if isinstance(e, M.UncalledReturn)}
    for seat in c.hand.seats:
        pl = c.trace.players.get(seat.player)
        steps = [s for s in c.trace.steps if s.event.player == seat.player and s.add > 0]
        if pl is None or pl.all_in or seat.player in returned or not steps:
            continue
        put = sum(s.add for s in steps)
        if put < 2:
            continue
        lines = list(c.chunk.lines)
        i = c.rel(seat.line)
        new = rewrite_amount(c.hand, lines[i], seat.stack, put - 1)
        if new is not None:
            lines[i] = new
            yield Mutant(lines, "S001", steps[-1].event.line)


def m_h002(c: Clean) -> Iterator[Mutant]:
    """A card of a player's hand dealt on the board too."""
    hole = next((e for e in c.hand.events if isinstance(e, M.HoleCards) and e.cards), None)
    board = next((e for e in c.hand.events if isinstance(e, M.Board) and e.cards and e.run == 1), None)
    if hole is None or board is None:
        return
    lines = list(c.chunk.lines)
    i = c.rel(board.line)
    if board.cards[0] in lines[i]:
        lines[i] = lines[i].replace(board.cards[0], hole.cards[0], 1)
        yield Mutant(lines, "H002", board.line)


def m_b004(c: Clean) -> Iterator[Mutant]:
    """Two folds of different players, one after the other, swapped: the first acts out of turn."""
    for a, b in pairwise(c.trace.steps):
        ea, eb = a.event, b.event
        if (isinstance(ea, M.Action) and isinstance(eb, M.Action) and ea.kind == eb.kind == "fold"
                and eb.line == ea.line + 1 and ea.player != eb.player and a.betting):  # fmt: skip
            lines = list(c.chunk.lines)
            i, j = c.rel(ea.line), c.rel(eb.line)
            lines[i], lines[j] = lines[j], lines[i]
            yield Mutant(lines, "B004", ea.line)


def m_b005(c: Clean) -> Iterator[Mutant]:
    """A fold line printed twice: the folded player acts again."""
    for s in c.trace.steps:
        e = s.event
        if isinstance(e, M.Action) and e.kind == "fold" and s.betting and not s.hand_over:
            lines = list(c.chunk.lines)
            i = c.rel(e.line)
            lines.insert(i + 1, lines[i])
            yield Mutant(lines, "B005", e.line + 1)


MUTATORS: dict[str, Callable[[Clean], Iterator[Mutant]]] = {
    "A001": m_a001, "A010": m_a010, "B004": m_b004, "B005": m_b005, "H002": m_h002, "S001": m_s001,
}  # fmt: skip


@pytest.mark.corpus
@pytest.mark.parametrize("folder", FOLDERS)
def test_injected_violations_are_found(folder: str) -> None:
    hands = clean_hands(folder)
    assert len(hands) >= 5, f"{folder}: only {len(hands)} clean hands"
    done: Counter[str] = Counter()
    wrong: list[str] = []
    for c in hands:
        for code, mutate in MUTATORS.items():
            for m in mutate(c):
                got = [(f.code, f.line) for f in audit_lines(c, m.lines)]
                if not {(m.code, m.line), *m.alt} & set(got):
                    wrong.append(f"{code} in hand {c.hand.hand_id} ({c.hand.path}): expected "
                                 f"{(m.code, m.line)}, got {got[:4]}")  # fmt: skip
                done[code] += 1
                break  # one mutant of each kind per hand
    assert not wrong, "\n".join(wrong)
    # every kind found a place in the folder's real hands, except a return only some hands print
    assert {k for k in MUTATORS if k != "A001"} <= set(done), done
    print(f"{folder}: {sum(done.values())} mutants of {len(hands)} clean hands: {dict(done)}")
