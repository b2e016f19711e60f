"""Reader of Everest Poker's XML exports (2010-2012): a ``<SESSION ..>`` line (the table) followed by
``<HAND ..>`` elements, one element a line.

Every amount is an integer in hundredths of the table's unit (``balance="78"`` is €0.78 at a
€0.01/€0.02 table; ``amount="175000"`` is 1,750 tournament chips).  Each ``<BET>`` is the chips put
in *now* (``amount="0"`` a check): whether it bets, calls or raises is told by the street so far.
``<PUSH>`` returns the uncalled part, ``<SWEEP rake=".." tax="..">N</SWEEP>`` closes a street (the
pot so far, after rake), ``<COMMUNITY>`` deals board cards, ``<HOLE>`` one hole card (``--``: not
shown), ``<WIN>`` pays a pot.  Seats are numbered from 0 (``position``): read as seat position + 1.
All-ins are never marked.  Everything is recorded as printed; nothing is completed or corrected.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator
from typing import Any

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk

#: The first line of a file of this format (a session, or a hand).
SNIFF = r'\s*(?:\ufeff)?<(?:SESSION time="\d+" tableName="|HAND time="\d+" id="\d+")'

_SESSION = re.compile(r"\s*(?:\ufeff)?<SESSION (?P<attrs>[^>]*)/?>\s*$")
_HAND = re.compile(r"\s*<HAND (?P<attrs>[^>]*)>\s*$")
_END = re.compile(r"\s*</HAND>\s*$")
# a tournament's result, written between hands: session text, not part of any hand
_PRIZE = re.compile(r"\s*<PRIZE (?:[a-zA-Z]+=\"[^\"]*\"\s*)*/>\s*$")
_ELEMENT = re.compile(
    r"\s*<(?P<tag>[A-Z]+)(?P<attrs>(?: [a-zA-Z]+=\"[^\"]*\")*)\s*(?:/>|>(?P<text>[^<]*)</(?P=tag)>)\s*$"
)
_ATTR = re.compile(r'([a-zA-Z]+)="([^"]*)"')
_GAMES = {"hold-em": "Hold'em", "omaha-hi": "Omaha", "omaha": "Omaha", "omaha-hi-lo": "Omaha Hi/Lo"}
_STRUCTURES = {"no-limit": "No Limit", "pot-limit": "Pot Limit", "fixed-limit": "Limit"}
_STREETS = {3: "FLOP", 4: "TURN", 5: "RIVER"}


def _int(text: str | None, line: int, what: str) -> int:
    """A printed whole number: ASCII digits only (a sign allowed), at most eighteen of them, else
    the hand cannot be read (P006 at the line)."""
    t = (text or "").strip()
    digits = t[1:] if t[:1] == "-" else t
    if not (digits.isascii() and digits.isdecimal() and len(digits) <= 18):
        raise ReadFailure("P006", line, 1, f"the {what} {t[:20]!r} is not a whole number")
    return int(t)


def _attrs(text: str) -> dict[str, str]:
    return dict(_ATTR.findall(text))


def _money(minor: int) -> str:
    """An amount in hundredths written as text the assembler reads with two decimals."""
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    return f"{sign}{minor // 100}.{minor % 100:02d}"


def _date(epoch: str | None) -> str | None:
    """The hand's start (``time="1303913758"``, seconds since 1970, UTC) as a date and time."""
    if not epoch or not (epoch.isascii() and epoch.isdecimal()) or len(epoch) > 11:
        return None
    return datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _cards(text: str | None) -> str:
    return " ".join(c.strip() for c in (text or "").split(",") if c.strip() and c.strip() != "--")


