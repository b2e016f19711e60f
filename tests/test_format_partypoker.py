"""PartyPoker: the corpus folder read in full, its findings named, and violations injected into real
Party hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files (UTF-8 with or
without BOM, UTF-16 with stray NULs) counts the "***** Hand History for Game" lines.
"""

from __future__ import annotations

import ast
import codecs
import re
from pathlib import Path

import pytest

from auditor import model as M
from auditor.cli import main
from auditor.formats import REGISTRY, parse_text
from auditor.formats.facts import ExportFacts
from auditor.pipeline import Summary, iter_parsed
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import edit, every_hand_is_seen_and_parsed, first, site_fixture
from tests.test_mutations import audit_text

FOLDER = "partypoker"
SITE = "partypoker"
HEADER = re.compile(r"^\*{5} Hand History [Ff]or Game \w+ \*{5}", re.M)
EXPECTED = Path(__file__).parent / "corpus_expected" / f"{FOLDER}.tsv"
OPEN = Path(__file__).parent / "corpus_expected" / f"{FOLDER}.open.tsv"
AUDITED = ("B", "S", "A", "H")


def decoded(path: Path) -> str:
    """The text of a raw export, decoded without the ingest code: BOMs, UTF-16 and NULs handled here."""
    data = path.read_bytes()
    if data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        text = data.decode("utf-16")
    elif data[:4096].count(0) * 4 >= len(data[:4096]) > 0:
        text = data.decode("utf-16-le" if data[1:4096:2].count(0) >= data[0:4096:2].count(0) else "utf-16-be")
    else:
        text = data.decode("utf-8", errors="replace")
    return text.replace("\x00", "").replace("\ufeff", "").replace("\r\n", "\n").replace("\r", "\n")


def independent_count(folder: Path) -> int:
    return sum(len(HEADER.findall(decoded(p))) for p in sorted(folder.rglob("*.txt")))


@pytest.fixture(scope="module")
def corpus() -> tuple[Summary, list[tuple[object, list[object]]]]:
    d = corpus_dir(FOLDER)
    summary = Summary()
    results = [(hand, fs) for hand, fs in iter_parsed([str(d)], summary)]
    return summary, results  # type: ignore[return-value]


@pytest.mark.corpus
def test_every_hand_is_seen_and_parsed(corpus: tuple[Summary, list[tuple[object, list[object]]]]) -> None:
    every_hand_is_seen_and_parsed(FOLDER, SITE, independent_count, 151, all_seen=True, read=corpus)  # type: ignore[arg-type]


# The folder's serious findings are checked against tests/corpus_expected/partypoker.tsv by
# tests/test_corpus_expected.py, with every other folder's.


# ---------------------------------------------------------------- mutations of real Party hands


def fixture(name: str) -> list[str]:
    return site_fixture(SITE, name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "sites" / SITE).glob("*.txt")))
def test_fixture_hands_audit_clean(name: str) -> None:
    assert audit_text(fixture(name)) == []


def test_collected_one_cent_more_is_a010() -> None:
    tail = "net +$8.98[ 8s, Ks, 3d, Ad ] [ two pairs, aces and eights -- Ad,Ah,Th,8s,8d ]"
    lines, _ = edit(fixture("cash_plo_2026_summary"), f"Player1 balance $16, bet $7.02, collected $16, {tail}",
                    f"Player1 balance $16, bet $7.02, collected $16.01, {tail}")  # fmt: skip
    # A010 points at the summary's pot line (the claim the collected amounts break)
    assert first(lines, "A010") == lines.index("Main Pot: $16 Rake: $0.84") + 1


def test_classic_win_one_cent_more_is_caught() -> None:
    # classic hands print no total and no rake ($0.50 of a $0.52 pot: $0.02 rake); a win above the
    # whole pot is an error whatever the rake
    lines, n = edit(fixture("cash_fl_holdem"), "mraeolus wins $0.50 USD from the main pot with a pair of Aces.",
                    "mraeolus wins $0.53 USD from the main pot with a pair of Aces.")  # fmt: skip
    assert first(lines, "A010") == n


def test_pot_to_the_losing_hand_is_a004() -> None:
    lines, n = edit(fixture("cash_fl_holdem"), "mraeolus wins $0.50 USD from the main pot with a pair of Aces.",
                    "hmups wins $0.50 USD from the main pot with a pair of Aces.")  # fmt: skip
    assert first(lines, "A004") == n


def test_wager_beyond_the_stack_is_s001() -> None:
    lines, n = edit(fixture("cash_nlhe_allin_side_pot"), "TYRANNOMAN1 is all-In  [$3.03 USD]",
                    "TYRANNOMAN1 calls [$4.90 USD]")  # fmt: skip
    assert first(lines, "S001") == n


