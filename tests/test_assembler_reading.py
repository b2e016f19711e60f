"""The assembler's readings kept by text (s14-body): what they keep is what the tests they replace give."""

from __future__ import annotations

import pytest

from auditor.formats import assembler as A
from auditor.formats import vocab as V
from auditor.formats.assembler import HandAssembler

VERBS = ["folds", "Folds", "FOLD", "checks", "Check", "calls", "Calls", "call", "bets", "Bets", "raises", "Raises",
         "raise", "All-in", "all-in(raise)", "All-In(Raise)", "caps", "allin", "brings in for", "Brings In",
         "completes it to", "Complete", "is all-in", "is all in", "goes all-in", "straddles", ""]  # fmt: skip


def _first_test(low: str) -> int:
    """The first of ``HandAssembler.action``'s verb tests before s14-body that ``low`` passes."""
    tests = [("fold",), ("check",), ("all-in",), ("call",), ("bet",), ("caps", "allin"), ("brings in",)]
    return next((i for i, t in enumerate(tests) if low.startswith(t)), A.RAISE)


@pytest.mark.parametrize("verb", VERBS)
def test_verb_reading_is_the_lower_case_and_its_first_test(verb: str) -> None:
    A._VERBS.clear()
    assert A._verb_reading(verb) == (verb.lower(), _first_test(verb.lower()))
    assert A._VERBS[verb] == (verb.lower(), _first_test(verb.lower()))
    assert A._verb_reading(verb) == (verb.lower(), _first_test(verb.lower()))  # read from the dict the second time


def test_verbs_kept_are_bounded() -> None:
    A._VERBS.clear()
    for i in range(1100):
        A._verb_reading(f"v{i}")
    assert 0 < len(A._VERBS) <= 1024


@pytest.mark.parametrize("kind", ["small blind", "Big Blind", "the ante", "ante", "straddle", "bring-in", "odd one"])
def test_post_kind_kept_is_post_kinds(kind: str) -> None:
    a = HandAssembler("pokerstars", "x", 1, 10)
    a.post("Ann", kind, "5")
    a.post("Bob", kind, "5")
    assert A._POST_KINDS[kind] == (kind.lower(), V.POST_KINDS.get(kind.lower(), "missed_blind"))


def test_assembler_state_is_in_slots() -> None:
    a = HandAssembler("pokerstars", "x", 1, 10)
    if "__mypyc_attrs__" not in type(a).__dict__:  # (pure Python: a compiled class keeps native attributes)
        assert not hasattr(a, "__dict__")
    with pytest.raises(AttributeError):
        a.not_an_attribute = 1  # type: ignore[attr-defined]


def test_seat_and_seat_result_builders_give_what_the_class_gives() -> None:
    from auditor import model as M

    # (the assembler's two call sites: model.new_seat / new_seat_result, the class's own builders)
    for new, cls, args in ((M.new_seat, M.Seat, (3, "Ann", 200, 4, 50, True)),
                           (M.new_seat_result, M.SeatResult, (9, 1, "summary", 1, 3, "Ann", " folded", (5,), ("Ah",))),
                           (M.new_seat, M.Seat, (3, "Ann", 200, 4))):  # fmt: skip
        got, want = new(*args), cls(*args)  # type: ignore[operator]
        assert type(got) is cls and got == want and hash(got) == hash(want) and repr(got) == repr(want)
        with pytest.raises(AttributeError):
            got.player = "Bob"  # type: ignore[misc]  # (frozen, as the class's own)
