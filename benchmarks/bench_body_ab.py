"""The body lines alone (``PegVisitor.read_lines``), two ways in one process, interleaved hand by hand.

    .venv/bin/python benchmarks/bench_body_ab.py --sites pokerstars,ggpoker,winamax --rounds 5
    .venv/bin/python benchmarks/bench_body_ab.py --control          # both sides the same: expect 1.000
    .venv/bin/python benchmarks/bench_body_ab.py --previous /tmp/start --rounds 6   # this against another checkout

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

``--previous DIR``: A is the whole ``auditor`` package of the checkout ``DIR`` (imported a second
time, from ``DIR``, into the same process: each side's modules are put back into ``sys.modules``
before it runs, so that an import inside a function finds its own side's), B this checkout; each
side captures its own states (its own parse of the hands) and keeps its own line memo, which both
sides fill alike, hand by hand, from empty at each round's start (the hands' bodies and parses as
a run meets them in order; the parse of a hand starts from the memo its body lines found).
Besides the body lines it times, in the same way, the whole ``parse_chunk`` of each hand (head,
body, summary, ``build``): "parse".  With ``--control`` both sides are this checkout, imported
twice.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
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


def _ours() -> dict[str, Any]:
    """The ``auditor`` modules in ``sys.modules``."""
    return {k: v for k, v in sys.modules.items() if k == "auditor" or k.startswith("auditor.")}


def _activate(mods: dict[str, Any]) -> None:
    """Make ``mods`` (one side's ``auditor`` modules) the ones an import statement finds."""
    for k in _ours():
        del sys.modules[k]
    sys.modules.update(mods)


def _import_auditor(root: str | None) -> dict[str, Any]:
    """The ``auditor`` modules of the checkout ``root`` (None: this one), imported afresh, and taken
    out of ``sys.modules`` again (see ``--previous``)."""
    import importlib

    _activate({})
    if root is not None:
        sys.path.insert(0, root)
    try:
        for name in ("auditor", "auditor.model", "auditor.formats", "auditor.formats.peg",
                     "auditor.formats.assembler", "auditor.formats.registry"):  # fmt: skip
            importlib.import_module(name)
    finally:
        if root is not None:
            sys.path.remove(root)
    mods = _ours()
    _activate({})
    return mods


def run_pair(site: str, rounds: int, previous: str | None) -> dict[str, float]:
    """Body lines and whole parse, µs a hand, of ``previous`` (A; None: this checkout again) and of
    this checkout (B), interleaved hand by hand (see ``--previous``)."""
    sides = {"A": _import_auditor(previous), "B": _import_auditor(None)}
    _activate(sides["B"])
    chunks = common.load_chunks(common.default_corpus(site), site)[1].chunks
    states: dict[str, list[tuple[Any, Any, list[str], int]]] = {}
    for k, mods in sides.items():
        _activate(mods)
        peg = mods["auditor.formats.peg"]
        parse_chunk = mods["auditor.formats"].parse_chunk
        got: list[tuple[Any, Any, list[str], int]] = states.setdefault(k, [])
        own = peg.PegVisitor.read_lines

        def capture(self: Any, lines: Any, first: int, own: Any = own, got: Any = got) -> None:
            got.append((self.g, copy.deepcopy(self.a), list(lines), first))
            own(self, lines, first)

        peg.PegVisitor.read_lines = capture
        try:
            for c in chunks:
                parse_chunk(c)
        finally:
            peg.PegVisitor.read_lines = own
        mods.update(_ours())  # (what it imported on first use)
    if [len(v) for v in states.values()] != [len(states["B"])] * 2:
        raise SystemExit(f"{site}: the two sides read different hands' bodies")
    n = len(states["B"])
    best = {f"{k}{part}": [float("inf")] * n for k in sides for part in ("body", "parse")}
    best_parse = {k: [float("inf")] * len(chunks) for k in sides}
    clock = time.process_time
    memos = {k: v[0][0].dispatch.memo for k, v in states.items()}
    for r in range(rounds):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]
        for memo in memos.values():  # (each round reads the hands in order from an empty memo)
            memo.clear()
        gc.collect()
        gc.disable()
        for h in range(max(n, len(chunks))):
            for k in order:
                mods = sides[k]
                _activate(mods)
                memo = memos[k]
                before = dict(memo)
                if h < n:
                    g, a, lines, first = states[k][h]
                    v = mods["auditor.formats.peg"].PegVisitor(g, _fresh(a))
                    t0 = clock()
                    with contextlib.suppress(Exception):  # (a hand left to the full parse: alike on both sides)
                        v.read_lines(lines, first)
                    t = clock() - t0
                    if t < best[f"{k}body"][h]:
                        best[f"{k}body"][h] = t
                if h < len(chunks):
                    memo.clear()  # (the memo as the body lines found it: the parse reads them again)
                    memo.update(before)
                    parse_chunk = mods["auditor.formats"].parse_chunk
                    c = chunks[h]
                    t0 = clock()
                    parse_chunk(c)
                    t = clock() - t0
                    if t < best_parse[k][h]:
                        best_parse[k][h] = t
                mods.update(_ours())
        gc.enable()
    _activate(sides["B"])
    out = {f"{k}body": 1e6 * sum(best[f"{k}body"]) / n for k in sides}
    out |= {f"{k}parse": 1e6 * sum(v) / len(chunks) for k, v in best_parse.items()}
    return out | {"hands": float(n), "chunks": float(len(chunks))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sites", default="pokerstars,ggpoker,winamax")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--control", action="store_true", help="both sides build through model.new_<event>")
    ap.add_argument("--previous", metavar="DIR", help="A: the checkout DIR, B: this one (see the module's text)")
    args = ap.parse_args()
    if args.previous:
        prev = None if args.control else str(Path(args.previous).resolve())
        print(f"bench_body_ab: us a hand (sum of per-hand minima over {args.rounds} rounds), A {prev or 'this'}, "
              "B this" + (" -- control: both sides this checkout" if args.control else ""), flush=True)  # fmt: skip
        for site in args.sites.split(","):
            r = run_pair(site, args.rounds, prev)
            print(f"  {site:11s} {int(r['hands']):5d} hands  body A {r['Abody']:6.1f}  B {r['Bbody']:6.1f}"
                  f"  A/B {r['Abody'] / r['Bbody']:.3f}   parse A {r['Aparse']:6.1f}  B {r['Bparse']:6.1f}"
                  f"  A/B {r['Aparse'] / r['Bparse']:.3f}", flush=True)  # fmt: skip
        return 0
    print(f"bench_body_ab: body lines us a hand (sum of per-hand minima over {args.rounds} rounds)"
          + (" -- control: both sides the same" if args.control else ""))  # fmt: skip
    for site in args.sites.split(","):
        r = run_site(site, args.rounds, args.control)
        print(f"  {site:11s} {int(r['hands']):5d} hands  A (class call) {r['A']:6.1f}  B (builders) {r['B']:6.1f}"
              f"  A/B {r['A'] / r['B']:.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
