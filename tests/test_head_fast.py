"""The head and summary of a hand in the fast path (issue 16, s12-head): the shortcuts of
``HandAssembler.seat``, ``seat_result``, ``header`` and ``build`` and of ``PegVisitor.on_total``
give what the plain reading gives.

Whole hands are checked by tests/test_fast_path.py (fast path == full parse on every fixture and
corpus hand) and tests/test_golden.py (the fixtures' event logs); these are the edge cases the
corpus may not hold: numbers a table does not list, statuses, a rest or roles not printed, a
fee's label and a total's part names.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditor import model as M
from auditor.formats import assembler as A
from auditor.formats import peg
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.money import has_decimals
from auditor.formats.registry import REGISTRY


def _assembler(decimals: int = 2) -> HandAssembler:
    a = HandAssembler("pokerstars", "<test>", 1, 10, 0, REGISTRY["pokerstars"].facts)
    a.decimals = decimals
    return a


@given(st.text(alphabet="0123456789١٢ +-", max_size=4))
def test_the_number_table_gives_what_number_gives(text: str) -> None:
    a = _assembler()
    try:
        plain: int | None = a.number(text, "seat number")
    except ReadFailure:
        plain = None
    if text in A._NUMBERS:
        assert A._NUMBERS[text] == plain
    if plain is None:
        with pytest.raises(ReadFailure):
            a.seat(text, "Ann", "$1")
        with pytest.raises(ReadFailure):
            a._number(text, "button seat")
        return
    a.seat(text, "Ann", "$1")
    assert a.seats[-1].seat == plain
    assert a._number(text, "button seat") == plain


def test_a_seat_number_outside_the_table_is_still_checked() -> None:
    a = _assembler()
    a.seat("007", "Ann", "$1")
    assert a.seats[-1].seat == 7
    with pytest.raises(ReadFailure):
        a.seat("٣", "Bob", "$1")  # an Arabic-Indic digit: not a seat number (P006)
    with pytest.raises(ReadFailure):
        a.seat_result("٣", "Bob", "folded before Flop", "", REGISTRY["pokerstars"].peg.won_re)


@pytest.mark.parametrize(
    ("status", "out"),
    [(None, False), ("", False), (" ", False), (" is sitting out", True), (" IS SITTING OUT", True),
     (" out of hand (moved from another table into small blind)", True), (" is sitting", False)],
)  # fmt: skip
def test_a_seat_status(status: str | None, out: bool) -> None:
    a = _assembler()
    a.seat("3", "Ann", "$1.50", None, status)
    assert a.seats[-1] == M.Seat(3, "Ann", 150, 1, None, out)


def test_a_summary_seat_line_without_rest_or_roles() -> None:
    won_re = REGISTRY["pokerstars"].peg.won_re
    a = _assembler()
    a.line, a.street = 7, "summary"
    a.seat_result("2", "Ann", None, None, won_re)
    a.seat_result("3", "Bob", "showed [Ah Kd] and won ($1.50) with a pair", " (button) (small blind)", won_re)
    a.seat_result("4", "Cy", "mucked [7c 2d]", "", won_re)
    texts = [(e.seat, e.player, e.text, e.won, e.cards) for e in a.events if isinstance(e, M.SeatResult)]
    assert texts == [
        (2, "Ann", " ", (), ()),
        (3, "Bob", " (button) (small blind) showed [Ah Kd] and won ($1.50) with a pair", (150,), ("Ah", "Kd")),
        (4, "Cy", " mucked [7c 2d]", (), ("7c", "2d")),
    ]


@given(st.lists(st.sampled_from(["", " ", "$", "€", "USD", "0.50", "1", "2", "10.5", "1,000", "0.25", "Rs."]),
                max_size=5))  # fmt: skip
def test_the_stakes_decimals_by_text_are_the_plain_reading(words: list[str]) -> None:
    stakes = " ".join(words)
    plain = 2 if (has_decimals(stakes) or A._ALLOWED_MONEY.search(stakes)) else 0
    assert A._stakes_decimals(stakes) == plain
    assert A._stakes_decimals(stakes) == plain  # (the second time from the table)


def test_the_stakes_table_stays_bounded() -> None:
    for i in range(3000):
        A._stakes_decimals(f"$ {i} {i + 1}")
    assert len(A._STAKES_DECIMALS) <= 1024


@pytest.mark.parametrize(
    ("name", "kind"),
    [("total_head", peg._HEAD), ("total_head__ongame", peg._HEAD), ("total_pot", peg._POT),
     ("total_fee", peg._FEE), ("total_fee__pkr", peg._FEE), ("total_norake", peg._NORAKE), ("eol", peg._OTHER),
     ("total_prop", peg._OTHER)],
)  # fmt: skip
def test_the_parts_of_a_total_line(name: str, kind: int) -> None:
    assert peg._total_part(name) == kind
    assert peg._TOTAL_PARTS[name] == kind


@pytest.mark.parametrize("label", ["Rake", "Jackpot", "Cash Drop", "STP", "Bad Beat Jackpot"])
def test_a_fee_label(label: str) -> None:
    assert peg._fee_label(label) == label.lower().replace(" ", "_")
    assert peg._fee_label(label) == peg._FEE_LABELS[label]


def test_the_total_line_as_the_parts_say() -> None:
    g = REGISTRY["pokerstars"].peg
    a = _assembler()
    a.street = "summary"
    v = peg.PegVisitor(g, a)
    parts: peg.Parts = [("total_head", {"total": "$5.53"}), ("total_pot", {"label": "Main pot", "amount": "$4"}),
                        ("total_pot", {"label": "Side pot-1", "amount": "$1.53"}),
                        ("total_fee", {"label": "Rake", "amount": "$0.27"}),
                        ("total_fee", {"label": "Cash Drop", "amount": "$1"}), ("eol", {})]  # fmt: skip
    v.on_total(parts, None)
    claim = a.events[-1]
    assert isinstance(claim, M.PotClaim)
    assert (claim.total, claim.pots, claim.rake, claim.fees) == (553, (("main", 400), ("side-1", 153)), 27,
                                                                  (("cash_drop", 100),))  # fmt: skip


def test_build_reads_a_printed_currency_and_a_derived_one() -> None:
    a = _assembler()
    a.header({"hand_id": "1", "game": "Hold'em", "structure": "No Limit", "sb": "€0.50", "bb": "€1"})
    a.seat("1", "Ann", "€10")
    a.seat("2", "Bob", "€10")
    assert a.build().currency == "EUR"
    b = _assembler()
    b.header({"hand_id": "1", "game": "Hold'em", "structure": "No Limit", "sb": "$0.50", "bb": "$1", "currency": "USD",
              "max_seats": "6", "button": "2"})  # fmt: skip
    b.seat("1", "Ann", "$10")
    b.seat("2", "Bob", "$10")
    hand = b.build()
    assert (hand.currency, hand.max_seats, hand.button, hand.extras) == ("USD", 6, 2, {})
