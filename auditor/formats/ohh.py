"""The Open Hand History reader (OHH, JSON, hh-specs.handhistory.org v1.4.7): ``.ohh`` files hold
one ``{"ohh": {...}}`` object per hand, hands separated by a blank line.

OHH carries what PHH does not: each action's amount (the chips it adds), the pots with their
rake and jackpot, and every player's win in each pot, so an OHH hand is audited for its betting,
its pots, its rake and its awards.  The reader records the document's claims as canonical events
(posts, dealt cards, actions, boards, shows and mucks, a collect per ``player_wins`` entry, a pot
claim from ``pots``); it never derives a missing amount (a call without ``amount`` adds nothing:
the replay then reports the short call).  hhaudit's own extension ``x_hhaudit`` (written by
``hhaudit convert --to ohh``) restores what OHH has no field for: the printed total pot, the
game's exact name, the amount unit.  Each event's line is the line of its ``action_number`` (the
k-th ``"action_number"`` of the text is the k-th action), of its pot's ``player_wins`` entry, or of
the round's ``street``.

A JSON document that is not an OHH hand is P003; invalid JSON is P001 at its line and column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats import vocab as V
from auditor.formats.chunk import Chunk

#: The first non-blank line of an OHH file: ``{`` alone, or ``{"ohh": ...``.
SNIFF = r"\s*\{\s*(?:\"ohh\"\s*:.*)?$"

_GAMES: dict[str, M.Game] = {"Holdem": "holdem", "Omaha": "omaha", "OmahaHiLo": "omaha_hilo", "Stud": "stud",
                             "StudHiLo": "stud_hilo", "Razz": "razz", "Draw": "draw"}  # fmt: skip
_STRUCTS: dict[str, M.Structure] = {"NL": "NL", "PL": "PL", "FL": "FL"}
_STREETS: dict[str, M.Street] = {"preflop": "preflop", "flop": "flop", "turn": "turn", "river": "river",
                                 "third": "third", "fourth": "fourth", "fifth": "fifth", "sixth": "sixth",
                                 "seventh": "seventh", "draw1": "draw1", "draw2": "draw2", "draw3": "draw3",
                                 "showdown": "showdown"}  # fmt: skip
_POSTS: dict[str, M.PostKind] = {"post sb": "small_blind", "post bb": "big_blind", "post ante": "ante",
                                 "straddle": "straddle", "post dead": "dead_small_blind",
                                 "post extra blind": "small_big_blind", "post bring-in": "bring_in"}  # fmt: skip
_ACTIONS: dict[str, M.ActionKind] = {"fold": "fold", "check": "check", "call": "call", "bet": "bet",
                                     "raise": "raise"}  # fmt: skip


class _Fail(Exception):
    def __init__(self, code: str, line: int, col: int, message: str) -> None:
        super().__init__(message)
        self.code, self.line, self.col, self.message = code, line, col, message


class Reader:
    """Splits OHH files at blank lines and reads each JSON object into a Hand."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        buf: list[str] = []
        start = 0
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, text = item
            if not text.strip():
                if buf:
                    yield Chunk(path, self.fmt.name, start, tuple(buf))
                    buf = []
                continue
            if not buf:
                start = lineno
            buf.append(text)
        if buf:
            yield Chunk(path, self.fmt.name, start, tuple(buf))

    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        try:
            return _read(chunk), []
        except _Fail as e:
            return None, [F.make(e.code, chunk.path, e.line, e.col, e.message, site=chunk.site)]


