"""``hhaudit convert`` and ``hhaudit anonymise``: write the hands of any supported format as PHH or
OHH (optionally anonymised).  Hands a format cannot hold are counted and named on stderr, never
dropped silently; the exit status is 1 when one was skipped or a file could not be read, else 0."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from auditor import model as M
from auditor.convert.anonymise import ENV_SECRET, Anonymiser
from auditor.convert.common import ConversionError

SUFFIX = {"phh": ".phhs", "ohh": ".ohh", "pokerstars": ".txt"}


def add_parsers(sub: Any) -> None:
    """Add ``convert`` and ``anonymise`` to an ``argparse`` subparsers object."""
    for name in ("convert", "anonymise"):
        c = sub.add_parser(
            name,
            help="write hands as PHH, Open Hand History or PokerStars text" if name == "convert"
            else "write hands with player names replaced by stable keyed pseudonyms",
            description="Read every hand of PATH... (any supported format) and write it as PHH (one .phhs file per "
            "input file), Open Hand History (.ohh) or PokerStars text (.txt, marked as a conversion) into DIR; "
            "docs/interchange.md says what each format carries and loses."
            + ("" if name == "convert" else " Names become HMAC pseudonyms keyed by --secret "
                                    f"(or ${ENV_SECRET}): the same player maps the same way across files."),
        )  # fmt: skip
        c.add_argument("paths", nargs="+", metavar="PATH", help="files or directories (recursive)")
        c.add_argument("--to", choices=("phh", "ohh", "pokerstars"), default="ohh" if name == "anonymise" else None,
                       required=name == "convert", help="target format")  # fmt: skip
        c.add_argument("--out", required=True, metavar="DIR", help="directory for the converted files")
        g = c.add_argument_group("anonymisation")
        if name == "convert":
            g.add_argument("--anonymise", action="store_true", help="replace player names by keyed pseudonyms")
        g.add_argument("--secret", metavar="TEXT", help=f"the pseudonym key (default: ${ENV_SECRET})")
        g.add_argument("--keep-hero", action="store_true", help="keep the hero's own name")
        g.add_argument("--mask-ids", action="store_true", help="mask hand and tournament ids")
        g.add_argument("--mask-tables", action="store_true", help="mask table names")


def run(args: argparse.Namespace) -> int:
    from auditor.pipeline import SourceError, Summary, iter_parsed

    anon = None
    if args.command == "anonymise" or getattr(args, "anonymise", False):
        secret = args.secret or os.environ.get(ENV_SECRET, "")
        if not secret:
            print(f"hhaudit: error: anonymising needs --secret or ${ENV_SECRET}", file=sys.stderr)
            return 2
        anon = Anonymiser(secret.encode(), args.keep_hero, args.mask_ids, args.mask_tables)
    if args.to == "phh":
        from auditor.convert.phh import dumps_all
    elif args.to == "pokerstars":
        from auditor.convert.pokerstars import dumps_all
    else:
        from auditor.convert.ohh import dumps_all
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    by_file: dict[str, list[M.Hand]] = {}
    skipped: Counter[str] = Counter()
    summary = Summary()
    try:
        for hand, _found in iter_parsed(args.paths, summary, rules=None):
            if hand is not None:
                by_file.setdefault(hand.path, []).append(anon.hand(hand) if anon else hand)
    except SourceError as e:
        print(f"hhaudit: error: {e}", file=sys.stderr)
        return 2
    written = 0
    for path, hands in by_file.items():
        ok = []
        for h in hands:
            try:
                dumps_all([h])
                ok.append(h)
            except ConversionError as e:
                skipped[str(e)] += 1
                print(f"{path}: hand {h.hand_id} not written: {e}", file=sys.stderr)
        if not ok:
            continue
        name = Path(path).name
        target = out / (name + SUFFIX[args.to])
        n = 1
        while target.exists():
            n += 1
            target = out / f"{name}.{n}{SUFFIX[args.to]}"
        target.write_text(dumps_all(ok), "utf-8")
        written += len(ok)
    failed = summary.hands_seen - sum(len(v) for v in by_file.values())
    print(f"{written} hand(s) written to {out} as {args.to}; {sum(skipped.values())} not convertible; "
          f"{failed} not read", file=sys.stderr)  # fmt: skip
    return 1 if skipped or failed else 0
