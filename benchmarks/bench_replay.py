"""Replay + rules cost against parse cost on the PokerStars hands of the shared corpus.

Run from the repository root::

    .venv/bin/python benchmarks/bench_replay.py [--corpus DIR] [--repeat N] [--json OUT] [--profile [TOP]]

Every measurement is taken in one process, on the same hands held in memory (the ``Chunk`` objects
:func:`auditor.ingest.read_stream` splits the corpus into; disk I/O is never timed):

* **parse** - :func:`auditor.formats.parse_chunk` on every chunk that becomes a ``Hand``;
* **replay + rules** - :func:`auditor.audit.audit_hand` with the hand's site profile
  (:func:`auditor.profiles.for_hand`) on every parsed hand: the betting replay and every per-hand
  rule (H, S and B families).  The replay alone (:func:`auditor.replay.replay`) is timed too, to
  show how the cost splits;
* **full audit** - parse + replay + rules per chunk, as :func:`auditor.pipeline.iter_parsed` does
  it (profile lookup and the cross-hand duplicate-id check included), from chunks in memory.

The ratio **replay+rules / parse** (time per hand, same hands) is checked against the target:
replaying and auditing adds no more than half to the parse time (ratio <= 0.5).  Each figure is
the best of ``--repeat`` runs, after one untimed warm-up pass; the garbage collector is off during
a run (``common.best_of``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common

TARGET_RATIO = 0.5  # replay + rules may cost at most half of the parse time per hand
TARGET_REPLAY_POTS_US = 80.0  # issue 16: the replay and the pots of a hand in ~80 us (pure Python)
CLOCK: Any = time.perf_counter  # time.process_time with --cpu


def parse_all(chunks: Sequence[Any]) -> int:
    from auditor.formats import parse_chunk

    ok = 0
    for c in chunks:
        if parse_chunk(c)[0] is not None:
            ok += 1
    return ok


def replay_all(hands: Sequence[tuple[Any, Any]]) -> int:
    from auditor.replay import replay

    steps = 0
    for h, prof in hands:
        steps += len(replay(h, prof).steps)
    return steps


def replay_pots_all(hands: Sequence[tuple[Any, Any]]) -> int:
    """The replay and the pots (layers, uncalled parts, awards and showdown evaluation) of every
    hand, as ``audit_hand`` builds them (a cancelled hand has no pots): issue 16's replay target."""
    from auditor.formats import REGISTRY
    from auditor.replay import replay
    from auditor.replay.pots import build

    n = 0
    for h, prof in hands:
        t = replay(h, prof, REGISTRY.facts_for(h).for_hand(h))
        if not h.cancelled:
            n += len(build(t, prof).pots)
    return n


def betting_all(hands: Sequence[tuple[Any, Any]]) -> int:
    """The replay and the betting, table-stakes and hand-structure rules (issue 3's scope)."""
    from auditor.findings import checks
    from auditor.replay import replay

    n = 0
    for h, prof in hands:
        t = replay(h, prof)
        for check in checks("hand"):  # (every rule of the hand stage: H, S and B)
            n += len(list(check(t)))
    return n


def check_all(hands: Sequence[tuple[Any, Any]]) -> int:
    from auditor.audit import audit_hand

    n = 0
    for h, prof in hands:
        n += len(audit_hand(h, prof).findings)
    return n


def audit_all(chunks: Sequence[Any]) -> int:
    """Parse + replay + rules per chunk, as ``pipeline.iter_parsed`` does (without reading files)."""
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
            fs = fs + list(dups.check(hand, trace)) + more
        n += len(fs)
    return n


