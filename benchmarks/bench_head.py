"""The head of a hand and its summary, part by part, in µs a hand of CPU time (issue 16).

    .venv/bin/python benchmarks/bench_head.py                                   # this checkout
    .venv/bin/python benchmarks/bench_head.py --previous /tmp/start --rounds 3  # + another, alternating

Per corpus folder (``--sites``, default PokerStars, GGPoker, Winamax), on the hands the fast path
reads, the parts of :func:`auditor.formats.peg.read_hand` that read a hand's head and summary, each
timed alone on hands prepared untimed up to that point:

* ``head``: ``PegVisitor.read_head`` (header, table and seat lines) on a fresh assembler;
* ``seats``: ``read_lines`` of the summary's seat result lines alone (the body lines the grammar's
  ``summary_seat`` rule reads: dispatch, match, ``summary_seat``, ``seat_result``);
* ``total``: ``read_lines`` of the ``total`` line alone (``on_total``, ``pot_claim``);
* ``build``: ``HandAssembler.build`` on an assembler that has read the whole hand;
* ``new``: the assembler and visitor built per hand (for scale: not part of the head).

CPU time (``time.process_time``), best of ``--repeat``, garbage collector off while timing; with
``--previous DIR`` the same in a process with ``PYTHONPATH=DIR``, the two alternating ``--rounds``
times (best of each kept), as ``bench_parse.py --sites`` does.

``--interleave DIR`` times both in one process instead, part by part, alternating ``--rounds``
times: ``DIR``'s ``auditor/formats/{assembler,quick,peg}.py`` loaded under other names (each
importing the others of ``DIR``; the rest of the package, the grammars and their plans are this
checkout's), so that a loaded machine's drift hits both alike.  The caches of a reading that
outlive a hand (table lines, currencies) are emptied before each timed run: one pass over the
hands, as a run makes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import common

PARTS = ("head", "seats", "total", "build", "new")


#: The modules ``--interleave`` loads from the other checkout, in import order.
OWN = ("assembler", "quick", "peg")


def _load_previous(root: str) -> tuple[Any, Any]:
    """``root``'s ``PegVisitor`` and ``HandAssembler`` (see ``--interleave``)."""
    import importlib.util

    names = [f"auditor.formats.{m}" for m in OWN]
    saved = {n: sys.modules[n] for n in names if n in sys.modules}
    loaded: dict[str, Any] = {}
    try:
        for m in OWN:
            spec = importlib.util.spec_from_file_location(
                f"_previous_{m}", Path(root) / "auditor" / "formats" / f"{m}.py"
            )
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            sys.modules[f"_previous_{m}"] = sys.modules[f"auditor.formats.{m}"] = mod  # (the next one imports it)
            spec.loader.exec_module(mod)
            loaded[m] = mod
    finally:
        for n in names:
            sys.modules.pop(n, None)
        sys.modules.update(saved)
    return loaded["peg"].PegVisitor, loaded["assembler"].HandAssembler


def _forget() -> None:
    """Empty the caches of this checkout's reading that outlive a hand (see ``--interleave``)."""
    from auditor.formats import assembler, peg

    for mod, name in ((peg, "_TABLES"), (assembler, "_CURRENCIES")):
        cache = getattr(mod, name, None)
        if cache is not None:
            cache.clear()


def _prepare(site: str) -> dict[str, Any]:
    """The hands of ``site`` the fast path reads, with each hand's summary seat and total lines."""
    from auditor.formats.peg import PegVisitor, read_hand
    from auditor.formats.registry import REGISTRY

    chunks = common.load_chunks(common.default_corpus(site), site)[1].chunks
    grammar = REGISTRY[site].peg
    plan = grammar.head_plan
    kept: list[tuple[Any, int, list[tuple[str, int]], list[tuple[str, int]]]] = []
    for c in chunks:
        if plan is None or read_hand(grammar, c)[0] is None:
            continue
        a = _assembler(grammar, c)
        v = PegVisitor(grammar, a)
        try:
            n = v.read_head(plan, c.lines)
            v.read_lines(c.lines[n:], c.first_line + n)
            a.build()
        except Exception:  # (a hand the fast path leaves to the full parse: not timed here)
            continue
        seats: list[tuple[str, int]] = []
        totals: list[tuple[str, int]] = []
        for j, line in enumerate(c.lines[n:], start=n):
            handler = _handler(grammar, line)
            if handler == "summary_seat":
                seats.append((line, c.first_line + j))
            elif handler == "total":
                totals.append((line, c.first_line + j))
        kept.append((c, n, seats, totals))
    return {"grammar": grammar, "plan": plan, "hands": kept, "all": len(chunks)}


