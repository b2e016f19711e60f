"""Peak memory of ``hhaudit audit`` and ``hhaudit audit --html`` on hostile sizes (issue 11).

Two inputs are generated in a temporary folder:

* **one huge hand**: a real hand header and seats followed by ``--huge-mb`` MB of body lines (the
  reader keeps at most 5,000 lines or 1 MiB of a hand and reports P007 for the rest);
* **many hands with findings**: the README's disputed hand (a B001) repeated with fresh ids until
  the file holds ``--many-mb`` MB (30,000 hands at the default 45 MB);
* **one large iPoker session**: a real iPoker game repeated with fresh game codes inside one
  ``<session>`` until it holds ``--ipoker-mb`` MB (the XML reader streams it, one game in memory).

Each command runs in its own process; its peak resident memory (``ru_maxrss`` of the child) is
printed next to the stated bound.

``--scale N,N,..`` (issue 16) measures instead how the peak grows with the number of hands: for each
N, the PokerStars corpus hands (``../shared/corpus/pokerstars``) repeated in corpus order with fresh
hand ids are streamed to one temporary file (never into the repository), then ``hhaudit parse
--to jsonl`` and ``hhaudit audit --format json`` run on it, each in its own process; printed: peak
RSS of the largest process and of the process tree (the cross-hand child counted with its parent),
seconds, and the slope between consecutive sizes in bytes per hand (what 10M hands would add).

``--curve N`` (issue 16, s8-memory) runs each command once on N such hands and reads the auditing
process's own ``VmRSS`` and ``VmHWM`` (peak so far) when it has seen each of ``--marks`` hands (a
driver counts the hands ``AuditRun.process`` is given and then runs ``auditor.cli.main`` unchanged):
the growth between marks in bytes per hand, for ``--outputs`` json, text, sarif, html (``audit
--html``) and parse; and the cross-hand child's peak (``ru_maxrss`` of the waited-for child).
``--child N,N`` runs the cross-hand child alone on the rows of N hands (the corpus's rows repeated
at fresh tables, written as ``Bounded`` writes them), ``--store N`` the duplicate-id store alone:
both reach 10M hands in minutes, where a full audit of 10M hands takes ~3 CPU hours.

    .venv/bin/python benchmarks/bench_memory.py [--huge-mb 400] [--many-mb 45] [--json OUT]
    .venv/bin/python benchmarks/bench_memory.py --scale 10000,100000,300000 [--json OUT]
    .venv/bin/python benchmarks/bench_memory.py --curve 1000000 --marks 10000,100000,1000000 --outputs json
    .venv/bin/python benchmarks/bench_memory.py --child 100000,1000000,10000000
    .venv/bin/python benchmarks/bench_memory.py --store 10000000 --marks 10000,100000,1000000,10000000
    .venv/bin/python benchmarks/bench_memory.py --buckets 1000000,3000000 --before /tmp/start
    .venv/bin/python benchmarks/bench_memory.py --plan 1000000,3000000,10000000 --before /tmp/start

``--buckets N,N`` (s11-finish) runs the cross-hand query's bucketing alone on N hands' rows, the
query replaced by a recorder: the largest bucket it would check, on which the finisher's peak
depends (a 10M-hand run's largest was ~16,000 hands before s11-finish, ~2,000-3,000 after).
``--plan N,N`` gives the same sizes from the rows' keys alone (the bucket tree replayed on a count
per table key with the checkout's own hashes): seconds at 10M hands.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "disputed_reraise.txt"
#: The bounds the project states (docs/security.md): peak RSS in MiB.
BOUNDS = {"audit": 150, "audit --html": 200}


def _report(rows: list[dict[str, object]], r: dict[str, object]) -> None:
    """Keep one measurement and print it as a JSON line (as it comes: long runs show progress)."""
    rows.append(r)
    print(json.dumps(r), flush=True)


def _save(rows: list[dict[str, object]], json_out: str | None) -> None:
    """Write the run's measurements to ``--json OUT``, if given."""
    if json_out:
        Path(json_out).write_text(json.dumps(rows, indent=2))


def huge_hand(path: Path, mb: int) -> None:
    head = SAMPLE.read_text("utf-8").split("*** HOLE CARDS ***")[0]
    line = 'Amir said, "' + "z" * 200 + '"\n'
    block = (line * 5000).encode()
    with path.open("wb") as f:
        f.write(head.encode())
        written = 0
        while written < mb * 2**20:
            f.write(block)
            written += len(block)


def many_hands(path: Path, mb: int) -> int:
    text = SAMPLE.read_text("utf-8").strip() + "\n\n\n"
    n = 0
    with path.open("w", encoding="utf-8") as f:
        while f.tell() < mb * 2**20:
            f.write(text.replace("250000000101", str(700_000_000_000 + n)))
            n += 1
    return n


IPOKER = ROOT / "fixtures" / "sites" / "ipoker" / "allin_showdown.txt"


def ipoker_session(path: Path, mb: int) -> int:
    text = IPOKER.read_text("utf-8")
    head, rest = text.split("  <game ", 1)
    game, tail = rest.split("</game>", 1)
    game = "  <game " + game + "</game>\n"
    n = 0
    with path.open("w", encoding="utf-8") as f:
        f.write(head)
        while f.tell() < mb * 2**20:
            f.write(game.replace('gamecode="5385476176"', f'gamecode="{9_000_000_000 + n}"'))
            n += 1
        f.write(tail.lstrip("\n"))
    return n


