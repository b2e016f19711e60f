"""Cake / Revolution network: the corpus folder read in full, its findings named, and violations
injected into real Cake hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"Hand#" header lines (after any byte-order mark the files carry, read as text or not).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "cake-revolution"
SITE = "cake"
HEADER = re.compile(r"^[\u00ef\u00bb\u00bf\u00c3\u00c2\u00af]*Hand#[0-9A-F]{16} - ", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 48)


# ---------------------------------------------------------------- mutations of real Cake hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_more_than_the_pot_is_a010() -> None:
    # Cake prints no rake: the share is only known to be at most the pot ($79)
    lines, n = edit(fixture("cash_nlhe_showdown"), "Noot***7: wins $76 with Flush, Ace high",
                    "Noot***7: wins $80 with Flush, Ace high")  # fmt: skip
    assert first(lines, "A010") == n


def test_changed_uncalled_return_is_a001() -> None:
    lines, n = edit(fixture("cash_fl_holdem_comma_decimals"), "Player4: returns uncalled bet $6",
                    "Player4: returns uncalled bet $5")  # fmt: skip
    assert first(lines, "A001") == n


def test_pot_to_the_losing_hand_is_a004() -> None:
    # Player5's aces up beat Player4's pair: the main pot paid to Player4 is caught
    lines, n = edit(fixture("tournament_nlhe_allin_side_pot"), "Player5 wins 7,650 with Two Pairs Aces and Eights",
                    "Player4 wins 7,650 with Two Pairs Aces and Eights")  # fmt: skip
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_low_half_to_the_high_hand_is_a007() -> None:
    # hi-lo: Player0's aces win the high half, Hero's 8-5-4-3-2 the low half
    lines, n = edit(fixture("tournament_plo8_split"), "Hero wins low pot 327 with", "Player0 wins low pot 327 with")
    assert first(lines, "A007") == n - 1  # the first finding is on Player0's (now doubled) award line


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_nlhe_showdown"), "Noot***7: bets $24", "Noot***7: bets $240")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # Noot***7 shows [8s 7s]: a river of 8s deals the eight of spades twice
    lines, _ = edit(fixture("cash_nlhe_showdown"), "*** RIVER *** [2s]", "*** RIVER *** [8s]")
    # caught where the second eight of spades is shown
    assert first(lines, "H002") == lines.index("Noot***7: shows [8s 7s] (Flush, Ace high)") + 1


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_nlhe_showdown")
    i = lines.index("obla***9: folds")
    assert lines[i + 1] == "dirt***4: folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # flop: Noot***7 bets $2; a raise to $3 is below the minimum raise to $4
    lines, n = edit(fixture("cash_nlhe_showdown"), "soft***8: raises to $6", "soft***8: raises to $3")
    assert first(lines, "B002") == n


def test_explain_a_cake_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_nlhe_showdown.txt"
    assert main(["explain", str(p), "--hand", "2217011712000147"]) == 0
    out = capsys.readouterr().out
    assert "Noot***7" in out and "soft***8" in out