def _assembler(grammar: Any, c: Any, cls: Any = None) -> Any:
    if cls is None:
        from auditor.formats.assembler import HandAssembler as cls
    return cls(c.site, c.path, c.first_line, len(c.lines), 0, grammar.facts)


def _handler(grammar: Any, line: str) -> str | None:
    """The handler the fast path gives ``line`` (the first candidate of the dispatch that reads it)."""
    for prefix, needs, regex, _expr, _name, handler, fast, _quick in grammar.dispatch.rules_for(line):
        if (prefix and not line.startswith(prefix)) or (needs and needs not in line):
            continue
        if regex is not None:
            if regex.match(line) is not None:
                return str(handler)
        elif fast is not None and fast.match(line) is not None:
            return str(handler)
    return None


def _time(setup: Callable[[], Any], run: Callable[[Any], None], repeat: int) -> float:
    """Best CPU seconds of ``run(setup())`` over ``repeat`` runs (setup untimed), gc off while timing."""
    best = float("inf")
    for _ in range(repeat + 1):  # the first is a warm-up
        state = setup()
        gc.collect()
        gc.disable()
        try:
            t0 = time.process_time()
            run(state)
            t = time.process_time() - t0
        finally:
            gc.enable()
        best = min(best, t)
    return best


def measure(site: str, repeat: int, p: dict[str, Any] | None = None, classes: tuple[Any, Any] | None = None,
            forget: bool = False) -> dict[str, Any]:  # fmt: skip
    """Each part's µs a hand on the hands of ``site`` (see the module docstring); ``p``: the hands
    prepared, ``classes``: the ``PegVisitor`` and ``HandAssembler`` to time (this checkout's),
    ``forget``: empty the reading's caches before each timed run."""
    if classes is None:
        from auditor.formats.assembler import HandAssembler
        from auditor.formats.peg import PegVisitor

        classes = (PegVisitor, HandAssembler)
    Visitor, Assembler = classes
    if p is None:
        p = _prepare(site)
    grammar, plan, hands = p["grammar"], p["plan"], p["hands"]
    n = len(hands)

    def fresh() -> list[tuple[Any, Any]]:
        if forget:
            _forget()
        return [(c, Visitor(grammar, _assembler(grammar, c, Assembler))) for c, _n, _s, _t in hands]

    def headed() -> list[tuple[Any, Any, Any]]:
        out = []
        for c, _n, seats, totals in hands:
            v = Visitor(grammar, _assembler(grammar, c, Assembler))
            v.read_head(plan, c.lines)
            out.append((v, seats, totals))
        if forget:
            _forget()
        return out

    def whole() -> list[Any]:
        out = []
        for c, k, _s, _t in hands:
            a = _assembler(grammar, c, Assembler)
            v = Visitor(grammar, a)
            v.read_head(plan, c.lines)
            v.read_lines(c.lines[k:], c.first_line + k)
            out.append(a)
        if forget:
            _forget()
        return out

    def head(state: list[tuple[Any, Any]]) -> None:
        for c, v in state:
            v.read_head(plan, c.lines)

    def seats(state: list[tuple[Any, Any, Any]]) -> None:
        for v, lines, _t in state:  # (one call for the hand's seat result lines, as in read_hand)
            if lines:
                v.read_lines([line for line, _at in lines], lines[0][1])

    def total(state: list[tuple[Any, Any, Any]]) -> None:
        for v, _s, lines in state:
            for line, at in lines:
                v.read_lines((line,), at)

    def build(state: list[Any]) -> None:
        for a in state:
            a.build()

    def new(state: None) -> None:
        for c, _n, _s, _t in hands:
            Visitor(grammar, _assembler(grammar, c, Assembler))

    res = {
        "head": _time(fresh, head, repeat),
        "seats": _time(headed, seats, repeat),
        "total": _time(headed, total, repeat),
        "build": _time(whole, build, repeat),
        "new": _time(lambda: None, new, repeat),
    }
    return {"hands": n, "all": p["all"], **{k: 1e6 * v / n for k, v in res.items()}}


