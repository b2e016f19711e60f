"""Seals With Clubs: the corpus folder read in full, and violations injected into real Seals With
Clubs hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"Hand #N-N - date" header lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "sealswithclubs"
SITE = "sealswithclubs"
HEADER = re.compile(r"^Hand #\d+-\d+ - \d{4}-\d\d-\d\d", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed_with_no_finding() -> None:
    r = every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 7, all_parsed=True)
    assert r.findings == []


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_unit_more_is_a010() -> None:
    lines, _ = edit(fixture("cash_nlhe_post_both"), "Player4 wins Pot (6.83)", "Player4 wins Pot (6.84)")
    assert first(lines, "A010") == lines.index("Rake (0.17)") + 1


def test_changed_uncalled_return_is_a001() -> None:
    lines, n = edit(fixture("cash_nlhe_post_both"), "Player4 refunded 4", "Player4 refunded 3")
    assert first(lines, "A001") == n


def test_pot_to_the_losing_hand_is_a004() -> None:
    # Hero's pair of jacks (deuces and the jack kicker) beats Player0's ten kicker
    lines, n = edit(
        fixture("cash_lhe_showdown"), "Hero wins Pot (11.70) with a Pair", "Player0 wins Pot (11.70) with a Pair"
    )
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_nlhe_post_both"), "Player4 bets 4", "Player4 bets 400")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # Hero was dealt [6d Jc]: a turn of Jc deals the jack of clubs twice
    lines, n = edit(fixture("cash_nlhe_post_both"), "** Turn ** [2h]", "** Turn ** [Jc]")
    assert first(lines, "H002") == n


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_nlhe_post_both")
    i = lines.index("Player0 folds")
    assert lines[i + 1] == "Player1 folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # flop: Player4 bets 2; a raise to 3 is below the minimum raise to 4
    lines = fixture("cash_nlhe_post_both")
    i = lines.index("Player3 calls 2")
    lines[i] = "Player3 raises to 3"
    assert first(lines, "B002") == i + 1


def test_explain_a_seals_with_clubs_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_nlhe_side_pot.txt"
    assert main(["explain", str(p), "--hand", "5338590-82"]) == 0
    out = capsys.readouterr().out
    assert "Hero" in out and "Player2" in out
