"""Parse throughput on the PokerStars hands of the shared corpus: hhaudit vs pokerkit vs a plain regex.

Run from the repository root::

    .venv/bin/python benchmarks/bench_parse.py [--corpus DIR] [--repeat N] [--json OUT] [--nlhe-only]

All three parsers are timed in one process, on the same hands (the ``Chunk`` objects that
:func:`auditor.ingest.read_stream` splits the corpus into, or their text):

* **hhaudit** - :func:`auditor.formats.parse_chunk` on every chunk (grammar parse + tree walk +
  ``Hand`` construction).  Decoding and splitting are timed separately, and once more together
  with the parse ("read+split+parse", from bytes already in memory: disk I/O is never timed).
* **pokerkit** - ``pokerkit.notation.PokerStarsParser()`` on the text of each hand,
  ``list(parser(text, error_status=True))``.  It only understands No-Limit Hold'em; every hand is
  timed anyway, rejections (exceptions) included.  pokerkit prints a traceback for every hand it
  rejects; that output goes to a null sink but its cost is part of the measurement.  Note that
  pokerkit's parser replays each hand through its game engine to build a ``HandHistory``.
* **regex** - one compiled pattern, ``re.finditer`` over the hand text, keeping the groups of
  seat, post/action and collected lines: the floor of what any parse can cost.

Each measurement is the best of ``--repeat`` runs (``time.perf_counter``, garbage collector off
during a run, as :mod:`timeit` does), after one untimed warm-up pass over every hand that also
records which hands each parser accepts.  Rows: all hands, No-Limit Hold'em hands, and the hands
pokerkit accepted (the fair like-for-like comparison).

``--sites pokerstars,ggpoker,winamax [--previous DIR] [--rounds N]`` measures instead, per corpus
folder, hhaudit's parse alone (``parse_chunk``), the body lines' part of it (``read_lines``, timed
per hand: :func:`body_lines_us`) and the full audit (``parse_chunk`` then ``audit_hand``) in
microseconds a hand of CPU time, this checkout and, with ``--previous``, another
checkout (``PYTHONPATH=DIR``; "this" is the hhaudit the interpreter imports, an installed
compiled wheel too), each in its own process, the two alternating ``--rounds`` times
(the best run of each kept): a same-run comparison on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import pstats
import re
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import common

TARGET_RATIO = 10.0  # hhaudit should parse at least this many times faster than pokerkit

# ---------------------------------------------------------------------------------- the regex floor

# Seat lines, blind/ante posts and actions, and "collected" lines; one pass per hand text.
SCAN = re.compile(
    r"^(?:"
    r"Seat (?P<seat>\d+): (?P<seat_player>.+?) \((?P<stack>[^ )\n]+) in chips"
    r"|(?P<player>.+?): (?P<verb>posts (?:small|big) blind|posts the ante|folds|checks|calls|bets|raises)"
    r"(?: (?P<amount>[^ \n]+))?(?: to (?P<to>[^ \n]+))?"
    r"|(?P<winner>.+?) collected (?P<won>[^ \n]+) from"
    r")",
    re.M,
)


def regex_scan(texts: Sequence[str]) -> int:
    """Scan every text; returns the number of matched lines (their groups are materialised)."""
    finditer = SCAN.finditer
    n = 0
    for t in texts:
        rows = [m.groups() for m in finditer(t)]
        n += len(rows)
    return n


# ---------------------------------------------------------------------------------- hhaudit


def hhaudit_parse(chunks: Sequence[Any]) -> int:
    """Parse every chunk with hhaudit; returns how many became a Hand."""
    from auditor.formats import parse_chunk

    ok = 0
    for c in chunks:
        hand, _findings = parse_chunk(c)
        if hand is not None:
            ok += 1
    return ok


def hhaudit_end_to_end(sources: Sequence[common.Source], site: str, keep: Callable[[Any], bool]) -> int:
    """Decode + split every source with read_stream, then parse the kept chunks of ``site``."""
    from auditor.findings import Finding
    from auditor.formats import parse_chunk
    from auditor.ingest import read_stream

    n = 0
    for src in sources:
        _info, items = read_stream(io.BytesIO(src.data), src.path, len(src.data))
        for item in items:
            if isinstance(item, Finding) or item.site != site or not keep(item):
                continue
            parse_chunk(item)
            n += 1
    return n


# ---------------------------------------------------------------------------------- pokerkit


class _Sink:
    """A write-only text stream that drops everything (cheaper than StringIO for pokerkit's tracebacks)."""

    def write(self, s: str) -> int:
        return len(s)

    def flush(self) -> None:
        pass


@contextlib.contextmanager
def _quiet(stream: Any = None) -> Any:
    with contextlib.redirect_stderr(stream or _Sink()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def pokerkit_parse(parser: Any, texts: Sequence[str]) -> int:
    """Run pokerkit's parser on every text (exceptions caught); returns how many hands it accepted."""
    ok = 0
    with _quiet():
        for t in texts:
            try:
                if list(parser(t, error_status=True)):
                    ok += 1
            except Exception:  # a rejection is a result here, not an error
                pass
    return ok


def pokerkit_classify(parser: Any, texts: Sequence[str]) -> tuple[list[bool], Counter[str]]:
    """Which texts pokerkit accepts, and why it rejects the others (the last line of its traceback)."""
    accepted: list[bool] = []
    reasons: Counter[str] = Counter()
    for t in texts:
        buf = io.StringIO()
        with _quiet(buf):
            try:
                hands = list(parser(t, error_status=True))
            except Exception as e:
                hands = []
                tb = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
                cause = tb[-1] if tb else f"{type(e).__name__}: {str(e)[:80]}"
                reasons[_shorten(cause)] += 1
            else:
                if not hands:
                    reasons["no hand recognised (HAND pattern did not match)"] += 1
        accepted.append(bool(hands))
    return accepted, reasons


def _shorten(cause: str) -> str:
    cause = re.sub(r"'[^']{40,}'", "'...'", cause)
    return cause if len(cause) <= 110 else cause[:107] + "..."


# ---------------------------------------------------------------------------------- driver


@dataclass
class Row:
    name: str
    idx: list[int]


def measure_row(row: Row, chunks: list[Any], texts: list[str], parser: Any, parsed: list[bool],
                accepted: list[bool], repeat: int) -> dict[str, Any]:  # fmt: skip
    cs = [chunks[i] for i in row.idx]
    ts = [texts[i] for i in row.idx]
    n = len(cs)
    hh = common.best_of(lambda: hhaudit_parse(cs), repeat, warmup=0)
    pk = common.best_of(lambda: pokerkit_parse(parser, ts), repeat, warmup=0)
    rx = common.best_of(lambda: regex_scan(ts), repeat, warmup=0)
    hh_rate, pk_rate, rx_rate = hh.rate(n), pk.rate(n), rx.rate(n)
    n_acc = sum(accepted[i] for i in row.idx)
    n_parsed = sum(parsed[i] for i in row.idx)
    return {
        "name": row.name,
        "hands": n,
        "hhaudit": {**hh.as_dict(n), "parsed": n_parsed, "failed": n - n_parsed},
        "pokerkit": {**pk.as_dict(n), "accepted": n_acc, "rejected": n - n_acc},
        "regex": {**rx.as_dict(n), "matched_lines": regex_scan(ts)},
        "ratios": {
            "hhaudit_over_pokerkit": hh_rate / pk_rate if pk_rate else None,
            "regex_over_hhaudit": rx_rate / hh_rate if hh_rate else None,
        },
    }


def profile_hhaudit(chunks: Sequence[Any], top: int) -> str:
    """cProfile of hhaudit_parse over ``chunks``: the top functions by own time and by cumulative time."""
    prof = cProfile.Profile()
    prof.enable()
    hhaudit_parse(chunks)
    prof.disable()
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.strip_dirs().sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------------------------- PHH (--phh)


def phh_bench(corpora: Sequence[Path], repeat: int, json_out: Path | None) -> int:
    """PHH read speed: hhaudit's PHH reader next to pokerkit's own loader, on the same files.

    The parsed corpus hands of ``corpora`` are written as PHH (``hhaudit convert``'s writer), one
    ``.phh`` file per hand, into a temporary directory, and read back into memory (disk I/O is
    never timed).  Timed, best of ``repeat``:

    * **load**: hhaudit ``parse_text`` (TOML, actions to canonical events: a ``Hand``) against
      ``pokerkit.HandHistory.loads`` (TOML to a ``HandHistory``; pokerkit replays lazily);
    * **load+replay**: hhaudit ``parse_text`` + ``audit_hand`` (replay, pots, every rule) against
      ``HandHistory.loads`` + iterating its states (pokerkit's replay, repairs included).

    Hands pokerkit cannot replay (it raises) are timed too, up to the exception.
    """
    import tempfile

    import pokerkit

    from auditor import model as M
    from auditor.audit import audit_hand
    from auditor.convert import phh
    from auditor.convert.common import ConversionError
    from auditor.formats import parse_text
    from auditor.pipeline import Summary, iter_parsed

    texts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench_phh_") as tmp:
        for corpus in corpora:
            for hand, _ in iter_parsed([str(corpus)], Summary(), rules=None):
                if hand is None:
                    continue
                try:
                    text = phh.dumps(hand)
                except ConversionError:
                    continue
                f = Path(tmp) / f"{len(texts):06d}.phh"
                f.write_text(text, "utf-8")
                texts.append(str(f))
        texts = [Path(f).read_text("utf-8") for f in texts]
    n = len(texts)
    if not n:
        print("no convertible hand in " + ", ".join(map(str, corpora)), file=sys.stderr)
        return 1

    def ours() -> None:
        for t in texts:
            list(parse_text(t, "h.phh"))

    def ours_audit() -> None:
        for t in texts:
            for h in parse_text(t, "h.phh"):
                if isinstance(h, M.Hand):
                    audit_hand(h)

    def theirs() -> None:
        for t in texts:
            pokerkit.HandHistory.loads(t)

    def theirs_replay() -> None:
        for t in texts:
            with contextlib.suppress(Exception):
                for _ in pokerkit.HandHistory.loads(t):
                    pass

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = []
        for name, a, b in (("load", ours, theirs), ("load+replay", ours_audit, theirs_replay)):
            ta, tb = common.best_of(a, repeat), common.best_of(b, repeat)
            rows.append({"row": name, "hhaudit": ta.as_dict(n), "pokerkit": tb.as_dict(n), "ratio": tb.best / ta.best})
    print(f"bench_parse --phh: {n} corpus hands written as PHH ({', '.join(map(str, corpora))})")
    print(common.format_table(
        ["row", "hhaudit hands/s", "pokerkit hands/s", "hhaudit / pokerkit"],
        [[r["row"], r["hhaudit"]["per_s"], r["pokerkit"]["per_s"], r["ratio"]] for r in rows],
    ))  # fmt: skip
    if json_out:
        doc = {"benchmark": "bench_parse --phh", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
               "environment": common.environment(), "corpora": [str(c) for c in corpora], "hands": n,
               "repeat": repeat, "rows": rows}  # fmt: skip
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
        print(f"wrote {json_out}")
    return 0


def body_lines_us(parse: Callable[[], None], repeat: int, hands: int) -> float:
    """CPU time a hand in the body lines' reading (``PegVisitor.read_lines``: every line after the
    seats, the assembler's work on them included), the best of ``repeat`` parse runs: the method is
    wrapped with a timer for the measurement (two ``time.process_time`` calls a hand, in both
    checkouts alike), then restored."""
    import gc

    from auditor.formats.peg import PegVisitor

    own = PegVisitor.read_lines
    spent = [0.0]
    clock = time.process_time

    def timed(self: Any, lines: Sequence[str], first: int) -> None:
        t0 = clock()
        try:
            own(self, lines, first)
        finally:
            spent[0] += clock() - t0

    runs: list[float] = []
    PegVisitor.read_lines = timed  # type: ignore[method-assign]
    try:
        for _ in range(max(1, repeat)):
            spent[0] = 0.0
            gc.collect()
            gc.disable()
            try:
                parse()
            finally:
                gc.enable()
            runs.append(spent[0])
    finally:
        PegVisitor.read_lines = own  # type: ignore[method-assign]
    return 1e6 * min(runs) / hands


def sites_worker(sites: str, repeat: int) -> int:
    """``--sites`` in one process: per folder, parse and full audit, µs a hand (CPU time), as JSON."""
    import auditor
    from auditor.audit import audit_hand
    from auditor.formats import parse_chunk
    from auditor.profiles import for_hand

    out: dict[str, Any] = {"auditor": str(Path(auditor.__file__).parent)}  # (which hhaudit was timed)
    for site in sites.split(","):
        chunks = common.load_chunks(common.default_corpus(site), site)[1].chunks

        def parse(chunks: Sequence[Any] = chunks) -> None:
            for c in chunks:
                parse_chunk(c)

        def audit(chunks: Sequence[Any] = chunks) -> None:
            for c in chunks:
                hand, _found = parse_chunk(c)
                if hand is not None:
                    audit_hand(hand, for_hand(hand.site, None))

        tp = common.best_of(parse, repeat, warmup=1, clock=time.process_time)
        ta = common.best_of(audit, repeat, warmup=1, clock=time.process_time)
        body = body_lines_us(parse, repeat, len(chunks))
        out[site] = {"hands": len(chunks), "parse_us": 1e6 * tp.best / len(chunks),
                     "audit_us": 1e6 * ta.best / len(chunks), "body_us": body}  # fmt: skip
    print(json.dumps(out))
    return 0


def sites_bench(sites: str, repeat: int, rounds: int, previous: str | None, json_out: Path | None) -> int:
    """``--sites``: this checkout and ``previous`` in alternating processes (see the module docstring)."""
    import os
    import subprocess

    here = Path(__file__).resolve()
    # "this": the hhaudit this interpreter imports (an installed compiled wheel too), as bench_audit.py
    which: dict[str, str | None] = {"this": None} | ({"previous": str(Path(previous).resolve())} if previous else {})
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in which}
    for _ in range(max(1, rounds)):
        for name, root in which.items():
            env = dict(os.environ)
            if root is not None:
                env["PYTHONPATH"] = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
            cmd = [sys.executable, str(here), "--sites-worker", sites, "--repeat", str(repeat)]
            done = subprocess.run(cmd, env=env, cwd=root or here.parent, capture_output=True, text=True)
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                return 2
            runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    best = {k: {site: {m: min(r[site][m] for r in rs) for m in ("parse_us", "audit_us", "body_us")}
                for site in sites.split(",")} for k, rs in runs.items()}  # fmt: skip
    print(f"bench_parse --sites: CPU time, best of {repeat} runs in each of {rounds} alternating process rounds; "
          f"{common.environment()}")  # fmt: skip
    head = ["site", "hands", "body lines us/hand", "parse us/hand", "full audit us/hand", "full audit h/s"]
    if previous:
        head += ["previous body us", "previous parse us", "previous audit us (h/s)", "body x previous",
                 "parse x previous", "audit x previous"]  # fmt: skip
    table = []
    for site, b in best["this"].items():
        row: list[Any] = [site, runs["this"][0][site]["hands"], f"{b['body_us']:.1f}", f"{b['parse_us']:.1f}",
                          f"{b['audit_us']:.1f}", f"{1e6 / b['audit_us']:,.0f}"]  # fmt: skip
        if previous:
            p = best["previous"][site]
            row += [f"{p['body_us']:.1f}", f"{p['parse_us']:.1f}", f"{p['audit_us']:.1f} ({1e6 / p['audit_us']:,.0f})",
                    f"{p['body_us'] / b['body_us']:.2f}x", f"{p['parse_us'] / b['parse_us']:.2f}x",
                    f"{p['audit_us'] / b['audit_us']:.2f}x"]  # fmt: skip
        table.append(row)
    print(common.format_table(head, table))
    print("timed: " + "; ".join(f"{k} {rs[0]['auditor']}" for k, rs in runs.items()))
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        doc = {"benchmark": "bench_parse --sites", "environment": common.environment(), "repeat": repeat,
               "rounds": rounds, "previous": previous, "best": best, "runs": runs}  # fmt: skip
        json_out.write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
    return 0


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
        "--nlhe-only", action="store_true", help="measure only No-Limit Hold'em hands (default: all hands, then NLHE)"
    )
    ap.add_argument(
        "--profile",
        type=int,
        nargs="?",
        const=25,
        default=0,
        metavar="TOP",
        help="also print a cProfile of hhaudit's parse_chunk (top TOP functions, default 25)",
    )
    ap.add_argument("--site", default="pokerstars", help=argparse.SUPPRESS)
    ap.add_argument(
        "--phh",
        action="store_true",
        help="instead: PHH read speed, hhaudit's reader next to pokerkit's HandHistory loader, on the corpus "
        "hands of PokerStars, GGPoker and Winamax written as PHH (--corpus: one folder instead)",
    )
    ap.add_argument(
        "--sites",
        metavar="FOLDERS",
        help="instead: parse and full audit, us a hand (CPU), per corpus folder (comma-separated)",
    )
    ap.add_argument("--previous", metavar="DIR", help="with --sites: another checkout, in alternating processes")
    ap.add_argument("--rounds", type=int, default=3, help="with --sites: alternating process rounds (default 3)")
    ap.add_argument("--sites-worker", metavar="FOLDERS", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.sites_worker:
        return sites_worker(args.sites_worker, args.repeat)
    if args.sites:
        return sites_bench(args.sites, args.repeat, args.rounds, args.previous, args.json)
    if args.phh:
        given = [a for a in (argv if argv is not None else sys.argv[1:]) if a.startswith("--corpus")]
        corpora = [args.corpus] if given else [common.default_corpus(s) for s in ("pokerstars", "ggpoker", "winamax")]
        return phh_bench(corpora, args.repeat, args.json)

    try:
        import pokerkit
        from pokerkit.notation import PokerStarsParser
    except ImportError:
        print("pokerkit is not installed (pip install 'hhaudit[test]')", file=sys.stderr)
        return 2
    try:
        sources = common.load_sources(args.corpus)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2

    # Decode + split (timed on its own), then the chunks every measurement uses.
    split = common.split_sources(sources, args.site)
    split_t = common.best_of(lambda: common.split_sources(sources, args.site), args.repeat, warmup=0)
    chunks = split.chunks
    if not chunks:
        print(f"no {args.site} hand found under {args.corpus}", file=sys.stderr)
        return 2
    texts = [c.text for c in chunks]
    nlhe = [common.is_nlhe(c.lines[0]) for c in chunks]

    # Warm-up: one untimed pass of every parser over every hand, recording what each accepts.
    from auditor.formats import parse_chunk

    t0 = time.perf_counter()
    parsed = [parse_chunk(c)[0] is not None for c in chunks]
    parser = PokerStarsParser()
    accepted, reasons = pokerkit_classify(parser, texts)
    regex_scan(texts)
    warm_s = time.perf_counter() - t0

    everything = list(range(len(chunks)))
    base = [i for i in everything if nlhe[i]] if args.nlhe_only else everything
    rows = [] if args.nlhe_only else [Row("all hands", everything)]
    rows.append(Row("NLHE", [i for i in everything if nlhe[i]]))
    acc_idx = [i for i in base if accepted[i]]
    acc_name = "pokerkit-accepted" + (" NLHE" if args.nlhe_only else "")
    if acc_idx and all(acc_idx != r.idx for r in rows):
        rows.append(Row(acc_name, acc_idx))
    # The like-for-like row: the hands of the base selection that pokerkit accepted.
    like_name = next((r.name for r in rows if r.idx == acc_idx), rows[0].name)
    if not args.nlhe_only:
        nlhe_acc = [i for i in acc_idx if nlhe[i]]
        if nlhe_acc and all(nlhe_acc != r.idx for r in rows):
            rows.append(Row("pokerkit-accepted NLHE", nlhe_acc))

    results = [measure_row(r, chunks, texts, parser, parsed, accepted, args.repeat) for r in rows]

    # hhaudit end to end on the base selection: decode + split every file, parse the selected hands.
    keep: Callable[[Any], bool] = (lambda c: common.is_nlhe(c.lines[0])) if args.nlhe_only else (lambda c: True)
    e2e = common.best_of(lambda: hhaudit_end_to_end(sources, args.site, keep), args.repeat, warmup=0)
    n_base = len(base)
    parse_base = results[0]["hhaudit"]  # rows[0] is the base selection

    # ---- report
    env = common.environment()
    n_bytes = sum(len(s.data) for s in sources)
    print(f"bench_parse: {args.corpus}")
    print(
        f"  {len(sources)} files, {n_bytes / 1e6:.2f} MB, {len(chunks)} {args.site} hands "
        f"({sum(nlhe)} NLHE), encodings {dict(split.encodings)}"
        + (f", other sites skipped {dict(split.other_sites)}" if split.other_sites else "")
    )
    print(
        f"  python {env['python']}, hhaudit {env['hhaudit']}, parsimonious {env['parsimonious']}, "
        f"pokerkit {pokerkit.__version__ if hasattr(pokerkit, '__version__') else env['pokerkit']}; "
        f"best of {args.repeat}, warm-up pass {warm_s:.1f}s"
    )
    print()
    headers = ["hands", "n", "hhaudit h/s", "pokerkit h/s", "regex h/s", "hh/pk", "regex/hh",
               "hh parsed", "pk accepted"]  # fmt: skip
    table = []
    for r in results:
        table.append([
            r["name"], r["hands"], r["hhaudit"]["per_s"], r["pokerkit"]["per_s"], r["regex"]["per_s"],
            f"{r['ratios']['hhaudit_over_pokerkit']:.2f}x", f"{r['ratios']['regex_over_hhaudit']:.1f}x",
            f"{r['hhaudit']['parsed']}/{r['hands']}", f"{r['pokerkit']['accepted']}/{r['hands']}",
        ])  # fmt: skip
    print(common.format_table(headers, table))
    print()
    sel = "NLHE hands" if args.nlhe_only else "all hands"
    split_rate = len(chunks) / split_t.best
    print(
        f"hhaudit ({sel}, {n_base} hands): parse only {parse_base['per_s']:,.0f} h/s "
        f"({parse_base['us_per_item']:,.0f} us/hand); decode+split {split_rate:,.0f} h/s "
        f"({1e6 * split_t.best / len(chunks):,.0f} us/hand, all {len(chunks)} hands); "
        f"read+split+parse {e2e.rate(n_base):,.0f} h/s ({1e6 * e2e.best / n_base:,.0f} us/hand)"
    )
    if reasons:
        print("pokerkit rejections (last line of its traceback):")
        for why, k in reasons.most_common(8):
            print(f"  {k:5d}  {why}")
    like = next(r for r in results if r["name"] == like_name)
    ratio = like["ratios"]["hhaudit_over_pokerkit"]
    met = ratio is not None and ratio >= TARGET_RATIO
    print()
    print(
        f"target hhaudit >= {TARGET_RATIO:.0f}x pokerkit on the hands pokerkit accepts ({like['name']}): "
        f"{ratio:.2f}x -> {'MET' if met else 'NOT MET'}"
    )

    if args.profile:
        print()
        print(f"cProfile of hhaudit parse_chunk over {n_base} hands:")
        print(profile_hhaudit([chunks[i] for i in base], args.profile))

    if args.json:
        doc = {
            "benchmark": "bench_parse",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "environment": env,
            "corpus": str(args.corpus),
            "site": args.site,
            "files": len(sources),
            "bytes": n_bytes,
            "hands": len(chunks),
            "nlhe_hands": sum(nlhe),
            "nlhe_only": args.nlhe_only,
            "repeat": args.repeat,
            "gc_disabled_during_runs": True,
            "reading_findings": dict(split.findings),
            "encodings": dict(split.encodings),
            "decode_split": {**split_t.as_dict(len(chunks)), "hands": len(chunks)},
            "hhaudit_end_to_end": {**e2e.as_dict(n_base), "hands": n_base, "selection": sel},
            "rows": results,
            "pokerkit_rejections": dict(reasons.most_common()),
            "target": {"hhaudit_over_pokerkit": TARGET_RATIO, "row": like["name"], "ratio": ratio, "met": met},
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
