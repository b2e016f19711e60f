"""The hand replayer of a hand page and of the explain page: a view model built from the audit
step's trace (never a second replay), rendered by ``reports/templates/_replayer.html.j2`` and
stepped through by ``reports/static/replayer.js``.

Without JavaScript the page shows the table at one moment (the offending action, or the end of the
hand) and the whole action list street by street; the script only moves that moment.  The data the
script reads is a ``<script type="application/json">`` block (no inline code: a page served under a
content security policy without inline script works), and every name it shows is set as text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from auditor import model as M
from auditor.audit import Audited
from auditor.findings import Finding
from auditor.rules.common import money

#: Suit letters → (symbol, CSS class).  The four-colour deck: spades black, hearts red, diamonds
#: blue, clubs green (the classes ``s h d c`` in report.css).
SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


@dataclass(frozen=True)
class CardView:
    text: str  # "K♠", or the card as printed when it is not a standard card
    suit: str  # s h d c, or "x" (unknown)
    label: str  # "K of spades", for screen readers


def card(c: str) -> CardView:
    """One card as printed (``Kd``, ``Td``, ``10d``) with its suit symbol and four-colour class."""
    if len(c) >= 2 and c[-1].lower() in SUITS and c[:-1]:
        rank, suit = c[:-1].upper(), c[-1].lower()
        rank = "10" if rank == "T" else rank
        return CardView(f"{rank}{SUITS[suit]}", suit, f"{rank} of {SUIT_NAMES[suit]}")
    return CardView(c, "x", c)


def cards(cs: tuple[str, ...] | list[str]) -> list[CardView]:
    return [card(c) for c in cs]


@dataclass(frozen=True)
class SeatView:
    index: int  # position in the step arrays
    seat: int
    player: str
    start: str
    cards: list[CardView]
    button: bool
    hero: bool


@dataclass(frozen=True)
class StepView:
    """The table after one event: each seat's stack, chips in front of it this street, folded or not."""

    n: int
    line: int
    street: str
    player: str
    action: str
    stacks: list[str]
    bets: list[str]
    folded: list[bool]
    pot: str
    board: list[CardView]
    codes: list[str]  # findings on this line (the root of a cascade first)
    notes: list[str]  # their messages
    kind: str  # "action", "deal", "return", "collect"
    offending: bool  # a finding of the hand points at this line (not only a folded consequence)


@dataclass(frozen=True)
class StreetGroup:
    name: str
    board: list[CardView]
    steps: list[StepView]
    note: str  # e.g. "no betting: all in" when a street was dealt without action


@dataclass
class ReplayView:
    id: str
    seats: list[SeatView]
    streets: list[StreetGroup]
    steps: list[StepView]
    current: int  # the step shown without JavaScript: the first offending action, else the last
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def now(self) -> StepView:
        return self.steps[self.current]

    @property
    def json(self) -> str:
        """The data ``replayer.js`` reads (rendered through Jinja's ``tojson``: safe inside HTML)."""
        return json.dumps(self.data, ensure_ascii=False)


def _describe(h: M.Hand, ev: M.Action | M.Post) -> str:
    if isinstance(ev, M.Post):
        what = f"posts {ev.kind.replace('_', ' ')} {money(h, ev.amount)}"
    elif ev.kind in ("bet", "raise", "complete"):
        what = f"{ev.kind}s to {money(h, ev.to)}" if ev.kind != "bet" else f"bets {money(h, ev.to)}"
    elif ev.kind == "call":
        what = f"calls {money(h, ev.increment)}"
    else:
        what = ev.kind + "s" if ev.kind != "check" else "checks"
    return what + (" (all-in)" if ev.all_in else "")


def _hole_cards(h: M.Hand) -> tuple[dict[str, tuple[str, ...]], set[str]]:
    """Each player's known hole cards (dealt to hero, shown, mucked face up, or in the summary)."""
    known: dict[str, tuple[str, ...]] = {}
    hero: set[str] = set()
    for e in h.events:
        if isinstance(e, M.HoleCards) and e.cards:
            known[e.player] = e.cards
            hero.add(e.player)
        elif isinstance(e, (M.Show, M.Muck, M.SeatResult)) and e.cards and e.player not in known:
            known[e.player] = e.cards
    return known, hero


