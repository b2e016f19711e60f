"""The ``hhaudit`` command.

Exit status: 0 when no finding reaches ``--fail-on``, 1 when one does, 2 on a usage or I/O error.

Why one module of ~440 lines: argument parsing and the small command functions sit together so
that ``--help`` and behaviour are read in one place; the work is in the modules they call.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from auditor import __version__
from auditor import findings as F
from auditor.config import ConfigError, Settings
from auditor.findings import Severity, catalogue
from auditor.profiles import PROFILES

# auditor.output and auditor.pipeline (the whole audit stack) are imported by the commands that use
# them: `hhaudit batch` starts its pool before it imports them (issue 16)


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line's parser; with ``command`` (the first argument, when it is a command)
    only the parser of that command (and of those its module adds with it) is built: the parse of
    its arguments is the same, and the other commands' parsers are not built nor their modules
    imported (start-up, issue 16; ``hhaudit batch`` starts its pool before the audit stack is imported)."""
    p = argparse.ArgumentParser(prog="hhaudit", description="Parse and audit poker hand histories.")
    p.add_argument("--version", action="version", version=f"hhaudit {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for names, add in _SUBCOMMANDS:
        if command is None or command in names:
            add(sub)
    return p


def _add_audit(sub: Any) -> None:
    """``hhaudit audit``."""
    from auditor.output import FORMATS

    a = sub.add_parser(
        "audit",
        help="audit hand histories and report findings",
        description="Parse, replay and check every hand of the files, directories (recursive) or standard "
        "input (-). Settings come from [tool.hhaudit] in pyproject.toml or hhaudit.toml (see `hhaudit config`); "
        "flags override them. Exit status: 0 no finding reaches --fail-on, 1 one does, 2 usage or I/O error "
        "(also: no hand-history file found).",
    )
    a.add_argument("paths", nargs="+", metavar="PATH", help="files, directories (recursive) or - for stdin")
    a.add_argument("--format", default="text", metavar="FORMAT", help="text (default), " + ", ".join(FORMATS[1:]))
    _add_settings(a)
    a.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (parent folders are created)")
    a.add_argument("--html", metavar="DIR", help="also write an HTML report (works offline) into DIR")
    _add_display(a, statistics=True)


def _add_parse(sub: Any) -> None:
    """``hhaudit parse``."""
    pr = sub.add_parser(
        "parse",
        help="write the canonical event log as tables",
        description="Write the hands, seats and events tables (and findings.jsonl) of the input; "
        "the columns are documented in docs/schema.md.",
    )
    pr.add_argument("paths", nargs="+", metavar="PATH", help="files, directories (recursive) or - for stdin")
    pr.add_argument("--to", choices=("jsonl", "parquet"), default="parquet", help="table format (default parquet)")
    pr.add_argument("--out", required=True, metavar="DIR", help="directory for hands/seats/events tables")
    pr.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        help="skip files under a directory that match (repeatable, or comma-separated)",
    )
    _add_display(pr, statistics=False)


def _add_explain(sub: Any) -> None:
    """``hhaudit explain``."""
    x = sub.add_parser("explain", help="explain one hand pot by pot: contributions, layers, awards, findings")
    x.add_argument("path", metavar="PATH", help="a file (or directory, or - for stdin) holding the hand")
    x.add_argument("--hand", required=True, metavar="ID", help="the hand id, as printed (with or without #)")
    x.add_argument("--rules", default="", metavar="PROFILE", help="rule profile (default: the hand's site profile)")
    x.add_argument("--html", metavar="FILE", help="write a self-contained HTML page of the explanation to FILE")


def _add_batch(sub: Any) -> None:
    """``hhaudit batch SOURCE... --store DIR`` and ``hhaudit report --store DIR --html OUT``."""
    from auditor.batch import cli as batch_cli

    batch_cli.add_parsers(sub)


def _add_serve(sub: Any) -> None:
    """``hhaudit serve [--store DIR]``: the local web app."""
    from auditor.serve import cli as serve_cli

    serve_cli.add_parser(sub)


