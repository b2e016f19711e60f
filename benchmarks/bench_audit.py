"""The full audit against pokerkit's parser alone, on the same PokerStars hands, in one run.

Issue 4's target: hhaudit's whole audit of a hand (parse, replay, pots, awards, every rule) stays
at least 5x faster than pokerkit's PokerStars parser *alone* on the same hands.

    .venv/bin/python benchmarks/bench_audit.py [--corpus DIR] [--repeat N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import common
from bench_parse import pokerkit_classify, pokerkit_parse

TARGET_RATIO = 5.0


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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    from pokerkit.notation import PokerStarsParser

    _sources, split = common.load_chunks(args.corpus)
    chunks = split.chunks
    texts = [c.text for c in chunks]
    parser = PokerStarsParser()
    accepted, _why = pokerkit_classify(parser, texts)
    full_audit(chunks)  # warm-up: grammars compiled, evaluator tables built
    rows = []
    for name, sel in (("all hands", [True] * len(chunks)), ("pokerkit-accepted", accepted)):
        cs = [c for c, k in zip(chunks, sel, strict=True) if k]
        ts = [t for t, k in zip(texts, sel, strict=True) if k]
        hh = common.best_of(lambda cs=cs: full_audit(cs), args.repeat, warmup=0)
        pk = common.best_of(lambda ts=ts: pokerkit_parse(parser, ts), args.repeat, warmup=0)
        rows.append({"name": name, "hands": len(cs), "hhaudit_full_audit": hh.as_dict(len(cs)),
                     "pokerkit_parse": pk.as_dict(len(cs)), "ratio": pk.best / hh.best})  # fmt: skip
    print(f"bench_audit: {args.corpus}; best of {args.repeat}; {common.environment()}")
    print(common.format_table(
        ["hands", "n", "hhaudit full audit h/s", "pokerkit parse only h/s", "ratio"],
        [[r["name"], r["hands"], r["hhaudit_full_audit"]["per_s"], r["pokerkit_parse"]["per_s"],
          f"{r['ratio']:.2f}x"] for r in rows],
    ))  # fmt: skip
    ratio = rows[-1]["ratio"]
    print(f"target full audit >= {TARGET_RATIO:.0f}x pokerkit's parser (pokerkit-accepted): {ratio:.2f}x -> "
          f"{'MET' if ratio >= TARGET_RATIO else 'NOT MET'}")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "environment": common.environment()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
