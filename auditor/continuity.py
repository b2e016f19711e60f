"""The cross-hand stage: continuity of one table's hands, as polars queries.

Every rule of the ``hand`` and ``pots`` stages judges one hand.  This stage judges what lies
*between* hands of one table (site, table name, tournament id), ordered by start time and hand id:
a cash stack that shrank while its player stayed seated (ratholing), tournament chips that appeared
or vanished, a top-up where the house allows none, a button that skipped a player or did not move,
tournament blinds that went down, and where the chain could not be followed (a gap).  The rules
(T-codes) are documented in :mod:`auditor.rules.continuity`.

The input is one row per audited hand: the base hand columns (:data:`auditor.tables.HANDS`) and
:data:`COLUMNS` (start time in UTC, the seats with the stack each player started with as printed and
ended with as replayed, a fingerprint of the hand's text, and the profile's settings), built by
:func:`hand_columns` (:mod:`auditor.crosshand_rows`).  The batch store's ``hands`` table holds the same columns, so
:func:`check` runs unchanged on the hands of one ``hhaudit audit``, on a store of months, and on
Dask partitions of a store (one partition per table: a chain never crosses tables).

Principles: gaps are not violations.  A pair of consecutive hands whose chain is broken (a time gap,
an incomplete hand, a hand whose own findings make its final stacks unreliable, a missing hand
betrayed by several stacks changing at once) is reported once, at info level (T001), and nothing
else is judged across it.  Fast-fold pools (Zoom, Rush, Go Fast, ...) have no table continuity and
are never chained.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import polars as pl

from auditor.crosshand_rows import ADDED_RE as ADDED_RE  # the rows of this stage, built without polars
from auditor.crosshand_rows import ANON_RE as ANON_RE
from auditor.crosshand_rows import POOL_RE as POOL_RE
from auditor.crosshand_rows import base_columns as base_columns
from auditor.crosshand_rows import copy_columns as copy_columns
from auditor.crosshand_rows import fingerprint_text as fingerprint_text
from auditor.crosshand_rows import hand_columns as hand_columns
from auditor.crosshand_rows import is_pool as is_pool
from auditor.findings import Finding

#: A pair of hands further apart than this is not chained (the table stood still or hands are missing).
MAX_GAP = timedelta(minutes=20)
#: A seat of a hand: the fields of the nested ``seats`` column, and the columns of the flat seat frame.
SEAT_FIELDS: dict[str, pl.DataType] = {
    "seat": pl.Int64(),
    "player": pl.String(),
    "stack": pl.Int64(),  # starting stack as printed
    "final": pl.Int64(),  # as replayed: start - chips put in + chips returned + awards claimed
    "sitting_out": pl.Boolean(),
    "active": pl.Boolean(),  # posted or acted in the hand (dealt in)
    "added": pl.Boolean(),  # a rebuy, add-on or top-up printed for the player in this hand
    "line": pl.Int64(),
    "collected": pl.Int64(),  # what the site paid the player in this hand (its collect lines)
}
SEAT = pl.Struct(SEAT_FIELDS)

#: The columns this stage adds to a hand row (in ``hhaudit audit`` and in the store's ``hands`` table).
COLUMNS: dict[str, pl.DataType] = {
    "start_utc": pl.Datetime("us", "UTC"),
    "seats": pl.List(SEAT),
    "fingerprint": pl.String(),  # 24 hex digits: a hash of the hand's text (duplicate ids across files)
    "chips_ok": pl.Boolean(),  # no finding that makes the replayed final stacks unreliable
    "pool": pl.Boolean(),  # a fast-fold pool hand: never chained
    "top_ups": pl.Boolean(),  # the profile allows top-ups between hands (a tournament: rebuys or add-ons)
    "button_rule": pl.String(),  # "moving" or "dead"
    # dealt with no small blind (a dead small blind) where the site prints the next hand's button on
    # this hand's seat again (export fact ``button_stays_after_dead_small_blind``)
    "keeps_button": pl.Boolean(),
}

#: The base columns the stage reads (a subset of :data:`auditor.tables.HANDS`).
BASE: dict[str, pl.DataType] = {
    "site": pl.String(),
    "hand_id": pl.String(),
    "path": pl.String(),
    "first_line": pl.Int64(),
    "small_blind": pl.Int64(),
    "big_blind": pl.Int64(),
    "ante": pl.Int64(),
    "button": pl.Int16(),
    "table": pl.String(),
    "tournament_id": pl.String(),
    "level": pl.String(),
    "complete": pl.Boolean(),
    "cancelled": pl.Boolean(),
    "decimals": pl.Int8(),
    "game": pl.String(),
    "structure": pl.String(),
}
INPUT: dict[str, pl.DataType] = {**BASE, **COLUMNS}

#: The flat form of the input (one frame of hands, one of seats; what ``hhaudit audit`` builds and the
#: store's ``seats`` table holds): a hand row has ``n_seats`` instead of the nested ``seats`` (null
#: when the hand has none, like a null ``seats``), and its seats are the next ``n_seats`` rows of the
#: seat frame (:data:`SEAT_FIELDS`), in the hand's seat order.
N_SEATS = "n_seats"
FLAT: dict[str, pl.DataType] = {**{k: v for k, v in INPUT.items() if k != "seats"}, N_SEATS: pl.Int32()}


# ---------------------------------------------------------------------------------- the query


def _key() -> pl.Expr:
    return pl.concat_str([pl.col("site"), pl.col("tournament_id").fill_null(""), pl.col("table").fill_null("")],
                         separator="\x1f")  # fmt: skip


def partition_key() -> pl.Expr:
    """The key that partitions hands for :func:`check`: the table, and a tournament's tables
    together (its blind schedule is checked across them: T007)."""
    tourney = pl.concat_str("site", "tournament_id", separator="\x1f")
    return pl.when(pl.col("tournament_id").is_not_null()).then(tourney).otherwise(_key())


def has_seats(columns: Iterable[str]) -> pl.Expr:
    """Whether a hand has its seats: a nested ``seats`` list, or (flat form) ``n_seats``."""
    cols = set(columns)
    parts = [pl.col(c).is_not_null() for c in ("seats", N_SEATS) if c in cols]
    return pl.any_horizontal(parts) if parts else pl.lit(False)


def _keys(hands: pl.LazyFrame, has: pl.Expr | None = None) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The chainable hands (with a row number ``_r`` and the table key ``tkey``, a hash of site,
    tournament and table) and, sorted, their ``_r``, ``tkey`` and place ``k`` in their table's order
    (by start time, then hand number); a repeated hand id of a table keeps its first place.
    ``has``: whether a hand has its seats (default: :func:`has_seats` of the columns)."""
    has = has_seats(hands.collect_schema().names()) if has is None else has
    base = hands.filter(~pl.col("cancelled").fill_null(False) & ~pl.col("pool").fill_null(False)
                        & pl.col("table").is_not_null() & has)  # fmt: skip
    base = base.with_row_index("_r").with_columns(tkey=_key().hash(seed=11))
    # the hand number's last digits (PokerStars "#2500..", GG "OM1814..", Merge "60139095-6") order
    # hands of one second; then the place in the input
    id_no = pl.col("hand_id").str.extract(r"(\d{1,18})\D*$").cast(pl.Int64, strict=False)
    keys = (
        base.select("_r", "tkey", "start_utc", _id=pl.col("hand_id").hash(seed=13), _no=id_no)
        .sort(["tkey", "start_utc", "_no", "_r"], nulls_last=True)
        .unique(subset=["tkey", "_id"], keep="first", maintain_order=True)  # a repeated id: H001/H005's
        .with_columns(k=pl.int_range(pl.len(), dtype=pl.Int64).over("tkey"))
        .select("_r", "tkey", "k")
    )  # fmt: skip
    return base, keys