def _add_convert(sub: Any) -> None:
    """``hhaudit convert PATH... --to phh|ohh --out DIR`` and ``hhaudit anonymise PATH... --out DIR``."""
    from auditor.convert import cli as convert_cli

    convert_cli.add_parsers(sub)


def _add_rules(sub: Any) -> None:
    """``hhaudit rules``."""
    r = sub.add_parser(
        "rules",
        help="list the rule catalogue, or show one rule's documentation",
        description="Without CODE: every rule's code, name, default severity and summary. With CODE (or a rule "
        "name): the rule's documentation — what it checks, why, an example.",
    )
    r.add_argument("code", nargs="?", help="a rule code or name (e.g. B001 or illegal-reraise)")


def _add_profiles(sub: Any) -> None:
    """``hhaudit profiles``."""
    pf = sub.add_parser(
        "profiles",
        help="list the rule profiles, or show what one profile decides",
        description="Without NAME: every rule profile and the options where it departs from the defaults. With "
        "NAME: every option of that profile and the rule-book citation each finding code prints.",
    )
    pf.add_argument("name", nargs="?", help="a profile name (e.g. tda)")


def _add_config(sub: Any) -> None:
    """``hhaudit config``."""
    c = sub.add_parser(
        "config",
        help="print the settings in force for audit, and where each came from",
        description="Print the settings `hhaudit audit` would use here: defaults, the configuration file "
        "found from the working directory up (.hhaudit.toml, hhaudit.toml, pyproject.toml [tool.hhaudit]), "
        "and the flags given.",
    )
    _add_settings(c)


def _add_formats(sub: Any) -> None:
    """``hhaudit formats``."""
    fm = sub.add_parser(
        "formats",
        help="list the formats hhaudit reads (or recognises), or show one format's card",
        description="Without NAME: every format of the registry. With NAME: its card — the reader, how its "
        "hands start, what its export prints and never prints, and its house rules.",
    )
    fm.add_argument("name", nargs="?", help="a format name (e.g. pokerstars)")


#: The commands in the order of the help, with what adds their parsers (a module's commands together).
_SUBCOMMANDS: tuple[tuple[tuple[str, ...], Callable[[Any], None]], ...] = (
    (("audit",), _add_audit),
    (("parse",), _add_parse),
    (("explain",), _add_explain),
    (("batch", "report"), _add_batch),
    (("serve",), _add_serve),
    (("convert", "anonymise"), _add_convert),
    (("rules",), _add_rules),
    (("profiles",), _add_profiles),
    (("config",), _add_config),
    (("formats",), _add_formats),
)
_COMMANDS = frozenset(name for names, _add in _SUBCOMMANDS for name in names)


def _add_settings(p: argparse.ArgumentParser) -> None:
    """The options that a configuration file can also set (None: not given on the command line)."""
    g = p.add_argument_group("settings (override the configuration file)")
    g.add_argument("--config", metavar="FILE", help="read settings from FILE instead of the one found")
    g.add_argument("--isolated", action="store_true", help="ignore configuration files")
    g.add_argument("--select", metavar="SEL", help="only these rules: codes, prefixes, names or ALL (e.g. B,S001)")
    g.add_argument("--extend-select", metavar="SEL", help="rules to add to the selection")
    g.add_argument("--ignore", metavar="SEL", help="rules to skip (an ignore wins over a select)")
    g.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        help="skip files under a directory that match (repeatable, or comma-separated)",
    )
    g.add_argument(
        "--rules",
        metavar="PROFILE",
        help="a rule profile (`hhaudit profiles` lists them; default: each format's house rules)",
    )
    g.add_argument(
        "--fail-on", metavar="SEVERITY", help="exit 1 when a finding is this bad: info, warning, error (default), none"
    )
    g.add_argument(
        "--baseline", metavar="FILE", help="accept the findings of an earlier json/jsonl report (site, hand, code)"
    )


