"""Issue 10: classes of real exports that were misread or raised false alarms, each checked on its
fixture (fixtures/sites/<format>/) through the one audit step."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from auditor import model as M
from auditor.formats import parse_text
from auditor.pipeline import Summary, iter_parsed
from tests.conftest import FIXTURES

PS = FIXTURES / "sites" / "pokerstars"
WMX = FIXTURES / "sites" / "winamax"
#: whole export files (several hands, or none): their expected findings are asserted here
EXPORTS = FIXTURES / "exports" / "pokerstars"


def audited(path: Path) -> tuple[Summary, list[M.Hand], Counter[str]]:
    s = Summary()
    hands: list[M.Hand] = []
    codes: Counter[str] = Counter()
    for h, fs in iter_parsed([str(path)], s):
        if h is not None:
            hands.append(h)
        codes.update(f.code for f in fs)
    return s, hands, codes


def hands_of(path: Path) -> list[M.Hand]:
    return [h for h in parse_text(path.read_text("utf-8")) if isinstance(h, M.Hand)]


def test_9stacks_button_straddle_and_net_total() -> None:
    _s, hands, codes = audited(PS)
    assert set(codes) == {"P009"}  # the converted fixtures of the folder, once a file
    hands = [h for h in hands if h.extras.get("brand") == "9stacks"]
    assert len(hands) == 2
    h = hands[0]
    assert h.extras["brand"] == "9stacks" and h.extras["table_id"] == "8123456" and h.currency == "INR"
    assert [e.kind for e in h.events if isinstance(e, M.Post)] == ["small_blind", "big_blind", "straddle"]
    # the same hand with "Total pot" gross of rake is wrong for 9stacks
    text = (PS / "ninestacks_button_straddle.txt").read_text("utf-8")
    bad = text.replace("Total pot Rs.129 | Rake Rs.6", "Total pot Rs.135 | Rake Rs.6")
    found = [f.code for x in parse_text(bad) if isinstance(x, M.Hand) for f in _audit(x)]
    assert found == ["A002"]


def _audit(hand: M.Hand) -> list[object]:
    from auditor.audit import audit_hand

    return list(audit_hand(hand).findings)


def test_inr_with_no_break_space_cash_and_buy_in() -> None:
    paths = [PS / "inr_nbsp_cash.txt", PS / "inr_nbsp_tournament_buyin.txt"]
    assert all("\u00a0" in p.read_text("utf-8") for p in paths)
    hands = [h for p in paths for h in audited(p)[1]]
    assert not any(audited(p)[2] for p in paths)
    assert hands[0].currency == "INR" and hands[0].decimals == 2
    assert hands[1].extras["buyin"] == "Rs.\u00a0500+Rs.\u00a050 INR" and hands[1].tournament_id == "3812345678"


def test_single_draw_betting_after_the_draw_is_a_street() -> None:
    _s, hands, codes = audited(PS / "single_draw_postdraw_raise.txt")
    assert not codes
    h = hands[0]
    raises = [e for e in h.events if isinstance(e, M.Action) and e.kind == "raise"]
    assert [e.street for e in raises] == ["preflop", "draw1", "draw1"]
    assert all(e.street == "draw1" for e in h.events if isinstance(e, M.Draw))


def test_summary_cards_before_the_hyphen_are_the_hole_cards() -> None:
    _s, hands, codes = audited(PS / "summary_showed_hole_and_best_five.txt")
    assert not codes
    shown = {e.player: e.cards for e in hands[0].events if isinstance(e, M.SeatResult) and e.cards}
    assert shown == {"Hero": ("Jh", "Js"), "marrow": ("Ac", "Kc")}


def test_k_totals_are_compared_to_their_printed_precision() -> None:
    _s, hands, codes = audited(WMX / "tournament_k_totals.txt")
    assert not codes
    claim = next(e for e in hands[0].events if isinstance(e, M.PotClaim))
    assert (claim.total, claim.unit) == (10340, 10)
    text = (WMX / "tournament_k_totals.txt").read_text("utf-8").replace("10.34k", "10.36k")
    found = [f.code for x in parse_text(text) if isinstance(x, M.Hand) for f in _audit(x)]
    assert found == ["A002"]


def test_identical_copy_is_info_and_a_conflicting_record_is_an_error() -> None:
    s, _hands, codes = audited(EXPORTS / "duplicate_copy_and_conflict.txt")
    assert s.hands_seen == s.hands_parsed == 3
    assert codes == Counter({"H005": 1, "H001": 1})
    fs = [f for _h, found in iter_parsed([str(EXPORTS / "duplicate_copy_and_conflict.txt")], Summary()) for f in found]
    h001 = next(f for f in fs if f.code == "H001")
    assert h001.data["text"] == "Hero collected $3.25 from pot" and h001.data["first_differs_at"] == 20


def test_tournament_summary_and_archive_separators_are_recognised() -> None:
    s, _hands, codes = audited(EXPORTS / "tournament_summary_file.txt")
    assert (s.hands_seen, sum(codes.values())) == (0, 0)
    s, hands, codes = audited(EXPORTS / "hand_archive_separators.txt")
    assert (s.hands_seen, s.hands_parsed) == (2, 2) and not codes
    assert hands[1].hand_id == "256600000102"


def test_converted_export_is_said_once_and_tracker_lines_are_read(tmp_path: Path) -> None:
    export = tmp_path / "converted.txt"
    names = ("converted_walk_tracker_lines", "converted_showdown_tracker_lines")
    export.write_text("\n\n\n".join((PS / f"{n}.txt").read_text("utf-8") for n in names), "utf-8")
    s, hands, codes = audited(export)
    assert (s.hands_seen, s.hands_parsed) == (2, 2)
    assert codes == Counter({"P009": 1})
    folds = [e.player for e in hands[0].events if isinstance(e, M.Action) and e.kind == "fold"]
    assert "PLR_4471920KX" in folds  # "folds (auth)" is a fold
    kinds = [e.kind for h in hands for e in h.events if isinstance(e, M.TableEvent)]
    assert kinds == ["joins", "leaves", "sitting_out", "returned", "other"]
    mucks = [e.cards for e in hands[1].events if isinstance(e, M.Muck)]
    assert mucks == [("As", "Ac", "7d", "7h")]


PARTY = FIXTURES / "sites" / "partypoker"
IPOKER = FIXTURES / "sites" / "ipoker"


def test_party_joiner_without_seat_line_is_placed_where_they_post() -> None:
    """Party prints no seat line for a player who joins as the hand starts and posts (or one with
    "$0"): the replay places them after the player before their post and never judges their
    stack; the hand audits clean, and a real fault around them is still caught."""
    for name in (
        "cash_joiner_without_seat_line.txt",
        "cash_joiner_zero_stack_seat.txt",
        # the header prints the buy-in, not the blinds, and the big blind is all-in for $0.01:
        # the nominal blind is what the first caller puts in ($0.02), not the short post
        "cash_buyin_header_short_allin_big_blind.txt",
    ):
        _s, hands, codes = audited(PARTY / name)
        assert len(hands) == 1 and not codes, (name, codes)
    from auditor.audit import audit_hand

    h = hands_of(PARTY / "cash_joiner_without_seat_line.txt")[0]
    trace = audit_hand(h).trace
    names = [pl.name for pl in trace.order]
    assert names[names.index("Player3") + 1] == "Player8"  # joined after the small blind (seat 9)
    assert not trace.players["Player8"].stack_known
    # the joiner acting before the small blind has completed is still out of turn
    text = (PARTY / "cash_joiner_without_seat_line.txt").read_text("utf-8")
    swapped = text.replace("Player3 calls [$0.02 USD]\nPlayer8 checks", "Player8 checks\nPlayer3 calls [$0.02 USD]")
    assert swapped != text
    bad = next(h for h in parse_text(swapped) if isinstance(h, M.Hand))
    assert "B004" in {f.code for f in audit_hand(bad).findings}


def test_ipoker_ante_then_sit_out_and_unmarked_button() -> None:
    """iPoker: a player who posts an ante and then sits out (type 9) is out of the hand; when no
    seat is marked as the dealer, a post-flop round starts with the small blind."""
    for name in ("cash_ante_then_sits_out.txt", "mtt_no_dealer_marked.txt"):
        _s, hands, codes = audited(IPOKER / name)
        assert len(hands) == 1 and not codes, (name, codes)
    assert hands[0].button is None


def test_run_it_once_2019_reraise_is_net_of_the_raisers_earlier_bet() -> None:
    """Run It Once, early 2019: "John R: raises 0.54 to 1.12" after his own 0.19 bet means a street
    total of 1.31 (Barre then calls 0.73, and the total pot agrees); the same text dated after the
    generation is read as the street total."""
    path = PS / "runitonce_2019_reraise_net_of_own_bet.txt"
    _s, hands, codes = audited(path)
    assert not codes
    raise_ = [e for e in hands[0].events if isinstance(e, M.Action) and e.player == "John R" and e.kind == "raise"][-1]
    assert (raise_.to, raise_.printed) == (131, 54)
    text = path.read_text("utf-8").replace("2019/02/08", "2020/02/08")
    later = next(h for h in parse_text(text) if isinstance(h, M.Hand))
    raise_ = [e for e in later.events if isinstance(e, M.Action) and e.player == "John R" and e.kind == "raise"][-1]
    assert raise_.to == 112
