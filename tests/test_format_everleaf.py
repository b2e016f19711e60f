"""Everleaf Gaming network (Everleaf, Concord Gaming, Partouche Poker Gibraltar, Grand Poker): the
corpus folder read in full with no serious finding, and violations injected into real Everleaf
hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"***** Hand history for game #N *****" lines (and Partouche's French "Historique des Mains").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "everleaf"
SITE = "everleaf"
HEADER = re.compile(r"^\*+ (?:Hand history for game #|Historique des Mains pour la partie )\d+ \*+\s*$", re.M)


def decoded(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")  # euro signs as cp1252 bytes


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 233, all_seen=True)


@pytest.mark.corpus
def test_no_serious_finding_on_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    # every hand of the folder audits with no B/S/A/H finding (tests/corpus_expected/everleaf.tsv is empty)
    main(["audit", "--format", "json", str(corpus_dir(FOLDER))])
    out = capsys.readouterr().out
    serious = re.findall(r'"code": "([BSAH]\d{3})"', out)
    assert serious == []


# ---------------------------------------------------------------- mutations of real Everleaf hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_cent_more_than_the_pot_is_a010() -> None:
    # an unraked pot of $0.25 (the blinds and the called part of the raise)
    lines, n = edit(fixture("cash_nlhe_uncalled_raise"), "N0pr3s3n7 wins $ 0.25 USD from main pot",
                    "N0pr3s3n7 wins $ 0.26 USD from main pot")  # fmt: skip
    assert first(lines, "A010") == n


def test_uncalled_part_paid_as_winnings_is_a010() -> None:
    # Everleaf prints no uncalled return: the $0.25 uncalled part goes back silently.  A "wins"
    # line that also counts it ($0.50) pays more than the pot
    lines, n = edit(fixture("cash_nlhe_uncalled_raise"), "N0pr3s3n7 wins $ 0.25 USD from main pot",
                    "N0pr3s3n7 wins $ 0.50 USD from main pot")  # fmt: skip
    assert first(lines, "A010") == n


def test_pot_to_the_losing_hand_is_a004() -> None:
    # Player4's jacks and eights beat Player1's jacks and fours: the side pot paid to Player1 is caught
    award = " wins $ 1.81 USD from side pot with two pairs, jacks and"
    lines, n = edit(fixture("cash_nlhe_allin_side_pot"), "Player4" + award, "Player1" + award)
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_an_s_code() -> None:
    lines, n = edit(fixture("cash_nlhe_6max_showdown_new_player"), "Hero: bets [$ 0.40 USD]", "Hero: bets [$ 40 USD]")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # gabitzatoade shows [ 4s, 4d ]: a river of 4d deals the four of diamonds twice
    lines, _ = edit(fixture("cash_nlhe_6max_showdown_new_player"), "** Dealing River ** [ Qd ]",
                    "** Dealing River ** [ 4d ]")  # fmt: skip
    shown = lines.index("gabitzatoade shows [ 4s, 4d ] a full house, fours full of queens") + 1
    assert first(lines, "H002") == shown


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_nlhe_6max_showdown_new_player")
    i = lines.index("Coolcatcool folds")
    assert lines[i + 1] == "zlodeu123 folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # the big blind is $0.10: a raise to $0.15 is below the minimum raise to $0.20
    lines, n = edit(fixture("cash_nlhe_6max_showdown_new_player"), "Hero raises [$ 0.35 USD]",
                    "Hero raises [$ 0.15 USD]")  # fmt: skip
    assert first(lines, "B002") == n


def test_fixed_limit_raise_of_the_wrong_size_is_b009() -> None:
    # fixed limit with no structure printed ("300/600 Hold'em"): a raise must be one bet
    # (blinds 200/400: the first raise makes it 800, not 1,000)
    lines, n = edit(fixture("tournament_fl_holdem_side_pot"), "JAKEWOOD raises [ 800 Chips]",
                    "JAKEWOOD raises [ 1,000 Chips]")  # fmt: skip
    assert first(lines, "B009") == n


def test_stud_small_bet_raised_by_the_big_bet_over_an_open_pair_is_clean() -> None:
    # 4th street, EricBlade shows a pair of fours: his small bet raised by the big bet is allowed
    lines = fixture("cash_stud_2011_08_open_pair")
    assert "MOURINHO_ raises [€ 0.15 EURO]" in lines
    assert audit_text(lines) == []
    # with no open pair showing (fourth street 4h turned into 9h), the same raise is the wrong size
    mutated, _ = edit(lines, "Dealt to EricBlade [ 4h ].", "Dealt to EricBlade [ 9h ].")
    assert first(mutated, "B009") == mutated.index("MOURINHO_ raises [€ 0.15 EURO]") + 1


def test_explain_an_everleaf_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_nlhe_allin_side_pot.txt"
    assert main(["explain", str(p), "--hand", "190070009"]) == 0
    out = capsys.readouterr().out
    assert "Player4" in out and "side-1" in out
