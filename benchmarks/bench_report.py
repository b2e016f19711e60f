"""Size of the HTML report of a large audit: N hands (corpus hands repeated with fresh hand ids),
one in ten with an injected unrecognised line (so about N/10 findings), written with --html.
Reports the time to audit and write, the number of pages and the size of the largest ones.

    .venv/bin/python benchmarks/bench_report.py [--hands 100000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common


def make_input(out: Path, n: int) -> int:
    """Write ``n`` hands (in files of 1,000) built from the PokerStars corpus with fresh ids."""
    _sources, split = common.load_chunks()
    texts = [c.text for c in split.chunks if c.lines]
    written, f, i = 0, None, 0
    while written < n:
        if written % 1000 == 0:
            if f:
                f.close()
            f = open(out / f"part-{written // 1000:05d}.txt", "w", encoding="utf-8")  # noqa: SIM115
        t = texts[i % len(texts)]
        i += 1
        t = re.sub(r"#(\d+):", f"#{8000000000000 + written}:", t, count=1)
        if written % 10 == 0 and "*** HOLE CARDS ***" in t:
            t = t.replace("*** HOLE CARDS ***", "*** HOLE CARDS ***\nSomebody: waves at the camera", 1)
        f.write(t + "\n\n\n")  # type: ignore[union-attr]
        written += 1
    if f:
        f.close()
    return written


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--keep", help="write the input and the report here instead of a temporary directory")
    args = ap.parse_args()
    base = Path(args.keep or tempfile.mkdtemp(prefix="hhaudit-report-"))
    src, out = base / "input", base / "report"
    src.mkdir(parents=True, exist_ok=True)
    n = make_input(src, args.hands)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "auditor.cli", "audit", str(src), "--html", str(out), "--format", "json",
                        "-o", str(base / "audit.json"), "--fail-on", "none"], check=False)  # fmt: skip
    secs = time.perf_counter() - t0
    pages = [p for p in out.rglob("*.html")]
    sizes = sorted(((p.stat().st_size, p.relative_to(out)) for p in pages), reverse=True)
    index = (out / "index.html").stat().st_size
    total = sum(s for s, _ in sizes)
    print(f"bench_report: {n:,} hands, exit {r.returncode}, audit + report in {secs:.0f} s ({n / secs:,.0f} hands/s)")
    print(f"  pages: {len(pages):,} ({total / 1e6:.1f} MB); index.html {index / 1e3:.0f} KB; largest:")
    for s, p in sizes[:5]:
        print(f"    {s / 1e3:8.0f} KB  {p}")
    hands = len(list((out / "hands").glob("*.html")))
    print(f"  hand pages: {hands:,}; findings pages: {len(list(out.glob('findings-*.html'))) + 1}")
    print(f"  input: {sum(p.stat().st_size for p in src.iterdir()) / 1e6:.0f} MB in {len(os.listdir(src))} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
