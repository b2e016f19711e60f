"""WPN / Americas Cardroom: the corpus folder wpn-acr (formats `wpn`, 2019+, and `wpn2016`, the older
"Game started at:" exports), counted independently, and violations injected into its real hands."""

from __future__ import annotations

import codecs
import io
import re
from collections import Counter
from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.formats import Chunk, parse_chunk
from auditor.ingest import expand_paths, read_stream
from auditor.pipeline import Summary, iter_parsed
from auditor.profiles import for_hand
from tests.conftest import CORPUS, corpus_dir
from tests.test_mutations import Clean, Mutant, amount_text, audit_text, number_text

FOLDER = "wpn-acr"
SITES = ("wpn", "wpn2016")
HAND_FAILURES = {"P001", "P006"}
# an independent count: every line that starts a hand of either generation, in the decoded text
HEADER = re.compile(r"^(?:\ufeff)*(?:Game started at: \d|(?:Game )?Hand #\d+ - )", re.M)


def _decode(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF16_LE):
        return data[2:].decode("utf-16-le", errors="replace")
    return data.decode("utf-8", errors="replace")


def independent_count(root: Path) -> tuple[int, int]:
    """(hand headers, files holding any) over the folder's text files (not code or summaries)."""
    hands = files = 0
    for p in sorted(root.rglob("*.txt")):
        n = len(HEADER.findall(_decode(p.read_bytes())))
        hands += n
        files += n > 0
    return hands, files


@pytest.mark.corpus
def test_corpus_parse_rate_and_count() -> None:
    d = corpus_dir(FOLDER)
    summary = Summary()
    parsed: Counter[str] = Counter()
    failed_with_finding = 0
    for hand, fs in iter_parsed([str(d)], summary):
        if hand is None:
            failed_with_finding += any(f.code in HAND_FAILURES and f.line for f in fs)
            continue
        if not any(f.code == "P002" for f in fs):
            parsed[hand.site] += 1
    expected, files = independent_count(d)
    seen = sum(summary.by_site[s] for s in SITES)
    clean = sum(parsed.values())
    print(f"{FOLDER}: {files} files with hands, {expected} headers counted, {seen} seen, {clean} parsed "
          f"with no P002 ({clean / seen:.2%}), {summary.hands_failed} failed; by format {dict(parsed)}")  # fmt: skip
    assert expected == seen == summary.hands_seen
    assert all(summary.by_site[s] > 0 for s in SITES)
    assert clean / seen >= 0.995
    assert summary.hands_seen == summary.hands_parsed + summary.hands_failed
    assert failed_with_finding == summary.hands_failed


# (the folder's serious findings against tests/corpus_expected/: tests/test_corpus_expected.py)


# ------------------------------------------------------------------------------ mutations


@cache
def clean_hands(site: str) -> tuple[Clean, ...]:
    root = CORPUS / FOLDER
    if not root.is_dir():
        pytest.skip(f"shared corpus not found at {root}")
    out: list[Clean] = []
    seen: set[str] = set()
    for path in expand_paths([str(root)]):
        data = Path(path).read_bytes()
        for c in read_stream(io.BytesIO(data), path, len(data))[1]:
            if not isinstance(c, Chunk) or c.site != site:
                continue
            hand, fs = parse_chunk(Chunk("m.txt", c.site, 1, c.lines))
            if hand is None or fs or hand.cancelled or not hand.complete or hand.hand_id in seen:
                continue
            a = audit_hand(hand, for_hand(hand.site, None))
            if a.findings:
                continue
            seen.add(hand.hand_id)
            out.append(Clean(c.lines, hand, a.trace))
    return tuple(out)


def _bump(line: str, pattern: str, delta: int) -> str:
    """Add ``delta`` units of the printed precision to the amount ``pattern``'s group 1 matches."""
    m = re.search(pattern, line)
    assert m is not None, (line, pattern)
    text = m.group(1).replace(",", "")
    places = len(text.split(".")[1]) if "." in text else 0
    value = Decimal(text) + Decimal(delta).scaleb(-places)
    return line[: m.start(1)] + f"{value:.{places}f}" + line[m.end(1) :]


