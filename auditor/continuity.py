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
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import polars as pl

from auditor import schedule
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
    # the blind schedule across a tournament's tables (auditor.schedule): the printed start with no
    # zone (when no UTC time is known), its printed zone, and what tells flights of one id apart
    **schedule.COLUMNS,
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
    # a tournament's flight (its name and buy-in as printed) too: flights of one id are two tournaments
    return pl.concat_str([pl.col("site"), pl.col("tournament_id").fill_null(""), pl.col("table").fill_null(""),
                          pl.col("flight").fill_null("")], separator="\x1f")  # fmt: skip


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


def table_keys(hands: pl.LazyFrame, has: pl.Expr | None = None) -> tuple[pl.LazyFrame, pl.LazyFrame]:
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
    """The chainable hands with ``tkey`` and ``k`` (see :func:`table_keys`), sorted by table and ``k``."""
    base, keys = table_keys(hands)
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
    at = pl.int_range(hands.height, eager=True, dtype=pl.get_index_type()).repeat_by(n).explode()
    return seats.with_columns(_in=at.drop_nulls() if at.null_count() else at)


#: The seat columns :func:`_check` gathers over every row (made one chunk), and those it reads row
#: by row or for a few rows only (left in the chunks a Parquet read gives: no copy).
_SEAT_ALL = ("final", "active")
_SEAT_FEW = ("seat", "player", "stack", "added", "line", "collected")


