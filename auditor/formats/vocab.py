"""The vocabulary sites share: game names, betting structures, street markers, kinds of post,
pot labels and card lists, each mapped once to the canonical model's words (``auditor.model``).

Readers of every format call these; a site's own words are added here, not in a reader.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from auditor import model as M

_NUMBERED: Final = re.compile(r"(.+) ([1-3])")
_BOARD_RUN: Final = re.compile(r"BOARD ([1-3]) - (.+)")
_UTG: Final = re.compile(r"utg\+(\d)")
_CARD_SEP: Final = re.compile(r"[\s,]+")
_DIGITS: Final = re.compile(r"(\d+)")

_GAMES: tuple[tuple[str, M.Game], ...] = (
    # games hhaudit does not judge by their names' look-alikes (Kings Club): 2-7 razz is stud to the
    # deuce-to-seven low, not razz; drawmaha is a draw game with a board, not Omaha
    ("2-7 razz", "other"),
    ("drawmaha", "other"),
    ("omaha 5 card", "omaha5"),  # Kings Club "Pot Limit Omaha 5 Card"
    ("5 card omaha hi/lo", "omaha5_hilo"),
    ("omaha5 hi-lo", "omaha5_hilo"),
    ("5 card omaha", "omaha5"),
    ("5-card omaha", "omaha5"),  # Entraction
    ("omaha5", "omaha5"),
    ("6 card omaha", "omaha6"),
    ("omaha6", "omaha6"),
    ("courchevel hi/lo", "courchevel_hilo"),
    ("courchevel", "courchevel"),
    ("omaha hi/lo", "omaha_hilo"),
    ("omaha h/l", "omaha_hilo"),  # Full Tilt
    ("omaha hi-lo", "omaha_hilo"),
    ("omaha hilo", "omaha_hilo"),  # Bodog network
    ("omaha h/l", "omaha_hilo"),  # WPN
    ("omaha hilow", "omaha_hilo"),  # WPN 2016
    ("omaha_hi_lo", "omaha_hilo"),  # OnGame
    ("omaha8", "omaha_hilo"),  # Winamax
    ("omahahl", "omaha_hilo"),  # 888
    ("omahahilo", "omaha_hilo"),  # Cake
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
    ("double hold'em", "other"),  # PartyPoker Double Hold'em: three hole cards, a game of its own
    ("hold'em", "holdem"),
    ("holdem", "holdem"),
    ("7card hilo", "stud_hilo"),  # Bodog network
    ("7card", "stud"),
    ("5 card stud", "other"),  # five-card stud (Full Tilt): not the seven-card game
    ("stud hi/lo", "stud_hilo"),
    ("stud h/l", "stud_hilo"),  # Full Tilt
    ("stud hi-lo", "stud_hilo"),
    ("stud h/l", "stud_hilo"),  # WPN
    ("stud hilow", "stud_hilo"),  # WPN 2016
    ("stud_hi_lo", "stud_hilo"),  # OnGame
    ("stud", "stud"),
    ("razz", "razz"),
    ("draw", "draw"),
    ("badugi", "draw"),
    ("lowball", "draw"),
)


@lru_cache(maxsize=4096)
def game_of(text: str) -> M.Game:
    t = text.lower()
    for key, game in _GAMES:
        if key in t:
            return game
    return "other"


@lru_cache(maxsize=4096)
def structure_of(text: str) -> M.Structure:
    t = text.lower().replace("-", " ").replace("_", " ")  # "no-limit", "NO_LIMIT" (OnGame)
    if "cap" in t:
        return "CAP"
    if "pot limit" in t or t in ("pl", "pot-limit"):
        return "PL"
    if "no limit" in t or t in ("nl", "no-limit"):
        return "NL"
    if "limit" in t or t in ("fl", "fixed", "normal"):  # Absolute / UltimateBet call fixed limit "Normal"
        return "FL"
    return "MIXED"


#: The structure a game is dealt in where the header prints none in its place (Ignition
#: tournament headers print the speed, "Normal" or "Turbo", where older ones printed "No Limit").
USUAL_STRUCTURE: dict[M.Game, M.Structure] = {"holdem": "NL"}


@lru_cache(maxsize=4096)
@lru_cache(maxsize=1024)
def street_of(name: str) -> tuple[M.Street | None, int | None]:
    """Map a street marker's name to (street, run).  ``None`` street: not a betting street.
    (Cached: a hand prints four or five markers, of a few names.)"""
    n = name.upper().strip()
    run = None
    board = _BOARD_RUN.fullmatch(n)  # Kings Club runs it twice as "BOARD 1 - RIVER", "BOARD 2 - TURN"
    if board:
        n, run = board.group(2), int(board.group(1))
    numbered = _NUMBERED.fullmatch(n)  # Full Tilt runs it twice as "FLOP 1" .. "SUMMARY 2"
    if numbered:
        n, run = numbered.group(1), int(numbered.group(2))
    for i, word in enumerate(("FIRST ", "SECOND ", "THIRD "), start=1):
        if n.startswith(word) and "DRAW" not in n:
            run, n = i, n[len(word) :]
    table: dict[str, M.Street] = {
        "HOLE CARDS": "preflop",
        "FLOPET": "preflop",  # Full Tilt Courchevel: the first board card, before the first betting round
        "DISCARD ROUND": "flop",  # Full Tilt Irish: the discards after the flop
        "PRE-FLOP": "preflop",
        "PREFLOP": "preflop",
        "ANTE/BLINDS": "preflop",
        "DEALING HANDS": "preflop",
        "DOWN CARDS": "preflop",  # 888 "** Dealing down cards **"
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
        # PartyPoker: "** Dealing down cards **", stud "** Dealing **" (3rd street), "** Dealing Fourth street **"
        "DEALING": "third",
        "FOURTH STREET": "fourth",
        "FIFTH STREET": "fifth",
        "SIXTH STREET": "sixth",
        # OnGame: "Dealing pocket cards" (then "--- Dealing flop [..]", stud "Dealing 4th street")
        "POCKET CARDS": "preflop",
        # Kings Club draw games: "*** 1ST BETTING ROUND ***", "*** 1ST DRAW ***", .. "*** 4TH BETTING ROUND ***"
        "1ST BETTING ROUND": "preflop",
        "1ST DRAW": "draw1",
        "2ND BETTING ROUND": "draw1",
        "2ND DRAW": "draw2",
        "3RD BETTING ROUND": "draw2",
        "3RD DRAW": "draw3",
        "4TH BETTING ROUND": "draw3",
        # PKR: "End of Hand #N" closes the hand (after the stacks, where others print a summary)
        "END OF HAND": "summary",
        # Betfair: "** Hand Conclusion **" (the award lines follow, then "Game N ends")
        "HAND CONCLUSION": "summary",
    }
    return table.get(n), run


POST_KINDS: dict[str, M.PostKind] = {
    "small blind": "small_blind",
    "big blind": "big_blind",
    "small & big blinds": "small_big_blind",
    "small & big blind": "small_big_blind",  # Seals With Clubs
    "the ante": "ante",
    "ante": "ante",
    "missed blind": "missed_blind",
    "missed small blind": "missed_blind",
    "dead blind": "missed_blind",
    "straddle": "straddle",
    "button blind": "button_blind",
    "bring-in": "bring_in",
    "big blind ante": "big_blind_ante",
    "big blind + dead": "small_big_blind",  # PartyPoker: a returning player's live big blind plus the dead small
    # Chico network (BetOnline): "Posts small blind 1.00." (2012 skins); "post now" is a live big
    # blind posted out of turn; "post dead" a returning player's live big blind with a dead small
    # blind (the site prints only the big blind's amount: see POSTS_WITH_UNPRINTED_DEAD_SMALL);
    # "ante processed 0.00" an ante
    "posts small blind": "small_blind",
    "posts big blind": "big_blind",
    "post now": "big_blind",
    "post dead": "small_big_blind",
    "ante processed": "ante",
    # Bodog network (Ignition, Bovada): "Ante/Small Blind $4", "Big blind/Bring in $8" (the big
    # blind in flop games), "Posts chip $8" (a live big blind posted out of turn), "Posts dead
    # chip $30" (a returning player's live big blind and dead small blind, as one amount: $30 at
    # $10/$20), "Bring_in chip $0.02" (stud)
    "ante chip": "ante",
    "ante/small blind": "small_blind",
    "big blind/bring in": "big_blind",
    "bring_in chip": "bring_in",
    "posts chip": "big_blind",
    "posts dead chip": "small_big_blind",
    "dead": "dead_small_blind",  # WPN "posts dead $0.07": a returning player's blinds (small dead)
    "posts": "big_blind",  # WPN "X posts $0.02": a new player's big blind
    # 9stacks (PokerStars format) prints the button straddle as "NAME: unknown Rs.20"
    "unknown": "straddle",
    # Full Tilt: "posts the small blind of $1", "antes $0.40", "posts $2" (a live big blind posted
    # to come in), "posts a dead small blind of $1"
    "posts the small blind of": "small_blind",
    "posts the big blind of": "big_blind",
    "posts a dead small blind of": "dead_small_blind",
    "posts a dead big blind of": "missed_blind",
    "antes": "ante",
    # OnGame stud: "X small bring in $0.12", "X big bring in $1" (the bring-in player completes)
    "small bring in": "bring_in",
    "big bring in": "bring_in",
    # Entraction: "Blind out of turn:  genip  (0.04)", a live big blind of a player joining the table
    "blind out of turn": "big_blind",
    "small + big blind": "small_big_blind",
    # PokerTracker conversions: "X: Post SB $0.05", "Post BB", "Post DB $0.35" (a returning
    # player's dead small blind, with the live big blind when it is more than the small blind)
    "sb": "small_blind",
    "bb": "big_blind",
    "db": "dead_small_blind",
    # PokerTracker's Everest conversions: "posts the dead blind of $0.50" is a dead small blind; of
    # the big blind's size it is a live big blind (the assembler reads a dead small blind larger
    # than the small blind as a small & big blind post)
    "the dead blind": "dead_small_blind",
    # PokerTracker's Microgaming conversions: "X posted to play - €0.10", a new player's live big blind
    "to play": "big_blind",
    # Absolute / UltimateBet: "X - Posts dead $0.01" (a dead small blind); "Posts small blind",
    # "Posts $0.02" (a live big blind to come in), "Ante", "Bring-In" are read as above
    "posts dead": "dead_small_blind",
}

_POSITION_SLOTS: Final = {"dealer": 1, "small blind": 2, "big blind": 3, "utg": 4}


def position_slot(name: str) -> int | None:
    """The place at the table, clockwise from the button (1), of a player named by position
    ("Dealer", "Small Blind", "Big Blind", "UTG", "UTG+3": the Bodog network), or None."""
    n = name.lower().strip()
    if n in _POSITION_SLOTS:
        return _POSITION_SLOTS[n]
    m = _UTG.fullmatch(n)
    return 4 + int(m.group(1)) if m else None


#: Posts whose line prints only the live big blind, the table's small blind being posted dead beside
#: it (Chico "post dead 0.50" at $0.25/$0.50 puts $0.75 in; "post dead 0.00" the dead $0.25 alone)
# Chico "post dead 0.50"; Kings Club "X: posts blind 44" (a returning player: the summary's net counts the
# dead small blind too)
POSTS_WITH_UNPRINTED_DEAD_SMALL = frozenset({"post dead", "posts blind"})

LIVE_POSTS = frozenset({"small_blind", "big_blind", "straddle", "button_blind", "bring_in"})


#: Card ranks and suits some sites print in the player's language (888: Swedish "Knh", German
#: "8Pik", Dutch "Vh", French "7p", Russian ranks read as cp1252 "Âh"), mapped to the canonical letters.
_LOCAL_RANKS: Final = {"Kn": "J", "B": "J", "V": "Q", "D": "Q", "H": "K", "E": "A",
                "\u00c2": "J", "\u0412": "J", "\u00c4": "Q", "\u0414": "Q", "\u00ca": "K", "\u041a": "K",
                "\u00d2": "A", "\u0422": "A"}  # fmt: skip
_LOCAL_SUITS: Final = {"Pik": "s", "Herz": "h", "Karo": "d", "Kreuz": "c", "p": "s", "t": "c"}  # French pique, trèfle
_SUIT_FIRST: Final = re.compile(r"([shdcSHDC])(10|[2-9TJQKA])")
_CANONICAL_CARD: Final = re.compile(r"(?:10|[2-9TJQKAX])[shdcxX]|X")
_LOCAL_CARD: Final = re.compile(
    r"(10|[2-9TJQKA]|Kn|[BVDHE\u00c2\u00c4\u00ca\u00d2\u0412\u0414\u041a\u0422])([shdcpt]|Pik|Herz|Karo|Kreuz)"
)


def card_of(token: str) -> str:
    """One card as canonical text (a localised rank or suit word translated; a card written suit
    first, "SQ", "H10", "dJ" (PokerTracker's conversions of iPoker), turned round; anything else as printed)."""
    if _CANONICAL_CARD.fullmatch(token):
        return token
    suit_first = _SUIT_FIRST.fullmatch(token)
    if suit_first is not None:
        return suit_first.group(2).replace("10", "T") + suit_first.group(1).lower()
    m = _LOCAL_CARD.fullmatch(token)
    if m is None:
        return token
    return _LOCAL_RANKS.get(m.group(1), m.group(1)) + _LOCAL_SUITS.get(m.group(2), m.group(2))


_BRACKETED: Final = re.compile(r"\[([^\]]*)\]")
#: cards printed with no separator ("Jd8sAd2s", eNet / People's Network)
_RUN_OF_CARDS: Final = re.compile(r"(?:(?:10|[2-9TJQKA])[shdc]){2,}")
_ONE_CARD: Final = re.compile(r"(?:10|[2-9TJQKA])[shdc]")
_SPACED_CARD: Final = re.compile(r"^(10|[2-9TJQKAtjqka]) ([shdcSHDC])$")
_DASHED: Final = re.compile(r"(?:10|[2-9TJQKA])[shdc](?: - (?:10|[2-9TJQKA])[shdc])+")
_UPPER_SUIT: Final = re.compile(r"(?<=[0-9TJQKA])([SHDC])$")
#: canonical cards (``_CANONICAL_CARD``) separated by single spaces: read as they are (issue 16)
_PLAIN_CARDS: Final = re.compile(r"(?:(?:10|[2-9TJQKAX])[shdcxX]|X)(?: (?:(?:10|[2-9TJQKAX])[shdcxX]|X))*")


@lru_cache(maxsize=4096)
def cards_of(text: str | None) -> tuple[str, ...]:
    """The cards of a printed list, separated by spaces or commas (888: ``[ 7h, 8s ]``, PartyPoker).
    ``[Ah Kd-Ac Kc Qs Js Ts]`` (hole cards, a hyphen, the best five) lists the hole cards before the
    hyphen: the rest are board cards, not dealt to the player.  A capital suit letter ("10S",
    Chico's 2012 skins) is written in lower case; localised ranks and suits are translated."""
    if not text:
        return ()
    if _PLAIN_CARDS.fullmatch(text):  # the usual "Ah Kd 7c": what _read_cards gives (tests/test_quick.py)
        return tuple(text.split(" "))
    return _read_cards(text)


def _read_cards(text: str) -> tuple[str, ...]:
    """:func:`cards_of` of any printed list but the plain one."""
    if _DASHED.fullmatch(text.strip()):  # "6d - 8d - 9h" (Entraction)
        return tuple(text.strip().split(" - "))
    if text.startswith("["):  # "[T h][9 s]", "[qs][2s]" (PKR): one card a bracket, spaced or in lower case
        tokens = [t for c in _BRACKETED.findall(text) for t in (_SPACED_CARD.sub(r"\1\2", c).split())]
        return tuple(card_of(t[:-1].upper() + t[-1].lower()) for t in tokens)
    if " of " in text:  # "A of c, 10 of h" (PokerTracker's Microgaming conversions)
        text = text.replace(" of ", "")
    tokens = _CARD_SEP.split(text.split("-", 1)[0].strip())
    if len(tokens) == 1 and _RUN_OF_CARDS.fullmatch(tokens[0]):
        tokens = _ONE_CARD.findall(tokens[0])
    return tuple(card_of(_UPPER_SUIT.sub(lambda m: m.group(1).lower(), c)) for c in tokens if c)


@lru_cache(maxsize=4096)
def pot_label(text: str) -> str:
    t = text.lower().strip()
    if t.startswith("main"):
        return "main"
    if t.startswith("side"):
        m = _DIGITS.search(t)
        return f"side-{m.group(1)}" if m else "side-1"
    return "pot"


def table_event_kind(what: str) -> M.TableEventKind:
    """The kind of a table event from the site's words (``is sitting out``, ``joins the table`` ...)."""
    what = what.lower()
    if ("disconnect" in what and ("allin" in what or "all-in" in what or "disconnection protection" in what)) or (
        what.startswith("all-in") and "timeout" in what
    ):
        return "disconnected_all_in"  # kept in the hand all-in (Everest, PKR, Absolute's timeout)
    if "disconnected" in what:
        return "disconnected"
    if "timed out" in what:
        return "timed_out"
    if "connected" in what:
        return "connected"
    if "sitting out" in what or "sits out" in what or what.startswith("sitout"):
        return "sitting_out"
    if "returned" in what or "is back" in what or "re-join" in what:
        return "returned"
    if "joins" in what or "joined the table" in what or "sits down" in what or "sit down" in what:
        return "joins"
    if "leaves" in what or "left the table" in what or "stands up" in what or "removed" in what or "leave user" in what:
        return "leaves"
    return "other"
