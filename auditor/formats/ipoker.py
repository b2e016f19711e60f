"""The iPoker XML reader (iPoker network skins: William Hill, Betfair-era skins, bet365, Unibet-era
skins, PMU, Titan, Redbet, ...).

An iPoker export is an XML *session*: ``<session sessioncode=..>`` holds one ``<general>`` block
(mode, ``<gametype>`` such as ``Holdem NL $0.02/$0.04``, ``<tablename>``, ``<currency>``, the
hero's ``<nickname>``, tournament facts) and one ``<game gamecode=..>`` per hand.  A game holds
``<general>`` (``<startdate>``, ``<players>``: one ``<player seat name chips dealer win bet ..>``
each) and ``<round no=..>`` elements with ``<cards>`` and ``<action no player type sum>``.
Archives (HEM exports) concatenate several sessions in one file; some files end without
``</session>``.

Reading streams: :meth:`Reader.split` feeds the file line by line to an
:class:`xml.etree.ElementTree.XMLPullParser` and yields one chunk per ``<game>`` (its source
lines, and the session's ``<general>`` block as the chunk's ``context``), then drops the game's
elements, so memory is bounded by one game.

Action codes (``<action type=..>``).  Their meaning was taken from the files themselves and
checked against the corpus (every player's ``sum`` values add up to the ``bet`` the site prints
for them in ``<player>``) and against public parsers of the format:

====  ===================================  ==============================================
code  meaning                              ``sum``
====  ===================================  ==============================================
0     fold                                 0
1     small blind                          the blind
2     big blind                            the blind (more than the big blind: small & big)
3     call                                 the chips added
4     check                                0
5     bet                                  the chips added
6     raise *by* (one file, old clients)   the chips added
7     all-in (a bet, call or raise)        the chips added
8     sitting out / no action this hand    0
9     sitting out (dealt no cards)     0
15    ante                                 the ante
16    bring-in (stud)                      the bring-in
23    raise *to*                           the player's new total on the street
====  ===================================  ==============================================

Cards are written suit first (``H3 CJ D10``); ``X`` is a card the hero does not see.  The hero's
pocket cards are printed; other players' cards only when they were shown at showdown (sometimes
never).  Actions are not always printed in order: they are read in the order of their ``no``.

What iPoker never prints: an uncalled-bet line, a total pot, the rake, an all-in mark on
bets that are not type 7.  Each player's ``win`` is what the site paid them and ``bet`` what it
says they put in; the reader records a pot claim with the sum of the ``bet`` values as the total
and the difference between what went in and what was paid as the house's take (so a ``win`` of
1 cent too many in a raked hand cannot be told from 1 cent less rake; in an unraked hand it
shows as chips that appeared).  Older clients pay the uncalled part back inside ``win``; newer
ones (``<uncalled_bet_enabled>``) leave it out of ``win``: either way the money balances.

Why one module of ~530 lines: the iPoker reader is one format; its XML streaming, locale and
action-code tables belong together.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any, cast

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk

#: The first non-blank line of an iPoker document: an XML declaration, or ``<session``.
SNIFF = r"\s*(?:\ufeff)*(?:<\?xml[^>]*\?>\s*(?:<session\b.*)?$|<session\b)"

_GAME_START = re.compile(r"<game\b[^>]*>")
_CODE = re.compile(r'gamecode="([^"]*)"')
_SUITS = {"H": "h", "D": "d", "C": "c", "S": "s"}
_CURRENCY_WORDS = {"€": "EUR", "$": "USD", "£": "GBP"}

#: Round names of the card elements, to the canonical street.
_CARD_STREETS: dict[str, M.Street] = {
    "Pocket": "preflop",
    "Flop": "flop",
    "Turn": "turn",
    "Second Street": "third",
    "Third Street": "third",
    "Fourth Street": "fourth",
    "Fifth Street": "fifth",
    "Sixth Street": "sixth",
}
_HOLDEM_ROUNDS: dict[str, M.Street] = {"0": "preflop", "1": "preflop", "2": "flop", "3": "turn", "4": "river"}
_STUD_ROUNDS: dict[str, M.Street] = {"0": "third", "1": "third", "2": "third", "3": "fourth", "4": "fifth",
                                     "5": "sixth", "6": "seventh"}  # fmt: skip
_STUD5_ROUNDS: dict[str, M.Street] = {"0": "third", "1": "third", "2": "third", "3": "fourth", "4": "fifth",
                                      "5": "sixth"}  # fmt: skip


def _card(c: str) -> str:
    """``H3`` -> ``3h``, ``D10`` -> ``Td``; ``X`` stays ``X``."""
    c = c.strip()
    if len(c) < 2 or c[0].upper() not in _SUITS:
        return c
    rank = c[1:].upper()
    rank = "T" if rank == "10" else rank
    return rank + _SUITS[c[0].upper()]


def _cards(text: str | None) -> list[str]:
    return [_card(c) for c in (text or "").split()]


def _known(cards: list[str]) -> list[str]:
    return [c for c in cards if c.upper() != "X" and len(c) == 2]


def _game_words(gametype: str) -> tuple[str, str, str | None, str | None]:
    """(game, structure, small, big) from ``<gametype>``: ``Holdem NL $0.02/$0.04`` ..."""
    t = gametype.strip()
    stakes = re.search(r"([^\s/]*\d[\d.,]*)\s*/\s*([^\s/]*\d[\d.,]*)\s*$", re.sub(r"\s+Ante\s.*$", "", t))
    sb = bb = None
    if stakes:
        sb, bb = stakes.group(1), stakes.group(2)
    low = t.lower()
    if "six plus" in low or "6+" in low:
        game = "short deck hold'em"
    elif "stud" in low:
        game = ("5 card stud" if low.startswith("5") else "stud") + (" hi/lo" if "hi-lo" in low else "")
    elif "omaha" in low:
        game = ("5 card omaha" if low.startswith("5") else "omaha") + (" hi/lo" if "hi-lo" in low else "")
    elif "holdem" in low or low.startswith("lh "):
        game = "hold'em"
    else:
        game = t.split(" ")[0] if t else ""
    words = low.split()
    if "pot limit" in low or any(w in ("pl", "lp") for w in words):
        structure = "pot limit"
    elif any(w in ("nl", "sl", "бл") for w in words) or "no limit" in low:
        structure = "no limit"
    elif any(w in ("l", "lz", "limit") for w in words) or low.startswith("lh "):
        structure = "limit"
    else:
        structure = ""
    return game, structure, sb, bb


def _pull() -> Any:
    """A pull parser of start and end events (typed loosely: its events are (str, Element) here)."""
    return ET.XMLPullParser(events=("start", "end"))


def _events(parser: Any) -> list[tuple[str, ET.Element]]:
    return cast(list[tuple[str, ET.Element]], list(parser.read_events()))


class _Locale:
    """How a session writes numbers: ``1,440.50`` (the default) or ``1.440,50`` (Italian skins)."""

    def __init__(self, comma_decimal: bool) -> None:
        self.comma_decimal = comma_decimal

    def norm(self, text: str | None) -> str | None:
        if text is None:
            return None
        s = text.strip()
        if not re.search(r"\d", s):
            return None
        sym = next((c for c in _CURRENCY_WORDS if c in s), "")
        num = re.sub(r"[^\d,.\-]", "", s)
        num = num.replace(".", "").replace(",", ".") if self.comma_decimal else num.replace(",", "")
        return sym + num


_MONEY_TAGS = ("bets", "wins", "chipsin", "chipsout", "buyin", "totalbuyin", "win")


def _session_locale(general: ET.Element) -> _Locale:
    texts = " ".join((e.text or "") for e in general.iter() if e.tag in _MONEY_TAGS)
    return _Locale(bool(re.search(r"\d,\d{2}(?!\d)", texts)) and not re.search(r"\d\.\d{2}(?!\d)", texts))


class Reader:
    """Splits iPoker sessions into games and reads each game into a Hand."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    # -- splitting
    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        site = self.fmt.name
        parser = _pull()
        stack: list[ET.Element] = []
        general_xml = ""
        game_start: int | None = None
        game_code = ""
        buf: list[str] = []
        broken = False
        ended = False
        last = 0
        games = 0
        first: int | None = None
        other = None  # a format hhaudit recognises but does not read (another site's XML)
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, text = item
            last = lineno
            if other is None and not games and game_start is None and lineno <= 200 and text.strip():
                from auditor.formats import REGISTRY

                other = REGISTRY.recognise(text)
            if first is None and text.strip():
                first = lineno
            if game_start is not None:
                buf.append(text)
            if ended and text.strip():
                # a further session in the same file (archives concatenate sessions)
                parser = _pull()
                stack, ended = [], False
            if broken:
                # after an XML error, resynchronise at the next game
                m = _GAME_START.search(text)
                if m is None:
                    continue
                broken = False
                parser = _pull()
                stack = []
                parser.feed("<session>")
                text_fed = text[m.start() :]
            else:
                text_fed = text
            try:
                parser.feed(text_fed.lstrip("\ufeff") + "\n")
                events = _events(parser)
            except ET.ParseError as e:
                broken = True
                if game_start is not None:
                    yield Chunk(path, site, game_start, tuple(buf), context=(general_xml, game_code))
                    games += 1
                    game_start, buf = None, []
                else:
                    yield F.make("P002", path, lineno, 1, f"the XML of this iPoker file is broken here: {e}",
                                 site=site)  # fmt: skip
                continue
            for ev, elem in events:
                if ev == "start":
                    stack.append(elem)
                    if elem.tag == "game":
                        if game_start is not None:  # a game inside a game: the first one is cut short
                            yield Chunk(path, site, game_start, tuple(buf[:-1]), context=(general_xml, game_code))
                            games += 1
                        game_start, game_code, buf = lineno, elem.get("gamecode", ""), [text]
                    continue
                if stack:
                    stack.pop()
                if not stack:
                    ended = True
                if elem.tag == "general" and stack and stack[-1].tag == "session":
                    general_xml = ET.tostring(elem, encoding="unicode")
                elif elem.tag == "game" and game_start is not None:
                    yield Chunk(path, site, game_start, tuple(buf), context=(general_xml, game_code))
                    games += 1
                    game_start, buf = None, []
                    elem.clear()
                    if stack:
                        stack[-1].remove(elem)
                elif elem.tag == "session":
                    elem.clear()
        if game_start is not None:
            # the file ends inside a game: the reader reports the game as cut short
            yield Chunk(path, site, game_start, tuple(buf), context=(general_xml, game_code))
            games += 1
        if games == 0 and first is not None and other is not None:
            # another site's XML document, a format hhaudit knows of but does not read yet
            yield F.make("P003", path, first, 1, f"this file holds {other.title} hands, a format hhaudit does not "
                         "read yet", lines=last - first + 1, format=other.name)  # fmt: skip
        elif games == 0 and first is not None:
            # an XML document without a single game (another tool's XML, or an empty session)
            yield F.make("P003", path, first, 1, "no hand history of a format hhaudit reads was found in this file "
                         "(`hhaudit formats` lists them)", lines=last - first + 1, format=None)  # fmt: skip

    # -- reading
    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        general_xml = chunk.context[0] if chunk.context else ""
        code = chunk.context[1] if len(chunk.context) > 1 else None
        min_decimals = 0
        for _attempt in range(2):
            a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines), min_decimals)
            try:
                hand = self._read(a, chunk, general_xml, code)
            except ReadFailure as e:
                if e.code == "P006" and 0 < e.needed <= 4 and a.decimals < e.needed and not min_decimals:
                    min_decimals = max(2, e.needed)
                    continue
                return None, [*a.findings, F.make(e.code, chunk.path, e.line, e.col, e.message, site=chunk.site,
                                                  hand_id=a.facts.get("hand_id") or code)]  # fmt: skip
            return hand, a.findings
        raise AssertionError("unreachable")

    def _elements(self, chunk: Chunk, code: str | None) -> tuple[ET.Element | None, dict[int, int], str | None]:
        """The game element, each element's source line (by ``id``), and an XML error if any."""
        lines = list(chunk.lines)
        if lines:
            starts = [m for m in _GAME_START.finditer(lines[0]) if code is None or f'gamecode="{code}"' in m.group(0)]
            if starts:
                lines[0] = lines[0][starts[0].start() :]
        parser = _pull()
        parser.feed("<doc>")
        where: dict[int, int] = {}
        root: ET.Element | None = None
        depth = 0
        for i, text in enumerate(lines):
            if depth == 0 and root is not None:
                break
            end = text.find("</game>")
            if end >= 0:
                text = text[: end + len("</game>")]  # what follows is the next game or session
            try:
                parser.feed(text + "\n")
                for ev, elem in _events(parser):
                    if ev == "start":
                        depth += 1
                        where[id(elem)] = chunk.first_line + i
                        if elem.tag == "game" and root is None:
                            root = elem
                    else:
                        depth -= 1
                        if elem is root:
                            return root, where, None
            except ET.ParseError as e:
                return root, where, f"line {chunk.first_line + i}: {e}"
        # the file ends before </game> (and </session>): every element read so far is whole, and
        # the players' results come first in a game, so the game is read as it stands
        return root, where, None

    def _read(self, a: HandAssembler, chunk: Chunk, general_xml: str, code: str | None) -> M.Hand | None:
        game, where, error = self._elements(chunk, code)
        a.facts["hand_id"] = code or (game.get("gamecode") if game is not None else None)
        if game is None:
            a.line = chunk.first_line
            a.unrecognised(chunk.lines[0] if chunk.lines else "")
            return None
        session = ET.fromstring(general_xml) if general_xml else ET.Element("general")
        loc = _session_locale(session)

        def line_of(e: ET.Element) -> int:
            return where.get(id(e), chunk.first_line)

        def g(tag: str) -> str | None:
            v = session.findtext(tag)
            return v.strip() if v and v.strip() and v.strip() != "N/A" else None

        gametype = g("gametype") or ""
        game_name, structure, sb, bb = _game_words(gametype)
        tournament = g("tournamentcode") or None
        if tournament is None and (g("tournamentname") is not None or g("buyin") is not None or sb is None):
            table = g("tablename") or ""
            m = re.search(r"(\d{5,})\s*$", table)
            tournament = m.group(1) if m else (table or "?")
        currency = None
        if tournament is None:
            cur = g("tablecurrency") or g("currency") or ""
            currency = cur if re.fullmatch(r"[A-Z]{3}", cur) else None
            if currency is None:
                currency = next((iso for sym, iso in _CURRENCY_WORDS.items() if sym in gametype), None)
        gen = game.find("general")
        a.line = line_of(game)
        header: dict[str, Any] = {
            "hand_id": a.facts["hand_id"],
            "game": game_name,
            "structure": structure,
            "sb": loc.norm(sb) if sb and tournament is None else None,
            "bb": loc.norm(bb) if bb and tournament is None else None,
            "currency": currency,
            "table": g("tablename"),
            "tournament_id": tournament,
            "date": (gen.findtext("startdate") or "").strip() or None if gen is not None else None,
            "money": g("mode"),
            "mode": g("mode"),
        }
        if tournament is not None:
            # blinds come from the posts: the session header prints none for tournaments
            first: dict[str, str] = {}
            for act in game.iter("action"):
                t = act.get("type")
                if t in ("1", "2") and t not in first:
                    first[t] = act.get("sum") or ""
            header["sb"] = loc.norm(first.get("1"))
            header["bb"] = loc.norm(first.get("2"))
            if _chips_can_be_added(loc, g("tournamentname"), g("buyin"), g("totalbuyin"), game):
                header["rebuys"] = "yes"
        a.header(header)
        players = gen.find("players") if gen is not None else None
        if players is None or len(players) == 0:
            a.line = line_of(gen) if gen is not None else line_of(game)
            a.unrecognised("<game> without <players>: the export has no seats for this game")
            return None
        hero = g("nickname")
        sitting_out = {e.get("player") or "" for e in game.iter("action") if (e.get("type") or "").strip() == "9"}
        button = None
        seats = []
        for p in players.iter("player"):
            a.line = line_of(p)
            if p.get("dealer") == "1":
                button = p.get("seat")  # the button may be on an empty seat (a dead button)
            if not (p.get("name") or "").strip():
                continue  # an empty seat (some clients list every seat of the table)
            seats.append(p)
            out = "sitting out" if (p.get("name") or "") in sitting_out else ""
            a.seat(p.get("seat") or "0", p.get("name") or "", loc.norm(p.get("chips")) or "0", status=out)
        if button is not None:
            a.table({"button": button})
        stud = "stud" in game_name
        rounds = _STUD5_ROUNDS if game_name.startswith("5 card stud") else (_STUD_ROUNDS if stud else _HOLDEM_ROUNDS)
        # -- betting, in the site's action order
        folded: set[str] = set()
        known_cards: dict[str, list[str]] = {}
        dealt_stud: dict[str, list[str]] = {}
        for rnd in game.iter("round"):
            street = rounds.get(rnd.get("no") or "", "river" if not stud else "seventh")
            items: list[tuple[float, ET.Element]] = []
            for k, e in enumerate(rnd):
                if e.tag == "action":
                    try:
                        items.append((float(e.get("no") or k), e))
                    except ValueError:
                        items.append((float(k), e))
                elif e.tag == "cards":
                    items.append((-1.0, e))
            board = [e for _, e in items if e.tag == "cards" and not e.get("player")]
            self._street(a, street, board, line_of)
            for _, e in [x for x in items if x[1].tag == "cards" and x[1].get("player")]:
                a.line = line_of(e)
                player = e.get("player") or ""
                cards = _known(_cards(e.text))
                if stud:
                    prior = dealt_stud.setdefault(player, [])
                    if cards:
                        a.dealt(player, " ".join(prior) or None, " ".join(c for c in cards if c not in prior) or None)
                        prior.extend(c for c in cards if c not in prior)
                        known_cards[player] = list(prior)
                elif cards:
                    if player == hero:
                        a.dealt(player, " ".join(cards))
                    known_cards[player] = cards
            for _, e in sorted((x for x in items if x[1].tag == "action"), key=lambda x: x[0]):
                a.line = line_of(e)
                self._action(a, e, loc, folded)
        # -- showdown: cards known of players still in the hand, when two or more are left
        left = [p.get("name") or "" for p in seats if (p.get("name") or "") not in folded]
        if len(left) >= 2 and any(known_cards.get(n) for n in left if n != hero):
            a.street_marker("SHOW DOWN")
            a.line = line_of(game)
            for n in left:
                if known_cards.get(n):
                    a.show(n, " ".join(known_cards[n]))
        # -- what the site paid, and what it says went in
        if error is not None or not any(p.get("win") is not None for p in seats):
            return a.build()  # no results, or the XML is broken inside the game: cut short (P005)
        a.street_marker("SUMMARY")
        total = paid = 0
        for p in seats:
            a.line = line_of(p)
            bet, win = a.amt(loc.norm(p.get("bet"))), a.amt(loc.norm(p.get("win")))
            total += bet
            paid += win
            if win:
                a.collect(p.get("name") or "", loc.norm(p.get("win")) or "0")
        a.line = line_of(players)
        # The house's take is never printed: in a cash game it is what the actions put in less
        # what was paid (negative when more was paid than put in); tournaments take none.
        put_in = sum(e.amount for e in a.events if isinstance(e, M.Post))
        put_in += sum(e.increment for e in a.events if isinstance(e, M.Action))
        a.pot_claim(total, rake=None if tournament is not None else put_in - paid)
        return a.build()

    def _street(self, a: HandAssembler, street: M.Street, board: list[ET.Element], line_of: Any) -> None:
        names = {"preflop": "PREFLOP", "flop": "FLOP", "turn": "TURN", "river": "RIVER", "third": "3RD STREET",
                 "fourth": "4TH STREET", "fifth": "5TH STREET", "sixth": "6TH STREET",
                 "seventh": "7TH STREET"}  # fmt: skip
        if board:
            a.line = line_of(board[0])
            cards = " ".join(c for e in board for c in _cards(e.text))
            a.street_marker(names.get(street, street.upper()), cards or None)
        elif a.street != street:
            a.street_marker(names.get(street, street.upper()))

    def _action(self, a: HandAssembler, e: ET.Element, loc: _Locale, folded: set[str]) -> None:
        player = e.get("player") or ""
        t = (e.get("type") or "").strip()
        amount = loc.norm(e.get("sum"))
        if t == "0":
            folded.add(player)
            a.action(player, "folds")
        elif t == "1":
            a.post(player, "small blind", amount)
        elif t == "2":
            bb = a.facts.get("bb")
            kind = "big blind"
            if bb and a.amt(amount) > a.amt(bb) and a.street == "preflop" and a.facts.get("sb"):
                kind = "small & big blinds"
            a.post(player, kind, amount)
        elif t == "3":
            a.action(player, "calls", amount)
        elif t == "4":
            a.action(player, "checks")
        elif t == "5":
            a.action(player, "bets", amount)
        elif t == "6":
            prev = a.street_bet.get(player, 0)
            current = max(a.street_bet.values(), default=0)
            a.action(player, "raises", to=str(_units(a, max(prev, current) + a.amt(amount))))
        elif t == "7":
            if a.amt(amount) == 0:
                a.table_event(player, "other", "all-in for nothing")
            else:  # the assembler tells a call, bet or raise by its size
                a.action(player, "all-in", by=amount)
        elif t == "9":
            # sitting out: the player is dealt no cards and takes no part (the seat is marked
            # sitting out; an ante posted before stays in the pot)
            a.table_event(player, "sitting_out", "sitting out")
            folded.add(player)
        elif t == "8":
            a.table_event(player, "sitting_out", "no action this hand")
        elif t == "15":
            a.post(player, "ante", amount)
        elif t == "16":
            a.action(player, "brings in", amount)
        elif t == "23":
            a.action(player, "raises", to=amount)
        else:
            a.unrecognised(ET.tostring(e, encoding="unicode").strip())


