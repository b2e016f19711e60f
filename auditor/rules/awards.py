"""A-codes (pots, awards, rake) and D001 (hand descriptions): the site's money claims against the
pots, returns and awards the replay derives (``auditor/replay/pots.py``).

Why one module of ~560 lines: the A-codes share one comparison of derived and printed payments
(``_compare``); splitting them would split that comparison.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from auditor.findings import Finding, HandKind, Severity, rule
from auditor.model import Board, CashOut, Collect, PotClaim, Show, UncalledReturn
from auditor.profiles import Profile
from auditor.replay.betting import Trace
from auditor.replay.cards import HILO_GAMES, category, known
from auditor.replay.pots import Pot, PotTrace
from auditor.rules.common import NOTHING, flag, money

_CITE_POTS = "TDA 2026 Rule 23 (2024: 21); WSOP Live Action Rule 153"
_CITE_UNCALLED = "TDA 2026 Rule 67-A (2024: 65-A); WSOP Tournament Rule 108"
_CITE_ODD = "TDA 2026 Rule 22-A (2024: 20-A); WSOP Live Action Rule 153"
_CITE_HILO = "TDA 2026 Rule 22-C (2024: 20-C); WSOP Live Action Rule 153"
_CITE_RIT = "WSOP Live Action Rule 217"
_CITE_SHOWDOWN = "TDA 2026 Rule 14 (2024: 12), cards speak"


#: stud and draw games: awarded by auditor/replay/showdown.py (not part of the no-flop-no-drop rake rule)
_NO_BOARD_GAMES = frozenset({"stud", "stud_hilo", "razz", "draw"})
_HILO = HILO_GAMES | {"stud_hilo"}
_AWARD_GAMES = frozenset({"holdem", "shortdeck", "omaha", "omaha5", "omaha6", "omaha_hilo", "omaha5_hilo",
                          "courchevel", "courchevel_hilo"})  # fmt: skip
#: the games whose pots the replay awards (A004-A008 compare its awards with the collects)
_PAID_GAMES = _AWARD_GAMES | _NO_BOARD_GAMES


def _paid_by_rules(k: HandKind) -> bool:
    return k.game in _PAID_GAMES


def payouts(t: Trace, pt: PotTrace) -> list[Finding]:
    """The findings of A004-A008 together: one comparison of what was paid with what the rules pay
    (:func:`_compare`), called once per hand by the audit step as their group."""
    return _compare(t, pt)


def _claim_line(pt: PotTrace, t: Trace) -> tuple[int, int]:
    if pt.claim is not None:
        return pt.claim.line, pt.claim.col
    return t.hand.last_line, 1


@rule("A001", "uncalled-bet-mismatch", Severity.ERROR, stage="pots", applies=lambda k: k.prints_uncalled)
def a001(t: Trace, pt: PotTrace) -> list[Finding]:
    """An uncalled bet not returned, returned to the wrong player, or of the wrong amount.

    The part of the largest contribution that no other player matched goes back to its owner
    before the pot is built; it is never part of the pot and never raked.  Dead money (a dead
    small blind) is not matched.  Sites that never print the return (Winamax) are not checked
    here; their collect lines are checked instead (A004).

    Example: A bets $10, everyone folds, and no ``Uncalled bet ($10) returned to A`` line appears.
    """
    out: list[Finding] = []
    h = t.hand
    if not t.facts.prints_uncalled or t.facts.converted or h.cancelled:
        return out
    if pt.expected_returns == pt.printed_returns:
        return out  # (every return printed as it should be: nothing below would differ)
    if not pt.printed_returns and _silent_era(t) and _total_excludes(t, pt, sum(pt.expected_returns.values())):
        return out  # an export of an era that printed no return line; the total shows it went back
    for name in sorted(set(pt.expected_returns) | set(pt.printed_returns)):
        want, got = pt.expected_returns.get(name, 0), pt.printed_returns.get(name, 0)
        if want == got:
            continue
        ev = next((e for e in t.of(UncalledReturn) if e.player == name), None)
        line, col = (ev.line, ev.col) if ev else _claim_line(pt, t)
        if got == 0:
            msg = f"{money(h, want)} of {name}'s bet was not called, but it was not returned to {name}"
        elif want == 0:
            msg = f"{money(h, got)} is printed as returned to {name}, but every chip {name} put in was matched"
        else:
            msg = f"{money(h, got)} is printed as returned to {name}; the uncalled part was {money(h, want)}"
        out.append(flag(t, "A001", line, col, msg, expected=want, actual=got, player=name, cite=_CITE_UNCALLED))
    return out


def _silent_era(t: Trace) -> bool:
    """The hand dates from before its site printed uncalled-bet returns."""
    before = t.facts.silent_returns_before
    if before is None:
        return False
    year = t.hand.start_time[:4] if t.hand.start_time else ""
    return year.isdecimal() and int(year) < before


def _expected_total(t: Trace, pt: PotTrace) -> int:
    """What "Total pot" should print under the site's conventions."""
    want = pt.total_expected
    if t.facts.converted and not _silent_era(t):
        # (a conversion of a hand from before its site printed returns keeps the site's silence:
        # PokerTracker 2's export of a 2007 PokerStars hand)
        # the converter's total leaves out what it printed as returned, whatever the uncalled part was
        want += sum(pt.expected_returns.values()) - sum(pt.printed_returns.values())
    elif not t.facts.prints_uncalled and t.facts.silent_uncalled_in_total:
        # the total then includes the uncalled part (all of it at Winamax; at sites that print
        # the return only sometimes, the part that no "returned" line took back)
        want += sum(max(0, v - pt.printed_returns.get(n, 0)) for n, v in pt.expected_returns.items())
    if t.facts.total_net_of_rake:
        want -= pt.rake + pt.fees
    return want