def _read(chunk: Chunk) -> M.Hand:
    first = chunk.first_line
    try:
        doc = json.loads(chunk.text, parse_float=Decimal)
    except json.JSONDecodeError as e:
        raise _Fail("P001", first + e.lineno - 1, e.colno, f"this OHH hand is not valid JSON: {e.msg}") from None
    ohh: Any = doc.get("ohh") if isinstance(doc, dict) else None
    if not isinstance(ohh, dict):
        raise _Fail("P003", first, 1, 'a JSON document that is not an Open Hand History hand (no "ohh" object)')
    x: dict[str, Any] = ohh["x_hhaudit"] if isinstance(ohh.get("x_hhaudit"), dict) else {}
    lines = chunk.lines

    def positions(key: str) -> list[tuple[int, int]]:
        pat = re.compile(rf'"{key}"\s*:')
        return [(first + i, m.start() + 1) for i, t in enumerate(lines) for m in pat.finditer(t)]

    def line_of(key: str) -> int:
        p = positions(key)
        return p[0][0] if p else first

    values: list[Any] = []

    def collect_numbers(o: Any) -> None:
        if isinstance(o, dict):
            for v in o.values():
                collect_numbers(v)
        elif isinstance(o, list):
            for v in o:
                collect_numbers(v)
        elif isinstance(o, Decimal):
            values.append(o)

    if isinstance(x.get("decimals"), int):
        decimals = int(x["decimals"])
    else:
        collect_numbers(ohh)
        decimals = max((-int(v.normalize().as_tuple().exponent) for v in values
                        if isinstance(v.normalize().as_tuple().exponent, int)), default=0)  # fmt: skip
        decimals = max(0, min(decimals, 6))
    scale = 10**decimals

    def amount(v: Any, line: int, col: int = 1) -> int:
        if v is None:
            return 0
        if isinstance(v, bool) or not isinstance(v, int | Decimal):
            raise _Fail("P006", line, col, f"the amount {v!r} is not a number")
        q = Decimal(v) * scale
        if q != q.to_integral_value():
            raise _Fail("P006", line, col, f"the amount {v} has more decimals than the hand's unit")
        return int(q)

    players = ohh.get("players")
    if not isinstance(players, list) or not players:
        raise _Fail("P001", line_of("players"), 1, "the OHH hand has no players")
    seat_lines = positions("seat")
    names: dict[int, str] = {}
    seats: list[M.Seat] = []
    for k, p in enumerate(players):
        line = seat_lines[k][0] if k < len(seat_lines) else first
        if not isinstance(p, dict) or "id" not in p or "seat" not in p:
            raise _Fail("P001", line, 1, "an OHH player without id or seat")
        name = str(p.get("name") or p.get("display") or f"Seat {p['seat']}")
        names[p["id"]] = name
        bounty = p.get("player_bounty")
        seats.append(M.Seat(int(p["seat"]), name, amount(p.get("starting_stack"), line), line,
                            int(Decimal(bounty) * 100) if bounty else None, bool(p.get("is_sitting_out"))))  # fmt: skip
    act_pos = positions("action_number")
    street_pos = positions("street")
    events: list[M.Event] = []
    n_action = 0
    board: list[str] = []
    for r_i, rnd in enumerate(ohh.get("rounds") or []):
        rline, rcol = street_pos[r_i] if r_i < len(street_pos) else (first, 1)
        street = _STREETS.get(str(rnd.get("street", "")).lower())
        if street is None:
            raise _Fail("P001", rline, rcol, f"unknown OHH street {rnd.get('street')!r}")
        cards = tuple(str(c) for c in rnd.get("cards") or [])
        if cards and board and cards[: len(board)] == tuple(board):
            # the round re-prints the board so far (Courchevel's flop repeats the card dealt pre-flop)
            events.append(M.Board(rline, rcol, street, 1, cards, ()))
            board[:] = cards
        elif cards:
            events.append(M.Board(rline, rcol, street, 1, cards, tuple(board)))
            board.extend(cards)
        for a in rnd.get("actions") or []:
            line, col = act_pos[n_action] if n_action < len(act_pos) else (rline, rcol)
            n_action += 1
            who = names.get(a.get("player_id"), str(a.get("player_id")))
            what = str(a.get("action", "")).lower()
            allin = bool(a.get("is_allin"))
            acards = tuple(str(c) for c in a.get("cards") or [])
            if what in _POSTS:
                events.append(
                    M.Post(line, col, street, 1, who, _POSTS[what], amount(a.get("amount"), line, col), allin)
                )
            elif what == "dealt cards":
                events.append(M.HoleCards(line, col, street, 1, who, acards))
            elif what in _ACTIONS:
                events.append(M.Action(line, col, street, 1, who, _ACTIONS[what], amount(a.get("amount"), line, col),
                                       0, None, allin))  # fmt: skip
            elif what == "shows cards":
                events.append(M.Show(line, col, street, 1, who, acards))
            elif what == "mucks cards":
                events.append(M.Muck(line, col, street, 1, who, acards))
            else:
                raise _Fail("P001", line, col, f"OHH action not read: {a.get('action')!r}")
    events = _with_totals(events, amount(ohh.get("big_blind_amount"), first))
    returns = x.get("returns")
    if isinstance(returns, list) and returns:
        # hhaudit's extension: the source site's uncalled-bet lines (OHH has no action for them),
        # [player_id, amount], after the last wager
        at = max((i + 1 for i, e in enumerate(events) if isinstance(e, M.Action | M.Post)), default=len(events))
        where: M.Street = next((e.street for e in reversed(events[:at]) if isinstance(e, M.Action | M.Post)),
                                   "preflop")  # fmt: skip
        rline = line_of("returns")
        events[at:at] = [M.UncalledReturn(rline, 1, where, 1, names.get(r[0], str(r[0])), amount(r[1], rline))
                         for r in returns if isinstance(r, list) and len(r) == 2]  # fmt: skip
    if x.get("cash_drop"):
        events.insert(0, M.CashDrop(line_of("cash_drop"), 1, "preflop", 1, amount(x["cash_drop"], first)))
    win_pos = positions("win_amount")
    k = 0
    total = 0
    rake = 0
    jackpot = 0
    pots: list[tuple[str, int]] = []
    pot_list = ohh.get("pots") or []
    for p_i, pot in enumerate(pot_list):
        label = "pot" if len(pot_list) == 1 else ("main" if p_i == 0 else f"side-{p_i}")
        pline = line_of("pots")
        amt = amount(pot.get("amount"), pline)
        pots.append((label, amt))
        rake += amount(pot.get("rake"), pline)
        jackpot += amount(pot.get("jackpot"), pline)
        total += amt
        for w in pot.get("player_wins") or []:
            line, col = win_pos[k] if k < len(win_pos) else (pline, 1)
            k += 1
            who = names.get(w.get("player_id"), str(w.get("player_id")))
            won = amount(w.get("win_amount"), line, col)
            if won or w.get("cashout_amount") is None:
                events.append(M.Collect(line, col, "summary", 1, who, won, label))
            if w.get("cashout_amount") is not None:
                fee = w.get("cashout_fee")
                events.append(M.CashOut(line, col, "summary", 1, who, amount(w["cashout_amount"], line, col),
                                        amount(fee, line, col) if fee is not None else None))  # fmt: skip
    if pot_list:
        fees: tuple[tuple[str, int], ...] = (("jackpot", jackpot),) if jackpot else ()
        if isinstance(x.get("fees"), list):
            fees = tuple((str(f[0]), amount(f[1], first)) for f in x["fees"])
        printed_total = amount(x["total_pot"], first) if "total_pot" in x else total + rake + jackpot
        listed = tuple(pots) if len(pots) > 1 and x.get("pots_printed", True) is not False else ()
        unit = x["pot_unit"] if isinstance(x.get("pot_unit"), int) else 1
        events.append(M.PotClaim(line_of("pots"), 1, "summary", 1, printed_total, listed, rake, fees, unit))
    bet_limit = ohh.get("bet_limit") or {}
    game = x.get("game") or _GAMES.get(str(ohh.get("game_type")), "other")
    structure = x.get("structure") or _STRUCTS.get(str(bet_limit.get("bet_type")), "NL")
    tinfo = ohh.get("tournament_info") or {}
    extras = {str(k2): str(v) for k2, v in (x.get("extras") or {}).items()}
    if "x_hhaudit" in ohh and "site_name" in ohh:
        # a record hhaudit wrote: its claims are the source site's, judged by its export facts
        extras["source_site"] = str(ohh["site_name"])
        if extras.get("brand"):
            extras["source_brand"] = extras["brand"]
        if "converted" in extras:
            extras["source_converted"] = extras["converted"]
        extras["converted"] = str(ohh["site_name"])
    currency = str(ohh.get("currency") or "") or None
    return M.Hand(
        site=chunk.site, hand_id=str(ohh.get("game_number") or f"{first}"), path=chunk.path, first_line=first,
        last_line=first + len(lines) - 1, game=game, game_text=str(x.get("game_text") or ohh.get("game_type") or ""),
        structure=structure, small_blind=amount(ohh.get("small_blind_amount"), first) or None,
        big_blind=amount(ohh.get("big_blind_amount"), first) or None,
        currency=None if currency in ("PLAY", "CHIPS") else currency, decimals=decimals,
        button=x.get("button") if "x_hhaudit" in ohh
        else (int(ohh["dealer_seat"]) if ohh.get("dealer_seat") is not None else None),
        max_seats=x.get("max_seats") if "x_hhaudit" in ohh
        else (int(ohh["table_size"]) if ohh.get("table_size") else None), table=str(ohh.get("table_name") or "") or None,  # noqa: E501
        tournament_id=str(tinfo.get("tournament_number")) if ohh.get("tournament") and tinfo.get("tournament_number")
        else None, level=str(tinfo["level"]) if tinfo.get("level") else None,
        start_time=x.get("start_time") or ohh.get("start_date_utc") or None, time_zone=x.get("time_zone"),
        play_money="PlayMoney" in (ohh.get("flags") or []), ante=amount(ohh.get("ante_amount"), first) or None,
        cap=amount(bet_limit.get("bet_cap"), first) or None, seats=tuple(seats), events=tuple(events), complete=True,
        cancelled=x.get("cancelled") is True, runs=int(x.get("runs") or 1), extras=extras,
    )  # fmt: skip


def _with_totals(events: list[M.Event], bb: int = 0) -> list[M.Event]:
    """Each wager's street total (``to``) from the chips the document says it adds."""
    out: list[M.Event] = []
    street_bet: dict[str, int] = {}
    street: str | None = None
    for e in events:
        if e.street != street and e.street != "showdown":
            street, street_bet = e.street, {}
        if isinstance(e, M.Post) and e.kind in V.LIVE_POSTS:
            street_bet[e.player] = e.amount if e.kind == "straddle" else street_bet.get(e.player, 0) + e.amount
        elif isinstance(e, M.Post) and e.kind == "small_big_blind":
            # small and big blind together: the big blind is live, the rest dead (as the replay counts it)
            street_bet[e.player] = street_bet.get(e.player, 0) + (min(e.amount, bb) if bb else e.amount)
        elif isinstance(e, M.Action) and e.kind not in ("fold", "check"):
            street_bet[e.player] = street_bet.get(e.player, 0) + e.increment
            e = M.Action(e.line, e.col, e.street, e.run, e.player, e.kind, e.increment, street_bet[e.player], None,
                         e.all_in)  # fmt: skip
        out.append(e)
    return out
