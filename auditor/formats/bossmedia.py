"""The Boss Media XML reader (the Boss Media network: Betsson, Betsafe, Espacejeux, Opoker, Unibet
before iPoker, 2009-2017).

A Boss Media export is one ``<HISTORY ID SESSION TABLE GAME="GAME_THM" GAMEKIND="GAMEKIND_CASH"
TABLECURRENCY LIMIT="NL" STAKES="0.05/0.10" DATE="<unix time>" TABLETOURNEYID ..>`` element per
hand, several of them often inside ``<ROOT>`` (after an XML declaration).  A hand holds one
``<PLAYER NAME SEAT AMOUNT STATE DEALER>`` per seat (``STATE_EMPTY`` and ``STATE_RESERVED`` seats
have no player), then ``<ACTION TYPE ..>`` elements in the order of play and a ``<SHOWDOWN POT RAKE
MAINPOT ..>`` with one ``<RESULT PLAYER WIN>`` per player still in the hand.

Actions (``TYPE``): ``HAND_BLINDS`` (``KIND`` ``HAND_SB``, ``HAND_BB``, ``HAND_DSB`` a dead small
blind, ``HAND_AB`` another big blind), ``HAND_ANTE``, ``HAND_DEAL`` (the cards dealt: ``LINK="b"``
is a card the hero does not see), ``ACTION_FOLD``, ``ACTION_CHECK``, ``ACTION_CALL``, ``ACTION_BET``,
``ACTION_RAISE``, ``ACTION_ALLIN``, ``CHANGECARD`` (a draw) and ``HAND_BOARD`` (``VALUE``
``BOARD_FLOP``/``TURN``/``RIVER``, the whole board so far, with the pot after rake at that point).

Amounts, from the files themselves (each street's printed ``POT`` plus ``RAKE`` is what went in):
a raise and an all-in print the player's new total on the street; a call prints that total in the
exports of 2012 and before and the chips it adds from 2013 on (both are read as the call they name:
a value equal to the street's highest wager is the total, else the chips added).

Cards: ``LINK`` 0-51, the rank ``A23456789TJQK`` by ``LINK % 13`` and the suit ``d c h s`` by
``LINK // 13`` (checked against the fpdb sidecars of the corpus).

What Boss Media never prints: an uncalled-bet line (the uncalled part goes back silently, outside
the winner's ``WIN``), all-in marks on a call or bet of the whole stack that is not ``ACTION_ALLIN``.
The showdown's ``POT`` is after rake; ``RAKE`` is the rake.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from html.entities import name2codepoint
from typing import Any, cast

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk, split_elements
from auditor.formats.partial import ANTES, ANTES_TOTAL

#: The first non-blank line of a Boss Media file: ``<ROOT>`` or a ``<HISTORY`` (an XML declaration
#: before them is looked past by the ingest).
SNIFF = r"\s*(?:\ufeff)*(?:<ROOT>|<HISTORY ID=\"\d+\" SESSION=)"

_START = re.compile(r"<HISTORY\b")
_END = re.compile(r"</HISTORY>")
_QUIET = re.compile(r"^\s*(?:\ufeff)*(?:<\?xml[^>]*\?>|</?ROOT>)*\s*$")

_RANKS = "A23456789TJQK"
_SUITS = "dchs"
_GAMES = {"GAME_THM": "hold'em", "GAME_OMA": "omaha", "GAME_OMAHL": "omaha hi/lo", "GAME_OMATU": "omaha",
          "GAME_FCD": "5 card draw"}  # fmt: skip
_LIMITS = {"NL": "no limit", "PL": "pot limit", "FL": "limit"}
_STREETS = {"BOARD_FLOP": "FLOP", "BOARD_TURN": "TURN", "BOARD_RIVER": "RIVER"}
_POSTS = {
    "HAND_SB": "small blind",
    "HAND_BB": "big blind",
    "HAND_DSB": "dead small blind",
    "HAND_AB": "small & big blinds",
}


_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}


def _html_entities(text: str) -> str:
    """Names written with HTML entities (``&pound;``, ``&Ouml;``), which XML does not define, as
    their characters; XML's own five stay."""

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _XML_ENTITIES or name not in name2codepoint:
            return m.group(0)
        return chr(name2codepoint[name])

    return _ENTITY.sub(one, text)