def peak(argv: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of one command run in a child of a fresh process."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True).stdout
    kib, secs = out.split()
    return int(kib) / 1024, float(secs)


def _tree(root: int) -> list[int]:
    """``root`` and its descendants (from /proc)."""
    kids: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_peak(argv: list[str]) -> tuple[float, float, float]:
    """(peak RSS of the largest process, peak of the sum over the command's process tree sampled
    every 20 ms, seconds) of one command: ``audit`` checks a large run's cross-hand stage in a
    child process while the parent waits, and both count against a machine's memory."""
    import resource
    import time

    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tree_kib = 0
    while p.poll() is None:
        tree_kib = max(tree_kib, sum(_rss_kib(q) for q in _tree(p.pid)))
        time.sleep(0.02)
    secs = time.perf_counter() - t
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, tree_kib / 1024, secs


#: The bounds of issue 16 by command, for ``--scale``: peak RSS in MiB at any input size.
SCALE_BOUNDS = {"parse": 200, "audit": 150, "audit text": 150}


_TABLE = re.compile(r"^Table '")
_TOURNAMENT = re.compile(r"Tournament #(\d+)")


def rep_id(rep: int, tid: object) -> str:
    """A repetition's tournament id: ``9``, the repetition in five digits, the corpus's id, so that
    no two (repetition, id) pairs give the same id (``f"{rep}{tid}"`` did: 1 + 23... = 12 + 3...)."""
    return f"9{rep:05d}{tid}"


def stream_hands(path: Path, n: int, same_tables: bool = False) -> int:
    """Write ``n`` PokerStars corpus hands, repeated with fresh ids, to ``path``; returns its bytes.
    Each repetition of the corpus after the first is dealt at fresh tables and tournaments (``R2
    Name``, tournament ``2<id>``), as a larger input holds more tables, not longer ones; with
    ``same_tables`` (the generator before s7-crossmem) every repetition continues the corpus's
    tables, so that a table's chain grows with ``n``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import common
    from bench_batch import _ID, hand_texts

    texts = hand_texts(str(common.default_corpus()))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for i in range(n):
            head, _, rest = texts[i % len(texts)].partition("\n")
            head = _ID.sub(f"#{800_000_000_000 + i}:", head, count=1)
            rep = i // len(texts)
            if rep and not same_tables:
                head = _TOURNAMENT.sub("Tournament #" + rep_id(rep, r"\g<1>"), head, count=1)
                rest = _TABLE.sub(f"Table 'R{rep} ", rest, count=1)
            f.write(head + "\n" + rest + "\n\n\n")
    return path.stat().st_size


def scale(sizes: list[int], json_out: str | None, commands: Sequence[str] = tuple(SCALE_BOUNDS),
          same_tables: bool = False) -> int:  # fmt: skip
    hh = [sys.executable, "-m", "auditor.cli"]
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for n in sizes:
            src = d / f"hands-{n}.txt"
            nbytes = stream_hands(src, n, same_tables)
            for cmd, argv in (
                ("parse", ["parse", str(src), "--to", "jsonl", "--out", str(d / "tables"), "--quiet"]),
                ("audit", ["audit", str(src), "--format", "json", "--fail-on", "none", "-o", str(d / "out.json"),
                           "--quiet"]),
                ("audit text", ["audit", str(src), "--fail-on", "none", "-o", str(d / "out.txt"), "--quiet"]),
            ):  # fmt: skip
                if cmd not in commands:
                    continue
                mib, tree, secs = tree_peak([*hh, *argv])
                rows.append({"hands": n, "input_mib": round(nbytes / 2**20, 1), "command": cmd,
                             "peak_mib": round(mib, 1), "tree_mib": round(tree, 1), "seconds": round(secs, 1),
                             "hands_per_s": round(n / secs), "bound_mib": SCALE_BOUNDS[cmd],
                             "within": mib <= SCALE_BOUNDS[cmd]})  # fmt: skip
                print(f"{n:>9,} hands {cmd:<10} peak {mib:6.1f} MiB (process tree {tree:6.1f})  {secs:7.1f} s",
                      flush=True)  # fmt: skip
            src.unlink()
    print(f"\n{'command':<10} {'hands':>9} {'input MiB':>9} {'peak MiB':>9} {'tree MiB':>9} {'hands/s':>8} "
          f"{'B/hand since prev':>18}")  # fmt: skip
    for cmd in commands:
        prev: dict[str, object] | None = None
        for r in (r for r in rows if r["command"] == cmd):
            slope = ""
            if prev is not None:
                dh = int(r["hands"]) - int(prev["hands"])  # type: ignore[call-overload]
                dm = float(r["peak_mib"]) - float(prev["peak_mib"])  # type: ignore[arg-type]
                r["bytes_per_hand"] = round(dm * 2**20 / dh, 1)
                slope = f"{r['bytes_per_hand']:+.1f}"
            mark = "ok" if r["within"] else "OVER"
            print(f"{cmd:<10} {r['hands']:>9,} {r['input_mib']:>9} {r['peak_mib']:>9} {r['tree_mib']:>9} "
                  f"{r['hands_per_s']:>8,} {slope:>18}  {mark} (bound {r['bound_mib']} MiB)")  # fmt: skip
            prev = r
    _save(rows, json_out)
    return 0 if all(r["within"] for r in rows) else 1


#: What a driver run by :func:`run_driver` can call: the process's own ``VmRSS`` and ``VmHWM``
#: (peak so far), in KiB, from ``/proc/self/status``.
_STATUS = """
def status():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0])
    return out