def test_duplicated_card_is_h002() -> None:
    lines, _ = edit(fixture("cash_nlhe_allin_side_pot"), "** Dealing River ** [ Tc ]", "** Dealing River ** [ 8c ]")
    assert first(lines, "H002") is not None


def test_actions_swapped_out_of_turn_is_b004() -> None:
    lines = fixture("cash_nlhe_allin_side_pot")
    i = lines.index("GrindAA folds")
    assert lines[i + 1] == "mumija80 folds"
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    assert first(lines, "B004") == i + 1


def test_raise_below_the_minimum_is_b002() -> None:
    # big blind $0.10: "raises [$0.15 USD]" makes $0.15, below the minimum raise to $0.20
    lines, n = edit(fixture("cash_nlhe_allin_side_pot"), "dr. spaz raises [$0.30 USD]", "dr. spaz raises [$0.15 USD]")
    assert first(lines, "B002") == n


def test_summary_raise_below_the_minimum_is_b002() -> None:
    lines, n = edit(fixture("cash_plo_2026_summary"), "Hero raises 0.85 to 0.85", "Hero raises 0.30 to 0.30")
    assert first(lines, "B002") == n


def test_explain_a_party_hand(capsys: pytest.CaptureFixture[str]) -> None:
    p = FIXTURES / "sites" / SITE / "cash_plo_2026_cash_out.txt"
    assert main(["explain", str(p), "--hand", "1770659766668adeb0h5qfm"]) == 0
    out = capsys.readouterr().out
    assert "Player2" in out and "Hero" in out


# ---------------------------------------------------------------- blinds taken silently (2005-2013 tournaments)


def hand_of(name: str) -> M.Hand:
    items = [h for h in parse_text("\n".join(fixture(name)) + "\n") if isinstance(h, M.Hand)]
    assert len(items) == 1
    return items[0]


def test_party_card_says_blinds_and_forced_all_ins_go_unprinted() -> None:
    assert ExportFacts().prints_blind_posts and ExportFacts().marks_all_in_posts  # defaults keep other formats
    facts = REGISTRY[SITE].facts
    assert not facts.prints_blind_posts and not facts.marks_all_in_posts


def test_silent_blinds_are_derived_posts_at_the_level_line() -> None:
    lines = fixture("tournament_nlhe_silent_blinds_2011")
    hand = hand_of("tournament_nlhe_silent_blinds_2011")
    posts = [e for e in hand.events if isinstance(e, M.Post)]
    # button seat 4: seat 5 (Player0) posts the small blind, seat 2 (Player9, wrapping round) the big blind
    assert [(p.player, p.kind, p.amount, p.derived) for p in posts] == [
        ("Player0", "small_blind", 150, True),
        ("Player9", "big_blind", 300, True),
    ]
    assert {p.line for p in posts} == {lines.index("Blinds(150/300)") + 1}
    # printed posts stay printed: no cash fixture has a derived post
    cash = hand_of("cash_fl_holdem")
    assert not any(isinstance(e, M.Post) and e.derived for e in cash.events)


def test_fixed_limit_stakes_give_half_the_small_bet_and_the_small_bet() -> None:
    posts = [e for e in hand_of("tournament_fl_silent_blinds_2012").events if isinstance(e, M.Post)]
    assert [(p.kind, p.amount) for p in posts] == [("small_blind", 100), ("big_blind", 200)]


def test_printed_antes_stay_and_heads_up_button_posts_the_small_blind() -> None:
    hand = hand_of("tournament_heads_up_antes_printed_2012")
    posts = [(e.player, e.kind, e.amount, e.derived) for e in hand.events if isinstance(e, M.Post)]
    assert posts == [
        ("Player0", "ante", 25, False),
        ("Player1", "ante", 25, False),
        ("Player0", "small_blind", 400, True),
        ("Player1", "big_blind", 800, True),
    ]


def test_a_player_moved_in_and_not_dealt_posts_no_blind() -> None:
    hand = hand_of("tournament_silent_blinds_player_moved_2012")
    posts = [(e.player, e.kind) for e in hand.events if isinstance(e, M.Post)]
    # button seat 3; seat 4 (Player7, just moved to the table) is not dealt in: seats 6 and 7 post
    assert posts == [("Player5", "small_blind"), ("Player3", "big_blind")]


def test_silent_blind_hand_win_one_chip_more_is_a010() -> None:
    lines, n = edit(
        fixture("tournament_nlhe_silent_blinds_2011"), "Player10 wins 1,050 chips", "Player10 wins 1,051 chips"
    )
    assert first(lines, "A010") == n


def test_silent_blind_hand_raise_below_the_minimum_is_b002() -> None:
    # big blind 300 (derived): "raises [400]" makes 400, below the minimum raise to 600
    lines, n = edit(fixture("tournament_nlhe_silent_blinds_2011"), "Player10 raises [600]", "Player10 raises [400]")
    assert first(lines, "B002") == n


