"""The Chico network format (BetOnline, ActionPoker, Gear Poker, PayNoRake ...): corpus parse rate
against an independent header count, and mutations of real hands caught with their code and line."""

from __future__ import annotations

import re

from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import audit_text, codes_at, line_of, parse_rate

HEADER = re.compile(r"^[A-Za-z][\w. ]*? Game #\d+: ", re.M)
SITE = FIXTURES / "sites" / "chico"
MTT = "mtt_betonline_2016.txt"


def test_corpus_parse_rate() -> None:
    r = parse_rate(corpus_dir("betonline-chico"), HEADER)
    assert r.seen == r.parsed + r.failed
    assert r.headers == r.seen
    assert r.rate >= 0.995, [f.message for f in r.failures]


def test_fixtures_are_clean() -> None:
    for p in sorted(SITE.glob("*.txt")):
        assert [f.code for f in audit_text(p.read_text("utf-8"))] == [], p.name


def test_collect_plus_one_is_a010() -> None:
    # BetOnline prints who won what only on the summary seat line
    text = (SITE / MTT).read_text("utf-8")
    bad = text.replace("Player1 collected (1200.00)", "Player1 collected (1200.01)")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_changed_uncalled_return_is_a001() -> None:
    text = (SITE / MTT).read_text("utf-8")
    bad = text.replace("Uncalled bet (400.00)", "Uncalled bet (300.00)")
    assert ("A001", line_of(bad, "Uncalled bet")) in codes_at(audit_text(bad))


def test_duplicated_card_is_h002() -> None:
    text = (SITE / MTT).read_text("utf-8")
    bad = text.replace("*** FLOP *** [Qh 2h 3s]", "*** FLOP *** [Qh 2h 9s]")
    assert ("H002", line_of(bad, "*** FLOP ***")) in codes_at(audit_text(bad))


def test_wager_beyond_stack_is_s001() -> None:
    text = (SITE / MTT).read_text("utf-8")
    bad = text.replace("Seat 8: Player1 (2390.84 in chips)", "Seat 8: Player1 (50.00 in chips)")
    assert ("S001", line_of(bad, "Player1: calls 100.00")) in codes_at(audit_text(bad))


ALLIN = "cash_betonline_2011_post_dead_allin.txt"


def test_actions_swapped_out_of_turn_is_b004() -> None:
    text = (SITE / ALLIN).read_text("utf-8")
    bad = text.replace("Player10: folds\nPlayer2: folds\n", "Player2: folds\nPlayer10: folds\n")
    assert ("B004", line_of(bad, "Player2: folds")) in codes_at(audit_text(bad))


def test_pot_to_the_losing_hand_is_a004() -> None:
    # Player3's aces and queens with a king beat Player5's aces and queens with a jack
    text = (SITE / ALLIN).read_text("utf-8")
    bad = text.replace("Player3 showed [Ks Ah] and won (42.98)", "Player3 showed [Ks Ah] but did not win")
    bad = bad.replace("Player5 showed [Js As] but did not win", "Player5 showed [Js As] and won (42.98)")
    assert ("A004", line_of(bad, "Player5 showed [Js As] and won")) in codes_at(audit_text(bad))


def test_raise_below_the_minimum_is_b002() -> None:
    # facing a raise to 3.50 (by 3.00) the least re-raise is to 6.50
    text = (SITE / ALLIN).read_text("utf-8")
    bad = text.replace("Player5: raises 6.50 to 6.50", "Player5: raises 4.00 to 4.00")
    assert ("B002", line_of(bad, "Player5: raises 4.00 to 4.00")) in codes_at(audit_text(bad))


def test_post_dead_puts_the_small_blind_in_dead() -> None:
    # "post dead 0.00" at $0.25/$0.50: the dead small blind makes the total pot come right
    text = (SITE / ALLIN).read_text("utf-8")
    assert audit_text(text) == []


def test_leaving_the_table_ends_the_players_hand() -> None:
    # Chico prints no fold for a player who leaves while in the hand: the leave is the fold
    text = (SITE / "cash_betonline_leaves_after_raise_2011.txt").read_text("utf-8")
    assert audit_text(text) == []
    # without the leave line, the player's missing action is a turn-order finding again
    lines = [ln for ln in text.splitlines() if "has left the table" not in ln]
    assert "B004" in [f.code for f in audit_text("\n".join(lines) + "\n")]
    # a player who leaves but acts later is not folded by the leave
    text2 = text.replace("Player9: folds\n", "Player9: folds\nPlayer0: folds\n", 1)
    assert audit_text(text2) == []