"""


def run_driver(driver: str, args: Sequence[str], env: dict[str, str] | None = None, root: Path = ROOT) -> Any:
    """Run ``driver`` (Python source, given :data:`_STATUS`'s ``status()``) in a fresh process with
    ``args`` (and ``env``), in the checkout ``root`` (its ``auditor`` package is the one imported);
    the JSON value its last line of output prints."""
    cmd = [sys.executable, "-c", _STATUS + driver, *args]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root, env=env, check=True)
    return json.loads(out.stdout.decode().strip().splitlines()[-1])


def slope(m: dict[str, Any], prev: dict[str, Any] | None) -> str:
    """Bytes of peak (``VmHWM``) per hand between two marks read by a driver ("" for the first)."""
    if prev is None:
        return ""
    return f"{(m['VmHWM'] - prev['VmHWM']) * 1024 / (m['hands'] - prev['hands']):+.1f}"


#: ``--curve``: the driver run in the measured process.  It counts the hands the audit step
#: processes (wrapping ``AuditRun.process``, nothing else changed) and, at each mark, reads the
#: process's own ``VmRSS`` and ``VmHWM`` (peak so far) from ``/proc/self/status``; then it runs
#: ``hhaudit audit`` exactly as the command line does (``auditor.cli.main``).
_CURVE_DRIVER = """
import json, sys
import auditor.audit as A
from auditor import cli

marks = sorted(int(x) for x in sys.argv[1].split(","))
seen, got = 0, []
step = A.AuditRun.process

def process(self, chunk):
    global seen
    r = step(self, chunk)
    seen += 1
    while marks and seen >= marks[0]:
        got.append({"hands": marks.pop(0), **status()})
    return r

A.AuditRun.process = process
rc = cli.main(sys.argv[2:])
end = status()
import resource  # the largest waited-for child: the cross-hand child process, if one ran
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu, child_cpu = round(me.ru_utime + me.ru_stime, 2), round(kids.ru_utime + kids.ru_stime, 2)
print(json.dumps({"marks": got, "end": {"hands": seen, **end}, "rc": rc, "child_peak_kib": kids.ru_maxrss,
                  "cpu_s": cpu, "child_cpu_s": child_cpu}))
"""

#: ``--curve``: the commands measured (the same run of hands for each): ``hhaudit audit`` with each
#: output, and ``hhaudit parse`` (its tables written by size).
CURVE_OUTPUTS = {
    "json": ["audit", "--format", "json", "--fail-on", "none", "-o", "{tmp}/out.json"],
    "text": ["audit", "--format", "text", "--fail-on", "none", "-o", "{tmp}/out.txt"],
    "sarif": ["audit", "--format", "sarif", "--fail-on", "none", "-o", "{tmp}/out.sarif"],
    "html": ["audit", "--format", "json", "--fail-on", "none", "-o", "{tmp}/out.json", "--html", "{tmp}/report"],
    "parse": ["parse", "--to", "jsonl", "--out", "{tmp}/tables"],
}


def curve_run(argv: list[str], marks: list[int], root: Path = ROOT) -> dict[str, object]:
    """One ``hhaudit audit`` (or ``parse``) run under the driver: the marks of the auditing process,
    its peak at the end, and the peak of the cross-hand child (``ru_maxrss`` of the processes it
    waited for: exact, no sampling, which would cost as much CPU as the run on a loaded machine).
    ``tree_peak_kib`` is an upper bound for both at once: the parent's RSS at the end (it waits
    for the child, which starts after the last hand) plus the child's peak."""
    import time

    t = time.perf_counter()
    got = run_driver(_CURVE_DRIVER, [",".join(map(str, marks)), *argv], root=root)
    got["seconds"] = round(time.perf_counter() - t, 1)
    got["tree_peak_kib"] = got["end"]["VmRSS"] + got["child_peak_kib"]  # type: ignore[index, operator]
    return got


def curve(n: int, marks: list[int], outputs: Sequence[str], json_out: str | None, keep: str | None,
          root: Path = ROOT) -> int:  # fmt: skip
    """``--curve``: one input of ``n`` hands, one run per output, RSS by hands seen (see the module);
    ``root``: the checkout whose ``auditor`` package runs (``--root``: an earlier release's)."""
    marks = sorted({m for m in marks if m <= n} | {n})
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(keep) if keep else Path(tmp) / f"hands-{n}.txt"
        if not (keep and src.exists()):
            stream_hands(src, n)
        for name in outputs:
            argv = [a.replace("{tmp}", tmp) for a in CURVE_OUTPUTS[name]]
            got = curve_run([*argv, "--quiet", "--no-progress", str(src)], marks, root)
            got["output"] = name
            rows.append(got)
            print(json.dumps(got), flush=True)
    print(f"\n{'output':<6} {'hands':>10} {'RSS MiB':>8} {'peak MiB':>9} {'B/hand (peak) since prev':>25}")
    ok = True
    for r in rows:
        prev = None
        for m in [*r["marks"], {**r["end"], "hands": "end"}]:  # type: ignore[list-item]
            b = slope(m, prev) if m["hands"] != "end" else ""
            print(f"{r['output']:<6} {m['hands']:>10} {m['VmRSS'] / 1024:>8.1f} {m['VmHWM'] / 1024:>9.1f} {b:>25}")
            prev = m
        child = int(r["child_peak_kib"]) / 1024  # type: ignore[call-overload]
        tree = int(r["tree_peak_kib"]) / 1024  # type: ignore[call-overload]
        peak = r["end"]["VmHWM"] / 1024  # type: ignore[index]
        ok = ok and peak <= SCALE_BOUNDS["parse" if r["output"] == "parse" else "audit"]
        print(
            f"{r['output']:<6} child peak {child:.1f} MiB, tree at most {tree:.1f} MiB, {r['seconds']} s, "
            f"CPU {r['cpu_s']} s (+ {r['child_cpu_s']} s in the child)"
        )
    _save(rows, json_out)
    return 0 if ok else 1


def corpus_rows() -> list[dict[str, object]]:
    """The cross-hand rows (``auditor.crosshand_rows``) of the PokerStars corpus hands, audited once."""
    import io

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import common
    from bench_batch import hand_texts

    from auditor.audit import AuditRun
    from auditor.crosshand_audit import Bounded
    from auditor.formats import Chunk
    from auditor.ingest import read_stream

    text = "\n\n\n".join(hand_texts(str(common.default_corpus()))).encode()
    b = Bounded(rows_per_batch=10**9, in_process=10**9)
    run = AuditRun(crosshand=b)
    for c in read_stream(io.BytesIO(text), "corpus.txt", len(text))[1]:
        if isinstance(c, Chunk):
            run.process(c)
    return b.rows


def child_rows(directory: Path, base: list[dict[str, object]], n: int) -> None:
    """The rows file :class:`auditor.crosshand_audit.Bounded` would write for ``n`` hands: ``base``
    repeated with fresh hand ids and lines, each repetition at fresh tables and tournaments (as
    ``stream_hands``)."""

    write_rows(directory, base, n, fresh_tables)


