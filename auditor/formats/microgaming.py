"""The Microgaming (MPN) XML reader (the Microgaming Poker Network's clients, 2009-2017).

A Microgaming export is a sequence of hands, one XML element each: ``<Game hhversion id date
tablename stakes="0.05|0.10" betlimit="NL" gametype="Hold'em" currencysymbol rake istournament ..>``
holding ``<Seats>`` (one ``<Seat num alias balance endbalance [dealer="true"] [sittingout="true"]>``
each) and ``<Gameplay>``, a list of ``<Action seq type seat value>`` elements in the order the
site numbered them (``seq``), then one ``<Action type="Win">`` with a ``<Seat num amount pot
lowhandwin>`` per payment.  Files put ``----PRIMA.DAT----`` before the first hand and an
``ExtendedTableName: ..`` line after a hand; both are known text.  Generations: no ``hhversion``
(2009-2012), ``hhversion="2"``, ``"4"`` (2013-2014) and ``"5"`` (2016-2017).

Action types and their ``value``, taken from the files themselves (every player's values add up to
the difference between ``balance`` and ``endbalance`` less what they won):

* ``SmallBlind``, ``BigBlind``, ``PostedToPlay`` (a returning player's post, live): the post (a
  poster who also pays the dead small blind shows it only in the end balance in 2011: derived);
* ``Call``, ``Bet``, ``Raise``, ``AllIn``: the chips put in by this action (a raise is *by* it);
* ``Fold``, ``Check``; ``DealCards`` (the hero's cards), ``DealFlop``/``DealTurn``/``DealRiver``;
* ``ShowCards``/``MuckCards`` (with the cards when the site shows them);
* ``MoneyReturned``: the uncalled part paid back (``hhversion`` 4 and 5 only; older exports
  return it silently, outside the winner's amount);
* ``BadBeatContribution``: 2 cents a player pays to the bad-beat jackpot, outside the pot;
* ``Disconnect``: a table event.

Amounts are decimal in the table's currency (``currencysymbol`` is the sign in base64 UTF-16LE:
``rCA=`` is ``€``) or tournament chips (``istournament="1"``).  The ``rake`` attribute is the
house's take in cents; the site prints no total pot.  Names: ``alias`` (``unicodealias`` is the
same name in base64 UTF-16LE).  Cards: ``<Card value="10" suit="d">``.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from typing import Any, cast

from auditor import model as M
from auditor.findings import Finding
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk, split_elements

#: The first non-blank line of a Microgaming file: the export's ``----PRIMA.DAT----`` mark, or a ``<Game``.
SNIFF = r"\s*(?:\ufeff)*(?:-{4}PRIMA\.DAT-{4}\s*$|<Game (?:hhversion=\"\d+\" )?id=\"\d+\" date=\")"

_START = re.compile(r"^\s*(?:\ufeff)*<Game\b")
_END = re.compile(r"</Game>")
#: Known text between hands: the file mark and the table's extended name.
_QUIET = re.compile(r"^\s*(?:\ufeff)*(?:-{4}PRIMA\.DAT-{4}|ExtendedTableName:.*)?\s*$")

_STREETS = {"DealFlop": "FLOP", "DealTurn": "TURN", "DealRiver": "RIVER"}


def _pull() -> Any:
    return ET.XMLPullParser(events=("start", "end"))


def _events(parser: Any) -> list[tuple[str, ET.Element]]:
    return cast(list[tuple[str, ET.Element]], list(parser.read_events()))


def _cards(e: ET.Element) -> str:
    """The ``<Card value suit>`` children as ``Td 2h``."""
    out = []
    for c in e.findall("Card"):
        v, s = (c.get("value") or "").strip(), (c.get("suit") or "").strip().lower()
        out.append(("T" if v == "10" else v.upper()) + s)
    return " ".join(out)


def _b64(text: str | None) -> str:
    """A base64 UTF-16LE attribute (``currencysymbol``) as text; '' when it is not one."""
    try:
        return base64.b64decode(text or "", validate=True).decode("utf-16-le").strip()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return ""


def _game_word(gametype: str) -> str:
    low = gametype.lower().replace("'", "")
    if "omaha" in low:
        return "omaha hi/lo" if ("h/l" in low or "hi/lo" in low or "hi-lo" in low) else "omaha"
    if "holdem" in low or "hold em" in low:
        return "hold'em"
    return gametype


def _structure(betlimit: str) -> str:
    b = betlimit.strip().upper()
    return {"NL": "no limit", "PL": "pot limit", "FL": "limit", "L": "limit", "LIMIT": "limit"}.get(b, b.lower())


class Reader:
    """Splits Microgaming files into hands and reads each hand into a Hand."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    # -- splitting
    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        return split_elements(lines, path, self.fmt.name, "Microgaming", _START, _END, _QUIET)

    # -- reading
    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines), 2, facts=self.fmt.facts)
        return a.read_guarded(self._read, chunk)

    def _elements(self, chunk: Chunk) -> tuple[ET.Element | None, dict[int, int], str | None]:
        parser = _pull()
        parser.feed("<doc>")
        where: dict[int, int] = {}
        game = None
        for i, text in enumerate(chunk.lines):
            end = text.find("</Game>")
            if end >= 0:
                text = text[: end + len("</Game>")]
            try:
                parser.feed(text.lstrip("\ufeff") + "\n")
                for ev, elem in _events(parser):
                    if ev == "start":
                        where[id(elem)] = chunk.first_line + i
                        if elem.tag == "Game" and game is None:
                            game = elem
                    elif elem is game:
                        return game, where, None
            except ET.ParseError as e:
                return game, where, f"line {chunk.first_line + i}: {e}"
        return game, where, "the file ends before </Game>"

    def _read(self, a: HandAssembler, chunk: Chunk) -> M.Hand | None:
        game, where, error = self._elements(chunk)
        if game is None:
            raise ReadFailure("P001", chunk.first_line, 1, f"this Microgaming hand cannot be read: {error}")

        def line_of(e: ET.Element) -> int:
            return where.get(id(e), chunk.first_line)

        a.line = line_of(game)
        a.facts["hand_id"] = game.get("id")
        tournament = game.get("istournament") == "1" or (game.get("tabletype") or "") == "MTT"
        stakes = (game.get("stakes") or "").split("|")
        sb, bb = (stakes[0].strip(), stakes[1].strip()) if len(stakes) == 2 else (None, None)
        sign = _b64(game.get("currencysymbol"))
        currency = {"€": "EUR", "$": "USD", "£": "GBP"}.get(sign) if not tournament else None
        table = game.get("tablename") or ""
        tid = None
        if tournament:
            m = re.search(r"\[(\d+)\]", table)
            tid = m.group(1) if m else (table or "?")
        a.header({
            "hand_id": game.get("id"),
            "game": _game_word(game.get("gametype") or ""),
            "structure": _structure(game.get("betlimit") or ""),
            "sb": sb,
            "bb": bb,
            "currency": currency,
            "table": table or None,
            "tournament_id": tid,
            "date": game.get("date"),
            "money": "real" if game.get("realmoney") == "true" else "play",
            "max_seats": game.get("tablesize"),
        })  # fmt: skip
        seats_el = game.find("Seats")
        if seats_el is None or len(seats_el) == 0:
            raise ReadFailure("P001", a.line, 1, "<Game> without <Seats>: the export has no seats for this hand")
        names: dict[str, str] = {}
        for s in seats_el.iter("Seat"):
            a.line = line_of(s)
            num, name = s.get("num") or "", s.get("alias") or ""
            names[num] = name
            a.seat(num, name, s.get("balance"), status="sitting out" if s.get("sittingout") == "true" else "")
            if s.get("dealer") == "true":
                a.table({"button": num})
        play = game.find("Gameplay")
        actions = list(play.findall("Action")) if play is not None else []
        wins = [e for e in actions if e.get("type") == "Win"]
        steps = [e for e in actions if e.get("type") != "Win"]
        steps.sort(key=lambda e: int(e.get("seq") or 0) if (e.get("seq") or "").isdecimal() else 0)
        folded: set[str] = set()
        shows: list[ET.Element] = []
        # exports without hhversion (2009-2011) print a call or raise as the player's new street total;
        # hhversion 2 and later print the chips the action adds
        totals = game.get("hhversion") is None
        for e in steps:
            a.line = line_of(e)
            t = e.get("type") or ""
            player = names.get(e.get("seat") or "", e.get("seat") or "")
            value = e.get("value")
            if t in ("ShowCards", "MuckCards"):
                shows.append(e)  # shown after the board: the site lists some before the run-out
            elif t in _STREETS:
                a.street_marker(_STREETS[t], _cards(e) or None)
            else:
                self._step(a, t, player, value, e, folded, totals)
        dealt = [s for s in names.values() if s]
        if not wins and error is None and len(dealt) < 2:
            a.cancel()  # a table with one player: the site deals and ends the hand without a pot
            return a.build()
        if shows:
            a.street_marker("SHOW DOWN")
            for e in shows:
                a.line = line_of(e)
                player = names.get(e.get("seat") or "", e.get("seat") or "")
                cards = _cards(e)
                if e.get("type") == "ShowCards" and cards:
                    a.show(player, cards)
                elif player not in folded:
                    a.muck(player, cards or None)
        if error is not None or not wins:
            return a.build()  # cut short: no results (P005)
        won: dict[str, int] = {}
        for w in wins:
            for s in w.findall("Seat"):
                player = names.get(s.get("num") or "", s.get("num") or "")
                won[player] = won.get(player, 0) + a.amt(s.get("amount") or "0")
        self._silent_returns(a, seats_el, names, won, line_of(wins[0]))
        self._unprinted_dead_small_blinds(a, seats_el, names, won, steps)
        a.street_marker("SUMMARY")
        for w in wins:
            for s in w.findall("Seat"):
                a.line = line_of(s)
                player = names.get(s.get("num") or "", s.get("num") or "")
                pot = s.get("pot") or "0"
                label = "main" if pot == "0" else f"side pot-{pot}"
                if s.get("lowhandwin") == "1":
                    label += " low"
                amount = s.get("amount") or "0"
                a.collect(player, amount, label)
        rake = game.get("rake")
        if rake is not None and rake.strip().isdecimal() and not tournament:
            a.line = line_of(wins[0])
            put_in = sum(e.amount for e in a.events if isinstance(e, M.Post))
            put_in += sum(e.increment for e in a.events if isinstance(e, M.Action))
            put_in -= sum(e.amount for e in a.events if isinstance(e, M.UncalledReturn))
            a.pot_claim(put_in, rake=int(rake.strip()))
        return a.build()

    def _silent_returns(self, a: HandAssembler, seats_el: ET.Element, names: dict[str, str], won: dict[str, int],
                        line: int) -> None:  # fmt: skip
        """The uncalled part the site paid back without a MoneyReturned action (exports before
        hhversion 4, after a showdown), as its ``endbalance`` says: the seat ended with more than
        its balance less what it put in plus what it won.  Recorded as a return (the site's claim,
        printed in the seat's end balance), never inferred from the betting."""
        if any(isinstance(e, M.UncalledReturn) for e in a.events):
            return
        put: dict[str, int] = {}
        for e in a.events:
            if isinstance(e, M.Post):
                put[e.player] = put.get(e.player, 0) + e.amount
            elif isinstance(e, M.Action):
                put[e.player] = put.get(e.player, 0) + e.increment
        folded = {e.player for e in a.events if isinstance(e, M.Action) and e.kind == "fold"}
        for s in seats_el.iter("Seat"):
            player = names.get(s.get("num") or "", "")
            end = (s.get("endbalance") or "").strip()
            if not end or not put.get(player) or player in folded:
                continue
            back = a.amt(end) - (a.amt(s.get("balance")) - put[player] + won.get(player, 0))
            # only the part of the player's wager nobody matched can come back
            beyond = put[player] - max((v for n, v in put.items() if n != player), default=0)
            if 0 < back <= beyond:
                a.line = line
                a.uncalled(player, a.money_text(back))

    @staticmethod
    def _unprinted_dead_small_blinds(a: HandAssembler, seats_el: ET.Element, names: dict[str, str],
                                     won: dict[str, int], steps: list[ET.Element]) -> None:  # fmt: skip
        """A player posting to play who missed the small blind too pays it dead beside the big
        blind, and exports of 2011 print only the big blind (``PostedToPlay value="0.10"``): the
        seat's ``endbalance`` shows the small blind taken as well.  When a poster's end balance is
        exactly the table's small blind below their balance less what they put in and plus what they
        won and got back, that small blind is recorded as a dead post marked derived (the site's
        claim, printed in the end balance), right after the printed post."""
        posters = {names.get(e.get("seat") or "", "") for e in steps if e.get("type") == "PostedToPlay"}
        sb = a.amt(a.facts.get("sb")) if a.facts.get("sb") else 0
        if not sb or not posters - {""}:
            return
        net: dict[str, int] = {}
        for e in a.events:
            if isinstance(e, M.Post):
                net[e.player] = net.get(e.player, 0) - e.amount
            elif isinstance(e, M.Action):
                net[e.player] = net.get(e.player, 0) - e.increment
            elif isinstance(e, M.UncalledReturn):
                net[e.player] = net.get(e.player, 0) + e.amount
        for s in seats_el.iter("Seat"):
            player = names.get(s.get("num") or "", "")
            end = (s.get("endbalance") or "").strip()
            if player not in posters or not end or not s.get("balance"):
                continue
            if a.amt(s.get("balance")) + net.get(player, 0) + won.get(player, 0) - a.amt(end) != sb:
                continue
            at = next((i for i, e in enumerate(a.events) if isinstance(e, M.Post) and e.player == player), None)
            if at is None:
                continue
            post = a.events[at]
            a.events.insert(at + 1, M.Post(line=post.line, col=post.col, street=post.street, run=post.run,
                                           player=player, kind="dead_small_blind", amount=sb, all_in=False,
                                           derived=True))  # fmt: skip
            a.derived_posts = True

    def _step(self, a: HandAssembler, t: str, player: str, value: str | None, e: ET.Element, folded: set[str],
              totals: bool) -> None:  # fmt: skip
        if t == "SmallBlind":
            a.post(player, "small blind", value)
        elif t == "BigBlind":
            a.post(player, "big blind", value)
        elif t == "PostedToPlay":
            bb = a.facts.get("bb")
            kind = "big blind" if bb is not None and a.amt(value) >= a.amt(bb) else "small blind"
            a.post(player, kind, value, live=True)
        elif t == "Fold":
            folded.add(player)
            a.action(player, "folds")
        elif t == "Check":
            a.action(player, "checks")
        elif t == "Call" and totals:
            a.action(player, "calls", a.money_text(a.amt(value) - a.street_bet.get(player, 0)))
        elif t == "Call":
            a.action(player, "calls", value)
        elif t in ("Bet", "Raise") and totals and (t == "Raise" or max(a.street_bet.values(), default=0)):
            a.action(player, "raises", to=value)
        elif t == "Bet" and not max(a.street_bet.values(), default=0):
            a.action(player, "bets", value)
        elif t in ("Bet", "Raise"):
            # the site's "Bet" is the first voluntary wager of the street, also over the blinds: a raise
            a.action(player, "raises", increment=value)
        elif t == "AllIn":
            if a.amt(value) == 0:
                a.table_event(player, "other", "all-in for nothing")
            else:  # the chips put in: a blind before any action, else a call, bet or raise by its size
                a.action(player, "all-in", value)
        elif t == "MoneyReturned":
            a.uncalled(player, value or "0")
        elif t == "DealCards":
            cards = _cards(e)
            if cards:
                a.dealt(player, cards)
        elif t == "BadBeatContribution":
            a.table_event(player, "other", f"bad-beat jackpot contribution {value}")
        elif t == "Disconnect":
            a.table_event(player, "other", "disconnected")
        else:
            a.unrecognised(ET.tostring(e, encoding="unicode").strip())
