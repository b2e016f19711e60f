"""Helpers shared by the per-format tests (tests/test_format_<name>.py): the parse rate of a corpus
folder against an independent count of hand headers, and audits of mutated fixture hands."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import Chunk, parse_chunk, parse_text
from auditor.ingest import expand_paths, open_source, read_stream
from auditor.pipeline import Summary, iter_parsed


@dataclass
class Rate:
    headers: int  # the independent count
    seen: int
    parsed: int
    failed: int
    failures: list[Finding]

    @property
    def rate(self) -> float:
        return self.parsed / self.seen if self.seen else 0.0


#: Findings that name a hand that could not be read at all.
HAND_FAILURES = frozenset({"P001", "P006"})


@dataclass
class FolderRead:
    """A corpus folder read in full (``iter_parsed``), with its independent hand count."""

    summary: Summary
    results: list[tuple[M.Hand | None, list[Finding]]]
    expected: int

    @property
    def findings(self) -> list[Finding]:
        return [f for _h, fs in self.results for f in fs]


def every_hand_is_seen_and_parsed(folder: str, site: str, count: Callable[[Path], int], at_least: int, *,
                                  all_seen: bool = False, all_parsed: bool = False,
                                  read: tuple[Summary, list[tuple[M.Hand | None, list[Finding]]]] | None = None,
                                  ) -> FolderRead:  # fmt: skip
    """The checks every per-format test makes of its corpus folder: the independent count
    (``count`` of the folder, at least ``at_least``) is the number of hands the registry gave
    ``site``; seen = parsed + failed; at least 99.5 % of the hands are read with no P002; every hand
    that failed is named by a P001/P006 finding with a line.  ``all_seen``: every hand of the
    folder is the site's; ``all_parsed``: every one was read.  ``read``: the folder already read
    (a module fixture's summary and results).  Returns what was read, for the test's own checks."""
    from tests.conftest import corpus_dir

    d = corpus_dir(folder)
    if read is None:
        summary = Summary()
        results = list(iter_parsed([str(d)], summary))
    else:
        summary, results = read
    expected = count(d)
    assert expected >= at_least
    assert summary.by_site[site] == expected
    if all_seen:
        assert summary.hands_seen == expected
    if all_parsed:
        assert summary.hands_parsed == expected
    assert summary.hands_seen == summary.hands_parsed + summary.hands_failed
    clean = sum(1 for h, fs in results if h is not None and h.site == site and not any(f.code == "P002" for f in fs))
    rate = clean / expected if expected else 1.0
    print(f"{folder}: {expected} hands, {summary.hands_parsed} parsed, {summary.hands_failed} failed, "
          f"{clean} with no P002 ({rate:.2%})")  # fmt: skip
    assert rate >= 0.995
    failed_named = sum(1 for h, fs in results if h is None and any(f.code in HAND_FAILURES and f.line for f in fs))
    assert failed_named == summary.hands_failed
    return FolderRead(summary, results, expected)


def decoded(path: Path) -> str:
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace")  # a truncated last byte (Full Tilt files)
    return raw.decode("utf-8", errors="replace").replace("\ufeff", "")


def parse_rate(folder: Path, header: re.Pattern[str]) -> Rate:
    """Hands seen, parsed and failed in ``folder``; ``header`` counts hand headers (at line starts)
    in the raw decoded files, independently of the registry's detection."""
    r = Rate(0, 0, 0, 0, [])
    for p in expand_paths([str(folder)]):
        r.headers += len(header.findall(decoded(Path(p))))
        stream, size = open_source(p)
        with stream:
            _, items = read_stream(stream, p, size)
            for item in items:
                if isinstance(item, Chunk):
                    r.seen += 1
                    hand, fs = parse_chunk(item)
                    if hand is None:
                        r.failed += 1
                        r.failures += [f for f in fs if f.code.startswith("P")]
                    else:
                        r.parsed += 1
    return r


def audit_text(text: str) -> list[Finding]:
    """Every finding of the hands in ``text`` (parse and rule findings)."""
    out: list[Finding] = []
    for item in parse_text(text, "mutant.txt"):
        if isinstance(item, M.Hand):
            out += audit_hand(item).findings
        else:
            out.append(item)
    return out


def codes_at(findings: list[Finding]) -> set[tuple[str, int | None]]:
    return {(f.code, f.line) for f in findings}


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the first line of ``text`` that contains ``needle``."""
    for i, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in the hand")


def site_fixture(site: str, name: str) -> list[str]:
    """The lines of ``fixtures/sites/<site>/<name>.txt``."""
    from tests.conftest import FIXTURES

    return (FIXTURES / "sites" / site / f"{name}.txt").read_text("utf-8").splitlines()


def edit(lines: list[str], old: str, new: str) -> tuple[list[str], int]:
    """Replace the one line equal to ``old``; returns the lines and the 1-based line number."""
    i = lines.index(old)
    out = list(lines)
    out[i] = new
    return out, i + 1


def first(lines: list[str], code: str) -> int | None:
    """The line of the first finding with ``code`` when the hand of ``lines`` is audited."""
    from tests.test_mutations import audit_text as audit_lines

    return next((f.line for f in audit_lines(lines) if f.code == code), None)


def parsed_hands(folder: Path) -> Iterator[M.Hand]:
    """Every hand of ``folder`` read as the CLI reads it (``iter_parsed``, not judged), cancelled
    hands and hands that could not be read left out."""
    for hand, _found in iter_parsed([str(folder)], Summary(), rules=None):
        if hand is not None and not hand.cancelled:
            yield hand
