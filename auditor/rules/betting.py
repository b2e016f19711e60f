"""B-codes: the betting rules — whose turn it was, what the player was allowed to do, and how much.

Every check reads the facts the replay recorded for the step (``auditor/replay/betting.py``); no
rule re-derives the betting state.  Betting checks apply to flop games (Hold'em, Omaha and their
variants) in no-limit, pot-limit, fixed-limit and CAP structures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from auditor.findings import Finding, HandKind, Severity, rule
from auditor.model import Action, Post, TableEvent
from auditor.replay.betting import Step, Trace
from auditor.rules.common import NOTHING, flag, money


def _betting(k: HandKind) -> bool:
    """The betting rules apply to the hand (every betting step of any other hand has ``betting`` False)."""
    return k.betting


def walk(t: Trace) -> list[Finding]:
    """The betting and table-stakes rules (B001-B011, S001-S003) and the table's (H003) in one
    walk over the replay's steps (then its record of each street dealt, for B011): each step is
    read once and judged by every rule that applies to it, in step order (so each rule's findings
    come in the order its own walk would find them).  The registered checks are views of this
    walk (:func:`walked`); the audit step calls it once per hand as their group.

    A *live* step is an action by a player still in the hand, before it ended, in a hand whose
    betting rules apply; an action by a folded or all-in player, or after the end, is B005's.
    H003 judges the seats first, then, in the walk, every post or wager of a player without one."""
    h, facts = t.hand, t.facts
    out: list[Finding] = []
    _table(t, out)
    unseated: set[str] | None = None
    pl = h.structure == "PL"
    fl = h.structure == "FL"
    marked = facts.prints_all_in
    checks_unasked = facts.checks_when_no_betting
    adds: list[TableEvent] | None = None
    for s in t.steps:
        e = s.event
        seated = s.actor_seated
        if seated:  # table stakes: every post and wager of a seated player
            add = s.add
            if add > s.stack:
                # S001, or S002 after a chips-added line of the player's
                if adds is None:
                    adds = [a for a in t.of(TableEvent) if a.player and _ADDS.search(a.text)]
                line = next((a for a in adds if a.player == e.player and a.line < e.line), None)
                if line is None:
                    out.append(flag(t, "S001", e.line, e.col,
                        f"{e.player} put in {money(h, s.add)} with only {money(h, s.stack)} left of the "
                        f"{money(h, t.players[e.player].stack0)} they started the hand with",
                        expected=s.stack, actual=s.add,
                    ))  # fmt: skip
                else:
                    out.append(flag(t, "S002", e.line, e.col,
                        f"{e.player} put in {money(h, s.add)} with {money(h, s.stack)} left of their starting stack, "
                        f"after chips were added at line {line.line} ({line.text!r})",
                        expected=s.stack, actual=s.add, added_line=line.line,
                    ))  # fmt: skip
            elif add and marked:  # S003
                after = s.stack_after
                if after > 0:
                    if (e.all_in or (type(e) is Action and e.cap_reached)) and not s.all_in_after:
                        out.append(flag(t, "S003", e.line, e.col,
                                        f"{e.player} is printed all-in but still had {money(h, after)}",
                                        expected=False, actual=True))  # fmt: skip
                elif (
                    after == 0
                    and not (e.all_in or (type(e) is Action and e.cap_reached))
                    and (facts.marks_all_in_posts or type(e) is not Post)
                    and (facts.all_in_on_antes or not _is_ante(e))
                ):
                    out.append(flag(t, "S003", e.line, e.col,
                                    f"{e.player} put in their last chips ({money(h, s.add)}) but is not printed all-in",
                                    expected=True, actual=False))  # fmt: skip
        else:  # H003: a player who posts or acts without a seat (reported once a player)
            if unseated is None:
                unseated = set()
            if e.player not in unseated:
                unseated.add(e.player)
                out.append(flag(t, "H003", e.line, e.col, f"{e.player} wagers without a seat at the table"))
        if type(e) is not Action:  # (the model's event classes are final)
            continue
        kind = e.kind
        if fl and s.betting and s.fl_cap_exceeded:  # B010
            cap = t.profile.fl_cap_raises
            out.append(flag(t, "B010", e.line, e.col,
                f"{e.player} raised after the betting was capped (a bet and {cap} raises already made)",
                expected=cap, actual=s.fl_raises,
            ))  # fmt: skip
        if s.hand_over or s.actor_folded or s.actor_all_in:  # B005
            if s.hand_over:
                why = "after the hand had ended (every other player had folded)"
            elif s.actor_folded:
                why = "after folding"
            elif s.actor_all_in and kind != "fold" and not (kind == "check" and checks_unasked):
                why = "while all-in" if h.cap is None else "while all-in or at the cap"
            else:
                continue
            out.append(flag(t, "B005", e.line, e.col, f"{e.player} acted ({kind}) {why}", actual=kind))
            continue
        if not s.betting:
            continue
        # (a step's findings have one line and column: their order within the step does not matter)
        expected = s.expected
        if seated and expected != e.player and not (expected is None and kind == "check" and checks_unasked):  # B004
            who = f"{expected} was due to act" if expected else "no one was due to act"
            out.append(flag(t, "B004", e.line, e.col, f"{e.player} acted ({kind}) out of turn: {who}",
                            expected=expected, actual=e.player))  # fmt: skip
        # by kind: B006 (an action not possible in the situation), the sizes (B008, B009), and the
        # rules of a seated player's raise (B001, B002), bet (B003) or call (B007)
        if kind == "fold" or kind == "complete":
            continue
        if kind == "check":
            if s.to_call > 0:
                out.append(flag(t, "B006", e.line, e.col, f"{e.player} checked facing a bet of "
                                f"{money(h, s.current_bet)} ({money(h, s.to_call)} to call)", actual=kind))  # fmt: skip
            continue
        if kind == "call":
            to_call = s.to_call
            if to_call <= 0:
                out.append(flag(t, "B006", e.line, e.col, f"{e.player} called when there was nothing to call",
                                actual=kind))  # fmt: skip
            elif seated and s.add <= s.stack:  # B007 (calling more than the stack is S001)
                stack = s.stack if s.cap_left is None else min(s.stack, s.cap_left)
                street_bet = s.street_bet
                due = street_bet + (to_call if to_call < stack else stack)
                # calling only what the all-in opponents can match is a complete call too (asked only
                # of a call that is not the plain one)
                if e.to != due and e.to != street_bet + min(max(0, s.call_to - street_bet), stack):
                    out.append(flag(t, "B007", e.line, e.col,
                        f"{e.player} called to {money(h, e.to)}; a call was to {money(h, due)} "
                        f"(current bet {money(h, s.current_bet)}, {money(h, s.stack)} behind)",
                        expected=due, actual=e.to,
                    ))  # fmt: skip
            continue
        # a bet or a raise
        if kind == "bet":
            if s.current_bet > 0 and not _completes_bring_in(t, s):
                out.append(flag(t, "B006", e.line, e.col, f"{e.player} bet while facing a bet of "
                                f"{money(h, s.current_bet)} (a raise was needed)", actual=kind))  # fmt: skip
        elif s.current_bet == 0:
            out.append(flag(t, "B006", e.line, e.col, f"{e.player} raised when no bet had been made (a bet was needed)",
                            actual=kind))  # fmt: skip
        if pl and s.pl_max_to is not None and e.to > s.pl_max_to:  # B008
            out.append(flag(t, "B008", e.line, e.col,
                f"{e.player} {'bet' if kind == 'bet' else 'raised to'} {money(h, e.to)}; the pot-limit maximum "
                f"was {money(h, s.pl_max_to)}",
                expected=s.pl_max_to, actual=e.to,
            ))  # fmt: skip
        fl_to = s.fl_expected_to
        if fl and fl_to is not None and e.to != fl_to and not (s.all_in_after and e.to < fl_to):  # B009
            out.append(flag(t, "B009", e.line, e.col,
                f"{e.player} {'bet' if kind == 'bet' else 'raised to'} {money(h, e.to)}; in fixed limit it had to "
                f"be {money(h, fl_to)}",
                expected=fl_to, actual=e.to,
            ))  # fmt: skip
        if not seated:
            continue
        if kind == "raise":
            if s.acted_before and not s.reopened:  # B001
                facing = s.current_bet - s.street_bet
                need = (
                    f"half a bet is {money(h, (s.fl_bet or 0) // 2)}" if s.fl_bet
                    else f"a full raise is {money(h, s.min_inc)}"
                )  # fmt: skip
                out.append(flag(t, "B001", e.line, e.col,
                    f"{e.player} raised to {money(h, e.to)} after an incomplete all-in; they had acted and faced "
                    f"{money(h, facing)} more, {need}: betting was not re-opened for them",
                    expected="call or fold", actual=e.to, facing=facing, full_raise=s.min_inc,
                ))  # fmt: skip
            if s.fl_bet is None and not s.all_in_after and e.to < s.min_raise_to:  # B002
                out.append(flag(t, "B002", e.line, e.col,
                    f"{e.player} raised to {money(h, e.to)}; the minimum raise was to {money(h, s.min_raise_to)} "
                    f"(current bet {money(h, s.current_bet)} + last full raise {money(h, s.min_inc)})",
                    expected=s.min_raise_to, actual=e.to,
                ))  # fmt: skip
        elif s.fl_bet is None and not s.all_in_after and e.to < s.min_bet:  # B003
            out.append(flag(t, "B003", e.line, e.col,
                f"{e.player} bet {money(h, e.to)}, less than the minimum bet of {money(h, s.min_bet)} without "
                "being all-in",
                expected=s.min_bet, actual=e.to,
            ))  # fmt: skip
    if t.betting:  # B011: a street dealt while a player still had to act (the replay's record of each street)
        for so in t.streets:
            if so.pending:
                out.append(flag(t, "B011", so.event.line, so.event.col,
                    f"the {so.event.street} was dealt while {', '.join(so.pending)} still had to act",
                    pending=list(so.pending),
                ))  # fmt: skip
    return out


def _table(t: Trace, out: list[Finding]) -> None:
    """H003's findings on the seats (:func:`walk`'s first part): two players in one seat, one player
    in two seats, a seat beyond the table's size, the button on an empty seat of a cash table."""
    h = t.hand
    seats: dict[int, str] = {}
    names: dict[str, int] = {}
    top = h.max_seats if h.max_seats and not t.facts.spread_seat_numbers else 0
    for s in h.seats:
        seat, player = s.seat, s.player
        if seat in seats:
            out.append(flag(t, "H003", s.line, 1, f"seat {seat} holds both {seats[seat]} and {player}"))
            if player not in names:
                names[player] = seat
        elif player in names:
            out.append(flag(t, "H003", s.line, 1, f"{player} sits in seats {names[player]} and {seat}"))
            seats[seat] = player
        else:  # (the first to sit in a seat, and a player's first seat, are kept)
            seats[seat] = player
            names[player] = seat
        if top and seat > top:
            out.append(flag(t, "H003", s.line, 1, f"seat {s.seat} is beyond the {h.max_seats}-max table"))
    if (
        h.button is not None
        and seats
        and h.button not in seats
        and not h.is_tournament
        and not t.profile.dead_button_cash
    ):
        out.append(flag(t, "H003", h.first_line + 1, 1, f"the button is on empty seat {h.button}"))


