"""The end of ``hhaudit audit``: the findings that are reported, the exit status, the report's close
and, for a large run, the cross-hand query in the same process re-executed (issue 16).

:class:`End` is what the command keeps for the end of a run: the formatter (the report written so
far), the counts, which findings are kept (:class:`Keep`) and the worst severity reported.
:meth:`End.write` reports findings and :meth:`End.close` finishes the report and gives the exit
status, in the auditing process for every run small enough to check across hands there
(:data:`auditor.crosshand_audit.IN_PROCESS` hands).

A larger run's cross-hand query needs polars (~115 MiB at 100,000 hands), which the auditing
process never imports; it ran in a child process while the auditing process (~60-73 MiB) waited,
so the process tree held both.  Now the auditing process writes :class:`End` to the query's private
folder and **replaces itself** (``os.execve``, the same process id, standard output and ``-o``
file) with a fresh interpreter running :func:`main` here: it reads :class:`End` back, runs the
query in the process (:meth:`auditor.crosshand_audit.Deferred.in_process`), writes the findings and
the summary, removes the folder and exits with the run's status.  The tree's peak is then the larger
of the two, not their sum, and no process is added to any run.  What is handed over is the
formatter's state as it is (pickled; its output stream and CSV writers are named, not copied, and
re-attached by :class:`_Unpickler`), so the report is the same bytes as one written in one process.

The hand-over happens only when the command is the process (:func:`auditor.cli.main` called with no
arguments, as the ``hhaudit`` script and ``python -m auditor.cli`` call it), on POSIX, with no
``--html`` report (its collector stays in the auditing process); otherwise, or if ``execve`` fails,
the query runs in a child process as before (:meth:`~auditor.crosshand_audit.Deferred.in_child`).
"""

from __future__ import annotations

import csv
import io
import os
import pickle
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO

from auditor import findings as F
from auditor.findings import Finding, Severity

if TYPE_CHECKING:
    from auditor.crosshand_audit import Deferred
    from auditor.output import Formatter, Options, RunSummary
    from auditor.report.views import Collector

#: The state file the auditing process writes into the query's folder for :func:`main`.
STATE_FILE = "end.pickle"


@dataclass
class Keep:
    """Which findings ``hhaudit audit`` reports (``--select``/``--ignore``, per-file ignores, the
    baseline), counting the others (and the reported ones' severities and sites) in ``summary``."""

    summary: RunSummary
    codes: frozenset[str]
    per_file: list[tuple[str, frozenset[str]]]
    base: Path
    accepted: set[tuple[str | None, str | None, str]]

    def __call__(self, f: Finding) -> bool:
        from auditor.config import matches

        if f.code not in self.codes or any(
            f.code in c and matches(f.path, [g], self.base) for g, c in self.per_file
        ):  # fmt: skip
            self.summary.ignored += 1
            return False
        if self.accepted and F.baseline_key(f) in self.accepted:
            self.summary.baselined += 1
            return False
        self.summary.count(f)
        return True


@dataclass
class End:
    """What ``hhaudit audit`` needs after its last hand (see the module)."""

    fmt: Formatter
    opts: Options
    summary: RunSummary
    keep: Keep
    gaps: bool  # T001 selected
    fail_on: Severity | None
    exit_zero: bool
    quiet: bool
    out: TextIO
    worst: int = 0
    collector: Collector | None = None

    def write(self, fs: Iterable[Finding], in_hand: bool = False) -> None:
        """Report ``fs`` (kept already); ``in_hand``: they belong to a hand (the HTML report's page)."""
        for f in fs:
            self.fmt.write(f)
            self.worst = max(self.worst, int(f.severity))
            if self.collector is not None and not in_hand:  # every finding outside a hand page
                self.collector.on_loose(f)

    def crosshand(self, found: Iterable[Finding]) -> None:
        """Report the cross-hand findings ``found`` of a deferred query (as :func:`auditor.pipeline.iter_parsed`)."""
        from auditor.pipeline import crosshand_batches

        for fs in crosshand_batches(found, self.summary, self.keep, self.gaps):
            self.write(fs)

    def close(self) -> int:
        """Finish the report (its summary) and close the output file; the exit status (0 or 1)."""
        s = self.summary
        code = 1 if self.fail_on is not None and self.worst >= int(self.fail_on) and not self.exit_zero else 0
        self.opts.exit_code = code
        self.fmt.close(s)
        if self.out is not sys.stdout:
            self.out.close()
        if s.files and not s.hands_seen and not self.quiet:
            print(f"hhaudit: warning: no hand found in {s.files} file(s)", file=sys.stderr)
        return code