def fresh_tables(row: dict[str, object], rep: int, i: int) -> None:
    """A row of repetition ``rep`` at its fresh table and tournament (as ``stream_hands``)."""
    if rep:
        row["table"] = f"R{rep} {row['table']}"
        if row.get("tournament_id") is not None:
            row["tournament_id"] = rep_id(rep, row["tournament_id"])


def write_rows(directory: Path, base: list[dict[str, object]], n: int,
               place: Callable[[dict[str, object], int, int], None]) -> None:  # fmt: skip
    """The rows file of ``n`` hands: ``base`` repeated with fresh hand ids and lines, each row's
    table and tournament set by ``place(row, repetition, i)``."""
    from auditor.crosshand_audit import ROWS_FILE, ROWS_PER_BATCH
    from auditor.spillsort import dump

    span = 1 + max(int(r["first_line"] or 0) for r in base)  # type: ignore[call-overload]
    with open(directory / ROWS_FILE, "wb") as f:
        batch = []
        for i in range(n):
            rep, r = divmod(i, len(base))
            row = dict(base[r])
            row["hand_id"] = str(800_000_000_000 + i)
            row["first_line"] = int(row["first_line"] or 0) + rep * span  # type: ignore[call-overload]
            place(row, rep, i)
            batch.append(row)
            if len(batch) >= ROWS_PER_BATCH:
                dump(batch, f)
                batch = []
        if batch:
            dump(batch, f)


def child(sizes: list[int], json_out: str | None) -> int:
    """``--child``: the cross-hand child process alone (``python -m auditor.crosshand_audit``) on
    the rows of N hands: its peak RSS (sampled every 20 ms and ``ru_maxrss``), seconds, findings."""
    import resource
    import time

    from auditor.crosshand_audit import FINDINGS_FILE, HANDS_PER_PARTITION, _child_env
    from auditor.spillsort import load_all

    base = corpus_rows()
    rows: list[dict[str, object]] = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            child_rows(d, base, n)
            disk = (d / "rows.pickle").stat().st_size
            argv = [sys.executable, "-m", "auditor.crosshand_audit", str(d), str(n), str(HANDS_PER_PARTITION)]
            t = time.perf_counter()
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, env=_child_env(), cwd=ROOT)
            most = 0
            while p.poll() is None:
                most = max(most, _rss_kib(p.pid))
                time.sleep(0.02)
            secs = time.perf_counter() - t
            found = 0
            with open(d / FINDINGS_FILE, "rb") as f:
                for part in load_all(f):
                    found += len(part)
            maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # (the largest child so far)
            r = {"hands": n, "rows_file_mib": round(disk / 2**20, 1), "findings": found,
                 "peak_mib": round(most / 1024, 1), "maxrss_so_far_mib": round(maxrss / 1024, 1),
                 "seconds": round(secs, 1)}  # fmt: skip
            _report(rows, r)
    _save(rows, json_out)
    return 0


#: ``--phases``: the cross-hand child's work (``auditor.crosshand_audit.main``) with its peak read
#: and reset (``/proc/self/clear_refs``) at each phase: polars' import, the bucketing, every 100th
#: bucket checked, the first finding frame out of the merge, the end; the resident memory split
#: into anonymous and file-backed (polars' machine code, paged in by the first query).
_PHASES_DRIVER = """
import json, sys, time
import auditor.crosshand_audit as C
import auditor.spillsort as S

def split():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("RssAnon", "RssFile"):
                out[k] = int(v.split()[0])
    return out

got, t0, seen = [], time.process_time(), [0]
def mark(label):
    got.append({"phase": label, "cpu_s": round(time.process_time() - t0, 1), **status(), **split()})
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the peak (VmHWM) from here on

mark("start")
import polars
mark("import polars")
bucket, check, frames = C._bucket, C.check_rows, S.sorted_frames
def _bucket(*a, **k):
    r = bucket(*a, **k)
    mark(f"bucketing ({len(r)} buckets)")
    return r
def check_rows(rows):
    r = check(rows)
    seen[0] += 1
    if seen[0] % 100 == 1:
        mark(f"bucket {seen[0]} checked ({len(rows)} hands)")
    return r
def sorted_frames(*a, **k):
    first = True
    for x in frames(*a, **k):
        if first:
            mark(f"all {seen[0]} buckets checked, first frame merged")
            first = False
        yield x
C._bucket, C.check_rows, S.sorted_frames = _bucket, check_rows, sorted_frames
C.main(sys.argv[1:])
mark("end")
print(json.dumps(got))
"""


def phases(n: int, json_out: str | None) -> int:
    """``--phases N``: :data:`_PHASES_DRIVER` on the rows of ``n`` hands (as ``--child`` makes them),
    in the environment the audit gives its child (``_child_env``)."""
    from auditor.crosshand_audit import HANDS_PER_PARTITION, _child_env

    with tempfile.TemporaryDirectory() as tmp:
        child_rows(Path(tmp), corpus_rows(), n)
        got = run_driver(_PHASES_DRIVER, [tmp, str(n), str(HANDS_PER_PARTITION)], env=_child_env())
    for m in got:
        kib = {k: m[k] / 1024 for k in ("VmHWM", "VmRSS", "RssAnon", "RssFile")}
        print(f"{m['phase']:<44} peak {kib['VmHWM']:6.1f}  RSS {kib['VmRSS']:6.1f} MiB (anonymous "
              f"{kib['RssAnon']:5.1f}, files {kib['RssFile']:5.1f})  {m['cpu_s']:6.1f} CPU s", flush=True)  # fmt: skip
    if json_out:
        Path(json_out).write_text(json.dumps(got, indent=2))
    return 0


_STORE_DRIVER = """
import json, os, sys, time
from auditor.seenstore import SeenStore

n, marks = int(sys.argv[1]), sorted(int(x) for x in sys.argv[2].split(","))
store, got, t = SeenStore(), [], time.process_time()
fp = os.urandom(8 * 32)  # a hand of 32 lines: 8 bytes a line
for i in range(n):
    key = ("pokerstars", str(800_000_000_000 + i))
    if store.get(key) is None:  # as DuplicateIds.copy_of: look up, then remember
        store[key] = ("/data/night/hands.txt", 1 + 40 * i, fp[i % 8 :] + fp[: i % 8])
    while marks and i + 1 >= marks[0]:
        got.append({"hands": marks.pop(0), "cpu_s": round(time.process_time() - t, 1), **status()})
print(json.dumps({"marks": got, "on_disk": store.on_disk}))
store.close()
"""