def worker(sites: str, repeat: int) -> int:
    """One process: per site, each part's µs a hand, as JSON on the last line."""
    import auditor

    out: dict[str, Any] = {"auditor": str(Path(auditor.__file__).parent)}
    for site in sites.split(","):
        out[site] = measure(site, repeat)
    print(json.dumps(out))
    return 0


def interleave(root: str, sites: Sequence[str], repeat: int, rounds: int) -> int:
    """This checkout's parts and ``root``'s in one process, alternating (see ``--interleave``)."""
    from auditor.formats.assembler import HandAssembler
    from auditor.formats.peg import PegVisitor

    which = {"this": (PegVisitor, HandAssembler), "previous": _load_previous(root)}
    print(f"bench_head --interleave: µs a hand, CPU time, best of {repeat} runs in each of {rounds} alternating rounds")
    head = ["site", "hands", *PARTS, "head+seats+total+build"]
    table = []
    for s in sites:
        p = _prepare(s)
        runs: dict[str, list[dict[str, Any]]] = {k: [] for k in which}
        for _ in range(max(1, rounds)):
            for k, classes in which.items():
                runs[k].append(measure(s, repeat, p, classes, forget=True))
        best = {k: {q: min(r[q] for r in rs) for q in PARTS} for k, rs in runs.items()}
        for k in which:
            b = best[k]
            table.append([f"{s} ({k})", p and len(p["hands"]), *(f"{b[q]:.2f}" for q in PARTS),
                          f"{sum(b[q] for q in PARTS[:4]):.2f}"])  # fmt: skip
        b, q = best["this"], best["previous"]
        table.append([f"{s} previous/this", "", *(f"{q[x] / b[x]:.2f}x" for x in PARTS),
                      f"{sum(q[x] for x in PARTS[:4]) / sum(b[x] for x in PARTS[:4]):.2f}x"])  # fmt: skip
    print(common.format_table(head, table))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sites", default="pokerstars,ggpoker,winamax", help="corpus folders (comma-separated)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of each part, the best kept (default 5)")
    ap.add_argument("--previous", metavar="DIR", help="another checkout, timed in alternating processes")
    ap.add_argument("--rounds", type=int, default=3, help="alternating process rounds (default 3)")
    ap.add_argument("--interleave", metavar="DIR", help="another checkout, timed in this process, alternating")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.sites, args.repeat)
    if args.interleave:
        return interleave(str(Path(args.interleave).resolve()), args.sites.split(","), args.repeat, args.rounds)
    here = Path(__file__).resolve()
    which: dict[str, str | None] = {"this": None} | (
        {"previous": str(Path(args.previous).resolve())} if args.previous else {}
    )
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in which}
    for _ in range(max(1, args.rounds)):
        for name, root in which.items():
            env = dict(os.environ)
            if root is not None:
                env["PYTHONPATH"] = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
            cmd = [sys.executable, str(here), "--worker", "--sites", args.sites, "--repeat", str(args.repeat)]
            done = subprocess.run(cmd, env=env, cwd=root or here.parent, capture_output=True, text=True)
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                return 2
            runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    sites = args.sites.split(",")
    best = {k: {s: {p: min(r[s][p] for r in rs) for p in PARTS} for s in sites} for k, rs in runs.items()}
    print(f"bench_head: µs a hand, CPU time, best of {args.repeat} runs in each of {args.rounds} process rounds")
    head = ["site", "hands", *PARTS, "head+seats+total+build"]
    table = []
    for s in sites:
        for k in which:
            b = best[k][s]
            row: list[Any] = [f"{s} ({k})", runs[k][0][s]["hands"], *(f"{b[p]:.2f}" for p in PARTS)]
            row.append(f"{sum(b[p] for p in PARTS[:4]):.2f}")
            table.append(row)
        if args.previous:
            b, q = best["this"][s], best["previous"][s]
            row = [f"{s} previous/this", "", *(f"{q[p] / b[p]:.2f}x" for p in PARTS)]
            row.append(f"{sum(q[p] for p in PARTS[:4]) / sum(b[p] for p in PARTS[:4]):.2f}x")
            table.append(row)
    print(common.format_table(head, table))
    print("timed: " + "; ".join(f"{k} {rs[0]['auditor']}" for k, rs in runs.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
