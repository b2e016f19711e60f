"""The pots and the rule stage: what :func:`auditor.audit.audit_hand` costs a hand after the replay.

Run from the repository root::

    .venv/bin/python benchmarks/bench_rules.py [--sites pokerstars,ggpoker,winamax] [--repeat N] [--cpu]
        [--previous DIR] [--profile [TOP]] [--json OUT]

Every hand of the chosen corpus folders is parsed, replayed and its pots rebuilt once, untimed.
Then, in one process, on those hands held in memory, the timed loops run:

* **pots** - :func:`auditor.replay.pots.build` on every trace;
* **rules** - every ``hand`` and ``pots`` rule on each hand, the findings sorted and cascades
  folded: exactly what ``audit_hand`` does between ``build_pots`` and its return
  (:func:`auditor.audit.judge` where the checkout has it; an older checkout's loop over
  ``checks("hand")`` and ``checks("pots")`` otherwise), on pots built beforehand;
* **pots + rules** - the two, hand after hand, as ``audit_hand`` runs them (a stage timed alone
  over thousands of hands runs faster than the same code between other work: read this column
  for what a change saves an audit).

The per-hand caches that rules share (``Trace.cache``, ``PotTrace.cache``) are emptied before each
hand, so every run pays for them as an audit does.  The figures are microseconds a hand (best of
``--repeat``, garbage collector off), and the findings counted, which must be the same in every
checkout compared.

Three more columns time what ``hhaudit audit`` does per hand chunk in one process
(:meth:`auditor.audit.AuditRun.process`: parse, the copy and duplicate-id checks, the audit, the
cross-hand row), from it the part after parsing (that time less :func:`parse_chunk` alone on
the same chunks), and the same with the duplicate-id store on disk from the first hand ("on
disk": as in a run of more than 10,000 hands, where each lookup is a query of its database), in
microseconds a chunk.

``--previous DIR`` times another checkout (``git worktree add /tmp/start <commit>``) in lockstep
with this one: two child processes (this script's code, each side's package: ``PYTHONPATH=DIR``
for the other) load the hands once, then ``--repeat`` times each side in turn times one pass of
every stage while the other waits (the order alternating), and each side's best pass of each stage
is kept: a change of the shared machine's load falls on both sides.  ``--profile`` prints
cProfile's top functions of the rule stage.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import common

SITES = "pokerstars,ggpoker,winamax"


def prepared(sites: str) -> dict[str, list[tuple[Any, Any]]]:
    """Per corpus folder, every audited hand's (trace, pots), built untimed."""
    from auditor.formats import parse_chunk
    from auditor.profiles import for_hand
    from auditor.replay import replay
    from auditor.replay.pots import build as build_pots

    out: dict[str, list[tuple[Any, Any]]] = {}
    for site in sites.split(","):
        _src, split = common.load_chunks(common.default_corpus(site), site)
        rows = []
        for c in split.chunks:
            hand, _found = parse_chunk(c)
            if hand is None or hand.cancelled:
                continue
            prof = for_hand(hand.site, None)
            t = replay(hand, prof)
            rows.append((t, build_pots(t, prof)))
        out[site] = rows
    return out


def stage() -> Callable[[Any, Any], list[Any]]:
    """The rule stage of the importable hhaudit: ``judge(trace, pots)``."""
    import auditor.audit as A

    judge = getattr(A, "judge", None)
    if judge is not None:
        return judge  # type: ignore[no-any-return]
    from auditor.findings import checks

    def old(t: Any, pt: Any) -> list[Any]:  # the session start's audit_hand after build_pots
        out: list[Any] = []
        for check in checks("hand"):
            out.extend(check(t))
        for pcheck in checks("pots"):
            out.extend(pcheck(t, pt))
        out.sort(key=A._line_order)
        if not any(f.code in A._ROOTS for f in out):
            return out
        return A.fold_consequences(out, {e.line: e.street for e in t.hand.events})

    return old


