"""The full audit against pokerkit's parser, the regex floor and an earlier hhaudit, on the same
PokerStars hands, in one run.

Issue 4's target: hhaudit's whole audit of a hand (parse, replay, pots, awards, every rule) stays
at least 5x faster than pokerkit's PokerStars parser *alone* on the same hands.  Issue 16's: 10x
in pure Python (3,000 hands/s per core), 19x compiled.

    .venv/bin/python benchmarks/bench_audit.py [--corpus DIR] [--repeat N] [--json OUT] [--cpu]
        [--previous DIR] [--baseline FILE]

``--previous DIR`` times the full audit of another checkout of hhaudit (the previous release:
``git worktree add /tmp/prev v0.1.0``) in a subprocess, on the same hands, in the same run, and
prints the ratio.  ``--baseline FILE`` (default ``benchmarks/baseline.json``) prints figures
recorded earlier on this machine class next to this run's (absolute numbers: only comparable on
the same machine).  ``--cpu`` times with the process's CPU time instead of the wall clock, for a
machine shared with other work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common
from bench_parse import pokerkit_classify, pokerkit_parse, regex_scan

TARGET_RATIO = 5.0
HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"


def full_audit(chunks: Sequence[Any]) -> int:
    from auditor.audit import audit_hand
    from auditor.formats import parse_chunk
    from auditor.profiles import for_hand
    from auditor.rules.hand import DuplicateIds

    dups = DuplicateIds()
    n = 0
    for c in chunks:
        hand, fs = parse_chunk(c)
        if hand is not None:
            a = audit_hand(hand, for_hand(hand.site, None))
            trace, more = a.trace, a.findings
            n += len(fs) + len(more) + sum(1 for _ in dups.check(hand, trace))
    return n


def pipeline(sources: Sequence[Any]) -> int:
    """What ``hhaudit audit FILES --format json`` does per hand in its process, from the files'
    bytes to the JSON report: decode and split (``read_stream``), ``AuditRun.process`` (parse, the
    fingerprint, the copy and duplicate-id checks, replay, pots, rules, the cross-hand row in a
    :class:`~auditor.crosshand_audit.Bounded` collector, as the CLI's), the findings written by the
    JSON writer to memory.  Not the cross-hand query (the child process, after the last hand) nor
    start-up.  Timed with the garbage collector on, as in the CLI."""
    import io

    from auditor.audit import AuditRun
    from auditor.crosshand_audit import Bounded
    from auditor.ingest import read_stream
    from auditor.output import Options
    from auditor.output.json_out import JsonFormatter
    from auditor.pipeline import Summary

    out = io.StringIO()
    fmt = JsonFormatter(out, Options(argv=["hhaudit"]))
    run = AuditRun(crosshand=Bounded())
    n = 0
    try:
        for src in sources:
            _info, items = read_stream(io.BytesIO(src.data), src.path, len(src.data))
            for item in items:
                if not hasattr(item, "lines"):
                    fmt.write(item)
                    continue
                for f in run.process(item).findings:
                    fmt.write(f)
                    n += 1
        fmt.close(Summary())
    finally:
        run.dups.seen.close()
        cleanup = getattr(run.crosshand, "_cleanup", None)
        if cleanup is not None:
            cleanup()
    return n


#: the one-hand files ``--startup`` times: the README's NLHE sample (the issue's target), and a
#: PokerStars Omaha hi/lo hand (its low is ranked with pokerkit's table: the first such hand of a
#: process loads it)
STARTUP_HANDS = {
    "nlhe": HERE.parent / "fixtures" / "samples" / "disputed_reraise.txt",
    "hilo": HERE.parent / "fixtures" / "sites" / "pokerstars" / "omaha_hilo_limit_split.txt",
}


def startup(runs: int, previous_dir: str | None) -> dict[str, list[float]]:
    """CPU time (user + system) of ``python -m auditor.cli audit`` on one hand (each of
    :data:`STARTUP_HANDS`), each run a new process started from an empty directory with bytecode
    written (``PYTHONDONTWRITEBYTECODE`` unset), this checkout and ``previous_dir`` alternating; the
    first run of each is a warm-up (bytecode, grammar cache, pokerkit's tables)."""
    import resource

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    which = {"this": str(HERE.parent)} | ({"previous": str(Path(previous_dir).resolve())} if previous_dir else {})
    out: dict[str, list[float]] = {f"{name}, {hand}": [] for hand in STARTUP_HANDS for name in which}
    with tempfile.TemporaryDirectory() as empty:
        for i in range(runs + 1):
            for hand, path in STARTUP_HANDS.items():
                for name, root in which.items():
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    subprocess.run([sys.executable, "-m", "auditor.cli", "audit", str(path), "--fail-on", "none"],
                                   cwd=empty, env={**env, "PYTHONPATH": root, "PYTHONSAFEPATH": "1"}, check=True,
                                   stdout=subprocess.DEVNULL)  # fmt: skip
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    if i:
                        out[f"{name}, {hand}"].append(
                            after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                        )
    return out


def _clock(cpu: bool) -> Any:
    return time.process_time if cpu else time.perf_counter


def worker(corpus: str, repeat: int, cpu: bool, selections: str) -> int:
    """``--worker``: time the full audit of the importable hhaudit on each selection of hands
    (a JSON list of index lists), print the best times as JSON (used for ``--previous``)."""
    _sources, split = common.load_chunks(corpus)
    chunks = split.chunks
    with open(selections) as f:
        sels = json.load(f)
    full_audit(chunks)
    out = []
    for sel in sels:
        cs = [chunks[i] for i in sel]
        t = common.best_of(lambda cs=cs: full_audit(cs), repeat, warmup=0, clock=_clock(cpu))
        out.append(t.as_dict(len(cs)))
    sources = _sources
    tp = common.best_of(lambda: pipeline(sources), repeat, warmup=0, disable_gc=False, clock=_clock(cpu))
    import auditor

    version = getattr(auditor, "__version__", "?")
    print(json.dumps({"rows": out, "pipeline": tp.as_dict(len(chunks)), "version": version}))
    return 0


def previous(dir_: str, corpus: str, repeat: int, cpu: bool, sels: list[list[int]]) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(sels, f)
    try:
        path = os.pathsep.join([str(Path(dir_).resolve()), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONPATH": path}
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", f.name, "--corpus", corpus,
               "--repeat", str(repeat)] + (["--cpu"] if cpu else [])  # fmt: skip
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=dir_)
        res: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        commit = subprocess.run(["git", "-C", dir_, "describe", "--always", "--tags"], capture_output=True, text=True)
        res["commit"] = commit.stdout.strip() or "?"
        return res
    finally:
        os.unlink(f.name)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time, not the wall clock")
    ap.add_argument("--previous", metavar="DIR", help="a checkout of an earlier hhaudit to time in the same run")
    ap.add_argument("--baseline", metavar="FILE", default=str(BASELINE))
    ap.add_argument("--startup", type=int, metavar="N", default=0,
                    help="also time start-up for one hand, N processes (with --previous: alternating)")  # fmt: skip
    ap.add_argument("--startup-only", action="store_true", help="with --startup: time the start-up only")
    ap.add_argument("--worker", metavar="SELECTIONS", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.corpus, args.repeat, args.cpu, args.worker)
    if args.startup:
        for name, times in startup(args.startup, args.previous).items():
            times.sort()
            print(f"start-up for one hand, {name}: CPU min {times[0]:.3f} s, median {times[len(times) // 2]:.3f} s "
                  f"({len(times)} runs; target < 0.15 s)")  # fmt: skip
        if args.startup_only:
            return 0

    from pokerkit.notation import PokerStarsParser

    clock = _clock(args.cpu)
    _sources, split = common.load_chunks(args.corpus)
    chunks = split.chunks
    texts = [c.text for c in chunks]
    parser = PokerStarsParser()
    accepted, _why = pokerkit_classify(parser, texts)
    full_audit(chunks)  # warm-up: grammars compiled, evaluator tables built
    ok = [i for i, k in enumerate(accepted) if k]
    selections = [("all hands", list(range(len(chunks)))), ("pokerkit-accepted", ok)]
    prev = None
    if args.previous:
        prev = previous(args.previous, args.corpus, args.repeat, args.cpu, [s for _, s in selections])
    rows = []
    for k, (name, sel) in enumerate(selections):
        cs = [chunks[i] for i in sel]
        ts = [texts[i] for i in sel]
        hh = common.best_of(lambda cs=cs: full_audit(cs), args.repeat, warmup=0, clock=clock)
        pk = common.best_of(lambda ts=ts: pokerkit_parse(parser, ts), args.repeat, warmup=0, clock=clock)
        rx = common.best_of(lambda ts=ts: regex_scan(ts), args.repeat, warmup=0, clock=clock)
        row: dict[str, Any] = {"name": name, "hands": len(cs), "hhaudit_full_audit": hh.as_dict(len(cs)),
                               "pokerkit_parse": pk.as_dict(len(cs)), "regex_scan": rx.as_dict(len(cs)),
                               "ratio": pk.best / hh.best, "regex_ratio": rx.best / hh.best}  # fmt: skip
        if prev is not None:
            row["previous"] = prev["rows"][k]
            row["previous_ratio"] = prev["rows"][k]["best_s"] / hh.best
        rows.append(row)
    clock_name = "CPU time" if args.cpu else "wall time"
    print(f"bench_audit: {args.corpus}; best of {args.repeat}, {clock_name}; {common.environment()}")
    head = ["hands", "n", "hhaudit full audit h/s", "pokerkit parse h/s", "x pokerkit", "regex h/s", "% of regex"]
    if prev is not None:
        head += [f"previous ({prev['commit']}) h/s", "x previous"]
    table = []
    for r in rows:
        line = [r["name"], r["hands"], r["hhaudit_full_audit"]["per_s"], r["pokerkit_parse"]["per_s"],
                f"{r['ratio']:.2f}x", r["regex_scan"]["per_s"], f"{100 * r['regex_ratio']:.1f}%"]  # fmt: skip
        if prev is not None:
            line += [r["previous"]["per_s"], f"{r['previous_ratio']:.2f}x"]
        table.append(line)
    print(common.format_table(head, table))
    baseline = None
    if args.baseline and Path(args.baseline).exists():
        baseline = json.loads(Path(args.baseline).read_text())
        b = {r["name"]: r for r in baseline.get("rows", [])}
        for r in rows:
            if r["name"] in b:
                was = b[r["name"]]["hhaudit_full_audit"]["per_s"]
                print(f"baseline {baseline.get('label', '?')}, {r['name']}: {was:,.0f} h/s then, "
                      f"{r['hhaudit_full_audit']['per_s']:,.0f} now ({r['hhaudit_full_audit']['per_s'] / was:.2f}x; "
                      "another run: compare on the same machine only)")  # fmt: skip
    pipe = common.best_of(lambda: pipeline(_sources), args.repeat, warmup=0, disable_gc=False, clock=clock)
    prow = pipe.as_dict(len(chunks))
    us = 1e6 * pipe.best / len(chunks)
    line = f"whole pipeline (split, process, cross-hand rows, JSON; gc on): {us:,.1f} us a hand"
    if prev is not None and "pipeline" in prev:
        was = prev["pipeline"]["best_s"]
        line += f", previous {1e6 * was / len(chunks):,.1f} ({was / pipe.best:.2f}x)"
    print(line)
    ratio = rows[-1]["ratio"]
    print(f"target full audit >= {TARGET_RATIO:.0f}x pokerkit's parser (pokerkit-accepted): {ratio:.2f}x -> "
          f"{'MET' if ratio >= TARGET_RATIO else 'NOT MET'}")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "pipeline": prow, "previous_pipeline": prev.get("pipeline") if prev else None,
                       "clock": clock_name, "environment": common.environment()}, f, indent=1)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