def measure(name: str, chunks: list[Any], hands: list[tuple[Any, Any]], repeat: int) -> dict[str, Any]:
    """Time parse, replay, replay+rules and the full audit on one selection of hands."""
    parsed_chunks = [c for c, _ in hands]
    pairs = [(h, p) for _, (h, p) in hands]
    n = len(pairs)
    parse = common.best_of(lambda: parse_all(parsed_chunks), repeat, warmup=0, clock=CLOCK)
    rep = common.best_of(lambda: replay_all(pairs), repeat, warmup=0, clock=CLOCK)
    rpots = common.best_of(lambda: replay_pots_all(pairs), repeat, warmup=0, clock=CLOCK)
    bet = common.best_of(lambda: betting_all(pairs), repeat, warmup=0, clock=CLOCK)
    chk = common.best_of(lambda: check_all(pairs), repeat, warmup=0, clock=CLOCK)
    full = common.best_of(lambda: audit_all(chunks), repeat, warmup=0, clock=CLOCK)
    ratio = chk.best / parse.best if parse.best else float("inf")
    return {
        "name": name,
        "chunks": len(chunks),
        "hands": n,
        "parse": parse.as_dict(n),
        "replay": rep.as_dict(n),
        "replay_pots": rpots.as_dict(n),
        "replay_betting_rules": bet.as_dict(n),
        "ratio_replay_betting_over_parse": bet.best / parse.best if parse.best else float("inf"),
        "replay_rules": chk.as_dict(n),
        "full_audit": {**full.as_dict(len(chunks)), "chunks": len(chunks)},
        "ratio_replay_rules_over_parse": ratio,
        "ratio_replay_over_parse": rep.best / parse.best if parse.best else float("inf"),
    }


