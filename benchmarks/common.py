"""Shared helpers of the benchmarks: where the corpus is, loading its hands, timing.

Not part of the package and not collected by pytest.  A benchmark script imports this module as
``common`` (it sits beside the scripts; :func:`ensure_importable` is not needed when the script is
run as ``python benchmarks/<name>.py``, since Python puts the script's directory on ``sys.path``).

Loading is split from timing on purpose: :func:`load_sources` reads the raw bytes of every file
once (disk I/O is never timed), :func:`split_sources` decodes and splits them into
:class:`~auditor.ingest.Chunk` objects with :func:`auditor.ingest.read_stream`, and the scripts
time whatever they measure on those in-memory objects.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED_CORPUS = REPO.parent / "shared" / "corpus"


def default_corpus(site_dir: str = "pokerstars") -> Path:
    """``<repo>/../shared/corpus/<site_dir>``, resolved from this file's location (not the cwd)."""
    return SHARED_CORPUS / site_dir


# ---------------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class Source:
    """One corpus file held in memory."""

    path: str
    data: bytes


@dataclass
class Split:
    """The result of decoding and splitting every source."""

    chunks: list[Any]  # auditor.ingest.Chunk of the wanted site, in corpus order
    other_sites: Counter[str] = field(default_factory=Counter)  # chunks of other sites, skipped
    findings: Counter[str] = field(default_factory=Counter)  # reading findings by code (P003, P004)
    encodings: Counter[str] = field(default_factory=Counter)


def load_sources(corpus: Path | str) -> list[Source]:
    """Read every hand-history file under ``corpus`` into memory.

    Files are chosen exactly as the ``hhaudit`` CLI chooses them (:func:`auditor.ingest.expand_paths`:
    recursive, sorted, sidecars such as ``.hp``/``.json``/``.md`` skipped).
    """
    from auditor.ingest import expand_paths

    corpus = Path(corpus)
    if not corpus.is_dir():
        raise FileNotFoundError(f"corpus directory not found: {corpus}")
    out = []
    for p in expand_paths([str(corpus)]):
        with open(p, "rb") as f:
            out.append(Source(p, f.read()))
    return out


def split_sources(sources: Iterable[Source], site: str = "pokerstars") -> Split:
    """Decode and split every source with :func:`auditor.ingest.read_stream`; keep chunks of ``site``."""
    from auditor.findings import Finding
    from auditor.ingest import read_stream

    result = Split(chunks=[])
    for src in sources:
        info, items = read_stream(io.BytesIO(src.data), src.path, len(src.data))
        for item in items:
            if isinstance(item, Finding):
                result.findings[item.code] += 1
            elif item.site == site:
                result.chunks.append(item)
            else:
                result.other_sites[item.site] += 1
        result.encodings[info.encoding] += 1
    return result


def load_chunks(corpus: Path | str | None = None, site: str = "pokerstars") -> tuple[list[Source], Split]:
    """Convenience: :func:`load_sources` then :func:`split_sources` (nothing timed)."""
    sources = load_sources(corpus if corpus is not None else default_corpus(site))
    return sources, split_sources(sources, site)


# ---------------------------------------------------------------------------------- hand selection

# No-Limit Hold'em as PokerStars prints it in a header, including inside a mixed-game header
# ("8-Game (Hold'em No Limit, 10/20)"), but not 6+ (short deck) Hold'em.
_NLHE_RE = re.compile(r"(?<![+\w])Hold'em No Limit(?! Pre-Flop)")


def is_nlhe(header_line: str) -> bool:
    """True when a PokerStars-style header line announces a No-Limit Texas Hold'em hand."""
    return _NLHE_RE.search(header_line) is not None


# ---------------------------------------------------------------------------------- timing


