"""The body lines alone (``PegVisitor.read_lines``), two ways in one process, interleaved hand by hand.

    .venv/bin/python benchmarks/bench_body_ab.py --sites pokerstars,ggpoker,winamax --rounds 5
    .venv/bin/python benchmarks/bench_body_ab.py --control          # both sides the same: expect 1.000

Each corpus hand is parsed once while the assembler's state is copied as ``read_lines`` starts
(after the head); then, for every hand in turn, its body lines are read by side A and by side B (the
order alternating by round), each on a fresh copy of that state and with the line memo as it was
before the hand (so that neither side reads lines the other just memoised).  CPU time a hand
(``time.process_time`` around ``read_lines``, garbage collector off); the figure of a side is the
sum over the hands of each hand's least time over ``--rounds`` rounds: a hand's time taken when the
shared machine left it alone, the same minutes for both sides (issue 16, s13-body).

Sides: A builds the events by calling their class (``model.Action(...)``, as before s13-body), B
through ``model.new_<event>`` (in pure Python ``fastinit.builder``'s functions, which do not call
the class).  ``--control``: A and B both as B.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import time
from collections.abc import Callable
from typing import Any

import common


def _fresh(a: Any) -> Any:
    """A copy of the assembler's state at the start of the body lines (its lists and dicts copied)."""
    b = copy.copy(a)
    b.events, b.street_bet, b.boards = list(a.events), dict(a.street_bet), list(a.boards)
    b.findings, b.facts, b.street_starts = list(a.findings), dict(a.facts), list(a.street_starts)
    return b


def run_site(site: str, rounds: int, control: bool) -> dict[str, float]:
    from auditor import model as M
    from auditor.formats import parse_chunk, peg

    chunks = common.load_chunks(common.default_corpus(site), site)[1].chunks
    states: list[tuple[Any, Any, list[str], int]] = []
    own = peg.PegVisitor.read_lines

    def capture(self: Any, lines: Any, first: int) -> None:
        states.append((self.g, copy.deepcopy(self.a), list(lines), first))
        own(self, lines, first)

    peg.PegVisitor.read_lines = capture  # type: ignore[method-assign]
    try:
        for c in chunks:
            parse_chunk(c)
    finally:
        peg.PegVisitor.read_lines = own  # type: ignore[method-assign]
    built = {name: getattr(M, name) for name in M.BUILDERS}
    by_class = built if control else dict(M.BUILDERS)

    def use(fns: dict[str, Any]) -> Callable[[], None]:
        def setup() -> None:
            for name, fn in fns.items():
                setattr(M, name, fn)

        return setup

    sides = {"A": use(by_class), "B": use(built)}
    best = {k: [float("inf")] * len(states) for k in sides}
    clock = time.process_time
    try:
        for r in range(rounds):
            order = list(sides.items()) if r % 2 == 0 else list(sides.items())[::-1]
            gc.collect()
            gc.disable()
            for h, (g, a, lines, first) in enumerate(states):
                memo = g.dispatch.memo
                before = dict(memo)
                for k, setup in order:
                    memo.clear()
                    memo.update(before)
                    setup()
                    v = peg.PegVisitor(g, _fresh(a))
                    t0 = clock()
                    with contextlib.suppress(Exception):  # (a hand left to the full parse: alike on both sides)
                        v.read_lines(lines, first)
                    t = clock() - t0
                    if t < best[k][h]:
                        best[k][h] = t
            gc.enable()
    finally:
        use(built)()
    return {k: 1e6 * sum(v) / len(states) for k, v in best.items()} | {"hands": float(len(states))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sites", default="pokerstars,ggpoker,winamax")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--control", action="store_true", help="both sides build through model.new_<event>")
    args = ap.parse_args()
    print(f"bench_body_ab: body lines us a hand (sum of per-hand minima over {args.rounds} rounds)"
          + (" -- control: both sides the same" if args.control else ""))  # fmt: skip
    for site in args.sites.split(","):
        r = run_site(site, args.rounds, args.control)
        print(f"  {site:11s} {int(r['hands']):5d} hands  A (class call) {r['A']:6.1f}  B (builders) {r['B']:6.1f}"
              f"  A/B {r['A'] / r['B']:.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