def process_all(chunks: Sequence[Any], disk: bool = False) -> int:
    """What ``hhaudit audit`` does per hand chunk: :meth:`AuditRun.process` (parse, duplicate ids,
    audit, the cross-hand row), with a fresh run (its duplicate-id memory) each time; ``disk``: the
    duplicate-id store on disk from the first hand, as in a run of more than 10,000 hands."""
    from auditor.audit import AuditRun
    from auditor.crosshand_audit import Bounded
    from auditor.rules.hand import DuplicateIds
    from auditor.seenstore import SeenStore

    run = AuditRun(dups=DuplicateIds(SeenStore(spill_at=0 if disk else None)), crosshand=Bounded(in_process=10**9))
    try:
        return sum(len(run.process(c).findings) for c in chunks)
    finally:
        run.dups.seen.close()


def parse_all(chunks: Sequence[Any]) -> int:
    from auditor.formats import parse_chunk

    return sum(parse_chunk(c)[0] is not None for c in chunks)


def run(rows: Sequence[tuple[Any, Any]], judge: Callable[[Any, Any], list[Any]]) -> int:
    n = 0
    for t, pt in rows:
        t.cache.clear()
        pt.cache.clear()
        n += len(judge(t, pt))
    return n


STAGES = ("pots", "rules", "pots + rules", "process", "parse", "on disk")


def loaded(sites: str) -> dict[str, dict[str, Any]]:
    """Per corpus folder: the hands' (trace, pots), their chunks, and the findings the rules find."""
    judge = stage()
    out: dict[str, dict[str, Any]] = {}
    for site, rows in prepared(sites).items():
        chunks = common.load_chunks(common.default_corpus(site), site)[1].chunks
        out[site] = {"rows": rows, "chunks": chunks, "findings": run(rows, judge)}
    return out


def one_pass(data: dict[str, dict[str, Any]], clock: Callable[[], float]) -> dict[str, dict[str, float]]:
    """One timed pass of every stage on every site's hands: seconds, garbage collector off."""
    from auditor.replay.pots import build

    judge = stage()

    def pots(rows: Sequence[tuple[Any, Any]]) -> None:
        for t, _pt in rows:
            build(t, t.profile)

    def both(rows: Sequence[tuple[Any, Any]]) -> None:
        for t, _pt in rows:
            t.cache.clear()
            judge(t, build(t, t.profile))

    out: dict[str, dict[str, float]] = {}
    for site, d in data.items():
        rows, chunks = d["rows"], d["chunks"]
        calls: dict[str, Callable[[], Any]] = {
            "pots": lambda rows=rows: pots(rows),
            "rules": lambda rows=rows: run(rows, judge),
            "pots + rules": lambda rows=rows: both(rows),
            "process": lambda cs=chunks: process_all(cs),
            "parse": lambda cs=chunks: parse_all(cs),
            "on disk": lambda cs=chunks: process_all(cs, disk=True),
        }
        out[site] = {}
        for name in STAGES:
            gc.collect()
            gc.disable()
            try:
                t0 = clock()
                calls[name]()
                out[site][name] = clock() - t0
            finally:
                gc.enable()
    return out


def figures(data: dict[str, dict[str, Any]], best: dict[str, dict[str, float]]) -> dict[str, Any]:
    """µs a hand (a chunk for the pipeline's columns) of each site's best passes."""
    res: dict[str, Any] = {}
    for site, d in data.items():
        n, c, b = len(d["rows"]), len(d["chunks"]), best[site]
        res[site] = {"hands": n, "findings": d["findings"], "chunks": c,
                     "pots_us": 1e6 * b["pots"] / n, "us_per_hand": 1e6 * b["rules"] / n,
                     "both_us": 1e6 * b["pots + rules"] / n, "process_us": 1e6 * b["process"] / c,
                     "after_parse_us": 1e6 * (b["process"] - b["parse"]) / c,
                     "disk_us": 1e6 * b["on disk"] / c}  # fmt: skip
    return res


def _keep_best(best: dict[str, dict[str, float]], got: dict[str, dict[str, float]]) -> None:
    for site, stages in got.items():
        for name, v in stages.items():
            best.setdefault(site, {})[name] = min(best.get(site, {}).get(name, float("inf")), v)


def measure(sites: str, repeat: int, cpu: bool) -> dict[str, Any]:
    """This checkout alone, in this process: one untimed pass, then the best of ``repeat``."""
    data = loaded(sites)
    clock = time.process_time if cpu else time.perf_counter
    one_pass(data, clock)
    best: dict[str, dict[str, float]] = {}
    for _ in range(max(1, repeat)):
        _keep_best(best, one_pass(data, clock))
    return figures(data, best)


