"""S-codes: table stakes — a player wagers only the chips in front of them when the hand began.

The checks are made in the walk over the replay's steps that the betting rules share
(:func:`auditor.rules.betting.walk`)."""

from __future__ import annotations

from collections.abc import Sequence

from auditor.findings import Finding, Severity, rule
from auditor.replay.betting import Trace
from auditor.rules.betting import walk, walked


@rule("S001", "table-stakes-exceeded", Severity.ERROR, stage="hand", group=walk)
def s001(t: Trace) -> Sequence[Finding]:
    """A wager or post of more chips than the player had left from their starting stack.

    Only the chips in front of a player at the start of the deal play; a player cannot reach into
    a pocket during a hand.  The starting stack is the seat line; every post and wager is taken
    from it, and uncalled bets returned go back to it.

    Example: Seat 3: Ann (100 in chips) ... Ann: bets 150.  Good: Ann: bets 100 and is all-in.
    """
    return walked(t, "S001")


@rule("S002", "chips-added-mid-hand", Severity.ERROR, stage="hand", group=walk)
def s002(t: Trace) -> Sequence[Finding]:
    """Chips added to a player's stack during the hand, and played in it.

    Re-buys, add-ons and deposits take effect between hands.  Sites print such lines inside a hand
    (PokerStars prints re-buys where they were requested); that alone is not a violation.  It is
    one when the player then wagers more than was left of the stack they started the hand with:
    the added chips were played.

    Example: Seat 2: Ann (100 in chips) ... ``Ann re-buys and receives 1500 chips`` ... Ann: bets 500.
    Good: the re-buy line, after which Ann folds or bets at most what she had left.
    """
    return walked(t, "S002")


@rule("S003", "all-in-marker-mismatch", Severity.WARNING, stage="hand", applies=lambda k: k.prints_all_in,
      group=walk)  # fmt: skip
def s003(t: Trace) -> Sequence[Finding]:
    """The all-in marker does not agree with the stack.

    The site printed "and is all-in" while the player still had chips, or the player's chips ran
    out without the site saying so.  Either the marker or the stack is wrong, and later checks
    (re-opening, side pots) depend on both.

    Example: Seat 1: Bob ($10 in chips) ... Bob: bets $10 (no "and is all-in").
    """
    return walked(t, "S003")
