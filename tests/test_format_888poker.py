"""888poker / Pacific Poker: the corpus folder is read whole, its findings are the expected ones,
violations injected into its real hands are caught at their lines, and its one fpdb sidecar agrees.

888 prints amounts in brackets, a raise as the chips put in (``raises [$6]``), no "Uncalled bet" line
and no all-in mark, so the mutators here write 888's own lines (the shared ones write PokerStars').
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import Chunk, parse_chunk
from auditor.ingest import SKIP_SUFFIXES, expand_paths, read_stream
from auditor.profiles import for_hand
from tests.conftest import CORPUS
from tests.test_mutations import Clean, Mutant, actions, audit_text, number_text

FOLDER = CORPUS / "888poker"
EXPECTED = Path(__file__).parent / "corpus_expected" / "888poker.tsv"

needs_corpus = pytest.mark.skipif(not FOLDER.is_dir(), reason=f"corpus folder {FOLDER} absent")

# Every 888 hand prints exactly one "***** <brand> Hand History for Game N *****" line (the
# "#Game No : N" line above it is missing in some generations); an older generation may run it into
# the previous line ("Game #N starts.***** Hand History ..."), so the count is not anchored.
_HEADER = re.compile(r"\*{5} [^\n*]*?Hand History for Game \d+ \*{5}")


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def independent_count(root: Path) -> Counter[str]:
    """Hand headers per file, by a plain regex over the decoded raw files (sidecars aside)."""
    out: Counter[str] = Counter()
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.name.lower().endswith(SKIP_SUFFIXES):
            n = len(_HEADER.findall(_decode(p.read_bytes())))
            if n:
                out[str(p)] = n
    return out


@cache
def corpus_read() -> tuple[Counter[str], Counter[str], list[Finding], list[tuple[str, M.Hand]]]:
    """Per file: hands seen and parsed; every finding; every parsed hand."""
    seen: Counter[str] = Counter()
    parsed: Counter[str] = Counter()
    findings: list[Finding] = []
    hands: list[tuple[str, M.Hand]] = []
    for path in expand_paths([str(FOLDER)]):
        data = Path(path).read_bytes()
        for item in read_stream(io.BytesIO(data), path, len(data))[1]:
            if isinstance(item, Finding):
                findings.append(item)
                continue
            seen[path] += 1
            hand, fs = parse_chunk(item)
            findings += fs
            if hand is not None:
                parsed[path] += 1
                hands.append((path, hand))
                findings += audit_hand(hand, for_hand(hand.site, None)).findings
    return seen, parsed, findings, hands


@needs_corpus
def test_every_hand_is_seen_and_parsed() -> None:
    seen, parsed, findings, _ = corpus_read()
    expected = independent_count(FOLDER)
    assert sum(expected.values()) >= 450
    assert seen == expected, "hands seen per file differ from the independent header count"
    failed = sum(seen.values()) - sum(parsed.values())
    assert sum(parsed.values()) / sum(seen.values()) >= 0.995
    # a hand that cannot be read is a finding with its file and line
    unreadable = [f for f in findings if f.code in ("P001", "P006")]
    assert len(unreadable) == failed
    assert all(f.path and f.line for f in unreadable)


# (the folder's serious findings against tests/corpus_expected/: tests/test_corpus_expected.py)


@needs_corpus
def test_generations_and_game_types_are_read() -> None:
    _, _, _, hands = corpus_read()
    assert {h.game for _, h in hands} >= {"holdem", "omaha", "omaha_hilo"}
    assert {h.structure for _, h in hands} >= {"NL", "PL", "FL"}
    assert any(h.is_tournament for _, h in hands) and any(not h.is_tournament for _, h in hands)
    assert any(h.play_money for _, h in hands)
    brands = Counter(h.extras.get("brand") for _, h in hands)
    assert brands["888poker"] and brands["Cassava"] and brands["888.ro"]
    # tournament chips printed "1.550 $" are 1,550 chips, not $1.55
    blast = next(h for p, h in hands if p.endswith("NLHE-STT-5.00-201901.BLAST.txt"))
    assert blast.decimals == 0 and blast.currency is None
    assert {s.player: s.stack for s in blast.seats}["Elchmann77"] == 1550


# ------------------------------------------------------------------------------ mutations


@cache
def clean_hands() -> tuple[Clean, ...]:
    out: list[Clean] = []
    for path in expand_paths([str(FOLDER)]):
        data = Path(path).read_bytes()
        for c in read_stream(io.BytesIO(data), path, len(data))[1]:
            if not isinstance(c, Chunk) or c.site != "888poker":
                continue  # (the two bare-header hands of 888's 2012 generation are read as PartyPoker's)
            hand, fs = parse_chunk(Chunk("m.txt", c.site, 1, c.lines))
            if hand is None or fs or not hand.complete:
                continue
            a = audit_hand(hand, for_hand(hand.site, None))
            if a.findings or not a.trace.betting:
                continue
            out.append(Clean(c.lines, hand, a.trace))
    return tuple(out)


def money(h: M.Hand, value: int) -> str:
    return ("$" if h.currency == "USD" and not h.is_tournament else "") + number_text(h, value)


def _collect_line(c: Clean, player: str) -> M.Collect | None:
    return next((e for e in c.hand.events if isinstance(e, M.Collect) and e.player == player), None)


def m_collect_plus_one(c: Clean) -> Iterator[Mutant]:
    """A collected amount one unit too large, where every chip put in was collected (a tournament
    hand with no uncalled part: nothing is raked or returned silently), so one more is too many."""
    if not c.hand.is_tournament:
        return
    put_in = sum(pl.committed for pl in c.trace.players.values())
    if put_in != sum(e.amount for e in c.hand.events if isinstance(e, M.Collect)):
        return
    for e in c.hand.events:
        if isinstance(e, M.Collect):
            lines = list(c.lines)
            lines[c.rel(e.line)] = f"{e.player} collected [ {money(c.hand, e.amount + 1)} ]"
            yield Mutant(lines, "A", c.rel(e.line) + 1)
            return


def m_over_stack(c: Clean) -> Iterator[Mutant]:
    """A starting stack one unit below what the player put in."""
    h = c.hand
    for name, pl in c.trace.players.items():
        if pl.all_in or not pl.seated or pl.committed < 2:
            continue
        seat = next(s for s in h.seats if s.player == name)
        last = [s for s in c.trace.steps if s.event.player == name and s.add > 0][-1]
        lines = list(c.lines)
        lines[c.rel(seat.line)] = f"Seat {seat.seat}: {name} ( {money(h, pl.committed - 1)} )"
        yield Mutant(lines, "S", c.rel(last.event.line) + 1)
        return


def m_duplicate_card(c: Clean) -> Iterator[Mutant]:
    """A card of the hero's hand on the flop."""
    hero = next((e for e in c.hand.events if isinstance(e, M.HoleCards) and e.cards), None)
    flop = next((e for e in c.hand.events if isinstance(e, M.Board) and e.street == "flop"), None)
    if hero is None or flop is None:
        return
    lines = list(c.lines)
    i = c.rel(flop.line)
    lines[i] = lines[i].replace(flop.cards[0], hero.cards[0], 1)
    yield Mutant(lines, "H002", i + 1)