def _pull() -> Any:
    return ET.XMLPullParser(events=("start", "end"))


def _events(parser: Any) -> list[tuple[str, ET.Element]]:
    return cast(list[tuple[str, ET.Element]], list(parser.read_events()))


def _card(link: str, ranks: str = _RANKS) -> str | None:
    link = link.strip()
    if not link.isdecimal() or int(link) > 51:
        return None
    n = int(link)
    return ranks[n % 13] + _SUITS[n // 13]


def _cards(e: ET.Element, ranks: str = _RANKS) -> list[str]:
    return [c for c in (_card(x.get("LINK") or "", ranks) for x in e.findall("CARD")) if c]


class Reader:
    """Splits Boss Media files into hands and reads each hand into a Hand."""

    #: the rank of a card ``LINK`` by ``LINK % 13`` (IGT's JSON export orders them from the deuce)
    ranks = _RANKS

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    # -- splitting
    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        return split_elements(lines, path, self.fmt.name, "Boss Media", _START, _END, _QUIET, trim=True)

    # -- reading
    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines), 2, facts=self.fmt.facts)
        return a.read_guarded(self._read, chunk)

    def _elements(self, chunk: Chunk) -> tuple[ET.Element | None, dict[int, int], str | None]:
        parser = _pull()
        parser.feed("<doc>")
        where: dict[int, int] = {}
        root = None
        for i, text in enumerate(chunk.lines):
            try:
                parser.feed(_html_entities(text.lstrip("\ufeff")) + "\n")
                for ev, elem in _events(parser):
                    if ev == "start":
                        where[id(elem)] = chunk.first_line + i
                        if elem.tag == "HISTORY" and root is None:
                            root = elem
                    elif elem is root:
                        return root, where, None
            except ET.ParseError as e:
                return root, where, f"line {chunk.first_line + i}: {e}"
        return root, where, "the file ends before </HISTORY>"

    def _read(self, a: HandAssembler, chunk: Chunk) -> M.Hand | None:
        h, where, error = self._elements(chunk)
        if h is None:
            raise ReadFailure("P001", chunk.first_line, 1, f"this Boss Media hand cannot be read: {error}")

        def line_of(e: ET.Element) -> int:
            return where.get(id(e), chunk.first_line)

        a.line = line_of(h)
        a.facts["hand_id"] = h.get("ID")
        tournament = (h.get("GAMEKIND") or "") != "GAMEKIND_CASH"
        stakes = re.findall(r"[\d.]+", h.get("STAKES") or "")
        sb, bb = (stakes[0], stakes[1]) if len(stakes) >= 2 and not tournament else (None, None)
        if tournament:
            blinds = {e.get("KIND"): e.get("VALUE") for e in h.findall("ACTION") if e.get("TYPE") == "HAND_BLINDS"}
            sb, bb = blinds.get("HAND_SB"), blinds.get("HAND_BB")
        when = h.get("DATE") or ""
        date = _date(when)
        cur = (h.get("TABLECURRENCY") or "").strip()
        a.header({
            "hand_id": h.get("ID"),
            "game": _GAMES.get(h.get("GAME") or "", h.get("GAME") or ""),
            "structure": _LIMITS.get((h.get("LIMIT") or "").upper(), (h.get("LIMIT") or "").lower()),
            "sb": sb,
            "bb": bb,
            "currency": cur if re.fullmatch(r"[A-Z]{3}", cur) and not tournament else None,
            "table": h.get("TABLE"),
            "tournament_id": (h.get("TABLETOURNEYID") or "?") if tournament else None,
            "date": date,
            "tz": "UTC" if date else None,
            "money": "real" if h.get("GAMETYPE") == "GAMETYPE_REAL" else "play",
        })  # fmt: skip
        for p in h.findall("PLAYER"):
            a.line = line_of(p)
            name = p.get("NAME") or ""
            state = p.get("STATE") or ""
            if state in ("STATE_EMPTY", "STATE_RESERVED"):  # no player (a reserved seat's player is not seated yet)
                continue
            if p.get("DEALER") == "Y":
                a.table({"button": p.get("SEAT")})
            a.seat(p.get("SEAT") or "0", name, p.get("AMOUNT"), status="sitting out" if state == "STATE_SITOUT" else "")
        if a.facts.get("button") is None:
            self._button_from_blind(a, h)
        draw = "draw" in (a.facts.get("game") or "")
        dealt: dict[str, list[str]] = {}
        folded: set[str] = set()
        board: list[str] = []
        marks: list[tuple[int, ET.Element]] = []  # where each street's printed pot was met
        self._marks = marks
        for e in h.findall("ACTION"):
            a.line = line_of(e)
            t = e.get("TYPE") or ""
            player = e.get("PLAYER") or ""
            value = e.get("VALUE")
            if t == "HAND_BOARD":
                marks.append((len(a.events), e))
                cards = _cards(e, self.ranks)
                new = [c for c in cards if c not in board]
                a.street_marker(_STREETS.get(value or "", value or ""), " ".join(new) or None, " ".join(board) or None)
                board = cards
            elif t == "HAND_DEAL":
                cards = _cards(e, self.ranks)
                if cards and player not in dealt:
                    a.dealt(player, " ".join(cards))
                dealt.setdefault(player, cards)
            elif t == "HAND_BLINDS":
                a.post(player, _POSTS.get(e.get("KIND") or "", "big blind"), value)
            elif t == "HAND_ANTE":
                a.post(player, "ante", value)
            elif t == "ACTION_FOLD":
                folded.add(player)
                a.action(player, "folds")
            elif t == "ACTION_CHECK":
                a.action(player, "checks")
            elif t == "ACTION_CALL":
                top, prev = max(a.street_bet.values(), default=0), a.street_bet.get(player, 0)
                v = a.amt(value)
                inc = v - prev if v == top and prev else v
                a.action(player, "calls", a.money_text(inc))
            elif t == "ACTION_BET":
                a.action(player, "bets", value)
            elif t == "ACTION_RAISE":
                a.action(player, "raises", to=value)
            elif t == "ACTION_ALLIN":
                prev = a.street_bet.get(player, 0)
                inc = a.amt(value) - prev
                if inc <= 0:
                    a.table_event(player, "other", "all-in for nothing")
                else:  # the new street total: a call, bet or raise by its size
                    a.action(player, "all-in", a.money_text(inc))
            elif t == "ACTION_ADJUSTEMENT":
                # the uncalled part of a wager given back (IGT's JSON export; a zero one gives nothing)
                if a.amt(value) > 0:
                    a.uncalled(player, value or "0")
            elif t == "CHANGECARD" and draw:
                a.draw(player, len(e.findall("CARD")))
            else:
                a.unrecognised(ET.tostring(e, encoding="unicode").strip()[:200])
        unattributed = self._unprinted_antes(a, h, line_of)
        sd = h.find("SHOWDOWN")
        if sd is None or error is not None:
            return _unattributed(a, a.build(), unattributed)  # cut short: no results (P005)
        results = sd.findall("RESULT")
        shown = [(r, _cards(r, self.ranks)) for r in results if _cards(r, self.ranks)]
        if len(results) >= 2 and shown:
            a.line = line_of(sd)
            a.street_marker("SHOW DOWN")
            for r, cards in shown:
                a.line = line_of(r)
                a.show(r.get("PLAYER") or "", " ".join(cards))
        a.line = line_of(sd)
        a.street_marker("SUMMARY")
        for r in results:
            a.line = line_of(r)
            if a.amt(r.get("WIN")):
                a.collect(r.get("PLAYER") or "", r.get("WIN") or "0")
        a.line = line_of(sd)
        pot, rake = a.amt(sd.get("POT")), a.amt(sd.get("RAKE"))
        a.pot_claim(pot, rake=rake)
        return _unattributed(a, a.build(), unattributed)

    def _button_from_blind(self, a: HandAssembler, h: ET.Element) -> None:
        """Exports before 2011 print no ``DEALER``: the small blind's post places the button on the
        seated player before it (heads-up, the small blind is the button).  Where the hand prints
        whom it dealt, only those count: a player who just sat down between the button and the
        small blind waits for the big blind and is dealt nothing (2011 MTT)."""
        sb = next((e.get("PLAYER") for e in h.findall("ACTION")
                   if e.get("TYPE") == "HAND_BLINDS" and e.get("KIND") == "HAND_SB"), None)  # fmt: skip
        dealt = {e.get("PLAYER") for e in h.findall("ACTION") if e.get("TYPE") == "HAND_DEAL"}
        seats = sorted(s.seat for s in a.seats if s.stack > 0 and not s.sitting_out
                       and (not dealt or s.player in dealt or s.player == sb))  # fmt: skip
        mine = next((s.seat for s in a.seats if s.player == sb), None)
        if mine is None or mine not in seats or len(seats) < 2:
            return
        if len(seats) == 2:
            a.facts["button"] = str(mine)
            return
        before = [n for n in seats if n < mine]
        a.facts["button"] = str(before[-1] if before else seats[-1])

    def _unprinted_antes(self, a: HandAssembler, h: ET.Element, line_of: Any) -> int | None:
        """Tournament exports of 2011 take the antes without an action for them: the first pot the
        hand prints (a street's ``POT``, or the showdown's) holds them.  When a hand prints no ante
        and that pot exceeds what the printed actions put in by the same amount for every player
        dealt in (less than a big blind each), each is recorded as a derived ante of that amount
        (the site's claim, printed in its pot).

        These exports print each stack after the ante was taken, and a blind by its nominal size
        even when the poster has less left (``HAND_BB VALUE="200.00"`` beside a printed stack of
        195: the pot shows 195 went in).  A blind larger than the printed stack is read as the
        all-in post of that stack when the antes derived that way make the first pot exactly; the
        blinds as printed are tried next.

        When neither reading divides the excess into one ante per player dealt in (a newcomer who
        paid none: the hand alone cannot say who), no ante is derived and the excess is returned
        (the antes unattributed, see :func:`_unattributed`); None otherwise."""
        if a.facts.get("tournament_id") is None or any(isinstance(e, M.Post) and e.kind == "ante" for e in a.events):
            return None
        first = self._marks[0] if self._marks else None
        sd = h.find("SHOWDOWN")
        if first is None and sd is None:
            return None
        upto, el = first if first is not None else (len(a.events), sd)
        assert el is not None
        printed = a.amt(el.get("POT")) + a.amt(el.get("RAKE"))
        stacks = {s.player: s.stack for s in a.seats}
        capped = self._capped_blinds(a, upto, stacks)
        ante = self._ante_from_pot(a, h, upto, printed, capped) if capped else None
        if ante is None:
            capped = {}
            ante = self._ante_from_pot(a, h, upto, printed, capped)
        if ante is None:
            return self._unattributed_antes(a, h, upto, printed)
        amount, dealt = ante
        for i, e in capped.items():
            a.events[i] = replace(e, amount=e.amount if e.all_in else stacks[e.player], all_in=True)
        line = line_of(h)
        a.events[0:0] = [M.Post(line=line, col=1, street="preflop", run=1, player=p, kind="ante", amount=amount,
                                all_in=False, derived=True) for p in dealt]  # fmt: skip
        a.derived_posts = True
        # these exports print each stack after the ante was taken (an all-in puts in the printed
        # stack and no more): the stack at the start of the hand had the ante too
        a.seats = [replace(s, stack=s.stack + amount) if s.player in dealt else s for s in a.seats]
        return None

    @staticmethod
    def _capped_blinds(a: HandAssembler, upto: int, stacks: dict[str, int]) -> dict[int, M.Post]:
        """The blind posts (by event index) that ask for more than the poster's printed stack."""
        out: dict[int, M.Post] = {}
        for i, e in enumerate(a.events[:upto]):
            if (isinstance(e, M.Post) and e.kind in ("small_blind", "big_blind") and e.player in stacks
                    and 0 < stacks[e.player] < e.amount):  # fmt: skip
                out[i] = e
        return out

    @staticmethod
    def _unattributed_antes(a: HandAssembler, h: ET.Element, upto: int, printed: int) -> int | None:
        """The excess of the first printed pot over the printed wagers (blinds as printed) when it
        can only be antes some of the players dealt in paid: more than nothing and less than a big
        blind for each player dealt in; None otherwise."""
        got = Reader._pot_excess(a, h, upto, printed, {})
        bb = a.amt(a.facts.get("bb")) if a.facts.get("bb") else 0
        if got is None or not bb:
            return None
        extra, dealt = got
        n = len(dealt)
        if extra <= 0 or extra >= bb * n:
            return None
        return extra

    @staticmethod
    def _pot_excess(a: HandAssembler, h: ET.Element, upto: int, printed: int,
                    capped: dict[int, M.Post]) -> tuple[int, list[str]] | None:  # fmt: skip
        """The first printed pot less the printed wagers before it (blinds in ``capped`` counted as
        the poster's whole printed stack; an uncalled part left out), and the players dealt in."""
        stacks = {s.player: s.stack for s in a.seats}
        put: dict[str, int] = {}
        for i, e in enumerate(a.events[:upto]):
            if isinstance(e, M.Post):
                amount = stacks[e.player] if i in capped else e.amount
                put[e.player] = put.get(e.player, 0) + amount
            elif isinstance(e, M.Action):
                put[e.player] = put.get(e.player, 0) + e.increment
        ranked = sorted(put.values(), reverse=True)
        excess = ranked[0] - ranked[1] if len(ranked) >= 2 else 0  # an uncalled part, paid back silently
        dealt = list(dict.fromkeys(e.player for e in a.events if isinstance(e, M.HoleCards)))
        dealt += [p for p in dict.fromkeys(e.get("PLAYER") or "" for e in h.findall("ACTION")
                                           if e.get("TYPE") == "HAND_DEAL") if p not in dealt]  # fmt: skip
        if not dealt:
            return None
        return printed - (sum(put.values()) - excess), dealt

    @staticmethod
    def _ante_from_pot(a: HandAssembler, h: ET.Element, upto: int, printed: int,
                       capped: dict[int, M.Post]) -> tuple[int, list[str]] | None:  # fmt: skip
        """The ante each dealt player paid, when the first printed pot less the printed wagers
        before it (blinds in ``capped`` counted as the poster's whole printed stack) is the same
        amount for every player dealt in, less than a big blind; None otherwise."""
        got = Reader._pot_excess(a, h, upto, printed, capped)
        if got is None:
            return None
        extra, dealt = got
        bb = a.amt(a.facts.get("bb")) if a.facts.get("bb") else 0
        if extra <= 0 or extra % len(dealt) or (bb and extra // len(dealt) >= bb):
            return None
        return extra // len(dealt), dealt


def _unattributed(a: HandAssembler, hand: M.Hand | None, total: int | None) -> M.Hand | None:
    """The hand with its antes recorded as unattributed (``extras["antes"]``, their total in
    ``extras["antes_total"]`` in minor units) and one P010 finding saying what the record lacks:
    the first pot holds antes that do not divide into one per player dealt in, and the hand alone
    cannot say who paid them (a newcomer pays none).  Nothing is derived: the pots judge only what
    does not depend on who paid (``auditor.replay.pots``)."""
    if hand is None or total is None:
        return hand
    message = (
        f"a partial record: the first pot holds {a.money_text(total)} of antes the hand prints no action "
        "for and that do not divide into one ante per player dealt in; who paid them is not recorded "
        "(the pot total and the chips paid out are judged, not what depends on who paid)"
    )
    a.findings.append(F.make("P010", a.path, a.first_line, 1, message, site=a.format,
                             hand_id=hand.hand_id, lacks=[ANTES]))  # fmt: skip
    return replace(hand, extras={**hand.extras, ANTES: "unattributed", ANTES_TOTAL: str(total)})


def _date(when: str) -> str | None:
    """A hand's ``DATE`` (Unix seconds) as a date; None when it is not a time a clock can show."""
    if not (when.isascii() and when.isdecimal()) or len(when) > 12:
        return None
    try:
        return datetime.fromtimestamp(int(when), UTC).strftime("%Y/%m/%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return None