def _add_display(p: argparse.ArgumentParser, statistics: bool) -> None:
    g = p.add_argument_group("display")
    if statistics:
        g.add_argument("--statistics", action="store_true", help="count findings by rule instead of listing them")
        g.add_argument("--exit-zero", action="store_true", help="exit 0 even when a finding reaches --fail-on")
        g.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour text output: auto (default: on a terminal, unless NO_COLOR is set)")  # fmt: skip
    quiet = "print findings only: no summary, notes or progress" if statistics else "no summary line, no progress"
    g.add_argument("-q", "--quiet", action="store_true", help=quiet)
    g.add_argument("--no-progress", action="store_true", help="no progress bar (it is drawn only on a terminal)")


def _settings(args: argparse.Namespace) -> Settings:
    """Defaults < configuration file < flags; raises ConfigError or SelectorError."""
    from auditor.config import resolve

    def split(v: str | None) -> list[str] | None:
        return None if v is None else [x.strip() for x in v.split(",") if x.strip()]

    excl = None if not args.exclude else [g for e in args.exclude for g in split(e) or []]
    flags = {"select": split(args.select), "extend-select": split(args.extend_select), "ignore": split(args.ignore),
             "exclude": excl, "rules": args.rules, "fail-on": args.fail_on, "baseline": args.baseline}  # fmt: skip
    st = resolve(flags, args.config, args.isolated)
    F.selected_codes(st["select"], st["ignore"], st["extend-select"])  # check every selector now
    for sels in st["per-file-ignores"].values():
        F.resolve_all(sels)
    return st


def _open_output(path: str | None) -> TextIO:
    """Standard output, or ``path`` opened for writing with its parent folders created; OSError."""
    if not path:
        return sys.stdout
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    return open(path, "w", encoding="utf-8", newline="")


def _err(msg: str) -> int:
    from auditor.output.safe import visible

    print(f"hhaudit: {visible(msg)}", file=sys.stderr)
    return 2


