"""Mutation tests: take real hands that audit clean, inject one violation, expect its code at its line.

Each mutator reads the replay's facts of a clean hand to find a place where the violation can be
injected, edits one line of the hand's text (or inserts one), and says which (code, line) the
audit must report first.  Findings that follow from the injected one (a raise nobody answers
makes the next street early, say) may come after it; the injected finding must be the first.
The corpus supplies the hands (PokerStars, GGPoker, Winamax); without it the fixtures do.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise, zip_longest
from pathlib import Path

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import Chunk, parse_chunk
from auditor.ingest import expand_paths, read_stream
from auditor.profiles import for_hand
from auditor.replay import Step, Trace
from tests.conftest import CORPUS, FIXTURES

PER_CODE = 25  # mutated hands per code (the first found, in a fixed order)
MIN_PER_CODE = 3


@dataclass(frozen=True)
class Clean:
    lines: tuple[str, ...]
    hand: M.Hand
    trace: Trace

    def rel(self, line: int) -> int:
        """0-based index in ``lines`` of a file line of the hand."""
        return line - self.hand.first_line


@dataclass(frozen=True)
class Mutant:
    lines: list[str]
    code: str
    line: int  # 1-based line within the mutated hand text


@cache
def clean_hands() -> tuple[Clean, ...]:
    from auditor.pipeline import audit

    roots = [CORPUS / s for s in ("pokerstars", "ggpoker", "winamax") if (CORPUS / s).is_dir()]
    fixtures = not roots
    if fixtures:  # the same sites' fixtures, without the files of converters (P009: their totals are not the site's)
        roots = [FIXTURES / "sites" / s for s in ("pokerstars", "ggpoker", "winamax")]
    out: list[Clean] = []
    for path in expand_paths(str(r) for r in roots):
        if fixtures and any(f.code == "P009" for f in audit([path])[1]):
            continue
        data = Path(path).read_bytes()
        for c in read_stream(io.BytesIO(data), path, len(data))[1]:
            if not isinstance(c, Chunk):
                continue
            standalone = Chunk("m.txt", c.site, 1, c.lines)
            hand, fs = parse_chunk(standalone)
            if hand is None or fs or hand.cancelled or not hand.complete:
                continue
            a = audit_hand(hand, for_hand(hand.site, None))
            trace, findings = a.trace, a.findings
            if findings or not trace.betting:
                continue
            if audit_text(list(c.lines)):  # clean as the mutants are read too (a converter's file: P009)
                continue
            out.append(Clean(c.lines, hand, trace))
    # interleave the sites so that every site's hands are mutated, not only the first site's
    by_site: dict[str, list[Clean]] = {}
    for c2 in out:
        by_site.setdefault(c2.hand.site, []).append(c2)
    mixed: list[Clean] = []
    for group in zip_longest(*by_site.values()):
        mixed += [c2 for c2 in group if c2 is not None]
    return tuple(mixed)


def audit_text(lines: list[str]) -> list[Finding]:
    data = "\n".join(lines).encode("utf-8")
    found: list[Finding] = []
    for c in read_stream(io.BytesIO(data), "m.txt", len(data))[1]:
        if isinstance(c, Finding):
            found.append(c)
            continue
        hand, fs = parse_chunk(c)
        found += fs
        if hand is not None:
            found += audit_hand(hand, for_hand(hand.site, None)).findings
    return found


def number_text(hand: M.Hand, value: int) -> str:
    """An amount's number, in the hand's unit, without a currency."""
    if hand.decimals:
        whole, frac = divmod(value, 10**hand.decimals)
        return f"{whole}.{frac:0{hand.decimals}d}"
    return str(value)


def amount_text(hand: M.Hand, value: int) -> str:
    """An amount written the way the hand's site writes it."""
    num = number_text(hand, value)
    if hand.play_money or hand.is_tournament or not hand.currency:
        return num
    if hand.site == "winamax":
        return num + "€" if hand.currency == "EUR" else num
    return {"USD": "$", "EUR": "€", "GBP": "£", "INR": "Rs. "}.get(hand.currency, "") + num


