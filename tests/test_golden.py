"""Golden event logs: every fixture hand under fixtures/sites/<site>/ (and those of
fixtures/exports/<site>/ with a golden beside them: hands of particular cases that the
README's transcript of fixtures/sites leaves out) parses to
exactly the event log stored beside it (<name>.golden.json).  Regenerate with ``pytest --update-golden`` and review the
diff like code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.findings import Finding
from auditor.formats import parse_text
from auditor.model import Hand, as_dict
from tests.conftest import FIXTURES

CASES = sorted((FIXTURES / "sites").glob("*/*.txt"))
EXTRA = sorted(p for p in (FIXTURES / "exports").glob("*/*.txt") if p.with_suffix(".golden.json").exists())


def _one(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def render(path: Path) -> str:
    """Readable JSON: header facts one per line, then one line per seat, event and finding."""
    where = f"fixtures/{path.parent.parent.name}/{path.parent.name}/{path.name}"
    items = list(parse_text(path.read_text("utf-8"), path=where))
    out = ['{"hands": [']
    hands = [as_dict(h) for h in items if isinstance(h, Hand)]
    for i, h in enumerate(hands):
        seats, events = h.pop("seats"), h.pop("events")
        out.append(" {")
        out += [f"  {_one(k)}: {_one(v)}," for k, v in sorted(h.items())]
        out.append('  "seats": [')
        out.append(",\n".join(f"   {_one(s)}" for s in seats))  # type: ignore[attr-defined]
        out.append('  ],\n  "events": [')
        out.append(",\n".join(f"   {_one(e)}" for e in events))  # type: ignore[attr-defined]
        out.append("  ]")
        out.append(" }" + ("," if i < len(hands) - 1 else ""))
    findings = [f.as_dict() for f in items if isinstance(f, Finding)]
    out.append('], "findings": [')
    out.append(",\n".join(f" {_one(f)}" for f in findings))
    out.append("]}")
    return "\n".join(line for line in out if line) + "\n"


def test_fixture_count() -> None:
    sites = {p.parent.name for p in CASES}
    assert {"pokerstars", "ggpoker", "winamax"} <= sites
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", CASES + EXTRA, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
def test_golden(path: Path, update_golden: bool) -> None:
    golden = path.with_suffix(".golden.json")
    got = render(path)
    if update_golden or not golden.exists():
        golden.write_text(got, "utf-8")
        if not update_golden:
            pytest.fail(f"golden file {golden.name} was missing and has been written; review and commit it")
    assert got == golden.read_text("utf-8")
    data = json.loads(got)
    assert data["findings"] == [], "fixture hands are written to parse without findings"
    assert len(data["hands"]) == 1
