"""T-codes: what lies between the hands of one table — stacks, the button, the blind schedule.

These rules run at the ``table`` stage, after the per-hand audit, over the hands of one table
(site, table name, tournament id) ordered by start time and hand id: in ``hhaudit audit`` across
every file given, in ``hhaudit batch`` over the store (each night against the last hands of the
nights before).  The checks are polars queries in :mod:`auditor.continuity`; the functions here
document the codes.
"""

from __future__ import annotations

from auditor.findings import Severity, rule


@rule("T001", "continuity-gap", Severity.INFO, stage="table")
def t001() -> None:
    """Continuity could not be checked between two hands of a table: the chain is broken here.

    A gap is not a violation.  The hands of a table are chained only where nothing can have
    happened between them; the chain breaks, and this is reported once, when more than 20 minutes
    pass between two hands, when either hand is incomplete (a partial export), when the earlier
    hand's final stacks are not known (it has findings of its own, or a cash-out), when several
    stacks changed at once between the two (a hand is missing from the export: typical of exports
    that hold only the hands one player was dealt), when both hands are each alone (of their
    table) in a file of their own (hands picked one by one, such as test samples or a disputed
    hand saved alone: what the table dealt between them is not in the input), for one player who
    left the table and came back, or for one tournament player who is on another seat (moved to
    another table of the tournament: iPoker's session follows its hero across tables; a moved
    player keeps their whole stack, Poker TDA 2024 Rule 7).  Across the tables of a tournament
    (T007), a tournament whose tables are not all on one clock is reported once (reason ``clock``):
    times printed without a time zone in different files, a clock that goes back, hands with no
    time; such tables are not compared with each other.  Nothing else is judged across a gap.
    Fast-fold pools (Zoom, Rush & Cash, Go Fast, ...) deal every hand at a new table and are never
    chained.

    Gaps are context, not problems of the input: ``hhaudit audit`` reports T001 only when it is
    selected by code or prefix (``--extend-select T001``, ``--select T``); ``hhaudit batch``
    always records them in the store (the store report counts them per table).

    Example: PokerStars table 'Altair' hands at 20:01 and 20:45: the second names the first.
    """


@rule("T002", "stack-shrank-while-seated", Severity.ERROR, stage="table")
def t002() -> None:
    """A cash player starts a hand with less than they ended the previous hand of the table with.

    The player stayed seated (in both hands) and nothing was printed between the hands, yet chips
    left the table: "ratholing", taking chips off the table while playing on.  Table stakes and
    house rules keep every chip in play until the player leaves the table (Poker TDA 2026 Rule 27,
    2024: 25, chips kept visible and countable; WSOP 2026 Live Action Rules 64 and 186: a player
    plays only the chips on the table at the start of a hand, and may not remove chips from it).  The finding names
    both hands and gives the amount (``data.amount``, negative), the final stack the replay derived
    from the earlier hand (``expected``) and the stack printed in the later one (``actual``).

    Example: Ann ends hand #1 with $212.40 (she won a $112.40 pot) and starts hand #2, one minute
    later at the same seat, with $100.
    """


@rule("T003", "tournament-stack-changed", Severity.ERROR, stage="table")
def t003() -> None:
    """A tournament stack differs from what the player ended the previous hand of the table with.

    Tournament chips have no cash value and cannot be bought or removed between hands, except by a
    rebuy or add-on the site prints (such hands are not judged).  Where the record says the
    tournament sells chips between hands (iPoker's session header: a total buy-in above the buy-in,
    a name with "R/A", a player's rebuy or add-on flag) a stack that grew is such a purchase the
    site did not print (T001), and only chips that vanished are judged.  Chips that appear or vanish
    between two consecutive hands of one table are a fault of the site or a forged record (Poker
    TDA 2026 Rule 27, 2024: 25, chips kept visible and countable; rebuys: TDA 2026 Rule 29, 2024:
    27; a re-entry's forfeited chips leave play, TDA 2024 Rule 8-B).  Reported with the amount
    (``data.amount``: positive when chips appeared) and both hands.  Only one stack may differ:
    when several do, a hand is missing from the export (a gap, T001).

    Example: Bob ends hand #7 with 4,350 chips and starts hand #8 with 6,350.
    """


