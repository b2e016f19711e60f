"""The replay builds each ``Step`` field by field (``Replay._step`` for a wager, ``Replay.on_post``
for a post, completed by ``Replay._took``), not through its ``__init__``: on every fixture hand and
every hand of the shared corpus, every step has every declared field set, and is equal to the
Step its own constructor builds from those fields."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from auditor.formats import Chunk, parse_chunk
from auditor.pipeline import Summary, iter_chunks
from auditor.profiles import for_hand
from auditor.replay import Step, replay
from tests.conftest import FIXTURES, corpus_dir

FIELDS = [f.name for f in dataclasses.fields(Step)]


def _check_folder(folder: Path) -> int:
    steps = 0
    for item in iter_chunks([str(folder)], Summary()):
        if not isinstance(item, Chunk):
            continue
        hand, _found = parse_chunk(item)
        if hand is None:
            continue
        for s in replay(hand, for_hand(hand.site, None)).steps:
            values = {name: getattr(s, name) for name in FIELDS}  # (AttributeError: a field left unset)
            assert Step(**values) == s, (hand.hand_id, s.index)
            assert isinstance(s.add, int) and isinstance(s.stack_after, int) and isinstance(s.all_in_after, bool)
            steps += 1
    return steps


def test_every_fixture_step_has_every_field() -> None:
    assert _check_folder(FIXTURES) > 1000


@pytest.mark.parametrize("site", ["pokerstars", "ggpoker", "winamax", "ipoker", "partypoker", "888poker"])
def test_every_corpus_step_has_every_field(site: str) -> None:
    assert _check_folder(corpus_dir(site)) > 100