def _total_excludes(t: Trace, pt: PotTrace, returned: int) -> bool:
    """The printed total pot agrees with the uncalled part having been returned."""
    if pt.claim is None:
        return False
    return _total_agrees(pt.claim, _expected_total(t, pt), pt.house)


def _total_agrees(claim: PotClaim, want: int, house: int) -> bool:
    """The printed total is the expected one (or it plus house money), to the printed precision."""
    total, unit = claim.total, claim.unit
    return abs(total - want) < unit or abs(total - want - house) < unit


@rule("A002", "total-pot-mismatch", Severity.ERROR, stage="pots")
def a002(t: Trace, pt: PotTrace) -> list[Finding]:
    """The printed total pot does not match the contributions.

    Total pot = every chip put in (blinds, antes, dead blinds, bets) minus the uncalled part
    returned (plus house money where the site counts it in the total).

    Example: four players put in $1, $1, $3, $3 and nothing is returned: ``Total pot $9`` is wrong.
    """
    out: list[Finding] = []
    h = t.hand
    if pt.claim is None or h.cancelled or not t.facts.prints_total_pot or pt.betting_unprinted:
        return out
    if not pt.antes_decide_total:
        return out  # unattributed antes and an uncalled part: what was returned depends on who paid
    want = _expected_total(t, pt)
    got = pt.claim.total
    if _total_agrees(pt.claim, want, pt.house):
        return out
    line, col = _claim_line(pt, t)
    out.append(flag(t, "A002", line, col,
                  f"the total pot is printed as {money(h, got)}; the contributions make {money(h, want)}",
                  expected=want, actual=got))  # fmt: skip
    return out