@rule("T004", "top-up-not-allowed", Severity.WARNING, stage="table")
def t004() -> None:
    """A cash stack grew between two hands where the house allows no top-up between hands.

    Most online rooms (PokerStars among them) let a seated player add chips between hands, never
    during one (table stakes: WSOP 2026 Live Action Rules 64 and 186); a room whose profile sets
    ``top_ups_between_hands = false`` (format card ``[profile]``) allows none, so a stack that grew
    with no rebuy printed is flagged, with the amount and both hands.  Rebuys and top-ups the site
    prints are never flagged.

    Example: a room without top-ups; Cy ends hand #3 with $40 and starts hand #4 with $100.
    """


@rule("T005", "button-moved-wrongly", Severity.ERROR, stage="table")
def t005() -> None:
    """The button did not move to the next player, with the same players dealt in both hands.

    The button moves one player clockwise every hand (Poker TDA 2026 Rule 36-A, 2024: 34-A: button
    placement and movement).  With the dead-button rule (tournaments, and cash games of houses that
    use it: Poker TDA 2026 Rule 34, 2024: 32; WSOP 2026 Tournament Rule 85) its next seat depends on
    who left; with the same players dealt in both hands every rule book agrees that it moves to
    the next of them clockwise, so a button that stayed or skipped a player is flagged.  Under the
    moving-button rule (a cash profile with ``dead_button_cash = false``) the same holds when
    players only left.  The hand where heads-up begins (the previous button was on a seat not dealt
    in, such as a player sitting out) is not judged: the button may then be moved so that no player
    posts the big blind twice in a row (Poker TDA 2026 Rule 36-B, 2024: 34-B, button in heads-up).  Reported on
    the later hand, with the seat expected and the seat printed.

    Example: seats 1, 3, 5 and 6 dealt in both hands; the button goes from seat 1 to seat 5.
    """


@rule("T006", "blinds-went-down", Severity.ERROR, stage="table")
def t006() -> None:
    """Tournament blinds, antes or the level went down between two hands of one table.

    A tournament's blind schedule only goes up: a new level starts when the clock announces it and
    applies from the next hand on (Poker TDA 2026 Rule 25, 2024: 23, New Hand and New Limits; the
    posted structure sheet, WSOP 2026 Tournament Rules): a later hand at lower blinds (or the same
    blinds with a lower ante, or a lower level number) is a record out of order or a fault of the
    site.  Reported with both hands and the big
    blinds (``expected``: the earlier, ``actual``: the later).

    Example: hand #20 at level V (100/200), hand #21, one minute later, at 50/100.
    """


@rule("T007", "behind-blind-schedule", Severity.ERROR, stage="table")
def t007() -> None:
    """A tournament table starts a hand at lower blinds than another table of the tournament had
    already started a hand at.

    Tournament levels are tournament-wide: the clock raises the blinds at every table at once, and
    each table plays the new level from its next hand (Poker TDA 2026 Rule 25, 2024: 23, New Hand
    and New Limits: "a new level starts on announcement by the floor or audio signal by the clocking
    system; the new level applies to the next hand"; WSOP 2026 Tournament Rules: one posted
    structure).
    So the hands of one tournament (site, tournament id, game, structure), across all its tables
    and in time order, imply its schedule: a table that starts a hand at a lower level (big blind,
    then small blind, then ante) than another table started a hand at, three minutes or more
    earlier, is behind the schedule: a record out of order, a table the site forgot to raise, or a
    forged hand.  The tolerance covers hands in progress at the change and timestamps printed at
    the end of a hand.  Reported once per table and level, on the table's first hand behind, naming
    the other table's hand that first played the higher level (``expected``: its big blind,
    ``actual``: this hand's).  A table whose own blinds went down is T006.  Tournament ids that
    are placeholders (``?``, ``999999999``) are not grouped, and hands of one id more than an hour
    apart (the whole tournament idle) are not compared.

    Flights: a multi-flight event may run its flights at once under one tournament id; the
    tournament's name and buy-in as printed (GGPoker ``... Main Event [Flight W]``, Winamax
    ``... DAY 1H``) tell them apart, and flights are separate tournaments here and in the per-table
    checks.  Clocks: hands without a UTC time (888poker prints the local time of the player's
    computer, Bovada, iPoker, Merge and others a bare time, OnGame ``GMT+0100``), or whose zone the
    reader only assumed (GGPoker prints none), are compared on their own clock, never with a
    guessed zone: the zone as printed, or with none printed the file they came from (one export,
    one clock; a shared offset cancels out).  A clock on which a table's hands go back in time is
    not trusted.  Tables not all on one trusted clock are not compared with each other, and this is
    said once per tournament (T001, reason ``clock``).

    Example: table 1 plays 100/200 from 20:10; table 2 deals a hand at 50/100 at 20:16.
    """
