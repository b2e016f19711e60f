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
from auditor.findings import Severity, catalogue
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

    fm = sub.add_parser("formats", help="list the formats hhaudit reads (or recognises), or show one format's card")
    fm.add_argument("name", nargs="?")
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
    from auditor.audit import AuditRun
    from auditor.explain import explain_hand, render_text
    from auditor.formats import Chunk
    from auditor.formats.peg import quick_id
    from auditor.pipeline import iter_chunks

    if args.rules and args.rules not in PROFILES:
        print(f"hhaudit: unknown rule profile {args.rules!r}; choose from {', '.join(PROFILES)}", file=sys.stderr)
        return 2
    want = args.hand.lstrip("#")
    run = AuditRun(rules=args.rules or None)
    try:
        for item in iter_chunks([args.path], Summary()):
            if not isinstance(item, Chunk) or want not in (quick_id(line) for line in item.lines[:2]):
                continue
            r = run.process(item)
            if r.audited is None:
                for f in r.findings:
                    print(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}")
                return 1
            x = explain_hand(r.audited, r.findings)
            sys.stdout.write(render_text(x))
            if args.html:
                from auditor.report import write
                from auditor.report.views import explain_page

                write(Path(args.html), explain_page(r.audited, item, r.findings))
                print(f"hhaudit: explanation written to {args.html}", file=sys.stderr)
            return 1 if any(f.severity == "error" for f in x.findings) else 0
    except SourceError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    print(f"hhaudit: no hand {args.hand} in {args.path}", file=sys.stderr)
    return 2


def cmd_rules(args: argparse.Namespace) -> int:
    if args.code:
        r = catalogue().get(args.code.upper())
        if r is None:
            print(f"hhaudit: no rule {args.code!r}; `hhaudit rules` lists them", file=sys.stderr)
            return 2
        print(f"{r.code} {r.name} ({r.severity})\n\n{r.doc}")
        return 0
    for r in sorted(catalogue().values(), key=lambda r: r.code):
        print(f"{r.code}  {r.name:<24} {r.severity!s:<8} {r.summary}")
    return 0


def cmd_formats(args: argparse.Namespace) -> int:
    from auditor.formats import REGISTRY

    if args.name:
        fmt = REGISTRY.get(args.name)
        if fmt is None:
            print(f"hhaudit: no format {args.name!r}; `hhaudit formats` lists them", file=sys.stderr)
            return 2
        print(f"{fmt.name}: {fmt.title} ({fmt.status})\ncard: {fmt.card}")
        if fmt.supported:
            reader = fmt.reader_module or " + ".join(p.name for p in fmt.grammars)
            print(f"reader: {reader}\nhands start with: {fmt.header_pattern()}")
            print("export facts:")
            for k, v in fmt.facts.described().items():
                print(f"  {k} = {v}")
            for brand, facts in fmt.brands.items():
                changed = {k: v for k, v in facts.described().items() if v != fmt.facts.described()[k]}
                print(f"  brand {brand}: " + ", ".join(f"{k} = {v}" for k, v in changed.items()))
            print(f"house rules: {fmt.profile.name if fmt.profile else 'tda'}")
        if fmt.notes:
            print(fmt.notes)
        return 0
    rows = sorted(REGISTRY.formats.values(), key=lambda f: (not f.supported, f.name))
    width = max(len(f.name) for f in rows)
    for f in rows:
        what = "reads" if f.supported else "recognises"
        print(f"{f.name:<{width}}  {what:<10}  {f.title}")
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
        if args.command == "formats":
            return cmd_formats(args)
        if args.command in ("batch", "report"):
            from auditor.batch import cli as batch_cli

            return batch_cli.run(args)
        return cmd_rules(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
