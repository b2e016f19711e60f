"""Every rule has a bad and a good example hand (fixtures/rules/<CODE>/): the bad one yields the
code, the good one audits clean.  The HTML report's rule pages show them."""

from __future__ import annotations

import pytest

from auditor.findings import RULES
from auditor.pipeline import audit
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES / "rules"
EXEMPT: dict[str, str] = {
    "P008": "a source that cannot be read (a dangling link, a FIFO) is not a file a fixture can hold: "
    "tests/test_hostile_input.py builds them",
}


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_has_examples(code: str) -> None:
    if code in EXEMPT:
        pytest.skip(f"{code}: {EXEMPT[code]}")
    bad, good = EXAMPLES / code / "bad.txt", EXAMPLES / code / "good.txt"
    assert bad.is_file() and good.is_file()
    _s, found = audit([str(bad)])
    assert code in {f.code for f in found}
    _s, clean = audit([str(good)])
    assert clean == []