def m_swap_folds(c: Clean) -> Iterator[Mutant]:
    """Two folds by different players one after the other, swapped."""
    for a, b in pairwise(c.trace.steps):
        ea, eb = a.event, b.event
        if (
            isinstance(ea, M.Action) and isinstance(eb, M.Action) and ea.kind == eb.kind == "fold"
            and eb.line == ea.line + 1 and ea.player != eb.player and a.betting
        ):  # fmt: skip
            lines = list(c.lines)
            i, j = c.rel(ea.line), c.rel(eb.line)
            lines[i], lines[j] = lines[j], lines[i]
            yield Mutant(lines, "B004", i + 1)
            return


def m_pot_to_loser(c: Clean) -> Iterator[Mutant]:
    """The only collect line of a shown-down hand names a player who showed a losing hand."""
    collects = [e for e in c.hand.events if isinstance(e, M.Collect)]
    shows = [e for e in c.hand.events if isinstance(e, M.Show)]
    if len(collects) != 1 or len(shows) < 2:
        return
    win = collects[0]
    loser = next((s.player for s in shows if s.player != win.player), None)
    if loser is None:
        return
    lines = list(c.lines)
    lines[c.rel(win.line)] = f"{loser} collected [ {money(c.hand, win.amount)} ]"
    yield Mutant(lines, "A004", c.rel(win.line) + 1)


def m_small_raise(c: Clean) -> Iterator[Mutant]:
    """A no-limit raise one unit below the minimum (888 prints the chips put in)."""
    for s in actions(c, "raise"):
        e = s.event
        assert isinstance(e, M.Action)
        below = s.min_raise_to - 1
        if s.fl_bet is None and not s.all_in_after and below > s.current_bet and s.min_raise_to <= e.to:
            lines = list(c.lines)
            lines[c.rel(e.line)] = f"{e.player} raises [{money(c.hand, below - s.street_bet)}]"
            yield Mutant(lines, "B002", c.rel(e.line) + 1)
            return


MUTATORS: dict[str, Callable[[Clean], Iterator[Mutant]]] = {
    "collect+1": m_collect_plus_one, "over-stack": m_over_stack,
    "duplicate-card": m_duplicate_card, "swapped-folds": m_swap_folds, "pot-to-loser": m_pot_to_loser,
    "small-raise": m_small_raise,
}  # fmt: skip


@needs_corpus
@pytest.mark.parametrize("name", sorted(MUTATORS))
def test_injected_violation_is_found(name: str) -> None:
    done = 0
    wrong: list[str] = []
    for c in clean_hands():
        for m in MUTATORS[name](c):
            got = [(f.code, f.line) for f in audit_text(m.lines) if f.code[0] in "BSAHP"]
            if not got or not got[0][0].startswith(m.code) or got[0][1] != m.line:
                wrong.append(f"hand {c.hand.hand_id}: expected {(m.code, m.line)}, got {got[:4]}")
            done += 1
        if done >= 15:
            break
    assert done >= 3, f"only {done} hands offered a place to inject {name}"
    assert not wrong, "\n".join(wrong[:10])


# ------------------------------------------------------------------------------ fpdb sidecar


@needs_corpus
def test_fpdb_sidecar_agrees() -> None:
    """The folder's one fpdb ``.hp`` sidecar (first hand of the file): seats, stacks, winnings, profit."""
    from tests.test_fpdb_crosscheck import _hp_players, first_hand, hhaudit_view

    raws = sorted(p.with_name(p.name[: -len(".hp")]) for p in FOLDER.rglob("*.hp"))
    assert raws
    for raw in raws:
        hand, findings = first_hand(raw)
        assert hand is not None and not findings
        mine, _ = hhaudit_view(hand)
        theirs = _hp_players(raw.with_name(raw.name + ".hp"))
        assert set(mine) == set(theirs)
        for player, values in theirs.items():
            for field in ("seatNo", "startCash", "winnings", "totalProfit"):
                assert mine[player][field] == values[field], (raw.name, player, field)
