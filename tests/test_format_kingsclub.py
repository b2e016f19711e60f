"""Kings Club: the corpus folder read in full, its serious findings exactly the listed real problems
of the record, and violations injected into real Kings Club hands caught with their code and line.

Kings Club deals flop, stud and draw games at mixed-game tables.  Games hhaudit cannot judge by
their rules (2-7 razz, drawmaha, badeucey, badacey, A-5 single draw, Big O) are still read and judged
on what does not depend on the game: table stakes and the conservation of chips.

The hand count is independent of the grammar: a plain regex counts the "#N: <structure> <game> -
<stakes>" header lines of the decoded files.
"""

from __future__ import annotations

import re

import pytest

from auditor import model as M
from auditor.cli import main
from auditor.formats import parse_text
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "kingsclub"
SITE = "kingsclub"
HEADER = re.compile(r"^#\d+: (?:No Limit|Pot Limit|Limit) .+ - [\d,.]+/[\d,.]+\s*$", re.M)


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    every_hand_is_seen_and_parsed(
        FOLDER,
        SITE,
        lambda d: sum(len(HEADER.findall(decoded(p))) for p in sorted(d.rglob("*.txt"))),
        33,
        all_seen=True,
    )


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


def hand_of(name: str) -> M.Hand:
    hands = [h for h in parse_text("\n".join(fixture(name)), f"{name}.txt") if isinstance(h, M.Hand)]
    assert len(hands) == 1
    return hands[0]


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


# ---------------------------------------------------------------- how the export is read


def test_game_names_that_look_like_razz_or_omaha_are_not_judged_as_them() -> None:
    assert hand_of("stud_27_razz").game == "other"  # 2-7 razz: stud to the deuce-to-seven low
    assert hand_of("draw_drawmaha_split").game == "other"  # a draw game with a board
    assert hand_of("stud_razz").game == "razz"


def test_stud_streets_are_one_street_later_than_their_markers() -> None:
    h = hand_of("stud_razz")
    streets = [e.street for e in h.events if isinstance(e, M.HoleCards)]
    assert streets == ["preflop", "preflop", "fourth", "fourth"]  # "*** 3RD STREET ***" deals the fourth card


def test_run_twice_boards() -> None:
    h = hand_of("cash_plo_run_twice_allin")
    boards = [(e.run, e.street, e.cards, e.board_before) for e in h.events if isinstance(e, M.Board)]
    flop = ("3h", "Qc", "4s")
    assert boards == [
        (1, "flop", flop, ()),
        (1, "turn", ("4c",), flop),  # printed only inside the river's cards
        (1, "river", ("Qh",), (*flop, "4c")),
        (2, "turn", ("Kh",), flop),  # "[- - - Kh]": the dashes are the first board's cards
        (2, "river", ("Ac",), (*flop, "Kh")),
    ]


def test_discards_printed_as_cards_count_as_discards() -> None:
    h = hand_of("draw_27_triple")
    hero = [(e.discarded, e.cards) for e in h.events if isinstance(e, M.Draw) and e.player == "Hero"]
    assert hero[0] == (2, ("3c", "6c"))


def test_returning_players_blind_carries_the_dead_small_blind() -> None:
    h = hand_of("draw_27_triple_returning_blind")
    posts = [(e.kind, e.amount) for e in h.events if isinstance(e, M.Post) and e.player == "Player1"]
    assert posts == [("ante", 1100), ("big_blind", 4400), ("dead_small_blind", 2200)]


# ---------------------------------------------------------------- mutations of real Kings Club hands


def test_collected_one_cent_more_is_a010() -> None:
    lines, n = edit(fixture("cash_nlhe_uncalled"), "Player0 wins pot (81.34)", "Player0 wins pot (81.35)")
    # reported on the hand's pot claim, the "Rake 1" line just above the award
    assert first(lines, "A010") == n - 1 and lines[n - 2] == "Rake 1"


def test_uncalled_part_paid_as_winnings_is_a010() -> None:
    # Kings Club prints no uncalled return: Player0's 41.17 goes back silently, outside the pot
    lines, n = edit(fixture("cash_nlhe_uncalled"), "Player0 wins pot (81.34)", "Player0 wins pot (122.51)")
    assert first(lines, "A010") == n - 1


def test_conservation_is_judged_in_a_game_not_judged_by_its_rules() -> None:
    lines, n = edit(fixture("stud_27_razz"), "Player0 wins pot (424.80)", "Player0 wins pot (425.80)")
    assert first(lines, "A010") == n - 1


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_nlhe_uncalled"), "Hero bets 16.17", "Hero bets 1,016.17")
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    # Player1 shows the As: a flop with the As deals it twice
    lines, _ = edit(fixture("cash_plo_run_twice_allin"), "*** FLOP *** [3h Qc 4s]", "*** FLOP *** [3h Qc As]")
    assert first(lines, "H002") is not None


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_nlhe_uncalled")
    i = lines.index("Player0 checks")
    assert lines[i + 1] == "Hero bets 16.17"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_pot_to_the_losing_hand_is_a004() -> None:
    # 2-7 triple draw: Hero's 8-6-4-3-2 beats Player0's 8-7-5-4-2
    lines, n = edit(fixture("draw_27_triple"), "Hero wins pot (799)", "Player0 wins pot (799)")
    assert n in {f.line for f in audit_text(lines) if f.code == "A004"}


def test_raise_below_the_minimum_is_b002() -> None:
    # the flop bet is 16.17: a raise must make it at least 32.34
    lines, n = edit(fixture("cash_nlhe_uncalled"), "Player0 raises to 57.34", "Player0 raises to 20")
    assert first(lines, "B002") == n


def test_explain_a_kings_club_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_plo_run_twice_allin.txt"
    assert main(["explain", str(p), "--hand", "3583643"]) == 0
    out = capsys.readouterr().out
    assert "run 2" in out and "Player2" in out
