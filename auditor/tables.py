"""The canonical event log as polars tables: ``hands``, ``seats`` and ``events``.

Schemas are explicit (see :data:`HANDS_TABLE`, :data:`SEATS`, :data:`EVENTS`, documented column
by column in ``docs/schema.md``); money columns are ``Int64`` minor units, with ``decimals`` on the
hand saying how many decimal places one unit has.  Every table carries ``site``, ``hand_id`` and
``hand_key`` (``site:hand_id:path:first_line``), which is unique even when a hand id is repeated
(duplicates, re-exports) and the same in every output of the same file, so tables of two runs join
on it (or on ``site`` and ``hand_id``).  ``hand_no`` numbers the hands of one output only.
Enumerations (site, game, structure, event type, street, kind) are ``pl.Enum`` columns with the
model's values; ``start_utc`` is the hand's start as a UTC timestamp (:func:`auditor.times.utc_of`).

:data:`HANDS` and :func:`hand_row` are the base hand columns the batch audit store also uses.

``write_tables`` streams: rows are gathered in batches and written as numbered part files, so
memory stays bounded on large inputs.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields
from typing import Any, get_args

import polars as pl

from auditor import model as M
from auditor.findings import Finding
from auditor.times import utc_of


def _literal(t: Any) -> list[str]:
    return [str(v) for v in get_args(t)]


def _event_types() -> list[type[M.Event]]:
    """The event classes of the model (every subclass of Event defined in auditor.model)."""
    found = [c for c in vars(M).values() if isinstance(c, type) and issubclass(c, M.Event) and c is not M.Event]
    return sorted(found, key=lambda c: c.__name__)


def _kinds() -> list[str]:
    vals: list[str] = []
    for c in _event_types():
        hint = M.KINDS.get(c.__name__)  # (not the annotations: a compiled model's hold classes)
        for v in _literal(hint) if hint is not None else []:
            if v not in vals:
                vals.append(v)
    return vals


def _sites() -> list[str]:
    """Every format of the registry (the bundled format cards), sorted."""
    from auditor.formats import REGISTRY

    return sorted(REGISTRY.formats)


SITE = pl.Enum(_sites())
GAME = pl.Enum(_literal(M.Game))
STRUCTURE = pl.Enum(_literal(M.Structure))
STREET = pl.Enum(_literal(M.Street))
EVENT_TYPE = pl.Enum([c.__name__ for c in _event_types()])
KIND = pl.Enum(_kinds())
KEY: dict[str, pl.DataType] = {"hand_key": pl.String(), "site": SITE, "hand_id": pl.String(), "hand_no": pl.Int64()}

_POT = pl.List(pl.Struct({"label": pl.String, "amount": pl.Int64}))

HANDS: dict[str, pl.DataType] = {
    "hand_no": pl.Int64(),
    "site": pl.String(),
    "hand_id": pl.String(),
    "path": pl.String(),
    "first_line": pl.Int64(),
    "last_line": pl.Int64(),
    "game": pl.String(),
    "game_text": pl.String(),
    "structure": pl.String(),
    "small_blind": pl.Int64(),
    "big_blind": pl.Int64(),
    "ante": pl.Int64(),
    "cap": pl.Int64(),
    "currency": pl.String(),
    "decimals": pl.Int8(),
    "button": pl.Int16(),
    "max_seats": pl.Int16(),
    "table": pl.String(),
    "tournament_id": pl.String(),
    "level": pl.String(),
    "start_time": pl.String(),
    "time_zone": pl.String(),
    "play_money": pl.Boolean(),
    "complete": pl.Boolean(),
    "cancelled": pl.Boolean(),
    "runs": pl.Int8(),
    "extras": pl.String(),
}

_TYPED: dict[str, pl.DataType] = {"game": GAME, "structure": STRUCTURE, "currency": pl.Categorical()}

HANDS_TABLE: dict[str, pl.DataType] = {
    **KEY,
    **{k: _TYPED.get(k, v) for k, v in HANDS.items() if k not in KEY},
    "start_utc": pl.Datetime("us", "UTC"),
    "zone": pl.String(),
    "zone_assumed": pl.Boolean(),
}
"""The ``hands`` table written by ``hhaudit parse`` (see docs/schema.md)."""

SEATS: dict[str, pl.DataType] = {
    **KEY,
    "seat": pl.Int16(),
    "player": pl.String(),
    "stack": pl.Int64(),
    "bounty": pl.Int64(),
    "sitting_out": pl.Boolean(),
    "line": pl.Int64(),
}

EVENTS: dict[str, pl.DataType] = {
    **KEY,
    "seq": pl.Int32(),
    "type": EVENT_TYPE,
    "line": pl.Int64(),
    "col": pl.Int32(),
    "street": STREET,
    "run": pl.Int8(),
    "player": pl.String(),
    "kind": KIND,
    "amount": pl.Int64(),
    "increment": pl.Int64(),
    "to": pl.Int64(),
    "printed": pl.Int64(),
    "all_in": pl.Boolean(),
    "cap_reached": pl.Boolean(),
    "cards": pl.List(pl.String()),
    "board_before": pl.List(pl.String()),
    "description": pl.String(),
    "pot": pl.String(),
    "fee": pl.Int64(),
    "total": pl.Int64(),
    "rake": pl.Int64(),
    "pots": _POT,
    "fees": _POT,
    "seat": pl.Int16(),
    "won": pl.List(pl.Int64()),
    "text": pl.String(),
}

_EVENT_KEYS = tuple(EVENTS)


def hand_row(no: int, h: M.Hand) -> dict[str, Any]:
    row: dict[str, Any] = {k: getattr(h, k) for k in HANDS if k not in ("hand_no", "extras")}
    row["hand_no"] = no
    row["extras"] = json.dumps(h.extras, ensure_ascii=False, sort_keys=True) if h.extras else None
    return row


def hand_key(h: M.Hand) -> str:
    """``site:hand_id:path:first_line``: unique per hand, and the same in every output of a file."""
    return f"{h.site}:{h.hand_id}:{h.path}:{h.first_line}"


def table_hand_row(no: int, h: M.Hand) -> dict[str, Any]:
    """A row of the ``hands`` table: the base row, the key, and the start time in UTC."""
    row = hand_row(no, h)
    utc, zone, assumed = utc_of(h.site, h.start_time, h.time_zone, h.extras.get("date2"))
    row.update(hand_key=hand_key(h), start_utc=utc, zone=zone, zone_assumed=assumed if utc else None)
    return row


def seat_rows(no: int, h: M.Hand) -> Iterator[dict[str, Any]]:
    key = hand_key(h)
    for s in h.seats:
        yield {
            "hand_key": key, "site": h.site, "hand_no": no, "hand_id": h.hand_id, "seat": s.seat,
            "player": s.player, "stack": s.stack, "bounty": s.bounty, "sitting_out": s.sitting_out, "line": s.line,
        }  # fmt: skip


#: The field names of each event class (``dataclasses.fields`` costs ~20 us a call: 6 % of ``parse``).
_EVENT_FIELDS: dict[type, tuple[str, ...]] = {}


def event_row(no: int, h: M.Hand, seq: int, e: M.Event, key: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(_EVENT_KEYS)
    cls = type(e)
    row.update(hand_key=key or hand_key(h), site=h.site, hand_no=no, hand_id=h.hand_id, seq=seq, type=cls.__name__)
    names = _EVENT_FIELDS.get(cls)
    if names is None:
        names = _EVENT_FIELDS[cls] = tuple(f.name for f in fields(e))
    for name in names:
        v = getattr(e, name)
        if name in ("pots", "fees"):
            v = [{"label": a, "amount": b} for a, b in v]
        elif name == "new_cards":
            if v:
                row["board_before"] = list(v)
            continue
        elif name == "discarded":
            row["amount"] = v
            continue
        elif isinstance(v, tuple):
            v = list(v)
        row[name] = v
    return row


_BITS: dict[type, int] = {pl.Int8: 7, pl.Int16: 15, pl.Int32: 31, pl.Int64: 63}


def _fits(v: object, bits: int) -> bool:
    return not isinstance(v, int) or -(1 << bits) <= v < (1 << bits)


def fit_rows(rows: list[dict[str, Any]], schema: dict[str, pl.DataType]) -> list[dict[str, Any]]:
    """Make ``rows`` fit ``schema``'s integer columns: a value beyond its column's type (a seat of
    40,000 in an ``Int16``, an amount of 2^63 minor units) becomes null instead of failing the
    whole batch of rows.  Such values come only from corrupted input; the hand's findings say so."""
    checks: list[tuple[str, int, str]] = []  # column, bits, how: "v" value, "l" list, "s" list of structs
    for name, dt in schema.items():
        if type(dt) in _BITS:
            checks.append((name, _BITS[type(dt)], "v"))
        elif isinstance(dt, pl.List) and type(dt.inner) in _BITS:
            checks.append((name, _BITS[type(dt.inner)], "l"))
        elif dt == _POT:
            checks.append((name, 63, "s"))
    for row in rows:
        for name, bits, how in checks:
            v = row.get(name)
            if v is None:
                continue
            if how == "v" and not _fits(v, bits):
                row[name] = None
            elif how == "l" and not all(_fits(x, bits) for x in v):
                row[name] = [x if _fits(x, bits) else None for x in v]
            elif how == "s" and not all(_fits(x.get("amount"), bits) for x in v):
                row[name] = [{**x, "amount": x.get("amount") if _fits(x.get("amount"), bits) else None} for x in v]
    return rows


