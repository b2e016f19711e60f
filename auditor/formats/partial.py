"""Records that print less than a whole hand, read as hands with what they do say.

Sites wrote such records themselves: an observer's export that prints the action but no seat lines
and no stacks (Full Tilt 2006 "Observed, no player stacks"), a record of the summary alone (Full
Tilt "(partial)", a Matrix match's summary-only record).  They are real hands; failing them (P001)
would lose what they do say.  The assembler calls :func:`complete` when it builds a hand:

* **no seat lines**: the players and their seats are taken from the summary's seat lines
  ("Seat 3: Ann (small blind) collected ($100)"); their stacks are unknown, never judged (the
  replay gives them no limit and believes the site's all-in marks, see
  ``auditor.replay.betting.Replay``), and the cross-hand stage does not chain the hand;
* **no posts and no actions** (the summary alone): no betting is recorded, so nothing about
  betting, contributions or who should have won is judged; what is judged is that the printed
  total pot is paid out: collected + rake + fees = total (A010).

Each such hand gets one P010 finding (info) saying what the record lacks.
"""

from __future__ import annotations

from typing import Any

from auditor import findings as F
from auditor import model as M

#: ``Hand.extras`` keys set on partial records (values: "unprinted")
STACKS = "stacks"
BETTING = "betting"
#: set (value "unattributed") on a hand whose pot holds antes nobody is recorded paying, with their
#: total in minor units under ANTES_TOTAL (Boss Media 2011 MTT, ``auditor.formats.bossmedia``)
ANTES = "antes"
ANTES_TOTAL = "antes_total"


def stacks_unprinted(hand: M.Hand) -> bool:
    """The record prints no stacks (its seats come from the summary, or there are none)."""
    return hand.extras.get(STACKS) == "unprinted"


def betting_unprinted(hand: M.Hand) -> bool:
    """The record prints no post and no action: the summary alone."""
    return hand.extras.get(BETTING) == "unprinted"


def complete(a: Any, seats: list[M.Seat], events: list[M.Event]) -> tuple[list[M.Seat], dict[str, str]]:
    """The seats of a record without seat lines (from its summary) and the extras that say what the
    record lacks; appends the P010 finding to ``a.findings`` (``a``: the HandAssembler).  A record
    with seat lines is returned as it is."""
    if seats or a.cancelled:
        return seats, {}
    derived: list[M.Seat] = []
    taken: set[str] = set()
    for e in events:
        if isinstance(e, M.SeatResult) and e.player not in taken:
            taken.add(e.player)
            derived.append(M.Seat(seat=e.seat, player=e.player, stack=0, line=e.line,
                                  sitting_out="is sitting out" in e.text))  # fmt: skip
    derived.sort(key=lambda s: s.seat)
    extras = {STACKS: "unprinted"}
    lacks = [
        "no seat lines: the players and seats are read from the summary, their stacks are unknown"
        if derived
        else "no seat lines and no summary seats: the players' seats and stacks are unknown"
    ]
    if not any(isinstance(e, (M.Post, M.Action)) for e in events):
        extras[BETTING] = "unprinted"
        lacks.append("no blinds and no betting: only the printed pot, collects and rake are compared")
    message = "a partial record: " + "; ".join(lacks) + " (stacks and betting not printed are not judged)"
    a.findings.append(F.make("P010", a.path, a.first_line, 1, message, site=a.format,
                             hand_id=a.facts.get("hand_id"), lacks=sorted(extras)))  # fmt: skip
    return derived, extras