def order(hands: pl.LazyFrame) -> pl.LazyFrame:
    """The chainable hands with ``tkey`` and ``k`` (see :func:`_keys`), sorted by table and ``k``."""
    base, keys = _keys(hands)
    return keys.join(base.drop("tkey"), on="_r", how="inner", maintain_order="left").drop("_r")


#: Games dealt without a button (stud: the bring-in opens).
_NO_BUTTON = ("stud", "stud_hilo", "razz")

_PREV = ("hand_id", "path", "first_line", "start_utc", "button", "small_blind", "big_blind", "ante", "level",
         "chips_ok", "complete", "game", "structure", "decimals", "keeps_button")  # fmt: skip

#: The columns of :func:`check`'s result (one row per finding).
FINDINGS: dict[str, pl.DataType] = {
    "code": pl.String(),
    "site": pl.String(),
    "hand_id": pl.String(),
    "path": pl.String(),
    "line": pl.Int64(),
    "table": pl.String(),
    "tournament_id": pl.String(),
    "player": pl.String(),
    "reason": pl.String(),
    "expected": pl.Int64(),
    "actual": pl.Int64(),
    "decimals": pl.Int8(),
    "prev_hand_id": pl.String(),
    "prev_path": pl.String(),
    "prev_line": pl.Int64(),
}


def _level_no() -> pl.Expr:
    return pl.col("level").str.extract(r"(\d+)").cast(pl.Int64, strict=False)


#: The hand columns :func:`check` reads besides the seats (the fingerprint is for the store's duplicate pass).
_SCALARS = [c for c in INPUT if c not in ("fingerprint", "seats")]


def flat_seats(hands: pl.DataFrame) -> pl.DataFrame:
    """The seats of the nested ``seats`` column of ``hands``, one row each (:data:`SEAT_FIELDS`) with
    ``_in``, the row number of its hand in ``hands``; in hand order, each hand's seats in its order."""
    ex = hands.select(pl.col("seats")).with_row_index("_in").explode("seats")
    ex = ex.filter(pl.col("seats").is_not_null()).unnest("seats")
    return ex.select(pl.col("_in").cast(pl.Int64), *SEAT_FIELDS).cast(SEAT_FIELDS)  # type: ignore[arg-type]


