"""Disconnection all-ins: a site that keeps a disconnected or timed-out player in the hand, all-in
for what they put in (Everest "has been disconnected, and is allin", PKR "has been granted
disconnection protection", Absolute "All-In (Timeout)"), records it as a table event of kind
``disconnected_all_in``; the replay then owes no action to that player and limits what they can
win to what they matched.  Checked on the corpus hands that print it (no false alarm), and on a
hand where the same line is removed (the replay then finds the missing action again)."""

from __future__ import annotations

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.formats import Chunk, parse_chunk
from auditor.formats import vocab as V
from auditor.ingest import open_source, read_stream
from tests.conftest import corpus_dir
from tests.test_mutations import audit_text

CASES = [
    ("pkr", "cash-flop/fpdb3/NLHE-10max-USD-0.02-0.04-201208.disconnected.won.txt", "2138526544", "Player5"),
    ("absolute-ub", "cash-flop/fpdb3/LHE-USD-25-50-200708.timeout.allin.txt", "736583015", "HOLDINGQUADS"),
    ("pokertracker-converted", "cash-flop/fpdb3/NLHE-USD-0.50-1.00-201101.Everest.txt", "6474571169", "Player26"),
]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("has been disconnected, and is allin", "disconnected_all_in"),
        ("has disconnected and has been granted disconnection protection", "disconnected_all_in"),
        ("all-in (timeout)", "disconnected_all_in"),
        ("has become disconnected and has 10 seconds to reconnect", "disconnected"),
        ("is disconnected", "disconnected"),
        ("has timed out", "timed_out"),
    ],
)
def test_the_words_that_keep_a_player_all_in(text: str, kind: str) -> None:
    assert V.table_event_kind(text) == kind


def _hand(folder: str, rel: str, hand_id: str) -> tuple[M.Hand, list[str]]:
    path = corpus_dir(folder) / rel
    stream, size = open_source(str(path))
    with stream:
        for c in read_stream(stream, str(path), size)[1]:
            if isinstance(c, Chunk):
                hand, _ = parse_chunk(c)
                if hand is not None and hand.hand_id == hand_id:
                    return hand, list(c.lines)
    raise AssertionError(f"no hand {hand_id} in {path}")


@pytest.mark.corpus
@pytest.mark.parametrize(("folder", "rel", "hand_id", "player"), CASES, ids=[c[0] for c in CASES])
def test_the_disconnected_player_is_all_in_and_owes_no_action(folder: str, rel: str, hand_id: str,
                                                              player: str) -> None:  # fmt: skip
    hand, _ = _hand(folder, rel, hand_id)
    assert any(isinstance(e, M.TableEvent) and e.kind == "disconnected_all_in" and e.player == player
               for e in hand.events)  # fmt: skip
    betting = [f for f in audit_hand(hand).findings if f.code.startswith(("B", "S"))]
    assert betting == [], betting


@pytest.mark.corpus
def test_without_the_line_the_missing_action_is_found_again() -> None:
    # Everest: Player26 (small blind, 0.50) is due to call or fold before the big blind checks;
    # with "has been disconnected, and is allin" removed, the replay waits for that action again
    folder, rel, hand_id, _player = CASES[2]
    _, lines = _hand(folder, rel, hand_id)
    i = lines.index("Player26 has been disconnected, and is allin")
    assert not [f for f in audit_text(lines) if f.code.startswith("B")]
    cut = lines[:i] + lines[i + 1 :]
    assert any(f.code.startswith("B") for f in audit_text(cut))


def test_a_player_who_folded_stays_folded() -> None:
    from auditor.profiles import for_hand
    from auditor.replay.betting import replay

    hand, _ = _hand(*CASES[0][:3])
    # the same event for a player who folded earlier changes nothing (Player0 folded preflop)
    extra = M.TableEvent(line=34, col=1, street="preflop", run=1, player="Player0", kind="disconnected_all_in",
                         text="has been disconnected, and is allin")  # fmt: skip
    from dataclasses import replace

    t = replay(replace(hand, events=(*hand.events, extra)), for_hand(hand.site, None))
    assert t.players["Player0"].folded and not t.players["Player0"].all_in