def test_silent_blind_hand_wager_beyond_the_stack_is_s001() -> None:
    # Player10 has 1,430 chips
    lines, n = edit(fixture("tournament_nlhe_silent_blinds_2011"), "Player10 raises [600]", "Player10 raises [1,600]")
    assert first(lines, "S001") == n


def test_forced_all_in_blind_needs_no_all_in_mark() -> None:
    lines = fixture("cash_fl_holdem")
    lines, _ = edit(lines, "Seat 1: Gun5611 ( $2.02 USD )", "Seat 1: Gun5611 ( $0.02 USD )")
    assert first(lines, "S003") is None


# ---------------------------------------------------------------- preamble, explain


def test_preamble_before_the_first_hand_is_known_text() -> None:
    # what the client prints before every hand (tournament-flop/fpdb3/PLO-USD-STT-1.00.201008.Sample.txt)
    preamble = ["Game #9582205000 starts.", "", "#Game No : 9582205000"]
    lines = [*preamble, *fixture("tournament_plo_silent_blinds_2010")]
    assert not [f for f in audit_text(lines) if f.code == "P003"]
    assert not audit_text([" " + preamble[0], *lines[1:]])  # a leading space too (2010 cash exports)
    # anything else before the first hand is still reported
    assert [f.line for f in audit_text(["stray text", *lines]) if f.code == "P003"] == [1]
    # a file of preamble lines only holds no hand
    assert [f.code for f in audit_text(preamble)] == ["P003"]


# the first hand of tournament-flop/fpdb3/NLHE-USD-STT-10-201104.new.hand.delimiter.txt: Player0's
# all-in of 4,220 is called by nobody; "wins 5,120 chips" pays the pot (900) and the uncalled 4,220
_UNCALLED_IN_WIN = """***** Hand History for Game 10315754293 *****
NL Texas Hold'em $11 USD Buy-in Trny: 59658935 Level: 7  Blinds(300/600) - Friday, April 01, 11:44:54 CEST 2011
Table Turbo #1646865 (Real Money)
Seat 5 is the button
Total number of players : 2/6
Seat 5: Player0 ( 4,520 )
Seat 4: Player1 ( 7,480 )
Trny: 59658935 Level: 7
Blinds(300/600)
** Dealing down cards **
Dealt to Player0 [  Jh Kh ]
Player0 is all-In  [4,220]
Player1 folds
Player0 does not show cards.
Player0 wins 5,120 chips
"""


def test_explain_marks_no_mismatch_without_a_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "party.txt"
    p.write_text(_UNCALLED_IN_WIN, "utf-8")
    assert main(["explain", str(p), "--hand", "10315754293"]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and "Findings: none" in out
    # a real overpayment is still marked, with its finding
    p.write_text(_UNCALLED_IN_WIN.replace("wins 5,120", "wins 5,130"), "utf-8")
    main(["explain", str(p), "--hand", "10315754293"])
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "A010" in out


# ---------------------------------------------------------------- fpdb sidecar


HP_FILE = "cash-flop/fpdb3/NLHE-USD-0.01-0.02-201008.Sample.txt"


@pytest.mark.corpus
def test_fpdb_hp_sidecar_agrees() -> None:
    """fpdb's .hp describes the file's first hand per player (cents): seat, starting stack, winnings
    and profit.  hhaudit's event log gives the same numbers (winnings = collected; profit = collected
    - posts - wagers; Party prints no uncalled returns, and in this hand nothing was uncalled)."""
    raw = corpus_dir(FOLDER) / HP_FILE
    fpdb = ast.literal_eval(raw.with_name(raw.name + ".hp").read_text("utf-8"))
    hand = next(h for h in parse_text(decoded(raw)) if isinstance(h, M.Hand))
    assert hand.decimals == 2
    ours: dict[str, dict[str, int]] = {}
    for s in hand.seats:
        put = sum(e.amount for e in hand.events if isinstance(e, M.Post) and e.player == s.player)
        put += sum(e.increment for e in hand.events if isinstance(e, M.Action) and e.player == s.player)
        won = sum(e.amount for e in hand.events if isinstance(e, M.Collect) and e.player == s.player)
        ours[s.player] = {"seatNo": s.seat, "startCash": s.stack, "winnings": won, "totalProfit": won - put}
    theirs = {p: {k: v[k] for k in ("seatNo", "startCash", "winnings", "totalProfit")} for p, v in fpdb.items()}
    assert ours == theirs
    # fpdb's per-player rake (3 cents, the winner's) is the pot less what was paid
    put_in = sum(e.amount for e in hand.events if isinstance(e, M.Post))
    put_in += sum(e.increment for e in hand.events if isinstance(e, M.Action))
    paid = sum(e.amount for e in hand.events if isinstance(e, M.Collect))
    assert put_in - paid == sum(v["rake"] for v in fpdb.values()) == 3
