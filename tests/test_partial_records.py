"""Records the site wrote with less than a whole hand (auditor/formats/partial.py): no seat lines
(an observer's record with the action but no stacks), or the summary alone.  They are read, named
once (P010), judged only on what they print, and a wrong amount in them is still caught."""

from __future__ import annotations

from auditor import model as M
from auditor.audit import audit_hand
from auditor.formats import parse_text
from tests.conftest import FIXTURES
from tests.format_helpers import audit_text, codes_at, line_of

DIR = FIXTURES / "exports" / "fulltilt"


def _text(name: str) -> str:
    return (DIR / name).read_text("utf-8")


def _hand(text: str) -> M.Hand:
    hands = [h for h in parse_text(text, "partial.txt") if isinstance(h, M.Hand)]
    assert len(hands) == 1
    return hands[0]


def test_every_partial_record_is_read_and_named_once() -> None:
    for p in sorted(DIR.glob("*.txt")):
        codes = [f.code for f in audit_text(p.read_text("utf-8"))]
        assert codes == ["P010"], (p.name, codes)


def test_seats_come_from_the_summary_with_unknown_stacks() -> None:
    h = _hand(_text("fulltilt_observed_no_stacks.txt"))
    assert [(s.seat, s.player) for s in h.seats] == [(3, "cinidy lynn"), (4, "durrrr")]
    assert h.extras["stacks"] == "unprinted" and "betting" not in h.extras
    a = audit_hand(h)
    assert all(not p.stack_known for p in a.trace.players.values())
    # the all-in raise is believed: the raiser had exactly what they put in
    raise_step = next(s for s in a.trace.steps if isinstance(s.event, M.Action) and s.event.kind == "raise")
    assert raise_step.stack_after == 0 and raise_step.all_in_after


def test_summary_only_record_lacks_betting() -> None:
    h = _hand(_text("fulltilt_summary_only.txt"))
    assert h.extras["stacks"] == h.extras["betting"] == "unprinted"
    assert len(h.seats) == 9
    a = audit_hand(h)
    assert a.pots is not None and a.pots.betting_unprinted and not a.pots.decided


# ------------------------------------------------------------------ mutations: still caught


def test_summary_only_collect_changed_is_a010() -> None:
    bad = _text("fulltilt_summary_only.txt").replace("collected ($2.50)", "collected ($2.60)")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_summary_only_rake_changed_is_a010() -> None:
    bad = _text("fulltilt_partial_draw.txt").replace("Rake $2", "Rake $3")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_observed_award_changed_is_a010() -> None:
    bad = _text("fulltilt_observed_no_stacks.txt").replace("wins the pot ($100)", "wins the pot ($150)")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_observed_total_changed_is_a002() -> None:
    bad = _text("fulltilt_observed_no_stacks.txt").replace("Total pot $100", "Total pot $110")
    assert ("A002", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_observed_betting_is_still_judged() -> None:
    # a check facing the all-in raise is no legal action: the betting that was printed is judged
    bad = _text("fulltilt_observed_no_stacks.txt").replace("durrrr folds", "durrrr checks")
    codes = {c for c, _ in codes_at(audit_text(bad))}
    assert any(c.startswith("B") for c in codes), codes


def test_observed_uncalled_return_changed_is_a001() -> None:
    bad = _text("fulltilt_observed_no_stacks.txt").replace("Uncalled bet of $950", "Uncalled bet of $900")
    assert ("A001", line_of(bad, "Uncalled bet")) in codes_at(audit_text(bad))


def test_a_head_with_unreadable_seat_lines_is_not_a_partial_record() -> None:
    # seat lines printed but not readable (a stack with no amount): the hand fails at its seats
    text = (FIXTURES / "sites" / "fulltilt" / "cash_plo_2010.txt").read_text("utf-8")
    first_seat = next(line for line in text.splitlines() if line.startswith("Seat "))
    bad = text.replace(first_seat, first_seat.split(" (")[0] + " (lots)", 1)
    codes = [f.code for f in audit_text(bad)]
    assert codes[:1] == ["P001"] and "P010" not in codes, codes
