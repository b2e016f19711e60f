"""Everything after the parse, this checkout against another, in lockstep (for a machine whose load changes).

Run from the repository root::

    .venv/bin/python benchmarks/bench_replay_ab.py --previous /tmp/start --rounds 12
    .venv/bin/python benchmarks/bench_replay_ab.py --previous /tmp/start --site ggpoker --rounds 8
    .venv-compiled/bin/python benchmarks/bench_replay_ab.py --python /tmp/start-compiled/bin/python --rounds 12

Two child processes, one per side (this interpreter's own package; ``--previous DIR``, the
checkout in ``DIR`` with ``PYTHONPATH=DIR``; or ``--python EXE``, another interpreter's installed
package, e.g. the compiled build of another checkout), each started with ``-P`` from ``/``, load the
site's corpus hands once, parse them, and wait.  Then, ``--rounds`` times, each side in turn runs
one timed pass of every stage while the other waits, and the best (least) CPU time of each side and
stage is kept.  Both sides see the same moments of the machine, a second apart, so a change of the
machine's load between two runs (two vCPUs shared with other work can change a side's CPU time by a
third from one minute to the next) falls on both.

Stages, in process CPU time per hand (``time.process_time``), the cyclic collector off during a pass:

* **replay set-up** - the hand's replay class constructed (``replay_class(hand)(hand, profile,
  facts)``: the event index, the players, the turn order), not run;
* **replay** - :func:`auditor.replay.replay` alone (set-up included);
* **pots** - :func:`auditor.replay.pots.build` on traces made beforehand (warm: the evaluations
  remembered across hands are kept);
* **rules** - :func:`auditor.audit.judge` on traces and pots made beforehand (the rule stage, the
  per-hand caches emptied first);
* **after parse** - :meth:`auditor.audit.AuditRun.process` on every chunk with ``parse_chunk``
  answered from hands parsed beforehand: the fingerprint, the copy and duplicate-id checks,
  ``audit_hand`` (replay, pots, rules) and the cross-hand row, as ``hhaudit audit`` runs them.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (run with -P: this folder is not on the path)
import common

STAGES = ("replay set-up", "replay", "pots", "rules", "after parse")


def child(site: str, stages: tuple[str, ...]) -> None:
    """One side: load and parse the hands, say ``ready``, then time one pass per line read."""
    import auditor.audit as audit
    from auditor.crosshand_audit import Bounded
    from auditor.formats import REGISTRY, parse_chunk
    from auditor.profiles import for_hand
    from auditor.replay import replay
    from auditor.replay.betting import replay_class
    from auditor.replay.pots import build

    chunks = common.split_sources(common.load_sources(common.default_corpus(site)), site).chunks
    parsed = {id(c): parse_chunk(c) for c in chunks}
    hands = []
    for c in chunks:
        h = parsed[id(c)][0]
        if h is not None:
            hands.append((h, for_hand(h.site, None), REGISTRY.facts_for(h).for_hand(h)))
    traces = [(replay(h, p, f), p) for h, p, f in hands if not h.cancelled]
    built = [(t, build(t, p)) for t, p in traces]

    def set_up_all() -> None:
        for h, p, f in hands:
            replay_class(h)(h, p, f)

    def replay_all() -> None:
        for h, p, f in hands:
            replay(h, p, f)

    def pots_all() -> None:
        for t, p in traces:
            build(t, p)

    def rules_all() -> None:
        for t, pt in built:
            t.cache.clear()
            pt.cache.clear()
            audit.judge(t, pt)

    def cached(c: Any) -> Any:
        h, found = parsed[id(c)]
        return h, list(found)

    audit.parse_chunk = cached  # (the parse is another benchmark's: bench_parse.py)

    def after_parse() -> None:
        run = audit.AuditRun(crosshand=Bounded(in_process=10**9))
        for c in chunks:
            run.process(c)

    fns = {
        "replay set-up": set_up_all,
        "replay": replay_all,
        "pots": pots_all,
        "rules": rules_all,
        "after parse": after_parse,
    }
    fns = {name: fn for name, fn in fns.items() if name in stages}
    after_parse()  # warm-up
    print(json.dumps({"ready": str(Path(audit.__file__).parent), "hands": len(hands)}), flush=True)
    for _ in sys.stdin:
        out = {}
        for name, fn in fns.items():
            gc.collect()
            gc.disable()
            try:
                t0 = time.process_time()
                fn()
                out[name] = 1e6 * (time.process_time() - t0) / len(hands)
            finally:
                gc.enable()
        print(json.dumps(out), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", default="pokerstars", help="the corpus folder and site (default pokerstars)")
    ap.add_argument("--rounds", type=int, default=8, help="timed passes of each side, interleaved (default 8)")
    ap.add_argument("--previous", type=Path, help="another checkout, measured with PYTHONPATH=DIR")
    ap.add_argument("--python", help="another interpreter (its installed package)")
    ap.add_argument("--stages", default=",".join(STAGES), help="the stages to time, comma-separated (default all)")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    stages = tuple(x.strip() for x in args.stages.split(","))
    if not set(stages) <= set(STAGES):
        ap.error(f"--stages: choose among {', '.join(STAGES)}")
    if args.child:
        child(args.site, stages)
        return 0
    if (args.previous is None) == (args.python is None):
        ap.error("give one of --previous DIR or --python EXE")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if args.previous is not None:
        other = (sys.executable, {**env, "PYTHONPATH": str(args.previous.resolve())})
    else:
        other = (args.python, env)
    sides = {"other": other, "this": (sys.executable, env)}
    procs: dict[str, subprocess.Popen[str]] = {}
    where: dict[str, str] = {}
    for name, (python, side_env) in sides.items():
        cmd = [python, "-P", str(Path(__file__).resolve()), "--child", "--site", args.site, "--stages", args.stages]
        procs[name] = p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                           env=side_env, cwd="/")  # fmt: skip
        assert p.stdout is not None
        where[name] = json.loads(p.stdout.readline())["ready"]
    best: dict[str, dict[str, float]] = {name: {} for name in sides}
    for _ in range(args.rounds):
        for name, p in procs.items():
            assert p.stdin is not None and p.stdout is not None
            p.stdin.write("go\n")
            p.stdin.flush()
            for stage, us in json.loads(p.stdout.readline()).items():
                best[name][stage] = min(best[name].get(stage, float("inf")), us)
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    rows = [[stage, f"{best['other'][stage]:.1f}", f"{best['this'][stage]:.1f}",
             f"{100 * (best['this'][stage] / best['other'][stage] - 1):+.1f}%"]
            for stage in STAGES if stage in stages]  # fmt: skip
    print(f"{args.site}: best of {args.rounds} interleaved passes, us a hand (CPU)")
    print(f"other: {where['other']}\nthis:  {where['this']}")
    print(common.format_table(["stage", "other", "this", "change"], rows))
    if args.json:
        args.json.write_text(json.dumps({"site": args.site, "rounds": args.rounds, "packages": where, "us": best}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
