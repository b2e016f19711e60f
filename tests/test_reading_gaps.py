"""Small reading gaps closed: OnGame's draw "New hand for Hero: [..]" line records the cards drawn;
Winamax's "Lowball27" is 2-7 triple draw (its awards are judged); PokerTracker 2's upper-case
PokerStars export is marked as a conversion (P009) and keeps PokerStars' pre-2008 silent returns."""

from __future__ import annotations

from auditor import model as M
from auditor.formats import parse_text
from auditor.replay.draw import draw_variant
from tests.conftest import FIXTURES
from tests.format_helpers import audit_text, codes_at, line_of

SITES = FIXTURES / "sites"
CASES = FIXTURES / "exports"
ONGAME_DRAW = (CASES / "ongame" / "draw_new_hand.txt").read_text("utf-8")
LOWBALL27 = (CASES / "winamax" / "lowball27_triple_draw.txt").read_text("utf-8")
PT2 = (CASES / "pokerstars" / "pt2_upper_case_export.txt").read_text("utf-8")


def _hand(text: str) -> M.Hand:
    return next(h for h in parse_text(text, "g.txt") if isinstance(h, M.Hand))


def test_ongame_new_hand_line_records_the_draw() -> None:
    h = _hand(ONGAME_DRAW)
    draws = [e for e in h.events if isinstance(e, M.Draw) and e.player == "Hero"]
    assert [(d.discarded, d.cards) for d in draws] == [(2, ("8h", "6s"))]
    dealt = [e for e in h.events if isinstance(e, M.HoleCards) and e.player == "Hero"]
    assert (dealt[-1].cards, dealt[-1].new_cards) == (("9h", "Ah", "Jh"), ("8h", "6s"))
    assert audit_text(ONGAME_DRAW) == []


def test_ongame_new_hand_not_matching_the_discard_count_is_kept_as_printed() -> None:
    # three new cards after "changed 2 cards": the draw keeps no cards (nothing is repaired)
    odd = ONGAME_DRAW.replace("New hand for Hero: [8h, 9h, 6s, Ah, Jh]", "New hand for Hero: [8h, 9h, 6s, Ac, Jh]")
    draw = next(e for e in _hand(odd).events if isinstance(e, M.Draw) and e.player == "Hero")
    assert draw.cards == ()


def test_winamax_lowball27_is_27_triple_draw() -> None:
    h = _hand(LOWBALL27)
    assert h.game == "draw" and draw_variant(h) == "27_triple"
    assert audit_text(LOWBALL27) == []


def test_winamax_lowball27_pot_to_the_worse_low_is_a004() -> None:
    bad = LOWBALL27.replace("Player2 collected 12.15", "Player3 collected 12.15")
    assert ("A004", line_of(bad, "Player3 collected")) in codes_at(audit_text(bad))


def test_pt2_upper_case_export_is_a_conversion() -> None:
    assert "converted" in _hand(PT2).extras  # P009 once per file (auditor.audit.AuditRun)
    assert audit_text(PT2) == []


def test_pt2_collect_changed_is_a010() -> None:
    bad = PT2.replace("Feline collected $30.40", "Feline collected $30.50")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


KC_RIT = (SITES / "kingsclub" / "draw_nl_27_single_run_twice.txt").read_text("utf-8")


def test_kingsclub_draw_run_twice_is_judged_run_by_run() -> None:
    h = _hand(KC_RIT)
    assert h.runs == 2
    shows = [(e.player, e.run) for e in h.events if isinstance(e, M.Show)]
    assert shows == [("Player2", 1), ("Player4", 1), ("Player4", 2)]
    assert audit_text(KC_RIT) == []


def test_kingsclub_second_run_lost_but_paid_is_a004() -> None:
    # Player4's second-run hand made king-high: Player2's pat 9-8 low wins that run's half, which
    # Player4 is paid (a run paid to the wrong player: A004, as on a board run twice)
    bad = KC_RIT.replace("Run 2: Player4 shows [4c 8d 6h 2h 5c]", "Run 2: Player4 shows [4c 8d 6h 2h Kc]")
    assert ("A004", line_of(bad, "Player4 wins pot")) in codes_at(audit_text(bad))


def test_kingsclub_run_twice_pot_to_the_loser_is_a004() -> None:
    bad = KC_RIT.replace("Player4 wins pot (2,518)", "Player2 wins pot (2,518)")
    assert ("A004", line_of(bad, "Player2 wins pot")) in codes_at(audit_text(bad))
