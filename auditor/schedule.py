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
PLACEHOLDER = r"(?i)^\s*(?:|\?+|0+|9+|-+|x+|n/?a|none|null|unknown)\s*$"

_GROUP = ["site", "tournament_id", "game", "structure", "decimals"]


def check(hands: pl.LazyFrame, tolerance: timedelta = TOLERANCE, run_gap: timedelta = RUN_GAP) -> pl.LazyFrame:
    """T007 rows (the columns of :data:`auditor.continuity.FINDINGS`) for ``hands`` (rows of
    :data:`auditor.continuity.INPUT`; only the base columns are read).  The query sorts and groups
    integers only (hashes of the tournament and table, microseconds, a rank of the blinds); the
    strings of the few hands named in findings are gathered at the end."""
    from auditor.continuity import FINDINGS

    base = (
        hands.select("site", "hand_id", "path", "first_line", "table", "tournament_id", "game", "structure",
                     "decimals", "start_utc", "small_blind", "big_blind", "ante", "cancelled", "pool")
        .filter(pl.col("tournament_id").is_not_null() & pl.col("start_utc").is_not_null()
                & pl.col("big_blind").is_not_null() & pl.col("table").is_not_null()
                & ~pl.col("cancelled").fill_null(False) & ~pl.col("pool").fill_null(False))
        .collect()
    )  # fmt: skip
    if base.is_empty():
        return pl.DataFrame(schema=FINDINGS).lazy()
    us = timedelta(microseconds=1)
    group = pl.concat_str([pl.col(c).cast(pl.String).fill_null("") for c in _GROUP], separator="\x1f")
    # a level: the blinds and ante, ranked (big blind, then small blind, then ante)
    lv = pl.struct(pl.col("big_blind"), pl.col("small_blind").fill_null(0), pl.col("ante").fill_null(0))
    k = base.select(
        _r=pl.int_range(pl.len(), dtype=pl.Int64), gk=group.hash(seed=17), tk=pl.col("table").hash(seed=19),
        t=pl.col("start_utc").dt.epoch("us"), lv=lv.rank("dense").cast(pl.Int64),
    ).sort(["gk", "t"], maintain_order=True)  # fmt: skip
    # runs: a new one for each tournament, and where the whole tournament was idle for ``run_gap``
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
    this = base.select("site", "hand_id", "path", "first_line", "table", "tournament_id", "decimals", "big_blind")
    this = this[behind["_r"]]
    other = base.select(prev_hand_id="hand_id", prev_path="path", prev_line="first_line", r_bb="big_blind")
    other = other[behind["r_r"]]
    out = this.hstack(other).select(
        code=pl.lit("T007"), site="site", hand_id="hand_id", path="path", line="first_line", table="table",
        tournament_id="tournament_id", player=pl.lit(None, pl.String), reason=pl.lit("schedule"),
        expected="r_bb", actual="big_blind", decimals="decimals", prev_hand_id="prev_hand_id",
        prev_path="prev_path", prev_line="prev_line",
    )  # fmt: skip
    # a placeholder id groups unrelated tournaments: its group's findings are dropped (each id is a
    # group of its own, so the other groups' findings are the same as without it)
    out = out.filter(~pl.col("tournament_id").str.contains(PLACEHOLDER))
    return out.cast(FINDINGS).lazy()  # type: ignore[arg-type]
