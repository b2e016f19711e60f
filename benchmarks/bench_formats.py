"""Parse speed of every format hhaudit reads, against the PokerStars rate, in one run (issue 12).

For each supported format, the hands of the shared corpus that the format's reader reads (all
folders, split by the registry's own detection) are parsed with :func:`auditor.formats.parse_chunk`;
the table gives hands/s and the ratio to the PokerStars rate of the same run.  Splitting the
files into hands (decoding, detection) is not timed.

    .venv/bin/python benchmarks/bench_formats.py [--corpus DIR] [--repeat N] [--json OUT]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common


def chunks_by_format(corpus: Path) -> dict[str, list[Any]]:
    from auditor.formats import Chunk
    from auditor.ingest import expand_paths, read_stream

    out: dict[str, list[Any]] = defaultdict(list)
    for path in expand_paths([str(corpus)]):
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        for item in read_stream(io.BytesIO(data), path, len(data))[1]:
            if isinstance(item, Chunk):
                out[item.site].append(item)
    return out


def parse_all(chunks: Sequence[Any]) -> int:
    from auditor.formats import parse_chunk

    return sum(1 for c in chunks if parse_chunk(c)[0] is not None)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(common.default_corpus().parent))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    by_format = chunks_by_format(Path(args.corpus))
    for cs in by_format.values():
        parse_all(cs[:20])  # warm-up: grammars compiled
    rates: dict[str, float] = {}
    for name, cs in sorted(by_format.items()):
        t = common.best_of(lambda cs=cs: parse_all(cs), args.repeat, warmup=0)
        rates[name] = len(cs) / t.best
    ps = rates.get("pokerstars", 0.0)
    rows = [[name, len(by_format[name]), f"{r:,.0f}", f"{r / ps:.2f}x" if ps else "-"] for name, r in rates.items()]
    print(f"bench_formats: {args.corpus}; best of {args.repeat}; {common.environment()}")
    print(common.format_table(["format", "hands", "parse hands/s", "vs PokerStars"], rows))
    if args.json:
        Path(args.json).write_text(
            json.dumps({n: {"hands": len(by_format[n]), "hands_per_s": r} for n, r in rates.items()})
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
