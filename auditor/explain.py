"""``hhaudit explain``: one hand, pot by pot, the way a player disputing a payout needs it.

:func:`explain_hand` builds a plain view model (:class:`Explanation`) from the replay, the pots
and the findings; :func:`render_text` prints it for a terminal.  The HTML report renders the same
view model, so both say the same thing.  All arithmetic happens here, none in the renderers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from auditor import model as M
from auditor.audit import Audited
from auditor.findings import Finding
from auditor.replay.betting import Trace
from auditor.replay.cards import category
from auditor.replay.pots import Award, PotTrace, unattributed_antes
from auditor.rules.common import money


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    player: str
    start: str
    put_in: str
    returned: str
    should_get: str
    got: str
    final: str
    status: str
    ok: bool


@dataclass(frozen=True)
class PotRow:
    label: str
    amount: str
    arithmetic: str
    eligible: str
    net: str
    winners: str


@dataclass(frozen=True)
class ShowRow:
    player: str
    cards: str
    hand: str
    printed: str


@dataclass(frozen=True)
class FindingRow:
    code: str
    name: str
    severity: str
    line: int | None
    message: str


@dataclass
class Explanation:
    """Everything ``explain`` shows, as text ready to print (no arithmetic left for templates)."""

    title: str
    where: str
    rules: str
    players: list[PlayerRow] = field(default_factory=list)
    uncalled: list[str] = field(default_factory=list)
    pots: list[PotRow] = field(default_factory=list)
    total: str = ""
    fees: str = ""
    boards: list[str] = field(default_factory=list)
    shows: list[ShowRow] = field(default_factory=list)
    awards: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    findings: list[FindingRow] = field(default_factory=list)


def _num(h: M.Hand, v: int) -> str:
    """An amount without the currency sign, for arithmetic."""
    return money(h, v).lstrip("$€£¥").removeprefix("Rs. ").removeprefix("C$")


def arithmetic(h: M.Hand, pt: PotTrace, lo: int, hi: int, amount: int, dead: int) -> str:
    """How a layer's amount is made: ``(210 − 80) × 2 = 260`` (+ partial and dead contributions).

    Antes the site printed only as a total (P010) are named as such, not as dead money.
    """
    antes = min(unattributed_antes(h), dead)
    extra = ([f"{_num(h, dead - antes)} dead"] if dead > antes else []) + (
        [f"{_num(h, antes)} antes not attributed to players"] if antes else []
    )
    if hi == lo:
        return " + ".join(extra) + f" = {_num(h, amount)}" if antes else f"dead money {_num(h, amount)}"
    full = sum(1 for v in _levels(pt).values() if v >= hi)
    partial = [v - lo for v in _levels(pt).values() if lo < v < hi]
    width = f"({_num(h, hi)} − {_num(h, lo)})" if lo else _num(h, hi)
    terms = [f"{width} × {full}"] + [_num(h, p) for p in partial] + extra
    return " + ".join(terms) + f" = {_num(h, amount)}"


def _levels(pt: PotTrace) -> dict[str, int]:
    return {n: v - pt.expected_returns.get(n, 0) for n, v in pt.contributions.items()}


def explain_hand(a: Audited, extra: list[Finding] | None = None) -> Explanation:
    """The explanation of an audited hand (``extra`` findings, e.g. P-codes, are listed too)."""
    h, t, pt, profile = a.hand, a.trace, a.pots, a.profile
    found = sorted({id(f): f for f in [*(extra or []), *a.findings]}.values(), key=lambda f: (f.line or 0, f.code))
    stakes = f"{money(h, h.small_blind)}/{money(h, h.big_blind)}" if h.big_blind else ""
    kind = f"tournament {h.tournament_id}, level {h.level}" if h.is_tournament else "cash"
    x = Explanation(
        title=f"Hand {h.hand_id} · {h.site} · {h.game_text} {h.structure} {stakes} · {kind}",
        where=f"{h.path}, lines {h.first_line}–{h.last_line} · {h.start_time or ''} {h.time_zone or ''}".strip(),
        rules=f"{profile.name} ({profile.title})",
    )
    for f in found:
        x.findings.append(FindingRow(f.code, f.name, str(f.severity), f.line, f.message))
    if pt is None:
        x.notes.append("the hand was cancelled: no pot")
        return x
    awards = [f for f in a.findings if f.code.startswith("A")]
    named = {str(f.data["player"]) for f in awards if f.data.get("player")}
    anyone = any(not f.data.get("player") for f in awards)
    _players(x, h, t, pt, bool(awards), None if anyone else named)
    _pots(x, h, pt, t.facts.prints_total_pot)
    _showdown(x, h, pt)
    return x


def _players(
    x: Explanation, h: M.Hand, t: Trace, pt: PotTrace, award_findings: bool = True, named: set[str] | None = None
) -> None:
    """One row per player who put in or took out chips.  A row is marked as a mismatch only when the
    audit raised an award finding (A-code) about that player (``named``: the players the award
    findings name; None: a finding names nobody, so any row may be marked): explain never shows a
    mismatch that no finding it lists stands behind."""
    paid = pt.expected_paid
    for s in h.seats:
        p = t.players.get(s.player)
        if p is None or (p.name not in pt.contributions and p.name not in pt.collected):
            continue
        put = pt.contributions.get(s.player, 0) + pt.dead.get(s.player, 0)
        ret = pt.printed_returns.get(s.player, 0) or pt.expected_returns.get(s.player, 0)
        got = pt.collected.get(s.player, 0)
        should = paid.get(s.player, 0)
        status = "folded" if p.folded else ("all-in" if p.all_in else "in")
        # a site that prints no return line pays the uncalled part with the pot (PartyPoker "wins")
        silent = 0 if t.facts.prints_uncalled or s.player in pt.printed_returns else ret
        ok = got in (should, should + silent) or (
            not pt.allocation_known and pt.paid_low.get(s.player, 0) <= got <= pt.paid_high.get(s.player, 0) + silent
        )
        ok = ok or not award_findings or (named is not None and s.player not in named)
        final = money(h, s.stack - put + ret + got - (silent if got >= should + silent > should else 0))
        start = money(h, s.stack)
        if not p.stack_known:  # a record that prints no stacks (auditor/formats/partial.py)
            start = final = "?"
        returned = money(h, ret) if ret else "–"
        x.players.append(PlayerRow(s.seat, s.player, start, money(h, put), returned, money(h, should),
                                   money(h, got), final, status, ok))  # fmt: skip
    for n, v in pt.expected_returns.items():
        lv = sorted(pt.contributions.values(), reverse=True)
        second = lv[1] if len(lv) > 1 else 0
        printed = pt.printed_returns.get(n)
        site = f" (the site printed {money(h, printed)})" if printed is not None and printed != v else ""
        x.uncalled.append(f"{_num(h, pt.contributions[n])} − {_num(h, second)} = {_num(h, v)} returned to {n}{site}")
    for n, v in pt.printed_returns.items():
        if n not in pt.expected_returns:
            x.uncalled.append(f"site printed {money(h, v)} returned to {n}, but nothing of theirs was uncalled")


def _pots(x: Explanation, h: M.Hand, pt: PotTrace, prints_total: bool) -> None:
    by_pot: dict[str, list[str]] = {}
    for a in pt.awards:
        who = ", ".join(f"{w} {money(h, v)}" for w, v in a.shares)
        part = (f"run {a.run} " if h.runs > 1 else "") + ("" if a.half == "all" else f"{a.half} half ")
        share = f"{part}{money(h, a.amount)}: " if part else ""
        by_pot.setdefault(a.pot, []).append(f"{share}{who} ({_why(h, a)})")
    for p in pt.pots:
        winners = "; ".join(by_pot.get(p.label, ["not decided"]))
        sums = arithmetic(h, pt, p.low, p.high, p.amount, p.dead)
        x.pots.append(PotRow(p.label, money(h, p.amount), sums, ", ".join(p.eligible), money(h, p.net), winners))
    if pt.claim and prints_total:
        printed = f" (printed {money(h, pt.claim.total)})"
    else:  # some formats print only the rake, or a total the reader had to compute
        printed = " (the site prints no total)" if pt.claim else " (no total printed)"
    x.total = f"total pot {money(h, pt.total_expected)}{printed}"
    fees = [f"rake {money(h, pt.rake)}"]
    if pt.claim:
        fees += [f"{k} {money(h, v)}" for k, v in pt.claim.fees]
    if pt.house:
        fees.append(f"house money added {money(h, pt.house)}")
    if not pt.allocation_known:
        fees.append("the site does not say which pot the rake came from: payouts are checked within bounds")
    x.fees = ", ".join(fees)
    x.notes += pt.notes


def _why(h: M.Hand, a: Award) -> str:
    """Why a share went where it did; a tie is labelled a split, with the odd-chip rule applied."""
    if len(a.shares) < 2:
        return a.why
    amounts = [v for _w, v in a.shares]
    tie = f"split {len(a.shares)} ways, {a.why} tied"
    if len(set(amounts)) == 1:
        return f"{tie}; no odd chip"
    odd = [w for w, v in a.shares if v == max(amounts)]
    return f"{tie}; odd chip to {', '.join(odd)}, first clockwise from the button"


#: The hand a summary line names: "showed [Kd Qd] and won ($16.39) with a flush, King high".
_WITH = re.compile(r"\bwith (.+?)(?:,? (?:AII|EV|All-in|Cash ?out|Insurance)\b.*)?\s*$", re.IGNORECASE)


def _printed_names(h: M.Hand) -> dict[str, str]:
    """The hand names the site printed: on its show lines, else in its summary (GG prints them there)."""
    out = {e.player: e.description for e in h.events if isinstance(e, M.Show) and e.description}
    for e in h.events:
        if isinstance(e, M.SeatResult) and e.player not in out and e.cards:
            m = _WITH.search(e.text)
            if m:
                out[e.player] = m.group(1).strip().rstrip(",")
    return out


def _showdown(x: Explanation, h: M.Hand, pt: PotTrace) -> None:
    for r, board in sorted(pt.boards.items()):
        x.boards.append(("" if len(pt.boards) == 1 else f"run {r}: ") + " ".join(board))
    printed = _printed_names(h)
    board = pt.boards.get(1, ())
    for n, cards in pt.hole.items():
        x.shows.append(ShowRow(n, " ".join(cards), category(h.game, cards, board) or "–", printed.get(n, "")))


def render_text(x: Explanation) -> str:
    """The terminal view of :class:`Explanation`."""
    out = [x.title, x.where, f"rules: {x.rules}", ""]
    if x.players:
        rows = [("seat", "player", "start", "put in", "returned", "rules pay", "site paid", "final", "")]
        rows += [(str(p.seat), p.player, p.start, p.put_in, p.returned, p.should_get, p.got, p.final,
                  p.status + ("" if p.ok else "  ✗ MISMATCH")) for p in x.players]  # fmt: skip
        out += [*_table(rows), ""]
    out.append("Uncalled bets: " + ("; ".join(x.uncalled) if x.uncalled else "none"))
    if x.pots:
        out += ["", "Pots (each layer: what every player put in up to the next all-in level):"]
        for p in x.pots:
            out.append(f"  {p.label:<7} {p.arithmetic}   eligible: {p.eligible}")
            out.append(f"          after rake and fees: {p.net}   → {p.winners}")
        out.append(f"  {x.total}; {x.fees}")
    if x.boards:
        out += ["", "Board: " + " | ".join(x.boards)]
    if x.shows:
        out.append("Showdown (cards speak):")
        out += [f"  {s.player:<16} {s.cards:<18} {s.hand:<16} site printed: {s.printed or '–'}" for s in x.shows]
    for n in x.notes:
        out.append(f"Note: {n}")
    out += [
        "",
        "Findings:" if x.findings else "Findings: none — the site's pots, awards and betting agree with the rules.",
    ]
    out += [f"  line {f.line}: {f.code} {f.name} ({f.severity}): {f.message}" for f in x.findings]
    return "\n".join(out) + "\n"


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
