"""The Open Hand History writer: a canonical :class:`~auditor.model.Hand` as an OHH document
(JSON, hh-specs.handhistory.org, v1.4.7), the format PokerTracker 4 and Hold'em Manager 3 import.

One hand is one JSON object ``{"ohh": {...}}``; a file holds hands separated by a blank line.  The
mapping (see ``docs/interchange.md``): header facts to the ``ohh`` object, seats to ``players``
(``id`` = the seat's position in the seat list), every post, dealt card and action to ``rounds``
(one per street; ``Showdown`` for shows and mucks), the summary's pots, rake and jackpot to
``pots``, and each collect line to a ``player_wins`` entry of its pot.  An action's ``amount`` is
the chips it adds (a raise's increment, not its total).  Amounts are decimal numbers of the
currency (or chips), written from the integer minor units without ever passing through a float.

OHH has no field for an uncalled bet returned, a cash drop, a seat's summary line or table chat:
those are lost.  hhaudit's own facts that OHH cannot hold (the printed total pot, the amount unit,
the source site) go to the extension object ``x_hhaudit``, which readers that do not know it ignore.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from auditor import model as M

__all__ = ["SPEC_VERSION", "dumps", "dumps_all", "hand_to_ohh"]

SPEC_VERSION = "1.4.7"
GAME_TYPES: dict[str, str] = {"holdem": "Holdem", "shortdeck": "Holdem", "omaha": "Omaha", "omaha5": "Omaha",
                              "omaha6": "Omaha", "omaha_hilo": "OmahaHiLo", "omaha5_hilo": "OmahaHiLo",
                              "courchevel": "Omaha", "courchevel_hilo": "OmahaHiLo", "stud": "Stud",
                              "stud_hilo": "StudHiLo", "razz": "Razz", "draw": "Draw", "other": "Other"}  # fmt: skip
BET_TYPES: dict[str, str] = {"NL": "NL", "PL": "PL", "FL": "FL", "CAP": "NL", "MIXED": "FL"}
STREETS: dict[str, str] = {"preflop": "Preflop", "flop": "Flop", "turn": "Turn", "river": "River", "third": "Third",
                           "fourth": "Fourth", "fifth": "Fifth", "sixth": "Sixth", "seventh": "Seventh",
                           "draw1": "Draw1", "draw2": "Draw2", "draw3": "Draw3", "showdown": "Showdown"}  # fmt: skip
POSTS: dict[str, str] = {"small_blind": "Post SB", "big_blind": "Post BB", "ante": "Post Ante",
                         "big_blind_ante": "Post Ante", "straddle": "Straddle", "dead_small_blind": "Post Dead",
                         "small_big_blind": "Post Extra Blind", "missed_blind": "Post Dead",
                         "button_blind": "Post Extra Blind", "bring_in": "Post Bring-In"}  # fmt: skip
ACTIONS: dict[str, str] = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise",
                           "complete": "Bet"}  # fmt: skip

_NUM = "\x00num:"
_NUM_RE = re.compile(r'"\\u0000num:(-?\d+(?:\.\d+)?)"')


def _n(amount: int, decimals: int) -> str:
    """An amount in minor units as a marked decimal number (written bare by :func:`dumps`)."""
    return _NUM + str(Decimal(amount).scaleb(-decimals)) if decimals else _NUM + str(amount)


def hand_to_ohh(hand: M.Hand) -> dict[str, Any]:
    d = hand.decimals
    ids = {s.player: i for i, s in enumerate(hand.seats)}
    players = [{"id": ids[s.player], "seat": s.seat, "name": s.player, "display": s.player,
                "starting_stack": _n(s.stack, d), **({"player_bounty": _n(s.bounty, 2)} if s.bounty else {}),
                "is_sitting_out": s.sitting_out} for s in hand.seats]  # fmt: skip
    rounds: list[dict[str, Any]] = []
    number = 0

    def round_for(street: str, cards: tuple[str, ...] = ()) -> dict[str, Any]:
        r: dict[str, Any] = {"id": len(rounds), "street": STREETS.get(street, "Preflop"), "cards": list(cards),
                             "actions": []}  # fmt: skip
        rounds.append(r)
        return r

    def act(what: str, e: M.Event, player: str, **kw: Any) -> None:
        nonlocal number
        cur = rounds[-1] if rounds else round_for("preflop")
        street = STREETS.get(e.street, "Preflop")
        if cur["street"] != street and street == "Showdown":
            cur = round_for("showdown")
        cur["actions"].append({"action_number": number, "player_id": ids.get(player, -1), "action": what, **kw})
        number += 1

    pots_seen: dict[str, list[dict[str, Any]]] = {}
    claim: M.PotClaim | None = None
    cashouts: dict[str, M.CashOut] = {}
    returns: list[list[object]] = []  # the site's uncalled-bet lines: OHH has no action for them
    cash_drop = 0
    for e in hand.events:
        if isinstance(e, M.Post):
            act(POSTS[e.kind], e, e.player, amount=_n(e.amount, d), is_allin=e.all_in)
        elif isinstance(e, M.HoleCards):
            act("Dealt Cards", e, e.player, cards=list(e.cards + e.new_cards))
        elif isinstance(e, M.Action):
            extra: dict[str, Any] = {"amount": _n(e.increment, d), "is_allin": e.all_in} if e.increment else {}
            if not e.increment and e.all_in:
                extra = {"is_allin": True}
            act(ACTIONS[e.kind], e, e.player, **extra)
        elif isinstance(e, M.Board):
            round_for(e.street, e.cards)
        elif isinstance(e, M.Show):
            act("Shows Cards", e, e.player, cards=list(e.cards))
        elif isinstance(e, M.Muck):
            act("Mucks Cards", e, e.player, cards=list(e.cards))
        elif isinstance(e, M.Collect):
            pots_seen.setdefault(e.pot, []).append({"player_id": ids.get(e.player, -1), "win_amount": _n(e.amount, d)})
        elif isinstance(e, M.CashOut):
            cashouts[e.player] = e
        elif isinstance(e, M.UncalledReturn):
            returns.append([ids.get(e.player, -1), _n(e.amount, d)])
        elif isinstance(e, M.CashDrop):
            cash_drop += e.amount
        elif isinstance(e, M.PotClaim) and (claim is None or e.street == "summary"):
            claim = e
    for w in [w for ws in pots_seen.values() for w in ws]:
        name = next((p for p, i in ids.items() if i == w["player_id"]), None)
        if name in cashouts:
            c = cashouts.pop(name)
            w["cashout_amount"] = _n(c.amount, d)
            if c.fee is not None:
                w["cashout_fee"] = _n(c.fee, d)
    for name, c in cashouts.items():  # a cash-out with no win of its own (the pot not awarded)
        w = {"player_id": ids.get(name, -1), "win_amount": _n(0, d), "cashout_amount": _n(c.amount, d)}
        if c.fee is not None:
            w["cashout_fee"] = _n(c.fee, d)
        pots_seen.setdefault(next(iter(pots_seen), "pot"), []).append(w)
    pots = []
    labels = list(dict.fromkeys([*(lab for lab, _ in (claim.pots if claim else ())), *pots_seen]))
    if not (claim and claim.pots):
        # the collects' pots in the order a reader numbers them (main, side-1, ...), whatever order
        # the site printed its collect lines in (Winamax: the last side pot first)
        labels.sort(key=lambda lab: 0 if lab == "main" else int(lab[5:]) if re.fullmatch(r"side-\d+", lab) else -1)
    if not labels and claim is not None:
        labels = ["pot"]
    printed = dict(claim.pots) if claim else {}
    jackpot = sum(v for k, v in (claim.fees if claim else ()) if "jackpot" in k.lower())
    for i, lab in enumerate(labels):
        won = sum(int(w["win_amount"][len(_NUM) :].replace(".", "")) for w in pots_seen.get(lab, []))
        amount = printed.get(lab, claim.total if claim is not None and len(labels) == 1 else won)
        pot: dict[str, Any] = {"number": i, "amount": _n(amount, d)}
        if i == 0 and claim is not None:
            pot["rake"] = _n(claim.rake or 0, d)
            if jackpot:
                pot["jackpot"] = _n(jackpot, d)
        pot["player_wins"] = pots_seen.get(lab, [])
        pots.append(pot)
    ohh: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": hand.site,
        "network_name": hand.site,
        "internal_version": "hhaudit",
        "tournament": hand.is_tournament,
        "game_number": hand.hand_id,
        "start_date_utc": _iso(hand.start_time),
        "table_name": hand.table or "",
        "game_type": GAME_TYPES.get(hand.game, "Other"),
        "bet_limit": {"bet_type": BET_TYPES[hand.structure], **({"bet_cap": _n(hand.cap, d)} if hand.cap else {})},
        "table_size": hand.max_seats or len(hand.seats),
        "currency": hand.currency or ("PLAY" if hand.play_money else "CHIPS" if hand.is_tournament else ""),
        "dealer_seat": hand.button if hand.button is not None else 0,
        "small_blind_amount": _n(hand.small_blind or 0, d),
        "big_blind_amount": _n(hand.big_blind or 0, d),
        "ante_amount": _n(hand.ante or 0, d),
        "flags": [f for f, on in (("PlayMoney", hand.play_money), ("RunItTwice", hand.runs > 1)) if on],
        "players": players,
        "rounds": rounds,
        "pots": pots,
    }
    hero = next((e.player for e in hand.events if isinstance(e, M.HoleCards) and e.cards), None)
    if hero is not None and hero in ids:
        ohh["hero_player_id"] = ids[hero]
    if hand.is_tournament:
        ohh["tournament_info"] = {
            "tournament_number": hand.tournament_id,
            **({"level": hand.level} if hand.level else {}),
        }
    x: dict[str, Any] = {"button": hand.button, "max_seats": hand.max_seats, "decimals": d, "game": hand.game, "structure": hand.structure, "game_text": hand.game_text,  # noqa: E501
                         "start_time": hand.start_time, "time_zone": hand.time_zone, "runs": hand.runs}  # fmt: skip
    if claim is not None:
        x["total_pot"] = _n(claim.total, d)
        if not claim.pots and len(pots) > 1:
            x["pots_printed"] = False  # the pots are the collects' (the site printed only a total)
        if claim.unit != 1:
            x["pot_unit"] = claim.unit  # the site prints its totals rounded to this unit
        if claim.fees:
            x["fees"] = [[k, _n(v, d)] for k, v in claim.fees]
    if hand.cancelled:
        x["cancelled"] = True
    if returns:
        x["returns"] = returns
    if cash_drop:
        x["cash_drop"] = _n(cash_drop, d)
    if hand.extras:
        x["extras"] = dict(hand.extras)
    ohh["x_hhaudit"] = {k: v for k, v in x.items() if v is not None}
    return {"ohh": ohh}


def _iso(start: str | None) -> str:
    m = re.search(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*-)?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?", start or "")
    if not m:
        return ""
    y, mo, dd, hh, mm, ss = m.groups()
    return f"{y}-{int(mo):02d}-{int(dd):02d}T{int(hh):02d}:{mm}:{int(ss or 0):02d}"


def dumps(hand: M.Hand) -> str:
    """One OHH document, indented (one field per line), with exact decimal amounts."""
    text = json.dumps(hand_to_ohh(hand), indent=1, ensure_ascii=False)
    return _NUM_RE.sub(lambda m: m.group(1), text) + "\n"


def dumps_all(hands: Iterable[M.Hand]) -> str:
    """Several documents, separated by a blank line (the ``.ohh`` file layout)."""
    return "\n".join(dumps(h) for h in hands)
