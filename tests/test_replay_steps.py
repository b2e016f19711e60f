"""The replay builds each ``Step`` with ``betting._new_step`` (in pure Python a function that stores
the fields on a new instance, not the class's ``__init__``; compiled, the native constructor),
completed by ``Replay._took``: on every fixture hand and on six corpus sites' hands, every step has
every declared field set, and is equal to the Step its own constructor builds from those fields."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from auditor.formats import Chunk, parse_chunk
from auditor.pipeline import Summary, iter_chunks
from auditor.profiles import for_hand
from auditor.replay import Step, replay
from auditor.replay.betting import _new_step
from tests.conftest import FIXTURES, corpus_dir
from tests.handbuilder import HandBuilder

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


def test_new_step_is_the_constructor() -> None:
    hb = HandBuilder((1, 2), [("ann", 100), ("bob", 100), ("cat", 100)])
    hb.post_blinds()
    hb.raw("cat: raises 4 to 6")
    h = hb.hand()
    for s in replay(h, for_hand(h.site, None)).steps:
        values = [getattr(s, name) for name in FIELDS]
        made = _new_step(*values)
        assert type(made) is Step and made == Step(*values) == s
        assert [getattr(made, name) for name in FIELDS] == values


def test_every_fixture_step_has_every_field() -> None:
    assert _check_folder(FIXTURES) > 1000


@pytest.mark.parametrize("site", ["pokerstars", "ggpoker", "winamax", "ipoker", "partypoker", "888poker"])
def test_every_corpus_step_has_every_field(site: str) -> None:
    assert _check_folder(corpus_dir(site)) > 100


def test_replay_state_is_slotted() -> None:
    """``Replay`` keeps its state in slots (33 attributes: past the 30 names an instance dict
    shares, every ``self.x`` of pure Python reads a plain dict): a base replay has no ``__dict__``;
    the stud and draw replays keep one for their own few attributes.  Compiled, the class is native."""
    from auditor.formats import REGISTRY
    from auditor.replay.betting import Replay

    hb = HandBuilder((1, 2), [("ann", 100), ("bob", 100), ("cat", 100)])
    hb.post_blinds()
    hb.raw("cat: raises 4 to 6")
    h = hb.hand()
    r = Replay(h, for_hand(h.site, None), REGISTRY.facts_for(h))
    if hasattr(Replay, "__mypyc_attrs__"):
        pytest.skip("compiled: a native class has no instance dict")
    assert not hasattr(r, "__dict__")
    r.run()
    assert not hasattr(r, "__dict__")
