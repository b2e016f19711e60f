"""A small hand-building helper for tests: write a hand as a list of actions, get PokerStars text.

It computes the amounts PokerStars prints (``calls`` increments, ``raises A to B``, ``and is
all-in``) from the actions and stacks, but it never checks legality: tests use it to build both
legal and illegal hands.  Every generated line is remembered, so a test can ask for the line
number of an action (``hb.line_of("C raises")``).

    hb = HandBuilder(blinds=(1, 2), players=[("A", 1000), ("B", 16), ("C", 1000)])
    hb.preflop_limp()                 # everybody calls the big blind, the big blind checks
    hb.flop("Ah 7c 2d")
    hb.bet("A", 10); hb.allin("B"); hb.raise_to("C", 23)
    findings = hb.audit()
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import parse_text
from auditor.model import Hand
from auditor.pipeline import Summary
from auditor.profiles import for_hand
from auditor.replay import Trace

_STRUCTURE = {"NL": "No Limit", "PL": "Pot Limit", "FL": "Limit"}
_GAME = {"holdem": "Hold'em", "omaha": "Omaha", "omaha_hilo": "Omaha Hi/Lo"}


@dataclass
class _P:
    name: str
    seat: int
    stack: int
    bet: int = 0
    folded: bool = False


@dataclass
class HandBuilder:
    """Builds one PokerStars-format hand.  ``players`` are in seat order; the button is the last
    listed player unless ``button`` names another (heads-up: the button posts the small blind)."""

    blinds: tuple[int, int]
    players: list[tuple[str, int]]
    structure: str = "NL"
    game: str = "holdem"
    button: str | None = None
    ante: int = 0
    tournament: bool = False
    hand_id: int = 900000000001
    lines: list[str] = field(default_factory=list)
    _ps: dict[str, _P] = field(default_factory=dict)
    _posted: bool = False
    _total: int = 0

    def __post_init__(self) -> None:
        self._ps = {n: _P(n, i + 1, s) for i, (n, s) in enumerate(self.players)}
        button = self.button or self.players[-1][0]
        sb, bb = self.blinds
        if self.tournament:
            head = (
                f"PokerStars Hand #{self.hand_id}: Tournament #1000000001, $10+$1 USD {_GAME[self.game]} "
                f"{_STRUCTURE[self.structure]} - Level I ({sb}/{bb}) - 2026/01/01 12:00:00 ET"
            )
        else:
            head = (
                f"PokerStars Hand #{self.hand_id}:  {_GAME[self.game]} {_STRUCTURE[self.structure]} "
                f"(${sb}/${bb} USD) - 2026/01/01 12:00:00 ET"
            )
        self.lines = [head, f"Table 'Test' 9-max Seat #{self._ps[button].seat} is the button"]
        self.lines += [f"Seat {p.seat}: {p.name} ({self._m(p.stack)} in chips)" for p in self._ps.values()]

    # -- money ---------------------------------------------------------------------------
    def _m(self, v: int) -> str:
        return str(v) if self.tournament else f"${v}"

    def _put(self, p: _P, add: int) -> str:
        p.stack -= add
        p.bet += add
        self._total += add
        return " and is all-in" if p.stack <= 0 else ""

    # -- posts -----------------------------------------------------------------------------
    def post_blinds(
        self, sb: str | None = None, bb: str | None = None, straddle: tuple[str, int] | None = None
    ) -> None:
        """Post antes, the blinds (by default the two players after the button) and a straddle."""
        names = [n for n, _ in self.players]
        button = self.button or names[-1]
        i = names.index(button)
        order = names[i + 1 :] + names[: i + 1]
        if len(names) == 2:
            order = [button, *[n for n in names if n != button]]
        sb = sb or order[0]
        bb = bb or order[1]
        if self.ante:
            for n in names:
                p = self._ps[n]
                p.stack -= self.ante
                self._total += self.ante
                self.lines.append(
                    f"{n}: posts the ante {self._m(self.ante)}" + (" and is all-in" if p.stack <= 0 else "")
                )
        for who, amount, kind in ((sb, self.blinds[0], "small blind"), (bb, self.blinds[1], "big blind")):
            p = self._ps[who]
            amount = min(amount, p.stack)
            allin = self._put(p, amount)
            self.lines.append(f"{who}: posts {kind} {self._m(amount)}{allin}")
        if straddle:
            who, amount = straddle
            p = self._ps[who]
            allin = self._put(p, amount - p.bet)
            self.lines.append(f"{who}: straddle {self._m(amount)}{allin}")
        self.lines.append("*** HOLE CARDS ***")
        self._posted = True

    # -- actions ---------------------------------------------------------------------------
    def _current(self) -> int:
        return max(p.bet for p in self._ps.values())

    def fold(self, who: str) -> None:
        self._ps[who].folded = True
        self.lines.append(f"{who}: folds")

    def check(self, who: str) -> None:
        self.lines.append(f"{who}: checks")

    def call(self, who: str, to: int | None = None) -> None:
        """Call the current bet (or, to build a wrong call, a given street total)."""
        p = self._ps[who]
        target = self._current() if to is None else to
        add = min(target - p.bet, p.stack)
        allin = self._put(p, add)
        self.lines.append(f"{who}: calls {self._m(add)}{allin}")

    def bet(self, who: str, amount: int) -> None:
        p = self._ps[who]
        allin = self._put(p, amount - p.bet)
        self.lines.append(f"{who}: bets {self._m(amount)}{allin}")

    def raise_to(self, who: str, to: int) -> None:
        p = self._ps[who]
        cur = self._current()
        allin = self._put(p, to - p.bet)
        self.lines.append(f"{who}: raises {self._m(to - cur)} to {self._m(to)}{allin}")

    def allin(self, who: str) -> None:
        """All-in: a bet when nothing is bet yet on this street, a call or a raise otherwise."""
        p = self._ps[who]
        to = p.bet + p.stack
        cur = self._current()
        if cur == 0:
            self.bet(who, to)
        elif to <= cur:
            self.call(who)
        else:
            self.raise_to(who, to)

    def preflop_limp(self) -> None:
        """Post the blinds; everyone calls the big blind; the big blind checks."""
        self.post_blinds()
        names = [n for n, _ in self.players]
        button = self.button or names[-1]
        i = names.index(button)
        if len(names) == 2:
            self.call(button)
            self.check(next(n for n in names if n != button))
            return
        ring = names[i + 1 :] + names[: i + 1]
        for n in ring[2:] + ring[:1]:
            self.call(n)
        self.check(ring[1])

    def street(self, name: str, cards: str) -> None:
        for p in self._ps.values():
            p.bet = 0
        board = getattr(self, "_board", [])
        new = cards.split()
        if board:
            self.lines.append(f"*** {name} *** [{' '.join(board)}] [{' '.join(new)}]")
        else:
            self.lines.append(f"*** {name} *** [{' '.join(new)}]")
        self._board = board + new

    def flop(self, cards: str = "2c 7d Ks") -> None:
        self.street("FLOP", cards)

    def turn(self, card: str = "9h") -> None:
        self.street("TURN", card)

    def river(self, card: str = "3s") -> None:
        self.street("RIVER", card)

    def raw(self, line: str) -> None:
        """Add a line as it is (to inject something the builder does not model)."""
        self.lines.append(line)

    # -- output ----------------------------------------------------------------------------
    def text(self) -> str:
        tail = ["*** SUMMARY ***", f"Total pot {self._m(self._total)} | Rake {self._m(0)}"]
        tail += [f"Seat {p.seat}: {p.name} {'folded' if p.folded else 'mucked'}" for p in self._ps.values()]
        return "\n".join(self.lines + tail) + "\n"

    def line_of(self, prefix: str) -> int:
        """The 1-based line number of the last generated line that starts with ``prefix``."""
        hits = [i for i, line in enumerate(self.lines, start=1) if line.startswith(prefix)]
        if not hits:
            raise KeyError(prefix)
        return hits[-1]

    def hand(self) -> Hand:
        items = list(parse_text(self.text(), path="built.txt"))
        hands = [h for h in items if isinstance(h, Hand)]
        problems = [f for f in items if isinstance(f, Finding)]
        assert len(hands) == 1 and not problems, problems
        return hands[0]

    def replay(self, rules: str | None = None) -> tuple[Trace, list[Finding]]:
        h = self.hand()
        a = audit_hand(h, for_hand(h.site, rules))
        return a.trace, a.findings

    def audit(self, rules: str | None = None) -> list[Finding]:
        return self.replay(rules)[1]

    def codes(self, rules: str | None = None, prefix: str = "BSH") -> list[tuple[str, int | None]]:
        """(code, line) of every B, S and H finding, in line order."""
        return [(f.code, f.line) for f in self.audit(rules) if f.code[0] in prefix]

    def step(self, prefix: str, rules: str | None = None):  # type: ignore[no-untyped-def]
        """The replay's facts at the action printed on the line starting with ``prefix``."""
        line = self.line_of(prefix)
        trace, _ = self.replay(rules)
        return next(s for s in trace.steps if s.event.line == line)


__all__ = ["HandBuilder", "Summary"]
