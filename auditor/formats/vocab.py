"""The vocabulary sites share: game names, betting structures, street markers, kinds of post,
pot labels and card lists, each mapped once to the canonical model's words (``auditor.model``).

Readers of every format call these; a site's own words are added here, not in a reader.
"""

from __future__ import annotations

import re

from auditor import model as M

_GAMES: tuple[tuple[str, M.Game], ...] = (
    ("5 card omaha hi/lo", "omaha5_hilo"),
    ("omaha5 hi-lo", "omaha5_hilo"),
    ("5 card omaha", "omaha5"),
    ("omaha5", "omaha5"),
    ("6 card omaha", "omaha6"),
    ("omaha6", "omaha6"),
    ("courchevel hi/lo", "courchevel_hilo"),
    ("courchevel", "courchevel"),
    ("omaha hi/lo", "omaha_hilo"),
    ("omaha hi-lo", "omaha_hilo"),
    ("omaha h/l", "omaha_hilo"),  # WPN
    ("omaha hilow", "omaha_hilo"),  # WPN 2016
    ("omaha8", "omaha_hilo"),  # Winamax
    ("omaha", "omaha"),
    ("plo-5", "omaha5"),
    ("plo5", "omaha5"),
    ("plo-6", "omaha6"),
    ("plo6", "omaha6"),
    ("plo", "omaha"),
    ("6+", "shortdeck"),
    ("six plus", "shortdeck"),  # WPN 2016
    ("short deck", "shortdeck"),
    ("shortdeck", "shortdeck"),
    ("hold'em", "holdem"),
    ("holdem", "holdem"),
    ("stud hi/lo", "stud_hilo"),
    ("stud hi-lo", "stud_hilo"),
    ("stud h/l", "stud_hilo"),  # WPN
    ("stud hilow", "stud_hilo"),  # WPN 2016
    ("stud", "stud"),
    ("razz", "razz"),
    ("draw", "draw"),
    ("badugi", "draw"),
    ("lowball", "draw"),
)


def game_of(text: str) -> M.Game:
    t = text.lower()
    for key, game in _GAMES:
        if key in t:
            return game
    return "other"


def structure_of(text: str) -> M.Structure:
    t = text.lower().replace("-", " ")
    if "cap" in t:
        return "CAP"
    if "pot limit" in t or t in ("pl", "pot-limit"):
        return "PL"
    if "no limit" in t or t in ("nl", "no-limit"):
        return "NL"
    if "limit" in t or t in ("fl", "fixed"):
        return "FL"
    return "MIXED"


def street_of(name: str) -> tuple[M.Street | None, int | None]:
    """Map a street marker's name to (street, run).  ``None`` street: not a betting street."""
    n = name.upper().strip()
    run = None
    if n[-2:] in (" 1", " 2", " 3") and n[:-2] in ("FLOP", "TURN", "RIVER", "SHOW DOWN", "SHOWDOWN"):
        run, n = int(n[-1]), n[:-2]  # WPN runs: "*** FLOP 2 ***"
    for i, word in enumerate(("FIRST ", "SECOND ", "THIRD "), start=1):
        if n.startswith(word) and "DRAW" not in n:
            run, n = i, n[len(word) :]
    table: dict[str, M.Street] = {
        "HOLE CARDS": "preflop",
        "PRE-FLOP": "preflop",
        "PREFLOP": "preflop",
        "ANTE/BLINDS": "preflop",
        "DEALING HANDS": "preflop",
        "FLOP": "flop",
        "TURN": "turn",
        "RIVER": "river",
        "SHOW DOWN": "showdown",
        "SHOWDOWN": "showdown",
        "SUMMARY": "summary",
        "3RD STREET": "third",
        "4TH STREET": "fourth",
        "5TH STREET": "fifth",
        "6TH STREET": "sixth",
        "7TH STREET": "seventh",
        "RIVER STREET": "seventh",
        "DRAW": "draw1",
        "FIRST DRAW": "draw1",
        "SECOND DRAW": "draw2",
        "THIRD DRAW": "draw3",
        # Winamax: draw games bet in FIRST-BET .. FOURTH-BET around FIRST-DRAW .. THIRD-DRAW,
        # stud streets are THIRD .. SEVENTH
        "FIRST-BET": "preflop",
        "FIRST-DRAW": "draw1",
        "SECOND-BET": "draw1",
        "SECOND-DRAW": "draw2",
        "THIRD-BET": "draw2",
        "THIRD-DRAW": "draw3",
        "FOURTH-BET": "draw3",
        "THIRD": "third",
        "FOURTH": "fourth",
        "FIFTH": "fifth",
        "SIXTH": "sixth",
        "SEVENTH": "seventh",
    }
    return table.get(n), run


POST_KINDS: dict[str, M.PostKind] = {
    "small blind": "small_blind",
    "big blind": "big_blind",
    "small & big blinds": "small_big_blind",
    "the ante": "ante",
    "ante": "ante",
    "missed blind": "missed_blind",
    "missed small blind": "missed_blind",
    "dead blind": "missed_blind",
    "straddle": "straddle",
    "button blind": "button_blind",
    "bring-in": "bring_in",
    "big blind ante": "big_blind_ante",
    "dead": "dead_small_blind",  # WPN "posts dead $0.07": a returning player's blinds (small dead)
    "posts": "big_blind",  # WPN "X posts $0.02": a new player's big blind
}

LIVE_POSTS = frozenset({"small_blind", "big_blind", "straddle", "button_blind", "bring_in"})


def cards_of(text: str | None) -> tuple[str, ...]:
    return tuple(text.split()) if text else ()


def pot_label(text: str) -> str:
    t = text.lower().strip()
    if t.startswith("main"):
        return "main"
    if t.startswith("side"):
        m = re.search(r"(\d+)", t)
        return f"side-{m.group(1)}" if m else "side-1"
    return "pot"


def table_event_kind(what: str) -> M.TableEventKind:
    """The kind of a table event from the site's words (``is sitting out``, ``joins the table`` ...)."""
    what = what.lower()
    if "disconnected" in what:
        return "disconnected"
    if "timed out" in what:
        return "timed_out"
    if "connected" in what:
        return "connected"
    if "sitting out" in what or "sits out" in what:
        return "sitting_out"
    if "returned" in what or "is back" in what:
        return "returned"
    if "joins" in what or "sits down" in what:
        return "joins"
    if "leaves" in what or "stands up" in what or "removed" in what:
        return "leaves"
    return "other"
