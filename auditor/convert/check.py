"""Round-trip checks of the interchange formats, shared by the tests, the corpus script
(``scripts/interchange_roundtrip.py``) and the benchmark.

* :func:`replay_final_stacks`: each player's stack at the end of the hand as hhaudit's replay
  derives it (starting stack, less what went in, plus the uncalled part returned and the pots the
  replay awards), *before rake* (PHH has no rake, and pokerkit takes none);
* :func:`pokerkit_final_stacks`: the stacks pokerkit ends with after replaying a PHH record (the
  independent reference; pokerkit repairs what it cannot apply, so a record it replays is not yet a
  legal one: that is what ``hhaudit audit`` says);
* :func:`canonical`: a hand's facts without where they were printed (paths, lines, columns), the
  form two readings of one hand are compared in.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, fields
from typing import Any

from auditor import model as M

__all__ = ["canonical", "pokerkit_final_stacks", "replay_final_stacks"]


def replay_final_stacks(hand: M.Hand) -> dict[str, int] | None:
    """Final stacks by hhaudit's replay, gross of rake; None when the replay cannot decide who
    wins a contested pot (a hand not tabled)."""
    from dataclasses import replace

    from auditor.audit import audit_hand
    from auditor.replay.pots import _award

    a = audit_hand(hand)
    pt = a.pots
    if pt is None or not pt.decided:
        return None
    gross = [replace(p, net=p.amount) for p in pt.pots]
    paid = _award(a.trace, pt, a.profile, gross, record=False)
    out: dict[str, int] = {}
    for s in hand.seats:
        n = s.player
        out[n] = (s.stack - pt.contributions.get(n, 0) - pt.dead.get(n, 0) + pt.expected_returns.get(n, 0)
                  + paid.get(n, 0))  # fmt: skip
    return out


def pokerkit_final_stacks(phh_text: str) -> dict[str, int]:
    """Load a PHH record with pokerkit and replay it; the players' final stacks by name (or ``pN``).
    Raises ``ValueError`` (pokerkit's) when pokerkit cannot replay it even with its repairs."""
    import pokerkit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hh = pokerkit.HandHistory.loads(phh_text)
        state = None
        for state in hh:  # noqa: B007
            pass
    assert state is not None
    names = hh.players or [f"p{i + 1}" for i in range(len(hh.starting_stacks))]
    return {n: int(v) for n, v in zip(names, state.stacks, strict=True)}


_POSITION = frozenset({"line", "col"})


def canonical(hand: M.Hand, drop: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The facts of ``hand`` without their source positions; ``drop``: header facts (and event
    types, by class name) to leave out, the documented losses of a format."""
    head = {f.name: getattr(hand, f.name) for f in fields(hand)
            if f.name not in ("seats", "events", "path", "first_line", "last_line", "site") and f.name not in drop}  # fmt: skip  # noqa: E501
    seats = [{k: v for k, v in asdict(s).items() if k != "line" and k not in drop} for s in hand.seats]
    events = []
    awards = []
    for e in hand.events:
        if type(e).__name__ in drop:
            continue
        if isinstance(e, M.Collect):
            awards.append((e.player, e.amount, e.pot, e.run))  # where the site prints them varies: compared as a set
            continue
        d = {k: v for k, v in asdict(e).items() if k not in _POSITION and k not in drop}
        events.append({"type": type(e).__name__, **d})
    return {"header": head, "seats": seats, "events": events, "awards": sorted(awards)}