_COLLECTED = r"(?:collected \$?|won \$?|Collects: )(\d[\d,]*(?:\.\d+)?)"


def m_collect_plus_one(c: Clean) -> Iterator[Mutant]:
    """Collect one unit more than the pot: chips appear (A010 at the total pot line)."""
    claim = next((e for e in c.hand.events if isinstance(e, M.PotClaim)), None)
    lines_of = [e.line for e in c.hand.events if isinstance(e, M.Collect)]
    lines_of += [e.line for e in c.hand.events if isinstance(e, M.SeatResult) and e.won]
    if claim is None or not lines_of:
        return
    lines = list(c.lines)
    i = c.rel(lines_of[0])
    lines[i] = _bump(lines[i], _COLLECTED, 1)
    yield Mutant(lines, "A010", c.rel(claim.line) + 1)


def m_uncalled(c: Clean) -> Iterator[Mutant]:
    """Return one unit less than the uncalled part (A001 at the return line)."""
    for e in c.hand.events:
        if isinstance(e, M.UncalledReturn) and e.amount > 1:
            lines = list(c.lines)
            i = c.rel(e.line)
            lines[i] = _bump(lines[i], r"^Uncalled bet \(\$?(\d[\d,]*(?:\.\d+)?)\)", -1)
            yield Mutant(lines, "A001", i + 1)


def m_stack(c: Clean) -> Iterator[Mutant]:
    """Start a player one unit short of what they put in (S001 at their last wager)."""
    h = c.hand
    returned = {e.player for e in h.events if isinstance(e, M.UncalledReturn)}
    for name, pl in c.trace.players.items():
        if name in returned or pl.all_in or not pl.seated or pl.committed < 2:
            continue
        seat = next(s for s in h.seats if s.player == name)
        last = [s for s in c.trace.steps if s.event.player == name and s.add > 0][-1]
        lines = list(c.lines)
        i = c.rel(seat.line)
        m = re.search(r"\(\$?(\d[\d,.]*)\)", lines[i])
        assert m is not None
        lines[i] = lines[i][: m.start(1)] + number_text(h, pl.committed - 1) + lines[i][m.end(1) :]
        yield Mutant(lines, "S001", c.rel(last.event.line) + 1)


def m_duplicate_card(c: Clean) -> Iterator[Mutant]:
    """Put a card of the hero's hand on the flop (H002 at the flop line)."""
    hero = next((e for e in c.hand.events if isinstance(e, M.HoleCards) and e.cards), None)
    flop = next((e for e in c.hand.events if isinstance(e, M.Board) and e.street == "flop" and e.run == 1), None)
    if hero is None or flop is None:
        return
    lines = list(c.lines)
    i = c.rel(flop.line)
    old, new = flop.cards[0], hero.cards[0]
    if old[0] == "T" and "10" + old[1] in lines[i]:  # the 2016 exports print tens as "10"
        old = "10" + old[1]
    lines[i] = lines[i].replace(old, new, 1)
    yield Mutant(lines, "H002", i + 1)


def m_swap_folds(c: Clean) -> Iterator[Mutant]:
    """Two folds of different players, one after the other, swapped (B004 at the first)."""
    steps = c.trace.steps
    for a, b in pairwise(steps):
        ea, eb = a.event, b.event
        if (isinstance(ea, M.Action) and isinstance(eb, M.Action) and ea.kind == eb.kind == "fold"
                and eb.line == ea.line + 1 and ea.player != eb.player and a.betting):  # fmt: skip
            lines = list(c.lines)
            i, j = c.rel(ea.line), c.rel(eb.line)
            lines[i], lines[j] = lines[j], lines[i]
            yield Mutant(lines, "B004", i + 1)


