"""IGT Poker JSON: the corpus folder read in full (each hand object counted independently), the
family link with Boss Media, and violations injected into real IGT hands caught with their code.

An IGT document is one line of JSON: every finding is on that line (line 1 of the fixture).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from auditor import model as M
from auditor.cli import main
from auditor.formats import REGISTRY, parse_text
from tests.conftest import FIXTURES
from tests.format_helpers import decoded, every_hand_is_seen_and_parsed
from tests.test_mutations import audit_text

FOLDER = "igt"
SITE = "igt"
# a hand object starts with its seats: {"player":[{"name": ... (counted in the raw text)
HAND_OBJECT = re.compile(r'[\[,]\{"player":\[\{"name":')


def independent_count(folder: Path) -> int:
    return sum(len(HAND_OBJECT.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed() -> None:
    r = every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 19, all_seen=True, all_parsed=True)
    # the only parse finding: the empty file the source keeps (HandActionTests/AllInPreflop.txt)
    parse = [f for f in r.findings if f.code.startswith("P")]
    assert [(Path(f.path).name, f.code) for f in parse] == [("AllInPreflop.txt", "P003")]


def test_card_and_family() -> None:
    from auditor.formats import bossmedia, igt

    fmt = REGISTRY[SITE]
    assert fmt.is_document and fmt.supported
    assert issubclass(igt.Reader, bossmedia.Reader)
    assert fmt.facts.prints_uncalled is True and fmt.facts.total_net_of_rake is True
    assert REGISTRY.sniff_document('\ufeff{"history":[{"player":[{"name":"HERO","seat":"1"') is fmt


def load(name: str) -> dict[str, Any]:
    text = (FIXTURES / "sites" / SITE / f"{name}.txt").read_text("utf-8").lstrip("\ufeff")
    doc: dict[str, Any] = json.loads(text)
    return doc


def hand_of(doc: dict[str, Any]) -> dict[str, Any]:
    h: dict[str, Any] = doc["history"][0]
    return h


def audit(doc: dict[str, Any]) -> set[tuple[str, int | None]]:
    return {(f.code, f.line) for f in audit_text([json.dumps(doc, separators=(",", ":"))])}


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit(load(name)) == set()


def test_cards_rank_from_the_deuce_and_returns_by_bankroll() -> None:
    text = (FIXTURES / "sites" / SITE / "cash_plo8_hilo_split_2017.txt").read_text("utf-8")
    (hand,) = [h for h in parse_text(text) if isinstance(h, M.Hand)]
    hero = next(e for e in hand.events if isinstance(e, M.HoleCards) and e.player == "HERO")
    # links 35, 20, 15, 8: the jack, nine, four and ten ("two pair, jacks and tens" with the board)
    assert [c[0] for c in hero.cards] == ["J", "9", "4", "T"]
    text = (FIXTURES / "sites" / SITE / "cash_lhe_bet_returned_2017.txt").read_text("utf-8")
    (hand,) = [h for h in parse_text(text) if isinstance(h, M.Hand)]
    # ACTION_ADJUSTEMENT with value 0.00: the bankroll goes from 51.83 to 52.83, the bet of 1.00 back
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, M.UncalledReturn)] == [("PLAYER9", 100)]


def test_several_hands_in_one_document_are_each_read() -> None:
    one, two = hand_of(load("cash_nlhe_walk_2017")), hand_of(load("cash_plo_showdown_2017"))
    text = json.dumps({"history": [one, two]}, separators=(",", ":"))
    hands = [h for h in parse_text(text) if isinstance(h, M.Hand)]
    assert [h.hand_id for h in hands] == ["1488901.hand.154", "54510000.hand.25"]


def test_collected_one_unit_more_is_a010() -> None:
    doc = load("cash_plo8_hilo_split_2017")
    r = next(r for r in hand_of(doc)["showDown"]["result"] if r["player"] == "HERO")
    r["win"] = "19.72"
    assert ("A010", 1) in audit(doc)


def test_changed_uncalled_return_is_a001() -> None:
    doc = load("cash_nlhe_walk_2017")
    adj = next(a for a in hand_of(doc)["action"] if a["type"] == "ACTION_ADJUSTEMENT")
    adj["bankRoll"] = "496.50"  # 1.50 back of the 2.50 uncalled
    assert ("A001", 1) in audit(doc)


def test_pot_to_the_losing_hand_is_a004() -> None:
    doc = load("cash_plo_showdown_2017")
    results = hand_of(doc)["showDown"]["result"]
    winner = next(r for r in results if r["player"] == "PLAYER1")
    loser = next(r for r in results if r["player"] == "PLAYER4")
    loser["card"] = [{"link": "0"}, {"link": "1"}, {"link": "14"}, {"link": "27"}]  # the loser's hand shown
    winner["win"], loser["win"] = loser["win"], winner["win"]
    assert ("A004", 1) in audit(doc)


def test_wager_beyond_the_stack_is_s001() -> None:
    doc = load("cash_plo8_hilo_split_2017")
    next(p for p in hand_of(doc)["player"] if p["name"] == "PLAYER4")["amount"] = "3.00"
    assert ("S001", 1) in audit(doc)


def test_duplicated_card_is_h002() -> None:
    doc = load("cash_plo8_hilo_split_2017")
    for a in hand_of(doc)["action"]:
        if a["type"] == "HAND_BOARD":
            a["card"][0] = {"link": "35"}  # HERO's jack on the board too
    assert ("H002", 1) in audit(doc)


def test_actions_swapped_out_of_turn_is_b004() -> None:
    doc = load("cash_plo8_hilo_split_2017")
    actions = hand_of(doc)["action"]
    i = next(i for i, a in enumerate(actions) if a["type"] == "ACTION_CALL" and a["player"] == "PLAYER3")
    assert actions[i + 1]["player"] == "PLAYER4"
    actions[i], actions[i + 1] = actions[i + 1], actions[i]
    assert ("B004", 1) in audit(doc)


def test_raise_below_the_minimum_is_b002() -> None:
    # the flop: PLAYER2 bets 0.50, PLAYER4 raises to 2.00; a raise to 0.75 is below the minimum 1.00
    doc = load("cash_plo8_hilo_split_2017")
    r = next(a for a in hand_of(doc)["action"] if a["type"] == "ACTION_RAISE" and a["player"] == "PLAYER4")
    r["value"] = "0.75"
    assert ("B002", 1) in audit(doc)


def test_explain_an_igt_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_plo8_hilo_split_2017.txt"
    assert main(["explain", str(p), "--hand", "54500000.hand.202"]) == 0
    out = capsys.readouterr().out
    assert "HERO" in out and "PLAYER4" in out