def store(n: int, marks: list[int], json_out: str | None) -> int:
    """``--store``: the duplicate-id store alone (:class:`auditor.seenstore.SeenStore`, as
    ``DuplicateIds.copy_of`` uses it: one lookup and one insert a hand, 32-line fingerprints) for
    ``n`` hands in a fresh process: RSS and peak at each mark, CPU seconds."""
    marks = sorted({m for m in marks if m <= n} | {n})
    got = run_driver(_STORE_DRIVER, [str(n), ",".join(map(str, marks))])
    prev = None
    for m in got["marks"]:
        b = slope(m, prev)
        print(f"store {m['hands']:>10,} hands  RSS {m['VmRSS'] / 1024:6.1f}  peak {m['VmHWM'] / 1024:6.1f} MiB  "
              f"{m['cpu_s']:7.1f} CPU s  {b + ' B/hand' if b else ''}", flush=True)  # fmt: skip
        prev = m
    if json_out:
        Path(json_out).write_text(json.dumps(got, indent=2))
    return 0


def _children(pid: int) -> list[int]:
    """``pid``'s child processes (``/proc/PID/task/*/children``: no scan of every process)."""
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(x) for x in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def tree_run(
    argv: list[str], env: dict[str, str], cwd: str, every: float, pass_fds: Sequence[int] = ()
) -> dict[str, float]:
    """One command: the peak of the sum of its process tree's RSS (sampled every ``every`` s, from
    the few ``/proc`` files of the tree itself, cheap enough for an hour's run), its largest
    process (``ru_maxrss`` from ``wait4``: exact, and the larger of the images when a process
    replaced itself with ``execve``), and the CPU of the command and every child it waited for."""
    import time

    t = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env, cwd=cwd, pass_fds=pass_fds)
    tree = 0
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        todo, total = [p.pid], 0
        while todo:
            q = todo.pop()
            total += _rss_kib(q)
            todo += _children(q)
        tree = max(tree, total)
        time.sleep(every)
    p.returncode = os.waitstatus_to_exitcode(status)
    return {"tree_mib": round(tree / 1024, 1), "largest_mib": round(ru.ru_maxrss / 1024, 1),
            "cpu_s": round(ru.ru_utime + ru.ru_stime, 1), "seconds": round(time.perf_counter() - t, 1),
            "rc": p.returncode}  # fmt: skip


#: ``--tree``: the commands, run on the same input (``{tmp}`` is a scratch folder).
TREE_COMMANDS = {
    "audit": ["audit", "{src}", "--format", "json", "--fail-on", "none", "-o", "{tmp}/out.json", "--quiet"],
    "parse": ["parse", "{src}", "--to", "jsonl", "--out", "{tmp}/tables", "--quiet"],
}


def tree(sizes: list[int], roots: list[tuple[str, Path]], commands: Sequence[str], every: float,
         json_out: str | None, keep: str | None) -> int:  # fmt: skip
    """``--tree N,N``: for each N (the ``--scale`` input), each command run as ``hhaudit`` is (``python
    -m auditor.cli``, the command its own process) once for each checkout in ``roots``, interleaved
    (the session start beside this branch, in the same run): the process tree's peak, the largest
    process, CPU; the slope between sizes in bytes per hand of the tree's peak."""
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-tree-") as tmp:
        for n in sizes:
            src = Path(keep.replace("{n}", str(n))) if keep else Path(tmp) / f"hands-{n}.txt"
            if not src.exists():
                stream_hands(src, n)
            for cmd in commands:
                for label, root in roots:
                    argv = [a.replace("{src}", str(src)).replace("{tmp}", tmp) for a in TREE_COMMANDS[cmd]]
                    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONSAFEPATH": "1"}
                    got = tree_run([sys.executable, "-m", "auditor.cli", *argv], env, tmp, every)
                    r = {"hands": n, "command": cmd, "checkout": label, **got}
                    _report(rows, r)
            if not keep:
                src.unlink()
    print(f"\n{'command':<6} {'checkout':<10} {'hands':>10} {'tree MiB':>9} {'largest':>8} {'CPU s':>8} "
          f"{'B/hand (tree) since prev':>25}")  # fmt: skip
    for cmd in commands:
        for label, _root in roots:
            prev: dict[str, object] | None = None
            for r in (r for r in rows if r["command"] == cmd and r["checkout"] == label):
                b = ""
                if prev is not None:
                    dm = float(r["tree_mib"]) - float(prev["tree_mib"])  # type: ignore[arg-type]
                    r["bytes_per_hand"] = round(dm * 2**20 / (int(r["hands"]) - int(prev["hands"])), 2)  # type: ignore[call-overload]
                    b = f"{r['bytes_per_hand']:+.2f}"
                print(f"{cmd:<6} {label:<10} {r['hands']:>10,} {r['tree_mib']:>9} {r['largest_mib']:>8} "
                      f"{r['cpu_s']:>8} {b:>25}")  # fmt: skip
                prev = r
    for n in sizes:
        for label, _root in roots:
            cpu = {r["command"]: r["cpu_s"] for r in rows if r["hands"] == n and r["checkout"] == label}
            if "audit" in cpu and "parse" in cpu and cpu["audit"]:
                print(f"{label}, {n:,} hands: parse / audit CPU = {float(cpu['parse']) / float(cpu['audit']):.3f}")  # type: ignore[arg-type]
    _save(rows, json_out)
    return 0


