"""The canonical event log as polars tables: ``hands``, ``seats`` and ``events``.

Schemas are explicit (see :data:`HANDS`, :data:`SEATS`, :data:`EVENTS`); money columns are
``Int64`` minor units, with ``decimals`` on the hand saying how many decimal places one unit has.
``hand_no`` numbers the hands of one run and joins the three tables (a hand id alone is not unique
across sites and files).

``write_tables`` streams: rows are gathered in batches and written as numbered part files, so
memory stays bounded on large inputs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import fields
from typing import Any

import polars as pl

from auditor import model as M
from auditor.findings import Finding

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

SEATS: dict[str, pl.DataType] = {
    "hand_no": pl.Int64(),
    "hand_id": pl.String(),
    "seat": pl.Int16(),
    "player": pl.String(),
    "stack": pl.Int64(),
    "bounty": pl.Int64(),
    "sitting_out": pl.Boolean(),
    "line": pl.Int64(),
}

EVENTS: dict[str, pl.DataType] = {
    "hand_no": pl.Int64(),
    "hand_id": pl.String(),
    "seq": pl.Int32(),
    "type": pl.String(),
    "line": pl.Int64(),
    "col": pl.Int32(),
    "street": pl.String(),
    "run": pl.Int8(),
    "player": pl.String(),
    "kind": pl.String(),
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


def seat_rows(no: int, h: M.Hand) -> Iterator[dict[str, Any]]:
    for s in h.seats:
        yield {"hand_no": no, "hand_id": h.hand_id, "seat": s.seat, "player": s.player, "stack": s.stack,
               "bounty": s.bounty, "sitting_out": s.sitting_out, "line": s.line}  # fmt: skip


def event_row(no: int, hand_id: str, seq: int, e: M.Event) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(_EVENT_KEYS)
    row.update(hand_no=no, hand_id=hand_id, seq=seq, type=type(e).__name__)
    for f in fields(e):
        v = getattr(e, f.name)
        if f.name in ("pots", "fees"):
            v = [{"label": a, "amount": b} for a, b in v]
        elif f.name == "new_cards":
            if v:
                row["board_before"] = list(v)
            continue
        elif f.name == "discarded":
            row["amount"] = v
            continue
        elif isinstance(v, tuple):
            v = list(v)
        row[f.name] = v
    return row


def frames(hands: Iterable[M.Hand], start: int = 0) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The three tables for ``hands`` (numbered from ``start``)."""
    hr: list[dict[str, Any]] = []
    sr: list[dict[str, Any]] = []
    er: list[dict[str, Any]] = []
    for i, h in enumerate(hands, start):
        hr.append(hand_row(i, h))
        sr.extend(seat_rows(i, h))
        er.extend(event_row(i, h.hand_id, j, e) for j, e in enumerate(h.events))
    return (
        pl.DataFrame(hr, schema=HANDS, orient="row") if hr else pl.DataFrame(schema=HANDS),
        pl.DataFrame(sr, schema=SEATS, orient="row") if sr else pl.DataFrame(schema=SEATS),
        pl.DataFrame(er, schema=EVENTS, orient="row") if er else pl.DataFrame(schema=EVENTS),
    )


def write_tables(
    items: Iterable[tuple[M.Hand | None, list[Finding]]], out_dir: str, fmt: str = "parquet", batch: int = 20_000
) -> int:
    """Write ``hands``, ``seats`` and ``events`` (and ``findings``) under ``out_dir``; returns hands written.

    Parquet: ``<table>/part-00000.parquet`` ... (read a table with ``pl.scan_parquet(dir/'*.parquet')``).
    JSON Lines: ``<table>.jsonl``.
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
    written = 0
    part = 0

    def flush() -> None:
        nonlocal written, part
        dfs = frames(buf, written)
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
                if len(buf) >= batch:
                    flush()
    if buf or part == 0:
        flush()
    return written


def read_tables(out_dir: str) -> dict[str, pl.DataFrame]:
    """Read back a Parquet table directory written by :func:`write_tables`."""
    return {n: pl.read_parquet(os.path.join(out_dir, n, "*.parquet")) for n in ("hands", "seats", "events")}
