"""eNet / People's Network: the corpus folder read in full, and violations injected into real
hands of the network caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files counts the
"Game #N: <game> (<stakes>) - <time> <day.month.year>" header lines.
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

FOLDER = "enet-peoplesnetwork"
SITE = "enet"
HEADER = re.compile(r"^Game #\d+: [^\n]+ - \d{1,2}:\d\d:\d\d \d{1,2}\.\d{1,2}\.\d{4}", re.M)


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    r = every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 6, all_seen=True, all_parsed=True)
    # every finding is a rule's (the broken files' are listed in tests/corpus_expected/), none a parse one
    assert [f for f in r.findings if f.code.startswith("P")] == []


def test_card() -> None:
    fmt = REGISTRY[SITE]
    assert fmt.supported and not fmt.is_document
    assert fmt.facts.prints_total_pot is False  # "Total pot €0 | Rake €0,67"
    assert "TDA" in (fmt.profile.title if fmt.profile else "")


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_cards_run_together_and_raises_as_chips_put_in() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    text = "\n".join(fixture("cash_plo_split_pot_2012"))
    (hand,) = [h for h in parse_text(text) if isinstance(h, M.Hand)]
    boards = [e for e in hand.events if isinstance(e, M.Board)]
    assert [b.cards for b in boards] == [("4s", "2d", "3h"), ("5h",), ("Qc",)]
    raises = [e for e in hand.events if isinstance(e, M.Action) and e.kind == "raise"]
    # "Player4: raises €0,65" after a €0,10 small blind makes €0,75; "Player5: raises €2" over a
    # €0,25 big blind makes €2,25
    assert [(r.player, r.to) for r in raises] == [("Player4", 75), ("Player5", 225)]
    assert hand.currency == "EUR" and hand.structure == "PL"


def test_collected_one_unit_more_is_a010() -> None:
    lines, _ = edit(fixture("cash_plo_showdown_2012"), "Player4: collected (€10,57) from pot",
                    "Player4: collected (€10,58) from pot")  # fmt: skip
    # reported where the summary's money claims are printed
    assert first(lines, "A010") == lines.index("Total pot €0 | Rake €0,67") + 1


def test_changed_uncalled_return_is_a001() -> None:
    # the river: Player4 bets €7,93 and Player5 calls; a printed return of part of a called bet
    lines = fixture("cash_plo_split_pot_2012")
    i = lines.index("Player5: calls €7,93")
    lines.insert(i + 1, "Uncalled bet (€1) returned to Player4")
    assert first(lines, "A001") == i + 2


def test_pot_to_the_losing_hand_is_a004() -> None:
    # Player4's straight (9-8 with the queen of diamonds' board) beats Player2, who mucks
    lines, n = edit(fixture("cash_plo_showdown_2012"), "Player4: collected (€10,57) from pot",
                    "Player2: collected (€10,57) from pot")  # fmt: skip
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_plo_showdown_2012"), "Player4: bets €3,37", "Player4: bets €337")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # a river of the jack of diamonds: Player4's shown [9dJd2dTd] then holds a card already dealt
    lines = [ln.replace("9c2cQd8sAc", "9c2cQd8sJd") for ln in fixture("cash_plo_showdown_2012")]
    assert first(lines, "H002") == lines.index("Player4: shows [9dJd2dTd] (Straight, Queens high)") + 1


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_plo_showdown_2012")
    i = lines.index("Hero: folds")
    assert lines[i + 1] == "Player1: folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # preflop: Player5 raises €2 over a €0,75 raise (to €2,25); a raise of €0,55 (to €0,80) is
    # €0,05 above the €0,75 and below the minimum raise to €1,25
    lines, n = edit(fixture("cash_plo_split_pot_2012"), "Player5: raises €2", "Player5: raises €0,55")
    assert first(lines, "B002") == n


def test_explain_an_enet_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_plo_split_pot_2012.txt"
    assert main(["explain", str(p), "--hand", "12056513"]) == 0
    out = capsys.readouterr().out
    assert "Player4" in out and "Player5" in out
