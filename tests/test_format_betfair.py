"""Betfair Poker: the corpus folder read in full, and violations injected into a real Betfair hand
caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"***** Betfair Poker Hand History for Game N *****" header lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.formats import REGISTRY
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "betfair"
SITE = "betfair"
NAME = "cash_plo_side_pot_2009"
HEADER = re.compile(r"^\*{5} Betfair Poker Hand History for Game \d+ \*{5}$", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed_with_no_finding() -> None:
    r = every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 1, all_seen=True, all_parsed=True)
    assert r.findings == []


def test_card_and_family() -> None:
    fmt = REGISTRY[SITE]
    assert fmt.supported and [g.stem for g in fmt.grammars] == ["_base", "888poker", "betfair"]
    assert fmt.facts.prints_uncalled is False and fmt.facts.prints_total_pot is False
    # an 888 hand is not read as Betfair's, nor Betfair's as 888's
    assert REGISTRY.detect("***** Betfair Poker Hand History for Game 1 *****") == "betfair"
    assert REGISTRY.detect("***** 888poker Hand History for Game 1 *****") == "888poker"


def fixture() -> list[str]:
    return site_fixture(SITE, NAME)


def test_fixture_hand_audits_clean_with_its_side_pot() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    assert audit_text(fixture()) == []
    (hand,) = [h for h in parse_text("\n".join(fixture())) if isinstance(h, M.Hand)]
    assert [(e.player, e.amount, e.pot) for e in hand.events if isinstance(e, M.Collect)] == [
        ("Player4", 626, "side-1"), ("Player4", 444, "main")]  # fmt: skip
    raises = [(e.player, e.to) for e in hand.events if isinstance(e, M.Action) and e.kind == "raise"]
    assert raises == [("Player2", 30), ("Hero", 100)]  # "raises to [$0.30]": the new total


def test_won_more_than_the_pot_is_a010() -> None:
    lines, _ = edit(fixture(), "Player4 wins $4.44 from main pot with a straight flush, Seven to Three",
                    "Player4 wins $5.45 from main pot with a straight flush, Seven to Three")  # fmt: skip
    # no total is printed: reported at the first award line
    first_award = lines.index("Player4 wins $6.26 from side pot #1 with a straight flush, Seven to Three") + 1
    assert first(lines, "A010") == first_award


def test_pot_to_the_losing_hand_is_a004() -> None:
    lines, n = edit(fixture(), "Player4 wins $6.26 from side pot #1 with a straight flush, Seven to Three",
                    "Player1 wins $6.26 from side pot #1 with four of a kind, Fours")  # fmt: skip
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture(), "Player4 bets [$0.10]", "Player4 bets [$10]")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # Hero holds the seven of clubs: a river of it deals it twice
    lines, n = edit(fixture(), "** Dealing River ** [ 4c ]", "** Dealing River ** [ 7c ]")
    assert first(lines, "H002") == n


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture()
    i = lines.index("Player5 folds")
    assert lines[i + 1] == "Player1 calls [$0.10]"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # Player2 raises to $0.30 over the $0.10 big blind; a raise to $0.15 is below the minimum $0.20
    lines, n = edit(fixture(), "Player2 raises to [$0.30]", "Player2 raises to [$0.15]")
    assert first(lines, "B002") == n


def test_explain_a_betfair_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / f"{NAME}.txt"
    assert main(["explain", str(p), "--hand", "100000000"]) == 0
    assert "side-1" in capsys.readouterr().out
