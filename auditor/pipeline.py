"""The main job: read sources, parse every hand, collect findings, keep the counts honest.

``hands_seen`` counts hand headers found in the input; every one of them ends either as a parsed
:class:`~auditor.model.Hand` (``hands_parsed``) or as a P-finding that made it fail
(``hands_failed``), so ``hands_seen == hands_parsed + hands_failed`` always holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from auditor import findings as F
from auditor.audit import AuditRun, Result
from auditor.findings import Finding
from auditor.formats import Chunk
from auditor.ingest import FileInfo, expand_paths, open_source, read_stream
from auditor.model import Hand
from auditor.mypyc_shim import mypyc_attr

if TYPE_CHECKING:
    from auditor.crosshand_audit import FirstHandFirst


@mypyc_attr(native_class=False)  # (a native class cannot subclass OSError)
class SourceError(OSError):
    """A path named on the command line that cannot be read (exit status 2)."""


# (this module is compiled in the mypyc build: a native class that auditor.output.RunSummary subclasses)
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class Summary:
    files: int = 0
    hands_seen: int = 0
    hands_parsed: int = 0
    hands_failed: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    by_site: Counter[str] = field(default_factory=Counter)
    baselined: int = 0
    files_skipped: int = 0
    file_infos: list[FileInfo] = field(default_factory=list)

    @property
    def findings(self) -> int:
        return sum(self.by_code.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "files_skipped": self.files_skipped,
            "hands_seen": self.hands_seen,
            "hands_parsed": self.hands_parsed,
            "hands_failed": self.hands_failed,
            "findings": self.findings,
            "by_code": dict(sorted(self.by_code.items())),
            "by_site": dict(sorted(self.by_site.items())),
            "baselined": self.baselined,
        }

    def __getstate__(self) -> dict[str, Any]:
        """Every field, a subclass's too (:mod:`auditor.finish` pickles a ``RunSummary``): compiled,
        the default state of a native class would leave out the fields of an interpreted subclass."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)


def iter_chunks(paths: Iterable[str], summary: Summary) -> Iterator[Chunk | Finding]:
    """Every hand chunk and reading finding of every source, in order."""
    skipped: list[str] = []
    for path in expand_paths(paths, skipped):
        summary.files_skipped = len(skipped)
        try:
            stream, size = open_source(path)
        except OSError as e:
            raise SourceError(f"cannot read {path}: {e.strerror or e}") from e
        summary.files += 1
        try:
            info, items = read_stream(stream, path, size)
            summary.file_infos.append(info)
            yield from items
        finally:
            if path != "-":
                stream.close()
    summary.files_skipped = len(skipped)


def iter_parsed(
    paths: Iterable[str],
    summary: Summary,
    keep: Callable[[Finding], bool] = lambda f: True,
    rules: str | None = "",
    on_hand: Callable[[Result], None] | None = None,
    gaps: bool = False,
    crosshand: FirstHandFirst | None = None,
) -> Iterator[tuple[Hand | None, list[Finding]]]:
    """Read (and, unless ``rules`` is None, audit) every hand of ``paths`` with the one audit step.

    Yields (hand or None, kept findings), updating ``summary``.  ``rules`` names a rule profile; the
    empty string judges each hand by its format's house profile; None reads only.  ``on_hand`` is
    called with every hand's :class:`~auditor.audit.Result` (its chunk, the audited hand, and the
    kept findings) before the hand is yielded: the HTML report keeps the hands it shows.  When
    auditing, the cross-hand stage (T-codes, :mod:`auditor.continuity`) runs over every hand after
    the last one, and its findings come last, with no hand; ``gaps`` adds where a table's chain
    could not be followed (T001, reported only when selected).  ``crosshand`` is the stage's
    collector (default: a new :class:`~auditor.crosshand_audit.FirstHandFirst`).
    """
    from auditor.crosshand_audit import FirstHandFirst  # polars only from a second hand on

    if rules is not None and crosshand is None:
        crosshand = FirstHandFirst()
    run = AuditRun(rules=rules or None, audit=rules is not None, crosshand=crosshand if rules is not None else None)
    for item in iter_chunks(paths, summary):
        if isinstance(item, Finding):
            fs = [item] if keep(item) else []
            for f in fs:
                summary.by_code[f.code] += 1
            yield None, fs
            continue
        summary.hands_seen += 1
        summary.by_site[item.site] += 1
        r = run.process(item)
        if r.hand is None:
            summary.hands_failed += 1
        else:
            summary.hands_parsed += 1
        r.findings = [f for f in r.findings if keep(f)]
        for f in r.findings:
            summary.by_code[f.code] += 1
        if on_hand is not None:
            on_hand(r)
        yield r.hand, r.findings
    run.dups.seen.close()  # the duplicate-id store (its page cache, its file): not needed past the last hand
    if run.crosshand is not None:
        for fs in crosshand_batches(run.crosshand.findings(), summary, keep, gaps):
            yield None, fs


def crosshand_batches(found: Iterable[Finding], summary: Summary, keep: Callable[[Finding], bool],
                      gaps: bool) -> Iterator[list[Finding]]:  # fmt: skip
    """The cross-hand findings ``found`` that are reported (T001 only with ``gaps``, and what
    ``keep`` keeps), counted in ``summary``, a thousand at a time: their number grows with the run.
    (The end of :func:`iter_parsed`; also of a large ``hhaudit audit`` run's finisher, :mod:`auditor.finish`.)"""
    fs: list[Finding] = []
    for f in found:
        if (gaps or f.code != "T001") and keep(f):
            summary.by_code[f.code] += 1
            fs.append(f)
            if len(fs) >= 1_000:
                yield fs
                fs = []
    if fs:
        yield fs


def audit(
    paths: Iterable[str], select: str | None = None, ignore: str | None = None, rules: str | None = ""
) -> tuple[Summary, list[Finding]]:
    """Audit ``paths`` and return the summary and every finding (for small inputs and tests)."""
    summary = Summary()
    out: list[Finding] = []
    sel = F.selector(select, ignore)
    gaps = "T001" in F.selected_codes(select, ignore)
    for _hand, fs in iter_parsed(paths, summary, lambda f: sel(f.code), rules, gaps=gaps):
        out.extend(fs)
    return summary, out
