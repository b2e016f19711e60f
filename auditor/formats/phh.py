"""The PHH reader: Poker Hand History records (``.phh``: one hand; ``.phhs``: a TOML table per hand).

PHH (pokerkit's TOML standard) gives the table's structure and the actions, never the chips an
action moves: ``p2 cc`` is "check or call", ``p3 cbr 300`` "complete, bet or raise *to* 300",
and the blinds and antes are posted by the rules of the variant.  The reader turns them into the
canonical events the way the record states them, from the player's own street total and stack:
a ``cc`` facing a larger wager is a call of the difference (or of the player's last chips, all-in),
otherwise a check; a ``cbr`` into no wager is a bet, otherwise a raise.  It never checks or repairs
the order or the sizes: pokerkit's loader, handed an action that is not legal where it stands,
inserts checks, calls and folds until it is (``HandHistory.state_actions``); hhaudit reads the
action where it is written and the replay reports it (out of turn, a raise below the minimum, ...)
with its line.

Players are ``p1``..``pN`` from the first seat after the button, the button last (heads-up: the
big blind first, the button second, and the ``antes`` and ``blinds_or_straddles`` arrays are read
reversed, as pokerkit reads them); ``seats`` and ``players`` name them when present.  Amounts may
have decimals (``0.25``): the hand's unit is the smallest decimal written (a record hhaudit wrote
says ``_decimals``: its amounts are already in minor units).  ``winnings`` become the players'
collects, ``_total_pot`` and ``_rake`` (hhaudit's own fields) the pot claim.  Each action's line
and column are those of its string in the ``actions`` array.

Variants read: NT, NS, FT, PO, FO/8 (the board games); the stud and draw variants (F7S, F7S/8, FR,
N2L1D, F2L3D, FB) are recognised and reported as not read (P001).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from auditor import findings as F
from auditor import model as M
from auditor.findings import Finding
from auditor.formats.chunk import Chunk

#: The first non-blank line of a PHH document: a PHH key (``variant = 'NT'``) or a ``.phhs`` table
#: header (``[1]``).
_KEYS = ("variant|ante_trimming_status|antes|blinds_or_straddles|bring_in|small_bet|big_bet|min_bet|starting_stacks|"
         "actions|author|event|url|venue|address|city|region|postal_code|country|time|time_zone|day|month|year|hand|"
         "level|seats|seat_count|table|players|finishing_stacks|winnings|currency|currency_symbol|time_limit|"
         "time_banks")  # fmt: skip
SNIFF = rf"\s*(?:(?:{_KEYS})\s*=|\[\s*[\w\"' .:-]+\s*\]\s*(?:#.*)?$)"

_TABLE = re.compile(r"^\s*\[\s*([^\[\].]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*['\"]?([\w-]+)['\"]?\s*=")
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_FLOP_GAMES: dict[str, tuple[M.Game, M.Structure, str]] = {
    "NT": ("holdem", "NL", "Hold'em No Limit"),
    "NS": ("shortdeck", "NL", "Short Deck Hold'em No Limit"),
    "FT": ("holdem", "FL", "Hold'em Limit"),
    "PO": ("omaha", "PL", "Omaha Pot Limit"),
    "FO/8": ("omaha_hilo", "FL", "Omaha Hi/Lo Limit"),
}
_OTHER_VARIANTS = ("F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
_STREETS: tuple[M.Street, ...] = ("flop", "turn", "river")


class _Fail(Exception):
    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message)
        self.line, self.col, self.message = line, col, message


def _strings(lines: tuple[str, ...], start: int) -> list[tuple[str, int, int]]:
    """The string items of the TOML array that opens on ``lines[start]`` after ``=``: (text, line
    index, column), so each action keeps where it was written."""
    out: list[tuple[str, int, int]] = []
    i = start
    j = lines[i].index("=") + 1
    depth = 0
    while i < len(lines):
        text = lines[i]
        while j < len(text):
            ch = text[j]
            if ch == "#":
                break
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return out
            elif ch in "'\"":
                q = ch * 3 if text.startswith(ch * 3, j) else ch
                end = text.find(q, j + len(q))
                while q == '"' and end > 0 and text[end - 1] == "\\":
                    end = text.find(q, end + 1)
                if end < 0:
                    return out
                raw = text[j : end + len(q)]
                if q == "'" or (q == '"' and "\\" not in raw):
                    value = raw[1:-1]  # a literal string, or a basic one with no escape: its text as written
                else:
                    try:
                        value = tomllib.loads(f"v = {raw}")["v"]
                    except tomllib.TOMLDecodeError:
                        value = raw[len(q) : -len(q)]
                out.append((str(value), i, j + 1))
                j = end + len(q)
                continue
            j += 1
        i += 1
        j = 0
    return out


def _decimals_of(values: Iterable[Any]) -> int:
    d = 0
    for v in values:
        if isinstance(v, Decimal):
            exp = v.normalize().as_tuple().exponent
            if isinstance(exp, int) and exp < 0:
                d = max(d, -exp)
    return d


def _listed(value: Any, n: int) -> list[Any]:
    if isinstance(value, list):
        return list(value) + [0] * (n - len(value))
    return [value or 0] * n


class Reader:
    """Splits PHH documents into records and reads each into a Hand."""

    def __init__(self, fmt: Any) -> None:
        self.fmt = fmt

    def split(self, lines: Iterable[tuple[int, str] | Finding], path: str) -> Iterator[Chunk | Finding]:
        site = self.fmt.name
        buf: list[str] = []
        start: int | None = None
        name = ""
        tables = None  # a .phhs (one table per hand) or a .phh (one hand)
        for item in lines:
            if isinstance(item, Finding):
                yield item
                continue
            lineno, text = item
            stripped = text.strip()
            if tables is None and stripped and not stripped.startswith("#"):
                tables = _TABLE.match(text) is not None
            m = _TABLE.match(text) if tables else None
            if m is not None:
                if start is not None:
                    yield Chunk(path, site, start, tuple(buf), context=(name,))
                start, buf, name = lineno, [text], m.group(1).strip("\"' ")
                continue
            if start is None:
                if tables or not stripped:
                    continue
                start = lineno
            buf.append(text)
        if start is not None:
            while buf and not buf[-1].strip():
                buf.pop()
            yield Chunk(path, site, start, tuple(buf), context=(name,) if tables else ())

    def read(self, chunk: Chunk) -> tuple[M.Hand | None, list[Finding]]:
        findings: list[Finding] = []
        name = chunk.context[0] if chunk.context else ""
        try:
            return self._read(chunk, name, findings), findings
        except _Fail as e:
            return None, [*findings, F.make("P001", chunk.path, e.line, e.col, e.message, site=chunk.site,
                                            hand_id=name or None)]  # fmt: skip

    def _read(self, chunk: Chunk, name: str, findings: list[Finding]) -> M.Hand:
        lines = chunk.lines
        first = chunk.first_line
        try:
            doc = tomllib.loads("\n".join(lines), parse_float=Decimal)
        except tomllib.TOMLDecodeError as e:
            m = _TOML_AT.search(str(e))
            line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
            raise _Fail(first + line - 1, col, f"this PHH record is not valid TOML: {e}") from None
        if name:
            doc = doc.get(name, {}) if isinstance(doc.get(name), dict) else {}

        keys: dict[str, int] = {}
        for i, t in enumerate(lines):
            km = _KEY.match(t)
            if km is not None:
                keys.setdefault(km.group(1), first + i)

        def line_of(key: str) -> int:
            return keys.get(key, first)

        variant = str(doc.get("variant", ""))
        if variant in _OTHER_VARIANTS:
            raise _Fail(line_of("variant"), 1, f"PHH variant {variant!r} (stud or draw) is not read yet")
        if variant not in _FLOP_GAMES:
            raise _Fail(line_of("variant"), 1, f"no PHH variant hhaudit reads: {variant!r}")
        game, structure, game_text = _FLOP_GAMES[variant]
        for key in ("starting_stacks", "actions"):
            if not isinstance(doc.get(key), list):
                raise _Fail(line_of(key) if key in doc else first, 1, f"the PHH record has no {key} list")
        n = len(doc["starting_stacks"])
        if n < 2:
            raise _Fail(line_of("starting_stacks"), 1, "a PHH record needs at least two starting stacks")
        written = doc.get("_decimals")
        money_keys = ("antes", "blinds_or_straddles", "starting_stacks", "min_bet", "small_bet", "big_bet",
                      "bring_in", "winnings", "finishing_stacks", "_total_pot", "_rake", "_returns",
                      "_cash_drop")  # fmt: skip
        actions = _strings(lines, line_of("actions") - first)
        if isinstance(written, int) and 0 <= written <= 6:
            decimals, scale = written, 1
        else:
            values: list[Any] = []
            for k in money_keys:
                v = doc.get(k)
                values.extend(v if isinstance(v, list) else [v])
            for text, _, _ in actions:
                parts = text.split("#")[0].split()
                if len(parts) == 3 and parts[1] == "cbr":
                    try:  # noqa: SIM105
                        values.append(Decimal(parts[2]))
                    except ArithmeticError:
                        pass
            decimals = _decimals_of(values)
            scale = 10**decimals

        def amount(v: Any, line: int) -> int:
            if isinstance(v, bool) or not isinstance(v, int | Decimal):
                raise _Fail(line, 1, f"the amount {v!r} is not a number")
            q = Decimal(v) * scale
            if q != q.to_integral_value():
                raise _Fail(line, 1, f"the amount {v} has more decimals than the record's unit")
            return int(q)

        stacks = [amount(v, line_of("starting_stacks")) for v in doc["starting_stacks"]]
        players = [str(p) for p in doc.get("players") or []] or [f"p{i + 1}" for i in range(n)]
        seat_numbers = doc.get("seats") or list(range(1, n + 1))
        if len(players) != n or len(seat_numbers) != n or len(set(players)) != n:
            raise _Fail(line_of("players"), 1, "players, seats and starting_stacks of the PHH record differ in length")
        seats = tuple(M.Seat(seat=int(s), player=p, stack=st, line=line_of("starting_stacks"))
                      for s, p, st in sorted(zip(seat_numbers, players, stacks, strict=True)))  # fmt: skip
        antes = [amount(v, line_of("antes")) for v in _listed(doc.get("antes", 0), n)]
        blinds = [amount(abs(v), line_of("blinds_or_straddles")) * (-1 if v < 0 else 1)
                  for v in _listed(doc.get("blinds_or_straddles", 0), n)]  # fmt: skip
        if n == 2:
            antes, blinds = antes[::-1], blinds[::-1]
        events: list[M.Event] = []
        left = dict(zip(players, stacks, strict=True))
        street_bet: dict[str, int] = {}
        street: M.Street = "preflop"

        def put(player: str, chips: int) -> bool:
            left[player] -= chips
            return left[player] <= 0

        line = line_of("antes")
        for i, a in enumerate(antes):
            if a > 0:
                paid = min(a, left[players[i]])
                events.append(M.Post(line, 1, street, 1, players[i], "ante", paid, put(players[i], paid)))
        line = line_of("blinds_or_straddles")
        order = [0, 1, *range(2, n)] if n > 2 else [1, 0]
        kinds: list[M.PostKind] = ["small_blind", "big_blind"]
        for rank, i in enumerate(order):
            b = blinds[i]
            if b == 0:
                continue
            kind: M.PostKind = kinds[rank] if rank < 2 else "straddle"
            if b < 0:
                kind = "big_blind"
            paid = min(abs(b), left[players[i]])
            events.append(M.Post(line, 1, street, 1, players[i], kind, paid, put(players[i], paid)))
            street_bet[players[i]] = paid
        nominal = doc.get("min_bet")
        short_bb = 0
        bbs = [e for e in events if isinstance(e, M.Post) and e.kind == "big_blind"]
        if (
            isinstance(nominal, int | Decimal)
            and not isinstance(nominal, bool)
            and (
                any(e.all_in for e in bbs)
                or (not bbs and any(isinstance(e, M.Post) and e.kind == "small_blind" for e in events))
            )
        ):
            # a short all-in big blind, or none posted (its player sat out): the betting is at the
            # full blind (TDA 54-B), as the record's min_bet says
            short_bb = amount(nominal, line_of("min_bet"))
        board: list[str] = []
        folded: set[str] = set()
        pnames = {f"p{i + 1}": name for i, name in enumerate(players)}
        for text, li, col in actions:
            line = first + li
            words = text.split("#")[0].split()
            who = words[0] if words else ""
            p = None
            if re.fullmatch(r"p\d+", who) and 1 <= int(who[1:]) <= n:
                p = players[int(who[1:]) - 1]
            verb = words[1] if len(words) > 1 else ""
            if who == "d" and verb == "dh" and len(words) == 4 and re.fullmatch(r"p\d+", words[2]) \
                    and 1 <= int(words[2][1:]) <= n:  # fmt: skip
                cards = tuple(c for c in re.findall(r"..", words[3]) if "?" not in c)
                events.append(M.HoleCards(line, col, street, 1, players[int(words[2][1:]) - 1], cards))
            elif who == "d" and verb == "db" and len(words) == 3:
                cards = tuple(re.findall(r"..", words[2]))
                before = tuple(board)
                street = _STREETS[0 if len(board) < 3 else (1 if len(board) == 3 else 2)]
                street_bet = {}
                board.extend(cards)
                events.append(M.Board(line, col, street, 1, cards, before))
            elif p is not None and verb == "f" and len(words) == 2:
                folded.add(p)
                events.append(M.Action(line, col, street, 1, p, "fold"))
            elif p is not None and verb == "cc" and len(words) == 2:
                top = max(street_bet.values(), default=0)
                if street == "preflop" and short_bb:
                    top = max(top, short_bb)  # after a short all-in big blind, a call is of the full blind
                # ... but never more than an opponent still in the hand can match (the replay's call level)
                reach = max((street_bet.get(q, 0) + max(left[q], 0) for q in players if q != p and q not in folded),
                            default=top)  # fmt: skip
                top = min(top, max(reach, max(street_bet.values(), default=0)))
                prev = street_bet.get(p, 0)
                if top > prev:
                    inc = min(top - prev, max(left[p], 0))
                    street_bet[p] = prev + inc
                    events.append(M.Action(line, col, street, 1, p, "call", inc, prev + inc, None, put(p, inc)))
                else:
                    events.append(M.Action(line, col, street, 1, p, "check"))
            elif p is not None and verb == "cbr" and len(words) == 3:
                try:
                    to = amount(Decimal(words[2]), line)
                except ArithmeticError:
                    raise _Fail(line, col, f"the amount {words[2]!r} is not a number") from None
                top = max(street_bet.values(), default=0)
                prev = street_bet.get(p, 0)
                inc = to - prev
                street_bet[p] = to
                kind2: M.ActionKind = "raise" if top else "bet"
                events.append(M.Action(line, col, street, 1, p, kind2, inc, to, None, put(p, inc)))
            elif p is not None and verb == "sm" and len(words) in (2, 3):
                if len(words) == 2:
                    events.append(M.Muck(line, col, "showdown", 1, p))
                else:
                    cards = tuple(c for c in re.findall(r"..", words[2]) if "?" not in c) if words[2] != "-" else ()
                    events.append(M.Show(line, col, "showdown", 1, p, cards))
            elif not words:
                continue  # a comment only (no operation)
            else:
                findings.append(F.make("P002", chunk.path, line, col, f"PHH action not recognised: {text[:120]!r}",
                                       site=chunk.site, text=text[:500]))  # fmt: skip
        returns = doc.get("_returns")
        if isinstance(returns, list):
            # hhaudit's own field: the source site's uncalled-bet lines, after the last wager
            at = max((i + 1 for i, e in enumerate(events) if isinstance(e, M.Action | M.Post)), default=len(events))
            where: M.Street = next((e.street for e in reversed(events[:at]) if isinstance(e, M.Action | M.Post)),
                                   "preflop")  # fmt: skip
            line = line_of("_returns")
            back = [M.UncalledReturn(line, 1, where, 1, p, amount(v, line))
                    for p, v in zip(players, returns, strict=False) if amount(v, line) > 0]  # fmt: skip
            events[at:at] = back
        for item in doc.get("_cash_outs") or []:
            # hhaudit's own field: a cash-out the source site printed, [player, amount, fee, kind]
            line = line_of("_cash_outs")
            if isinstance(item, list) and len(item) == 4 and str(item[0]) in pnames:
                fee = amount(item[2], line) if item[2] != -1 else None
                kind3: Any = "insurance" if item[3] == "insurance" else "cash_out"
                who = pnames[str(item[0])]
                events.append(M.CashOut(line, 1, "showdown", 1, who, amount(item[1], line), fee, kind3))
        if doc.get("_cash_drop"):
            events.insert(0, M.CashDrop(line_of("_cash_drop"), 1, "preflop", 1, amount(doc["_cash_drop"], first)))
        winnings = doc.get("winnings")
        if isinstance(winnings, list):
            line = line_of("winnings")
            for p, w in zip(players, winnings, strict=False):
                won = amount(w, line)
                if won > 0:
                    events.append(M.Collect(line, 1, "summary", 1, p, won, "pot"))
        if "_total_pot" in doc:
            rake = amount(doc["_rake"], line_of("_rake")) if "_rake" in doc else None
            fees = tuple((str(k), amount(v, line_of("_fees"))) for k, v in doc.get("_fees", []))
            unit: int = doc["_pot_unit"] if isinstance(doc.get("_pot_unit"), int) else 1
            events.append(M.PotClaim(line_of("_total_pot"), 1, "summary", 1, amount(doc["_total_pot"], first), rake=rake,  # noqa: E501
                                     fees=fees, unit=unit))  # fmt: skip
        small = amount(doc["small_bet"], first) if variant in ("FT", "FO/8") and "small_bet" in doc else None
        big = amount(doc["big_bet"], first) if variant in ("FT", "FO/8") and "big_bet" in doc else None
        if small is None:
            pos = [blinds[i] for i in order if blinds[i] > 0]
            small = pos[0] if len(pos) > 1 else None
            big = amount(doc["min_bet"], first) if "min_bet" in doc else (pos[1] if len(pos) > 1 else None)
        date = None
        if all(isinstance(doc.get(k), int) for k in ("year", "month", "day")):
            date = f"{doc['year']:04d}/{doc['month']:02d}/{doc['day']:02d}"
            if doc.get("time") is not None:
                date += f" {doc['time']}"
        ante = max(antes) if any(antes) else None
        hand_id = str(doc.get("hand") or name or f"{PurePath(chunk.path).stem}:{first}")
        extras = {"variant": variant}
        if "_site" in doc:
            extras["converted"] = str(doc["_site"])
            # a record hhaudit wrote: its claims are the source site's, judged by its export facts
            extras["source_site"] = str(doc["_site"])
            if doc.get("_brand"):
                extras["source_brand"] = str(doc["_brand"])
            if doc.get("_converted"):
                extras["source_converted"] = "1"
        return M.Hand(
            site=chunk.site, hand_id=hand_id, path=chunk.path, first_line=first, last_line=first + len(lines) - 1,
            game=game, game_text=game_text, structure=structure, small_blind=small, big_blind=big,
            currency=str(doc["currency"]) if doc.get("currency") else None, decimals=decimals,
            button=int(seat_numbers[-1]), max_seats=int(doc["seat_count"]) if doc.get("seat_count") else None,
            table=str(doc["table"]) if doc.get("table") is not None else None,
            tournament_id=str(doc["_tournament"]) if doc.get("_tournament") else None,
            level=str(doc["_level"]) if doc.get("_level") else None, start_time=date,
            time_zone=str(doc["time_zone"]) if doc.get("time_zone") else None,
            play_money=False, ante=ante, cap=None, seats=seats, events=tuple(events), complete=True,
            cancelled=False, extras=extras,
        )  # fmt: skip