def cmd_audit(args: argparse.Namespace) -> int:
    from auditor.inputs import collect, progress
    from auditor.output import FORMATS, Options, RunSummary, color_wanted, formatter
    from auditor.output.safe import visible
    from auditor.pipeline import SourceError, iter_parsed

    try:
        st = _settings(args)
    except (ConfigError, ValueError) as e:
        return _err(str(e))
    try:
        fail_on = None if st["fail-on"].lower() == "none" else Severity.parse(st["fail-on"])
    except ValueError as e:
        return _err(str(e))
    if args.format not in FORMATS:
        return _err(f"unknown format {args.format!r}; choose from {', '.join(FORMATS)}")
    if args.statistics and args.format not in ("text", "json", "jsonl"):
        return _err("--statistics works with --format text, json or jsonl")
    rules_name = st["rules"]
    if rules_name and rules_name not in PROFILES:
        return _err(f"unknown rule profile {rules_name!r}; choose from {', '.join(PROFILES)}")
    baseline = st["baseline"]
    try:
        accepted = F.load_baseline(baseline) if baseline else set()
    except (OSError, ValueError, KeyError, TypeError) as e:
        return _err(f"cannot read baseline {baseline}: {e}")
    inputs = collect(args.paths, st["exclude"], st.base)
    if not inputs.files:
        where = ", ".join(args.paths)
        print(f"hhaudit: warning: no hand-history file found in {visible(where)}"
              + (f" ({inputs.excluded} excluded)" if inputs.excluded else ""), file=sys.stderr)  # fmt: skip
        return 2
    try:
        out = _open_output(args.output)
    except OSError as e:
        return _err(f"cannot write {args.output}: {e.strerror or e}")
    opts = Options(color=args.format == "text" and color_wanted(args.color, out), quiet=args.quiet,
                   statistics=args.statistics, argv=["hhaudit", *args.argv])  # fmt: skip
    fmt = formatter(args.format, out, opts)
    summary = RunSummary()
    codes = F.selected_codes(st["select"], st["ignore"], st["extend-select"])
    per_file = [(g, F.resolve_all(c)) for g, c in st["per-file-ignores"].items()]
    from auditor.crosshand_audit import FirstHandFirst
    from auditor.finish import End, Keep, can_hand_over, hand_over

    keep = Keep(summary, frozenset(codes), [(g, frozenset(c)) for g, c in per_file], st.base, accepted)
    collector = None
    if args.html:
        from auditor.report.views import Collector

        try:
            collector = Collector(args.html, inputs.files)
        except OSError as e:
            return _err(f"cannot write the HTML report to {args.html}: {e.strerror or e}")
    end = End(fmt, opts, summary, keep, "T001" in codes, fail_on, args.exit_zero, args.quiet, out,
              collector=collector)  # fmt: skip
    # a large run's cross-hand query is left to the end (see auditor/finish.py) when this process may hand over
    crosshand = FirstHandFirst(defer=getattr(args, "may_hand_over", False) and can_hand_over(end))
    items = iter_parsed(inputs.files, summary, keep, rules_name, on_hand=collector.on_hand if collector else None,
                        gaps=end.gaps, crosshand=crosshand)  # fmt: skip
    try:
        for hand, fs in progress(items, summary, len(inputs.files), enabled=not (args.quiet or args.no_progress)):
            end.write(fs, in_hand=hand is not None)
    except SourceError as e:
        return _err(str(e))
    summary.files_skipped, summary.excluded = inputs.skipped, inputs.excluded
    query = crosshand.deferred
    if query is not None:  # a large run: its cross-hand query runs where the auditing process is no more
        try:
            hand_over(end, query)  # (returns only when it could not replace this process)
            end.crosshand(query.in_child())
        finally:
            query.remove()
    code = end.close()
    if collector is not None:
        from auditor.report.filters import filter_notes
        from auditor.report.views import write_report

        try:
            index = write_report(args.html, summary, collector, rules_name, filter_notes(st, summary, baseline))
        except OSError as e:
            return _err(f"cannot write the HTML report to {args.html}: {e.strerror or e}")
        finally:
            collector.close()
        if not args.quiet:
            print(f"hhaudit: HTML report written to {index}", file=sys.stderr)
    return code


def cmd_parse(args: argparse.Namespace) -> int:
    from auditor.inputs import collect, progress
    from auditor.output.safe import visible
    from auditor.pipeline import SourceError, Summary, iter_parsed
    from auditor.tables import write_tables

    summary = Summary()
    excl = [g.strip() for e in args.exclude or [] for g in e.split(",") if g.strip()]
    inputs = collect(args.paths, excl, Path.cwd())
    if not inputs.files:
        print(f"hhaudit: warning: no hand-history file found in {visible(', '.join(args.paths))}", file=sys.stderr)
        return 2
    items = iter_parsed(inputs.files, summary, rules=None)
    try:
        write_tables(progress(items, summary, len(inputs.files), enabled=not (args.quiet or args.no_progress)),
                     args.out, args.to)  # fmt: skip
    except SourceError as e:
        return _err(str(e))
    except OSError as e:
        return _err(f"cannot write {args.out}: {e.strerror or e}")
    s = summary
    if not args.quiet:
        print(
            f"{s.hands_seen} hands seen, {s.hands_parsed} parsed, {s.hands_failed} failed; "
            f"tables written to {visible(args.out)} ({args.to})",
            file=sys.stderr,
        )
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from auditor.audit import AuditRun
    from auditor.explain import explain_hand, render_text
    from auditor.formats import Chunk
    from auditor.formats.peg import quick_id
    from auditor.pipeline import SourceError, Summary, iter_chunks

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

                try:
                    write(Path(args.html), explain_page(r.audited, item, r.findings))
                except OSError as e:
                    return _err(f"cannot write {args.html}: {e.strerror or e}")
                print(f"hhaudit: explanation written to {args.html}", file=sys.stderr)
            return 1 if any(f.severity == "error" for f in x.findings) else 0
    except SourceError as e:
        print(f"hhaudit: {e}", file=sys.stderr)
        return 2
    print(f"hhaudit: no hand {args.hand} in {args.path}", file=sys.stderr)
    return 2


