"""GG takes its rake and fees from each run's share of a run-it-twice pot and from each tied
player's share, in proportions it does not print (export fact ``fees_from_shares``): the awards are
checked within bounds (a player's share before rake and fees, less at most all of them) and the
total by A010.  Clean real hands pass; a payout outside the bounds, or money that vanished, is
still caught with its code and line."""

from __future__ import annotations

from auditor import model as M
from auditor.audit import audit_hand
from auditor.formats import parse_text
from tests.conftest import FIXTURES
from tests.format_helpers import audit_text, codes_at, line_of

GG = FIXTURES / "exports" / "ggpoker"
RIT = (GG / "rit_fees_from_runs.txt").read_text("utf-8")
SPLIT = (GG / "split_fees_from_shares.txt").read_text("utf-8")


def test_clean_hands_pass() -> None:
    assert audit_text(RIT) == []
    assert audit_text(SPLIT) == []


def test_bounds_are_the_gross_shares_less_all_fees() -> None:
    hand = next(h for h in parse_text(SPLIT, "s.txt") if isinstance(h, M.Hand))
    pt = audit_hand(hand).pots
    assert pt is not None and not pt.allocation_known
    # $12.59 split before rake and fees: $6.30 / $6.29; rake and fees $0.26
    assert pt.paid_high == {"2a2d730c": 630, "a187372": 629}
    assert pt.paid_low == {"2a2d730c": 604, "a187372": 603}


def test_tied_share_beyond_its_gross_share_is_a006() -> None:
    bad = SPLIT.replace("a187372 collected $6.14", "a187372 collected $5.84").replace(
        "2a2d730c collected $6.19", "2a2d730c collected $6.49"
    )
    assert ("A006", line_of(bad, "2a2d730c collected")) in codes_at(audit_text(bad))


def test_run_share_beyond_its_gross_share_is_a008() -> None:
    bad = RIT.replace("7d5a9137 collected $4.95", "7d5a9137 collected $5.20").replace(
        "dcf2def1 collected $4.96", "dcf2def1 collected $4.71"
    )
    codes = codes_at(audit_text(bad))
    assert ("A008", line_of(bad, "7d5a9137 collected")) in codes


def test_money_vanishing_within_the_bounds_is_a010() -> None:
    bad = SPLIT.replace("a187372 collected $6.14", "a187372 collected $6.10")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_run_won_by_the_wrong_player_is_still_caught() -> None:
    # the second run paid to the loser of both boards' showdown cards: outside every bound
    bad = RIT.replace("dcf2def1 collected $4.96", "7d5a9137 collected $4.96")
    assert any(c.startswith("A") for c, _ in codes_at(audit_text(bad)))
