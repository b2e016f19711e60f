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

from datetime import timedelta

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


def check(hands: pl.LazyFrame, tolerance: timedelta = TOLERANCE, run_gap: timedelta = RUN_GAP) -> pl.LazyFrame:
    """T007 rows (the columns of :data:`auditor.continuity.FINDINGS`) for ``hands`` (rows of
    :data:`auditor.continuity.INPUT`; only the base columns and :data:`COLUMNS` are read; missing
    :data:`COLUMNS` are read as null), and the T001 rows (reason ``clock``) of the tournaments whose
    tables are not all on one clock.  The query sorts and groups integers only (hashes of the
    tournament, clock and table, microseconds, a rank of the blinds); the strings of the few hands
    named in findings are gathered at the end."""
    from auditor.continuity import FINDINGS

    names = set(hands.collect_schema().names())
    extra = [pl.col(c) if c in names else pl.lit(None, t).alias(c) for c, t in COLUMNS.items()]
    base = (
        hands.select("site", "hand_id", "path", "first_line", "table", "tournament_id", "game", "structure",
                     "decimals", "start_utc", "small_blind", "big_blind", "ante", "cancelled", "pool", *extra)
        .filter(pl.col("tournament_id").is_not_null() & pl.col("big_blind").is_not_null()
                & pl.col("table").is_not_null()
                & ~pl.col("cancelled").fill_null(False) & ~pl.col("pool").fill_null(False)
                # a placeholder id groups unrelated tournaments: never grouped
                & ~pl.col("tournament_id").str.contains(PLACEHOLDER))
        .collect()
    )  # fmt: skip
    if base.is_empty():
        return pl.DataFrame(schema=FINDINGS).lazy()
    us = timedelta(microseconds=1)
    group = pl.concat_str([pl.col(c).cast(pl.String).fill_null("") for c in _GROUP], separator="\x1f")
    # a level: the blinds and ante, ranked (big blind, then small blind, then ante)
    lv = pl.struct(pl.col("big_blind"), pl.col("small_blind").fill_null(0), pl.col("ante").fill_null(0))
    # a hand with a printed time of its own clock (no zone, or an assumed one) is on that clock
    local = pl.col("local_start").is_not_null()
    utc = ~local & pl.col("start_utc").is_not_null()
    k = base.select(
        _r=pl.int_range(pl.len(), dtype=pl.Int64), tg=group.hash(seed=17), tk=pl.col("table").hash(seed=19),
        t=pl.coalesce(pl.col("local_start").dt.epoch("us"), pl.col("start_utc").dt.epoch("us")),
        lv=lv.rank("dense").cast(pl.Int64),
    )  # fmt: skip
    if not base["start_utc"].null_count() and base["local_start"].null_count() == base.height:
        # every hand on the UTC clock (the usual store): one clock per tournament, nothing to say
        k = k.with_columns(gk=pl.col("tg"), timed=pl.lit(True), trusted=pl.lit(True))
        return _behind(k, base, tolerance, run_gap).cast(FINDINGS).lazy()  # type: ignore[arg-type]
    # the clock a hand's time is on: UTC, a printed zone the site's times are in, or the file's own
    clock = (
        pl.when(utc).then(pl.lit(0, pl.UInt64))
        .when(local).then(pl.when(pl.col("clock").is_not_null()).then(pl.col("clock").hash(seed=29))
                          .otherwise(pl.col("path").hash(seed=31)))
        .otherwise(pl.lit(1, pl.UInt64))
    )  # fmt: skip
    k = k.with_columns(base.select(ck=clock, timed=utc | local, local=local))
    k = k.with_columns(gk=pl.struct("tg", "ck").hash(seed=23))
    # a local clock is trusted when no table's hands go back in time (beyond the tolerance) as
    # their hand numbers go up
    on_local = k.filter(pl.col("local"))
    no = base["hand_id"].gather(on_local["_r"]).str.extract(r"(\d{1,18})\D*$").cast(pl.Int64, strict=False)
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


def gap_message(prev: str | None) -> str:
    """The message of a T001 ``clock`` row (``prev``: the hand on the main clock it names, if any)."""
    why = ("its tables' times are not on one clock (printed without a time zone in other files, on "
           "another clock, or not at all): tables on different clocks are not compared")  # fmt: skip
    if prev is None:
        why = ("its hands' times are printed without a zone on a clock that goes back (a daylight-saving "
               "change, or no time at all)")  # fmt: skip
    seen = f"; the tables on the clock of {prev} are compared with each other" if prev else ""
    return f"the tournament blind schedule (T007) is not checked across this table: {why}{seen}"