def child(sites: str, cpu: bool) -> None:
    """One side of ``--previous``: load the hands, say ``ready``, then one timed pass per line read."""
    data = loaded(sites)
    clock = time.process_time if cpu else time.perf_counter
    one_pass(data, clock)  # (warm-up)
    counts = {site: {"hands": len(d["rows"]), "chunks": len(d["chunks"]), "findings": d["findings"]}
              for site, d in data.items()}  # fmt: skip
    import auditor

    print(json.dumps({"ready": str(Path(auditor.__file__).parent), "counts": counts}), flush=True)
    for _ in sys.stdin:
        print(json.dumps(one_pass(data, clock)), flush=True)


def lockstep(sites: str, repeat: int, cpu: bool, previous: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """This checkout and the one in ``previous`` timed in turn, pass by pass: (this, previous)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sides = {"previous": {**env, "PYTHONPATH": str(Path(previous).resolve())}, "this": env}
    procs: dict[str, subprocess.Popen[str]] = {}
    counts: dict[str, Any] = {}
    for name, side_env in sides.items():
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--sites", sites] + (["--cpu"] if cpu else [])
        procs[name] = p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                           env=side_env, cwd="/")  # fmt: skip
        assert p.stdout is not None
        ready = json.loads(p.stdout.readline())
        counts[name] = ready["counts"]
        print(f"{name}: {ready['ready']}", flush=True)
    best: dict[str, dict[str, dict[str, float]]] = {name: {} for name in sides}
    for r in range(max(1, repeat)):
        for name in list(procs) if r % 2 == 0 else list(procs)[::-1]:
            p = procs[name]
            assert p.stdin is not None and p.stdout is not None
            p.stdin.write("go\n")
            p.stdin.flush()
            _keep_best(best[name], json.loads(p.stdout.readline()))
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()

    def as_figures(name: str) -> dict[str, Any]:
        fake = {site: {"rows": range(c["hands"]), "chunks": range(c["chunks"]), "findings": c["findings"]}
                for site, c in counts[name].items()}  # fmt: skip
        return figures(fake, best[name])

    return as_figures("this"), as_figures("previous")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", default=SITES, help="corpus folders, comma-separated")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time, not the wall clock")
    ap.add_argument("--previous", metavar="DIR", help="a checkout of an earlier hhaudit to time in the same run")
    ap.add_argument("--profile", nargs="?", const=30, type=int, metavar="TOP")
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.sites, args.cpu)
        return 0
    if args.profile:
        data = prepared(args.sites)
        judge = stage()
        every = [r for rows in data.values() for r in rows]
        run(every, judge)
        prof = cProfile.Profile()
        prof.enable()
        run(every, judge)
        prof.disable()
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(args.profile)
        print(s.getvalue())
        return 0
    prev = None
    if args.previous:
        now, prev = lockstep(args.sites, args.repeat, args.cpu, args.previous)
    else:
        now = measure(args.sites, args.repeat, args.cpu)
    clock_name = "CPU time" if args.cpu else "wall time"
    how = f"best of {args.repeat}" + (" interleaved passes" if prev is not None else "")
    print(f"bench_rules: {how}, {clock_name}; {common.environment()}")
    keys = ("pots_us", "us_per_hand", "both_us", "after_parse_us", "process_us", "disk_us")
    head = ["site", "hands", "findings", "pots us/hand", "rules us/hand", "pots + rules", "after parse us/hand",
            "process us/hand", "on disk"]  # fmt: skip
    if prev is not None:
        head += ["prev pots", "x", "prev rules", "x", "prev pots + rules", "x", "prev after parse", "x",
                 "prev process", "x", "prev on disk", "x", "same findings"]  # fmt: skip
    table = []
    for site, r in now.items():
        line: list[Any] = [site, r["hands"], r["findings"], *(f"{r[k]:.1f}" for k in keys)]
        if prev is not None:
            p = prev[site]
            for k in keys:
                line += [f"{p[k]:.1f}", f"{p[k] / r[k]:.2f}x"]
            line.append("yes" if p["findings"] == r["findings"] else "NO")
        table.append(line)
    print(common.format_table(head, table))
    if args.json:
        common.write_json(args.json, {"now": now, "previous": prev, "clock": clock_name})
    return 0


if __name__ == "__main__":
    sys.exit(main())
