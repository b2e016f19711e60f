"""P-codes: problems reading the input.  The input is never repaired; every hand that cannot be
read becomes one of these findings with its file, line and column, and the rest of the file is
still read."""

from auditor.findings import Severity, rule


@rule("P001", "unparseable-hand", Severity.ERROR)
def p001() -> None:
    """A hand that the site's grammar cannot read.

    The hand header was recognised, but the lines that must follow it (the table line and the
    seats) do not have the shape the site prints, or the hand is cut short before its seats.  The
    finding points at the line and column where reading stopped and says what was expected.  The
    hand is counted as failed; every other hand of the file is still read.

    Example: a PokerStars hand whose ``Table '...' 6-max Seat #3 is the button`` line is missing.
    """


@rule("P002", "unrecognised-line", Severity.WARNING)
def p002() -> None:
    """A line inside a hand that no rule of the site's grammar recognises.

    The hand is still read, but this line is not part of its event log, so later checks may be
    working without a fact the site printed.  Usually a new line type in a site's export (report
    it with the line), sometimes corruption.

    Example: ``Player1: winks at the dealer`` inside a PokerStars hand.
    """


@rule("P003", "unknown-format", Severity.ERROR)
def p003() -> None:
    """A file (or a run of text) in which no hand of a supported site was found.

    hhaudit reads PokerStars (and PokerStars-format clones), GGPoker and Winamax hand histories.
    A file of another site, a tournament summary, an empty file, or text before the first hand
    header of a file ends here, so that nothing is passed over silently.

    Example: an iPoker XML export given to ``hhaudit audit``.
    """


@rule("P004", "undecodable-text", Severity.ERROR)
def p004() -> None:
    """Bytes that cannot be decoded in the encoding detected for the file.

    hhaudit reads UTF-8 (with or without one or more byte-order marks), UTF-16 LE/BE (with or
    without a BOM) and cp1252.  Bytes that are invalid in the detected encoding are replaced by
    U+FFFD so that the rest of the file can still be read, and this finding says where.

    Example: a UTF-8 file with a stray ``0xff`` byte in a player name.
    """


@rule("P005", "truncated-hand", Severity.ERROR)
def p005() -> None:
    """A hand that stops before its summary.

    The header and seats were read but the hand has no ``*** SUMMARY ***`` section (or, for a
    cancelled hand, no cancellation line): the export was cut short.  The hand's events are kept,
    but its pots and awards cannot be checked.

    A file whose first lines, before its first hand header, are the tail of a hand whose start is
    not in the file (an export cut at the start) gets this code too, at its first line: those lines
    are not audited, every hand after them is.

    Example: a file whose last hand ends in the middle of the flop.
    """


@rule("P006", "bad-amount", Severity.ERROR)
def p006() -> None:
    """An amount that cannot be represented exactly as an integer number of minor units.

    Amounts are kept as integers in minor units: cents, or chips.  When a hand prints chips with
    decimals (some Winamax tournaments print ``bets 292.50``), the whole hand is read in
    hundredths instead, so every amount stays exact.  An amount with more than four decimal
    places, or one that is not a number at all, is not rounded silently: it is reported here and
    the hand is counted as failed.

    Example: ``Player1: bets $1.00005``.
    """


@rule("P007", "oversized-input", Severity.ERROR)
def p007() -> None:
    """A line or a hand larger than hhaudit reads: its start was read, the rest was not.

    Input comes from strangers and from tools that break; a hand larger than 5,000 lines or
    1 MiB of text, or a line longer than 64 KiB, is not a hand history a site printed.  hhaudit
    keeps memory bounded by reading only the start: a cut line is still shown (and usually
    unrecognised, P002); a hand over the limit is not read and fails with P001.  The finding
    points at the line where the limit was reached.

    Example: a hand whose board line is followed by 300 MB of one repeated line.
    """


@rule("P008", "unreadable-source", Severity.ERROR)
def p008() -> None:
    """A source that was found but not read: it cannot be opened, or is not a regular file.

    A dangling symbolic link, a link loop, a file without read permission, a directory that
    cannot be listed, a read error, a closed standard input, and special files (FIFOs, devices
    such as a link to ``/dev/zero``, sockets) end here, so that the rest of the run goes on
    and nothing is skipped silently.  Special files are never opened for reading: they could
    block forever or never end.  A path that does not exist at all is a usage error (exit 2).

    Example: ``exports/today.txt`` is a link to a file that was moved away.
    """


@rule("P009", "converted-record", Severity.INFO)
def p009() -> None:
    """A record rewritten by a third-party converter, not the site's own export: said once per file.

    Tools convert other sites' hands into PokerStars-format text (so that trackers read them).  A
    conversion shows its signs: a header with no time zone (and often no currency code), ``PLR_``
    player names, lines no site prints (``Table deposit``).  The hand is read and judged, but its
    uncalled-bet lines and total pot are the converter's accounting (a walk's whole big blind
    printed as returned, or the uncalled part left in the pot): those are judged by where the money
    went (the awards, and every chip accounted for), not against the site's conventions.

    Example: ``PokerStars Hand #3405956177: Hold'em No Limit ($10/$20) - 2017/01/01 15:02:07``.
    """


@rule("P010", "partial-record", Severity.INFO)
def p010() -> None:
    """A record the site wrote with less than a whole hand: read with what it says, judged only there.

    Some exports print no seat lines (an observer's record: the action but no stacks), or only the
    summary (a "(partial)" record, a match's summary-only record).  Such a record is read as a hand:
    the players and seats come from the summary's seat lines; stacks that were not printed are
    unknown, so nothing about them is judged (no table-stakes or all-in check beyond the site's own
    all-in marks, no stack carried across hands); a record without posts and betting is judged only
    on its money: the printed total pot must be paid out (collected + rake + fees, A010).  A record
    whose pot holds antes it prints no action for and that do not divide into one ante per player
    dealt in (Boss Media's 2011 MTT, where a newcomer pays none) does not say who paid them: they
    count in the pot and its total (A002, A010), but nothing that depends on who paid them (side
    pots, the uncalled part, the winner of a side pot) is judged.  The finding (``data.lacks``:
    ``stacks``, ``betting``, ``antes``) says what the record lacks.

    Example: ``Full Tilt Poker Game #27020940000: ... (partial)`` followed by ``*** SUMMARY ***``.
    """