def _finisher_state(directory: Path, n: int, out: Any) -> None:
    """What ``hhaudit audit`` hands over after ``n`` hands (``auditor.finish``): a JSON report
    written to ``out`` so far, the counts, every code kept (as ``--select ALL,T001``)."""
    from auditor import findings as F
    from auditor.crosshand_audit import HANDS_PER_PARTITION, Deferred
    from auditor.finish import STATE_FILE, End, Keep, _Pickler
    from auditor.output import Options, RunSummary, formatter

    opts = Options(argv=["hhaudit", "audit", "-"])
    summary = RunSummary(files=1, hands_seen=n, hands_parsed=n)
    keep = Keep(summary, frozenset(F.selected_codes(["ALL", "T001"], [], [])), [], directory, set())
    end = End(formatter("json", out, opts), opts, summary, keep, True, None, False, True, out)
    state = {"query": tuple(Deferred(directory, n, HANDS_PER_PARTITION)), "out": out.fileno(), "stdout": False,
             "encoding": "utf-8", "errors": "strict"}  # fmt: skip
    import pickle

    with open(directory / STATE_FILE, "wb") as f:
        f.write(pickle.dumps(state))
        _Pickler(f, out).dump(end)
    out.flush()


def _rows_runs(sizes: list[int], before: Path | None, tmp: Path) -> Iterator[tuple[int, str, Path, Path]]:
    """For each N of ``sizes``: the rows file of N hands (:func:`child_rows`) made once, then for
    ``before`` (if given) and this checkout, a fresh folder of ``tmp`` holding a link to it:
    ``(n, label, checkout, folder)``.  The rows file is removed after the size's last run."""
    from auditor.crosshand_audit import ROWS_FILE

    base = corpus_rows()
    for n in sizes:
        src = tmp / f"rows-{n}"
        src.mkdir()
        child_rows(src, base, n)
        for label, root in ([("before", before)] if before else []) + [("this", ROOT)]:
            d = tmp / f"{label}-{n}"
            d.mkdir()
            os.link(src / ROWS_FILE, d / ROWS_FILE)
            yield n, label, root, d
        (src / ROWS_FILE).unlink()


def ends(sizes: list[int], before: Path | None, every: float, json_out: str | None,
         finisher_before: bool = False) -> int:  # fmt: skip
    """``--ends N,N``: the end of a large audit alone, on the rows of N hands (as ``--child``
    makes them): this checkout's finisher (``python -m auditor.finish``, the process the audit
    replaces itself with) beside ``before``'s cross-hand child (``python -m auditor.crosshand_audit``,
    which its auditing process waited for), or with ``finisher_before`` its finisher too, in the
    same run: peak RSS (largest and tree), CPU."""
    from auditor.crosshand_audit import HANDS_PER_PARTITION, _child_env

    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-ends-") as tmp:
        for n, label, root, d in _rows_runs(sizes, before, Path(tmp)):
            env = {**_child_env(), "PYTHONPATH": str(root)}
            if label == "before" and not finisher_before:
                argv = [sys.executable, "-m", "auditor.crosshand_audit", str(d), str(n), str(HANDS_PER_PARTITION)]
                got = tree_run(argv, env, tmp, every)
            else:
                with open(Path(tmp) / f"report-{n}.json", "w", encoding="utf-8", newline="") as out:
                    _finisher_state(d, n, out)
                    os.set_inheritable(out.fileno(), True)
                    argv = [sys.executable, "-m", "auditor.finish", str(d)]
                    got = tree_run(argv, env, tmp, every, pass_fds=(out.fileno(),))
                report = json.loads((Path(tmp) / f"report-{n}.json").read_text("utf-8"))
                got["findings"] = len(report["findings"])
            kind = "child" if label == "before" and not finisher_before else "finisher"
            r = {"hands": n, "checkout": label, "process": kind, **got}
            _report(rows, r)
    _save(rows, json_out)
    return 0


def one_key_rows(directory: Path, base: list[dict[str, object]], n: int, tables: int) -> None:
    """The rows file of ``n`` hands all of one key (s12-bucket): ``base`` repeated with fresh hand
    ids and lines at one cash table (``tables`` 0), or at ``tables`` tables of one tournament."""

    def place(row: dict[str, object], rep: int, i: int) -> None:
        row["table"] = f"Big {i % tables}" if tables else "Big"
        row["tournament_id"] = "900000001" if tables else None
        row["flight"] = None

    write_rows(directory, base, n, place)


def one_key(sizes: list[int], tables: int, before: Path | None, every: float, json_out: str | None) -> int:
    """``--one-key N,N`` (s12-bucket): the cross-hand child (``python -m auditor.crosshand_audit``)
    on N hands of one cash table (or, with ``--tables T``, of one tournament on T tables), this
    checkout beside ``before``'s, alternating, in the same run: peak RSS, CPU, findings."""
    from auditor.crosshand_audit import FINDINGS_FILE, HANDS_PER_PARTITION, ROWS_FILE, _child_env
    from auditor.spillsort import load_all

    base = corpus_rows()
    rows: list[dict[str, object]] = []
    roots = ([("before", before)] if before else []) + [("this", ROOT)]
    with tempfile.TemporaryDirectory(prefix="bench-one-key-") as tmp:
        for n in sizes:
            src = Path(tmp) / f"rows-{n}"
            src.mkdir()
            one_key_rows(src, base, n, tables)
            for label, root in roots:
                d = Path(tmp) / f"{label}-{n}"
                d.mkdir()
                os.link(src / ROWS_FILE, d / ROWS_FILE)
                env = {**_child_env(), "PYTHONPATH": str(root)}
                argv = [sys.executable, "-m", "auditor.crosshand_audit", str(d), str(n), str(HANDS_PER_PARTITION)]
                got = tree_run(argv, env, tmp, every)
                found = 0
                digest = hashlib.sha256()  # the findings in their order: equal across checkouts
                if (d / FINDINGS_FILE).exists():
                    with open(d / FINDINGS_FILE, "rb") as f:
                        for part in load_all(f):
                            found += len(part)
                            digest.update(repr(part).encode())
                shutil.rmtree(d)
                _report(rows, {"hands": n, "tables": tables or 1, "checkout": label, **got, "findings": found,
                               "digest": digest.hexdigest()[:12]})  # fmt: skip
            shutil.rmtree(src)
    _save(rows, json_out)
    return 0


