"""PKR: the corpus folder read in full, its findings named, and violations injected into real PKR
hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"Starting Hand #" lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "pkr"
SITE = "pkr"
HEADER = re.compile(r"^Starting Hand #\d+", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 110)


# ---------------------------------------------------------------- mutations of real PKR hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_more_than_was_put_in_is_a010() -> None:
    # $0.72 was put in (Hero's uncalled $0.24 went back silently) and PKR's "Taking Rake of $0.04"
    # is read: the pot less the rake is $0.44; the money check reports at the rake line
    lines, _n = edit(fixture("cash_nlhe_showdown_rake"), "Hero wins $0.44", "Hero wins $0.80")
    assert first(lines, "A010") == lines.index("Taking Rake of $0.04 from pot 1") + 1


def test_a_return_printed_beyond_the_bet_is_a010() -> None:
    # PKR prints the return of a partly called bet ("Returning $5.25 to Hero uncalled"); a return of
    # more than Hero put in is caught by the money check (A001 is not run: bets nobody calls go
    # back without a line, so a missing return line is no finding)
    lines, _n = edit(fixture("cash_nlhe_lowercase_cards"), "Returning $5.25 to Hero uncalled",
                    "Returning $500.25 to Hero uncalled")  # fmt: skip
    assert first(lines, "A010") is not None


def test_pot_to_the_losing_hand_is_a004() -> None:
    # Player4's nines and fives beat Player0's sevens and fives
    lines, n = edit(fixture("tournament_nlhe_bounties"), "Player4 wins 880 with: Two Pairs: 9s, 5s",
                    "Player0 wins 880 with: Two Pairs: 9s, 5s")  # fmt: skip
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("tournament_nlhe_bounties"), "Player4 bets 220", "Player4 bets 22,000")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # Player4 shows [Q h][9 d]: a river of 9 d deals the nine of diamonds twice
    lines, _ = edit(fixture("tournament_nlhe_bounties"), "Dealing River [5 s]", "Dealing River [9 d]")
    assert first(lines, "H002") == lines.index("Player4 shows [Q h][9 d]") + 1


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("tournament_nlhe_bounties")
    i = lines.index("Player5 folds")
    assert lines[i + 1] == "Player6 folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # flop: Player4 bets 40; a raise to 60 is below the minimum raise to 80
    lines, n = edit(fixture("tournament_nlhe_bounties"), "Player0 raises to 120", "Player0 raises to 60")
    assert first(lines, "B002") == n


def test_a_call_is_read_as_the_street_total() -> None:
    # "Player3 calls 20" from the 10 small blind adds 10: a call printed as adding 20 would over-call
    from tests.format_helpers import audit_text as audit_hands

    text = "\n".join(fixture("tournament_nlhe_bounties")) + "\n"
    assert not [f for f in audit_hands(text) if f.code.startswith(("B", "S", "A"))]


def test_explain_a_pkr_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "tournament_nlhe_bounties.txt"
    assert main(["explain", str(p), "--hand", "1976740130"]) == 0
    out = capsys.readouterr().out
    assert "Player4" in out and "Player0" in out
