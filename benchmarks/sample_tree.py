"""Sample a running process tree into a CSV: every process's resident set and CPU seconds, every N s.

For long batch runs (issue 16: the 10M-hand Dask run) that are started by hand and may outlive the
session that started them: attach to the run's top process by pid and write, every ``--every``
seconds, one row per live process of its tree and one ``tree`` row with the sums::

    time_utc, elapsed_s, pid, ppid, role, rss_mib, cpu_s, hands

* ``cpu_s``: the process's own user + system CPU seconds (``/proc/PID/stat``); on the ``tree`` row,
  the live processes' sum plus what the root has collected from children it waited for (a worker
  that was restarted and reaped still counts);
* ``role``: ``batch`` (the batch process, or the root: on ``--scheduler local`` it also runs the Dask scheduler and the
  nannies), ``worker`` (a spawned worker process), ``resource tracker``, or the start of the command
  line;
* ``hands``: the last ``hands`` figure printed by the batch's progress log (``--log``, the batch's
  standard error in log mode), so hands done over time can be read from the same file.

Standard library only (``/proc``, Linux); it stops when the root process ends, after writing a
last row.  Peak RSS per process is the max of its ``rss_mib`` column, of the tree the max of the
``tree`` rows.

    python benchmarks/sample_tree.py PID --out run.csv --log run.log --every 5 &
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime

_TICK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")
_HANDS = re.compile(r"progress: \S+ files\s+([\d,]+) hands")


def _stat(pid: int) -> tuple[int, float, float, int] | None:
    """(ppid, own CPU s, waited-for children's CPU s, RSS bytes) of ``pid``, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    # after the command name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14) ... rss(21)
    own = (int(fields[11]) + int(fields[12])) / _TICK
    children = (int(fields[13]) + int(fields[14])) / _TICK
    return int(fields[1]), own, children, int(fields[21]) * _PAGE


def role(pid: int, root: int) -> str:
    if pid == root:
        return "batch"
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return "?"
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "auditor.batch" in cmd or "hhaudit" in cmd:
        return "batch"
    if "spawn_main" in cmd or "forkserver" in cmd:
        return "worker"
    return cmd[:60]


def tree(root: int) -> dict[int, tuple[int, float, float, int]]:
    """Every live process of ``root``'s tree: pid -> :func:`_stat`."""
    stats: dict[int, tuple[int, float, float, int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            s = _stat(int(d))
            if s is not None:
                stats[int(d)] = s
    members = {root} if root in stats else set()
    grew = True
    while grew:
        grew = False
        for pid, s in stats.items():
            if s[0] in members and pid not in members:
                members.add(pid)
                grew = True
    return {p: stats[p] for p in members}


def last_hands(log: str | None, offset: int, hands: int) -> tuple[int, int]:
    """The last progress figure of ``log`` read from ``offset`` on: (new offset, hands)."""
    if not log:
        return offset, hands
    try:
        with open(log, "rb") as f:
            f.seek(offset)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return offset, hands
    cut = text.rfind("\n") + 1  # only whole lines
    for m in _HANDS.finditer(text[:cut]):
        hands = int(m.group(1).replace(",", ""))
    return offset + len(text[:cut].encode()), hands


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pid", type=int, help="the root process of the tree")
    ap.add_argument("--out", required=True, help="CSV written (appended to when it exists)")
    ap.add_argument("--log", help="the batch's progress log, for the hands column")
    ap.add_argument("--every", type=float, default=5.0, help="seconds between samples (5)")
    args = ap.parse_args(argv)
    new = not os.path.exists(args.out)
    roles: dict[int, str] = {}
    t0 = time.monotonic()
    offset, hands = 0, 0
    with open(args.out, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["time_utc", "elapsed_s", "pid", "ppid", "role", "rss_mib", "cpu_s", "hands"])
        while True:
            procs = tree(args.pid)
            offset, hands = last_hands(args.log, offset, hands)
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            el = f"{time.monotonic() - t0:.0f}"
            if not procs:
                break
            for pid, (ppid, own, _ch, rss) in sorted(procs.items()):
                if roles.get(pid, "batch") == "batch":  # a new process shows its parent's command line until exec
                    roles[pid] = role(pid, args.pid)
                w.writerow([now, el, pid, ppid, roles[pid], f"{rss / 2**20:.1f}", f"{own:.2f}", hands])
            cpu = sum(s[1] for s in procs.values()) + (procs[args.pid][2] if args.pid in procs else 0.0)
            rss_sum = sum(s[3] for s in procs.values())
            w.writerow([now, el, args.pid, "", "tree", f"{rss_sum / 2**20:.1f}", f"{cpu:.2f}", hands])
            f.flush()
            time.sleep(args.every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
