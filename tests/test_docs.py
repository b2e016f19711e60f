"""The rule reference (docs/rules.md) is generated from the code: it must say what the code does."""

from __future__ import annotations

import importlib.util

from tests.conftest import ROOT


def test_rule_reference_is_current() -> None:
    spec = importlib.util.spec_from_file_location("make_rules_doc", ROOT / "scripts" / "make_rules_doc.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    committed = (ROOT / "docs" / "rules.md").read_text("utf-8")
    assert committed == mod.render(), "docs/rules.md is stale: run `python scripts/make_rules_doc.py`"


def test_no_module_cites_a_document_outside_the_repository() -> None:
    for p in [*(ROOT / "auditor").rglob("*.py"), ROOT / "README.md"]:
        assert "RULES.md" not in p.read_text("utf-8"), p