def _units(a: HandAssembler, value: int) -> str:
    """An amount in minor units written back as a number the assembler reads."""
    if a.decimals:
        whole, frac = divmod(value, 10**a.decimals)
        return f"{whole}.{frac:0{a.decimals}d}"
    return str(value)


def _chips_can_be_added(loc: _Locale, name: str | None, buyin: str | None, total: str | None,
                        game: ET.Element) -> bool:  # fmt: skip
    """The tournament lets players buy chips after the start (rebuys, add-ons, re-entries), as the
    session header says: a total buy-in above the buy-in (``<buyin>$5+$0.50</buyin>
    <totalbuyin>$15.50</totalbuyin>``), a name saying so (``$3,500 GP R/A``), or a player's
    ``rebuy``/``addon`` of 1 in the hand.  iPoker prints the chips bought only in the stacks of the
    next hand: the cross-hand stage then judges no stack that grew (a rebuy it cannot see)."""

    def amount(text: str | None) -> Decimal | None:
        # an amount or a sum of amounts ("$5+$0.50"); anything else ("Iscriviti[ ..]") is not read
        raw = (text or "").split("+")
        if not all(re.fullmatch(r"\s*[^\d\s+]{0,4}\s*\d[\d.,]*\s*", x) for x in raw):
            return None
        parts = [loc.norm(x) for x in raw]
        try:
            return sum((Decimal(re.sub(r"[^\d.\-]", "", x)) for x in parts if x), Decimal(0)) if all(parts) else None
        except InvalidOperation:
            return None

    paid, one = amount(total), amount(buyin)
    if paid is not None and one is not None and paid > one:
        return True
    if name and re.search(r"\bR/?A\b|re-?buy|add-?on|re-?entry", name, re.IGNORECASE):
        return True
    return any(p.get("rebuy") not in (None, "", "0") or p.get("addon") not in (None, "", "0")
               for p in game.iter("player"))  # fmt: skip