def fit_column(values: list[Any], dt: pl.DataType) -> list[Any]:
    """:func:`fit_rows` for one column (``values`` of a column of type ``dt``): the same values,
    out-of-range integers made null; ``values`` itself when nothing needs to change."""
    if type(dt) in _BITS:
        bits = _BITS[type(dt)]
        if all(_fits(v, bits) for v in values):
            return values
        return [v if v is None or _fits(v, bits) else None for v in values]
    if isinstance(dt, pl.List) and type(dt.inner) in _BITS:
        bits = _BITS[type(dt.inner)]
        return [v if v is None or all(_fits(x, bits) for x in v) else [x if _fits(x, bits) else None for x in v]
                for v in values]  # fmt: skip
    if dt == _POT:
        return [
            v if v is None or all(_fits(x.get("amount"), 63) for x in v)
            else [{**x, "amount": x.get("amount") if _fits(x.get("amount"), 63) else None} for x in v]
            for v in values
        ]  # fmt: skip
    return values


#: Each event class's plan for :func:`_event_dicts`: a getter of its fields that have a column
#: (one tuple in one call), their columns (``new_cards`` is ``board_before``, ``discarded`` is
#: ``amount``), and whether it has ``pots``/``fees`` or ``new_cards`` to convert.
_EVENT_PLANS: dict[type, tuple[Callable[[M.Event], tuple[Any, ...]], tuple[str, ...], bool, bool]] = {}
_RENAMED = {"new_cards": "board_before", "discarded": "amount"}


