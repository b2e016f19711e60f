"""The blind schedule of a tournament across its tables (T007), as one polars query.

A tournament's levels are tournament-wide: the clock raises the blinds at every table at once, and
a table takes the new level from the first hand it deals after the change (Poker TDA 2026 Rules and
WSOP 2026 Tournament Rules: a tournament plays one posted structure, its levels raised by the clock).
So no table may start a hand at a lower level than another table of the same tournament had already
started a hand at.  The per-table rule (T006) sees a table's own blinds go down; this one sees a
table behind the others.

The hands of one tournament are grouped by site, tournament id, game, betting structure and units
(decimals), and split into *runs* where the whole tournament dealt no hand for :data:`RUN_GAP` (a
tournament id reused by another event, days of a multi-day event: nothing is compared across).
Tournament ids that are no ids (``?``, ``0``, ``999999999``: placeholders of anonymised exports) are
never grouped.  Within a run a level is the blinds and ante (big blind, then small blind, then ante),
ranked; a hand is behind when, :data:`TOLERANCE` or more before it started, a hand at another table
had started at a higher level.  The tolerance covers timestamps printed at the end of a hand and
clocks of a second: real multi-table tournaments of the corpus are never behind at all.

A table that lags is reported once per level (its first hand behind), naming the other table's hand
that first played the higher level; a hand whose own table went down is T006's, not repeated here.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

#: A hand started this long after another table's first hand at a higher level is behind.
TOLERANCE = timedelta(minutes=3)
#: A tournament that dealt no hand (at any table) for this long starts a new run: not compared across.
RUN_GAP = timedelta(hours=1)
#: Tournament ids that are no ids: placeholders of anonymised or converted exports.
PLACEHOLDER = r"^(?:|\?+|0+|9+|-+|x+|n/?a|none|null|unknown)$"

_GROUP = ["site", "tournament_id", "game", "structure", "decimals"]


def check(hands: pl.LazyFrame, tolerance: timedelta = TOLERANCE, run_gap: timedelta = RUN_GAP) -> pl.LazyFrame:
    """T007 rows (the columns of :data:`auditor.continuity.FINDINGS`) for ``hands`` (rows of
    :data:`auditor.continuity.INPUT`; only the base columns are read)."""
    from auditor.continuity import FINDINGS

    h = (
        hands.select("site", "hand_id", "path", "first_line", "table", "tournament_id", "game", "structure",
                     "decimals", "start_utc", "small_blind", "big_blind", "ante", "cancelled", "pool")
        .filter(pl.col("tournament_id").is_not_null() & pl.col("start_utc").is_not_null()
                & pl.col("big_blind").is_not_null() & pl.col("table").is_not_null()
                & ~pl.col("cancelled").fill_null(False) & ~pl.col("pool").fill_null(False)
                & ~pl.col("tournament_id").str.strip_chars().str.to_lowercase().str.contains(PLACEHOLDER))
        .unique(subset=["site", "tournament_id", "table", "hand_id"], keep="first", maintain_order=True)
        .sort([*_GROUP, "start_utc", "hand_id"], nulls_last=True)
    )  # fmt: skip
    # runs: a new one where the whole tournament was idle for ``run_gap``
    idle = (pl.col("start_utc") - pl.col("start_utc").shift(1)).over(_GROUP) > run_gap
    h = h.with_columns(_run=idle.fill_null(False).cast(pl.Int32).cum_sum().over(_GROUP))
    g = [*_GROUP, "_run"]
    lv = pl.struct(pl.col("big_blind"), pl.col("small_blind").fill_null(0), pl.col("ante").fill_null(0))
    h = h.with_columns(lv=lv.rank("dense").over(g).cast(pl.Int64))
    # the table's own previous hand: a hand whose own table went down is T006's
    h = h.with_columns(own_prev=pl.col("lv").shift(1).over([*g, "table"]))
    # the highest level the tournament had reached by each hand, and the hand that first reached it
    best = pl.col("lv").cum_max().over(g)
    h = h.with_columns(best=best)
    first = (pl.col("lv") == pl.col("best")) & ((pl.col("best") > pl.col("best").shift(1).over(g))
                                                | pl.col("best").shift(1).over(g).is_null())  # fmt: skip
    reach = (
        h.filter(first)
        .select(*g, at=pl.col("start_utc"), best="best", r_table="table", r_hand="hand_id", r_path="path",
                r_line="first_line", r_bb="big_blind")
        .sort("at")
    )  # fmt: skip
    probe = h.with_columns(at=pl.col("start_utc") - tolerance).sort("at")
    # both sides are sorted by "at"
    j = probe.join_asof(reach, on="at", by=g, strategy="backward", suffix="_r", check_sortedness=False)
    behind = (
        j.filter((pl.col("lv") < pl.col("best_r")) & (pl.col("r_table") != pl.col("table")))
        .sort("start_utc", "hand_id")
        .unique(subset=[*g, "table", "lv"], keep="first", maintain_order=True)
        # the table's own blinds went down into this level: T006 reports it
        .filter(pl.col("own_prev").is_null() | (pl.col("own_prev") <= pl.col("lv")))
    )  # fmt: skip
    return behind.select(
        code=pl.lit("T007"),
        site="site",
        hand_id="hand_id",
        path="path",
        line="first_line",
        table="table",
        tournament_id="tournament_id",
        player=pl.lit(None, pl.String),
        reason=pl.lit("schedule"),
        expected="r_bb",
        actual="big_blind",
        decimals="decimals",
        prev_hand_id="r_hand",
        prev_path="r_path",
        prev_line="r_line",
    ).cast(FINDINGS)  # type: ignore[arg-type]