def can_hand_over(end: End) -> bool:
    """Whether this process may replace itself for the end of the run (see the module)."""
    if os.name != "posix" or not sys.executable or end.collector is not None:
        return False
    try:
        fd = end.out.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's stream)
        return False
    return end.out is not sys.stdout or fd == 1


def hand_over(end: End, query: Deferred) -> None:
    """Replace this process with :func:`main` on ``query``'s folder, ``end`` written there.
    Returns only when that cannot be done (then nothing has changed: run the query here)."""
    out = end.out
    stdout = out is sys.stdout
    state: dict[str, Any] = {
        "query": tuple(query),
        "out": 1 if stdout else out.fileno(),
        "stdout": stdout,
        "encoding": getattr(out, "encoding", "utf-8"),
        "errors": getattr(out, "errors", "strict"),
    }
    path = query.dir / STATE_FILE
    try:
        with open(path, "wb") as f:
            f.write(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
            _Pickler(f, out).dump(end)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        path.unlink(missing_ok=True)
        return
    from auditor.crosshand_audit import _child_env

    out.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    if not stdout:
        os.set_inheritable(out.fileno(), True)
    argv = [sys.executable, "-m", "auditor.finish", str(query.dir)]
    try:
        os.execve(sys.executable, argv, _child_env())
    except OSError:
        path.unlink(missing_ok=True)
        if not stdout:
            os.set_inheritable(out.fileno(), False)


#: CSV writers' dialect attributes, passed again to ``csv.writer`` on the other side.
_DIALECT = ("delimiter", "quotechar", "escapechar", "doublequote", "skipinitialspace", "lineterminator",
            "quoting", "strict")  # fmt: skip


class _Pickler(pickle.Pickler):
    """Pickles the output stream (and CSV writers on it) by name, not by value."""

    def __init__(self, file: IO[bytes], out: TextIO) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.out = out

    def persistent_id(self, obj: Any) -> Any:
        if obj is self.out:
            return ("out",)
        if isinstance(obj, io.IOBase) or obj is sys.stdout or obj is sys.stderr:
            raise pickle.PicklingError(f"a stream other than the output: {obj!r}")
        if type(obj).__name__ == "writer" and type(obj).__module__ == "_csv":
            return ("csv", {k: getattr(obj.dialect, k) for k in _DIALECT})
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: IO[bytes], out: TextIO) -> None:
        super().__init__(file)
        self.out = out

    def persistent_load(self, pid: Any) -> Any:
        if pid[0] == "out":
            return self.out
        if pid[0] == "csv":
            return csv.writer(self.out, **pid[1])
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def main(argv: list[str] | None = None) -> int:
    """``python -m auditor.finish DIR``: the end of a large ``hhaudit audit`` run (see the module)."""
    from auditor.crosshand_audit import Deferred

    directory = Path((sys.argv[1:] if argv is None else argv)[0])
    try:
        with open(directory / STATE_FILE, "rb") as f:
            state = pickle.load(f)
            if state["stdout"]:
                sys.stdout.reconfigure(encoding=state["encoding"], errors=state["errors"])  # type: ignore[union-attr]
                out: TextIO = sys.stdout
            else:  # (-o FILE: opened by _open_output, newline="")
                out = open(state["out"], "w", encoding=state["encoding"], errors=state["errors"], newline="")  # noqa: SIM115
            end: End = _Unpickler(f, out).load()
        query = Deferred(*state["query"])
        try:
            end.crosshand(query.in_process())
        finally:
            query.remove()
        return end.close()
    except BrokenPipeError:  # (as auditor.cli.main)
        return 0
    finally:
        import shutil

        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
