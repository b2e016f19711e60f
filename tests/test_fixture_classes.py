"""The hands of fixtures/exports/<site>/: one real hand (or a short session) for each class of export
that hhaudit once read as a false alarm (Boss Media's 2011 MTT, Microgaming's posted-to-play, Merge's
2012 header, heads-up beginning, a newcomer waiting for the big blind).  Each single hand parses to
the event log stored beside it (``<name>.golden.json``, rendered like tests/test_golden.py's, and
regenerated with ``pytest --update-golden``) with no finding; the sessions are read by the
cross-hand tests (tests/test_continuity.py)."""

from __future__ import annotations

from tests.conftest import FIXTURES

SITES = ("bossmedia", "merge", "microgaming")
CASES = sorted(
    p for s in SITES for p in (FIXTURES / "exports" / s).glob("*.txt") if p.with_suffix(".golden.json").exists()
)


def test_class_fixtures_exist() -> None:
    assert {p.parent.name for p in CASES} >= {"bossmedia", "merge", "microgaming"}


def test_class_sessions_parse_clean() -> None:
    from tests.format_helpers import audit_text

    sessions = [p for s in SITES for p in sorted((FIXTURES / "exports" / s).glob("*.txt")) if p not in CASES]
    assert len(sessions) >= 3
    for p in sessions:
        # (a P010 says what a record lacks: information, no alarm)
        assert [f for f in audit_text(p.read_text("utf-8")) if f.code[0] in "BSAHP" and f.code != "P010"] == [], p.name