def flat_input(hands: pl.LazyFrame, seats: pl.LazyFrame | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The hands (:data:`_SCALARS` and ``_has``: they have seats) and their seats as one flat frame
    (:data:`SEAT_FIELDS` and ``_in``, their hand's row), from the nested form (``seats`` None) or the
    flat one; each input is read once."""
    # one chunk each: a gather over many chunks (a Parquet file's row groups) costs several times more
    if seats is None:
        df = hands.select(*_SCALARS, "seats").collect()
        hf = df.with_columns(_has=pl.col("seats").is_not_null()).drop("seats").rechunk()
        return hf, flat_seats(df).rechunk()
    df = hands.select(*_SCALARS, N_SEATS).collect().rechunk()
    # only the seat columns gathered over every row are made one chunk (a copy of each; the player
    # key is made one chunk after hashing); ``sitting_out`` is not read
    got = seats.select(*_SEAT_ALL, *_SEAT_FEW).collect()
    sf = link_seats(df, pl.DataFrame([got[c].rechunk() for c in _SEAT_ALL]).hstack(got.select(_SEAT_FEW)))
    return df.with_columns(_has=pl.col(N_SEATS).is_not_null()).drop(N_SEATS), sf


def check(hands: pl.LazyFrame, max_gap: timedelta = MAX_GAP, *, seats: pl.LazyFrame | None = None,
          across: bool = True) -> pl.LazyFrame:  # fmt: skip
    """The cross-hand findings of ``hands``, one row per finding (:data:`FINDINGS`), sorted by path
    and line.  ``hands``: rows of :data:`INPUT` (seats nested), or with ``seats`` the flat form
    (rows of :data:`FLAT`, and the seat frame).  Pure polars: no Python per row.  ``across``: the
    blind schedule across a tournament's tables too (:func:`auditor.schedule.check`); without it,
    only the rules within each table's chain (what a window of a huge table needs,
    :func:`auditor.crosshand_audit.windowed_frames`, which checks the schedule once on its own)."""
    df, sf = flat_input(hands, seats)
    return _check(df, sf, max_gap, across)


@dataclass
class _Links:
    """Each seat row's previous row of the same player (see :func:`_links`)."""

    start: pl.Series  # per hand (0 <= _h < hands): its first seat row, null for a hand without rows
    count: pl.Series  # per hand: its number of seat rows, null for a hand without rows
    prev: pl.Series  # per row: the previous row found by the fast path, null for the others
    fast: pl.Series  # per row: found by the fast path
    few: pl.DataFrame  # the other rows: ``_row``, ``_h`` and their previous row ``_prev`` (null: none)


def _spans(h: pl.Series, hands: int) -> tuple[pl.Series, pl.Series] | None:
    """Each hand's first row and number of rows in ``h`` (the hand of each row), null for a hand
    without rows; None when some hand's rows are not consecutive."""
    n = h.len()
    first = (h != h.shift(1)).fill_null(True)
    rows = pl.int_range(n, dtype=pl.Int64, eager=True)
    starts, hs = rows.filter(first), h.filter(first)
    if not (hs.is_sorted() or hs.n_unique() == hs.len()):  # sorted: each change is a new hand
        return None
    count = starts.shift(-1, fill_value=n) - starts
    if hs.len() == hands and hs.is_sorted():  # every hand has rows, in order
        return starts, count

    def blank() -> pl.Series:
        return pl.repeat(None, hands, dtype=pl.Int64, eager=True)

    return blank().scatter(hs, starts), blank().scatter(hs, count)  # (scatter writes in place)


def _rows_of(start: pl.Series, count: pl.Series, which: pl.Series) -> pl.Series:
    """The rows of the hands ``which`` (a mask over hands) with rows, in hand order."""
    sel = pl.DataFrame({"s": start, "c": count}).filter(which & count.is_not_null())
    if sel.is_empty():
        return pl.Series([], dtype=pl.Int64)
    return sel.select(pl.int_ranges("s", pl.col("s") + pl.col("c"), dtype=pl.Int64).explode()).to_series()


def _links(h: pl.Series, key: pl.Series, hands: int) -> _Links:
    """For each row (``h``: its hand's place in table order, ``key``: the player at the table), the
    row of the same key before it in (key, hand, row) order; null for the first.

    When each hand's rows are consecutive (the seats of a hand), most rows are found without a sort:
    a row continues the row at the same position in the hand just before when that row has the same
    key, and neither hand holds a key twice (a hand with the same keys in the same order as the hand
    before holds one twice when that hand does: checked only where the roster changes).  The other
    rows, and the rows no row continues, are few; they alone are sorted, and each of the others
    finds its previous row among them (the row before a broken chain of continued rows is the end of
    the chain before: it is among them)."""
    n = h.len()
    rows = pl.int_range(n, dtype=pl.Int64, eager=True)
    spans = _spans(h, hands) if n else None
    if spans is None:  # no fast path: every row is sorted
        start = count = pl.repeat(None, hands, dtype=pl.Int64, eager=True)
        fast, cand = pl.repeat(False, n, eager=True), pl.repeat(None, n, dtype=pl.Int64, eager=True)
        look = rows
    else:
        start, count = spans
        # the row at the same position in the hand before: row - (start - start before), while the
        # position is below the count of the hand before
        per = pl.DataFrame({"s": start, "c": count}).select(
            dist=pl.col("s") - pl.col("s").shift(1), lim=pl.col("s") + pl.col("c").shift(1)
        )
        hd = per.select(pl.all().gather(h))
        cand = hd.select(pl.when(rows < pl.col("lim")).then(rows - pl.col("dist"))).to_series()
        fast = (key.gather(cand) == key).fill_null(False)
        # per hand: all its rows continue the hand before, which has as many (the same roster)
        run = pl.Series([0], dtype=pl.UInt32).append(fast.cast(pl.UInt32).cum_sum())
        same = ((run.gather(start + count) - run.gather(start)) == count) & (count == count.shift(1))
        same = same.fill_null(False)
        # a key twice in a hand: looked for in the hands that do not repeat the roster before them
        chk = _rows_of(start, count, ~same)
        twice = pl.repeat(False, hands, eager=True)
        if chk.len():
            pairs = pl.DataFrame({"h": h.gather(chk), "k": key.gather(chk)})
            dup = pairs.filter(pairs.is_duplicated())["h"].unique()
            twice = twice.scatter(dup, True)
        twice = twice.set(same, None).forward_fill()  # a repeated roster keeps the hand before's keys
        ok = ~twice & ~twice.shift(1, fill_value=False)
        bad = _rows_of(start, count, ~ok)
        if bad.len():
            fast = fast.scatter(bad, False)
        whole = same & ok  # every row of the hand is continued from the hand before
        # the rows not continued (the hands before a hand not wholly continued), and not continuing
        nxt = _rows_of(start, count, ~whole)
        nxt_fast = fast.gather(nxt)
        ends = _rows_of(start, count, ~whole.shift(-1, fill_value=False))
        ends = ends.filter(~ends.is_in(cand.gather(nxt.filter(nxt_fast)).implode()))
        look = pl.concat([nxt.filter(~nxt_fast), ends]).unique()
    few = pl.DataFrame({"_row": look, "_h": h.gather(look), "_k": key.gather(look)}).sort(["_k", "_h", "_row"])
    few = few.select("_row", "_h", _prev=pl.when(pl.col("_k") == pl.col("_k").shift(1)).then(pl.col("_row").shift(1)))
    few = few.filter(~fast.gather(few["_row"]))
    prev = cand.set(~fast, None) if n else cand
    return _Links(start, count, prev, fast, few)


def _previous_rows(seats: pl.DataFrame, hands: int) -> pl.Series:
    """For each seat row (``pkey``: the player at the table, ``_h``: the hand's place in table order),
    the row of the same player's previous seat: the row before it in (``pkey``, ``_h``, row) order;
    null for the first (:func:`_links`)."""
    links = _links(seats["_h"].cast(pl.Int64), seats["pkey"], hands)
    return links.prev.scatter(links.few["_row"], links.few["_prev"])


def _span_sums(
    rows: pl.DataFrame,
    h: pl.Series,
    start: pl.Series,
    count: pl.Series,
    sums: dict[str, pl.Expr],
    mins: dict[str, pl.Expr],
    flags: dict[str, pl.Expr] | None = None,
) -> pl.DataFrame:
    """Sums and minimums over each hand's rows (``h``: the hand of each row, each hand's rows
    consecutive: ``start``, ``count``), one row per hand; null for a hand without rows.  Running
    sums, no group-by.  Integer sums wrap around like polars' ``sum``; ``mins`` values must lie
    within +-2**20; ``flags`` (booleans, null counted as false) are counted, three in one running sum
    of 21-bit fields when every hand has fewer than 2**21 rows."""
    flags = flags or {}
    width = 21
    mask = (1 << width) - 1
    packs = [list(flags)[i : i + 3] for i in range(0, len(flags), 3)]
    if (count.max() or 0) > mask:  # type: ignore[operator]
        packs = [[f] for f in flags]
    words = {
        f"_w{i}": pl.sum_horizontal(flags[f].fill_null(False).cast(pl.UInt64) * (1 << (width * j)) for j, f in
                                   enumerate(names))
        for i, names in enumerate(packs)
    }  # fmt: skip
    # g: the rank of the row's group (hand) in row order
    # (hands in order: the hand's own number)
    if h.is_sorted():
        gs = h.cast(pl.Int64)
    else:
        gs = (h != h.shift(1)).fill_null(True).cast(pl.Int64).cum_sum() if mins else h
    groups = int(gs[-1]) if mins and gs.len() else 0
    # a running minimum of (groups - g) * 2**21 + 2**20 + value: an earlier group's values are all larger
    keys = {
        n: pl.when(e.is_not_null())
        .then((groups - pl.col("_g")) * (1 << 21) + (1 << 20) + e.cast(pl.Int64))
        .otherwise((groups + 2) * (1 << 21))
        for n, e in mins.items()
    }
    vals = rows.with_columns(_g=gs).select(**sums, **words, **keys)
    end = start + count
    cols: dict[str, pl.Series] = {}

    before = (start - 1).clip(0)

    def total(v: pl.Series) -> pl.Series:
        run = (v.fill_null(0) if v.null_count() else v).cum_sum()
        return run.gather(end - 1) - run.gather(before).set(start == 0, 0)

    for name in sums:
        v = vals[name]
        cols[name] = total(v.cast(pl.UInt32) if v.dtype == pl.Boolean else v)
    for i, names in enumerate(packs):
        t = total(vals[f"_w{i}"])
        for j, f in enumerate(names):
            cols[f] = ((t // (1 << (width * j))) % (1 << width)).cast(pl.UInt32)
    own = (groups - gs.gather(start)) * (1 << 21)
    for name in mins:
        got = vals[name].cum_min().gather(end - 1) - own
        cols[name] = pl.select(pl.when((got >= 0) & (got < (1 << 21))).then(got - (1 << 20))).to_series()
    return pl.DataFrame(cols)


def _id_number(ids: pl.Series) -> tuple[pl.Series, bool]:
    """The hand number of :func:`table_keys` (the last digits of the id, at most 18), without the regular
    expression for the ids that are plain numbers of at most 18 digits (the value is the same); and
    whether every id is such a number."""
    no = ids.cast(pl.Int64, strict=False)
    plain = (no >= 0) & (ids.str.len_bytes() <= 18)
    plain = plain.fill_null(False)
    if bool(plain.all()):
        return no, True
    where = pl.int_range(ids.len(), dtype=pl.Int64, eager=True).filter(~plain)
    other = ids.filter(~plain).str.extract(r"(\d{1,18})\D*$").cast(pl.Int64, strict=False)
    return no.scatter(where, other), False


def _table_order(base: pl.DataFrame) -> tuple[pl.DataFrame, bool]:
    """What ``table_keys(...)[1]`` gives (``_r``, ``tkey``, ``k``), from the collected chainable hands;
    and whether every hand id is a plain number (:func:`_id_number`).

    A store's hands usually come table by table in time order: then no sort is needed (the tables'
    own order does not matter, only each table's), nor, without a repeated id, the first of each id
    (plain numbers rising along each table are not repeated: then the ids are not even hashed)."""
    no_, plain = _id_number(base["hand_id"])
    ids = base.select("_r", "tkey", "start_utc", _no=no_)
    top = pl.Int64.max()
    start = pl.col("start_utc").dt.epoch("us").fill_null(top)
    no = pl.col("_no").fill_null(top)
    same_t = pl.col("tkey") == pl.col("tkey").shift(1)
    later = (start > start.shift(1)) | ((start == start.shift(1)) & (no >= no.shift(1)))
    # each table one run of rows: as many runs as tables (every table begins a run)
    runs = ids.select(
        changes=(~same_t.fill_null(False)).sum(),
        tables=pl.col("tkey").filter(~same_t.fill_null(False)).n_unique(),
        ordered=(~same_t | later).all(),
    )
    changes, tables, ordered = runs.row(0)
    if not (changes == tables and ordered):
        ids = ids.sort(["tkey", "start_utc", "_no", "_r"], nulls_last=True)
    rising = plain and bool(ids.select((~same_t | (pl.col("_no") > pl.col("_no").shift(1))).all()).item())
    if not rising:
        ids = ids.with_columns(_id=base["hand_id"].hash(seed=13).gather(ids["_r"]))
        if ids.select((pl.col("tkey") ^ pl.col("_id")).n_unique()).item() < ids.height:
            ids = ids.unique(subset=["tkey", "_id"], keep="first", maintain_order=True)  # a repeated id: H001/H005's
    first = pl.when(~same_t.fill_null(False)).then(pl.int_range(pl.len(), dtype=pl.Int64)).forward_fill()
    return ids.select("_r", "tkey", k=pl.int_range(pl.len(), dtype=pl.Int64) - first), plain


def _check(df: pl.DataFrame, sf: pl.DataFrame, max_gap: timedelta, across: bool = True) -> pl.LazyFrame:
    """:func:`check` on the hands ``df`` and their seats ``sf`` (see :func:`flat_input`)."""
    # the chainable hands (as :func:`table_keys`; no copy when all are)
    keep = ~pl.col("cancelled").fill_null(False) & ~pl.col("pool").fill_null(False) & pl.col("table").is_not_null()
    base = df.with_row_index("_in")
    if not df.select((keep & pl.col("_has")).all()).item():
        base = base.filter(keep & pl.col("_has"))
    base = base.with_row_index("_r").with_columns(tkey=_key().hash(seed=11))
    order_, plain = _table_order(base)
    # the hands' scalar columns in table order: ``_r`` is the row number in ``base``, so a gather
    # (no join) puts them in place
    idx = order_["_r"]
    # the hands are already in table order, none left out (a store's and an export's usual order)
    ident = idx.len() == base.height and idx.is_sorted()
    scalars = base.drop("_r", "tkey", "_in", "_has")
    hd = order_.hstack(scalars if ident else scalars.select(pl.all().gather(idx)))
    same_table = pl.col("tkey") == pl.col("tkey").shift(1)
    hd = hd.with_columns([pl.when(same_table).then(pl.col(c).shift(1)).alias(f"prev_{c}") for c in _PREV])
    # a hand alone in its file (no hand of the table before or after it in the same file): an export
    # of single hands, which says nothing of the hands dealt between two such files
    next_same = (pl.col("tkey") == pl.col("tkey").shift(-1)).fill_null(False)
    alone = ((~same_table.fill_null(False) | (pl.col("path") != pl.col("path").shift(1)).fill_null(True))
             & (~next_same | (pl.col("path") != pl.col("path").shift(-1)).fill_null(True)))  # fmt: skip
    hd = hd.with_columns(_alone=alone).with_columns(_prev_alone=pl.when(same_table).then(pl.col("_alone").shift(1)))
    # one row per seat, with its hand's place in table order ``_h`` (null: a repeated hand id, left
    # out of the chain); in the usual case (every hand chainable, already in table order) the place
    # of a seat's hand is its hand's row: no lookup
    ex = sf
    if base.height != df.height:  # the seats of the chainable hands, with their hand's row in ``base``
        r_of = pl.repeat(None, df.height, dtype=pl.Int64, eager=True).scatter(base["_in"], base["_r"])
        ex = ex.with_columns(_in=r_of.gather(ex["_in"]))
    if not ident:
        place = pl.repeat(None, base.height, dtype=pl.Int64, eager=True)
        place = place.scatter(idx, pl.int_range(hd.height, eager=True))
        ex = ex.with_columns(_in=place.gather(ex["_in"]))
    ex = ex.rename({"_in": "_h"})
    if ex["_h"].null_count() or ex["player"].null_count():
        ex = ex.filter(pl.col("_h").is_not_null() & pl.col("player").is_not_null())
    h_of = ex["_h"].cast(pl.Int64)
    # a player of a table as one integer
    pkey = ex["player"].hash(seed=3) + hd["tkey"].gather(h_of)
    ex = ex.with_columns(pkey=pkey.rechunk() if pkey.n_chunks() > 1 else pkey)
    links = _links(h_of, ex["pkey"], hd.height)
    # each player's previous row at the table where it is in the hand just before (``just``): the
    # row the fast path found, or for the few other rows, the previous row when its hand is the one
    # just before (``last_k``: the place of the player's previous hand, for a return)
    few = links.few.with_columns(k=hd["k"].gather(links.few["_h"]),
                                 last_k=hd["k"].gather(h_of.gather(links.few["_prev"])))  # fmt: skip
    few = few.with_columns(_just=pl.when(pl.col("last_k") == pl.col("k") - 1).then(pl.col("_prev")))
    just = links.prev.scatter(few["_row"], few["_just"]) if few.height else links.prev
    pb = hd["prev_button"].cast(pl.Int64)
    sd = ex.select(
        "seat", "stack", "active", "added",
        prev_final=pl.col("final").gather(just), prev_active=pl.col("active").gather(just).fill_null(False),
        # where the button should go: the first seat dealt in clockwise from the previous button, as
        # a distance from it
        dist=(pl.col("seat").cast(pl.Int64) - pb.gather(h_of) - 1) % 1000,
        # the seat's part of the hand's roster hash (see ``roster`` below)
        rh=pl.when(pl.col("active").fill_null(False))
        .then((pl.col("pkey") + pl.col("seat").cast(pl.UInt64) * 0x9E3779B97F4A7C15).hash(seed=5)).otherwise(0),
    )  # fmt: skip
    d = pl.col("stack") - pl.col("prev_final")
    # the few rows whose stack changed since the hand just before
    ch = sd.with_row_index("_i").filter(pl.col("prev_final").is_not_null() & (d != 0))
    ci = ch["_i"].cast(pl.Int64)
    cj, ch_h = just.gather(ci), h_of.gather(ci)
    ch = ch.with_columns(
        d=d, prev_added=ex["added"].gather(cj).fill_null(False), prev_collected=ex["collected"].gather(cj),
        prev_seat=ex["seat"].gather(cj), _h=ch_h, k=hd["k"].gather(ch_h), last_k=hd["k"].gather(ch_h) - 1,
    )  # fmt: skip
    # a shrink of at most a tenth of what the player just collected: the collect line printed the
    # pot before the rake (a site's misprint, not chips taken off the table); not judged
    rake_like = (d < 0) & (-d * 10 <= pl.col("prev_collected").fill_null(0))
    ch = ch.with_columns(skip=pl.col("added").fill_null(False) | pl.col("prev_added") | rake_like.fill_null(False))
    ch = ch.filter(~pl.col("skip"))
    updown = ch.group_by("_h").agg(ups=(pl.col("d") > 0).sum(), downs=(pl.col("d") < 0).sum())
    active = pl.col("active").fill_null(False)
    # per hand (in table order), over its seats
    per = _span_sums(
        sd, h_of, links.start, links.count,
        # the players dealt in, as an order-free hash of (seat, player)
        sums={"roster": pl.col("rh")},
        mins={"want_dist": pl.when(active).then(pl.col("dist"))},
        flags={
            "joined": active & ~pl.col("prev_active"),
            # how many players are dealt in
            "dealt": active,
            # the previous hand's button seat is dealt in here (heads-up going on, not beginning)
            "btn_dealt": active & (pl.col("dist") == 999),
        },
    )  # fmt: skip
    seated = links.count.is_not_null()

    def count_of(c: str) -> pl.Series:
        return pl.repeat(0, hd.height, dtype=pl.UInt32, eager=True).scatter(updown["_h"], updown[c]).set(~seated, None)

    per = per.with_columns(ups=count_of("ups"), downs=count_of("downs"))
    h = (
        hd.hstack(per.with_columns(pl.col("btn_dealt") > 0))
        .with_row_index("_h")
        .lazy()
        .with_columns(
            prev_roster=pl.when(same_table).then(pl.col("roster").shift(1)),
            want=((pl.col("want_dist") + pl.col("prev_button").cast(pl.Int64) + 1) % 1000),
        )
    )
    # the seats a rule below can name: a return after hands away, a changed stack
    back_rows = few.filter(pl.col("last_k").is_not_null() & (pl.col("k") - pl.col("last_k") > 1))
    named = pl.concat([
        back_rows.select(_i="_row", _h="_h", k="k", last_k="last_k"),
        ch.select(pl.col("_i").cast(pl.Int64), "_h", "k", "last_k", "seat", "stack", "d", "skip", "prev_final",
                  "prev_seat"),
    ], how="diagonal_relaxed")  # fmt: skip
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

    if plain:  # plain numbers: no counter
        jump = pl.lit(False)
    else:  # the previous hand's counter: this one's of the hand before, in one table
        prefix_a, a_no = counter("hand_id")
        h = h.with_columns(_cp=prefix_a, _cn=a_no)
        prefix_a, a_no = pl.col("_cp"), pl.col("_cn")
        prefix_b, b_no = (pl.when(same_table).then(pl.col(c).shift(1)) for c in ("_cp", "_cn"))
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
    ni = named["_i"]
    s: pl.LazyFrame = named.with_columns(player=ex["player"].gather(ni), line=ex["line"].gather(ni)).lazy()
    s = s.join(h.select("_h", *common, "gap", "top_ups"), on="_h", how="inner")
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
        # posts the big blind twice in a row (Poker TDA 2026 Rule 36-B, 2024: 34-B: button in heads-up)
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
    if across:
        parts.append(schedule.check(df.lazy()).select(cols))
    out = pl.concat(parts, how="vertical_relaxed").cast(FINDINGS)  # type: ignore[arg-type]
    # (the reason last: a gap and a schedule row of one hand, T001 both, in one order however polars sorts)
    return out.sort(["path", "line", "code", "player", "reason"], nulls_last=True)


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
        elif code == "T001" and r["reason"] == "clock":
            msg = schedule.gap_message(prev if r["prev_hand_id"] is not None else None)
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
