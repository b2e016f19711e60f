"""Every rule has a bad and a good example hand (fixtures/rules/<CODE>/): the bad one yields the
code, the good one audits clean.  The HTML report's rule pages show them."""

from __future__ import annotations

import pytest

from auditor.findings import OPT_IN, RULES
from auditor.pipeline import audit
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES / "rules"
#: The cross-hand rules' examples are sessions of one table (scripts/make_continuity_fixtures.py).
SESSIONS = FIXTURES / "continuity"
EXEMPT: dict[str, str] = {
    "T004": "a top-up is flagged only under a profile without top-ups between hands (no format card has one): "
    "tests/test_continuity.py judges fixtures/continuity/T004 with it",
    "P008": "a source that cannot be read (a dangling link, a FIFO) is not a file a fixture can hold: "
    "tests/test_hostile_input.py builds them",
}


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_has_examples(code: str) -> None:
    if code in EXEMPT:
        pytest.skip(f"{code}: {EXEMPT[code]}")
    where = SESSIONS if code.startswith("T") else EXAMPLES
    bad, good = where / code / "bad.txt", where / code / "good.txt"
    assert bad.is_file() and good.is_file()
    _s, found = audit([str(bad)], select=code if code in OPT_IN else None)
    assert code in {f.code for f in found}
    _s, clean = audit([str(good)])
    assert clean == []