def link_seats(hands: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """``seats`` (the flat seat frame of ``hands``, which has ``n_seats``) with ``_in``, the row
    number of each seat's hand in ``hands``."""
    n = hands.select(pl.col(N_SEATS).fill_null(0).cast(pl.Int64)).to_series()
    if int(n.sum() or 0) != seats.height:
        raise ValueError(f"the hands have {int(n.sum() or 0)} seats in all (n_seats), the seat frame {seats.height}")
    rows = pl.int_range(hands.height, eager=True, dtype=pl.Int64)
    return seats.with_columns(_in=rows.gather(rows.repeat_by(n).explode().drop_nulls()))


def flat_input(hands: pl.LazyFrame, seats: pl.LazyFrame | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The hands (:data:`_SCALARS` and ``_has``: they have seats) and their seats as one flat frame
    (:data:`SEAT_FIELDS` and ``_in``, their hand's row), from the nested form (``seats`` None) or the
    flat one; each input is read once."""
    if seats is None:
        df = hands.select(*_SCALARS, "seats").collect()
        return df.with_columns(_has=pl.col("seats").is_not_null()).drop("seats"), flat_seats(df)
    df = hands.select(*_SCALARS, N_SEATS).collect()
    sf = link_seats(df, seats.select(*SEAT_FIELDS).collect())
    return df.with_columns(_has=pl.col(N_SEATS).is_not_null()).drop(N_SEATS), sf


def check(hands: pl.LazyFrame, max_gap: timedelta = MAX_GAP, *, seats: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """The cross-hand findings of ``hands``, one row per finding (:data:`FINDINGS`), sorted by path
    and line.  ``hands``: rows of :data:`INPUT` (seats nested), or with ``seats`` the flat form
    (rows of :data:`FLAT`, and the seat frame).  Pure polars: no Python per row."""
    df, sf = flat_input(hands, seats)
    return _check(df, sf, max_gap)


def _previous_rows(seats: pl.DataFrame, hands: int) -> pl.Series:
    """For each seat row (``pkey``: the player at the table, ``_h``: the hand's place in table order,
    ``seat``), the row of the same player's previous seat: the row before it in (``pkey``, ``_h``,
    row) order; null for the first.

    Most rows are found without a sort: a player in the same seat as in the hand just before (and
    once in both hands) continues that row.  The other rows (first appearances, seat changes,
    returns, hands with a player or a seat twice) and the rows no later row continues are few; they
    alone are sorted, and each of the others finds its previous row among them (the row before a
    broken chain of continued rows is the end of the chain before: it is among them)."""
    n = seats.height
    f = seats.select(
        _row=pl.int_range(pl.len(), dtype=pl.Int64),
        _h=pl.col("_h").cast(pl.Int64),
        seat=pl.col("seat").cast(pl.Int64),
        pkey=pl.col("pkey"),
    ).with_columns(ok=pl.col("seat").is_between(0, 63).fill_null(False))
    width = int(f.select(pl.col("seat").filter(pl.col("ok")).max()).item() or 0) + 1
    cont = pl.Series("_c", [], dtype=pl.Int64)  # the row each continued row continues
    fast = pl.repeat(False, n, eager=True)
    if n and hands * width <= 16 * n + 1_000_000:
        # the row of each (hand, seat): a map of hands x seat numbers
        ok = f.filter(pl.col("ok")).select("_row", "_h", slot=pl.col("_h") * width + pl.col("seat"))
        where = pl.repeat(None, hands * width, dtype=pl.Int64, eager=True).scatter(ok["slot"], ok["_row"])
        # hands with a seat twice, or a player twice, are left to the sort
        clash = ok.filter(where.gather(ok["slot"]) != ok["_row"])["_h"]
        pair = f.select(pl.col("pkey").cast(pl.UInt64) ^ (pl.col("_h").cast(pl.UInt64) * 0x9E3779B97F4A7C15))
        pair_s = pair.to_series()  # equal for a player twice in a hand (rarely for others: left to the sort)
        twice_p = f["_h"].filter(pair_s.is_duplicated()) if pair_s.n_unique() < n else clash.clear()
        twice = pl.repeat(False, hands, eager=True).scatter(clash, True).scatter(twice_p, True)
        at = f.select(c=pl.when(pl.col("ok") & (pl.col("_h") >= 1)).then((pl.col("_h") - 1) * width + pl.col("seat")))[
            "c"
        ]
        cand = where.gather(at)
        h = f["_h"]
        same = f["pkey"] == f["pkey"].gather(cand)
        fast = (same & ~twice.gather(h) & ~twice.gather((h - 1).clip(0))).fill_null(False)
        cont = cand.filter(fast)
    prev = pl.repeat(None, n, dtype=pl.Int64, eager=True).scatter(f["_row"].filter(fast), cont)
    # the rows not continued from the hand before, and the rows not continued by the hand after
    ends = pl.repeat(True, n, eager=True).scatter(cont, False)
    few = f.select("_row", "pkey", "_h").filter(~fast | ends).sort(["pkey", "_h"], maintain_order=True)
    few = few.with_columns(_prev=pl.when(pl.col("pkey") == pl.col("pkey").shift(1)).then(pl.col("_row").shift(1)))
    few = few.filter(~fast.gather(few["_row"]))
    return prev.scatter(few["_row"], few["_prev"])


def _per_hand(seats: pl.DataFrame, hands: int, sums: dict[str, pl.Expr], mins: dict[str, pl.Expr]) -> pl.DataFrame:
    """Sums and minimums over each hand's seats, one row per hand (``_r``, ``0 <= _r < hands``; a
    hand's seats are consecutive rows, hands in ``_r`` order); null for a hand without seats.
    Running sums, no group-by.  Integer sums wrap around like polars' ``sum``; ``mins`` values must
    lie within +-2**20."""
    r = seats["_r"].cast(pl.Int64)
    rows = pl.int_range(hands, dtype=pl.Int64, eager=True)
    bounds = pl.DataFrame({"start": r.search_sorted(rows, side="left"), "end": r.search_sorted(rows, side="right")})
    bounds = bounds.cast(pl.Int64).with_columns(_own=(hands - rows) * (1 << 21))
    vals = seats.select(**sums, **mins)
    cols: list[pl.Expr] = []
    for name in sums:
        v = vals[name]
        v = v.cast(pl.UInt32) if v.dtype == pl.Boolean else v
        run = pl.Series([0], dtype=v.dtype).append(v.fill_null(0).cum_sum())
        total = run.gather(bounds["end"]) - run.gather(bounds["start"])
        cols.append(pl.when(pl.col("end") > pl.col("start")).then(total).alias(name))
    for name in mins:
        # a running minimum of (hands - _r) * 2**21 + 2**20 + value: an earlier hand's values are all larger
        key = seats.select(
            pl.when(vals[name].is_not_null())
            .then((hands - pl.col("_r").cast(pl.Int64)) * (1 << 21) + (1 << 20) + vals[name].cast(pl.Int64))
            .otherwise((hands + 2) * (1 << 21))
        ).to_series()
        run = key.cum_min().append(pl.Series([(hands + 2) * (1 << 21)], dtype=pl.Int64))
        got = run.gather((bounds["end"] - 1).clip(0)) - bounds["_own"]
        cols.append(
            pl.when((pl.col("end") > pl.col("start")) & (got >= 0) & (got < (1 << 21)))
            .then(got - (1 << 20))
            .alias(name)
        )
    return bounds.select(cols)


def _id_number(ids: pl.Series) -> pl.Series:
    """The hand number of :func:`_keys` (the last digits of the id, at most 18), without the regular
    expression for the ids that are plain numbers of at most 18 digits (the value is the same)."""
    no = ids.cast(pl.Int64, strict=False)
    plain = (no >= 0) & (ids.str.len_bytes() <= 18)
    plain = plain.fill_null(False)
    if bool(plain.all()):
        return no
    where = pl.int_range(ids.len(), dtype=pl.Int64, eager=True).filter(~plain)
    other = ids.filter(~plain).str.extract(r"(\d{1,18})\D*$").cast(pl.Int64, strict=False)
    return no.scatter(where, other)


def _table_order(base: pl.DataFrame) -> pl.DataFrame:
    """What ``_keys(...)[1]`` gives (``_r``, ``tkey``, ``k``), from the collected chainable hands.

    A store's hands usually come table by table in time order: then no sort is needed (the tables'
    own order does not matter, only each table's), nor, without a repeated id, the first of each id."""
    ids = base.select("_r", "tkey", "start_utc", _id=pl.col("hand_id").hash(seed=13))
    ids = ids.with_columns(_no=_id_number(base["hand_id"]))
    top = pl.Int64.max()
    start = pl.col("start_utc").dt.epoch("us").fill_null(top)
    no = pl.col("_no").fill_null(top)
    same_t = pl.col("tkey") == pl.col("tkey").shift(1)
    later = (start > start.shift(1)) | ((start == start.shift(1)) & (no >= no.shift(1)))
    runs = ids.select(
        changes=(~same_t.fill_null(False)).sum(), tables=pl.col("tkey").n_unique(), ordered=(~same_t | later).all()
    )
    changes, tables, ordered = runs.row(0)
    if not (changes == tables and ordered):
        ids = ids.sort(["tkey", "start_utc", "_no", "_r"], nulls_last=True)
    if ids.select((pl.col("tkey") ^ pl.col("_id")).n_unique()).item() < ids.height:
        ids = ids.unique(subset=["tkey", "_id"], keep="first", maintain_order=True)  # a repeated id: H001/H005's
    first = pl.when(~same_t.fill_null(False)).then(pl.int_range(pl.len(), dtype=pl.Int64)).forward_fill()
    return ids.select("_r", "tkey", k=pl.int_range(pl.len(), dtype=pl.Int64) - first)


def _check(df: pl.DataFrame, sf: pl.DataFrame, max_gap: timedelta) -> pl.LazyFrame:
    """:func:`check` on the hands ``df`` and their seats ``sf`` (see :func:`flat_input`)."""
    base_lf, _ = _keys(df.with_row_index("_in").lazy(), pl.col("_has"))
    base = base_lf.collect()
    order_ = _table_order(base)
    # the hands' scalar columns in table order: ``_r`` is the row number in ``base``, so a gather
    # (no join) puts them in place
    idx = order_["_r"]
    hd = order_.hstack(base.drop("_r", "tkey", "_in", "_has").select(pl.all().gather(idx)))
    same_table = pl.col("tkey") == pl.col("tkey").shift(1)
    hd = hd.with_columns([pl.when(same_table).then(pl.col(c).shift(1)).alias(f"prev_{c}") for c in _PREV])
    # a hand alone in its file (no hand of the table before or after it in the same file): an export
    # of single hands, which says nothing of the hands dealt between two such files
    next_same = (pl.col("tkey") == pl.col("tkey").shift(-1)).fill_null(False)
    alone = ((~same_table.fill_null(False) | (pl.col("path") != pl.col("path").shift(1)).fill_null(True))
             & (~next_same | (pl.col("path") != pl.col("path").shift(-1)).fill_null(True)))  # fmt: skip
    hd = hd.with_columns(_alone=alone).with_columns(_prev_alone=pl.when(same_table).then(pl.col("_alone").shift(1)))
    # one row per seat, exploded in place (no nested column is moved), with its hand's place in
    # table order looked up by ``_r`` (null: a repeated hand id, left out of the chain)
    place = pl.repeat(None, base.height, dtype=pl.Int64, eager=True).alias("_h")
    place = place.scatter(idx, pl.int_range(hd.height, eager=True))
    # the seats of the chainable hands, with their hand's row in ``base`` (``_r``)
    r_of = pl.repeat(None, df.height, dtype=base["_r"].dtype, eager=True)
    r_of = r_of.scatter(base["_in"], base["_r"])
    ex = sf.with_columns(_r=r_of.gather(sf["_in"])).drop("_in")
    if ex["_r"].null_count():  # (a filter copies every column: only when some hands are left out)
        ex = ex.filter(pl.col("_r").is_not_null())
    ex = ex.with_row_index("_i")
    at = place.gather(ex["_r"])
    seats = ex.with_columns(at, tkey=hd["tkey"].gather(at), k=hd["k"].gather(at),
                            prev_button=hd["prev_button"].gather(at))  # fmt: skip
    if at.null_count() or ex["player"].null_count():
        seats = seats.filter(pl.col("_h").is_not_null() & pl.col("player").is_not_null())
    seats = (
        seats.lazy()
        # a player of a table as one integer, and where the button should go (the first seat dealt
        # in clockwise from the previous button, as a distance from it)
        .with_columns(pkey=pl.col("player").hash(seed=3) + pl.col("tkey"),
                      dist=(pl.col("seat").cast(pl.Int64) - pl.col("prev_button").cast(pl.Int64) - 1) % 1000,
                      # the seat's part of the hand's roster hash (see ``roster`` below)
                      rh=pl.when(pl.col("active").fill_null(False))
                      .then(pl.struct("seat", "player").hash(seed=5)).otherwise(0))
        # only what the rules below read is sorted along: the few seats named in findings get their
        # name and line back by ``_i``
        .drop("player", "sitting_out", "line", "tkey", "prev_button")
        .collect()
    )  # fmt: skip
    # each player's previous hand at the table (``last_k``), and what they had there when it is the
    # hand just before (``prev_final``, ...)
    prev = _previous_rows(seats, hd.height)
    last_k = seats["k"].gather(prev)
    # the previous row where it is the hand just before
    just = seats.select(pl.when(last_k == pl.col("k") - 1).then(prev)).to_series()
    sd = seats.drop("_h").with_columns(
        [pl.col(c).gather(just).alias(f"prev_{c}") for c in ("final", "added", "active", "collected", "seat")],
        last_k=last_k,
    )
    d = pl.col("stack") - pl.col("prev_final")
    # a shrink of at most a tenth of what the player just collected: the collect line printed the
    # pot before the rake (a site's misprint, not chips taken off the table); not judged
    rake_like = (d < 0) & (-d * 10 <= pl.col("prev_collected").fill_null(0))
    sd = sd.with_columns(
        d=d,
        skip=pl.col("added").fill_null(False) | pl.col("prev_added").fill_null(False) | rake_like.fill_null(False),
    )
    active = pl.col("active").fill_null(False)
    # per hand, over its seats (the seats of a hand are consecutive rows, hands in ``_r`` order)
    per = _per_hand(
        sd,
        base.height,
        sums={
            "ups": (pl.col("d") > 0) & ~pl.col("skip"),
            "downs": (pl.col("d") < 0) & ~pl.col("skip"),
            "joined": active & ~pl.col("prev_active").fill_null(False),
            # the players dealt in, as an order-free hash of (seat, player), and how many
            "roster": pl.col("rh"),
            "dealt": active,
            # the previous hand's button seat is dealt in here (heads-up going on, not beginning)
            "btn_dealt": active & (pl.col("dist") == 999),
        },
        mins={"want_dist": pl.when(active).then(pl.col("dist"))},
    )
    h = (
        hd.hstack(per.with_columns(pl.col("btn_dealt") > 0).select(pl.all().gather(hd["_r"])))
        .lazy()
        .with_columns(
            prev_roster=pl.when(same_table).then(pl.col("roster").shift(1)),
            want=((pl.col("want_dist") + pl.col("prev_button").cast(pl.Int64) + 1) % 1000),
        )
    )
    tourney = pl.col("tournament_id").is_not_null()
    first = pl.col("prev_hand_id").is_null()
    dt = pl.col("start_utc") - pl.col("prev_start_utc")

    # ids with a per-table counter ("<table>-<n>", "R5-<table>-<n>", Winamax "<a>-<n>-<time>"): a jump
    # of the counter, or another table prefix, means hands are missing between the two
    def counter(c: str) -> tuple[pl.Expr, pl.Expr]:
        win = pl.col(c).str.extract_groups(r"^(\d+)-(\d+)-\d{9,}$")  # Winamax: <a>-<n>-<time>
        other = pl.col(c).str.extract_groups(r"^(.*)-(\d+)$")  # Merge, OnGame: <table>-<n>
        prefix = pl.coalesce(win.struct.field("1"), other.struct.field("1"))
        no = pl.coalesce(win.struct.field("2"), other.struct.field("2")).cast(pl.Int64, strict=False)
        return prefix, no

    prefix_a, a_no = counter("hand_id")
    prefix_b, b_no = counter("prev_hand_id")
    counted = a_no.is_not_null() & b_no.is_not_null()
    jump = counted & ((prefix_a != prefix_b) | ((a_no - b_no) != 1))
    # two hands each alone in its own file: single-hand exports (the hands between are unknown)
    single = (pl.col("path") != pl.col("prev_path")) & pl.col("_alone") & pl.col("_prev_alone")
    gap = (
        pl.when(first).then(None)
        .when(dt > max_gap).then(pl.lit("time"))
        .when(jump.fill_null(False)).then(pl.lit("ids"))
        .when(single.fill_null(False)).then(pl.lit("single"))
        .when(pl.col("decimals") != pl.col("prev_decimals")).then(pl.lit("units"))
        .when(~pl.col("prev_complete").fill_null(True) | ~pl.col("complete").fill_null(True)).then(pl.lit("partial"))
        .when(~pl.col("prev_chips_ok").fill_null(False)).then(pl.lit("unreliable"))
        .when((pl.col("ups") > 0) & (pl.col("downs") > 0)).then(pl.lit("missing"))
        .when(~tourney & (pl.col("downs") > 1)).then(pl.lit("missing"))
        .when(tourney & (pl.col("ups") + pl.col("downs") > 1)).then(pl.lit("missing"))
        .otherwise(None)
    )  # fmt: skip
    h = h.with_columns(gap=gap).collect().lazy()
    common = ["site", "hand_id", "path", "table", "tournament_id", "decimals", "prev_hand_id", "prev_path",
              "prev_line"]  # fmt: skip
    h = h.with_columns(prev_line=pl.col("prev_first_line"))

    gaps = h.filter(pl.col("gap").is_not_null()).select(
        pl.lit("T001").alias("code"), *common, line=pl.col("first_line"), player=pl.lit(None, pl.String),
        reason=pl.col("gap"), expected=pl.lit(None, pl.Int64), actual=pl.lit(None, pl.Int64))  # fmt: skip
    # a player who left the table and came back: the chain of that player is broken (reported once)
    hs = h.select("tkey", "k", *common, "gap", "top_ups", "button", "roster", "prev_roster", "prev_button",
                  "small_blind", "big_blind", "ante", "prev_small_blind", "prev_big_blind", "prev_ante", "first_line",
                  "level", "prev_level", "joined", "button_rule", "dealt", "want", "game", "prev_game", "structure",
                  "prev_structure", "prev_decimals", "btn_dealt", "prev_keeps_button")  # fmt: skip
    # only the seats a rule below can name (a return after hands away, a changed stack) meet their hand
    returned = pl.col("last_k").is_not_null() & (pl.col("k") - pl.col("last_k") > 1)
    changed = pl.col("prev_final").is_not_null() & (pl.col("d") != 0) & ~pl.col("skip")
    named = sd.filter(returned | changed.fill_null(False))
    s = named.with_columns(player=ex["player"].gather(named["_i"]), line=ex["line"].gather(named["_i"])).lazy()
    s = s.join(h.select("_r", *common, "gap", "top_ups"), on="_r", how="inner")
    back = s.filter(pl.col("last_k").is_not_null() & (pl.col("k") - pl.col("last_k") > 1)).select(
        pl.lit("T001").alias("code"), *common, "line", "player", reason=pl.lit("returned"),
        expected=pl.col("k") - pl.col("last_k") - 1, actual=pl.lit(None, pl.Int64))  # fmt: skip
    is_t = pl.col("tournament_id").is_not_null()
    # a tournament player on another seat: moved to another table (a tournament seats its players),
    # whose hands the export leaves out; the stack is not compared (reported once, like a return)
    moved = is_t & pl.col("prev_seat").is_not_null() & (pl.col("seat") != pl.col("prev_seat"))
    moves = s.filter(pl.col("gap").is_null() & moved.fill_null(False)).select(
        pl.lit("T001").alias("code"), *common, "line", "player", reason=pl.lit("moved"),
        expected=pl.col("prev_seat"), actual=pl.col("seat"))  # fmt: skip
    # tournament chips at least doubling a short stack, or any growth where the tournament sells
    # chips between hands (``top_ups``: rebuys, add-ons): a rebuy or add-on the site did not print
    rebuy = is_t & (pl.col("d") > 0) & ((pl.col("d") >= pl.col("prev_final")) | pl.col("top_ups").fill_null(False))
    rebuy = rebuy & ~moved.fill_null(False)
    rebuys = s.filter(pl.col("gap").is_null() & rebuy.fill_null(False) & ~pl.col("skip")).select(
        pl.lit("T001").alias("code"), *common, "line", "player", reason=pl.lit("rebuy"),
        expected="prev_final", actual="stack")  # fmt: skip
    judged = s.filter(pl.col("gap").is_null() & pl.col("prev_final").is_not_null() & ~pl.col("skip")
                      & ~rebuy.fill_null(False) & ~moved.fill_null(False))  # fmt: skip
    stack = judged.filter(pl.col("d") != 0).select(
        pl.when(is_t).then(pl.lit("T003")).when(pl.col("d") < 0).then(pl.lit("T002"))
        .when(~pl.col("top_ups").fill_null(True)).then(pl.lit("T004")).otherwise(None).alias("code"),
        *common, "line", "player", reason=pl.lit("stack"), expected="prev_final", actual="stack",
    ).filter(pl.col("code").is_not_null())  # fmt: skip

    # the button: with the same players dealt in both hands it moves clockwise and passes none of
    # them (it may stop on an empty or sitting-out seat: dead button, or a seat waiting for its blind)
    def dist(c: str | pl.Expr) -> pl.Expr:
        x = pl.col(c) if isinstance(c, str) else c
        return (x.cast(pl.Int64) - pl.col("prev_button").cast(pl.Int64) - 1) % 1000

    b = hs.filter(
        pl.col("want").is_not_null() & pl.col("gap").is_null() & pl.col("prev_hand_id").is_not_null()
        & pl.col("button").is_not_null()
        & pl.col("prev_button").is_not_null() & ~pl.col("game").is_in(_NO_BUTTON)
        & (pl.col("game") == pl.col("prev_game"))
        & ((pl.col("roster") == pl.col("prev_roster"))
           | ((pl.col("button_rule") == "moving") & (pl.col("joined") == 0) & pl.col("prev_roster").is_not_null()))
        & (pl.col("dealt") >= 2)
        # heads-up begins (the button was on a seat not dealt in): it may be moved so that no player
        # posts the big blind twice in a row (Poker TDA 2026 Rule 34: button in heads-up)
        & ~((pl.col("dealt") == 2) & ~pl.col("btn_dealt").fill_null(False))
        & ((pl.col("button") == pl.col("prev_button")) | (dist("button") > dist("want")))
        # after a dead small blind the site prints the dead button on the last live seat (export fact)
        & ~((pl.col("button") == pl.col("prev_button")) & (pl.col("button_rule") == "dead")
            & pl.col("prev_keeps_button").fill_null(False))
    )  # fmt: skip
    stayed = pl.col("button") == pl.col("prev_button")
    b = b.select(pl.lit("T005").alias("code"), *common, line=pl.col("first_line"), player=pl.lit(None, pl.String),
                 reason=pl.when(stayed).then(pl.lit("stayed")).otherwise(pl.lit("skipped")),
                 expected=pl.col("want").cast(pl.Int64), actual=pl.col("button").cast(pl.Int64))  # fmt: skip

    # tournament blinds and antes never go down at one table (nor does the level)
    down = (
        (pl.col("big_blind") < pl.col("prev_big_blind"))
        | ((pl.col("big_blind") == pl.col("prev_big_blind")) & (pl.col("small_blind") < pl.col("prev_small_blind")))
        | ((pl.col("big_blind") == pl.col("prev_big_blind")) & (pl.col("small_blind") == pl.col("prev_small_blind"))
           & (pl.col("ante") < pl.col("prev_ante")))
    )  # fmt: skip
    lvl_down = _level_no() < pl.col("prev_level").str.extract(r"(\d+)").cast(pl.Int64, strict=False)
    same_game = (
        (pl.col("game") == pl.col("prev_game"))
        & (pl.col("structure") == pl.col("prev_structure"))
        & (pl.col("decimals") == pl.col("prev_decimals"))
    )
    lowered = down.fill_null(False) | lvl_down.fill_null(False)
    bl = hs.filter(is_t & pl.col("prev_hand_id").is_not_null() & same_game.fill_null(False) & lowered)
    bl = bl.select(pl.lit("T006").alias("code"), *common, line=pl.col("first_line"), player=pl.lit(None, pl.String),
                   reason=pl.when(down.fill_null(False)).then(pl.lit("blinds")).otherwise(pl.lit("level")),
                   expected=pl.col("prev_big_blind"), actual=pl.col("big_blind"))  # fmt: skip

    cols = list(FINDINGS)
    parts = [x.select(cols) for x in (gaps, back, moves, rebuys, stack, b, bl)]
    # across the tables of a tournament: a table behind the blind schedule (T007, auditor.schedule)
    from auditor import schedule

    parts.append(schedule.check(df.lazy()).select(cols))
    out = pl.concat(parts, how="vertical_relaxed").cast(FINDINGS)  # type: ignore[arg-type]
    return out.sort(["path", "line", "code", "player"], nulls_last=True)


def frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    from auditor.tables import fit_rows

    return pl.DataFrame(fit_rows(rows, INPUT), schema=INPUT, orient="row") if rows else pl.DataFrame(schema=INPUT)


def flat_row(row: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A hand row with nested ``seats`` as its flat hand row (``n_seats``) and its seat rows."""
    seats = row.get("seats")
    hand = {k: v for k, v in row.items() if k != "seats"}
    hand[N_SEATS] = None if seats is None else len(seats)
    return hand, list(seats or ())


def flat_frames(rows: list[dict[str, Any]]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Hand rows with nested ``seats`` as the flat form: the hands (:data:`FLAT`) and their seats."""
    from auditor.tables import fit_rows

    hands: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    for r in rows:
        h, ss = flat_row(r)
        hands.append(h)
        seats += ss
    hf = pl.DataFrame(fit_rows(hands, FLAT), schema=FLAT, orient="row") if hands else pl.DataFrame(schema=FLAT)
    sf = pl.DataFrame(fit_rows(seats, SEAT_FIELDS), schema=SEAT_FIELDS, orient="row") if seats else None
    return hf, sf if sf is not None else pl.DataFrame(schema=SEAT_FIELDS)


# ---------------------------------------------------------------------------------- findings


def _money(v: int | None, decimals: int | None) -> str:
    if v is None:
        return "?"
    d = decimals or 0
    return f"{v / 10**d:,.{d}f}" if d else f"{v:,}"


_GAP_TEXT = {
    "time": "more than 20 minutes passed since",
    "partial": "an incomplete hand stands between this hand and",
    "unreliable": "the final stacks are not known (that hand has its own findings, or a cash-out) for",
    "missing": "several stacks changed since (a hand is missing from the export after)",
    "units": "the amounts are printed in other units (decimal places) than in",
    "ids": "the hand numbers jump (hands are missing from the export) after",
    "single": "this hand and the previous one are each alone in their file (an export of single hands: the hands "
    "dealt between them are not known):",
}


def to_findings(df: pl.DataFrame) -> list[Finding]:
    """Findings with messages for the rows of :func:`check`."""
    from auditor import findings as F

    out: list[Finding] = []
    for r in df.iter_rows(named=True):
        code = r["code"]
        prev = f"hand {r['prev_hand_id']} ({r['prev_path']}:{r['prev_line']})"
        dec = r["decimals"]
        exp, act, who = r["expected"], r["actual"], r["player"]
        if code == "T001" and r["reason"] == "rebuy":
            msg = (f"{who} starts with {_money(act, dec)} after ending {prev} with {_money(exp, dec)}: a rebuy or "
                   "re-entry the site did not print; the stack is not compared")  # fmt: skip
        elif code == "T001" and r["reason"] == "moved":
            msg = (f"{who} is on seat {act} after seat {exp} in {prev}: moved to another table of the tournament; "
                   "their stack is not compared")  # fmt: skip
        elif code == "T001" and r["reason"] == "returned":
            msg = f"{who} comes back to the table after {exp} hand(s) away: their stack is not compared across the gap"
        elif code == "T001":
            msg = f"continuity not checked: {_GAP_TEXT.get(r['reason'], 'a gap after')} {prev}"
        elif code in ("T002", "T003", "T004"):
            diff = (act or 0) - (exp or 0)
            verb = "more" if diff > 0 else "less"
            msg = (f"{who} starts with {_money(act, dec)}, {_money(abs(diff), dec)} {verb} than the "
                   f"{_money(exp, dec)} they ended {prev} with")  # fmt: skip
        elif code == "T007":
            msg = (f"the tournament blind schedule: this table is at big blind {_money(act, dec)} although "
                   f"{prev}, at another table, had started at big blind {_money(exp, dec)} "
                   "(levels are tournament-wide)")  # fmt: skip
        elif code == "T005":
            what = "did not move from" if r["reason"] == "stayed" else "skipped to"
            msg = (f"the button {what} seat {act} with the same players dealt in as in {prev}; "
                   f"it should be on seat {exp}")  # fmt: skip
        else:
            msg = (
                (f"the tournament blinds went down: big blind {_money(act, dec)} after {_money(exp, dec)} in {prev}")
                if r["reason"] == "blinds"
                else f"the tournament level went down after {prev}"
            )
        data: dict[str, Any] = {"previous_hand_id": r["prev_hand_id"], "previous_path": r["prev_path"],
                                "previous_line": r["prev_line"], "reason": r["reason"]}  # fmt: skip
        if who is not None:
            data["player"] = who
        if exp is not None and code != "T001":
            data.update(expected=exp, actual=act)
            if code in ("T002", "T003", "T004"):
                data["amount"] = (act or 0) - (exp or 0)
        if r["table"] is not None:
            data["table"] = r["table"]
        out.append(F.make(code, r["path"], r["line"], 1, msg, site=r["site"], hand_id=r["hand_id"], **data))
    return out


def run(hands: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """:func:`check` with the gap kind in ``reason`` (collected)."""
    lf = hands.lazy() if isinstance(hands, pl.DataFrame) else hands
    return check(lf).collect()