def sep(hand: M.Hand) -> str:
    return " " if hand.site == "winamax" else ": "


def actions(c: Clean, kind: str) -> Iterator[Step]:
    for s in c.trace.steps:
        e = s.event
        if isinstance(e, M.Action) and e.kind == kind and s.betting and not s.hand_over:
            yield s


# ------------------------------------------------------------------------------ mutators


def m_b001(c: Clean) -> Iterator[Mutant]:
    """A player who had acted and is not re-opened calls; make it a (full-size) raise."""
    h = c.hand
    for s in actions(c, "call"):
        e = s.event
        if s.acted_before and not s.reopened and s.fl_bet is None and s.stack > s.min_raise_to - s.street_bet:
            lines = list(c.lines)
            lines[c.rel(e.line)] = (
                f"{e.player}{sep(h)}raises {amount_text(h, s.min_raise_to - s.current_bet)} "
                f"to {amount_text(h, s.min_raise_to)}"
            )
            yield Mutant(lines, "B001", c.rel(e.line) + 1)


def m_b002(c: Clean) -> Iterator[Mutant]:
    """A raise one unit below the minimum."""
    h = c.hand
    for s in actions(c, "raise"):
        e = s.event
        below = s.min_raise_to - 1
        if s.fl_bet is None and not s.all_in_after and below > s.current_bet and s.min_raise_to <= e.to:
            lines = list(c.lines)
            lines[c.rel(e.line)] = (
                f"{e.player}{sep(h)}raises {amount_text(h, below - s.current_bet)} to {amount_text(h, below)}"
            )
            yield Mutant(lines, "B002", c.rel(e.line) + 1)


def m_b003(c: Clean) -> Iterator[Mutant]:
    """A bet one unit below the big blind."""
    h = c.hand
    for s in actions(c, "bet"):
        e = s.event
        if s.fl_bet is None and not s.all_in_after and s.min_bet > 1:
            lines = list(c.lines)
            lines[c.rel(e.line)] = f"{e.player}{sep(h)}bets {amount_text(h, s.min_bet - 1)}"
            yield Mutant(lines, "B003", c.rel(e.line) + 1)


def m_b004(c: Clean) -> Iterator[Mutant]:
    """Two folds by different players, one after the other: swap them."""
    steps = c.trace.steps
    for a, b in pairwise(steps):
        ea, eb = a.event, b.event
        if (
            isinstance(ea, M.Action) and isinstance(eb, M.Action) and ea.kind == eb.kind == "fold"
            and eb.line == ea.line + 1 and ea.player != eb.player and a.betting
        ):  # fmt: skip
            lines = list(c.lines)
            i, j = c.rel(ea.line), c.rel(eb.line)
            lines[i], lines[j] = lines[j], lines[i]
            yield Mutant(lines, "B004", i + 1)


def m_b005(c: Clean) -> Iterator[Mutant]:
    """A player who folded checks on the next line."""
    h = c.hand
    for s in actions(c, "fold"):
        e = s.event
        lines = list(c.lines)
        i = c.rel(e.line)
        lines.insert(i + 1, f"{e.player}{sep(h)}checks")
        yield Mutant(lines, "B005", i + 2)


def m_b006(c: Clean) -> Iterator[Mutant]:
    """A call facing a bet becomes a check."""
    h = c.hand
    for s in actions(c, "call"):
        e = s.event
        lines = list(c.lines)
        lines[c.rel(e.line)] = f"{e.player}{sep(h)}checks"
        yield Mutant(lines, "B006", c.rel(e.line) + 1)


def m_b007(c: Clean) -> Iterator[Mutant]:
    """A call one unit short (by a player who had chips to call in full)."""
    h = c.hand
    for s in actions(c, "call"):
        e = s.event
        if e.increment > 1 and not e.all_in and s.stack > e.increment:
            lines = list(c.lines)
            lines[c.rel(e.line)] = f"{e.player}{sep(h)}calls {amount_text(h, e.increment - 1)}"
            yield Mutant(lines, "B007", c.rel(e.line) + 1)


