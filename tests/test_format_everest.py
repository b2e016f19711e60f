"""Everest Poker (XML): the corpus folder read in full, and violations injected into real Everest
hands caught with their code and line.

The hand count is independent of the reader: a plain regex over the raw files counts the
``<HAND time=".." id="..">`` elements.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "everest"
SITE = "everest"
HEADER = re.compile(r'^\s*<HAND time="\d+" id="\d+"', re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed_with_no_finding() -> None:
    r = every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 7, all_parsed=True)
    # the folder's one finding: a file kept empty (named "penalty"), which holds no text
    assert [(Path(f.path).name, f.code) for f in r.findings] == [("NLHE-USD-0.50-1.00-201203.penalty.txt", "P003")]


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_cent_more_is_a010() -> None:
    old = '  <WIN position="4" amount="17750" pot="0" potAmount="17750"/>'
    lines, n = edit(fixture("cash_plo_rake_tax"), old, old.replace('amount="17750"', 'amount="17751"'))
    assert first(lines, "A010") == n


def test_changed_uncalled_return_is_a001() -> None:
    lines, n = edit(fixture("cash_plo_rake_tax"), '  <PUSH position="4" amount="18000"/>',
                    '  <PUSH position="4" amount="17000"/>')  # fmt: skip
    assert first(lines, "A001") == n


def test_pot_to_the_losing_hand_is_a004() -> None:
    # board 10c 2d 2s Qh 7h: position 3's tens and deuces beat position 9's fives and deuces
    lines, n = edit(fixture("tournament_fl_showdown"), '  <WIN position="3" amount="35000" pot="0" potAmount="35000"/>',
                    '  <WIN position="9" amount="35000" pot="0" potAmount="35000"/>')  # fmt: skip
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_plo_rake_tax"), '  <BET position="4" amount="18000"/>',
                    '  <BET position="4" amount="45000"/>')  # fmt: skip
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # Hero holds 2c: a river of 2c deals it twice
    lines, n = edit(fixture("cash_plo_rake_tax"), "  <COMMUNITY>4c</COMMUNITY>", "  <COMMUNITY>2c</COMMUNITY>")
    assert first(lines, "H002") == n


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("tournament_fl_showdown")
    i = lines.index('  <FOLD position="0"/>')
    assert lines[i + 1] == '  <BET position="1" amount="4000"/>'
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # Hero's small blind of 5 € adds 12 €: a raise to 17 €, below the minimum raise to 20 €
    lines, n = edit(fixture("cash_plo_rake_tax"), '  <BET position="0" amount="2500"/>',
                    '  <BET position="0" amount="1200"/>')  # fmt: skip
    assert first(lines, "B002") == n


def test_explain_an_everest_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_plo_rake_tax.txt"
    assert main(["explain", str(p), "--hand", "6351562000"]) == 0
    out = capsys.readouterr().out
    assert "Hero" in out and "Villain" in out