#: ``--buckets``: the cross-hand query's bucketing alone (``auditor.crosshand_audit.finding_parts``
#: on a rows file, as the finisher runs it), ``check_rows`` replaced by a recorder of each bucket's
#: size: the finisher's peak follows its largest bucket (~5 KiB a hand while ``check`` runs).
_BUCKETS_DRIVER = """
import json, sys, time
import polars as pl
import auditor.crosshand_audit as C
from auditor.continuity import FINDINGS

held = []
def check_rows(rows):
    held.append((len(rows), len({C.bucket_key(r) for r in rows})))
    return pl.DataFrame(schema=FINDINGS)
C.check_rows = check_rows
t = time.process_time()
for _ in C.finding_parts(C.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])):
    pass
top = max(held)
print(json.dumps({"buckets": len(held), "largest": top[0], "largest_tables": top[1],
                  "over_1_5x": sum(n > int(sys.argv[3]) * 3 // 2 for n, _ in held),
                  "hands": sum(n for n, _ in held), "cpu_s": round(time.process_time() - t, 1)}))
"""


def buckets(sizes: list[int], before: Path | None, json_out: str | None) -> int:
    """``--buckets N,N``: the buckets the cross-hand query checks on N hands' rows (as ``--child``
    makes them), for this checkout and ``before``'s: how many, the largest (hands, tables), how many
    over 1.5 times the partition size; no query is run (minutes at 10M hands, not ~23 CPU minutes)."""
    from auditor.crosshand_audit import HANDS_PER_PARTITION

    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-buckets-") as tmp:
        for n, label, root, d in _rows_runs(sizes, before, Path(tmp)):
            env = {**os.environ, "PYTHONPATH": str(root), "PYTHONSAFEPATH": "1"}
            got = run_driver(_BUCKETS_DRIVER, [str(d), str(n), str(HANDS_PER_PARTITION)], env=env, root=root)
            r = {"hands_run": n, "checkout": label, **got}
            _report(rows, r)
    _save(rows, json_out)
    return 0


#: ``--plan``: the bucket tree of ``sorted_finding_frames`` replayed on the rows' keys alone (a count
#: per table or tournament key), with the checkout's own ``bucket_key``, ``_salted``, ``MAX_BUCKETS``
#: and ``MAX_SPLITS``: the sizes of the buckets it would check, in seconds at 10M hands.  (The loop
#: below repeats ``sorted_finding_frames``' rule: a bucket over 1.5 times the partition size is split
#: again while ``salt <= MAX_SPLITS``, unless it holds one key; ``--buckets`` runs the real code.)
_PLAN_DRIVER = """
import json, sys, zlib
import auditor.crosshand_audit as C

counts = json.load(open(sys.argv[1]))  # [[site, tournament_id, table, hands], ...]
per_part = int(sys.argv[3])
items = [({"site": s, "tournament_id": t, "table": b}, n) for s, t, b, n in counts]
parts = min(-(-int(sys.argv[2]) // per_part), C.MAX_BUCKETS)
def split(items, which):
    out = {}
    for r, n in items:
        out.setdefault(which(r), []).append((r, n))
    return out
first = split(items, lambda r: zlib.crc32(C.bucket_key(r)) % parts)
todo, held = [(first[i], 1) for i in sorted(first)], []
while todo:
    its, salt = todo.pop()
    size = sum(n for _, n in its)
    if size > per_part * 3 // 2 and salt <= C.MAX_SPLITS:
        sub = split(its, C._salted(salt, -(-size // per_part)))
        if len(sub) > 1:  # (else checked whole)
            todo.extend((v, salt + 1) for v in sub.values())
            continue
    held.append((size, len({C.bucket_key(r) for r, _ in its})))
top = max(held)
print(json.dumps({"buckets": len(held), "largest": top[0], "largest_tables": top[1],
                  "over_1_5x": sum(n > per_part * 3 // 2 for n, _ in held), "hands": sum(n for n, _ in held)}))
"""