@rule("A003", "side-pot-mismatch", Severity.ERROR, stage="pots")
def a003(t: Trace, pt: PotTrace) -> list[Finding]:
    """A printed main or side pot does not match its layer of the contributions.

    Each pot is a layer: the chips every player put in up to the next all-in level, winnable only
    by the players who reached that level.  Pots are printed net of rake and fees, so each printed
    pot must be at most its layer, and the differences must add up to the rake and fees; a site
    that prints each pot before rake (export fact ``pots_net_of_rake = false``) prints the layers.

    Example: A all-in 80, B all-in 210, C 350: main pot 240 (3 x 80), side pot 260 (2 x 130),
    140 returned to C.
    """
    out: list[Finding] = []
    h = t.hand
    if pt.antes_unattributed and len(pt.pots) > 1:
        return out  # unattributed antes: the layers depend on who paid them
    if pt.claim is None or not pt.claim.pots or h.cancelled:
        return out
    printed = [a for _, a in pt.claim.pots]
    line, col = _claim_line(pt, t)
    pots = _printed_layers(t, pt, printed)
    layers = ", ".join(f"{p.label} {money(h, p.amount)}" for p in pots)
    if len(printed) != len(pots) and _merges_into(printed, pt):
        return out  # the site prints a boundary at every all-in, the profile merges them: same money
    if len(printed) != len(pots):
        out.append(flag(t, "A003", line, col,
                      f"{len(printed)} pots are printed; the contributions make {len(pots)} ({layers})",
                      expected=[p.amount for p in pots], actual=printed, cite=_CITE_POTS))  # fmt: skip
        return out
    taken = 0
    gross = not t.facts.pots_net_of_rake  # each pot printed before rake: it must be its layer
    for p, got in zip(pots, printed, strict=True):
        if got != p.amount and (pt.rake + pt.fees == 0 or gross):
            out.append(flag(t, "A003", line, col,
                          f"the {p.label} pot is printed as {money(h, got)}; "
                          f"{'before rake' if gross else 'with no rake'} its layer is "
                          f"{money(h, p.amount)}", expected=p.amount, actual=got, cite=_CITE_POTS))  # fmt: skip
        elif got > p.amount:
            out.append(flag(t, "A003", line, col,
                          f"the {p.label} pot is printed as {money(h, got)}, "
                          f"more than its layer of {money(h, p.amount)}",
                          expected=p.amount, actual=got, cite=_CITE_POTS))  # fmt: skip
        taken += p.amount - got
    within = all(got <= p.amount for p, got in zip(pots, printed, strict=True))
    if not gross and taken != pt.rake + pt.fees and within:
        out.append(flag(t, "A003", line, col,
                      f"the printed pots ({', '.join(money(h, a) for a in printed)}) are {money(h, taken)} below "
                      f"their layers ({layers}), but rake and fees are {money(h, pt.rake + pt.fees)}",
                      expected=pt.rake + pt.fees, actual=taken, cite=_CITE_POTS))  # fmt: skip
    return out


def _printed_layers(t: Trace, pt: PotTrace, printed: list[int]) -> list[Pot]:
    """The layers as the site prints its pots: in a walk whose uncalled part stays in the pot
    (export fact ``silent_returns_in_walks``), the main pot keeps it; house money printed as an
    item of its own ("Main pot €0.15 | STP €0.50", the total being their sum) is not in the main
    pot."""
    pots = list(pt.pots)
    if not pots or pt.claim is None:
        return pots
    if t.facts.silent_returns_in_walks and not t.facts.prints_uncalled:  # a walk (ExportFacts.for_hand)
        kept = sum(max(0, v - pt.printed_returns.get(n, 0)) for n, v in pt.expected_returns.items())
        pots[-1] = replace(pots[-1], amount=pots[-1].amount + kept)
    taken = 0 if not t.facts.pots_net_of_rake else pt.rake + pt.fees
    if pt.house and pots[0].dead >= pt.house and sum(printed) + pt.house + taken == pt.claim.total:
        pots[0] = replace(pots[0], amount=pots[0].amount - pt.house)
    return pots


