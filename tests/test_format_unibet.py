"""Unibet: the corpus folder read in full, and violations injected into a real Unibet hand caught
with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"Game #N: Table .. - <sb>/<bb> - <game> - <time> <year/month/day>" header lines.
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

FOLDER = "unibet"
SITE = "unibet"
NAME = "cash_nlhe_allin_uncalled_2021"
HEADER = re.compile(r"^Game #\d+: Table .+ - [\d.,]+/[\d.,]+ - .+ - \d\d:\d\d:\d\d \d{4}/\d\d/\d\d$", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed_with_no_finding() -> None:
    r = every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 1, all_seen=True, all_parsed=True)
    assert r.findings == []


def test_card() -> None:
    fmt = REGISTRY[SITE]
    assert fmt.supported and fmt.facts.prints_uncalled is False


def fixture() -> list[str]:
    return site_fixture(SITE, NAME)


def test_fixture_hand_audits_clean_and_reads_the_uncalled_part_inside_the_win() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    assert audit_text(fixture()) == []
    (hand,) = [h for h in parse_text("\n".join(fixture())) if isinstance(h, M.Hand)]
    assert hand.currency == "EUR" and hand.button == 6 and hand.structure == "NL"
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, M.Collect)] == [("Hero", 110)]


def test_won_one_unit_more_is_a010() -> None:
    lines, _ = edit(fixture(), "Hero wins €1.10", "Hero wins €1.11")
    assert first(lines, "A010") == lines.index("Total pot €1.10 Rake €0") + 1


def test_pot_to_a_player_who_folded_is_a005_and_a004() -> None:
    # the hand ends without a showdown: the pot paid to a player who folded (A005 at the award),
    # and the winner not paid (A004 where the summary's money claims are printed)
    lines, n = edit(fixture(), "Hero wins €1.10", "Player1 wins €1.10")
    found = {(f.code, f.line) for f in audit_text(lines)}
    assert ("A005", n) in found
    assert ("A004", lines.index("Total pot €1.10 Rake €0") + 1) in found


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture(), "Hero raises €0.95 to €0.95, and is all-in", "Hero raises €9.50 to €9.50")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    lines = fixture()
    lines.insert(lines.index("*** Summary ***"), "Player1 shows [Ac Kd]")
    assert first(lines, "H002") == lines.index("Player1 shows [Ac Kd]") + 1


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture()
    i = lines.index("Player3 folds")
    assert lines[i + 1] == "Player4 folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # a raise to €0.15 over the €0.10 big blind is below the minimum raise to €0.20
    lines, n = edit(fixture(), "Player2 folds", "Player2 raises €0.15 to €0.15")
    assert first(lines, "B002") == n


def test_explain_a_unibet_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / f"{NAME}.txt"
    assert main(["explain", str(p), "--hand", "1463192545"]) == 0
    assert "Hero" in capsys.readouterr().out
