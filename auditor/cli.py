"""The ``hhaudit`` command.

Exit status: 0 when no finding reaches ``--fail-on``, 1 when one does, 2 on a usage or I/O error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from auditor import __version__
from auditor import findings as F
from auditor import rules as _rules  # noqa: F401  (registers the rule catalogue)
from auditor.findings import RULES, Severity
from auditor.pipeline import SourceError, Summary, iter_parsed
from auditor.profiles import PROFILES


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hhaudit", description="Parse and audit poker hand histories.")
    p.add_argument("--version", action="version", version=f"hhaudit {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    a = sub.add_parser("audit", help="audit hand histories and report findings")
    a.add_argument("paths", nargs="+", metavar="PATH", help="files, directories (recursive) or - for stdin")
    a.add_argument("--format", default="text", help="text (default), json, jsonl, sarif or csv")
    a.add_argument(
        "--rules",
        default="",
        metavar="PROFILE",
        help="rule profile: " + ", ".join(PROFILES) + " (default: each hand's site profile)",
    )
    a.add_argument("--select", help="only these codes (comma-separated prefixes, e.g. P,B001)")
    a.add_argument("--ignore", help="skip these codes (comma-separated prefixes)")
    a.add_argument(
        "--fail-on",
        default="error",
        help="exit 1 when a finding has this severity or worse: info, warning, error (default) or none",
    )
    a.add_argument(
        "--baseline",
        metavar="FILE",
        help="accept the findings of an earlier --format json/jsonl report (keyed by site, hand, code)",
    )
    a.add_argument("-o", "--output", help="write the report to this file instead of standard output")
    a.add_argument("--html", metavar="DIR", help="also write an HTML report (works offline) into DIR")

    pr = sub.add_parser("parse", help="write the canonical event log as tables")
    pr.add_argument("paths", nargs="+", metavar="PATH")
    pr.add_argument("--to", choices=("jsonl", "parquet"), default="parquet")
    pr.add_argument("--out", required=True, metavar="DIR", help="directory for hands/seats/events tables")

    x = sub.add_parser("explain", help="explain one hand pot by pot: contributions, layers, awards, findings")
    x.add_argument("path", metavar="PATH", help="a file (or directory, or - for stdin) holding the hand")
    x.add_argument("--hand", required=True, metavar="ID", help="the hand id, as printed (with or without #)")
    x.add_argument("--rules", default="", metavar="PROFILE", help="rule profile (default: the hand's site profile)")
    x.add_argument("--html", metavar="FILE", help="write a self-contained HTML page of the explanation to FILE")

    from auditor.batch import cli as batch_cli

    batch_cli.add_parsers(sub)  # batch SOURCE... --store DIR; report --store DIR --html OUT

    r = sub.add_parser("rules", help="list the rule catalogue, or show one rule's documentation")
    r.add_argument("code", nargs="?")
    return p


def cmd_audit(args: argparse.Namespace) -> int:
    from auditor.output import formatter

    try:
        fail_on = None if args.fail_on.lower() == "none" else Severity.parse(args.fail_on)
    except ValueError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        fmt = formatter(args.format, out)
    except ValueError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    if args.rules and args.rules not in PROFILES:
        print(f"hhaudit: unknown rule profile {args.rules!r}; choose from {', '.join(PROFILES)}", file=sys.stderr)
        return 2
    try:
        accepted = F.load_baseline(args.baseline) if args.baseline else set()
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"hhaudit: cannot read baseline {args.baseline}: {e}", file=sys.stderr)
        return 2
    summary = Summary()
    sel = F.selector(args.select, args.ignore)

    def keep(f: F.Finding) -> bool:
        if not sel(f.code):
            return False
        if accepted and F.baseline_key(f) in accepted:
            summary.baselined += 1
            return False
        return True

    collector = None
    if args.html:
        from auditor.report.views import Collector

        collector = Collector()
    worst = 0
    try:
        for hand, fs in iter_parsed(args.paths, summary, keep, args.rules,
                                    on_hand=collector.on_hand if collector else None):  # fmt: skip
            for f in fs:
                fmt.write(f)
                worst = max(worst, int(f.severity))
                if collector is not None and hand is None and f.line is not None and f.code in ("P003", "P004"):
                    collector.on_loose(f)
    except SourceError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    fmt.close(summary)
    if out is not sys.stdout:
        out.close()
    if collector is not None:
        from auditor.report.views import write_report

        index = write_report(args.html, summary, collector, args.rules)
        print(f"hhaudit: HTML report written to {index}", file=sys.stderr)
    return 1 if fail_on is not None and worst >= int(fail_on) else 0


def cmd_parse(args: argparse.Namespace) -> int:
    from auditor.tables import write_tables

    summary = Summary()
    try:
        write_tables(iter_parsed(args.paths, summary, rules=None), args.out, args.to)
    except SourceError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    s = summary
    print(
        f"{s.hands_seen} hands seen, {s.hands_parsed} parsed, {s.hands_failed} failed; "
        f"tables written to {args.out} ({args.to})",
        file=sys.stderr,
    )
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from auditor.explain import explain_hand, render_text
    from auditor.ingest import Chunk
    from auditor.pipeline import iter_chunks
    from auditor.profiles import for_hand
    from auditor.rules import audit_hand
    from auditor.sites import parse_chunk

    if args.rules and args.rules not in PROFILES:
        print(f"hhaudit: unknown rule profile {args.rules!r}; choose from {', '.join(PROFILES)}", file=sys.stderr)
        return 2
    want = args.hand.lstrip("#")
    try:
        for item in iter_chunks([args.path], Summary()):
            if not isinstance(item, Chunk) or want not in item.lines[0]:
                continue
            hand, fs = parse_chunk(item)
            if hand is None:
                for f in fs:
                    print(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}")
                return 1
            if hand.hand_id != want:
                continue
            x = explain_hand(hand, for_hand(hand.site, args.rules or None), list(item.lines), fs)
            sys.stdout.write(render_text(x))
            if args.html:
                from auditor.report import write
                from auditor.report.views import explain_page

                _t, _p, found = audit_hand(hand, for_hand(hand.site, args.rules or None))
                write(Path(args.html), explain_page(hand, item, sorted([*fs, *found], key=lambda f: (f.line or 0)),
                                                    args.rules))  # fmt: skip
                print(f"hhaudit: explanation written to {args.html}", file=sys.stderr)
            return 1 if any(f.severity == "error" for f in x.findings) else 0
    except SourceError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    print(f"hhaudit: no hand {args.hand} in {args.path}", file=sys.stderr)
    return 2


def cmd_rules(args: argparse.Namespace) -> int:
    if args.code:
        r = RULES.get(args.code.upper())
        if r is None:
            print(f"hhaudit: no rule {args.code!r}; `hhaudit rules` lists them", file=sys.stderr)
            return 2
        print(f"{r.code} {r.name} ({r.severity})\n\n{r.doc}")
        return 0
    for r in sorted(RULES.values(), key=lambda r: r.code):
        print(f"{r.code}  {r.name:<24} {r.severity!s:<8} {r.summary}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "audit":
            return cmd_audit(args)
        if args.command == "parse":
            return cmd_parse(args)
        if args.command == "explain":
            return cmd_explain(args)
        if args.command in ("batch", "report"):
            from auditor.batch import cli as batch_cli

            return batch_cli.run(args)
        return cmd_rules(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
