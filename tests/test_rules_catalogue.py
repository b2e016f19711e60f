"""Contract of the rule catalogue and the grammars: stable codes, documented rules, shared rule names."""

from __future__ import annotations

import re

import pytest

from auditor.findings import CODE_RE, catalogue
from auditor.formats import REGISTRY
from auditor.formats.peg import GROUPS_READ, REQUIRED_RULES
from auditor.profiles import PROFILES

RULES = catalogue()
TEXT_FORMATS = sorted(f.name for f in REGISTRY.supported() if not f.is_document)

ISSUE_CODES = [f"P00{i}" for i in range(1, 7)] + [f"B0{i:02d}" for i in range(1, 12)] + \
    ["S001", "S002", "S003", "H001", "H002", "H003"]  # fmt: skip


def test_every_code_the_issues_name_is_registered() -> None:
    assert set(ISSUE_CODES) <= set(RULES)


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_is_documented(code: str) -> None:
    r = RULES[code]
    assert CODE_RE.match(r.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name)
    assert len(r.doc.splitlines()) >= 3, "a rule's docstring says what, why, and gives an example"
    assert "Example" in r.doc


def test_names_are_unique() -> None:
    names = [r.name for r in RULES.values()]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_profiles_cite_a_rule_for_every_betting_code(profile: str) -> None:
    p = PROFILES[profile]
    for code in (c for c in RULES if c[0] in "BSH"):
        assert p.cite(code), f"{profile} has no citation for {code}"
    assert "2026" in PROFILES["tda"].cite("B001") and "47-A" in PROFILES["tda"].cite("B001")


@pytest.mark.parametrize("site", TEXT_FORMATS)
def test_grammar_defines_the_shared_rule_names(site: str) -> None:
    g = REGISTRY[site].peg
    for name in REQUIRED_RULES:
        assert name in g.grammar
    assert g.lines[-1].handler == "unknown", "the last line rule catches everything (P002)"


@pytest.mark.parametrize("site", TEXT_FORMATS)
def test_every_grammar_group_is_read(site: str) -> None:
    g = REGISTRY[site].peg.grammar
    groups = {n for name in g for n in getattr(getattr(g[name], "re", None), "groupindex", {})}
    assert groups <= GROUPS_READ, f"{site}: groups no handler reads: {sorted(groups - GROUPS_READ)}"
