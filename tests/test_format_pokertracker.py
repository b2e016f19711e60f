"""PokerTracker conversions: the corpus folder read in full (iPoker, Merge, Everest and Microgaming
records PokerTracker 4 rewrote), each file said once to be a conversion (P009), and violations
injected into real converted hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
header lines of the five shapes the converter writes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.pipeline import Summary, iter_parsed
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "pokertracker-converted"
SITE = "pokertracker"
HEADER = re.compile(
    r"^(?:GAME #\d+|MERGE_GAME #[\d-]+:|Merge Game #\d+-\d+ \||EverestPoker Game #\d+:|\*\* (?:Game ID|Hand #) \d+)",
    re.M,
)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 520)


@pytest.mark.corpus
def test_each_converted_file_is_said_once_and_summaries_are_recognised() -> None:
    d = corpus_dir(FOLDER)
    found = [f for _h, fs in iter_parsed([str(d)], Summary()) for f in fs]
    p009 = [f.path for f in found if f.code == "P009"]
    assert len(p009) == len(set(p009))  # once per file
    hand_files = {p for p in d.rglob("*") if p.is_file() and HEADER.search(decoded(p))}
    assert {Path(p) for p in p009} == hand_files
    # the tournament summaries PokerTracker writes beside the hands are recognised: no P003
    assert not [f for f in found if f.code == "P003"]


# ---------------------------------------------------------------- mutations of real converted hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_cent_more_is_a010() -> None:
    # iPoker conversion, 2011: "Total pot $0.24 Rake $0.01", the winner gets $0.24
    lines, _n = edit(fixture("ipoker_2011_cash_showdown"), "Player2: wins $0.24", "Player2: wins $0.25")
    assert first(lines, "A010") == lines.index("Total pot $0.24 Rake $0.01") + 1


def test_changed_uncalled_return_is_a001() -> None:
    # Everest conversions print the return: $7.00 went back, not $6.00
    lines, n = edit(fixture("everest_cash"), "Uncalled bet of $7.00 returned to Player28",
                    "Uncalled bet of $6.00 returned to Player28")  # fmt: skip
    assert first(lines, "A001") == n


def test_silent_return_misprinted_in_the_share_is_a010() -> None:
    # "Uncalled:Y" conversions return the uncalled part silently: a share that keeps ken1950's
    # uncalled €0.14 is more than the pot
    lines, _ = edit(fixture("ipoker_uncalled_cash"), "ken1950: wins €0.45", "ken1950: wins €0.59")
    assert first(lines, "A010") == lines.index("Total pot €0.45 Rake €0.03") + 1


def test_pot_to_the_losing_hand_is_a004() -> None:
    lines, n = edit(fixture("ipoker_tournament_allin"), "Player27: wins $2,485.00", "Player67: wins $2,485.00")
    # one finding on the line that pays the losing hand, one (the winner paid nothing) on the pot line
    at = {f.line for f in audit_text(lines) if f.code == "A004"}
    assert at == {n, lines.index("Total pot $2,485.00 Rake $0.00") + 1}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("ipoker_uncalled_cash"), "ken1950: Bet €0.14", "ken1950: Bet €5.14")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # czarlando holds [SQ DQ] (suit first): a river of SQ deals the queen of spades twice
    lines, n = edit(fixture("ipoker_uncalled_cash"), "*** RIVER *** [SK]", "*** RIVER *** [SQ]")
    assert first(lines, "H002") == n


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("ipoker_uncalled_cash")
    i = lines.index("whigga1987: Fold")
    assert lines[i + 1] == "johnny20015: Raise (NF) €0.06"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # flop: ken1950 bets €0.02; a raise to €0.03 is below the minimum raise to €0.04
    lines, n = edit(fixture("ipoker_uncalled_cash"), "johnny20015: Raise (NF) €0.08", "johnny20015: Raise (NF) €0.03")
    assert first(lines, "B002") == n


def test_microgaming_conversion_raise_below_the_minimum_is_b002() -> None:
    # "Hero raised - 30.00" adds 30 to the small blind's 10 (to 40); adding 15 makes a raise to 25,
    # below the minimum raise to 40
    lines, n = edit(fixture("microgaming_stt"), "Hero raised - 30.00", "Hero raised - 15.00")
    assert first(lines, "B002") == n


def test_explain_a_converted_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "ipoker_uncalled_cash.txt"
    assert main(["explain", str(p), "--hand", "8162156892"]) == 0
    out = capsys.readouterr().out
    assert "ken1950" in out and "czarlando" in out
