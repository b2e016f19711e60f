"""The Merge Gaming network XML reader (Carbon Poker, Lock Poker, Minted and the network's other
skins, 2010-2015).

A Merge export is a sequence of hands, each a ``<description type=.. stakes=..>`` line and a
``<game id starttime numholecards gametype data ..>`` element (files concatenate hands without a
root element).  A game holds ``<players dealer=..>`` (one ``<player seat nickname balance
dealtin>`` each, seats numbered from 0 as printed) and ``<round id=..>`` elements: ``BLINDS``,
``PREFLOP``, ``POSTFLOP`` .. ``POSTRIVER`` (flop games), ``BRING_IN``, ``THIRD_STREET`` ..
``SEVENTH_STREET`` (stud), ``PRE_FIRST_DRAW``, ``FIRST_DRAW``, ``POST_FIRST_DRAW`` .. (draw),
``SHOWDOWN``, ``END_OF_GAME`` / ``END_OF_FOLDED_GAME`` (``<winner amount uncalled potnumber
player pottype>``) and ``GAME_CANCELLED``.  Events name the player by seat number.

Amounts: ``CALL``, ``BET``, ``ALL_IN`` and the posts print the chips put in; ``RAISE`` and
``COMPLETE`` print the player's new total on the street, except in the exports of 2010 and
before, which print the chips put in (a raise from the small blind of $1 to $6 is ``RAISE
amount="5.00"``; the winner's amount then shows it).  The corpus has such hands from 2008 and
September 2010 and raise-to hands from January 2011 on; the change is taken at the turn of the year.

Tournament balances: the exports of 2011-2012 print each balance after the forced bets of the
``BLINDS`` round were taken (a player all-in for the ante shows ``balance="$0.00"``); the exports
whose game carries a ``version`` (``version="1"``, the new header of August 2012 with ``starttime=
"2012/08/23 02:11:39 -0300"``, and ``version="2.1"`` of 2015) print it before them (a heads-up
tournament's two balances add up to the 3,000 chips dealt in every hand; in the older exports they
add up to 3,000 with the blinds).  The reader adds the forced bets back to the older balances, so a
seat's stack is always the stack at the start of the hand.

The board is printed whole at the end of each round (``<cards type="COMMUNITY">``), so each
street's new cards are told from the last.

What Merge never prints: a total pot, the rake, all-in marks on calls or bets that are not
``ALL_IN`` events.  An uncalled bet is printed as a ``<winner uncalled="true">`` entry by newer
clients; older ones pay it back inside the winner's amount.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from typing import Any, cast

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk

#: The first non-blank line of a Merge file: the first hand's ``<description`` (or ``<game``).
SNIFF = r"\s*(?:\ufeff)*<(?:description\s+type=|game\s+id=\"[^\"]*\"\s+starttime=)"

_START = re.compile(r"^\s*(?:\ufeff)*<(?:description\b|game\b)")
_END = re.compile(r"</game>")

#: ``gametype`` codes (cash and tournament) and the game words they stand for.
_GAMES = {
    "2": "hold'em", "23": "hold'em", "9": "omaha", "25": "omaha", "35": "omaha hi/lo", "37": "omaha hi/lo",
    "39": "stud", "41": "stud", "43": "stud hi/lo", "45": "stud hi/lo", "47": "razz", "49": "razz",
    "55": "5 card draw", "63": "a-5 triple draw", "67": "2-7 triple draw", "71": "badugi",
}  # fmt: skip

_FLOP_ROUNDS: dict[str, str] = {"BLINDS": "PREFLOP", "PREFLOP": "PREFLOP", "POSTFLOP": "FLOP", "POSTTURN": "TURN",
                                "POSTRIVER": "RIVER"}  # fmt: skip
_STUD_ROUNDS: dict[str, str] = {"BLINDS": "3RD STREET", "BRING_IN": "3RD STREET", "THIRD_STREET": "3RD STREET",
                                "FOURTH_STREET": "4TH STREET", "FIFTH_STREET": "5TH STREET",
                                "SIXTH_STREET": "6TH STREET", "SEVENTH_STREET": "7TH STREET"}  # fmt: skip
_DRAW_ROUNDS: dict[str, str] = {"BLINDS": "PREFLOP", "PRE_FIRST_DRAW": "PREFLOP", "FIRST_DRAW": "FIRST DRAW",
                                "POST_FIRST_DRAW": "FIRST DRAW", "SECOND_DRAW": "SECOND DRAW",
                                "POST_SECOND_DRAW": "SECOND DRAW", "THIRD_DRAW": "THIRD DRAW",
                                "POST_THIRD_DRAW": "THIRD DRAW"}  # fmt: skip
_QUIET = {"CHAT", "DISCONNECTED", "RECONNECTED", "LEAVE", "PLAYER_OUT", "RABBIT", "SHOW", "MUCK"}


def _pull() -> Any:
    return ET.XMLPullParser(events=("start", "end"))


def _events(parser: Any) -> list[tuple[str, ET.Element]]:
    return cast(list[tuple[str, ET.Element]], list(parser.read_events()))


def _cards(text: str | None) -> list[str]:
    """``Ah,Td`` -> ``["Ah", "Td"]``; ``null`` (a card not seen) is left out."""
    out = []
    for c in (text or "").split(","):
        c = c.strip()
        if len(c) == 2 and c.lower() != "null":
            out.append(c[0].upper() + c[1].lower())
        elif len(c) == 3 and c.startswith("10"):
            out.append("T" + c[2].lower())
    return out


def _num(text: str | None) -> str | None:
    if text is None:
        return None
    s = re.sub(r"[^\d.\-]", "", text)
    return s or None


class Reader:
    """Splits Merge files into hands and reads each hand into a Hand."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    # -- splitting
    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        site = self.fmt.name
        start: int | None = None
        buf: list[str] = []
        has_game = False
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, text = item
            if start is not None and has_game and _START.match(text) is None:
                buf.append(text)
                if _END.search(text):
                    yield Chunk(path, site, start, tuple(buf))
                    start, buf, has_game = None, [], False
                continue
            if _START.match(text):
                is_game = "<game" in text
                if start is not None and (has_game or not is_game):
                    # a hand cut short: the next hand begins before </game>
                    yield Chunk(path, site, start, tuple(buf))
                    start, buf, has_game = None, [], False
                if start is None:
                    start, buf = lineno, []
                buf.append(text)
                has_game = has_game or is_game
                if is_game and _END.search(text):
                    yield Chunk(path, site, start, tuple(buf))
                    start, buf, has_game = None, [], False
                continue
            if start is not None:
                buf.append(text)
            elif text.strip():
                yield F.make("P002", path, lineno, 1, f"line outside any Merge hand: {text.strip()[:120]!r}",
                             site=site)  # fmt: skip
        if start is not None:
            yield Chunk(path, site, start, tuple(buf))

    # -- reading
    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines), 2)
        return a.read_guarded(self._read, chunk)

    def _elements(self, chunk: Chunk) -> tuple[ET.Element | None, ET.Element | None, dict[int, int], str | None]:
        parser = _pull()
        parser.feed("<doc>")
        where: dict[int, int] = {}
        desc = game = None
        for i, text in enumerate(chunk.lines):
            try:
                parser.feed(text.lstrip("\ufeff") + "\n")
                for ev, elem in _events(parser):
                    if ev == "start":
                        where[id(elem)] = chunk.first_line + i
                        if elem.tag == "game" and game is None:
                            game = elem
                        elif elem.tag == "description" and desc is None:
                            desc = elem
                    elif elem is game:
                        return desc, game, where, None
            except ET.ParseError as e:
                return desc, game, where, f"line {chunk.first_line + i}: {e}"
        return desc, game, where, None

    def _read(self, a: HandAssembler, chunk: Chunk) -> M.Hand | None:
        desc, game, where, error = self._elements(chunk)
        if game is None:
            why = error or "the hand has no <game> element"
            raise ReadFailure("P001", chunk.first_line, 1, f"this Merge hand cannot be read: {why}")

        def line_of(e: ET.Element) -> int:
            return where.get(id(e), chunk.first_line)

        a.line = line_of(game)
        a.facts["hand_id"] = game.get("id")
        dtype = desc.get("type", "") if desc is not None else ""
        stakes = (desc.get("stakes") if desc is not None else None) or game.get("stakes") or ""
        code = game.get("multigametype") or game.get("gametype") or ""
        game_word = _GAMES.get(code) or dtype.replace(" Tournament", "").replace("7-Stud", "stud")
        data = (game.get("data") or "").split("|")
        if len(data) < 4:
            data = (game.get("data") or "").split(":")
        tournament = "tournament" in dtype.lower() or (len(data) >= 5 and data[4].strip() == "true")
        m = re.search(r"\$?([\d.]+)/\$?([\d.]+)", stakes)
        sb = bb = None
        if m and not tournament:
            sb, bb = m.group(1), m.group(2)
        low = stakes.lower()
        structure = ("pot limit" if "pot limit" in low else "no limit" if "no limit" in low
                     else "limit" if "limit" in low else "")  # fmt: skip
        players_el = game.find("players")
        if tournament:
            first: dict[str, str] = {}
            for ev in game.iter("event"):
                t = ev.get("type") or ""
                if t in ("SMALL_BLIND", "BIG_BLIND") and t not in first:
                    first[t] = ev.get("amount") or ""
            sb, bb = _num(first.get("SMALL_BLIND")), _num(first.get("BIG_BLIND"))
        start = game.get("starttime") or ""
        date = None
        if len(start) >= 14:
            date = f"{start[:4]}/{start[4:6]}/{start[6:8]} {start[8:10]}:{start[10:12]}:{start[12:14]}"
        a.header({
            "hand_id": game.get("id"),
            "game": game_word,
            "structure": structure,
            "sb": sb,
            "bb": bb,
            "currency": "USD" if ("$" in stakes or "$" in ET.tostring(players_el, encoding="unicode")
                                  if players_el is not None else False) and not tournament else None,
            "table": data[1].strip() if len(data) > 1 else None,
            "tournament_id": (data[2].strip() if len(data) > 2 else "?") if tournament else None,
            "date": date,
            "money": "real" if game.get("realmoney") == "true" else "play",
            "max_seats": game.get("seats"),
        })  # fmt: skip
        if players_el is None or len(players_el) == 0:
            raise ReadFailure("P001", a.line, 1, "<game> without <players>: the export has no seats for this hand")
        names: dict[str, str] = {}
        # a tournament prints each balance after the forced bets of the BLINDS round were taken,
        # except in the exports with a ``version`` on the game (2012's new header, 2015's "2.1"),
        # which print it before them
        forced: dict[str, int] = {}
        if tournament and not (game.get("version") or "").strip():
            for rnd in game.iter("round"):
                if rnd.get("id") == "BLINDS":
                    for ev in rnd.iter("event"):
                        if ev.get("type") in ("ANTE", "SMALL_BLIND", "BIG_BLIND", "ALL_IN", "INITIAL_BLIND"):
                            s = ev.get("player") or ""
                            forced[s] = forced.get(s, 0) + a.amt(_num(ev.get("amount")))
        for p in players_el.iter("player"):
            a.line = line_of(p)
            seat, name = p.get("seat") or "", p.get("nickname") or ""
            names[seat] = name
            out = "sitting out" if p.get("dealtin") == "false" else ""
            stack = a.amt(_num(p.get("balance"))) + forced.get(seat, 0)
            a.seat(seat, name, a.money_text(stack), status=out)
        if players_el.get("dealer") is not None:
            a.line = line_of(players_el)
            a.table({"button": players_el.get("dealer")})
        low_game = game_word.lower()
        stud = "stud" in low_game or "razz" in low_game
        draw = "draw" in low_game or "badugi" in low_game
        rounds = _STUD_ROUNDS if stud else (_DRAW_ROUNDS if draw else _FLOP_ROUNDS)
        raise_adds = start[:6] <= "201012"
        board: list[str] = []
        seen: dict[str, list[str]] = {}
        shown: dict[str, list[str]] = {}
        winners: list[ET.Element] = []
        folded: set[str] = set()
        for rnd in game.iter("round"):
            rid = rnd.get("id") or ""
            a.line = line_of(rnd)
            if rid == "GAME_CANCELLED":
                a.cancel()
                continue
            marker = rounds.get(rid)
            community = [c for c in rnd.findall("cards") if c.get("type") == "COMMUNITY"]
            if marker is not None and rid != "BLINDS":
                if community:
                    a.line = line_of(community[-1])
                    cards = _cards(community[-1].get("cards"))
                    new = [c for c in cards if c not in board]
                    a.street_marker(marker, " ".join(new) or None, " ".join(board) or None)
                    board = cards
                else:
                    a.street_marker(marker)
            elif rid == "SHOWDOWN":
                a.street_marker("SHOW DOWN")
            for e in rnd:
                a.line = line_of(e)
                if e.tag == "cards":
                    self._cards(a, e, names, stud, seen, shown)
                elif e.tag == "event":
                    self._event(a, e, names, raise_adds, folded, shown)
                elif e.tag == "winner":
                    winners.append(e)
        if error is not None or a.cancelled:
            return a.build()
        if not winners:
            return a.build()  # no results: the hand is cut short (P005)
        a.street_marker("SUMMARY")
        for w in winners:
            a.line = line_of(w)
            player = names.get(w.get("player") or "", w.get("player") or "")
            amount = _num(w.get("amount")) or "0"
            if w.get("uncalled") == "true":
                a.uncalled(player, amount)
            else:
                pot = w.get("pottype") or "n"
                label = "main" if (w.get("potnumber") or "1") == "1" else f"side pot-{int(w.get('potnumber') or 2) - 1}"
                a.collect(player, amount, label if pot == "n" else f"{label} {'high' if pot == 'h' else 'low'}")
        return a.build()

    def _cards(self, a: HandAssembler, e: ET.Element, names: dict[str, str], stud: bool,
               seen: dict[str, list[str]], shown: dict[str, list[str]]) -> None:  # fmt: skip
        t = e.get("type") or ""
        player = names.get(e.get("player") or "", e.get("player") or "")
        cards = _cards(e.get("cards"))
        if t in ("HOLE", "DRAW_DRAWN_CARDS"):
            if not cards:
                return
            prior = seen.get(player, [])
            if stud:
                new = [c for c in cards if c not in prior]
                if new:
                    a.dealt(player, " ".join(prior) or None, " ".join(new))
                seen[player] = prior + new
            elif t == "HOLE" and not prior:
                a.dealt(player, " ".join(cards))
                seen[player] = cards
            else:
                seen[player] = cards
        elif t == "SHOWN":
            if cards:
                a.show(player, " ".join(cards))
                shown[player] = cards
        elif t == "MUCKED":
            a.muck(player, " ".join(cards) or None)
        elif t == "COMMUNITY":
            pass  # read with its round's street marker
        else:
            a.unrecognised(ET.tostring(e, encoding="unicode").strip())

    def _event(self, a: HandAssembler, e: ET.Element, names: dict[str, str], raise_adds: bool,
               folded: set[str], shown: dict[str, list[str]]) -> None:  # fmt: skip
        t = e.get("type") or ""
        seat = e.get("player") or ""
        player = names.get(seat, seat)
        amount = _num(e.get("amount"))
        if t == "FOLD":
            folded.add(player)
            a.action(player, "folds")
        elif t == "CHECK":
            a.action(player, "checks")
        elif t == "CALL":
            a.action(player, "calls", amount)
        elif t == "BET":
            a.action(player, "bets", amount)
        elif t in ("RAISE", "COMPLETE"):
            verb = "raises" if t == "RAISE" else "completes"
            if raise_adds:
                prev = a.street_bet.get(player, 0)
                a.action(player, verb, to=a.money_text(prev + a.amt(amount)))
            else:
                a.action(player, verb, to=amount)
        elif t == "ALL_IN":
            # the chips put in, whole stack: a call, bet or raise by its size
            if a.amt(amount) == 0:
                a.table_event(player, "other", "all-in for nothing")
            else:  # the assembler tells a call, bet or raise by its size
                a.action(player, "all-in", by=amount)
        elif t == "SMALL_BLIND":
            a.post(player, "small blind", amount)
        elif t in ("BIG_BLIND", "INITIAL_BLIND"):
            a.post(player, "big blind", amount)
        elif t == "RETURN_BLIND":
            a.post(player, "small & big blinds", amount)
        elif t == "ANTE":
            a.post(player, "ante", amount)
        elif t == "BRING_IN":
            a.action(player, "brings in", amount)
        elif t == "DRAW":
            try:
                n = int((e.get("text") or "0").strip())
            except ValueError:
                a.unrecognised(ET.tostring(e, encoding="unicode").strip())
                return
            a.draw(player, n)
        elif t in _QUIET:
            if t == "MUCK" and player not in folded:
                a.muck(player)
            elif t in ("PLAYER_OUT", "LEAVE", "DISCONNECTED", "RECONNECTED"):
                a.table_event(player, "other", t.lower().replace("_", " "))
        else:
            a.unrecognised(ET.tostring(e, encoding="unicode").strip())