def cmd_rules(args: argparse.Namespace) -> int:
    if args.code:
        known = catalogue()
        r = known.get(args.code.upper()) or next((x for x in known.values() if x.name == args.code.lower()), None)
        if r is None:
            near = F.suggest(args.code)
            hint = f"; did you mean {near}?" if near else ""
            return _err(f"no rule {args.code!r}{hint} (`hhaudit rules` lists them)")
        print(f"{r.code} {r.name} ({r.severity})\n\n{r.doc}")
        return 0
    rules = sorted(catalogue().values(), key=lambda r: r.code)
    width = max(len(r.name) for r in rules)
    for r in rules:
        print(f"{r.code}  {r.name:<{width}}  {r.severity!s:<7}  {r.summary}")
    return 0


def cmd_profiles(args: argparse.Namespace) -> int:
    from auditor.profiles_view import render_profile, render_table

    if args.name:
        p = PROFILES.get(args.name.lower())
        if p is None:
            import difflib

            near = difflib.get_close_matches(args.name.lower(), list(PROFILES), n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            return _err(f"no rule profile {args.name!r}{hint}; choose from {', '.join(PROFILES)}")
        sys.stdout.write(render_profile(p))
        return 0
    sys.stdout.write(render_table(list(PROFILES.values())))
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    from auditor.config import render

    try:
        st = _settings(args)
    except (ConfigError, ValueError) as e:
        return _err(str(e))
    sys.stdout.write(render(st))
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
            # the card's patterns of lines around the hands, when it sets them
            for key in ("lead_in", "preamble", "summary", "separator"):
                value = getattr(fmt, key, None)
                if value:
                    print(f"{key}: {value}")
            print("export facts:")
            for k, v in fmt.facts.described().items():
                print(f"  {k} = {v}")
            for brand, facts in fmt.brands.items():
                changed = {k: v for k, v in facts.described().items() if v != fmt.facts.described()[k]}
                print(f"  brand {brand}: " + ", ".join(f"{k} = {v}" for k, v in changed.items()))
            print(f"house rules: {fmt.profile.name if fmt.profile else 'tda'}")
        else:
            print(f"hands start with: {fmt.recognise}")
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
    """The ``hhaudit`` command; ``argv`` None: the process's own arguments (the command is the process)."""
    try:
        return _main(argv)
    finally:
        if argv is None:
            quick_exit()


def quick_exit() -> None:
    """Before the process ends (issue 16: start-up): the interpreter's exit runs the garbage collector
    over every object still alive (~10 ms after one hand, more in a large process) only to find the
    modules, the grammar and the caches, which the operating system frees anyway.  Every file the
    command wrote is closed by then, so the objects are frozen out of the collector's sight
    (``gc.freeze``); memory is released with the process, and nothing else changes: standard output
    and error are still flushed, ``atexit`` handlers and ``weakref.finalize`` callbacks still run.
    Only for a process that ends after the command (not for a caller of :func:`main`)."""
    import gc

    gc.freeze()


def _main(argv: Sequence[str] | None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    first = given[0] if given else None
    args = _parser(first if first in _COMMANDS else None).parse_args(given)
    args.argv = given
    # the command is this process (the hhaudit script): a large audit may replace it for its end
    args.may_hand_over = argv is None
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
        if args.command == "serve":
            from auditor.serve import cli as serve_cli

            return serve_cli.run(args)
        if args.command in ("convert", "anonymise"):
            from auditor.convert import cli as convert_cli

            return convert_cli.run(args)
        if args.command == "profiles":
            return cmd_profiles(args)
        if args.command == "config":
            return cmd_config(args)
        return cmd_rules(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
