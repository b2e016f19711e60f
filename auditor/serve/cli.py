"""``hhaudit serve``: its arguments and start-up checks (the app is in :mod:`auditor.serve.app`)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from auditor.output.safe import visible


def add_parser(sub: Any) -> None:
    s = sub.add_parser(
        "serve",
        help="a local web app: dispute a hand (paste it), browse an audit store",
        description="Start a small web app on this computer: paste or drop a hand history and get its explanation "
        "and findings; with --store, browse and search a batch audit store. It listens on 127.0.0.1 only unless "
        "--host says otherwise, and then only with a token (see docs/serve.md).",
    )
    s.add_argument("--store", metavar="DIR", help="an audit store written by `hhaudit batch` to browse and search")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    s.add_argument("--token", metavar="TOKEN",
                   help="require this token on every request (or set HHAUDIT_SERVE_TOKEN); needed for any "
                   "address other than loopback")  # fmt: skip
    s.add_argument("--max-upload", default="2MB", metavar="SIZE",
                   help="largest paste or upload accepted (default 2MB; e.g. 500KB, 10MB)")  # fmt: skip
    s.add_argument("-q", "--quiet", action="store_true", help="no start-up line and no request log")


_SIZE = re.compile(r"^\s*(\d+)\s*(B|KB|KIB|MB|MIB)?\s*$", re.I)
_UNITS = {"": 1, "B": 1, "KB": 1000, "KIB": 1024, "MB": 1000**2, "MIB": 1024**2}


def parse_size(v: str) -> int:
    m = _SIZE.match(v)
    if not m:
        raise ValueError(f"--max-upload {v!r}: give a size such as 500KB or 2MB")
    n = int(m.group(1)) * _UNITS[(m.group(2) or "").upper()]
    if not 1 <= n <= 1024**3:
        raise ValueError("--max-upload must be between 1 byte and 1 GiB")
    return n


def run(args: argparse.Namespace) -> int:
    from auditor.serve.app import Config, sample_files, serve
    from auditor.serve.browse import Store, StoreError
    from auditor.serve.security import TOKEN_ENV, BindError, check_bind, is_loopback

    def err(msg: str) -> int:
        print(f"hhaudit serve: {visible(msg)}", file=sys.stderr)
        return 2

    token = args.token or os.environ.get(TOKEN_ENV) or None
    try:
        check_bind(args.host, token)
        limit = parse_size(args.max_upload)
    except (BindError, ValueError) as e:
        return err(str(e))
    if args.store:
        try:
            Store(args.store)
        except StoreError as e:
            return err(str(e))
    cfg = Config(store=args.store, token=token, max_upload=limit, loopback_only=is_loopback(args.host),
                 samples=sample_files())  # fmt: skip
    try:
        serve(cfg, args.host, args.port, args.quiet)
    except KeyboardInterrupt:
        return 0
    except OSError as e:
        return err(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}")
    return 0
