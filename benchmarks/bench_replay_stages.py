"""The replay and the pots of a hand, stage by stage, warm and cold, against other checkouts in one run.

Run from the repository root::

    .venv/bin/python benchmarks/bench_replay_stages.py                          # this checkout, PokerStars
    .venv/bin/python benchmarks/bench_replay_stages.py --previous /tmp/start --rounds 2 --site ggpoker
    .venv-compiled/bin/python -P benchmarks/bench_replay_stages.py --python /tmp/start/.venv-compiled/bin/python

Every parsed hand of the site's corpus folder is held in memory with its profile and export facts
(looked up untimed).  Then, per hand, in process CPU time (``time.process_time``), best of
``--repeat`` runs, the cyclic collector off during a run:

* **replay** - :func:`auditor.replay.replay` alone;
* **pots** - :func:`auditor.replay.pots.build` on traces made beforehand (layers, the uncalled
  part, rake, the awards and the showdown evaluation);
* **replay+pots** - both, as ``audit_hand`` builds them (issue 16's replay target);
* **pots cold**, **replay+pots cold** - the same with every evaluation remembered across hands
  forgotten before each run (``auditor.replay.cards.clear_caches`` where it exists, otherwise every
  ``lru_cache`` of ``auditor.replay``'s card and showdown modules): what a process pays before its
  caches fill.  The warm figures let the best of N runs re-use the evaluations of the run before;
  a real night's hands are new, so read the cold ones for the showdown.

Each side runs in a subprocess started with ``-P`` from ``/`` (no checkout shadows an installed
package): this interpreter's own package, ``--previous DIR`` (the checkout in ``DIR``, with
``PYTHONPATH=DIR``) and ``--python EXE`` (another interpreter's installed package, e.g. the compiled
build of another checkout), interleaved ``--rounds`` times: compare within one run only.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (run with -P: this folder is not on the path)
import common

STAGES = ("replay", "pots", "replay+pots", "pots cold", "replay+pots cold")


def _clear_caches() -> None:
    from auditor.replay import cards

    clear = getattr(cards, "clear_caches", None)
    if clear is not None:
        clear()
        return
    for name in ("auditor.replay.cards", "auditor.replay.showdown", "auditor.replay.pots"):
        for v in list(vars(sys.modules.get(name) or object()).values()):
            if hasattr(v, "cache_clear"):
                v.cache_clear()


def _best(fn: Callable[[], object], repeat: int, cold: bool) -> float:
    runs = []
    for _ in range(repeat):
        if cold:
            _clear_caches()
        gc.collect()
        gc.disable()
        try:
            t0 = time.process_time()
            fn()
            runs.append(time.process_time() - t0)
        finally:
            gc.enable()
    return min(runs)


def measure(site: str, repeat: int) -> dict[str, Any]:
    """This interpreter's figures (us a hand) for the site's hands."""
    import auditor
    from auditor.formats import REGISTRY, parse_chunk
    from auditor.profiles import for_hand
    from auditor.replay import replay
    from auditor.replay.pots import build

    folder = "pokerstars" if site == "pokerstars" else site
    chunks = common.split_sources(common.load_sources(common.default_corpus(folder)), site).chunks
    hands = []
    for c in chunks:
        h, _ = parse_chunk(c)
        if h is not None:
            hands.append((h, for_hand(h.site, None), REGISTRY.facts_for(h).for_hand(h)))

    def replay_all() -> None:
        for h, p, f in hands:
            replay(h, p, f)

    traces = [(replay(h, p, f), p, h.cancelled) for h, p, f in hands]

    def pots_all() -> None:
        for t, p, cancelled in traces:
            if not cancelled:
                build(t, p)

    def both() -> None:
        for h, p, f in hands:
            t = replay(h, p, f)
            if not h.cancelled:
                build(t, p)

    both()  # warm-up
    n = len(hands)
    out: dict[str, Any] = {"package": str(Path(auditor.__file__).parent), "hands": n}
    for name, fn, cold in (("replay", replay_all, False), ("pots", pots_all, False), ("replay+pots", both, False),
                           ("pots cold", pots_all, True), ("replay+pots cold", both, True)):  # fmt: skip
        out[name] = 1e6 * _best(fn, repeat, cold) / n
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", default="pokerstars", help="the corpus folder and site (default pokerstars)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per stage, the best kept (default 5)")
    common.add_side_options(ap)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.site, args.repeat)))
        return 0
    rows = []
    for r in range(args.rounds):
        for label, python, path in common.sides(args):
            got = common.child_json(
                python, path, __file__, ["--site", args.site, "--repeat", str(args.repeat), "--child"]
            )
            rows.append([f"{label} ({r + 1})", got["package"], got["hands"], *(f"{got[s]:.1f}" for s in STAGES)])
            print(common.format_table(["side", "package", "hands", *(f"{s} us/h" for s in STAGES)], rows[-1:]))
    print()
    print(common.format_table(["side", "package", "hands", *(f"{s} us/h" for s in STAGES)], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