def m_pot_to_loser(c: Clean) -> Iterator[Mutant]:
    """The pot collected by a player who showed a losing hand (A004 at the collect line)."""
    shown = [e.player for e in c.hand.events if isinstance(e, M.Show)]
    collects = [e for e in c.hand.events if isinstance(e, M.Collect)]
    if len(collects) != 1 or len(set(shown)) < 2 or any(getattr(e, "all_in", False) for e in c.hand.events):
        return  # one pot only (with side pots a loser may not even be eligible: A005)
    e = collects[0]
    loser = next(p for p in shown if p != e.player)
    lines = list(c.lines)
    i = c.rel(e.line)
    if c.hand.site == "wpn2016":
        # one summary line per player holds both the cards shown and the amount collected: move
        # the amount from the winner's line to the loser's
        j = c.rel(next(s.line for s in c.hand.events if isinstance(s, M.Show) and s.player == loser))
        won = re.search(r"Collects: ([\d.,]+)\.", lines[i])
        assert won is not None
        lines[i] = re.sub(r"Collects: [\d.,]+\.", "Collects: 0.", lines[i])
        lines[j] = re.sub(r"Collects: [\d.,]+\.", f"Collects: {won.group(1)}.", lines[j])
        yield Mutant(lines, "A004", j + 1)
        return
    lines[i] = lines[i].replace(e.player, loser, 1)
    yield Mutant(lines, "A004", i + 1)


def m_small_raise(c: Clean) -> Iterator[Mutant]:
    """A raise one unit below the minimum (B002 at the raise)."""
    h = c.hand
    for s in c.trace.steps:
        e = s.event
        if not (isinstance(e, M.Action) and e.kind == "raise" and s.betting and not s.hand_over):
            continue
        below = s.min_raise_to - 1
        if s.fl_bet is None and not s.all_in_after and below > s.current_bet and s.min_raise_to <= e.to:
            lines = list(c.lines)
            lines[c.rel(e.line)] = (
                f"{e.player} raises {amount_text(h, below - s.current_bet)} to {amount_text(h, below)}"
            )
            yield Mutant(lines, "B002", c.rel(e.line) + 1)


CASES: dict[str, tuple[Callable[[Clean], Iterator[Mutant]], tuple[str, ...]]] = {
    "A010": (m_collect_plus_one, SITES),
    "A001": (m_uncalled, SITES),
    "S001": (m_stack, SITES),
    "H002": (m_duplicate_card, SITES),
    "A004": (m_pot_to_loser, SITES),
    # the 2016 exports print no betting structure: the betting rules judge the 2019+ format only
    "B004": (m_swap_folds, ("wpn",)),
    "B002": (m_small_raise, ("wpn",)),
}


@pytest.mark.corpus
@pytest.mark.parametrize("code", sorted(CASES))
def test_injected_violation_is_found_in_wpn_hands(code: str) -> None:
    mutate, sites = CASES[code]
    done: Counter[str] = Counter()
    wrong: list[str] = []
    for site in sites:
        for c in clean_hands(site):
            for m in mutate(c):
                got = [(f.code, f.line) for f in audit_text(m.lines) if f.code[0] in "BSAHP"]
                if (m.code, m.line) not in got or any(g[0][0] == "P" for g in got):
                    wrong.append(f"{site} hand {c.hand.hand_id}: expected {(m.code, m.line)}, got {got[:4]}")
                done[site] += 1
                break  # one mutant per hand
    print(f"{code}: {dict(done)} real hands mutated")
    assert sum(done.values()) >= 1, f"no WPN hand offered a place to inject {code}"
    assert not wrong, "\n".join(wrong[:10])


def test_button_draw_cards_are_not_hole_cards() -> None:
    """The first hand of a tournament table deals a card to each player for the button: not hole cards."""
    from tests.conftest import FIXTURES

    path = FIXTURES / "sites" / "wpn" / "tournament_plo8_button_draw.txt"
    found = [f for f in audit_text(path.read_text("utf-8").splitlines()) if f.code[0] in "BSAHP"]
    assert found == []


@pytest.mark.corpus
def test_wpn_fast_path_equals_full_parse() -> None:
    """The 2019+ grammar reads every corpus hand the same line by line as parsed whole."""
    from tests.test_fast_path import chunks, same

    assert same(chunks([str(corpus_dir(FOLDER))])) == 29
