"""Anonymised sharing: player names replaced by stable pseudonyms keyed by a user secret.

``pseudonym(name) = "P-" + HMAC-SHA256(secret, name)[:10 hex]``: the same player maps to the same
pseudonym in every file anonymised with the same secret (so a forum or a room can follow one player
across hands), and nobody without the secret can test a guessed name against it.  The hero (the
player whose hole cards the record shows) is masked too unless ``keep_hero``; hand ids and table
names are masked on request (``H-`` / ``T-`` + HMAC).  Amounts, cards and actions are untouched,
so the anonymised hand audits to the same findings as the original (a test checks it on the
corpus).  Names inside free text the record keeps (table chat, seat summaries) are replaced too.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re

from auditor import model as M

__all__ = ["ENV_SECRET", "Anonymiser", "hero_of"]

#: The environment variable ``hhaudit anonymise`` reads the secret from when ``--secret`` is not given.
ENV_SECRET = "HHAUDIT_ANON_SECRET"


def hero_of(hand: M.Hand) -> str | None:
    """The player whose hole cards the record shows before any showdown (the export's owner)."""
    return next((e.player for e in hand.events if isinstance(e, M.HoleCards) and e.cards), None)


@dataclasses.dataclass(frozen=True)
class Anonymiser:
    secret: bytes
    keep_hero: bool = False
    mask_ids: bool = False
    mask_tables: bool = False

    def __post_init__(self) -> None:
        if not self.secret:
            raise ValueError("an anonymisation secret is needed (--secret or $" + ENV_SECRET + ")")

    def _mac(self, kind: str, text: str) -> str:
        return hmac.new(self.secret, f"{kind}\x00{text}".encode(), hashlib.sha256).hexdigest()[:10]

    def pseudonym(self, name: str) -> str:
        return f"P-{self._mac('player', name)}"

    def hand(self, hand: M.Hand) -> M.Hand:
        hero = hero_of(hand) if self.keep_hero else None
        names = {s.player for s in hand.seats} | {
            p for e in hand.events if isinstance(p := getattr(e, "player", None), str)
        }
        mapping = {n: (n if n == hero else self.pseudonym(n)) for n in names}
        pattern = (
            re.compile("|".join(re.escape(n) for n in sorted(mapping, key=len, reverse=True))) if mapping else None
        )

        def text(t: str) -> str:
            return pattern.sub(lambda m: mapping[m.group(0)], t) if pattern is not None else t

        seats = tuple(dataclasses.replace(s, player=mapping[s.player]) for s in hand.seats)
        events = []
        for e in hand.events:
            changes: dict[str, object] = {}
            player = getattr(e, "player", None)
            if isinstance(player, str):
                changes["player"] = mapping[player]
            if isinstance(e, M.SeatResult | M.TableEvent):
                changes["text"] = text(e.text)
            events.append(dataclasses.replace(e, **changes) if changes else e)  # type: ignore[arg-type]
        head: dict[str, object] = {"seats": seats, "events": tuple(events)}
        if self.mask_ids:
            head["hand_id"] = f"H-{self._mac('hand', hand.hand_id)}"
            if hand.tournament_id:
                head["tournament_id"] = f"{int(self._mac('tournament', hand.tournament_id), 16)}"
        if self.mask_tables and hand.table:
            head["table"] = f"T-{self._mac('table', hand.table)}"
        return dataclasses.replace(hand, **head)  # type: ignore[arg-type]
