"""The auditing process holds no per-hand structure (issue 16): ``hhaudit audit`` run in a fresh
process on 4N generated hands, Python's retained memory (``tracemalloc``, after a collection) read
by the N-th and by the 4N-th hand, must not grow by more than a few bytes a hand.

The run's stores are made to reach their bounded state early (the duplicate-id store moves to
disk after 100 hands instead of 10,000, the cross-hand rows are written every 20 hands and checked
in the child), so that what is compared is the steady state a run of millions of hands lives in.
No time is measured.  What ``tracemalloc`` cannot see (SQLite's page cache, capped by
``seenstore.CACHE_KIB``; the child process) is measured by ``benchmarks/bench_memory.py --curve``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

#: Hands audited before the first reading (N); the second is read at 4N.
N = 300
#: Each reading is the least retained memory over the last WINDOW hands before it (read every 5
#: hands, after a collection): what a hand in flight holds comes and goes, what the run keeps stays.
WINDOW = 100
#: Bytes a hand that the retained memory may grow by between N and 4N: generous (a structure kept
#: per hand costs hundreds: a hand id alone is ~60 bytes as a string, a dict entry ~100).
PER_HAND = 64
#: ``audit --html`` on hands that each have a finding and a page: 85 bytes a hand were measured with
#: runs of 10 findings (the collector keeps a path per run file, and something of ~70 bytes a hand
#: not yet found); keeping each hand's findings in memory, as before issue 16, costs ~700.
PER_HAND_HTML = 200

_DRIVER = """
import gc, json, sys, tracemalloc
import auditor.crosshand_audit as X
import auditor.ingest as I
import auditor.seenstore as S

S.SPILL_AT, X.ROWS_PER_BATCH, X.IN_PROCESS = 100, 20, 0
I.BLOCK = I.BULK = 1 << 14  # the reader's window of text: small, so that it hides nothing
import auditor.audit as A
from auditor import cli
if "--html" in sys.argv:
    import auditor.report.views as V
    V.RUN_ROWS = 10  # the HTML report's findings go to disk ten at a time

marks = {int(x): None for x in sys.argv[1].split(",")}
window = int(sys.argv[2])
seen = 0
step = A.AuditRun.process

def process(self, chunk):
    global seen
    r = step(self, chunk)
    seen += 1
    for m in marks:
        if m - window < seen <= m and seen % 5 == 0:
            gc.collect()
            now = tracemalloc.get_traced_memory()[0]
            marks[m] = now if marks[m] is None else min(marks[m], now)
    return r

A.AuditRun.process = process
tracemalloc.start()
rc = cli.main(sys.argv[3:])
print(json.dumps({"marks": marks, "rc": rc, "seen": seen}))
"""

_ID = re.compile(r"#\d+:")
#: Real-format PokerStars hands of the fixtures (one hand each): cash games of three games.
HANDS = ["cash_nlhe_basic", "cash_out", "dead_blinds_sitout_chat", "plo_side_pots", "run_it_twice",
         "omaha_hilo_limit_split", "six_plus_holdem", "inr_rupees"]  # fmt: skip


def generate(path: Path, n: int, finding: bool = False) -> None:
    """``n`` hands: the PokerStars cash fixtures repeated with fresh hand ids, each repetition at
    fresh tables (as a larger input holds more tables, not longer ones); ``finding``: each with a
    line no grammar reads (a P002 warning, so that each hand gets a page of the HTML report)."""
    d = FIXTURES / "sites" / "pokerstars"
    texts = [(d / f"{name}.txt").read_text("utf-8").strip() for name in HANDS]
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for i in range(n):
            head, _, rest = texts[i % len(texts)].partition("\n")
            rep = i // len(texts)
            f.write(_ID.sub(f"#{900_000_000_000 + i}:", head, count=1) + "\n")
            rest = rest.replace("Table '", f"Table 'R{rep} ", 1)
            if finding:
                rest = rest.replace("*** HOLE CARDS ***\n", "*** HOLE CARDS ***\nsomebody: winks\n", 1)
            f.write(rest + "\n\n\n")


@pytest.mark.parametrize("fmt", ["json", "sarif", "html"])
def test_retained_memory_does_not_grow_with_the_hands(tmp_path: Path, fmt: str) -> None:
    """``html``: ``audit --format json --html DIR`` on hands that each have a finding (a page each):
    the report's collector keeps their findings on disk, not in memory (issue 16, s9-html)."""
    src = tmp_path / "hands.txt"
    generate(src, 4 * N + 60, finding=fmt == "html")  # (more than read: the reader is still mid-file then)
    html = ["--html", str(tmp_path / "report")] if fmt == "html" else []
    argv = [sys.executable, "-c", _DRIVER, f"{N},{4 * N}", str(WINDOW), "audit", str(src), "--format",
            "json" if fmt == "html" else fmt, "-o", str(tmp_path / "out"), "--quiet", "--fail-on", "none",
            "--no-progress", *html]  # fmt: skip
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    # (html: the hands that cross-hand findings name are audited again for their pages, and counted)
    assert got["rc"] == 0 and (got["seen"] == 4 * N + 60 or (fmt == "html" and got["seen"] > 4 * N + 60))
    first, last = got["marks"][str(N)], got["marks"][str(4 * N)]
    per_hand = (last - first) / (3 * N)
    bound = PER_HAND_HTML if fmt == "html" else PER_HAND
    assert per_hand < bound, f"{fmt}: {first} -> {last} bytes retained ({per_hand:.1f} a hand)"
    print(f"{fmt}: {first:,} -> {last:,} bytes retained from hand {N} to {4 * N} ({per_hand:+.1f} a hand)")
    assert fmt == "text" or (tmp_path / "out").stat().st_size > 0  # (text, quiet, no finding: nothing)
    if fmt == "html":
        assert len(list((tmp_path / "report" / "hands").glob("*.html"))) == 4 * N + 60
