"""The rule stage alone: what :func:`auditor.audit.audit_hand` costs a hand after the replay and pots.

Run from the repository root::

    .venv/bin/python benchmarks/bench_rules.py [--sites pokerstars,ggpoker,winamax] [--repeat N] [--cpu]
        [--previous DIR] [--profile [TOP]] [--json OUT]

Every hand of the chosen corpus folders is parsed, replayed and its pots rebuilt once, untimed.
Then, in one process, on those hands held in memory, the timed loop runs every ``hand`` and
``pots`` rule on each hand, sorts the findings and folds cascades: exactly what ``audit_hand``
does between ``build_pots`` and its return (:func:`auditor.audit.judge` where the checkout has
it; an older checkout's loop over ``checks("hand")`` and ``checks("pots")`` otherwise).  The
per-hand caches that rules share (``Trace.cache``, ``PotTrace.cache``) are emptied before each
hand, so every run pays for them as an audit does.  The figure is microseconds a hand (best of
``--repeat``, garbage collector off), and the findings counted, which must be the same in every
checkout compared.

Three more columns time what ``hhaudit audit`` does per hand chunk in one process
(:meth:`auditor.audit.AuditRun.process`: parse, the copy and duplicate-id checks, the audit, the
cross-hand row), from it the part after parsing (that time less :func:`parse_chunk` alone on
the same chunks), and the same with the duplicate-id store on disk from the first hand ("on
disk": as in a run of more than 10,000 hands, where each lookup is a query of its database), in
microseconds a chunk.

``--previous DIR`` times another checkout (``git worktree add /tmp/h3-start <commit>``) in a
subprocess on the same hands in the same run; ``--profile`` prints cProfile's top functions of
the rule stage.
"""

from __future__ import annotations

import argparse
import cProfile
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


def measure(sites: str, repeat: int, cpu: bool) -> dict[str, Any]:
    data = prepared(sites)
    judge = stage()
    clock = time.process_time if cpu else time.perf_counter
    res: dict[str, Any] = {}
    for site, rows in data.items():
        found = run(rows, judge)
        tm = common.best_of(lambda rows=rows: run(rows, judge), repeat, warmup=1, clock=clock)
        res[site] = {"hands": len(rows), "findings": found, "best_s": tm.best, "us_per_hand": 1e6 * tm.best / len(rows)}
        chunks = common.load_chunks(common.default_corpus(site), site)[1].chunks
        full = common.best_of(lambda cs=chunks: process_all(cs), repeat, warmup=1, clock=clock)
        parse = common.best_of(lambda cs=chunks: parse_all(cs), repeat, warmup=1, clock=clock)
        disk = common.best_of(lambda cs=chunks: process_all(cs, disk=True), repeat, warmup=1, clock=clock)
        res[site]["chunks"] = len(chunks)
        res[site]["process_us"] = 1e6 * full.best / len(chunks)
        res[site]["disk_us"] = 1e6 * disk.best / len(chunks)
        res[site]["after_parse_us"] = 1e6 * (full.best - parse.best) / len(chunks)
    return res


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", default=SITES, help="corpus folders, comma-separated")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time, not the wall clock")
    ap.add_argument("--previous", metavar="DIR", help="a checkout of an earlier hhaudit to time in the same run")
    ap.add_argument("--profile", nargs="?", const=30, type=int, metavar="TOP")
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args.sites, args.repeat, args.cpu)))
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
        path = os.pathsep.join([str(Path(args.previous).resolve()), os.environ.get("PYTHONPATH", "")])
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--sites", args.sites,
               "--repeat", str(args.repeat)] + (["--cpu"] if args.cpu else [])  # fmt: skip
        out = subprocess.run(cmd, env={**os.environ, "PYTHONPATH": path}, check=True, capture_output=True, text=True,
                             cwd=args.previous)  # fmt: skip
        prev = json.loads(out.stdout.strip().splitlines()[-1])
    now = measure(args.sites, args.repeat, args.cpu)
    clock_name = "CPU time" if args.cpu else "wall time"
    print(f"bench_rules: best of {args.repeat}, {clock_name}; {common.environment()}")
    head = ["site", "hands", "findings", "rules us/hand", "after parse us/hand", "process us/hand", "on disk"]
    if prev is not None:
        head += ["prev rules", "x", "prev after parse", "x", "prev process", "x", "prev on disk", "x", "same findings"]
    table = []
    for site, r in now.items():
        line: list[Any] = [site, r["hands"], r["findings"], f"{r['us_per_hand']:.1f}", f"{r['after_parse_us']:.1f}",
                           f"{r['process_us']:.1f}", f"{r['disk_us']:.1f}"]  # fmt: skip
        if prev is not None:
            p = prev[site]
            for k in ("us_per_hand", "after_parse_us", "process_us", "disk_us"):
                line += [f"{p[k]:.1f}", f"{p[k] / r[k]:.2f}x"]
            line.append("yes" if p["findings"] == r["findings"] else "NO")
        table.append(line)
    print(common.format_table(head, table))
    if args.json:
        common.write_json(args.json, {"now": now, "previous": prev, "clock": clock_name})
    return 0


if __name__ == "__main__":
    sys.exit(main())
