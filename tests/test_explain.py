"""``hhaudit explain``: the pot-by-pot view, checked on the seed's worked examples."""

from __future__ import annotations

import subprocess
import sys

from auditor.audit import audit_hand
from auditor.explain import explain_hand, render_text
from auditor.formats import parse_text
from auditor.model import Hand
from auditor.profiles import PROFILES
from tests.conftest import FIXTURES

# Seed 003, first example: A all-in 80, B all-in 210, C 350; board 2h 5d 8c Js Kd;
# A As Ah, B Qs Qh, C Tc Td.  Main 80 x 3 = 240 (A, B, C) to A; side (210 - 80) x 2 = 260 (B, C)
# to B; 350 - 210 = 140 returned to C.
SEED_003_A = """PokerStars Hand #990000000301: Tournament #1000000002, $10+$1 USD Hold'em No Limit - \
Level I (5/10) - 2026/01/01 12:00:00 ET
Table '1000000002 1' 9-max Seat #3 is the button
Seat 1: A (80 in chips)
Seat 2: B (210 in chips)
Seat 3: C (1000 in chips)
A: posts small blind 5
B: posts big blind 10
*** HOLE CARDS ***
C: raises 340 to 350
A: calls 75 and is all-in
B: calls 200 and is all-in
Uncalled bet (140) returned to C
*** FLOP *** [2h 5d 8c]
*** TURN *** [2h 5d 8c] [Js]
*** RIVER *** [2h 5d 8c Js] [Kd]
*** SHOW DOWN ***
B: shows [Qs Qh] (a pair of Queens)
C: shows [Tc Td] (a pair of Tens)
B collected 260 from side pot
A: shows [As Ah] (a pair of Aces)
A collected 240 from main pot
*** SUMMARY ***
Total pot 500 Main pot 240. Side pot 260. | Rake 0
Board [2h 5d 8c Js Kd]
Seat 1: A (small blind) showed [As Ah] and won (240) with a pair of Aces
Seat 2: B (big blind) showed [Qs Qh] and won (260) with a pair of Queens
Seat 3: C (button) showed [Tc Td] and lost with a pair of Tens
"""


def hand(text: str) -> Hand:
    (h,) = [x for x in parse_text(text, "seed.txt") if isinstance(x, Hand)]
    return h


def test_seed_003_layer_table() -> None:
    x = explain_hand(audit_hand(hand(SEED_003_A), PROFILES["pokerstars"]))
    assert [(p.label, p.arithmetic, p.eligible) for p in x.pots] == [
        ("main", "80 × 3 = 240", "A, B, C"),
        ("side-1", "(210 − 80) × 2 = 260", "B, C"),
    ]
    assert x.uncalled == ["350 − 210 = 140 returned to C"]
    assert [p.winners for p in x.pots] == ["A 240 (best hand)", "B 260 (best hand)"]
    assert x.findings == []
    text = render_text(x)
    assert "80 × 3 = 240" in text and "(210 − 80) × 2 = 260" in text and "Findings: none" in text


def test_wrong_payout_is_explained_with_the_rule() -> None:
    bad = SEED_003_A.replace("B collected 260 from side pot", "C collected 260 from side pot")
    bad = bad.replace("and won (260) with a pair of Queens", "and lost").replace(
        "and lost with a pair of Tens", "and won (260)"
    )
    x = explain_hand(audit_hand(hand(bad), PROFILES["pokerstars"]))
    codes = sorted({f.code for f in x.findings})
    assert codes == ["A004"]
    rows = {p.player: p for p in x.players}
    assert (rows["B"].should_get, rows["B"].got, rows["B"].ok) == ("260", "0", False)
    assert (rows["C"].should_get, rows["C"].got, rows["C"].ok) == ("0", "260", False)
    assert "TDA 2026 Rule 23" in x.findings[0].message


def test_explain_command() -> None:
    path = FIXTURES / "samples" / "disputed_reraise.txt"
    r = subprocess.run([sys.executable, "-m", "auditor.cli", "explain", str(path), "--hand", "#250000000101"],
                       capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 1
    assert "2.50 × 3 + 1.00 = 8.50" in r.stdout
    assert "16.00 − 6.00 = 10.00 returned to Amir" in r.stdout
    assert "B001 illegal-reraise" in r.stdout and "TDA 2026 Rule 49-A (2024: 47-A)" in r.stdout
    missing = subprocess.run([sys.executable, "-m", "auditor.cli", "explain", str(path), "--hand", "1"],
                             capture_output=True, text=True, check=False)  # fmt: skip
    assert missing.returncode == 2


def _explain_fixture(path: str, hand_id: str) -> str:
    from auditor.profiles import for_hand

    text = (FIXTURES / path).read_text(encoding="utf-8")
    hands = [h for h in parse_text(text) if isinstance(h, Hand) and h.hand_id == hand_id]
    a = audit_hand(hands[0], for_hand(hands[0].site, None))
    return render_text(explain_hand(a))


def test_a_format_that_prints_no_total_is_not_shown_a_printed_total() -> None:
    # Microgaming XML prints the rake, not the total: the reader computes the claim's total, so the
    # explanation must not present it as printed (it said "(printed €0.30)")
    text = _explain_fixture("exports/microgaming/cash_nlhe_posted_to_play_dead_sb_2011.txt", "4160087729")
    assert "total pot €0.30 (the site prints no total)" in text
    assert "printed €0.30" not in text


def test_unattributed_antes_are_named_not_called_dead() -> None:
    # Boss Media 2011: antes printed only as a total (P010); the layer arithmetic names them
    text = _explain_fixture("exports/bossmedia/tournament_mtt_antes_unattributed_2011.txt", "5855055")
    assert "+ 200.00 antes not attributed to players = 4,800.00" in text
    assert "200.00 dead" not in text