def _split_in_site_units(t: Trace, pt: PotTrace) -> bool:
    """The collects are the rules' split made in a larger chip unit (the smallest denomination in
    play at the table: PokerStars split pots in $0.05 units in 2008).  Cash games only."""
    from auditor.replay.pots import split

    if t.hand.is_tournament or not pt.awards or t.hand.decimals != 2:
        return False
    # a pot split high and low is halved in the site's unit too (Full Tilt: $7.75 as $3.90 and $3.85)
    whole: dict[tuple[str, int], int] = {}
    for a in pt.awards:
        if a.half in ("high", "low"):
            whole[(a.pot, a.run)] = whole.get((a.pot, a.run), 0) + a.amount
    for unit in (5, 10, 25):
        paid: dict[str, int] = {}
        for a in pt.awards:
            amount = a.amount
            if (a.pot, a.run) in whole:
                total = whole[(a.pot, a.run)]
                units = total // unit
                high = (units - units // 2) * unit + total % unit
                amount = high if a.half == "high" else total - high
            for w, v in split(amount, list(a.winners), unit):
                paid[w] = paid.get(w, 0) + v
        if paid == {n: v for n, v in pt.collected.items() if v}:
            return True
    return False


def _cashed_out(t: Trace) -> set[str]:
    return {e.player for e in t.of(CashOut) if e.kind == "cash_out"}


def _merges_into(printed: list[int], pt: PotTrace) -> bool:
    """Consecutive printed pots add up (net of rake, so at most) to each derived pot in turn."""
    i, taken = 0, 0
    for p in pt.pots:
        total = 0
        while i < len(printed) and total + printed[i] <= p.amount:
            total += printed[i]
            i += 1
            if total == p.amount or (i < len(printed) and total + printed[i] > p.amount):
                break
        if total == 0:
            return False
        taken += p.amount - total
    return i == len(printed) and taken == pt.rake + pt.fees


def _eligible_total(pt: PotTrace, name: str) -> int:
    return sum(p.net for p in pt.pots if name in p.eligible)


def _collect_line(t: Trace, name: str) -> tuple[int, int]:
    e = next((e for e in t.of(Collect) if e.player == name), None)
    if e is not None:
        return e.line, e.col
    c = next(iter(t.of(PotClaim)), None)
    return (c.line, c.col) if c else (t.hand.last_line, 1)


def _award_text(t: Trace, pt: PotTrace) -> str:
    h = t.hand
    parts = []
    for a in pt.awards:
        who = ", ".join(f"{w} {money(h, v)}" for w, v in a.shares)
        where = a.pot + (f" run {a.run}" if h.runs > 1 else "") + ("" if a.half == "all" else f" {a.half}")
        parts.append(f"{where} {money(h, a.amount)}: {who} ({a.why})")
    return "; ".join(parts)


@rule("A004", "pot-to-wrong-player", Severity.ERROR, stage="pots", applies=_paid_by_rules, group=payouts)
def a004(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """A pot paid to the wrong player.

    At showdown the cards speak: each pot goes to the best hand among the players eligible for it
    who showed (ties split).  A pot nobody contests goes to the last player standing.

    Example: Ann shows a flush, Bob shows a pair, and Bob collects the pot.
    """
    return _payouts(t, pt, "A004")


@rule("A005", "ineligible-player-paid", Severity.ERROR, stage="pots", applies=_paid_by_rules, group=payouts)
def a005(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """A player paid from a pot they were not eligible for.

    An all-in player can win from each opponent at most what they put in themselves: never a side
    pot formed above their stake.  A folded player wins nothing.

    Example: A is all-in for 80 and wins the main pot of 240, but collects 500 including the side
    pot that only B and C contested.
    """
    return _payouts(t, pt, "A005")


@rule("A006", "split-or-odd-chip-wrong", Severity.ERROR, stage="pots", applies=_paid_by_rules, group=payouts)
def a006(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """A tie split unevenly, or the odd chip given to the wrong player.

    Tied hands split the pot equally; an odd chip that cannot be split goes to the first tied
    player clockwise from the button (one chip per player).

    Example: pot 101, Alice (seat 1) and Bob (seat 2) tie, button on seat 9: Alice 51, Bob 50.
    """
    return _payouts(t, pt, "A006")


@rule("A007", "hi-lo-split-wrong", Severity.ERROR, stage="pots", applies=_paid_by_rules, group=payouts)
def a007(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """A high-low pot split wrongly.

    In eight-or-better games the pot is halved between the best high hand and the best
    qualifying low (five different ranks eight or lower); the odd chip goes to the high half;
    without a qualifying low, high takes all.

    Example: pot 1653, Hero has the best high, Voron the best low: Hero 827, Voron 826.
    """
    return _payouts(t, pt, "A007")


@rule("A008", "run-it-twice-split-wrong", Severity.ERROR, stage="pots", applies=_paid_by_rules, group=payouts)
def a008(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """A run-it-twice (or three times) pot split wrongly.

    After rake, each contested pot is split into one share per board, the first board taking the
    odd chip, and each share goes to the best hand on its board.  A pot with one eligible player
    is not run twice.

    Example: total 225.32, rake 2.15: 111.59 for the first board and 111.58 for the second.
    """
    return _payouts(t, pt, "A008")


def _payouts(t: Trace, pt: PotTrace, code: str) -> Sequence[Finding]:
    """The payout findings of one code (the comparison is made once per hand, see :func:`_compare`)."""
    got: list[Finding] | None = pt.cache.get("payouts")
    if got is None:
        got = pt.cache["payouts"] = _compare(t, pt)
    return [f for f in got if f.code == code] if got else NOTHING


def _compare(t: Trace, pt: PotTrace) -> list[Finding]:
    """Compare what each player collected with what the rules pay them; classify each difference."""
    out: list[Finding] = []
    h = t.hand
    if h.cancelled or not pt.decided or h.game not in _PAID_GAMES:
        return out
    cashing = t.by_type.get(CashOut)
    if pt.allocation_known and pt.collected == pt.expected_paid and not t.facts.converted and not cashing:
        # (most hands) every player collected what the rules pay, and no uncalled part is added
        # to a collect below: each expected return was printed
        for n in pt.expected_returns:
            if not pt.printed_returns.get(n):
                break
        else:
            return out
    paid = dict(pt.expected_paid)
    for n, v in pt.expected_returns.items():
        # the uncalled part paid back through the player's collect line: always so at Winamax;
        # elsewhere the missing return line is A001's finding, not a second one here
        if not t.facts.prints_uncalled and t.facts.silent_return_without_collect and not pt.collected.get(n):
            continue  # returned without a line (888): nothing of it is printed
        if t.facts.converted and not _silent_era(t):
            # a converter's record: what it did not print as returned (or printed beyond the
            # uncalled part) comes through the collect line
            paid[n] = paid.get(n, 0) + v - pt.printed_returns.get(n, 0)
        elif (not t.facts.prints_uncalled and t.facts.uncalled_in_collect and not pt.printed_returns.get(n)) or (
            not pt.printed_returns.get(n) and pt.collected.get(n, 0) - paid.get(n, 0) == v
        ):
            paid[n] = paid.get(n, 0) + v
    # A player who cashed the hand out is settled by the site (PokerStars prints "pot not awarded
    # as player cashed out"): no collect line is expected for them.
    for n in _cashed_out(t):
        if not pt.collected.get(n):
            paid.pop(n, None)
            pt.paid_low.pop(n, None)
            pt.paid_high.pop(n, None)
    names = sorted(set(paid) | set(pt.collected))
    diffs = {n: pt.collected.get(n, 0) - paid.get(n, 0) for n in names}
    if not pt.allocation_known:
        # only the bounds are known: between the pots less all the rake and the whole pots
        extra = t.facts.prints_uncalled is False and t.facts.uncalled_in_collect
        for n in names:
            ret = pt.expected_returns.get(n, 0) if extra and not pt.printed_returns.get(n) else 0
            if ret and t.facts.silent_return_without_collect and not pt.collected.get(n):
                ret = 0
            lo, hi = pt.paid_low.get(n, 0) + ret, pt.paid_high.get(n, 0) + ret
            got = pt.collected.get(n, 0)
            diffs[n] = 0 if lo <= got <= hi else (got - hi if got > hi else got - lo)
    wrong = {n: d for n, d in diffs.items() if d}
    if not wrong or _split_in_site_units(t, pt) or _odd_chips_unjudged(t, pt, wrong):
        return out
    winners = {n for n in paid if paid[n]}
    takers = {n for n in pt.collected if pt.collected[n]}
    if winners == takers and sum(pt.collected.values()) != sum(paid.values()) and pt.allocation_known:
        return out  # the right players, but chips appeared or vanished: A010's finding
    small = all(abs(d) <= max(1, len(winners)) * t.facts.odd_chip_unit for d in wrong.values())
    # Where the site names the pot it paid from ("collected $5 from side pot-1") and its pots are
    # the derived ones, a payment from a pot the player was not eligible for is A005 at that line.
    by_label = {p.label: p for p in pt.pots}
    labelled = {e.pot for e in t.of(Collect)} <= set(by_label) and len(t.of(Collect)) > 0
    ineligible: set[str] = set()
    if labelled:
        for e in t.of(Collect):
            if e.player in wrong and e.player not in by_label[e.pot].eligible and e.player not in ineligible:
                ineligible.add(e.player)
                out.append(flag(t, "A005", e.line, e.col,
                    f"{e.player} collected {money(h, e.amount)} from the {e.pot} pot, which only "
                    f"{', '.join(by_label[e.pot].eligible)} could win. Pots: {_award_text(t, pt)}",
                    expected=0, actual=e.amount, player=e.player, pot=e.pot, cite=_CITE_POTS,
                ))  # fmt: skip
    for n, d in sorted(wrong.items()):
        if n in ineligible:
            continue
        got, want = pt.collected.get(n, 0), paid.get(n, 0)
        player = t.players.get(n)
        if d > 0 and (player is None or player.folded or got > _eligible_total(pt, n)):
            kind = "A005"
        elif small and winners == takers:
            kind = "A007" if h.game in _HILO else ("A008" if h.runs > 1 else "A006")
        elif h.runs > 1 and winners == takers:
            kind = "A008"
        elif h.game in _HILO and winners & takers:
            kind = "A007"
        elif winners == takers and any(len(a.winners) > 1 for a in pt.awards):
            kind = "A006"  # the tied players paid, but the tie split unevenly beyond the odd chips
        else:
            kind = "A004"
        line, col = _collect_line(t, n)
        cite = {"A006": _CITE_ODD, "A007": _CITE_HILO, "A008": _CITE_RIT}.get(kind, _CITE_SHOWDOWN + "; " + _CITE_POTS)
        out.append(flag(t, kind, line, col,
            f"{n} collected {money(h, got)}; the rules pay {n} {money(h, want)}. Pots: {_award_text(t, pt)}",
            expected=want, actual=got, player=n, cite=cite,
        ))  # fmt: skip
    return out


def _odd_chips_unjudged(t: Trace, pt: PotTrace, wrong: dict[str, int]) -> bool:
    """The profile leaves the odd chips' recipients unjudged (``odd_chip = "unjudged"``) and the
    only differences are odd chips given to other tied players of a pot: each tied player gets
    their even share plus at most one odd chip (of the site's unit), and nothing is gained or lost
    overall."""
    if t.profile.odd_chip != "unjudged" or sum(wrong.values()) != 0:
        return False
    unit = t.facts.odd_chip_unit
    ruled: dict[str, int] = {}  # what the rules pay in the awards, and the range the tie allows
    lo: dict[str, int] = {}
    hi: dict[str, int] = {}
    for a in pt.awards:
        even = (a.amount // unit // len(a.winners)) * unit
        odd = len(a.winners) > 1 and a.amount % (unit * len(a.winners)) != 0
        for w, v in a.shares:
            ruled[w] = ruled.get(w, 0) + v
            lo[w] = lo.get(w, 0) + (even if odd else v)
            hi[w] = hi.get(w, 0) + (even + unit if odd else v)
    return all(n in ruled and lo[n] <= ruled[n] + d <= hi[n] for n, d in wrong.items())


@rule("A009", "rake-or-fee-wrong", Severity.ERROR, stage="pots")
def a009(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """Rake or fees taken where the rules forbid them.

    Tournaments take no rake from pots.  Where the site's profile says "no flop, no drop"
    (PokerStars), a hand that ends before the flop is not raked.

    Example: a PokerStars cash hand won pre-flop with ``Rake $0.05``.
    """
    h = t.hand
    if pt.claim is None:
        return NOTHING
    if h.is_tournament and pt.rake > 0:
        line, col = _claim_line(pt, t)
        return [flag(t, "A009", line, col, f"a tournament hand is raked {money(h, pt.rake)}",
                     expected=0, actual=pt.rake,
                     cite="PokerStars rake pages: no per-hand rake in tournaments")]  # fmt: skip
    nfnd = t.profile.no_flop_no_drop
    if nfnd and pt.rake > 0 and h.game in _AWARD_GAMES and not _flop_dealt(t):
        line, col = _claim_line(pt, t)
        return [flag(t, "A009", line, col,
                     f"the hand ended before the flop but is raked {money(h, pt.rake)} (no flop, no drop)",
                     expected=0, actual=pt.rake, cite="PokerStars rake pages: no flop, no drop")]  # fmt: skip
    want = expected_rake(t.profile, pt.claim.total)
    if want is not None and pt.rake != want and (not nfnd or _flop_dealt(t)):
        line, col = _claim_line(pt, t)
        num, den = t.profile.rake_rate or (0, 1)
        cap = f", capped at {money(h, t.profile.rake_cap)}" if t.profile.rake_cap is not None else ""
        return [flag(t, "A009", line, col,
                     f"the rake is {money(h, pt.rake)}; {num}/{den} of the {money(h, pt.claim.total)} pot, "
                     f"rounded {t.profile.rake_rounding.replace('_', ' ')}{cap}, is {money(h, want)}",
                     expected=want, actual=pt.rake, cite="the profile's rake table")]  # fmt: skip
    return NOTHING


def _flop_dealt(t: Trace) -> bool:
    """A flop was dealt (a loop: no generator built per hand)."""
    for e in t.of(Board):  # noqa: SIM110
        if e.street in ("flop", "turn", "river"):
            return True
    return False


def expected_rake(p: Profile, total: int) -> int | None:
    """The rake a published rate takes from ``total`` (exact integer arithmetic), or None."""
    if p.rake_rate is None:
        return None
    num, den = p.rake_rate
    q, r = divmod(total * num, den)
    if p.rake_rounding == "half_even" and (2 * r > den or (2 * r == den and q % 2 == 1)):
        q += 1
    return q if p.rake_cap is None else min(q, p.rake_cap)


@rule("A010", "chips-not-conserved", Severity.ERROR, stage="pots")
def a010(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """Chips are not conserved: collected + returned + rake + fees differs from what was put in.

    Every chip put in comes back to someone: as a return, an award, or the house's rake and fees
    (plus any house money the site added, such as a cash drop).

    Example: $20 put in, $19 collected, rake $0.50: $0.50 has vanished.
    """
    h = t.hand
    if h.cancelled or not h.complete or not pt.antes_decide_total:
        return NOTHING
    put_in = sum(pt.contributions.values()) + sum(pt.dead.values()) + pt.house + pt.antes_unattributed
    if pt.betting_unprinted and pt.claim is not None:
        put_in = pt.claim.total  # the summary alone: what went in is the printed total (P010)
    if pt.claim is None:
        # no total printed (PartyPoker before 2017, 888): the rake is unknown, but no more can come
        # out than was put in
        return _conserved_without_total(t, pt)
    returned = sum(pt.printed_returns.values())
    if not returned and t.facts.prints_uncalled and _silent_era(t) and _total_excludes(t, pt, 0):
        returned = sum(pt.expected_returns.values())  # returned without a printed line (older exports)
    if not returned and not t.facts.prints_uncalled and not t.facts.uncalled_in_collect:
        returned = sum(pt.expected_returns.values())  # returned silently, outside the collects (OnGame)
    cashed = _cashed_out(t) if t.by_type.get(CashOut) else None
    settled = sum(v for n, v in pt.expected_paid.items() if n in cashed and not pt.collected.get(n)) if cashed else 0
    out = sum(pt.collected.values()) + returned + pt.rake + pt.fees + settled
    if pt.rake < 0 and out == put_in:
        # a site that prints no rake (the reader takes it as what went in less what was paid):
        # a negative take means more was paid out than was put in
        line, col = _claim_line(pt, t)
        return [flag(t, "A010", line, col,
            f"{money(h, put_in)} was put in, but {money(h, sum(pt.collected.values()) + returned)} was paid out",
            expected=put_in, actual=sum(pt.collected.values()) + returned,
        )]  # fmt: skip
    if out != put_in:
        line, col = _claim_line(pt, t)
        return [flag(t, "A010", line, col,
            f"{money(h, put_in)} was put in, but {money(h, out)} comes out (collected "
            f"{money(h, sum(pt.collected.values()))} + returned {money(h, returned)} + rake "
            f"{money(h, pt.rake)} + fees {money(h, pt.fees)})",
            expected=put_in, actual=out,
        )]  # fmt: skip
    return NOTHING


def _conserved_without_total(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """A010 for a hand whose site prints no total pot and no rake (888, PartyPoker before 2017): more
    can never come out than went in (less can: the rake, and 888 returns some uncalled bets without
    a line)."""
    h = t.hand
    put_in = sum(pt.contributions.values()) + sum(pt.dead.values()) + pt.house
    returned = sum(pt.printed_returns.values())
    if not t.facts.prints_uncalled and not t.facts.uncalled_in_collect:
        # returned silently, outside the collects (Everleaf; PKR prints some returns, not others)
        returned += sum(max(0, v - pt.printed_returns.get(n, 0)) for n, v in pt.expected_returns.items())
    elif not t.facts.prints_uncalled and t.facts.silent_return_without_collect:
        returned += sum(v for n, v in pt.expected_returns.items() if not pt.collected.get(n))
    out = sum(pt.collected.values()) + returned
    if out > put_in:
        c = next(iter(t.of(Collect)), None)
        line, col = (c.line, c.col) if c is not None else (h.last_line, 1)
        return [flag(t, "A010", line, col,
            f"{money(h, put_in)} was put in, but {money(h, out)} comes out (collected "
            f"{money(h, sum(pt.collected.values()))} + returned {money(h, returned)})",
            expected=put_in, actual=out,
        )]  # fmt: skip
    return NOTHING


_WORDS = (
    ("straight flush", ("straight flush", "royal flush")),
    ("four of a kind", ("four of a kind", "quads")),
    ("full house", ("full house",)),
    ("flush", ("flush",)),
    ("straight", ("straight",)),
    ("three of a kind", ("three of a kind", "trips", "set of")),
    ("two pair", ("two pair", "two pairs", " and pair of ")),
    ("one pair", ("a pair", "pair of", "one pair")),
    ("high card", ("high card",)),
)


_LOW_PART = re.compile(r"\blo\s*:")


#: what :func:`printed_category` answered, by description (a site prints a few thousand different
#: ones: "a pair of Kings", "two pair, Aces and Fours" ...); emptied when it reaches the bound
_CATEGORY_OF: dict[str, str | None] = {}
_CATEGORY_BOUND = 8192


def printed_category(text: str) -> str | None:
    """The category a printed hand description names (of its high hand, before any "lo:")."""
    try:
        return _CATEGORY_OF[text]
    except KeyError:
        pass
    if len(_CATEGORY_OF) >= _CATEGORY_BOUND:
        _CATEGORY_OF.clear()
    got = _CATEGORY_OF[text] = _category_named(text)
    return got


def _category_named(text: str) -> str | None:
    """:func:`printed_category`, not remembered."""
    t = text.lower()
    if "lo" in t:  # (the low's part can only start where "lo" is printed)
        t = _LOW_PART.split(t, maxsplit=1)[0]
    for name, words in _WORDS:
        for w in words:
            if w in t:
                return name
    return None


@rule("D001", "hand-description-mismatch", Severity.INFO, stage="pots",
      applies=lambda k: k.game in _AWARD_GAMES and not k.runs_twice)  # fmt: skip
def d001(t: Trace, pt: PotTrace) -> Sequence[Finding]:
    """The hand name the site printed at showdown does not match the cards.

    Informational: awards follow the cards, not the printed description, but a wrong description
    tells a player the wrong story about why they lost.

    Example: ``Bob: shows [8d 8c] (a pair of Kings)`` on a board with no king.
    """
    h = t.hand
    game = h.game
    if game not in _AWARD_GAMES or h.runs > 1:
        return NOTHING
    for s in t.of(Show):  # (most hands show no described hand: their events are not read)
        if s.description:
            break
    else:
        return NOTHING
    out: list[Finding] | None = None
    hilo = game in HILO_GAMES
    board: list[str] = []
    described: set[str] = set()
    board_t, show_t = Board, Show
    for ev in h.events:  # (the boards and the shows, in record order; the model's event classes are final)
        ty = type(ev)
        if ty is board_t:
            b = cast(Board, ev)
            if b.run == 1:
                board = list(b.board_before) + [c for c in b.cards if c not in b.board_before] if b.board_before \
                    else (list(b.cards) if b.street in ("flop", "preflop") else board + list(b.cards))  # fmt: skip
            continue
        # a description is the hand at the moment it was shown (GG shows all-in hands early)
        if ty is not show_t or len(board) < 3:
            continue
        e = cast(Show, ev)
        if not e.cards or not e.description or not known(e.cards):
            continue
        if hilo and e.player in described:
            continue  # Winamax shows a hi-lo hand twice: the second time it describes the low
        described.add(e.player)
        printed = printed_category(e.description)
        if not printed:
            continue  # (a description that names no category: the cards are not evaluated)
        actual = category(game, e.cards, board)
        if actual and printed != actual:
            if out is None:
                out = []
            out.append(flag(t, "D001", e.line, e.col,
                            f"{e.player}'s hand is printed as {e.description!r}, but the cards make {actual}",
                            expected=actual, actual=printed, cite=_CITE_SHOWDOWN))  # fmt: skip
    return out or NOTHING