def replay_view(a: Audited, findings: list[Finding], rid: str = "replay") -> ReplayView:
    """The replayer of an audited hand; ``findings`` are the ones the page lists (kept findings)."""
    h, t = a.hand, a.trace
    known, hero = _hole_cards(h)
    order: list[M.Seat] = []
    for s in h.seats:
        if s.player not in {o.player for o in order}:
            order.append(s)
    idx = {s.player: i for i, s in enumerate(order)}
    seats = [SeatView(i, s.seat, s.player, money(h, s.stack), cards(known.get(s.player, ())), s.seat == h.button,
                      s.player in hero) for i, s in enumerate(order)]  # fmt: skip
    codes: dict[int, list[str]] = {}
    notes: dict[int, list[str]] = {}
    roots: set[int] = set()
    for f in findings:
        if f.line is None:
            continue
        roots.add(f.line)
        codes.setdefault(f.line, []).append(f.code)
        notes.setdefault(f.line, []).append(f"{f.code} {f.message}")
        for c in f.data.get("consequences", []) or []:
            if isinstance(c, dict) and isinstance(c.get("line"), int):
                codes.setdefault(c["line"], []).append(str(c.get("code", "")))
                notes.setdefault(c["line"], []).append(f"{c.get('code', '')} (follows from {f.code} on line "
                                                       f"{f.line}): {c.get('message', '')}")  # fmt: skip
    stacks = [s.stack for s in order]
    bets = [0] * len(order)
    folded = [False] * len(order)
    pot = 0
    board: tuple[str, ...] = ()
    steps: list[StepView] = []
    groups: list[StreetGroup] = []
    cur_name, cur_board, cur_steps = "pre-flop", [], []  # type: tuple[str, list[CardView], list[StepView]]
    by_index = {s.index: s for s in t.steps}

    def add(line: int, street: str, player: str, action: str, kind: str) -> None:
        st = StepView(len(steps), line, street, player, action, [money(h, v) for v in stacks],
                      [money(h, v) if v else "" for v in bets], list(folded), money(h, pot), cards(board),
                      codes.get(line, []), notes.get(line, []), kind, line in roots)  # fmt: skip
        steps.append(st)
        cur_steps.append(st)

    for i, e in enumerate(h.events):
        if isinstance(e, M.Board) and e.run == 1 and e.street != "preflop":
            groups.append(StreetGroup(cur_name, cur_board, cur_steps, ""))
            board = (*e.board_before, *e.cards)
            bets = [0] * len(order)
            cur_name, cur_board, cur_steps = e.street, cards(board), []
            add(e.line, e.street, "", f"{e.street} dealt: {' '.join(e.cards)}", "deal")
            continue
        step = by_index.get(i)
        if step is not None:
            ev = step.event
            j = idx.get(ev.player)
            pot += step.add
            if j is not None:
                stacks[j] = step.stack_after
                bets[j] += step.add
                if isinstance(ev, M.Action) and ev.kind == "fold":
                    folded[j] = True
            add(ev.line, cur_name, ev.player, _describe(h, ev), "action")
        elif isinstance(e, M.UncalledReturn):
            j = idx.get(e.player)
            pot -= e.amount
            if j is not None:
                stacks[j] += e.amount
                bets[j] = max(0, bets[j] - e.amount)
            add(e.line, cur_name, e.player, f"gets back {money(h, e.amount)} uncalled", "return")
        elif isinstance(e, M.Collect):
            j = idx.get(e.player)
            pot = max(0, pot - e.amount)
            if j is not None:
                stacks[j] += e.amount
            add(e.line, cur_name, e.player, f"collects {money(h, e.amount)} from the {e.pot} pot (as the site "
                                            "printed)", "collect")  # fmt: skip
    groups.append(StreetGroup(cur_name, cur_board, cur_steps, ""))
    out: list[StreetGroup] = []
    for g in groups:
        if not g.steps and not g.board:
            continue
        acted = any(s.kind != "deal" for s in g.steps)
        out.append(StreetGroup(g.name, g.board, g.steps, "" if acted else "no betting on this street"))
    if not steps:
        add(h.first_line, "pre-flop", "", "no action", "deal")
    current = next((s.n for s in steps if s.offending), len(steps) - 1)
    view = ReplayView(rid, seats, out, steps, current)
    view.data = {
        "current": current,
        "steps": [{"line": s.line, "street": s.street, "player": s.player, "action": s.action, "stacks": s.stacks,
                   "bets": s.bets, "folded": s.folded, "pot": s.pot, "board": [[c.text, c.suit] for c in s.board],
                   "notes": s.notes, "offending": s.offending} for s in steps],
    }  # fmt: skip
    return view
