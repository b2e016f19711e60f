"""The PHH writer: a canonical :class:`~auditor.model.Hand` as a Poker Hand History (PHH) record.

PHH is the TOML hand-history standard of pokerkit (Kim, 2024: "Poker Hand History file format
specification").  A record names the variant and the table's structure (``antes``,
``blinds_or_straddles``, ``min_bet`` or ``small_bet``/``big_bet``), the ``starting_stacks`` of
the players dealt in, and the ``actions`` in order, one string each (``d dh p1 AcKd`` deals hole
cards, ``d db Jc3d5c`` the board, ``p3 cbr 300`` completes/bets/raises *to* 300, ``p2 cc`` checks
or calls, ``p1 f`` folds, ``p2 sm AhKh`` shows, ``p2 sm`` mucks).  Players are numbered ``p1`` ..
``pN`` from the first seat after the button, the button last (heads-up: the big blind is ``p1``,
the button ``p2``; pokerkit reads the blind and ante arrays reversed heads-up).

What the record gets (see ``docs/interchange.md`` for the whole mapping and what is lost):
amounts in the hand's minor units (``_decimals`` says how many decimals one unit has), ``hand``,
``table``, ``seat_count``, ``seats``, ``players``, ``currency``, the date and time, the site's
claimed ``winnings`` (its collect lines) and ``finishing_stacks``, and as user-defined fields
(underscore keys, which PHH readers keep and ignore) the site, the tournament id and level, the
button seat, the rake and total pot the site printed, and ``_losses``: what PHH cannot carry.

Each action is written on a line of its own, so a reader can name the line of each action.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from auditor import model as M
from auditor.convert.common import ConversionError, Ring, claimed_results, ring

__all__ = ["VARIANTS", "dumps", "dumps_all", "hand_to_phh_fields"]

#: (game, structure) -> PHH variant code (the variants pokerkit plays)
VARIANTS: dict[tuple[str, str], str] = {
    ("holdem", "NL"): "NT",
    ("holdem", "FL"): "FT",
    ("shortdeck", "NL"): "NS",
    ("omaha", "PL"): "PO",
    ("omaha_hilo", "FL"): "FO/8",
}
HOLE_CARDS = {"NT": 2, "FT": 2, "NS": 2, "PO": 4, "FO/8": 4}
_DATE = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*-)?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")
_LIVE = ("small_blind", "big_blind", "straddle")


def _cards(cards: Iterable[str]) -> str:
    return "".join(cards)


def _structure(hand: M.Hand, r: Ring) -> tuple[list[int], list[int], list[str]]:
    """(antes, blinds_or_straddles) per PHH player index, and the losses."""
    n = len(r.seats)
    antes, blinds = [0] * n, [0] * n
    losses: list[str] = []
    seen: set[str] = set()
    for e in hand.events:
        if not isinstance(e, M.Post):
            continue
        if e.player not in r.players:
            raise ConversionError(f"{e.player} posts without being dealt in")
        i = r.index(e.player)
        if e.kind in ("ante", "big_blind_ante"):
            antes[i] += e.amount
        elif e.kind in _LIVE:
            positional = e.kind == "straddle" or e.kind not in seen
            seen.add(e.kind)
            amount = e.amount if e.kind == "straddle" else abs(blinds[i]) + e.amount
            # a blind out of position (a new player's big blind) is a "post bet": negative in PHH
            blinds[i] = amount if positional else -amount
            if positional and n > 2 and (i, e.kind) not in ((0, "small_blind"), (1, "big_blind"), (i, "straddle")):
                # PHH's blinds are positional: p1 the small blind, p2 the big blind
                what = e.kind.replace("_", " ")
                raise ConversionError(f"a {what} posted out of its seat (PHH blinds are positional)")
        else:
            raise ConversionError(f"a {e.kind.replace('_', ' ')} post (PHH has no dead blinds)")
    if n == 2:
        antes, blinds = antes[::-1], blinds[::-1]  # PHH (pokerkit) reads them reversed heads-up
    return antes, blinds, losses


def hand_to_phh_fields(hand: M.Hand) -> tuple[dict[str, object], list[str]]:
    """The PHH fields of ``hand`` (in the standard's order) and its actions, one string each."""
    variant = VARIANTS.get((hand.game, hand.structure))
    if variant is None:
        raise ConversionError(f"{hand.structure} {hand.game} has no PHH variant pokerkit plays")
    if hand.cancelled:
        raise ConversionError("the hand was cancelled")
    if hand.runs > 1:
        raise ConversionError("the board was run more than once (PHH run-outs are not written yet)")
    r = ring(hand)
    first_act = next((i for i, e in enumerate(hand.events) if isinstance(e, M.Action)), len(hand.events))
    if any(isinstance(e, M.Post) for e in hand.events[first_act:]):
        raise ConversionError("a post printed after an action (PHH posts every blind before the first action)")
    antes, blinds, losses = _structure(hand, r)
    p = {name: f"p{i + 1}" for i, name in enumerate(r.players)}
    holes: dict[str, tuple[str, ...]] = {}
    for e in hand.events:
        if (
            isinstance(e, M.HoleCards | M.Show) and e.player in p and e.cards and "x" not in "".join(e.cards).lower()
        ) or (isinstance(e, M.Muck) and e.player in p and e.cards):
            holes.setdefault(e.player, tuple(e.cards))
    actions = [f"d dh {p[name]} {_cards(holes.get(name) or ('??',) * HOLE_CARDS[variant])}" for name in r.players]
    folded: set[str] = set()
    cash_outs: list[list[object]] = []
    cash_drop = 0
    for e in hand.events:
        if isinstance(e, M.Show | M.Muck) and (e.player in folded or len(p) - len(folded) < 2):
            if isinstance(e, M.Show):
                losses.append(f"cards {e.player} showed after the hand was over")
            continue
        if isinstance(e, M.Action):
            if e.player not in p:
                raise ConversionError(f"{e.player} acts without being dealt in")
            if e.kind == "fold":
                folded.add(e.player)
                actions.append(f"{p[e.player]} f")
            elif e.kind in ("check", "call"):
                actions.append(f"{p[e.player]} cc")
            else:
                actions.append(f"{p[e.player]} cbr {e.to}")
        elif isinstance(e, M.Board):
            actions.append(f"d db {_cards(e.cards)}")
        elif isinstance(e, M.Show) and e.player in p:
            actions.append(f"{p[e.player]} sm {_cards(e.cards)}" if e.cards else f"{p[e.player]} sm -")
        elif isinstance(e, M.Muck) and e.player in p:
            actions.append(f"{p[e.player]} sm")
            if e.cards:
                losses.append(f"mucked cards of {e.player} shown by the site")
        elif isinstance(e, M.CashOut) and e.player in p:
            # hhaudit's own field (PHH has no cash-out): [player, amount, fee, kind]
            cash_outs.append([p[e.player], e.amount, e.fee if e.fee is not None else -1, e.kind])
        elif isinstance(e, M.CashOut):
            losses.append(f"cash-out of {e.player}")
        elif isinstance(e, M.CashDrop):
            cash_drop += e.amount
        elif isinstance(e, M.Draw):
            raise ConversionError("draw games are not written to PHH yet")
    res = claimed_results(hand)
    finishing = res.finishing(hand)
    fields: dict[str, object] = {"variant": variant, "ante_trimming_status": False, "antes": antes,
                                 "blinds_or_straddles": blinds}  # fmt: skip
    bb = next((e.amount for e in hand.events if isinstance(e, M.Post) and e.kind == "big_blind" and not e.all_in),
              hand.big_blind or 0)  # fmt: skip
    if variant in ("FT", "FO/8"):
        small_bet = bb or hand.small_blind or 0
        fields["small_bet"], fields["big_bet"] = small_bet, 2 * small_bet
    else:
        fields["min_bet"] = bb
    fields["starting_stacks"] = [s.stack for s in r.seats]
    fields["actions"] = actions
    fields["hand"] = hand.hand_id
    if hand.table:
        fields["table"] = hand.table
    if hand.max_seats:
        fields["seat_count"] = hand.max_seats
    fields["seats"] = [s.seat for s in r.seats]
    fields["players"] = r.players
    m = _DATE.search(hand.start_time or "")
    if m:
        y, mo, d, hh, mm, ss = m.groups()
        fields["year"], fields["month"], fields["day"] = int(y), int(mo), int(d)
        fields["time"] = f"{int(hh):02d}:{mm}:{int(ss or 0):02d}"
    if hand.time_zone:
        fields["time_zone"] = hand.time_zone
    if hand.currency:
        fields["currency"] = hand.currency
    fields["finishing_stacks"] = [finishing[s.player] for s in r.seats]
    fields["winnings"] = [res.collected.get(s.player, 0) for s in r.seats]
    if any(res.returned.values()):
        # the site's "Uncalled bet (X) returned to Y" lines (PHH has none): per player, like winnings
        fields["_returns"] = [res.returned.get(s.player, 0) for s in r.seats]
    if cash_outs:
        fields["_cash_outs"] = cash_outs
    if cash_drop:
        fields["_cash_drop"] = cash_drop  # money the site put into the pot (GGPoker "Cash Drop")
    fields["_site"] = hand.site
    # the claims (collects, returns, total pot) are printed the source's way: the reader judges
    # them by the source's export facts (the brand's, or a third-party conversion's)
    if hand.extras.get("brand"):
        fields["_brand"] = hand.extras["brand"]
    if "converted" in hand.extras:
        fields["_converted"] = True
    fields["_decimals"] = hand.decimals
    if hand.button is not None:
        fields["_button"] = hand.button
    if hand.tournament_id:
        fields["_tournament"] = hand.tournament_id
    if hand.level:
        fields["_level"] = hand.level
    claim = next((e for e in hand.events if isinstance(e, M.PotClaim)), None)
    if claim is not None:
        fields["_total_pot"] = claim.total
        if claim.rake is not None:
            fields["_rake"] = claim.rake
        if claim.fees:
            fields["_fees"] = [[k, v] for k, v in claim.fees]
        if claim.unit != 1:
            fields["_pot_unit"] = claim.unit  # the site prints its totals rounded to this unit
    sitting = [s.player for s in hand.seats if s.player not in p]
    if sitting:
        losses.append("seated players not dealt in: " + ", ".join(sitting))
    if losses:
        fields["_losses"] = losses
    return fields, actions


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v), ensure_ascii=False)


def dumps(hand: M.Hand) -> str:
    """One PHH record (a ``.phh`` file's text), one action per line."""
    fields, _ = hand_to_phh_fields(hand)
    out = []
    for k, v in fields.items():
        if k == "time":
            out.append(f"time = {v}")  # a TOML local time, as pokerkit writes it
        elif k == "actions":
            out.append("actions = [")
            out.extend(f"  {_value(a)}," for a in v)  # type: ignore[attr-defined]
            out.append("]")
        else:
            out.append(f"{k} = {_value(v)}")
    return "\n".join(out) + "\n"


def dumps_all(hands: Iterable[M.Hand]) -> str:
    """Several records as one ``.phhs`` file: a table per hand (``[1]``, ``[2]`` ...)."""
    return "\n".join(f"[{i}]\n{dumps(h)}" for i, h in enumerate(hands, start=1))
