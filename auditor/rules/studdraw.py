"""Stud and draw checks that flop games do not have: who brings in (B012) and whether the draws
took more cards than the deck holds (H006).

The betting of stud and draw hands is judged by the usual B-codes on the replays of
``auditor/replay/stud.py`` and ``auditor/replay/draw.py``: order of action from the bring-in on
third street and from the best showing hand on later streets (B004), the completion and the small
and big bets (B009), raise caps (B010).  Awards are checked by the A-codes with pokerkit's
evaluators (``auditor/replay/showdown.py``).  The stud and draw rules each finding cites are in
``auditor/rules/studdraw_cites.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from auditor import model as M
from auditor.findings import Finding, Severity, rule
from auditor.replay.betting import Trace
from auditor.replay.draw import deck_use
from auditor.replay.stud import STUD_GAMES, bring_in_due
from auditor.rules.common import NOTHING, flag


@rule("B012", "wrong-bring-in", Severity.ERROR, stage="hand", applies=lambda k: k.game in STUD_GAMES)
def b012(t: Trace) -> Sequence[Finding]:
    """The stud bring-in was posted by the wrong player.

    On third street the lowest upcard brings in (seven-card stud and stud hi/lo; aces are high);
    in razz the highest upcard (aces are low, so a king is the highest).  Cards of the same rank
    are ranked by suit: clubs (lowest), diamonds, hearts, spades (highest).  A player all-in from
    the ante cannot bring in, and a hand whose upcards are not all printed is not judged.

    Example: stud, upcards Td, 4c, 2c, 8s: the 2c brings in; a bring-in by the 4c is flagged.
    Razz, upcards Kd, Ks, 5c: the Ks brings in.
    """
    h = t.hand
    if h.game not in STUD_GAMES:
        return NOTHING
    post = next((e for e in t.of(M.Post) if e.kind == "bring_in"), None)
    if post is None:
        return NOTHING
    due = bring_in_due(h, t.players)
    if due is None or post.player == due:
        return NOTHING
    low = "highest" if h.game == "razz" else "lowest"
    return [flag(t, "B012", post.line, post.col,
                 f"{post.player} brought in; {due} had the {low} upcard and was due to bring in",
                 expected=due, actual=post.player)]  # fmt: skip


@rule("H006", "draw-exceeds-deck", Severity.ERROR, stage="hand", applies=lambda k: k.game == "draw")
def h006(t: Trace) -> Sequence[Finding]:
    """A draw took more cards than the deck could give.

    A 52-card deck deals five cards to each player (badugi: four); a player who discards draws as
    many new cards, so the cards outside the players' hands stay 52 less the cards dealt.  Where
    the rule profile lets the dealer shuffle the discards into a new stub (``draw_reshuffle =
    "discards"``, every rule book), a player draws from the stub and the other players' discards:
    no single draw can take more than the cards outside the hands.  Without a reshuffle
    (``draw_reshuffle = "none"``), all the rounds together can draw at most the stub left after
    the deal.

    Example: ten players at five card draw hold 50 cards; 2 are left.  A player drawing three cards
    is impossible.  With no reshuffle, six players (22 cards left) drawing four cards each (24) in
    one round is impossible too.
    """
    h = t.hand
    if h.game != "draw":
        return NOTHING
    return [flag(t, "H006", u.line, u.col,
                 f"{u.drawn} cards were drawn with {u.players} players dealt in; only {u.available} cards were "
                 f"outside their hands", expected=u.available, actual=u.drawn)
            for u in deck_use(h, t.profile) if u.drawn > u.available]  # fmt: skip
