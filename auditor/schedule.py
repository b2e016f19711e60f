"""The blind schedule of a tournament across its tables (T007), as one polars query.

A tournament's levels are tournament-wide: the clock raises the blinds at every table at once, and
a table takes the new level from the first hand it deals after the change (Poker TDA 2026 Rule 25,
2024: 23, New Hand and New Limits; WSOP 2026 Tournament Rules: one posted structure).
So no table may start a hand at a lower level than another table of the same tournament had already
started a hand at.  The per-table rule (T006) sees a table's own blinds go down; this one sees a
table behind the others.

The hands of one tournament are grouped by site, tournament id, flight, game, betting structure and
units (decimals), and split into *runs* where the whole tournament dealt no hand for :data:`RUN_GAP` (a
tournament id reused by another event, days of a multi-day event: nothing is compared across).
Tournament ids that are no ids (``?``, ``0``, ``999999999``: placeholders of anonymised exports) are
never grouped.  Within a run a level is the blinds and ante (big blind, then small blind, then ante),
ranked; a hand is behind when, :data:`TOLERANCE` or more before it started, a hand at another table
had started at a higher level.  The tolerance covers timestamps printed at the end of a hand and
clocks of a second: real multi-table tournaments of the corpus are never behind at all.

A table that lags is reported once per level (its first hand behind), naming the other table's hand
that first played the higher level; a hand whose own table went down is T006's, not repeated here.

**Flights.**  A multi-day or multi-flight event may run flights under one tournament id; what
separates them in the exports is the tournament's name as printed (GGPoker ``... Main Event [Flight
W]``, Winamax ``TRILOGY 1€ - DAY 1H``, ACR ``... - Day 1C``) and its buy-in.  Both are kept per hand
(:func:`flight_of`, the ``flight`` column) and are part of the tournament's group, here and in the
per-table chains of :mod:`auditor.continuity`: two flights with one id are two tournaments.

**Clocks.**  Times are compared only on one clock, and no zone is ever guessed.  A hand whose site
printed a zone the auditor knows has a UTC time (:func:`auditor.times.utc_of`) and is on the UTC
clock.  A hand without one (888poker prints the local time of the player's computer; Bovada, iPoker
and Merge print a bare time; OnGame ``GMT+0100``, Chico ``Eastern Daylight Time``), or whose zone
the reader only assumed (GGPoker, old PokerStars and Winamax headers print none), keeps its printed
time as read, with no zone (``local_start``): its clock is the zone as printed, or with none
printed the file it came from (one export, one computer's clock).  Tables on one such clock share
its unknown offset, which cancels out when their times are compared.  A local clock on which a
table's own hands go back in time as their hand numbers go up (a daylight-saving change, a clock
set back) is not trusted.  Tables of one tournament that are not all on one trusted clock
(another file without a zone, a hand with no time) are not compared with each other; this is said
once per tournament, at info level, as a continuity gap (T001, reason ``clock``), on the
tournament's first hand left out.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterable, Iterator
from datetime import timedelta
from itertools import chain, groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import polars as pl

from auditor.crosshand_rows import flight_of as flight_of  # the per-hand columns, built without polars
from auditor.crosshand_rows import local_start as local_start
from auditor.crosshand_rows import schedule_columns

hand_columns = schedule_columns

#: A hand started this long after another table's first hand at a higher level is behind.
TOLERANCE = timedelta(minutes=3)
#: A tournament that dealt no hand (at any table) for this long starts a new run: not compared across.
RUN_GAP = timedelta(hours=1)
#: Tournament ids that are no ids: placeholders of anonymised or converted exports.
PLACEHOLDER = r"(?i)^\s*(?:|\?+|0+|9+|-+|x+|n/?a|none|null|unknown)\s*$"

_GROUP = ["site", "tournament_id", "flight", "game", "structure", "decimals"]

#: The columns the schedule reads besides :data:`auditor.continuity.BASE` (they are among
#: :data:`auditor.continuity.COLUMNS`).
COLUMNS: dict[str, pl.DataType] = {
    "local_start": pl.Datetime("us"),  # the start as printed, read without a zone (only when no UTC time)
    "clock": pl.String(),  # the zone as printed with ``local_start`` (null: none printed, the file's clock)
    "flight": pl.String(),  # the tournament's name and buy-in as printed (flights of one id differ)
}


def _base(hands: pl.LazyFrame) -> pl.LazyFrame:
    """The hands the schedule reads (a tournament hand with its big blind, at a named table, not
    cancelled, not a pool's, under an id that is one), with the columns it reads (missing
    :data:`COLUMNS` as null)."""
    names = set(hands.collect_schema().names())
    extra = [pl.col(c) if c in names else pl.lit(None, t).alias(c) for c, t in COLUMNS.items()]
    return (
        hands.select("site", "hand_id", "path", "first_line", "table", "tournament_id", "game", "structure",
                     "decimals", "start_utc", "small_blind", "big_blind", "ante", "cancelled", "pool", *extra)
        .filter(pl.col("tournament_id").is_not_null() & pl.col("big_blind").is_not_null()
                & pl.col("table").is_not_null()
                & ~pl.col("cancelled").fill_null(False) & ~pl.col("pool").fill_null(False)
                # a placeholder id groups unrelated tournaments: never grouped
                & ~pl.col("tournament_id").str.contains(PLACEHOLDER))
    )  # fmt: skip


def _tournament() -> pl.Expr:
    """A hash of the tournament's group (:data:`_GROUP`)."""
    return pl.concat_str([pl.col(c).cast(pl.String).fill_null("") for c in _GROUP], separator="\x1f").hash(seed=17)