def profile_check(hands: Sequence[tuple[Any, Any]], top: int) -> str:
    """cProfile of audit_hand over ``hands``: the top functions by own and by cumulative time."""
    prof = cProfile.Profile()
    prof.enable()
    check_all(hands)
    prof.disable()
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.strip_dirs().sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--corpus",
        type=Path,
        default=common.default_corpus("pokerstars"),
        help="directory of PokerStars hand histories (default: <repo>/../shared/corpus/pokerstars)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per measurement; the best is kept (default 3)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON to OUT")
    ap.add_argument(
        "--profile",
        type=int,
        nargs="?",
        const=25,
        default=0,
        metavar="TOP",
        help="also print a cProfile of audit_hand (replay + rules) over all hands (top TOP functions, default 25)",
    )
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time, not the wall clock")
    ap.add_argument("--site", default="pokerstars", help="the site of the hands to measure (default pokerstars)")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter

    try:
        sources = common.load_sources(args.corpus)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    split = common.split_sources(sources, args.site)
    chunks = split.chunks
    if not chunks:
        print(f"no {args.site} hand found under {args.corpus}", file=sys.stderr)
        return 2

    from auditor.audit import audit_hand
    from auditor.formats import parse_chunk
    from auditor.profiles import for_hand

    # Warm-up: parse and audit every hand once, untimed (compiles the grammars, fills caches).
    t0 = time.perf_counter()
    hands: list[tuple[Any, tuple[Any, Any]]] = []  # (chunk, (hand, profile)) of the chunks that parse
    codes: Counter[str] = Counter()
    crashed: list[str] = []  # hands audit_hand raised on (a bug): reported, and left out of every timing
    crashed_ids: set[int] = set()
    for c in chunks:
        hand, _fs = parse_chunk(c)
        if hand is not None:
            prof = for_hand(hand.site, None)
            try:
                codes.update(f.code for f in audit_hand(hand, prof).findings)
            except Exception as e:
                crashed.append(f"{c.path}:{c.first_line} hand {hand.hand_id}: {type(e).__name__}: {e}")
                crashed_ids.add(id(c))
                continue
            hands.append((c, (hand, prof)))
    chunks = [c for c in chunks if id(c) not in crashed_ids]
    warm_s = time.perf_counter() - t0
    if not hands:
        print("no hand parsed", file=sys.stderr)
        return 2

    nlhe_chunks = [c for c in chunks if common.is_nlhe(c.lines[0])]
    nlhe_hands = [x for x in hands if common.is_nlhe(x[0].lines[0])]
    results = [measure("all hands", chunks, hands, args.repeat)]
    if nlhe_hands and len(nlhe_hands) != len(hands):
        results.append(measure("NLHE", nlhe_chunks, nlhe_hands, args.repeat))

    # ---- report
    env = common.environment()
    n_bytes = sum(len(s.data) for s in sources)
    steps = replay_all([x[1] for x in hands])
    print(f"bench_replay: {args.corpus}")
    print(
        f"  {len(sources)} files, {n_bytes / 1e6:.2f} MB, {len(chunks)} {args.site} hands, {len(hands)} parsed "
        f"({len(nlhe_hands)} NLHE), {steps} replay steps; findings of the rules: {sum(codes.values())}"
    )
    print(
        f"  python {env['python']}, hhaudit {env['hhaudit']}, parsimonious {env['parsimonious']}; "
        f"best of {args.repeat}, warm-up pass {warm_s:.1f}s"
    )
    if crashed:
        print(f"  WARNING: audit_hand raised on {len(crashed)} hands, left out of every measurement:")
        for line in crashed[:10]:
            print(f"    {line}")
    print()
    headers = ["hands", "n", "parse us/h", "replay us/h", "replay+pots us/h", "+B/S/H rules us/h", "ratio",
               "+pots/awards us/h", "ratio", "full audit h/s"]  # fmt: skip
    table = [
        [
            r["name"],
            r["hands"],
            r["parse"]["us_per_item"],
            r["replay"]["us_per_item"],
            r["replay_pots"]["us_per_item"],
            r["replay_betting_rules"]["us_per_item"],
            f"{r['ratio_replay_betting_over_parse']:.2f}",
            r["replay_rules"]["us_per_item"],
            f"{r['ratio_replay_rules_over_parse']:.2f}",
            r["full_audit"]["per_s"],
        ]
        for r in results
    ]
    print(common.format_table(headers, table))
    print()
    base = results[0]
    print(
        f"all hands: parse {base['parse']['per_s']:,.0f} h/s, replay+rules {base['replay_rules']['per_s']:,.0f} h/s "
        f"(replay alone {base['replay']['per_s']:,.0f} h/s, {100 * base['ratio_replay_over_parse']:.0f}% of parse); "
        f"full audit {base['full_audit']['per_s']:,.0f} h/s over {base['chunks']} chunks"
    )
    ratio = base["ratio_replay_betting_over_parse"]
    met = ratio <= TARGET_RATIO
    print(
        f"target (issue 3) replay + betting rules <= {TARGET_RATIO:.1f} x parse time per hand ({base['name']}): "
        f"{ratio:.2f} -> {'MET' if met else 'NOT MET'}; with pots and awards (issue 4): "
        f"{base['ratio_replay_rules_over_parse']:.2f}"
    )
    rp_us = base["replay_pots"]["us_per_item"]
    rp_met = rp_us <= TARGET_REPLAY_POTS_US
    print(
        f"target (issue 16) replay + pots <= {TARGET_REPLAY_POTS_US:.0f} us per hand ({base['name']}, "
        f"{'CPU' if args.cpu else 'wall'} time): {rp_us:.1f} -> {'MET' if rp_met else 'NOT MET'}"
    )

    if args.profile:
        print()
        print(f"cProfile of audit_hand over {len(hands)} hands:")
        print(profile_check([x[1] for x in hands], args.profile))

    if args.json:
        doc = {
            "benchmark": "bench_replay",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "environment": env,
            "corpus": str(args.corpus),
            "site": args.site,
            "files": len(sources),
            "bytes": n_bytes,
            "chunks": len(chunks),
            "hands_parsed": len(hands),
            "nlhe_hands": len(nlhe_hands),
            "replay_steps": steps,
            "findings_by_code": dict(sorted(codes.items())),
            "audit_hand_raised": crashed,
            "repeat": args.repeat,
            "gc_disabled_during_runs": True,
            "rows": results,
            "clock": "CPU time" if args.cpu else "wall clock",
            "target": {"replay_rules_over_parse": TARGET_RATIO, "row": base["name"], "ratio": ratio, "met": met},
            "target_replay_pots": {"us_per_hand": TARGET_REPLAY_POTS_US, "measured": rp_us, "met": rp_met},
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
