"""The ``hhaudit batch`` and ``hhaudit report`` subcommands.

``auditor/cli.py`` wires them in with two calls::

    from auditor.batch import cli as batch_cli
    batch_cli.add_parsers(sub)                      # in _parser(), on the subparsers object
    if args.command in batch_cli.COMMANDS:          # in main()
        return batch_cli.run(args)

Exit status as for ``hhaudit audit``: 0 clean, 1 a finding at or above ``--fail-on``, 2 a usage
or I/O error (for ``batch``: also a file that could not be audited, recorded in the store).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from auditor.batch import DEFAULT_BATCH_SIZE
from auditor.findings import Severity

if TYPE_CHECKING:
    from auditor.batch.engines import Runner

COMMANDS = ("batch", "report")


def add_parsers(sub: Any) -> None:
    """Add ``batch`` and ``report`` to an ``argparse`` subparsers object (``add_subparsers()``)."""
    b = sub.add_parser(
        "batch",
        help="audit every hand-history file under the sources into a Parquet audit store (incremental, parallel)",
        description="Audit every hand-history file under SOURCE... into the audit store DIR. Files already "
        "audited with the same content, hhaudit version and rule profile are skipped; changed files are "
        "audited again and their old rows replaced. A killed run leaves a store the next run completes.",
    )
    b.add_argument("sources", nargs="+", metavar="SOURCE", help="files or directories (recursive)")
    b.add_argument("--store", required=True, metavar="DIR", help="the audit store (created if missing)")
    b.add_argument(
        "--rules",
        default="",
        metavar="PROFILE",
        help="a rule profile (`hhaudit profiles` lists them; default: each format's house rules)",
    )
    b.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (default 1: in-process)")
    b.add_argument("--engine", choices=("local", "dask"), default="local", help="local (default) or dask")
    b.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --engine dask: the scheduler address (tcp://host:8786), or 'local' to start a LocalCluster "
        "of --workers processes",
    )
    b.add_argument(
        "--fail-on",
        default="error",
        help="exit 1 when a file audited in this run has a finding of this severity or worse: info, warning, "
        "error (default) or none",
    )
    b.add_argument("--night", metavar="YYYY-MM-DD", help="the night partition to write (default: today, local time)")
    b.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        metavar="ROWS",
        help=f"rows per Parquet part: a larger file is written as several parts ({DEFAULT_BATCH_SIZE})",
    )
    b.add_argument(
        "--progress",
        choices=("auto", "bar", "log"),
        default="auto",
        help="a progress bar (on a terminal: the default) or log lines (otherwise)",
    )
    b.add_argument("--log-interval", type=float, default=30.0, metavar="S", help="seconds between log lines (30)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary; errors only")

    r = sub.add_parser("report", help="render the HTML report of an audit store: trends over nights")
    r.add_argument("--store", required=True, metavar="DIR", help="an audit store written by hhaudit batch")
    r.add_argument("--html", required=True, metavar="OUT", help="directory to write index.html (and static/) into")
    r.add_argument("--nights", type=int, default=14, metavar="N", help="nights shown in the trend tables (14)")
    r.add_argument("--top", type=int, default=20, metavar="N", help="rows of the most-flagged tables (20)")


def cmd_batch(args: argparse.Namespace) -> int:
    # before polars is imported here or in a worker: polars' allocator keeps freed pages for the
    # night's cross-hand pass (auditor/batch/allocator.py, docs/batch.md)
    from auditor.batch.allocator import keep_freed_pages

    keep_freed_pages()
    early = None
    if args.engine == "local" and args.workers > 1:
        # the pool's processes start now, while this process imports polars and reads the store
        from auditor.batch.engines import Pool

        early = Pool(args.workers)
    try:
        return _cmd_batch(args, early)
    finally:
        if early is not None:
            early.close()  # when the run did not use it (a usage error, a busy store)


def _cmd_batch(args: argparse.Namespace, early: Runner | None) -> int:
    from auditor.batch.runner import Options, run_batch

    try:
        fail_on = None if args.fail_on.lower() == "none" else Severity.parse(args.fail_on)
    except ValueError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    opts = Options(
        sources=args.sources,
        store=args.store,
        rules=args.rules,
        engine=args.engine,
        workers=args.workers,
        scheduler=args.scheduler,
        night=args.night,
        batch_size=args.batch_size,
        fail_on=fail_on,
        progress="none" if args.quiet else args.progress,
        log_interval=args.log_interval,
    )
    return run_batch(opts, runner=early)


def cmd_report(args: argparse.Namespace) -> int:
    from auditor.batch.report import ReportError, write_store_report

    try:
        index = write_store_report(args.store, args.html, nights=args.nights, top=args.top)
    except ReportError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    print(f"hhaudit: HTML report written to {index}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the subcommand ``args.command`` (``batch`` or ``report``); returns the exit status."""
    if args.command == "batch":
        return cmd_batch(args)
    if args.command == "report":
        return cmd_report(args)
    raise ValueError(f"not a batch command: {args.command!r}")


def main(argv: list[str] | None = None) -> int:
    """A stand-alone entry point (``python -m auditor.batch``) until ``auditor/cli.py`` wires these in."""
    from auditor import __version__

    p = argparse.ArgumentParser(prog="hhaudit", description="Batch audits into a Parquet audit store.")
    p.add_argument("--version", action="version", version=f"hhaudit {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    add_parsers(sub)
    try:
        return run(p.parse_args(argv))
    finally:
        if argv is None:  # the command is the process: its exit skips collecting the heap (auditor.cli.quick_exit)
            import gc

            gc.freeze()