def _table() -> pl.Expr:
    return pl.col("table").hash(seed=19)


def _time() -> pl.Expr:
    """A hand's start in microseconds on its clock (the printed time when there is one, else UTC)."""
    return pl.coalesce(pl.col("local_start").dt.epoch("us"), pl.col("start_utc").dt.epoch("us"))


def _local() -> pl.Expr:
    """A hand with a printed time of its own clock (no zone, or an assumed one): on that clock."""
    return pl.col("local_start").is_not_null()


def _timed() -> pl.Expr:
    """A hand with a time on some clock (a printed time of its own, or UTC)."""
    return _local() | pl.col("start_utc").is_not_null()


def _clock() -> pl.Expr:
    """The clock a hand's time is on: 0 UTC, a hash of a printed zone the site's times are in, or
    of the file (its own clock), 1 no time at all."""
    local = _local()
    utc = ~local & pl.col("start_utc").is_not_null()
    return (
        pl.when(utc).then(pl.lit(0, pl.UInt64))
        .when(local).then(pl.when(pl.col("clock").is_not_null()).then(pl.col("clock").hash(seed=29))
                          .otherwise(pl.col("path").hash(seed=31)))
        .otherwise(pl.lit(1, pl.UInt64))
    )  # fmt: skip


def _number() -> pl.Expr:
    """The hand number (the id's last digits) that orders a table's hands on a local clock."""
    return pl.col("hand_id").str.extract(r"(\d{1,18})\D*$").cast(pl.Int64, strict=False)


