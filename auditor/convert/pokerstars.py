"""The PokerStars-format writer: a canonical :class:`~auditor.model.Hand` as PokerStars hand-history
text, for the tools that read nothing else (solvers, trackers).

The text is written so that hhaudit's own PokerStars grammar (``grammars/_stars.peg``,
``grammars/pokerstars.peg``) reads it back to the same canonical hand, bar what the format cannot
carry (``docs/interchange.md``).  It says it is a conversion: the header's date is written with
**no time zone** (``PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2026/08/02 11:24:53``).
PokerStars prints a zone on every hand, so the grammar marks such a record ``converted`` and hhaudit
judges it by the card's ``[brands.converted]`` facts (its uncalled-bet lines and totals are a
converter's accounting) and reports it once per file as P009 converted-record: a converted record
is never judged as a PokerStars original.  The source site's zone is therefore not written (the
local time is); the source site itself is named nowhere in the text either.

Every line is the source record's claim in PokerStars words: posts, dealt cards, actions ("raises
A to B" with the printed A), boards, "Uncalled bet (X) returned to Y", collects, shows and mucks,
cash-outs, the cash drop, table events, the summary's "Total pot" with its pots, rake and fees,
and the seat lines of the summary as printed.  Nothing is derived or repaired.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from auditor import model as M
from auditor.convert.common import ConversionError

__all__ = ["dumps", "dumps_all"]

_GAMES: dict[str, str] = {
    "holdem": "Hold'em", "omaha": "Omaha", "omaha_hilo": "Omaha Hi/Lo", "omaha5": "5 Card Omaha",
    "omaha5_hilo": "5 Card Omaha Hi/Lo", "omaha6": "6 Card Omaha", "courchevel": "Courchevel",
    "courchevel_hilo": "Courchevel Hi/Lo",
}  # fmt: skip
_STRUCTS = {"NL": "No Limit", "PL": "Pot Limit", "FL": "Limit"}
_POSTS: dict[str, str] = {
    "small_blind": "posts small blind", "big_blind": "posts big blind", "ante": "posts the ante",
    "straddle": "posts straddle", "small_big_blind": "posts small & big blinds", "missed_blind": "posts missed blind",
    "button_blind": "posts button blind", "big_blind_ante": "posts big blind ante",
}  # fmt: skip
_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£", "CNY": "¥", "INR": "₹"}
# the game names the PokerStars grammar reads (its f_game)
_GAME_TEXT = re.compile(
    r"(?:\d\+ Hold'em|Hold'em|(?:\d Card )?Omaha(?: Hi/Lo)?|Courchevel(?: Hi/Lo)?|"
    r"Short Deck Hold'em|"
    r"Split Hold'em|6\+ Hold'em)"
)
_STREETS = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}
# the table events the PokerStars grammar reads (its sitout and presence lines)
_TABLE_WORDS = re.compile(
    r"is sitting out|sits out|has returned|is back|has timed out(?: while (?:being )?disconnected)?|is disconnected|"
    r"is connected|has been disconnected|joins the table at seat #\d+|leaves the table|will be allowed to play after "
    r"the button|was removed from the table.*|finished the tournament.*|wins the tournament.*|wins the .* bounty for "
    r".*|wins .* for eliminating .*|re-buys and receives .*|takes the add-on .*|stands up|sits down"
)
_DATE = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*-)?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")


def _checked(hand: M.Hand) -> None:
    if hand.game not in _GAMES and not (hand.game == "shortdeck"):
        raise ConversionError(f"{hand.game} is not written as PokerStars text yet (flop games only)")
    if not re.fullmatch(r"[\w-]+", hand.hand_id):
        raise ConversionError(f"the hand id {hand.hand_id!r} is not a PokerStars hand number (letters, digits, '-')")
    if hand.structure not in _STRUCTS:
        raise ConversionError(f"a {hand.structure} betting structure has no PokerStars header")
    if hand.runs > 1:
        raise ConversionError("the board was run more than once (run-outs are not written yet)")
    if hand.decimals not in (0, 2):
        raise ConversionError(f"amounts with {hand.decimals} decimals (PokerStars text has 0 or 2)")
    if hand.decimals == 2 and not hand.currency and not hand.play_money:
        raise ConversionError("amounts with decimals but no currency (PokerStars text reads them as chips)")
    if any(isinstance(e, M.Post) and e.kind not in _POSTS for e in hand.events):
        raise ConversionError("a post PokerStars text has no words for (dead small blind, bring-in)")
    if any(isinstance(e, M.Draw) for e in hand.events):
        raise ConversionError("draw games are not written as PokerStars text yet")


def dumps(hand: M.Hand) -> str:
    """One hand as PokerStars text (lines separated by ``\\n``, ending with one)."""
    _checked(hand)
    d = hand.decimals
    sign = _SIGNS.get(hand.currency or "", "")

    def amt(v: int) -> str:
        text = f"{v // 10**d:,}" if not d else f"{v // 100:,}.{v % 100:02d}"
        if d and not sign:
            return text
        return f"{sign}{text}"

    out: list[str] = []
    game = "Short Deck Hold'em" if hand.game == "shortdeck" else _GAMES[hand.game]
    if _GAME_TEXT.fullmatch(hand.game_text or ""):
        game = hand.game_text
    head = f"PokerStars Hand #{hand.hand_id}: "
    stakes = f"{amt(hand.small_blind or 0)}/{amt(hand.big_blind or 0)}"
    button_blind = next((e.amount for e in hand.events if isinstance(e, M.Post) and e.kind == "button_blind"), None)
    if hand.small_blind is None and hand.big_blind is None and button_blind is not None:
        stakes = f"Button Blind {amt(button_blind)} - Ante {amt(hand.ante or 0)}"
    if hand.cap:
        stakes += f" - {amt(hand.cap)} Cap -"
    cur = f" {hand.currency}" if hand.currency else ""
    if hand.tournament_id:
        if not hand.tournament_id.isdigit():
            raise ConversionError("a tournament id that is not a number (PokerStars prints digits)")
        head += f"Tournament #{hand.tournament_id}, {game} {_STRUCTS[hand.structure]}"
        if hand.level:
            head += f" - Level {hand.level} ({stakes})"
        else:
            head += f" ({stakes}{cur})"
    else:
        head += f"{game} {_STRUCTS[hand.structure]} ({stakes}{cur})"
    m = _DATE.search(hand.start_time or "")
    if m:
        # no time zone: the mark of a converted record (see the module's docstring)
        head += f" - {m.group(0)}"
    else:
        raise ConversionError("no date: a PokerStars header without one is not marked as converted")
    out.append(head)
    table = f"Table '{hand.table or hand.hand_id}'"
    if hand.max_seats:
        table += f" {hand.max_seats}-max"
    if hand.play_money:
        table += " (Play Money)"
    if hand.button is not None:
        table += f" Seat #{hand.button} is the button"
    out.append(table)
    for s in hand.seats:
        bounty = f", {_SIGNS['USD']}{s.bounty // 100}.{s.bounty % 100:02d} bounty" if s.bounty else ""
        out.append(f"Seat {s.seat}: {s.player} ({amt(s.stack)} in chips{bounty})"
                   + (" is sitting out" if s.sitting_out else ""))  # fmt: skip
    board: list[str] = []
    hole_cards_marked = showdown_marked = summary_marked = False
    street_top = 0
    cap = hand.cap
    for e in hand.events:
        if isinstance(e, M.Post):
            out.append(f"{e.player}: {_POSTS[e.kind]} {amt(e.amount)}" + (" and is all-in" if e.all_in else ""))
            if e.kind in ("big_blind", "straddle", "small_big_blind", "small_blind", "button_blind"):
                street_top = max(street_top, e.amount if e.kind != "small_big_blind" else min(e.amount, hand.big_blind
                                                                                             or e.amount))  # fmt: skip
            continue
        if e.street == "showdown" and not showdown_marked and isinstance(e, M.Show | M.Muck | M.Collect | M.CashOut):
            out.append("*** SHOW DOWN ***")
            showdown_marked = True
        if e.street == "summary" and not summary_marked and isinstance(e, M.PotClaim | M.SeatResult):
            out.append("*** SUMMARY ***")
            summary_marked = True
        if not hole_cards_marked and isinstance(e, M.HoleCards | M.Action):
            out.append("*** HOLE CARDS ***")
            hole_cards_marked = True
        if isinstance(e, M.HoleCards):
            out.append(f"Dealt to {e.player}" + (f" [{' '.join(e.cards)}]" if e.cards else ""))
        elif isinstance(e, M.Action):
            all_in = " and is all-in" if e.all_in else ""
            capped = f" and has reached the {amt(cap)} cap" if e.cap_reached and cap else ""
            if e.kind in ("fold", "check"):
                out.append(f"{e.player}: {e.kind}s" + all_in)
            elif e.kind == "call":
                out.append(f"{e.player}: calls {amt(e.increment)}{all_in}{capped}")
            elif e.kind == "bet":
                out.append(f"{e.player}: bets {amt(e.increment)}{all_in}{capped}")
                street_top = max(street_top, e.to)
            elif e.kind == "raise":
                by = e.printed if e.printed is not None else e.to - street_top
                out.append(f"{e.player}: raises {amt(by)} to {amt(e.to)}{all_in}{capped}")
                street_top = max(street_top, e.to)
            else:
                raise ConversionError(f"a {e.kind} action has no PokerStars words in a flop game")
        elif isinstance(e, M.Board):
            name = _STREETS.get(e.street)
            if name is None:
                raise ConversionError(f"a board dealt on {e.street}")
            prior = f" [{' '.join(e.board_before)}]" if e.board_before else ""
            out.append(f"*** {name} ***{prior} [{' '.join(e.cards)}]")
            board[:] = [*e.board_before, *e.cards]
            street_top = 0
        elif isinstance(e, M.UncalledReturn):
            out.append(f"Uncalled bet ({amt(e.amount)}) returned to {e.player}")
        elif isinstance(e, M.Show):
            desc = f" ({e.description})" if e.description is not None else ""
            out.append(f"{e.player}: shows [{' '.join(e.cards)}]{desc}")
        elif isinstance(e, M.Muck):
            out.append(f"{e.player}: mucks hand" + (f" [{' '.join(e.cards)}]" if e.cards else ""))
        elif isinstance(e, M.Collect):
            pot = {"pot": "pot", "main": "main pot"}.get(e.pot) or re.sub(r"^side-(\d+)$", r"side pot-\1", e.pot)
            out.append(f"{e.player} collected {amt(e.amount)} from {pot}")
        elif isinstance(e, M.CashOut):
            fee = f" | Cash Out Fee {amt(e.fee)}" if e.fee is not None else ""
            out.append(f"{e.player}: cashed out the hand for {amt(e.amount)}{fee}")
        elif isinstance(e, M.CashDrop):
            out.append(f"Cash Drop to Pot : total {amt(e.amount)}")
        elif isinstance(e, M.TableEvent):
            if e.kind == "chat" and e.player:
                out.append(f'{e.player} said, "{e.text}"')
            elif e.player and _TABLE_WORDS.fullmatch(e.text.strip()):
                out.append(f"{e.player}: {e.text.strip()}")
            # other table events (GGPoker "chooses to EV cashout", Winamax "denies big blind") have
            # no PokerStars words: not written (docs/interchange.md)
        elif isinstance(e, M.PotClaim):
            pots = "".join(f" {'Main pot' if lab == 'main' else 'Side pot' + lab[4:]} {amt(v)}." for lab, v in e.pots)
            fees = "".join(f" | {k[:1].upper()}{k[1:]} {amt(v)}" for k, v in e.fees)
            rake = f" | Rake {amt(e.rake)}" if e.rake is not None else ""
            if e.unit != 1:
                raise ConversionError("a total pot printed rounded (Winamax '17.68k'): not written yet")
            out.append(f"Total pot {amt(e.total)}{pots}{rake}{fees}")
            if board:
                out.append(f"Board [{' '.join(board)}]")
        elif isinstance(e, M.Cancelled):
            out.append("Hand cancelled")
        elif isinstance(e, M.SeatResult):
            out.append(f"Seat {e.seat}: {e.player}{e.text}")
    if hand.complete and not summary_marked:
        out.append("*** SUMMARY ***")  # a complete hand whose record printed no summary (PHH, OHH)
    return "\n".join(out) + "\n"


def dumps_all(hands: Iterable[M.Hand]) -> str:
    """Several hands, separated by two blank lines (as PokerStars writes its files)."""
    return "\n\n".join(dumps(h) for h in hands)