def walked(t: Trace, code: str) -> Sequence[Finding]:
    """The findings of one rule of :func:`walk` (the walk is made once per hand, shared by them)."""
    got: list[Finding] | None = t.cache.get("walk")
    if got is None:
        got = t.cache["walk"] = walk(t)
    return [f for f in got if f.code == code] if got else NOTHING


_ADDS = re.compile(r"re-buys|rebuys|add-on|adds|table deposit|deposit", re.I)


def _is_ante(e: Action | Post) -> bool:
    return isinstance(e, Post) and e.kind in ("ante", "big_blind_ante")


@rule("B001", "illegal-reraise", Severity.ERROR, stage="hand", applies=_betting, group=walk)
def b001(t: Trace) -> Sequence[Finding]:
    """A raise by a player for whom the betting had not been re-opened.

    After an all-in that is less than a full raise, a player who has already acted may only call
    or fold, unless the total they now face (the current bet minus what they have put in this
    round) is at least a full raise (no-limit and pot-limit) or half a bet (fixed limit).  The test
    is made per player, when the action reaches them.

    Example: blinds 1/2, flop.  A bets 10, B is all-in for 14, C calls, A raises to 24.  A had
    acted and faces only 4 more, less than the full bet of 10: A may not re-raise.
    Good: add D all-in for 21; now A faces 11 >= 10 and may raise (to at least 31).
    """
    return walked(t, "B001")


