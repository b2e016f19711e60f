"""The whole pipeline's per-hand glue, part by part, against an earlier checkout in alternating
processes (issue 16).

    .venv/bin/python benchmarks/bench_glue.py --previous /tmp/start [--pairs 4] [--repeat 7] [--corpus DIR]

What ``hhaudit audit FILES --format json`` does per hand besides parsing and judging it
(``bench_audit.py``'s "whole pipeline" row less its full audit), timed apart from the parse and the
replay, whose ~500 us a hand move by more than the glue between two blocks of minutes on a shared
machine: **split** (``ingest.read_stream`` of the files' bytes, every item taken), **fp** (the line
fingerprint, ``rules.hand.fingerprint``, of every hand), **fp+row** (the fingerprint, then the
cross-hand row into a ``crosshand_audit.Bounded`` collector, its batches pickled as in a run of more
than 500 hands), **json** (the JSON writer, every finding).  The hands are read and judged once
beforehand (``AuditRun.process``); CPU time (``time.process_time``), best of ``--repeat`` runs of
each part, the garbage collector on.  Each side runs in its own process (``PYTHONPATH`` = this
checkout or ``--previous``), the two alternating ``--pairs`` times; the best of each part is kept.
``glue`` = split + fp+row + json, in us a hand.  **dispatch** is a one-off cost, in ms a run: the
split's header dispatch made ready as a new process makes it (the registry's tables taken, from its
on-disk cache where a checkout keeps them there, ``re``'s own cache emptied first; then a line of
each first character the corpus's lines start with, which a checkout that compiles each
character's pattern on first sight compiles then); not part of ``glue``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import common

HERE = Path(__file__).resolve().parent
PARTS = ("split", "fp", "fp+row", "json", "glue", "dispatch")


def measure(corpus: str, repeat: int) -> dict[str, float]:
    """This process's hhaudit: us a hand of each part (see the module's docstring)."""
    from auditor.audit import AuditRun
    from auditor.crosshand_audit import Bounded
    from auditor.ingest import read_stream
    from auditor.output import Options
    from auditor.output.json_out import JsonFormatter
    from auditor.pipeline import Summary
    from auditor.rules.hand import fingerprint

    sources, split = common.load_chunks(corpus)
    n = len(split.chunks)
    run = AuditRun()
    judged = []
    for c in split.chunks:
        r = run.process(c)
        judged.append((r.audited, r.findings, c.lines))
    run.dups.seen.close()

    def split_() -> None:
        for s in sources:
            for _item in read_stream(io.BytesIO(s.data), s.path, len(s.data))[1]:
                pass

    def fp() -> None:
        for _a, _fs, lines in judged:
            fingerprint(tuple(lines))  # (a new tuple: the last hand's value is kept)

    def fp_row() -> None:
        rows = Bounded()
        for a, fs, lines in judged:
            lines = tuple(lines)
            fingerprint(lines)
            if a is not None:
                rows.add(a, fs, lines)
        rows._write()
        cleanup = getattr(rows, "_cleanup", None)
        if cleanup is not None:
            cleanup()

    def copies() -> None:
        for _a, _fs, lines in judged:
            tuple(lines)

    from auditor.formats import REGISTRY
    from auditor.ingest import HeaderDispatch

    firsts = sorted({line[:1] for c in split.chunks for line in c.lines})

    def dispatch() -> None:
        import re

        re.purge()
        REGISTRY.__dict__.pop("header_dispatch", None)  # (a new process's registry; absent before s14)
        d = HeaderDispatch()
        d.WARM = 0
        for c in firsts:
            d(c)

    def json_() -> None:
        fmt = JsonFormatter(io.StringIO(), Options(argv=["hhaudit"]))
        for _a, fs, _lines in judged:
            for f in fs:
                fmt.write(f)
        fmt.close(Summary())

    parts: dict[str, Callable[[], None]] = {"split": split_, "fp": fp, "fp+row": fp_row, "copies": copies,
                                            "json": json_, "dispatch": dispatch}  # fmt: skip
    for f in parts.values():
        f()  # warm-up (the header dispatch is built, the caches filled)
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(repeat):
        for name, f in parts.items():
            t = time.process_time()
            f()
            best[name] = min(best[name], time.process_time() - t)
    out = {k: 1e6 * v / n for k, v in best.items()}
    out["dispatch"] = 1e3 * best["dispatch"]  # (ms, once a run)
    out["fp"] -= out["copies"]
    out["fp+row"] -= out["copies"]
    out["glue"] = out["split"] + out["fp+row"] + out["json"]
    return {k: out[k] for k in PARTS}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument("--previous", metavar="DIR", help="a checkout of an earlier hhaudit, timed in turns with this one")
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args.corpus, args.repeat)))
        return 0
    sides = {"this": str(HERE.parent)} | ({"previous": str(Path(args.previous).resolve())} if args.previous else {})
    got: dict[str, list[dict[str, float]]] = {k: [] for k in sides}
    for p in range(args.pairs):
        order = list(sides.items()) if p % 2 == 0 else list(reversed(sides.items()))
        for name, root in order:
            env = {**os.environ, "PYTHONPATH": root}
            cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--corpus", args.corpus,
                   "--repeat", str(args.repeat)]  # fmt: skip
            done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=root)
            got[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"pair {p + 1} {name}: " + ", ".join(f"{k} {v:.1f}" for k, v in got[name][-1].items()), flush=True)
    best: dict[str, dict[str, Any]] = {s: {k: min(r[k] for r in rows) for k in PARTS} for s, rows in got.items()}
    print(f"bench_glue: {args.corpus}; us a hand (dispatch: ms once), CPU, best of {args.repeat} x {args.pairs}; "
          f"{common.environment()}")  # fmt: skip
    head = ["part", *sides] + (["previous / this"] if args.previous else [])
    table = [[k, *(f"{best[s][k]:.1f}" for s in sides)] + ([f"{best['previous'][k] / best['this'][k]:.2f}x"]
             if args.previous else []) for k in PARTS]  # fmt: skip
    print(common.format_table(head, table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
