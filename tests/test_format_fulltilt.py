"""Full Tilt Poker (classic text, 2005-2014) and the small PokerStars-format clone folders: corpus
parse rates against an independent header count, clean fixtures, and violations injected into real
Full Tilt hands caught with their code and line.

The independent count is a plain regex over the decoded files: "Full Tilt Poker Game #",
"FullTiltPoker Game #", "Full Tilt Poker.fr Game #" at a line start (summaries start "Full Tilt Poker
Tournament Summary" and are recognised, not hands; the 2016 exports "Full Tilt (Rush) Hand #" are
PokerStars text, read by the pokerstars card, and counted too).
"""

from __future__ import annotations

import re
from collections import Counter

from auditor.pipeline import Summary, iter_parsed
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import audit_text, codes_at, line_of, parse_rate

HEADER = re.compile(
    r"^\ufeff?(?:(?:Full Tilt Poker(?:\.fr)?|FullTiltPoker) Game|Full Tilt(?: Rush)? Hand) #\d+: ", re.M
)
STARS_HEADER = re.compile(r"^\ufeff?[A-Za-z][\w ]*? (?:Hand|Game) #\d+: ", re.M)
SITE = FIXTURES / "sites" / "fulltilt"
CLONES = FIXTURES / "sites" / "clones"

# Records the site wrote without seat lines (a header, then the summary or the blinds): read as
# partial records (auditor/formats/partial.py), each with one P010 saying what it lacks.
PARTIAL = {
    ("cash/hhparser-ggratte/ValidHandTests/InValidHand_1.txt", 1),  # the summary alone
    ("cash-draw/fpdb3/3-Draw-Limit-USD-20-40-201101.Partial.txt", 1),  # header says "(partial)"
    ("cash-flop/fpdb3/NLHE-6max-USD-25-50.200610.Observed.No.player.stacks.txt", 1),  # observed: no seats
    ("tournament-flop/fpdb3/NLHE-6max-Matrix-USD-26-201211.match4.txt", 98),  # header then summary
}


def test_corpus_parse_rate() -> None:
    folder = corpus_dir("fulltilt")
    r = parse_rate(folder, HEADER)
    assert r.seen == r.parsed + r.failed
    assert r.headers == r.seen
    assert r.failed == 0, [f.message for f in r.failures]
    assert r.parsed / r.seen >= 0.995


def test_partial_records_are_named_once() -> None:
    folder = corpus_dir("fulltilt")
    found: Counter[tuple[str, int]] = Counter()
    for _hand, fs in iter_parsed([str(folder)], Summary()):
        for f in fs:
            if f.code == "P010":
                found[(f.path.split("/fulltilt/", 1)[1], f.line)] += 1
    assert found == Counter(PARTIAL)


def test_clone_folders_parse_rate() -> None:
    for name in ("runitonce", "pokermaster", "pppoker", "upoker", "pokerbros"):
        r = parse_rate(corpus_dir(name), STARS_HEADER)
        assert r.headers == r.seen == r.parsed, name


def test_fixtures_are_clean() -> None:
    for p in [*sorted(SITE.glob("*.txt")), *sorted(CLONES.glob("*.txt"))]:
        assert [f.code for f in audit_text(p.read_text("utf-8"))] == [], p.name


def _plo() -> str:
    return (SITE / "cash_plo_2010.txt").read_text("utf-8")


def test_collect_plus_one_is_a010() -> None:
    bad = _plo().replace("Timoha777 wins the pot ($0.94)", "Timoha777 wins the pot ($0.95)")
    assert ("A010", line_of(bad, "Total pot")) in codes_at(audit_text(bad))


def test_changed_uncalled_return_is_a001() -> None:
    text = (SITE / "sng_lo8_2006.txt").read_text("utf-8")
    bad = text.replace("Uncalled bet of 80 returned to Hero", "Uncalled bet of 60 returned to Hero")
    assert ("A001", line_of(bad, "Uncalled bet")) in codes_at(audit_text(bad))


def test_wager_beyond_stack_is_s_code() -> None:
    bad = _plo().replace("Seat 5: Timoha777 ($0.98)", "Seat 5: Timoha777 ($0.30)")
    assert any(c.startswith("S") and line == line_of(bad, "Timoha777 calls $0.25")
               for c, line in codes_at(audit_text(bad)))  # fmt: skip


def test_duplicated_card_is_h002() -> None:
    bad = _plo().replace("Dealt to Hero [3d Jh 4s Kd]", "Dealt to Hero [3d Jh 4s Qc]")
    assert "H002" in {c for c, _ in codes_at(audit_text(bad))}


def test_actions_swapped_out_of_turn_is_b004() -> None:
    a, b = "rockinalex calls $0.02", "Timoha777 calls $0.02"
    bad = _plo().replace(f"{a}\n{b}", f"{b}\n{a}")
    assert ("B004", line_of(bad, "Timoha777 calls $0.02")) in codes_at(audit_text(bad))


def test_pot_to_losing_hand_is_a004() -> None:
    text = _plo()
    bad = (
        text.replace("Timoha777 wins the pot ($0.94)", "rockinalex wins the pot ($0.94)")
        .replace(
            "Seat 4: rockinalex showed [Js 6c 7d Ac] and lost with a pair of Sixes",
            "Seat 4: rockinalex showed [Js 6c 7d Ac] and won ($0.94) with a pair of Sixes",
        )
        .replace("and won ($0.94) with three of a kind, Queens", "and lost with three of a kind, Queens")
    )
    assert "A004" in {c for c, _ in codes_at(audit_text(bad))}


def test_raise_below_minimum_is_b002() -> None:
    text = (SITE / "cash_plo_rit_2012.txt").read_text("utf-8")
    # Hero raised to $12 (a raise of $8): a re-raise must go to $20 at least
    bad = text.replace("Player1 raises to $64", "Player1 raises to $16")
    assert ("B002", line_of(bad, "Player1 raises to $16")) in codes_at(audit_text(bad))


def test_explain_works_on_a_full_tilt_hand(capsys: object) -> None:
    from auditor.cli import main

    assert main(["explain", str(SITE / "cash_plo_2010.txt"), "--hand", "18932478237"]) in (0, None)


def test_tournament_summaries_and_2016_exports_are_known() -> None:
    """Full Tilt's tournament summary files (also Full Tilt Poker.fr) are recognised summaries, not
    P003; the 2016 "Full Tilt Hand #" / "Full Tilt Rush Hand #" exports are read as PokerStars text."""
    folder = corpus_dir("fulltilt")
    summary = Summary()
    codes: Counter[str] = Counter()
    for _h, fs in iter_parsed([str(folder / "summaries")], summary):
        codes.update(f.code for f in fs)
    assert codes["P003"] == 0 and summary.hands_seen == 0
    summary = Summary()
    hands = [h for h, _fs in iter_parsed([str(folder / "cash-flop" / "fpdb3")], summary) if h is not None]
    assert sum(1 for h in hands if h.site == "pokerstars" and "Full Tilt" in h.extras.get("brand", "")) == 2
