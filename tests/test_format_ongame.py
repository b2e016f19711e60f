"""OnGame: the corpus folder read in full, its findings named, and violations injected into real
OnGame hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"***** History for hand" lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES
from tests.format_helpers import edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_format_partypoker import decoded
from tests.test_mutations import audit_text

FOLDER = "ongame"
SITE = "ongame"
HEADER = re.compile(r"^\*{5} History for hand [A-Z]\d+-\d+-\d+", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    # the folder also holds one PartyPoker file (read by its own format)
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 280)


# ---------------------------------------------------------------- mutations of real OnGame hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_cent_more_is_a010() -> None:
    lines, _ = edit(fixture("cash_nlhe_eur_showdown"), "Main pot: €0.36 won by Hero (€0.35)",
                    "Main pot: €0.36 won by Hero (€0.36)")  # fmt: skip
    # A010 points at the pot claim (the rake line closes it)
    assert first(lines, "A010") == lines.index("Rake taken: €0.01") + 1


def test_silent_return_misprinted_in_the_pot_is_a003() -> None:
    # OnGame never prints the uncalled return: the pot it prints leaves it out.  A pot that keeps
    # Hero's uncalled 0.50 on the flop is caught.
    lines, _ = edit(fixture("cash_fl_holdem_allin_reprinted_flop"), "Main pot: 3.40 won by Hero (3.25)",
                    "Main pot: 3.90 won by Hero (3.75)")  # fmt: skip
    assert first(lines, "A003") == lines.index("Rake taken: $0.15") + 1


def test_pot_to_the_losing_hand_is_a004() -> None:
    lines, n = edit(fixture("tournament_nlhe_allin"), "Main pot: 3050 won by FOUINIBABY (3050)",
                    "Main pot: 3050 won by slbseia (3050)")  # fmt: skip
    assert first(lines, "A004") == n


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_nlhe_eur_showdown"), "Hero bets €0.10", "Hero bets €4.10")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    lines, n = edit(fixture("cash_nlhe_eur_showdown"), "--- Dealing river [Ts]", "--- Dealing river [Td]")
    assert first(lines, "H002") == n


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_nlhe_eur_showdown")
    i = lines.index("Player5 folds")
    assert lines[i + 1] == "Player7 folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # blinds 10/20: slbseia raises to 120; a raise to 30 is below the minimum raise to 40
    lines, n = edit(fixture("tournament_nlhe_allin"), "slbseia raises 120 to 120", "slbseia raises 30 to 30")
    assert first(lines, "B002") == n


def test_explain_an_ongame_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_nlhe_eur_showdown.txt"
    assert main(["explain", str(p), "--hand", "R5-22678800-36"]) == 0
    out = capsys.readouterr().out
    assert "Hero" in out and "Player8" in out
