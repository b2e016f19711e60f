"""S-codes: table stakes — a player wagers only the chips in front of them when the hand began."""

from __future__ import annotations

import re
from collections.abc import Sequence

from auditor import model as M
from auditor.findings import Finding, Severity, rule
from auditor.replay.betting import Step, Trace
from auditor.rules.common import NOTHING, flag, money


@rule("S001", "table-stakes-exceeded", Severity.ERROR, stage="hand")
def s001(t: Trace) -> Sequence[Finding]:
    """A wager or post of more chips than the player had left from their starting stack.

    Only the chips in front of a player at the start of the deal play; a player cannot reach into
    a pocket during a hand.  The starting stack is the seat line; every post and wager is taken
    from it, and uncalled bets returned go back to it.

    Example: Seat 3: Ann (100 in chips) ... Ann: bets 150.  Good: Ann: bets 100 and is all-in.
    """
    h = t.hand
    out: list[Finding] = []
    for s, added in _overdraws(t):
        if added is None:
            e = s.event
            out.append(flag(t, "S001", e.line, e.col,
                f"{e.player} put in {money(h, s.add)} with only {money(h, s.stack)} left of the "
                f"{money(h, t.players[e.player].stack0)} they started the hand with",
                expected=s.stack, actual=s.add,
            ))  # fmt: skip
    return out


_ADDS = re.compile(r"re-buys|rebuys|add-on|adds|table deposit|deposit", re.I)


@rule("S002", "chips-added-mid-hand", Severity.ERROR, stage="hand")
def s002(t: Trace) -> Sequence[Finding]:
    """Chips added to a player's stack during the hand, and played in it.

    Re-buys, add-ons and deposits take effect between hands.  Sites print such lines inside a hand
    (PokerStars prints re-buys where they were requested); that alone is not a violation.  It is
    one when the player then wagers more than was left of the stack they started the hand with:
    the added chips were played.

    Example: Seat 2: Ann (100 in chips) ... ``Ann re-buys and receives 1500 chips`` ... Ann: bets 500.
    Good: the re-buy line, after which Ann folds or bets at most what she had left.
    """
    h = t.hand
    out: list[Finding] = []
    for s, line in _overdraws(t):
        if line is not None:
            out.append(flag(t, "S002", s.event.line, s.event.col,
                f"{s.event.player} put in {money(h, s.add)} with {money(h, s.stack)} left of their starting stack, "
                f"after chips were added at line {line.line} ({line.text!r})",
                expected=s.stack, actual=s.add, added_line=line.line,
            ))  # fmt: skip
    return out


def _overdraws(t: Trace) -> list[tuple[Step, M.TableEvent | None]]:
    """Steps that take more than the player had left, with the chips-added line before them, if any
    (found once per hand, shared by S001 and S002)."""
    got: list[tuple[Step, M.TableEvent | None]] | None = t.cache.get("overdraws")
    if got is not None:
        return got
    got = t.cache["overdraws"] = []
    adds: list[M.TableEvent] | None = None
    for s in t.steps:
        if s.actor_seated and s.add > s.stack:
            if adds is None:
                adds = [e for e in t.of(M.TableEvent) if e.player and _ADDS.search(e.text)]
            line = next((e for e in adds if e.player == s.event.player and e.line < s.event.line), None)
            got.append((s, line))
    return got


@rule("S003", "all-in-marker-mismatch", Severity.WARNING, stage="hand", applies=lambda k: k.prints_all_in)
def s003(t: Trace) -> Sequence[Finding]:
    """The all-in marker does not agree with the stack.

    The site printed "and is all-in" while the player still had chips, or the player's chips ran
    out without the site saying so.  Either the marker or the stack is wrong, and later checks
    (re-opening, side pots) depend on both.

    Example: Seat 1: Bob ($10 in chips) ... Bob: bets $10 (no "and is all-in").
    """
    h = t.hand
    if not t.facts.prints_all_in:
        return NOTHING
    out: list[Finding] = []
    for s in t.steps:
        e = s.event
        if not s.actor_seated or s.add > s.stack or s.add == 0:
            continue
        printed = e.all_in or (isinstance(e, M.Action) and e.cap_reached)
        if printed and s.stack_after > 0 and not s.all_in_after:
            out.append(flag(t, "S003", e.line, e.col,
                            f"{e.player} is printed all-in but still had {money(h, s.stack_after)}",
                            expected=False, actual=True))  # fmt: skip
        elif (
            not printed
            and s.stack_after == 0
            and (t.facts.marks_all_in_posts or not isinstance(e, M.Post))
            and (t.facts.all_in_on_antes or not _is_ante(e))
        ):
            out.append(flag(t, "S003", e.line, e.col,
                            f"{e.player} put in their last chips ({money(h, s.add)}) but is not printed all-in",
                            expected=True, actual=False))  # fmt: skip
    return out


def _is_ante(e: M.Action | M.Post) -> bool:
    return isinstance(e, M.Post) and e.kind in ("ante", "big_blind_ante")