def plan(sizes: list[int], before: Path | None, json_out: str | None) -> int:
    """``--plan N,N``: :data:`_PLAN_DRIVER` on the keys of N hands' rows (as ``--child`` makes them),
    for this checkout and ``before``'s."""
    from collections import Counter

    from auditor.crosshand_audit import HANDS_PER_PARTITION

    base = [(r.get("site"), r.get("tournament_id"), r.get("table")) for r in corpus_rows()]
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-plan-") as tmp:
        for n in sizes:
            counts: Counter[tuple[object, ...]] = Counter()
            for i in range(n):  # (child_rows' keys)
                rep, j = divmod(i, len(base))
                site, tid, table = base[j]
                row: dict[str, object] = {"table": table, "tournament_id": tid}
                fresh_tables(row, rep, i)
                counts[(site, row["tournament_id"], row["table"])] += 1
            keys = Path(tmp) / "keys.json"
            keys.write_text(json.dumps([[*k, c] for k, c in counts.items()]))
            for label, root in ([("before", before)] if before else []) + [("this", ROOT)]:
                env = {**os.environ, "PYTHONPATH": str(root), "PYTHONSAFEPATH": "1"}
                got = run_driver(_PLAN_DRIVER, [str(keys), str(n), str(HANDS_PER_PARTITION)], env=env, root=root)
                r = {"hands_run": n, "checkout": label, **got}
                _report(rows, r)
    _save(rows, json_out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--huge-mb", type=int, default=400)
    ap.add_argument("--many-mb", type=int, default=45)
    ap.add_argument("--ipoker-mb", type=int, default=100)
    ap.add_argument("--scale", metavar="N,N", help="peak RSS of parse and audit by number of hands (issue 16)")
    ap.add_argument("--commands", default=",".join(SCALE_BOUNDS), help="with --scale: which commands (default all)")
    ap.add_argument("--same-tables", action="store_true",
                    help="with --scale: repeat the corpus at its own tables (chains grow with N)")  # fmt: skip
    ap.add_argument("--curve", type=int, metavar="N",
                    help="one run of N hands per output: RSS and peak by hands seen, the child's peak")  # fmt: skip
    ap.add_argument("--marks", default="10000,100000,1000000,10000000", help="with --curve: where to read RSS")
    ap.add_argument("--outputs", default=",".join(CURVE_OUTPUTS), help="with --curve: json,text,sarif,html")
    ap.add_argument("--keep-input", metavar="FILE", help="with --curve: generate the input here (reused if present)")
    ap.add_argument("--root", metavar="DIR", help="with --curve: run the auditor package of this checkout")
    ap.add_argument("--store", type=int, metavar="N", help="the duplicate-id store alone for N hands (--marks)")
    ap.add_argument("--child", metavar="N,N", help="the cross-hand child process alone on the rows of N hands")
    ap.add_argument("--phases", type=int, metavar="N", help="the cross-hand child's peak by phase on N hands' rows")
    ap.add_argument("--tree", metavar="N,N",
                    help="the process tree's peak, largest process and CPU of --commands (audit,parse) by N hands, "
                         "this checkout beside --before's in the same run")  # fmt: skip
    ap.add_argument("--before", metavar="DIR", help="with --tree, --ends, --buckets: an earlier checkout, run beside")
    ap.add_argument("--every", type=float, default=0.1, help="with --tree: seconds between samples of the tree")
    ap.add_argument("--inputs", metavar="PATTERN", help="with --tree: keep the inputs at PATTERN ({n}: hands)")
    ap.add_argument("--ends", metavar="N,N",
                    help="the end of a large audit alone on N hands' rows: this checkout's finisher beside "
                         "--before's cross-hand child")  # fmt: skip
    ap.add_argument("--finisher-before", action="store_true",
                    help="with --ends: run --before's finisher too, not its cross-hand child (s12-bucket)")  # fmt: skip
    ap.add_argument("--buckets", metavar="N,N",
                    help="the buckets the cross-hand query checks on N hands' rows (no query run): the largest, "
                         "this checkout beside --before's")  # fmt: skip
    ap.add_argument("--plan", metavar="N,N",
                    help="the buckets the cross-hand query would check on N hands' rows, from their keys alone "
                         "(seconds at 10M), this checkout beside --before's")  # fmt: skip
    ap.add_argument("--one-key", metavar="N,N",
                    help="the cross-hand child on N hands of one cash table (or --tables T of one tournament), "
                         "this checkout beside --before's")  # fmt: skip
    ap.add_argument("--tables", type=int, default=0, help="with --one-key: the tournament's tables (0: a cash table)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    if args.one_key:
        sizes = [int(x) for x in args.one_key.split(",") if x.strip()]
        return one_key(sizes, args.tables, Path(args.before).resolve() if args.before else None, args.every, args.json)
    if args.plan:
        sizes = [int(x) for x in args.plan.split(",") if x.strip()]
        return plan(sizes, Path(args.before).resolve() if args.before else None, args.json)
    if args.buckets:
        sizes = [int(x) for x in args.buckets.split(",") if x.strip()]
        return buckets(sizes, Path(args.before).resolve() if args.before else None, args.json)
    if args.ends:
        sizes = [int(x) for x in args.ends.split(",") if x.strip()]
        before = Path(args.before).resolve() if args.before else None
        return ends(sizes, before, args.every, args.json, args.finisher_before)
    if args.tree:
        roots = ([("before", Path(args.before).resolve())] if args.before else []) + [("this", ROOT)]
        cmds = [c.strip() for c in (args.commands if args.commands != ",".join(SCALE_BOUNDS) else "audit").split(",")]
        sizes = [int(x) for x in args.tree.split(",") if x.strip()]
        return tree(sizes, roots, cmds, args.every, args.json, args.inputs)
    if args.store:
        return store(args.store, [int(x) for x in args.marks.split(",") if x.strip()], args.json)
    if args.phases:
        return phases(args.phases, args.json)
    if args.child:
        return child([int(x) for x in args.child.split(",") if x.strip()], args.json)
    if args.curve:
        marks = [int(x) for x in args.marks.split(",") if x.strip()]
        outs = [o.strip() for o in args.outputs.split(",") if o.strip()]
        root = Path(args.root).resolve() if args.root else ROOT
        return curve(args.curve, marks, outs, args.json, args.keep_input, root)
    if args.scale:
        cmds = [c.strip() for c in args.commands.split(",") if c.strip()]
        return scale([int(x) for x in args.scale.split(",") if x.strip()], args.json, cmds, args.same_tables)
    hh = [sys.executable, "-m", "auditor.cli"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        huge, many = d / "huge.txt", d / "many.txt"
        huge_hand(huge, args.huge_mb)
        n = many_hands(many, args.many_mb)
        xml = d / "session.xml"
        games = ipoker_session(xml, args.ipoker_mb)
        inputs = ((f"one hand of {args.huge_mb} MB", huge), (f"{n:,} hands with findings, {args.many_mb} MB", many),
                  (f"iPoker session, {games:,} games, {args.ipoker_mb} MB", xml))  # fmt: skip
        for label, src in inputs:
            for cmd, extra in (("audit", []), ("audit --html", ["--html", str(d / "report")])):
                mib, secs = peak([*hh, "audit", str(src), "--format", "json", "--fail-on", "none", "-o",
                                  str(d / "out.json"), "--quiet", *extra])  # fmt: skip
                rows.append({"input": label, "command": cmd, "peak_mib": round(mib, 1), "seconds": round(secs, 1),
                             "bound_mib": BOUNDS[cmd], "within": mib <= BOUNDS[cmd]})  # fmt: skip
    print(f"{'input':<40} {'command':<14} {'peak MiB':>9} {'bound':>6} {'s':>7}")
    for r in rows:
        mark = "ok" if r["within"] else "OVER"
        print(f"{r['input']:<40} {r['command']:<14} {r['peak_mib']:>9} {r['bound_mib']:>6} {r['seconds']:>7}  {mark}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0 if all(r["within"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