def m_b008(c: Clean) -> Iterator[Mutant]:
    """A pot-limit bet or raise one unit above the maximum."""
    h = c.hand
    for kind in ("bet", "raise"):
        for s in actions(c, kind):
            e = s.event
            if s.pl_max_to is None or s.stack <= s.pl_max_to + 1 - s.street_bet:
                continue
            over = s.pl_max_to + 1
            lines = list(c.lines)
            word = f"bets {amount_text(h, over)}" if kind == "bet" else (
                f"raises {amount_text(h, over - s.current_bet)} to {amount_text(h, over)}")  # fmt: skip
            lines[c.rel(e.line)] = f"{e.player}{sep(h)}{word}"
            yield Mutant(lines, "B008", c.rel(e.line) + 1)


def m_b009(c: Clean) -> Iterator[Mutant]:
    """A fixed-limit bet one unit too large."""
    h = c.hand
    for s in actions(c, "bet"):
        e = s.event
        if s.fl_bet is not None and s.stack > e.to + 1:
            lines = list(c.lines)
            lines[c.rel(e.line)] = f"{e.player}{sep(h)}bets {amount_text(h, e.to + 1)}"
            yield Mutant(lines, "B009", c.rel(e.line) + 1)


def m_b011(c: Clean) -> Iterator[Mutant]:
    """Delete the check that closed a betting round (the big blind's option, or the last check)."""
    for so_step in c.trace.steps:
        e = so_step.event
        if not (isinstance(e, M.Action) and e.kind == "check"):
            continue
        nxt = e.line + 1
        board = next((b for b in c.hand.events if isinstance(b, M.Board) and b.line == nxt and b.run == 1), None)
        if board is None:
            continue
        lines = list(c.lines)
        del lines[c.rel(e.line)]
        yield Mutant(lines, "B011", c.rel(board.line))


def m_s001(c: Clean) -> Iterator[Mutant]:
    """Lower a player's starting stack one unit below what they put in (no uncalled return)."""
    h = c.hand
    returned = {e.player for e in h.events if isinstance(e, M.UncalledReturn)}
    for name, pl in c.trace.players.items():
        if name in returned or pl.all_in or not pl.seated or pl.committed < 2:
            continue
        seat = next(s for s in h.seats if s.player == name)
        last = [s for s in c.trace.steps if s.event.player == name and s.add > 0][-1]
        new_stack = pl.committed - 1
        lines = list(c.lines)
        i = c.rel(seat.line)
        digits = number_text(h, new_stack)
        m = re.search(r"\((?:[^()]*?)(\d[\d,.]*)", lines[i])
        assert m is not None
        lines[i] = lines[i][: m.start(1)] + digits + lines[i][m.end(1) :]
        yield Mutant(lines, "S001", c.rel(last.event.line) + 1)


def m_s003(c: Clean) -> Iterator[Mutant]:
    """Remove the all-in marker from a wager that put a player all-in."""
    for s in c.trace.steps:
        e = s.event
        line = c.lines[c.rel(e.line)]
        if e.all_in and s.stack_after == 0 and line.endswith(" and is all-in"):
            lines = list(c.lines)
            lines[c.rel(e.line)] = line[: -len(" and is all-in")]
            yield Mutant(lines, "S003", c.rel(e.line) + 1)


def m_h002(c: Clean) -> Iterator[Mutant]:
    """Put a card of the hero's hand on the flop."""
    hero = next((e for e in c.hand.events if isinstance(e, M.HoleCards) and e.cards), None)
    flop = next((e for e in c.hand.events if isinstance(e, M.Board) and e.street == "flop" and e.run == 1), None)
    if hero is None or flop is None:
        return
    lines = list(c.lines)
    i = c.rel(flop.line)
    lines[i] = lines[i].replace(flop.cards[0], hero.cards[0], 1)
    yield Mutant(lines, "H002", i + 1)