@dataclass
class Timing:
    """Best-of-N wall time of one measured callable."""

    best: float
    runs: list[float]

    def rate(self, n: int) -> float:
        return n / self.best if self.best > 0 else float("inf")

    def as_dict(self, n: int | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {"best_s": self.best, "runs_s": self.runs}
        if n is not None:
            d["per_s"] = self.rate(n)
            d["us_per_item"] = 1e6 * self.best / n if n else None
        return d


def best_of(
    fn: Callable[[], Any],
    repeat: int = 3,
    warmup: int = 1,
    disable_gc: bool = True,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Call ``fn`` ``warmup`` times untimed, then ``repeat`` times timed with ``clock``
    (``time.perf_counter``; ``time.process_time`` counts this process's CPU time only, which is
    steadier on a machine shared with other work).

    Like :mod:`timeit`, the cyclic garbage collector is disabled during each timed call (after a
    full collection) unless ``disable_gc`` is False, so one run does not pay for another's garbage.
    """
    for _ in range(warmup):
        fn()
    runs: list[float] = []
    for _ in range(max(1, repeat)):
        gc.collect()
        was_enabled = gc.isenabled()
        if disable_gc:
            gc.disable()
        try:
            t0 = clock()
            fn()
            runs.append(clock() - t0)
        finally:
            if was_enabled:
                gc.enable()
    return Timing(min(runs), runs)


def environment() -> dict[str, Any]:
    """Versions and machine facts worth keeping next to a measured number."""
    from importlib.metadata import PackageNotFoundError, version

    def v(pkg: str) -> str | None:
        try:
            return version(pkg)
        except PackageNotFoundError:
            return None

    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "hhaudit": v("hhaudit"),
        "parsimonious": v("parsimonious"),
        "pokerkit": v("pokerkit"),
    }


def write_json(path: str | Path, data: Any) -> None:
    """Write a benchmark's result as indented JSON (``--json PATH``), making the folder."""
    import json

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=2, default=str), "utf-8")


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain fixed-width text table (first column left-aligned, the others right-aligned)."""
    cells = [[str(h) for h in headers]] + [[_fmt(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))

    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), sep, *(line(r) for r in cells[1:])])


def _fmt(c: Any) -> str:
    if c is None:
        return "-"
    if isinstance(c, float):
        if c != c:  # NaN
            return "-"
        if c >= 1000:
            return f"{c:,.0f}"
        if c >= 100:
            return f"{c:.0f}"
        if c >= 10:
            return f"{c:.1f}"
        return f"{c:.2f}"
    if isinstance(c, int):
        return f"{c:,}"
    return str(c)


def child_json(python: str, pythonpath: str | None, script: str | Path, args: Sequence[str]) -> dict[str, Any]:
    """Run ``script`` with ``args`` under ``python`` (``-P``, from ``/``; ``PYTHONPATH`` set to
    ``pythonpath`` when given: another checkout) and return the JSON object its last line prints:
    the benchmarks' child process for a side measured in its own interpreter."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    cmd = [python, "-P", str(Path(script).resolve()), *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def add_side_options(ap: Any) -> None:
    """The options of a benchmark that measures this checkout against another side, each in its own
    child process (:func:`child_json`): ``--rounds``, ``--previous``, ``--python`` and the hidden
    ``--child``."""
    ap.add_argument("--rounds", type=int, default=1, help="how many times each side is measured, interleaved")
    ap.add_argument("--previous", type=Path, help="another checkout, measured with PYTHONPATH=DIR")
    ap.add_argument("--python", help="another interpreter (its installed package), measured the same way")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)


def sides(args: Any) -> list[tuple[str, str, str | None]]:
    """The sides :func:`add_side_options` asked for, as (label, interpreter, PYTHONPATH): another
    interpreter, another checkout, then this interpreter's own package (an editable install: this
    checkout; a compiled venv: its wheel)."""
    out: list[tuple[str, str, str | None]] = [("this", sys.executable, None)]
    if args.previous is not None:
        out.insert(0, ("previous", sys.executable, str(args.previous.resolve())))
    if args.python:
        out.insert(0, ("other python", args.python, None))
    return out
