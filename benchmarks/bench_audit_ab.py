"""bench_audit's full audit of several builds in lockstep (for a machine whose load changes).

Run from the repository root (the paths below are relative to it)::

    .venv-compiled/bin/python benchmarks/bench_audit_ab.py --rounds 10 \\
        --side start=.venv/bin/python:/tmp/start \\
        --side start-compiled=/tmp/s12-compiled-start/bin/python \\
        --side this-compiled=.venv-compiled/bin/python

Each ``--side NAME=EXE`` is an interpreter and the hhaudit it has installed (a compiled wheel's
virtual environment), ``NAME=EXE:DIR`` the same interpreter with ``PYTHONPATH=DIR`` (a checkout:
the pure build of another commit).  Every side is a child process started with ``-P`` from ``/``
that loads the PokerStars corpus hands once and runs ``bench_audit.full_audit`` on them untimed
(grammars compiled, evaluator tables built), then waits.  ``--rounds`` times, each side in turn
times one pass on **all hands** and one on the **pokerkit-accepted** hands (the selection made once
by this process with pokerkit) while the others wait; the best (least) process CPU time of each
side and row is kept, the cyclic collector off during a pass, as in ``bench_audit.py --cpu``.
All sides see the same minutes of the machine, so a change of its load falls on all of them.

The table gives each side's best hands/s, the ratio of its best to the first side's best, and the
median over the rounds of the ratio of the first side's time to its own in the same round (each
round's passes are seconds apart: the steadier figure when the load changes between rounds).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (run with -P: this folder is not on the path)
import common

ROWS = ("all hands", "pokerkit-accepted")


def child(corpus: str, selection: str) -> None:
    """One side: load the hands, warm up, say ``ready``, then time one pass of each row per line read."""
    from bench_audit import full_audit

    _sources, split = common.load_chunks(corpus)
    chunks = split.chunks
    with open(selection) as f:
        accepted: list[int] = json.load(f)
    rows = {"all hands": chunks, "pokerkit-accepted": [chunks[i] for i in accepted]}
    full_audit(chunks)  # warm-up
    import auditor

    print(json.dumps({"ready": str(Path(auditor.__file__).parent), "hands": len(chunks)}), flush=True)
    for _ in sys.stdin:
        out = {}
        for name, cs in rows.items():
            gc.collect()
            gc.disable()
            try:
                t0 = time.process_time()
                full_audit(cs)
                out[name] = (time.process_time() - t0, len(cs))
            finally:
                gc.enable()
        print(json.dumps(out), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--side", action="append", default=[], metavar="NAME=EXE[:DIR]",
                    help="an interpreter (and a checkout on PYTHONPATH); the first is the reference")  # fmt: skip
    ap.add_argument("--rounds", type=int, default=8, help="timed passes of each side, interleaved (default 8)")
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--child", metavar="SELECTION", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.corpus, args.child)
        return 0
    if not args.side:
        ap.error("give at least one --side NAME=EXE[:DIR]")
    from bench_parse import pokerkit_classify
    from pokerkit.notation import PokerStarsParser

    _sources, split = common.load_chunks(args.corpus)
    accepted, _why = pokerkit_classify(PokerStarsParser(), [c.text for c in split.chunks])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    procs: dict[str, subprocess.Popen[str]] = {}
    where: dict[str, str] = {}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([i for i, ok in enumerate(accepted) if ok], f)
    try:
        for spec in args.side:
            name, _, exe = spec.partition("=")
            exe, _, path = exe.partition(":")
            side_env = {**env, "PYTHONPATH": str(Path(path).resolve())} if path else env
            exe = os.path.abspath(exe)  # (not resolved: a virtual environment's python is a link to the real one)
            cmd = [exe, "-P", str(Path(__file__).resolve()), "--child", f.name, "--corpus", args.corpus]
            procs[name] = p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                               env=side_env, cwd="/")  # fmt: skip
            assert p.stdout is not None
            where[name] = json.loads(p.stdout.readline())["ready"]
        best: dict[str, dict[str, tuple[float, int]]] = {name: {} for name in procs}
        rounds: list[dict[str, dict[str, float]]] = []  # each round's seconds, by side and row
        for _ in range(args.rounds):
            this_round: dict[str, dict[str, float]] = {}
            for name, p in procs.items():
                assert p.stdin is not None and p.stdout is not None
                p.stdin.write("go\n")
                p.stdin.flush()
                this_round[name] = {}
                for row, (s, n) in json.loads(p.stdout.readline()).items():
                    this_round[name][row] = s
                    if row not in best[name] or s < best[name][row][0]:
                        best[name][row] = (s, n)
            rounds.append(this_round)
    finally:
        for p in procs.values():
            if p.stdin is not None:
                p.stdin.close()
            p.wait()
        os.unlink(f.name)
    first = next(iter(procs))
    rows: list[list[Any]] = []
    for name in procs:
        line: list[Any] = [name]
        for row in ROWS:
            s, n = best[name][row]
            paired = statistics.median(r[first][row] / r[name][row] for r in rounds)
            line += [f"{n / s:,.0f}", f"{best[first][row][0] / s:.3f}x", f"{paired:.3f}x"]
        rows.append(line)
    print(f"bench_audit_ab: {args.corpus}; {args.rounds} interleaved passes, CPU time")
    for name, w in where.items():
        print(f"  {name}: {w}")
    print(f"h/s: the best pass; 'best x': its ratio to {first}'s best; 'paired x': the median of the rounds' ratios")
    head = ["side"] + [h for row in ROWS for h in (f"{row} h/s", "best x", "paired x")]
    print(common.format_table(head, rows))
    if args.json:
        args.json.write_text(json.dumps({"rounds": rounds, "packages": where, "best_s": best}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