def m_h003(c: Clean) -> Iterator[Mutant]:
    """Give the second seat line the first one's seat number."""
    seats = c.hand.seats
    if len(seats) < 2:
        return
    lines = list(c.lines)
    i = c.rel(seats[1].line)
    lines[i] = re.sub(r"^Seat \d+", f"Seat {seats[0].seat}", lines[i])
    yield Mutant(lines, "H003", i + 1)


MUTATORS: dict[str, Callable[[Clean], Iterator[Mutant]]] = {
    "B001": m_b001, "B002": m_b002, "B003": m_b003, "B004": m_b004, "B005": m_b005, "B006": m_b006,
    "B007": m_b007, "B008": m_b008, "B009": m_b009, "B011": m_b011, "S001": m_s001, "S003": m_s003,
    "H002": m_h002, "H003": m_h003,
}  # fmt: skip


@pytest.mark.parametrize("code", sorted(MUTATORS))
def test_injected_violation_is_found(code: str) -> None:
    done = 0
    wrong: list[str] = []
    sites: Counter[str] = Counter()
    for c in clean_hands():
        for m in MUTATORS[code](c):
            got = [(f.code, f.line) for f in audit_text(m.lines) if f.code[0] in "BSHP"]
            if not got or got[0] != (m.code, m.line):
                wrong.append(f"hand {c.hand.hand_id} ({c.hand.path}): expected {(m.code, m.line)}, got {got[:4]}")
            done += 1
            sites[c.hand.site] += 1
            break  # one mutant per hand
        if done >= PER_CODE:
            break
    if done < MIN_PER_CODE:
        pytest.skip(f"only {done} hands offered a place to inject {code}")
    assert not wrong, "\n".join(wrong[:10])
    print(f"{code}: {done} real hands mutated ({dict(sites)})")


def test_duplicate_hand_id_is_h001(tmp_path: Path) -> None:
    """A second, different record under a hand's id is H001; an identical copy is H005 (info)."""
    from auditor.pipeline import audit

    for c in clean_hands()[:PER_CODE]:
        f = tmp_path / f"{c.hand.site}.txt"
        changed = [*c.lines[:-1], c.lines[-1] + " "]  # the last line differs (a trailing space is kept)
        changed[-1] = c.lines[-1] + "x"
        f.write_text("\n".join([*c.lines, "", "", *c.lines, "", "", *changed]) + "\n", "utf-8")
        _, found = audit([str(f)])
        n = len(c.lines) + 2
        got = [(x.code, x.line) for x in found if x.code[0] in "BSHP" and x.code != "P002"]
        assert got == [("H005", n + 1), ("H001", 2 * n + 1)]


def test_fixed_limit_cap_b010() -> None:
    """No corpus hand reaches a cap; a built 3-way flop with a bet and four raises does (roberts: cap 3)."""
    from tests.handbuilder import HandBuilder

    hb = HandBuilder(blinds=(1, 2), players=[("A", 200), ("B", 200), ("C", 200)], structure="FL")
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 2)
    hb.raise_to("B", 4)
    hb.raise_to("C", 6)
    hb.raise_to("A", 8)
    hb.raise_to("B", 10)
    assert hb.codes(rules="roberts") == [("B010", hb.line_of("B: raises"))]
    assert hb.codes(rules="wsop-live") == []


def test_chips_added_mid_hand_s002() -> None:
    """A re-buy line, then a wager beyond the starting stack: S002 (not S001) at the wager."""
    from tests.handbuilder import HandBuilder

    hb = HandBuilder(blinds=(1, 2), players=[("A", 100), ("B", 100), ("C", 100)])
    hb.preflop_limp()
    hb.flop()
    hb.raw("A re-buys and receives 500 chips for $5")
    hb.bet("A", 150)
    assert hb.codes() == [("S002", hb.line_of("A: bets"))]
