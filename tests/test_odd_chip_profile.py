"""The profile option ``odd_chip``: Winamax's odd-chip order is not known (its one tie with odd
chips in the corpus fits several orders), so its profile leaves the odd chips' recipients unjudged;
the even split, and every chip, still are."""

from __future__ import annotations

import dataclasses

from auditor import model as M
from auditor.audit import audit_hand
from auditor.formats import parse_text
from auditor.profiles import for_hand
from tests.conftest import FIXTURES
from tests.format_helpers import audit_text, codes_at, line_of

TIE = (FIXTURES / "exports" / "winamax" / "tie_odd_chips_unjudged.txt").read_text("utf-8")


def _hand(text: str) -> M.Hand:
    return next(h for h in parse_text(text, "w.txt") if isinstance(h, M.Hand))


def test_winamax_profile_leaves_the_odd_chips_unjudged() -> None:
    assert for_hand("winamax", None).odd_chip == "unjudged"
    assert for_hand("pokerstars", None).odd_chip == "left_of_button"
    assert audit_text(TIE) == []


def test_the_tda_order_judges_them() -> None:
    hand = _hand(TIE)
    tda = dataclasses.replace(for_hand(hand.site, None), odd_chip="left_of_button")
    codes = {f.code for f in audit_hand(hand, tda).findings}
    assert codes == {"A006"}


def test_two_odd_chips_to_one_player_is_a006() -> None:
    bad = TIE.replace("Player5 collected 87", "Player5 collected 88").replace(
        "Player6 collected 87", "Player6 collected 86"
    )
    assert ("A006", line_of(bad, "Player5 collected")) in codes_at(audit_text(bad))


def test_an_odd_chip_too_many_is_caught() -> None:
    bad = TIE.replace("Player2 collected 86", "Player2 collected 87")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))
