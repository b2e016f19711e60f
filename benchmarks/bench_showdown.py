"""The showdown evaluation on distinct hands, against another checkout in the same run.

Run from the repository root::

    .venv/bin/python benchmarks/bench_showdown.py --previous /tmp/start --rounds 2
    .venv/bin/python benchmarks/bench_showdown.py --sites pokerstars --repeat 5

The benchmarks that repeat the same hands (``bench_audit.py``, ``bench_replay_ab.py`` ...) evaluate
each showdown again and again: whatever an evaluator remembers by the cards (the start's
``lru_cache`` of ``cards._high_rank``) answers every pass after the first, which a night of new
hands never sees.  Here every timed pass is over hands **made distinct**: the corpus's files with
the suits inside every ``[...]`` swapped by one of the 23 permutations of ``cdhs`` other than the
identity, a different permutation per pass (the same hands, the same values, other card strings;
cards printed outside brackets, e.g. iPoker's XML, stay as they are: the output says how many
evaluations the permutation changed).  What an evaluator keeps by ranks only (pokerkit's lookup
entries: a bounded cache a night fills) stays warm, as in a real run.

In one child process per side (``-P``, run from ``/``): every hand of the chosen corpus folders
(default: all) parsed; one untimed audit per permutation records each call the audit makes into the
evaluation (``pots.high_key``, ``pots.low_key``, ``awards.category``, ``showdown.evaluate``: the same
functions in every checkout since session 9); then, CPU time (``time.process_time``), the cyclic
collector off, best of ``--repeat`` passes, each over another permutation:

* **eval distinct** - the recorded calls replayed: µs per showdown (a hand with at least one
  evaluation) and per hand (all hands);
* **eval repeated** - the same calls again (the permutation just timed: what a repeating benchmark
  sees);
* **audit distinct** - ``parse_chunk`` + ``audit_hand`` of every hand of another permutation: µs a
  hand, and the evaluation's share of it.

Sides, alternating ``--rounds`` times: this interpreter's package, ``--previous DIR`` (with
``PYTHONPATH=DIR``), ``--python EXE`` (another interpreter's installed package).  The calls are
recorded by replacing module attributes: time pure-Python builds (a compiled module binds its
calls).  Compare within one run only.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import re
import sys
import time
from collections.abc import Callable
from itertools import permutations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (run with -P: this folder is not on the path)
import common

#: the permutations of the suits, the identity first
PERMS = [bytes(p) for p in permutations(b"cdhs")]
_BRACKET = re.compile(rb"\[[^\]\r\n]*\]")
_CARD = re.compile(rb"(?<![^\s\[])(10|[2-9TJQKA])([cdhs])(?![^\s\]])")
COLUMNS = ("eval distinct us/showdown", "eval distinct us/hand", "eval repeated us/hand",
           "audit distinct us/hand", "eval share")  # fmt: skip


def permute(data: bytes, k: int) -> bytes:
    """``data`` with the suit of every card inside brackets replaced by permutation ``k``."""
    table = dict(zip(b"cdhs", PERMS[k], strict=True))

    def card(m: re.Match[bytes]) -> bytes:
        return m.group(1) + bytes([table[m.group(2)[0]]])

    return _BRACKET.sub(lambda m: _CARD.sub(card, m.group(0)), data)


def chunks_of(sources: list[common.Source], k: int) -> list[Any]:
    """Every hand's chunk of ``sources`` with permutation ``k`` applied (nothing timed)."""
    from auditor.ingest import read_stream

    out = []
    for src in sources:
        data = permute(src.data, k)
        _info, items = read_stream(io.BytesIO(data), src.path, len(data))
        out += [c for c in items if hasattr(c, "overflow")]  # (a Finding is not a hand)
    return out


