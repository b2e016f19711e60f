"""The IGT Poker JSON reader (IGT's poker network, 2017-2019: Swedish and other regulated rooms).

An IGT export is one JSON document, usually on one line: ``{"history": [{...}, ...]}``, one object
per hand.  It is the Boss Media hand model written as JSON (the same software line: the same
action types, card numbers and showdown results, with the XML attributes as lower-case keys), so
it is read by the Boss Media reader (:mod:`auditor.formats.bossmedia`): this module turns each
hand object into the Boss Media element tree and lets that reader record it.  The two formats are
one family; what differs is written here.

A hand object: ``handId``, ``table``, ``game`` (``GAME_THM``, ``GAME_OMA``, ``GAME_OMAHL``),
``gameKind`` (``GAMEKIND_CASH``), ``tableCurrency`` (``SEK``, ``USD``), ``limit`` ("Pot Limit",
"No Limit", "Fixed Limit"), ``stake`` ("0.25/0.5"; the 2019 export prints ``small`` and ``large``
instead), ``date`` (milliseconds since 1970), ``player`` (one ``{name, seat, state, dealer,
amount}`` per seat; ``STATE_EMPTY`` seats have no player), ``action`` (``{type, kind, player,
value, card: [{link}]}`` in the order of play) and ``showDown`` (``{pot, rake, mainpot, result:
[{player, win, card}]}``; ``pot`` is after rake).

What differs from Boss Media:

* cards: ``link`` 0-51, the rank ``23456789TJQKA`` by ``link % 13`` (the deuce first: the corpus
  showdowns name "two pair, jacks and tens", "straight to the six", "low 8-4-3-2-A" only in this
  order) and the suit by ``link // 13`` in Boss Media's order; no corpus hand names a flush, so the
  suit letters are a fixed bijection that no hand value depends on;
* ``ACTION_ADJUSTEMENT`` (sic) gives back the uncalled part of a wager: IGT prints its uncalled
  returns.  The chips given back are what the player's ``bankRoll`` (their chips after each move)
  gains on that line; its ``value`` is not them (0.00 on a bet of 1.00 given back whole);
* a call, a raise and an all-in print the player's new total on the street, as Boss Media's early
  exports do (read the same way).

A document that is not valid JSON is P001 at its line and column; one without a ``history`` list
of hand objects is P003.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from auditor import findings as F
from auditor.findings import Finding
from auditor.formats import bossmedia
from auditor.formats.chunk import Chunk

#: The start of an IGT document: ``{"history":[{"player":[{"name":`` (a byte-order mark before it).
SNIFF = r'\s*(?:\ufeff)?\{"history":\[\{"player":\[\{"name":'

_CONTEXT = re.compile(r"history\[(\d+)\]")


def _text(v: Any) -> str | None:
    if v is None or isinstance(v, dict | list):
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _decimal(v: Any) -> Decimal | None:
    t = _text(v)
    try:
        return Decimal(t) if t is not None else None
    except InvalidOperation:
        return None


def _with_cards(el: ET.Element, obj: dict[str, Any]) -> None:
    for c in obj.get("card") or []:
        if isinstance(c, dict):
            ET.SubElement(el, "CARD", {"LINK": _text(c.get("link")) or ""})


def _seconds(ms: str | None) -> str | None:
    """A date in milliseconds as the seconds Boss Media prints (a short value is taken as printed)."""
    if ms is None or not ms.isdigit():
        return None
    return str(int(ms) // 1000) if len(ms) > 10 else ms


def history_element(hand: dict[str, Any]) -> ET.Element:
    """One IGT hand object as the Boss Media ``<HISTORY>`` element it stands for."""
    stakes = _text(hand.get("stake"))
    if stakes is None and hand.get("small") is not None:
        stakes = f"{_text(hand.get('small'))}/{_text(hand.get('large'))}"
    cur = _text(hand.get("tableCurrency")) or ""
    h = ET.Element("HISTORY", {k: v for k, v in {
        "ID": _text(hand.get("handId")) or _text(hand.get("id")),
        "TABLE": _text(hand.get("table")),
        "GAME": _text(hand.get("game")),
        "GAMEKIND": _text(hand.get("gameKind")),
        "TABLECURRENCY": cur,
        "LIMIT": _text(hand.get("limit")),
        "STAKES": stakes,
        "DATE": _seconds(_text(hand.get("date"))),
        "TABLETOURNEYID": _text(hand.get("tableTourneyId")),
        # a table in a currency is a real-money table (the export names no play-money kind)
        "GAMETYPE": "GAMETYPE_REAL" if re.fullmatch(r"[A-Z]{3}", cur) else None,
    }.items() if v is not None})  # fmt: skip
    for p in hand.get("player") or []:
        if isinstance(p, dict):
            ET.SubElement(h, "PLAYER", {k.upper(): v for k in ("name", "seat", "amount", "state", "dealer")
                                        if (v := _text(p.get(k))) is not None})  # fmt: skip
    bankroll: dict[str, Decimal] = {}  # each player's chips after their last printed move
    for p in hand.get("player") or []:
        if isinstance(p, dict) and (amount := _decimal(p.get("amount"))) is not None:
            bankroll[_text(p.get("name")) or ""] = amount
    for e in hand.get("action") or []:
        if isinstance(e, dict):
            attrs = {k.upper(): v for k in ("type", "kind", "player", "value") if (v := _text(e.get(k))) is not None}
            who, after = _text(e.get("player")) or "", _decimal(e.get("bankRoll"))
            if attrs.get("TYPE") == "ACTION_ADJUSTEMENT":
                # the chips given back are what the player's bankroll gains (the "value" is not them)
                before = bankroll.get(who)
                back = after - before if after is not None and before is not None else Decimal(0)
                attrs["VALUE"] = str(max(back, Decimal(0)))
            if after is not None:
                bankroll[who] = after
            el = ET.SubElement(h, "ACTION", attrs)
            _with_cards(el, e)
    sd = hand.get("showDown")
    if isinstance(sd, dict):
        s = ET.SubElement(h, "SHOWDOWN", {k.upper(): v for k in ("pot", "rake", "mainpot")
                                          if (v := _text(sd.get(k))) is not None})  # fmt: skip
        for r in sd.get("result") or []:
            if isinstance(r, dict):
                el = ET.SubElement(s, "RESULT", {k.upper(): v for k in ("player", "win")
                                                 if (v := _text(r.get(k))) is not None})  # fmt: skip
                _with_cards(el, r)
    return h


class Reader(bossmedia.Reader):
    """Splits IGT documents into hands (one chunk per hand object) and reads each as a Boss Media hand."""

    ranks = "23456789TJQKA"

    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        site = self.fmt.name
        buf: list[str] = []
        start: int | None = None
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, text = item
            if start is None:
                if not text.strip():
                    continue
                start = lineno
            buf.append(text)
        if start is None:
            return
        while buf and not buf[-1].strip():
            buf.pop()
        try:
            doc = json.loads("\n".join(buf).lstrip("\ufeff"))
        except json.JSONDecodeError:
            yield Chunk(path, site, start, tuple(buf))  # the reader reports where the JSON breaks
            return
        hands = doc.get("history") if isinstance(doc, dict) else None
        n = len(hands) if isinstance(hands, list) else 0
        if n <= 1:
            yield Chunk(path, site, start, tuple(buf))
            return
        for i in range(n):  # several hands in one document: each chunk names its hand object
            yield Chunk(path, site, start, tuple(buf), context=(f"history[{i}]",))

    def _elements(self, chunk: Chunk) -> tuple[ET.Element | None, dict[int, int], str | None]:
        try:
            doc = json.loads(chunk.text.lstrip("\ufeff"))
        except json.JSONDecodeError as e:
            return None, {}, f"not valid JSON at line {chunk.first_line + e.lineno - 1}, column {e.colno}: {e.msg}"
        hands = doc.get("history") if isinstance(doc, dict) else None
        m = _CONTEXT.fullmatch(chunk.context[0]) if chunk.context else None
        i = int(m.group(1)) if m else 0
        if not isinstance(hands, list) or i >= len(hands) or not isinstance(hands[i], dict):
            return None, {}, 'the document holds no hand object (no "history" list)'
        return history_element(hands[i]), {}, None

    def read(self, chunk: Chunk) -> tuple[Any, list[Finding]]:
        root, _where, error = self._elements(chunk)
        if root is None:
            code = "P001" if error and error.startswith("not valid JSON") else "P003"
            return None, [F.make(code, chunk.path, chunk.first_line, 1, f"this IGT document cannot be read: {error}",
                                 site=chunk.site)]  # fmt: skip
        return super().read(chunk)
