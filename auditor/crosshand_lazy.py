"""The cross-hand stage of ``hhaudit audit`` without polars until a second hand (issue 16: start-up).

:class:`auditor.continuity.Collect` keeps the rows the T-rules compare and runs them with polars;
importing polars costs ~0.15 s, more than auditing a hand.  Every T-rule compares two hands of one
table (a stack, the button, the blinds *between two hands*), so a run of zero or one hand has no
cross-hand finding: :class:`FirstHandFirst` holds the first hand as it came and imports
:mod:`auditor.continuity` (and polars) only when a second hand arrives, then hands both to a real
``Collect``.  From the second hand on it is exactly ``Collect``
(``tests/test_startup.py`` checks a one-hand run gives what ``Collect`` gives).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from auditor.findings import Finding

if TYPE_CHECKING:
    from auditor.audit import Audited
    from auditor.continuity import Collect


class FirstHandFirst:
    """A :class:`~auditor.continuity.Collect` that starts one hand late (see the module)."""

    def __init__(self) -> None:
        self.first: tuple[Audited, list[Finding], list[str]] | None = None
        self.inner: Collect | None = None

    def add(self, a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
        if self.inner is None:
            if self.first is None:
                self.first = (a, list(findings), list(lines))
                return
            from auditor.continuity import Collect

            self.inner = Collect()
            self.inner.add(*self.first)
            self.first = None
        self.inner.add(a, findings, lines)

    def findings(self) -> list[Finding]:
        if self.inner is None:
            return []  # no hand, or one: no two hands to compare
        return self.inner.findings()