@rule("B002", "raise-below-minimum", Severity.ERROR, stage="hand", applies=_betting, group=walk)
def b002(t: Trace) -> Sequence[Finding]:
    """A no-limit or pot-limit raise smaller than the minimum, by a player who was not all-in.

    A raise must add at least the largest full bet or raise of the current round to the current
    bet (pre-flop the big blind, or a straddle, counts as the opening bet).  An all-in raise may be
    smaller; it then does not re-open the betting (see B001).

    Example: blinds 6/12, UTG raises to 36 (a raise of 24); the next raise must be to at least 60.
    A raise to 59 is flagged.
    """
    return walked(t, "B002")


@rule("B003", "bet-below-minimum", Severity.ERROR, stage="hand", applies=_betting, group=walk)
def b003(t: Trace) -> Sequence[Finding]:
    """A no-limit or pot-limit bet smaller than the big blind, by a player who was not all-in.

    The minimum bet on every street is the big blind (a straddle raises the pre-flop level only).

    Example: blinds 1/2, flop: A bets 1 with 200 behind.  Good: A bets 2, or is all-in for 1.
    """
    return walked(t, "B003")


@rule("B004", "out-of-turn", Severity.WARNING, stage="hand", applies=_betting, group=walk)
def b004(t: Trace) -> Sequence[Finding]:
    """An action by a player whose turn it was not.

    Pre-flop, action starts left of the big blind (or of the last straddle, or of a button blind);
    on later streets with the first active player left of the button.  Heads-up, the button is the
    small blind and acts first pre-flop and last after the flop.  An online site should never
    record an action out of turn; when it does, the record is suspect.

    Example: heads-up 5/10, flop: the button bets before the big blind has acted.
    """
    return walked(t, "B004")


