"""Reader of the older WPN / Americas Cardroom exports ("Game started at:", 2014 to early 2019).

These exports (often UTF-16 with a blank line after every line) do not print the PokerStars
family's lines, and several of their lines need the hand's state to be read, which a line grammar
cannot carry:

* every wager is the chips put in *now*: ``raises (3)`` after a small blind of 1 is a raise to 4;
* ``allin (X)`` says neither call, bet nor raise: it is whichever X makes it (and a blind when it
  comes before the cards are dealt); ``caps (X)`` likewise, reaching the table's cap;
* hole cards come one line per card (``received card: [6s]``, ``received a card.``);
* stud streets are named one early: the round after the fourth card is ``*** Third street ***``;
* cards shown and amounts collected are printed only in the summary, one line per player
  (``*Player X shows: One pair of Js [Jd Js]. Bets: 4.07. Collects: 7.73. Wins: 3.66.``).

The header states no betting structure (only "CAP" tables and stud, always fixed limit, say it):
such hands are recorded with an unknown structure, and the betting rules that depend on it are
not applied.  Everything is recorded as printed; nothing is completed or corrected.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats.assembler import HandAssembler, ReadFailure
from auditor.formats.chunk import Chunk

#: The first line of a hand (and of a file of this format).
SNIFF = r"Game started at: \d{4}/\d{1,2}/\d{1,2} "

_START = re.compile(SNIFF)
_AMT = r"\d[\d,]*(?:\.\d+)?"
_CARD = r"(?:10|[2-9TJQKA])[shdc]"
_CARDS = rf"{_CARD}(?: {_CARD})*"

_DATE = re.compile(r"Game started at: (?P<date>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{1,2}:\d{1,2})$")
_GAME_ID = re.compile(
    rf"Game ID: (?P<hand_id>\d+) (?P<sb>{_AMT})/(?P<bb>{_AMT}) ?(?P<table>.*?) ?\((?P<game>[^()]*)\)"
    r"(?: (?P<max_seats>\d+)-max)?$"
)
_BUTTON = re.compile(r"Seat (?P<button>\d+) is the button$")
_SEAT = re.compile(rf"Seat (?P<seat>\d+): (?P<player>.*) \((?P<stack>{_AMT})\)\.$")

_POST = re.compile(
    rf"Player (?P<player>.*?) (?P<kind>has small blind|has big blind|posts ante|ante|straddle|posts) "
    rf"\((?P<amount>{_AMT})\)(?P<dead> as a dead bet)?$"
)
_ACTION = re.compile(
    rf"Player (?P<player>.*) (?P<verb>folds|checks|calls|bets|raises|allin|caps|bring in)(?: \((?P<amount>{_AMT})\))?$"
)
_CARD_LINE = re.compile(rf"Player (?P<player>.*) received (?:a card|card)(?:\.|: \[(?P<card>{_CARD})\])$")
_STREET = re.compile(
    r"\*\*\* (?P<name>FLOP|TURN|RIVER|Third street|Fourth street|Fifth street|Sixth street) \*\*\*:?"
    rf"(?: \[(?P<prior>{_CARDS})\])?(?: \[(?P<cards>{_CARDS})\])?$"
)
_UNCALLED = re.compile(rf"Uncalled bet \((?P<amount>{_AMT})\) returned to ?(?P<player>.*)$")
_MUCK = re.compile(r"Player (?P<player>.*) mucks cards$")
_EVENT = re.compile(
    r"Player (?P<player>.*?) ?(?P<what>sitting out|is timed out\.|wait BB|is disconnected and ALL IN\.)$"
)
_SUMMARY = re.compile(r"------ Summary ------$")
_POT = re.compile(rf"Pot: (?P<total>{_AMT})\.?(?: Rake (?P<rake>{_AMT})\.?)?(?: JP fee (?P<jp>{_AMT})\.?)?$")
_BOARD = re.compile(rf"Board: \[{_CARDS}\]$")
_RESULT = re.compile(
    rf"(?P<star>\*)?Player (?P<player>.*?) (?:does not show cards|doesn't show cards"
    rf"|mucks \(does not show cards\)|mucks \(does not show: \[(?P<mucked>{_CARDS})\]\)"
    rf"|shows: (?:(?P<desc>.*?) )?\[(?P<cards>{_CARDS})\](?P<low> Low hand \([^)]*\))?)"
    rf"\.? ?Bets: (?P<bets>{_AMT})\. Collects: (?P<collects>{_AMT})\. (?:Wins|Loses): {_AMT}\.?$"
)
_END = re.compile(r"Game ended at: .*$")

# stud streets are named one early: "Third street" is the round after the fourth card
_STUD_STREETS = {"THIRD STREET": "4th STREET", "FOURTH STREET": "5th STREET", "FIFTH STREET": "6th STREET",
                 "SIXTH STREET": "7th STREET"}  # fmt: skip
_POST_KINDS = {"has small blind": "small blind", "has big blind": "big blind", "posts ante": "ante", "ante": "ante",
               "straddle": "straddle"}  # fmt: skip


def _cards(text: str) -> str:
    return text.replace("10", "T")


class Reader:
    """Splits a file of this format into hands and reads each into the hand assembler."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        start = 0
        buf: list[str] = []
        stray: int | None = None
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, line = item
            if _START.match(line):
                if buf:
                    yield self._chunk(path, start, buf)
                start, buf = lineno, [line]
            elif buf:
                buf.append(line)
            elif line.strip() and stray is None:
                stray = lineno
        if buf:
            yield self._chunk(path, start, buf)
        if stray is not None:
            yield F.make("P003", path, stray, 1, "text before the first hand header is not part of any hand")

    def _chunk(self, path: str, start: int, buf: list[str]) -> Chunk:
        while buf and not buf[-1]:
            buf.pop()
        return Chunk(path, self.fmt.name, start, tuple(buf))

    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        hid = None
        for line in chunk.lines[:4]:
            m = _GAME_ID.match(line)
            if m:
                hid = m.group("hand_id")
        try:
            return self._read(chunk)
        except ReadFailure as e:
            return None, [F.make(e.code, chunk.path, e.line, e.col, e.message, site=chunk.site, hand_id=hid)]

    def _read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        text = chunk.text
        decimals = max((len(d) for d in re.findall(r"\(\d[\d,]*\.(\d+)\)", text)), default=0)
        for d in re.findall(r"(?:Pot|Rake|fee|Bets|Collects|Wins|Loses):? \d[\d,]*\.(\d+)", text):
            decimals = max(decimals, len(d))
        a = HandAssembler(chunk.site, chunk.path, chunk.first_line, len(chunk.lines))
        body: list[tuple[int, str]] = [(chunk.first_line + i, s) for i, s in enumerate(chunk.lines) if s]
        it = iter(body)
        head: dict[str, str] = {}
        game_line = None
        for lineno, line in it:
            a.line = lineno
            if (m := _DATE.match(line)) is not None:
                head["date"] = m.group("date")
                continue
            if (m := _GAME_ID.match(line)) is not None:
                game_line = lineno
                g = {k: v for k, v in m.groupdict().items() if v}
                table = g.get("table", "")
                g["table"] = table.strip()
                if "stud" in g["game"].lower():
                    g["structure"] = "Fixed Limit"
                elif re.search(r"\bcap\b", table, re.I):
                    g["structure"] = "Cap"
                if table.startswith("PM "):
                    g["money"] = "play money"
                g["decimals"] = str(max(decimals, 2 if "." in g["sb"] + g["bb"] else 0))
                head.update(g)
                a.header(head)
                break
            break
        if game_line is None:
            line = body[0][1] if body else ""
            return None, [F.make("P001", chunk.path, chunk.first_line, 1,
                                 f"the {chunk.site} reader could not read this hand: no 'Game ID:' line after "
                                 f"{line[:80]!r}", site=chunk.site, expected="Game ID")]  # fmt: skip
        stud = "stud" in head.get("game", "").lower()
        if stud:
            a.street_marker("3rd STREET")
        dealt_any = False
        known: dict[str, list[str]] = {}
        pending: dict[str, tuple[int, list[str]]] = {}

        def flush() -> None:
            for player, (first, new) in pending.items():
                if new:
                    a.line = first
                    prior = known.setdefault(player, [])
                    if prior:
                        a.dealt(player, " ".join(prior), " ".join(new))
                    else:
                        a.dealt(player, " ".join(new))
                    prior.extend(new)
            pending.clear()

        for lineno, line in it:
            a.line = lineno
            a.col = 1
            if (m := _CARD_LINE.match(line)) is not None:
                dealt_any = True
                entry = pending.setdefault(m.group("player"), (lineno, []))
                if m.group("card"):
                    entry[1].append(_cards(m.group("card")))
                continue
            if pending:
                flush()
                a.line = lineno
            if (m := _SEAT.match(line)) is not None:
                a.seat(m.group("seat"), m.group("player"), m.group("stack"))
            elif (m := _BUTTON.match(line)) is not None:
                a.table({"button": m.group("button")})
            elif (m := _POST.match(line)) is not None:
                self._post(a, m.group("player"), m.group("kind"), m.group("amount"), bool(m.group("dead")))
            elif (m := _ACTION.match(line)) is not None:
                self._action(a, m.group("player"), m.group("verb"), m.group("amount"), dealt_any)
            elif (m := _STREET.match(line)) is not None:
                name = m.group("name").upper()
                cards, prior = m.group("cards"), m.group("prior")
                a.street_marker(_STUD_STREETS.get(name, name), _cards(cards) if cards else None,
                                _cards(prior) if prior else None)  # fmt: skip
            elif (m := _UNCALLED.match(line)) is not None:
                a.uncalled(m.group("player"), m.group("amount"))
            elif (m := _MUCK.match(line)) is not None:
                a.muck(m.group("player"))
            elif (m := _EVENT.match(line)) is not None:
                what = m.group("what").rstrip(".").lower()
                kind: M.TableEventKind = ("sitting_out" if "sitting" in what else "timed_out" if "timed" in what
                                          else "disconnected" if "disconnected" in what else "other")  # fmt: skip
                a.table_event(m.group("player"), kind, what)
            elif _SUMMARY.match(line):
                a.street_marker("SUMMARY")
            elif (m := _POT.match(line)) is not None:
                fees = (("jp_fee", a.amt(m.group("jp"))),) if m.group("jp") else ()
                rake = a.amt(m.group("rake")) if m.group("rake") else None
                a.pot_claim(a.amt(m.group("total")), (), rake, fees)
            elif (m := _RESULT.match(line)) is not None:
                player = m.group("player")
                if m.group("cards"):
                    a.show(player, _cards(m.group("cards")), (m.group("desc") or "") + (m.group("low") or "") or None)
                elif m.group("mucked"):
                    a.muck(player, _cards(m.group("mucked")))
                if a.amt(m.group("collects")):
                    a.collect(player, m.group("collects"))
            elif _BOARD.match(line) or _END.match(line) or _DATE.match(line):
                pass  # the summary board repeats the street markers; the end time is not needed
            else:
                a.unrecognised(line)
        if pending:
            flush()
        return a.build(), a.findings

    @staticmethod
    def _post(a: HandAssembler, player: str, kind: str, amount: str, dead: bool) -> None:
        # "posts (X)": a new or returning player's live blind (counted in the player's "Bets"),
        # "posts (X) as a dead bet" its dead part
        posts = "dead blind" if dead else "big blind"
        a.post(player, posts if kind == "posts" else _POST_KINDS[kind], amount)

    @staticmethod
    def _action(a: HandAssembler, player: str, verb: str, amount: str | None, dealt: bool) -> None:
        if verb == "bring in":
            a.action(player, "brings in", amount)
        elif verb == "raises":
            # the chips put in now: a raise to what the player already has in plus them
            to = a.street_bet.get(player, 0) + a.amt(amount)
            a.action(player, "raises", None, _text(to, a.decimals))
        elif verb == "allin" and amount is not None and not dealt:
            # all-in for a blind, before the cards are dealt
            posted = {e.kind for e in a.events if isinstance(e, M.Post)}
            a.post(player, "small blind" if "small_blind" not in posted else "big blind", amount, True)
        elif verb == "allin" and amount is None:
            a.table_event(player, "other", "allin")  # a disconnected player's all-in: no chips move
        else:
            a.action(player, verb, amount)


def _text(minor: int, decimals: int) -> str:
    """An amount in minor units as the site would print it (exact: no floats)."""
    if decimals == 0:
        return str(minor)
    unit = 10**decimals
    return f"{minor // unit}.{minor % unit:0{decimals}d}"