def _event_plan(cls: type, e: M.Event) -> tuple[Callable[[M.Event], tuple[Any, ...]], tuple[str, ...], bool, bool]:
    names = tuple(f.name for f in fields(e) if _RENAMED.get(f.name, f.name) in EVENTS)
    columns = tuple(_RENAMED.get(n, n) for n in names)
    getter = operator.attrgetter(*names) if len(names) > 1 else (lambda x: (getattr(x, names[0]),) if names else ())
    plan = (getter, columns, "pots" in names or "fees" in names, "new_cards" in names)
    return _EVENT_PLANS.setdefault(cls, plan)


def _event_dicts(hands: Iterable[tuple[int, M.Hand]]) -> list[dict[str, Any]]:
    """The ``events`` rows of ``hands`` (numbered): the values of :func:`event_row`, each row made
    in one ``dict.update`` (tuples are left for polars to read as lists; columns the event has
    not are left out: polars makes them null)."""
    rows: list[dict[str, Any]] = []
    plans = _EVENT_PLANS
    for no, h in hands:
        key, site, hand_id = hand_key(h), h.site, h.hand_id
        for seq, e in enumerate(h.events):
            cls = type(e)
            getter, columns, pots, board = plans.get(cls) or _event_plan(cls, e)
            row: dict[str, Any] = {
                "hand_key": key,
                "site": site,
                "hand_no": no,
                "hand_id": hand_id,
                "seq": seq,
                "type": cls.__name__,
            }
            row.update(zip(columns, getter(e), strict=True))
            if pots:
                for name in ("pots", "fees"):
                    if name in row:
                        row[name] = [{"label": a, "amount": b} for a, b in row[name]]
            if board and not row["board_before"]:  # no cards dealt: no board before
                row["board_before"] = None
            rows.append(row)
    return rows


