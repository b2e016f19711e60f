"""Absolute Poker / UltimateBet: the corpus folder read in full, its findings named, and violations
injected into real Absolute hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"Stage #" header lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "absolute-ub"
SITE = "absolute"
HEADER = re.compile(r"^Stage #C?\d+", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix != ".hp")


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 101)


# ---------------------------------------------------------------- mutations of real Absolute hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_chip_more_is_a010() -> None:
    lines, _ = edit(fixture("tournament_nlhe_full_house_tens"), "EKDIKEO Collects 2,330 from main pot",
                    "EKDIKEO Collects 2,331 from main pot")  # fmt: skip
    assert first(lines, "A010") == lines.index("Total Pot(2,330)") + 1


def test_changed_uncalled_return_is_a001() -> None:
    lines, n = edit(fixture("cash_nlhe_ante_uncalled"), "KWOKMAN007 - returned ($1) : not called",
                    "KWOKMAN007 - returned ($0.50) : not called")  # fmt: skip
    assert first(lines, "A001") == n


def test_pot_to_the_losing_hand_is_a004() -> None:
    # EKDIKEO's tens full of kings beat 57MAVERICK's aces up (a ten printed "10s")
    lines, n = edit(fixture("tournament_nlhe_full_house_tens"), "EKDIKEO Collects 2,330 from main pot",
                    "57MAVERICK Collects 2,330 from main pot")  # fmt: skip
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("tournament_nlhe_full_house_tens"), "EKDIKEO - Bets 210", "EKDIKEO - Bets 2,100")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # EKDIKEO was dealt [10s Ks]: a river of Ks deals the king of spades twice
    lines, n = edit(fixture("tournament_nlhe_full_house_tens"), "*** RIVER *** [4d 10h 10d Kd] [2d]",
                    "*** RIVER *** [4d 10h 10d Kd] [Ks]")  # fmt: skip
    assert first(lines, "H002") == n


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("tournament_nlhe_full_house_tens")
    i = lines.index("ZALDIVAR - Folds")
    assert lines[i + 1] == "GREGORY37 - Folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # flop: EKDIKEO bets 210; a raise to 300 is below the minimum raise to 420
    lines, n = edit(fixture("tournament_nlhe_full_house_tens"), "57MAVERICK - Raises 420 to 420",
                    "57MAVERICK - Raises 300 to 300")  # fmt: skip
    assert first(lines, "B002") == n


def test_explain_an_absolute_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "tournament_nlhe_full_house_tens.txt"
    assert main(["explain", str(p), "--hand", "525720634"]) == 0
    out = capsys.readouterr().out
    assert "EKDIKEO" in out and "57MAVERICK" in out