def check(hands: pl.LazyFrame, tolerance: timedelta = TOLERANCE, run_gap: timedelta = RUN_GAP) -> pl.LazyFrame:
    """T007 rows (the columns of :data:`auditor.continuity.FINDINGS`) for ``hands`` (rows of
    :data:`auditor.continuity.INPUT`; only the base columns and :data:`COLUMNS` are read; missing
    :data:`COLUMNS` are read as null), and the T001 rows (reason ``clock``) of the tournaments whose
    tables are not all on one clock.  The query sorts and groups integers only (hashes of the
    tournament, clock and table, microseconds, a rank of the blinds); the strings of the few hands
    named in findings are gathered at the end.  :class:`Stream` gives the same rows in bounded
    memory, from hands given a batch at a time."""
    from auditor.continuity import FINDINGS

    base = _base(hands).collect()
    if base.is_empty():
        return pl.DataFrame(schema=FINDINGS).lazy()
    us = timedelta(microseconds=1)
    # a level: the blinds and ante, ranked (big blind, then small blind, then ante)
    lv = pl.struct(pl.col("big_blind"), pl.col("small_blind").fill_null(0), pl.col("ante").fill_null(0))
    k = base.select(
        _r=pl.int_range(pl.len(), dtype=pl.Int64), tg=_tournament(), tk=_table(), t=_time(),
        lv=lv.rank("dense").cast(pl.Int64),
    )  # fmt: skip
    if not base["start_utc"].null_count() and base["local_start"].null_count() == base.height:
        # every hand on the UTC clock (the usual store): one clock per tournament, nothing to say
        k = k.with_columns(gk=pl.col("tg"), timed=pl.lit(True), trusted=pl.lit(True))
        return _behind(k, base, tolerance, run_gap).cast(FINDINGS).lazy()  # type: ignore[arg-type]
    # the clock a hand's time is on: UTC, a printed zone the site's times are in, or the file's own
    k = k.with_columns(base.select(ck=_clock(), timed=_timed(), local=_local()))
    k = k.with_columns(gk=pl.struct("tg", "ck").hash(seed=23))
    # a local clock is trusted when no table's hands go back in time (beyond the tolerance) as
    # their hand numbers go up
    on_local = k.filter(pl.col("local"))
    no = base.select(_number())["hand_id"].gather(on_local["_r"])
    back = (
        on_local.with_columns(no=no).filter(pl.col("no").is_not_null())
        .sort(["gk", "tk", "no", "t"])
        .filter((pl.col("gk") == pl.col("gk").shift(1)) & (pl.col("tk") == pl.col("tk").shift(1))
                & (pl.col("t") < pl.col("t").shift(1) - tolerance // us))
        .select("gk").unique()
    )  # fmt: skip
    k = k.with_columns(trusted=pl.col("timed") & ~pl.col("gk").is_in(back["gk"].implode()))
    out = pl.concat([_behind(k, base, tolerance, run_gap), _clock_gaps(k, base)], how="vertical_relaxed")
    return out.cast(FINDINGS).lazy()  # type: ignore[arg-type]


def _rows(
    base: pl.DataFrame, this: pl.Series, other: pl.Series, code: str, reason: str, expected: pl.Expr, actual: pl.Expr
) -> pl.DataFrame:
    """Finding rows for the hands ``this`` of ``base`` (row numbers), each naming the hand ``other``
    (a row number, or null); ``expected``/``actual`` read ``big_blind`` and ``r_bb`` (the other's)."""
    cols = ("site", "hand_id", "path", "first_line", "table", "tournament_id", "decimals", "big_blind")
    mine = base.select(cols)[this]
    named = base.select(prev_hand_id="hand_id", prev_path="path", prev_line="first_line", r_bb="big_blind")
    theirs = named.select(pl.all().gather(other))
    return mine.hstack(theirs).select(
        code=pl.lit(code), site="site", hand_id="hand_id", path="path", line="first_line", table="table",
        tournament_id="tournament_id", player=pl.lit(None, pl.String), reason=pl.lit(reason),
        expected=expected, actual=actual, decimals="decimals", prev_hand_id="prev_hand_id",
        prev_path="prev_path", prev_line="prev_line",
    )  # fmt: skip


def _behind(k: pl.DataFrame, base: pl.DataFrame, tolerance: timedelta, run_gap: timedelta) -> pl.DataFrame:
    """T007: the tables behind the schedule, among the hands on a trusted clock."""
    us = timedelta(microseconds=1)
    k = k.filter(pl.col("trusted")).select("_r", "gk", "tk", "t", "lv").sort(["gk", "t"], maintain_order=True)
    # runs: a new one for each tournament and clock, and where the whole tournament was idle for ``run_gap``
    new = (pl.col("gk") != pl.col("gk").shift(1)) | (pl.col("t") - pl.col("t").shift(1) > run_gap // us)
    k = k.with_columns(rk=new.fill_null(True).cum_sum())
    # the table's own previous hand (a hand whose own table went down is T006's), the highest level
    # the tournament had reached by each hand, and the hands that first reached a new highest level
    k = k.with_columns(own_prev=pl.col("lv").shift(1).over(["rk", "tk"]), best=pl.col("lv").cum_max().over("rk"))
    prev_best = pl.col("best").shift(1).over("rk")
    first = (pl.col("lv") == pl.col("best")) & (prev_best.is_null() | (pl.col("best") > prev_best))
    reach = k.filter(first).select("rk", at="t", best_r="best", r_tk="tk", r_r="_r")
    probe = k.with_columns(at=pl.col("t") - tolerance // us)
    # both sides are sorted by "at" within each run
    j = probe.join_asof(reach, on="at", by="rk", strategy="backward", check_sortedness=False)
    behind = (
        j.filter((pl.col("lv") < pl.col("best_r")) & (pl.col("r_tk") != pl.col("tk")))
        .unique(subset=["rk", "tk", "lv"], keep="first", maintain_order=True)  # the table's first hand behind
        .filter(pl.col("own_prev").is_null() | (pl.col("own_prev") <= pl.col("lv")))
        .select("_r", "r_r")
    )  # fmt: skip
    return _rows(base, behind["_r"], behind["r_r"], "T007", "schedule", pl.col("r_bb"), pl.col("big_blind"))


def _clock_gaps(k: pl.DataFrame, base: pl.DataFrame) -> pl.DataFrame:
    """T001 (reason ``clock``), once per tournament of two tables or more whose hands are not all on
    one trusted clock: on its first hand (in input order) off the clock most of its tables are on,
    naming that clock's first hand (none when no clock is trusted)."""
    tables = k.group_by("tg").agg(n=pl.col("tk").n_unique())
    clocks = (
        k.group_by("tg", "gk").agg(tables=pl.col("tk").n_unique(), first=pl.col("_r").min(),
                                   trusted=pl.col("trusted").all(), timed=pl.col("timed").all())
        .join(tables.filter(pl.col("n") >= 2), on="tg", how="inner")
        # the main clock: a trusted one first, then the most tables, then the first in the input
        .sort(["tg", "trusted", "tables", "first"], descending=[False, True, True, False])
    )  # fmt: skip
    main = clocks.unique(subset=["tg"], keep="first", maintain_order=True)
    whole = (pl.col("trusted") & pl.col("timed") & (pl.col("tables") == pl.col("n"))
             & (pl.col("hands") == pl.col("all")))  # fmt: skip
    counts = k.group_by("tg").agg(all=pl.len())
    in_main = k.join(main.select("tg", "gk"), on=["tg", "gk"], how="semi").group_by("tg").agg(hands=pl.len())
    main = main.join(counts, on="tg").join(in_main, on="tg", how="left").filter(~whole.fill_null(False))
    if main.is_empty():
        return _rows(base, pl.Series([], dtype=pl.Int64), pl.Series([], dtype=pl.Int64), "T001", "clock",
                     pl.lit(None, pl.Int64), pl.lit(None, pl.Int64))  # fmt: skip
    off = k.join(main.select("tg", main_gk="gk", main_trusted="trusted", main_first="first"), on="tg", how="inner")
    off = off.filter((pl.col("gk") != pl.col("main_gk")) | ~pl.col("main_trusted") | ~pl.col("trusted"))
    off = off.sort("_r").unique(subset=["tg"], keep="first", maintain_order=True)
    other = off.select(pl.when(pl.col("main_trusted") & (pl.col("gk") != pl.col("main_gk"))).then("main_first"))
    return _rows(base, off["_r"], other.to_series(), "T001", "clock", pl.lit(None, pl.Int64), pl.lit(None, pl.Int64))


#: What a finding row reads of the hand it is on, or names (:func:`_rows`): the first six, the
#: decimals and the big blind; of the named hand its id, path, line and big blind.
_NAMED = ("site", "hand_id", "path", "first_line", "table", "tournament_id", "decimals", "big_blind")


class Stream:
    """:func:`check`'s rows for hands given a frame at a time (:meth:`add`), in bounded memory
    (issue 16: a Sunday major's million hands under one tournament id).

    The hands are sorted on disk (:class:`auditor.spillsort.RowSpill`, in ``tmp``) by tournament
    (its hash, as :func:`check` groups), clock, start and input order, and read once in that order
    (:meth:`rows`), with the state :func:`check`'s rows depend on carried along: per tournament its
    tables and, per clock, its number of tables and hands and its first hand (the clock gaps, T001
    ``clock``); per run of a trusted clock (hands no more than ``run_gap`` apart) the highest level
    reached, each table's last level, the (table, level) pairs already reported, and the hands that
    first reached a level within the last ``tolerance`` (T007).  Whether a local clock is trusted
    (no table's hands go back in time as their numbers go up) is read first from a second, smaller
    sort of its hands only (by table, hand number and time), in the same order of tournaments and
    clocks.  What is held: ``run_rows`` hands while they are sorted, ``fan_in`` blocks of
    ``block_rows`` of each sort while they are merged, and the state above, which grows with a
    tournament's tables and levels, never with its hands.  Levels are compared as the blinds and
    ante (big blind, then small blind, then ante), as :func:`check` ranks them."""

    def __init__(self, tmp: Path, tolerance: timedelta = TOLERANCE, run_gap: timedelta = RUN_GAP,
                 run_rows: int = 10_000, block_rows: int = 200, fan_in: int = 16) -> None:  # fmt: skip
        from auditor.spillsort import RowSpill

        if tolerance <= timedelta(0):
            raise ValueError("the tolerance must be positive (a hand is never compared with itself)")
        us = timedelta(microseconds=1)
        self.tolerance, self.run_gap = tolerance // us, run_gap // us
        self.tmp = tmp
        self.hands = RowSpill(tmp / "hands", key=itemgetter(0, 1, 2, 3), run_rows=run_rows, block_rows=block_rows,
                              fan_in=fan_in)  # fmt: skip
        self.numbers = RowSpill(tmp / "numbers", run_rows=run_rows, block_rows=block_rows, fan_in=fan_in)
        self.added = 0  # the hands read so far (a hand's place in the input: :func:`check`'s ``_r``)

    def add(self, hands: pl.DataFrame) -> None:
        """Hands (the columns :func:`check` reads; those it leaves out are left out here too), in input order."""
        base = _base(hands.lazy()).collect()
        if base.is_empty():
            return
        k = base.select(tg=_tournament(), ck=_clock(), t=_time(), tk=_table(), timed=_timed(), bb="big_blind",
                        sb=pl.col("small_blind").fill_null(0), ante=pl.col("ante").fill_null(0))  # fmt: skip
        named = base.select(_NAMED)
        r = self.added
        for (tg, ck, t, tk, timed, bb, sb, ante), hand in zip(k.iter_rows(), named.iter_rows(), strict=True):
            self.hands.add((tg, ck, 0 if t is None else t, r, timed, tk, (bb, sb, ante), hand))
            r += 1
        if base["local_start"].null_count() < base.height:  # hands on their own clock: their numbers too
            local = k.with_columns(no=base.select(_number())["hand_id"]).filter(base["local_start"].is_not_null())
            for tg, ck, tk, no, t in local.select("tg", "ck", "tk", "no", "t").iter_rows():
                if no is not None:
                    self.numbers.add((tg, ck, tk, no, t))
        self.added = r

    def rows(self, out_rows: int = 1_000) -> Iterator[pl.DataFrame]:
        """The rows of :func:`check` (:data:`auditor.continuity.FINDINGS`), in frames of at most
        ``out_rows`` rows, by tournament and clock (:func:`check` gives its T007 rows first: sort both)."""
        from auditor.continuity import FINDINGS

        out: list[tuple[Any, ...]] = []
        numbers = self.numbers.sorted()
        nxt = next(numbers, None)
        for tg, of_tour in groupby(self.hands.sorted(), key=itemgetter(0)):
            tables: set[int] = set()
            hands = 0
            main: tuple[Any, ...] | None = None  # the main clock: trusted first, most tables, first in the input
            low: list[tuple[Any, ...]] = []  # the two clocks whose first hands came first
            for ck, of_clock in groupby(of_tour, key=itemgetter(1)):
                back = False  # on a local clock: a table's hands go back in time as their numbers go up
                prev = None
                while nxt is not None and (nxt[0], nxt[1]) <= (tg, ck):
                    if (nxt[0], nxt[1]) == (tg, ck) and prev is not None and prev[:3] == nxt[:3] \
                            and nxt[4] < prev[4] - self.tolerance:  # fmt: skip
                        back = True
                    prev, nxt = nxt, next(numbers, None)
                first = next(of_clock)
                timed = bool(first[4])
                trusted = timed and not back
                mine: set[int] = set()
                n = 0
                at = first
                for row in _behind_stream(chain((first,), of_clock), trusted, self.tolerance, self.run_gap, out):
                    mine.add(row[5])
                    n += 1
                    if row[3] < at[3]:
                        at = row
                    if len(out) >= out_rows:
                        yield pl.DataFrame(out, schema=FINDINGS, orient="row")
                        out.clear()  # (the list the hands' rows are appended to)
                tables |= mine
                hands += n
                clock = (trusted, timed, len(mine), at[3], at[7], n, ck)
                if main is None or (trusted, len(mine), -at[3]) > (main[0], main[2], -main[3]):
                    main = clock
                low = sorted([*low, clock], key=itemgetter(3))[:2]
            assert main is not None
            whole = main[0] and main[1] and main[2] == len(tables) and main[5] == hands
            if len(tables) >= 2 and not whole:
                # the first hand off the main clock (any, when no clock is trusted), naming the main
                # clock's first hand when it is trusted
                off = low[0] if not main[0] or low[0][6] != main[6] else low[1]
                out.append(_row("T001", "clock", off[4], main[4] if main[0] else None, None, None))
                if len(out) >= out_rows:
                    yield pl.DataFrame(out, schema=FINDINGS, orient="row")
                    out.clear()
        if out:
            yield pl.DataFrame(out, schema=FINDINGS, orient="row")

    def close(self) -> None:
        """Remove the sorted runs on disk (and ``tmp``)."""
        self.hands.close()
        self.numbers.close()
        with contextlib.suppress(OSError):
            self.tmp.rmdir()


def _row(code: str, reason: str, hand: tuple[Any, ...], other: tuple[Any, ...] | None, expected: int | None,
         actual: int | None) -> tuple[Any, ...]:  # fmt: skip
    """A finding row (:data:`auditor.continuity.FINDINGS`) on ``hand`` naming ``other`` (:data:`_NAMED` each)."""
    site, hand_id, path, line, table, tournament_id, decimals, _ = hand
    named = (None, None, None) if other is None else (other[1], other[2], other[3])
    return (code, site, hand_id, path, line, table, tournament_id, None, reason, expected, actual, decimals, *named)


def _behind_stream(rows: Iterable[tuple[Any, ...]], trusted: bool, tolerance: int, run_gap: int,
                   out: list[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:  # fmt: skip
    """``rows`` (one clock of a tournament, by start and input order), each given back after the
    T007 row it makes, if any, is appended to ``out`` (none unless the clock is ``trusted``): as
    :func:`_behind`, a hand is behind when the last hand at another table that first reached a new
    highest level of the run, ``tolerance`` or more before it, was at a higher level; each table
    once per level of a run (its first hand behind), unless its own previous hand was higher (T006's)."""
    if not trusted:
        yield from rows
        return
    last_t: int | None = None
    best: tuple[int, int, int] | None = None
    own: dict[int, tuple[int, int, int]] = {}  # each table's last level in the run
    done: set[tuple[int, tuple[int, int, int]]] = set()  # (table, level): its first hand behind seen
    pending: deque[tuple[Any, ...]] = deque()  # the hands that first reached a level, less than ``tolerance`` ago
    reach: tuple[Any, ...] | None = None  # the last of them ``tolerance`` or more ago
    for row in rows:
        t, tk, lv = row[2], row[5], row[6]
        if last_t is None or t - last_t > run_gap:  # a new run
            best, reach = None, None
            own, done, pending = {}, set(), deque()
        last_t = t
        own_prev = own.get(tk)
        own[tk] = lv
        while pending and pending[0][2] <= t - tolerance:
            reach = pending.popleft()
        if reach is not None and lv < reach[6] and reach[5] != tk and (tk, lv) not in done:
            done.add((tk, lv))
            if own_prev is None or own_prev <= lv:
                out.append(_row("T007", "schedule", row[7], reach[7], reach[7][7], row[7][7]))
        if best is None or lv > best:
            best = lv
            pending.append(row)
        yield row


def gap_message(prev: str | None) -> str:
    """The message of a T001 ``clock`` row (``prev``: the hand on the main clock it names, if any)."""
    why = ("its tables' times are not on one clock (printed without a time zone in other files, on "
           "another clock, or not at all): tables on different clocks are not compared")  # fmt: skip
    if prev is None:
        why = ("its hands' times are printed without a zone on a clock that goes back (a daylight-saving "
               "change, or no time at all)")  # fmt: skip
    seen = f"; the tables on the clock of {prev} are compared with each other" if prev else ""
    return f"the tournament blind schedule (T007) is not checked across this table: {why}{seen}"