def _frame(rows: list[dict[str, Any]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """A frame of ``schema`` from ``rows``; a value beyond its column's type (only corrupted input
    makes one) becomes null (:func:`fit_rows`, run only when polars refuses a value: it checks each
    row in Python, ~15 % of the tables' time, and polars already nulls what overflows in a list)."""
    if not rows:
        return pl.DataFrame(schema=schema)
    try:
        return pl.DataFrame(rows, schema=schema, orient="row")
    except Exception:  # (whatever polars raises: the rows fitted, as before)
        return pl.DataFrame(fit_rows(rows, schema), schema=schema, orient="row")


def frames(hands: Iterable[M.Hand], start: int = 0) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The three tables for ``hands`` (numbered from ``start``): the rows of :func:`table_hand_row`,
    :func:`seat_rows` and :func:`event_row`, the events' built faster (:func:`_event_dicts`, issue
    16: the tables were half of ``hhaudit parse``'s time); ``tests/test_tables_fast.py`` compares
    the frames with those of the plain rows."""
    numbered = list(enumerate(hands, start))
    return (
        _frame([table_hand_row(i, h) for i, h in numbered], HANDS_TABLE),
        _frame([r for i, h in numbered for r in seat_rows(i, h)], SEATS),
        _frame(_event_dicts(numbered), EVENTS),
    )


#: What one buffered row (a hand, a seat or an event) costs in memory until its part is written:
#: ~250 bytes of the ``Hand``'s objects and ~810 at the peak of building the part's frames
#: (measured with ``tracemalloc`` on the PokerStars corpus, 2,045 hands, 78,497 rows).
ROW_BYTES = 1_100
#: The estimated size (``ROW_BYTES`` a row) at which a part is written: ``hhaudit parse`` holds at
#: most about this much of hands at a time, whatever the size of its input.
PART_BYTES = 32 << 20


def write_tables(
    items: Iterable[tuple[M.Hand | None, list[Finding]]],
    out_dir: str,
    fmt: str = "parquet",
    batch: int = 20_000,
    part_bytes: int = PART_BYTES,
) -> int:
    """Write ``hands``, ``seats`` and ``events`` (and ``findings``) under ``out_dir``; returns hands written.

    Parquet: ``<table>/part-00000.parquet`` ... (read a table with ``pl.scan_parquet(dir/'*.parquet')``).
    JSON Lines: ``<table>.jsonl``.  A part is written when its hands' rows reach ``part_bytes``
    (estimated at ``ROW_BYTES`` a row) or ``batch`` hands, whichever comes first, so memory is
    bounded by size, not by a count of hands that may be large.
    """
    if fmt not in ("parquet", "jsonl"):
        raise ValueError(f"unknown table format {fmt!r}")
    os.makedirs(out_dir, exist_ok=True)
    names = ("hands", "seats", "events")
    for n in names:
        if fmt == "parquet":
            os.makedirs(os.path.join(out_dir, n), exist_ok=True)
        else:
            open(os.path.join(out_dir, f"{n}.jsonl"), "w").close()
    findings_path = os.path.join(out_dir, "findings.jsonl")
    buf: list[M.Hand] = []
    buffered = 0  # estimated bytes of ``buf``
    written = 0
    part = 0

    def flush() -> None:
        nonlocal written, part, buffered
        dfs = frames(buf, written)
        buffered = 0
        for n, df in zip(names, dfs, strict=True):
            if fmt == "parquet":
                df.write_parquet(os.path.join(out_dir, n, f"part-{part:05d}.parquet"))
            else:
                with open(os.path.join(out_dir, f"{n}.jsonl"), "a", encoding="utf-8") as f:
                    df.write_ndjson(f)
        written += len(buf)
        part += 1
        buf.clear()

    with open(findings_path, "w", encoding="utf-8") as ff:
        for hand, fs in items:
            for f in fs:
                ff.write(json.dumps(f.as_dict(), ensure_ascii=False) + "\n")
            if hand is not None:
                buf.append(hand)
                buffered += (1 + len(hand.seats) + len(hand.events)) * ROW_BYTES
                if len(buf) >= batch or buffered >= part_bytes:
                    flush()
    if buf or part == 0:
        flush()
    return written


def read_tables(out_dir: str) -> dict[str, pl.DataFrame]:
    """Read back a Parquet table directory written by :func:`write_tables`."""
    return {n: pl.read_parquet(os.path.join(out_dir, n, "*.parquet")) for n in ("hands", "seats", "events")}


def dtype_name(t: Any) -> str:
    """A column type as ``docs/schema.md`` writes it: ``Int64``, ``Enum``, ``Datetime(us, UTC)``,
    ``List(String)``, ``List(Struct(label: String, amount: Int64))``."""
    if isinstance(t, type):
        return t.__name__
    if isinstance(t, pl.Enum):
        return "Enum"
    if isinstance(t, pl.Datetime):
        return f"Datetime({t.time_unit}, {t.time_zone})"
    if isinstance(t, pl.List):
        return f"List({dtype_name(t.inner)})"
    if isinstance(t, pl.Struct):
        return "Struct(" + ", ".join(f"{f.name}: {dtype_name(f.dtype)}" for f in t.fields) + ")"
    return str(t.base_type().__name__)


SCHEMAS: dict[str, dict[str, pl.DataType]] = {"hands": HANDS_TABLE, "seats": SEATS, "events": EVENTS}
"""The three tables ``hhaudit parse`` writes, by name."""
