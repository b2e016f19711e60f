"""``hhaudit parse`` builds its events rows faster and lets polars refuse an out-of-range integer
before fitting the rows in Python (issue 16: the tables were half of its time): the frames must
equal, value for value and type for type, the ones polars builds from the fitted rows of
:func:`auditor.tables.seat_rows` and :func:`auditor.tables.event_row` (what ``parse`` wrote before),
out-of-range integers made null the same way."""

from __future__ import annotations

import dataclasses
import io

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from auditor import model as M
from auditor import tables as T
from auditor.formats import Chunk, parse_chunk
from auditor.ingest import read_stream
from tests.conftest import FIXTURES, corpus_dir


def _hands(paths: list[object]) -> list[M.Hand]:
    out: list[M.Hand] = []
    for p in paths:
        data = p.read_bytes()  # type: ignore[attr-defined]
        for c in read_stream(io.BytesIO(data), str(p), len(data))[1]:
            if isinstance(c, Chunk):
                h, _ = parse_chunk(c)
                if h is not None:
                    out.append(h)
    return out


def _by_rows(hands: list[M.Hand], start: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The reference: a dict a row, read by polars (``frames`` before issue 16)."""
    sr: list[dict[str, object]] = []
    er: list[dict[str, object]] = []
    for i, h in enumerate(hands, start):
        sr.extend(T.seat_rows(i, h))
        key = T.hand_key(h)
        er.extend(T.event_row(i, h, j, e, key) for j, e in enumerate(h.events))
    seats = pl.DataFrame(T.fit_rows(sr, T.SEATS), schema=T.SEATS, orient="row") if sr else pl.DataFrame(schema=T.SEATS)
    events = (
        pl.DataFrame(T.fit_rows(er, T.EVENTS), schema=T.EVENTS, orient="row") if er else pl.DataFrame(schema=T.EVENTS)
    )
    return seats, events


def _same(hands: list[M.Hand], start: int = 0) -> None:
    _h, seats, events = T.frames(hands, start)
    want_seats, want_events = _by_rows(hands, start)
    assert_frame_equal(seats, want_seats)
    assert_frame_equal(events, want_events)
    assert seats.schema == T.SEATS and events.schema == T.EVENTS


def test_every_fixture_hand_gives_the_rows_frames() -> None:
    hands = _hands(sorted((FIXTURES / "sites").rglob("*.txt")))
    assert len({type(e) for h in hands for e in h.events}) >= 12  # most event classes
    _same(hands, start=7)


def test_no_hand_gives_empty_frames_of_the_schema() -> None:
    _same([])


@pytest.mark.parametrize(
    ("field", "value"),
    [("amount", 1 << 63), ("amount", -(1 << 63) - 1), ("seat", 1 << 15), ("line", 1 << 70), ("amount", None)],
)
def test_out_of_range_integers_become_null_as_before(field: str, value: object) -> None:
    """A corrupted value beyond its column's type nulls that cell only, in both builds."""
    hands = _hands([FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt"])
    h = hands[0]
    events = list(h.events)
    i = next(k for k, e in enumerate(events) if hasattr(e, field))
    events[i] = dataclasses.replace(events[i], **{field: value})  # type: ignore[type-var]
    seats = list(h.seats)
    seats[0] = dataclasses.replace(seats[0], seat=70_000, stack=1 << 64)
    bad = dataclasses.replace(h, events=tuple(events), seats=tuple(seats))
    _same([bad, *hands])
    _h, s, e = T.frames([bad])
    assert s["seat"][0] is None and s["stack"][0] is None
    if value is not None and field == "amount":
        assert e["amount"][i] is None


def test_an_out_of_range_integer_in_a_list_is_nulled_alone() -> None:
    """polars nulls an overflowing list element itself (no error, so no fitting): as ``fit_rows`` does."""
    h = _hands([FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt"])[0]
    events = list(h.events)
    i = next(k for k, e in enumerate(events) if getattr(e, "won", None))
    won = events[i].won  # type: ignore[attr-defined]
    events[i] = dataclasses.replace(events[i], won=(1 << 64, *won[1:]))  # type: ignore[type-var]
    _same([dataclasses.replace(h, events=tuple(events))])


@pytest.mark.corpus
@pytest.mark.parametrize(
    "folder",
    ["pokerstars", "ggpoker", "winamax", "ipoker", "partypoker", "bovada-ignition", "kingsclub", "merge-network"],
)
def test_corpus_hands_give_the_rows_frames(folder: str) -> None:
    d = corpus_dir(folder)
    hands = _hands(sorted(p for p in d.rglob("*") if p.is_file()))
    assert hands
    _same(hands[:3000])