def _timed(fn: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        t0 = time.process_time()
        fn()
        return time.process_time() - t0
    finally:
        gc.enable()


def measure(folders: list[str], repeat: int) -> dict[str, Any]:
    """This interpreter's figures for the hands of ``folders``."""
    import auditor
    import auditor.replay.pots as pots
    import auditor.rules.awards as awards
    from auditor.audit import audit_hand
    from auditor.formats import parse_chunk
    from auditor.profiles import for_hand
    from auditor.replay import cards, showdown

    sources = [s for f in folders for s in common.load_sources(common.default_corpus(f))]
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    recording = [False]
    hand_calls = [0]

    def recorder(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if recording[0]:
                calls.append((fn, args))
                hand_calls[0] += 1
            return fn(*args)

        return call

    pots.high_key = recorder(cards.high_key)  # type: ignore[assignment]
    pots.low_key = recorder(cards.low_key)  # type: ignore[assignment]
    awards.category = recorder(cards.category)  # type: ignore[assignment]
    showdown.evaluate = recorder(showdown.evaluate)  # type: ignore[assignment]

    def audit_all(chunks: list[Any]) -> None:
        for c in chunks:
            hand, _found = parse_chunk(c)
            if hand is not None:
                audit_hand(hand, for_hand(hand.site, None))

    # the calls of one untimed audit of the hands as printed (every hand audited once, before any
    # timed pass: nothing below has seen the permuted cards)
    recording[0] = True
    hands = showdowns = 0
    for c in chunks_of(sources, 0):
        hand, _found = parse_chunk(c)
        if hand is None:
            continue
        hand_calls[0] = 0
        audit_hand(hand, for_hand(hand.site, None))
        hands += 1
        showdowns += hand_calls[0] > 0
    recording[0] = False

    def permuted(k: int) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
        """The recorded calls with every card's suit swapped by permutation ``k``."""
        tbl = str.maketrans("cdhs", PERMS[k].decode())

        def arg(a: Any) -> Any:
            return type(a)(x.translate(tbl) for x in a) if isinstance(a, (tuple, list)) else a

        return [(fn, tuple(arg(a) for a in args)) for fn, args in calls]

    def replay(got: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> None:
        for fn, args in got:
            fn(*args)

    replay(permuted(len(PERMS) - 1))  # (warm-up: pokerkit's tables loaded, every rank pattern's entry known)
    repeat = max(1, min(repeat, (len(PERMS) - 2) // 2))
    distinct, repeated, audited = [], [], []
    for i in range(repeat):
        got = permuted(1 + i)
        distinct.append(_timed(lambda got=got: replay(got)))  # type: ignore[misc]
        repeated.append(_timed(lambda got=got: replay(got)))  # type: ignore[misc]
    for i in range(repeat):
        chunks = chunks_of(sources, 1 + repeat + i)
        audited.append(_timed(lambda chunks=chunks: audit_all(chunks)))  # type: ignore[misc]
    ev, au = min(distinct), min(audited)
    return {
        "package": str(Path(auditor.__file__).parent),
        "hands": hands,
        "showdowns": showdowns,
        "calls": len(calls),
        COLUMNS[0]: 1e6 * ev / max(1, showdowns),
        COLUMNS[1]: 1e6 * ev / hands,
        COLUMNS[2]: 1e6 * min(repeated) / hands,
        COLUMNS[3]: 1e6 * au / hands,
        COLUMNS[4]: ev / au,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sites", default="", help="corpus folders, comma-separated (default: the whole corpus)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes, each over other hands, the best kept (3)")
    common.add_side_options(ap)
    args = ap.parse_args(argv)
    if args.child:
        root = common.default_corpus("")
        folders = args.sites.split(",") if args.sites else sorted(p.name for p in root.iterdir() if p.is_dir())
        print(json.dumps(measure(folders, args.repeat)))
        return 0
    head = ["side", "package", "hands", "showdowns", "calls", *COLUMNS]
    rows = []
    for r in range(args.rounds):
        for label, python, path in common.sides(args):
            got = common.child_json(
                python, path, __file__, ["--sites", args.sites, "--repeat", str(args.repeat), "--child"]
            )
            cells = [f"{got[c]:.3f}" if c == "eval share" else f"{got[c]:.1f}" for c in COLUMNS]
            rows.append([f"{label} ({r + 1})", got["package"], got["hands"], got["showdowns"], got["calls"],
                         *cells])  # fmt: skip
            print(common.format_table(head, rows[-1:]), flush=True)
    print()
    print(common.format_table(head, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