@rule("B005", "inactive-actor", Severity.ERROR, stage="hand", group=walk)
def b005(t: Trace) -> Sequence[Finding]:
    """An action by a player who had folded or was all-in, or an action after the hand had ended.

    A folded hand is dead and an all-in player has nothing left to wager; once all but one player
    have folded the hand is over.

    Example: A folds on the flop, then A calls on the turn.
    """
    return walked(t, "B005")


@rule("B006", "impossible-action", Severity.ERROR, stage="hand", applies=_betting, group=walk)
def b006(t: Trace) -> Sequence[Finding]:
    """An action that is not possible in the situation.

    A check while facing a bet, a bet when there is already a bet (that is a raise), a raise when
    there is nothing to raise (that is a bet), or a call of nothing.

    Example: blinds 1/2 pre-flop, UTG checks.  Good: UTG calls 2.
    """
    return walked(t, "B006")


@rule("B007", "wrong-call-amount", Severity.ERROR, stage="hand", applies=_betting, group=walk)
def b007(t: Trace) -> Sequence[Finding]:
    """A call of the wrong amount.

    A call matches the current bet, or puts the player all-in when they cannot.  Calling a short
    all-in big blind means calling the full big blind: the level does not drop.  When every
    opponent is all-in for less, a call of what they can match is complete (the rest would come
    back as an uncalled bet).

    Example: blinds 50/100, the big blind is all-in for 60; UTG "calls 60".  Good: UTG calls 100.
    """
    return walked(t, "B007")


@rule("B008", "pot-limit-exceeded", Severity.ERROR, stage="hand",
      applies=lambda k: k.betting and k.structure == "PL", group=walk)  # fmt: skip
def b008(t: Trace) -> Sequence[Finding]:
    """A pot-limit bet or raise larger than the pot.

    The largest raise is the size of the pot after the raiser has called: pot + the bet faced +
    the call.  Pre-flop blinds are counted as the rule profile says (true value, full blinds, or
    the small blind as a big blind).

    Example: pot 100, A bets 50: B may raise to at most 250 (50 + 100 + 50 + 50).  251 is flagged.
    """
    return walked(t, "B008")


@rule("B009", "fixed-limit-wrong-size", Severity.ERROR, stage="hand",
      applies=lambda k: k.betting and k.structure == "FL", group=walk)  # fmt: skip
def b009(t: Trace) -> Sequence[Finding]:
    """A fixed-limit bet or raise of the wrong size.

    Bets and raises are exactly one small bet pre-flop and on the flop, one big bet on the turn and
    river; a player all-in for less is exempt.  After an all-in of less than half a bet the next
    player completes the bet; after half a bet or more, the all-in counts as a full bet.

    Example: $10/$20 on the turn, A bets 20, B raises to 30.  Good: B raises to 40.
    """
    return walked(t, "B009")


@rule("B010", "fixed-limit-cap-exceeded", Severity.ERROR, stage="hand",
      applies=lambda k: k.betting and k.structure == "FL", group=walk)  # fmt: skip
def b010(t: Trace) -> Sequence[Finding]:
    """A fixed-limit raise after the betting was capped.

    Rule books differ: a bet and three raises (Robert's Rules), or four raises (WSOP), with
    different heads-up exemptions; the rule profile chooses.

    Example (roberts profile): three players on the flop, bet, raise, raise, raise, raise.
    """
    return walked(t, "B010")


@rule("B011", "street-dealt-early", Severity.ERROR, stage="hand", applies=_betting, group=walk)
def b011(t: Trace) -> Sequence[Finding]:
    """The next street was dealt while a player still had to act.

    A betting round ends only when every player still in the hand has acted and matched the bet
    (or is all-in).  The big blind keeps the option to raise when the others only call.

    Example: blinds 5/10, UTG calls, the small blind calls, and the flop is dealt without the big
    blind checking or raising.
    """
    return walked(t, "B011")


def _completes_bring_in(t: Trace, s: Step) -> bool:
    """A stud "bet" facing only the bring-in: the completion, which iPoker and OnGame print as a bet."""
    return t.hand.game in ("stud", "stud_hilo", "razz") and s.fl_raises == 0 and s.street in ("third", "preflop")