class Reader:
    """Splits a file of this format into hands (each with its session line) and reads each."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        session: tuple[str, ...] = ()
        start = 0
        buf: list[str] = []
        stray: int | None = None
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, line = item
            if _SESSION.match(line):
                session = (line,)
            elif _HAND.match(line):
                if buf:  # a hand with no end tag: cut short (the reader says so)
                    yield Chunk(path, self.fmt.name, start, tuple(buf), context=session)
                start, buf = lineno, [line]
            elif buf:
                buf.append(line)
                if _END.match(line):
                    yield Chunk(path, self.fmt.name, start, tuple(buf), context=session)
                    buf = []
            elif line.strip() and stray is None and not _PRIZE.match(line):
                stray = lineno
        if buf:
            yield Chunk(path, self.fmt.name, start, tuple(buf), context=session)
        if stray is not None:
            yield F.make("P003", path, stray, 1, "text outside every <HAND> element is not part of any hand")

    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        m = _HAND.match(chunk.lines[0]) if chunk.lines else None
        hid = _attrs(m.group("attrs")).get("id") if m else None
        try:
            return self._read(chunk)
        except ReadFailure as e:
            return None, [F.make(e.code, chunk.path, e.line, e.col, e.message, site=chunk.site, hand_id=hid)]

    def _read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        session = _attrs(_SESSION.match(chunk.context[0]).group("attrs")) if chunk.context else {}  # type: ignore[union-attr]
        hand = _attrs(_HAND.match(chunk.lines[0]).group("attrs"))  # type: ignore[union-attr]
        a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines))
        tournament = session.get("type") == "tournament"
        head = {
            "hand_id": hand.get("id"),
            "game": _GAMES.get(session.get("game", ""), session.get("game", "")),
            "structure": _STRUCTURES.get(session.get("gametype", ""), session.get("gametype", "")),
            "table": session.get("tableName"),
            "date": _date(hand.get("time")),
            "tz": "UTC",
            "decimals": "2",
            "currency": {"€": "EUR", "$": "USD", "£": "GBP"}.get(session.get("money", "")) if not tournament else None,
            "tournament_id": session.get("id") if tournament else None,
            "money": "Real Money" if session.get("money") else None,
        }
        a.header({k: v for k, v in head.items() if v is not None})
        names: dict[str, str] = {}
        stacks: dict[str, int] = {}
        holes: dict[str, list[str]] = {}
        hole_line: dict[str, int] = {}
        board = 0
        blinds = 0
        sweep: tuple[int, int, int] | None = None
        ended = False

        def deal_holes() -> None:
            for player, cards in holes.items():
                a.line = hole_line[player]
                a.dealt(player, " ".join(cards) or None)
            holes.clear()

        for i, line in enumerate(chunk.lines[1:], start=1):
            a.line, a.col = chunk.first_line + i, 1
            if _END.match(line):
                ended = True
                continue
            m = _ELEMENT.match(line)
            if m is None:
                a.unrecognised(line)
                continue
            tag, at, text = m.group("tag"), _attrs(m.group("attrs")), m.group("text")
            player = names.get(at.get("position", ""), "")
            if tag not in ("SEAT", "DEALER", "CHAT", "SWEEP", "COMMUNITY", "PRIZE") and player not in stacks:
                raise ReadFailure(
                    "P001",
                    a.line,
                    1,
                    f"the everest reader could not read this hand: <{tag}> names "
                    f"no seated player (position {at.get('position', '')[:20]!r})",
                )
            if tag != "HOLE" and holes:
                deal_holes()
                a.line = chunk.first_line + i
            if tag == "SEAT":
                if "name" not in at or "position" not in at:
                    raise ReadFailure(
                        "P001",
                        a.line,
                        1,
                        "the everest reader could not read this hand: a <SEAT> with no name or position",
                    )
                names[at["position"]] = at["name"]
                stacks[at["name"]] = _int(at.get("balance"), a.line, "balance")
                a.seat(
                    str(_int(at.get("position"), a.line, "seat position") + 1),
                    at["name"],
                    _money(_int(at.get("balance"), a.line, "balance")),
                )
            elif tag == "DEALER":
                a.table({"button": str(_int(at.get("position"), a.line, "seat position") + 1)})
            elif tag == "BLIND":
                amount = _int(at.get("amount"), a.line, "amount")
                kind = "small blind" if blinds == 0 else "big blind"
                blinds += 1
                a.header({"sb" if kind == "small blind" else "bb": _money(amount)})
                stacks[player] -= amount
                a.post(player, kind, _money(amount), all_in=stacks[player] <= 0)
                if _int(at.get("penalty") or "0", a.line, "penalty"):
                    a.post(player, "dead blind", _money(_int(at.get("penalty"), a.line, "penalty")))
                    stacks[player] -= _int(at.get("penalty"), a.line, "penalty")
            elif tag == "ANTE":
                amount = _int(at.get("amount"), a.line, "amount")
                stacks[player] -= amount
                a.post(player, "ante", _money(amount), all_in=stacks[player] <= 0)
            elif tag == "XBLIND":
                a.table_event(player, "sitting_out", "no blind")
            elif tag == "HOLE":
                holes.setdefault(player, [])
                hole_line.setdefault(player, chunk.first_line + i)
                if text and text.strip() != "--":
                    holes[player].append(text.strip())
            elif tag == "BET":
                self._bet(a, player, _int(at.get("amount"), a.line, "amount"), stacks)
            elif tag == "FOLD":
                a.action(player, "folds")
            elif tag == "PUSH":
                stacks[player] += _int(at.get("amount"), a.line, "amount")
                a.uncalled(player, _money(_int(at.get("amount"), a.line, "amount")))
            elif tag == "SWEEP":
                sweep = (
                    _int(text or "0", a.line, "pot"),
                    _int(at.get("rake") or "0", a.line, "rake"),
                    _int(at.get("tax") or "0", a.line, "tax"),
                )
            elif tag == "COMMUNITY":
                cards = _cards(text)
                n = len(cards.split())
                board += n
                a.street_marker(_STREETS.get(board, "RIVER"), cards)
            elif tag == "SHOW":
                a.show(player, _cards(text))
            elif tag == "XSHOW":
                a.muck(player)
            elif tag == "WIN":
                if sweep is not None and not any(isinstance(e, M.PotClaim) for e in a.events):
                    total, rake, tax = sweep
                    a.pot_claim(total, (), rake, (("tax", tax),) if tax else ())
                pot = at.get("pot", "0")
                a.collect(
                    player,
                    _money(_int(at.get("amount"), a.line, "amount")),
                    "main pot" if pot == "0" else f"side pot {pot}",
                )
            elif tag == "CHAT":
                a.table_event(at.get("name"), "chat", text or "")
            elif tag == "PRIZE":
                a.table_event(player or None, "other", f"prize {text or ''}".strip())
            else:
                a.unrecognised(line)
        if holes:
            deal_holes()
        if ended:
            a.end()
        return a.build(), a.findings

    @staticmethod
    def _bet(a: HandAssembler, player: str, inc: int, stacks: dict[str, int]) -> None:
        """``<BET amount="N">``: the chips put in now; 0 is a check."""
        if inc == 0:
            a.action(player, "checks")
            return
        stacks[player] -= inc
        all_in = stacks[player] <= 0
        prev = a.street_bet.get(player, 0)
        top = max(a.street_bet.values(), default=0)
        to = prev + inc
        if top == 0 or all(v == 0 for v in a.street_bet.values()):
            a.action(player, "bets", _money(inc), all_in=all_in)
        elif to <= top:
            a.action(player, "calls", _money(inc), all_in=all_in)
        else:
            a.action(player, "raises", None, _money(to), all_in=all_in)
