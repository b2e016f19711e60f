"""Stud and draw: RULES-style vectors (bring-in, completion, open pair, razz order, hi/lo odd chip)
and mutation tests on real PokerStars stud and draw hands (wrong bring-in player, action out of
order on a later street, wrong bet size, pot to the wrong half), each caught with code and line."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from auditor import model as M
from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import parse_text
from auditor.ingest import expand_paths
from auditor.replay.showdown import evaluate, odd_chip_order
from auditor.replay.stud import STREET_NUMBER, bring_in_due, showing_key
from tests.conftest import CORPUS

HEAD = """PokerStars Game #1000000001:  {game} Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
Table 'Vector' 8-max
Seat 1: Ann ($2.00 in chips)
Seat 3: Bob ($2.00 in chips)
Seat 5: Cat ($2.00 in chips)
Seat 7: Dan ($2.00 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
Cat: posts the ante $0.01
Dan: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [{a}]
Dealt to Bob [{b}]
Dealt to Cat [{c}]
Dealt to Dan [{d}]
"""
TAIL = """*** SUMMARY ***
Total pot {total} | Rake $0
"""


def audit(text: str) -> list[Finding]:
    items = list(parse_text(text))
    hands = [h for h in items if isinstance(h, M.Hand)]
    assert len(hands) == 1, items
    return audit_hand(hands[0]).findings


def codes(found: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in found if f.code[0] in "BSAH"]


def stud(game: str, cards: tuple[str, str, str, str], body: str, total: str = "$0.10") -> str:
    a, b, c, d = cards
    return HEAD.format(game=game, a=a, b=b, c=c, d=d) + body + TAIL.format(total=total)


FOLD_TO = """{bring}: brings in for $0.02
{o1}: folds
{o2}: folds
{o3}: folds
Uncalled bet ($0.02) returned to {bring}
{bring} collected $0.04 from pot
"""


def folds(order: list[str]) -> str:
    return FOLD_TO.format(bring=order[0], o1=order[1], o2=order[2], o3=order[3])


# --------------------------------------------------------------------------- bring-in
def test_bring_in_lowest_upcard_by_suit() -> None:
    # 2c is lowest (clubs lowest suit): Cat brings in, then Dan, Ann, Bob act
    ok = stud("7 Card Stud", ("Td", "2d", "2c", "8s"), folds(["Cat", "Dan", "Ann", "Bob"]), "$0.04")
    assert codes(audit(ok)) == []
    bad = stud("7 Card Stud", ("Td", "2d", "2c", "8s"), folds(["Bob", "Cat", "Dan", "Ann"]), "$0.04")
    assert ("B012", 16) in codes(audit(bad))


def test_razz_bring_in_highest_upcard_aces_low() -> None:
    # razz: the K brings in, the spade king over the diamond king; the ace is low
    ok = stud("Razz", ("Kd", "As", "Ks", "5c"), folds(["Cat", "Dan", "Ann", "Bob"]), "$0.04")
    assert codes(audit(ok)) == []
    bad = stud("Razz", ("Kd", "As", "Ks", "5c"), folds(["Ann", "Bob", "Cat", "Dan"]), "$0.04")
    assert ("B012", 16) in codes(audit(bad))


# --------------------------------------------------------------------------- completion
COMPLETE = """Cat: brings in for $0.02
Dan: raises $0.02 to {to}
Ann: folds
Bob: folds
Cat: folds
Uncalled bet ({back}) returned to Dan
Dan collected $0.08 from pot
"""


def test_completion_to_the_small_bet() -> None:
    ok = stud("7 Card Stud", ("Td", "2d", "2c", "8s"), COMPLETE.format(to="$0.04", back="$0.02"), "$0.08")
    assert codes(audit(ok)) == []
    bad = stud("7 Card Stud", ("Td", "2d", "2c", "8s"), COMPLETE.format(to="$0.06", back="$0.04"), "$0.08")
    assert ("B009", 17) in codes(audit(bad))


# --------------------------------------------------------------------------- later streets
FOURTH = """Cat: brings in for $0.02
Dan: calls $0.02
Ann: calls $0.02
Bob: folds
*** 4th STREET ***
Dealt to Ann [{a}] [{a4}]
Dealt to Cat [{c}] [{c4}]
Dealt to Dan [{d}] [{d4}]
{first}: bets {bet}
{second}: folds
{third}: folds
Uncalled bet ({bet}) returned to {first}
{first} collected $0.10 from pot
"""


def fourth(game: str, up: tuple[str, str, str, str], fourth_cards: tuple[str, str, str], order: list[str],
           bet: str = "$0.04") -> str:  # fmt: skip
    a, _b, c, d = up
    body = FOURTH.format(a=a, c=c, d=d, a4=fourth_cards[0], c4=fourth_cards[1], d4=fourth_cards[2],
                         first=order[0], second=order[1], third=order[2], bet=bet)  # fmt: skip
    return stud(game, up, body, "$0.10")


def test_best_showing_hand_acts_first_on_fourth_street() -> None:
    # Ann shows Td 9c, Cat 2c Kh (king high), Dan 8s 8d (a pair): Dan acts first, then Ann, Cat
    up, four = ("Td", "2d", "2c", "8s"), ("9c", "Kh", "8d")
    assert codes(audit(fourth("7 Card Stud", up, four, ["Dan", "Ann", "Cat"]))) == []
    found = codes(audit(fourth("7 Card Stud", up, four, ["Ann", "Cat", "Dan"])))
    assert found and found[0] == ("B004", 24)


def test_open_pair_allows_the_big_bet_in_stud_high_only() -> None:
    up, four = ("Td", "2d", "2c", "8s"), ("9c", "Kh", "8d")
    assert codes(audit(fourth("7 Card Stud", up, four, ["Dan", "Ann", "Cat"], bet="$0.08"))) == []
    # no open pair: the big bet on fourth street is the wrong size
    found = codes(audit(fourth("7 Card Stud", up, ("9c", "Kh", "7d"), ["Cat", "Dan", "Ann"], bet="$0.08")))
    assert ("B009", 24) in found


def test_razz_lowest_showing_hand_acts_first() -> None:
    # razz upcards Kd / As / Ks / 5c: Cat (Ks) brings in; fourth: Ann Kd 2h, Cat Ks 3d, Dan 5c 4h -> Dan lowest
    up, four = ("Kd", "As", "Ks", "5c"), ("2h", "3d", "4h")
    assert codes(audit(fourth("Razz", up, four, ["Dan", "Ann", "Cat"]))) == []
    found = codes(audit(fourth("Razz", up, four, ["Ann", "Cat", "Dan"])))
    assert found and found[0] == ("B004", 24)


def test_showing_keys() -> None:
    assert showing_key(("8s", "8d")) > showing_key(("As", "Kd"))
    assert showing_key(("2s", "2d", "3c", "3h")) < showing_key(("2s", "2d", "2c", "3h"))
    # razz: unpaired beats paired, then the lowest
    assert showing_key(("As", "2d"), aces_low=True) < showing_key(("3s", "2d"), aces_low=True)
    assert showing_key(("Ks", "Qd"), aces_low=True) < showing_key(("2s", "2d"), aces_low=True)


# --------------------------------------------------------------------------- awards
def test_hilo_odd_chip_goes_high_and_stud_odd_chip_by_suit() -> None:
    hi, lo = evaluate("stud_hilo", ("Ah", "Ad", "Kc", "Ks", "9d", "9h", "Qc"))
    assert lo is None  # no eight-or-better low
    h2, l2 = evaluate("stud_hilo", ("As", "2d", "3c", "4h", "7s", "Kd", "Kh"))
    assert l2 is not None and hi > h2
    hand = M.Hand("pokerstars", "1", "-", 1, 1, "stud_hilo", "", "FL", 4, 8, "USD", 2, None, 8, None, None, None,
                  None, None, False, 1, None, (), (), True, False)  # fmt: skip
    shown = {"Ann": ("Ah", "Kd", "2c"), "Bob": ("Ac", "Ks", "3d")}
    # a tie: the odd chip to the highest card by suit (the ace of hearts beats the ace of clubs)
    assert odd_chip_order(hand, ["Bob", "Ann"], shown, sorted) == ["Ann", "Bob"]


def test_draw_evaluators() -> None:
    assert (
        evaluate("27_triple", ("7c", "5h", "4c", "3c", "2d"))[0]
        > evaluate("27_triple", ("8h", "2s", "4d", "5s", "3s"))[0]
    )
    assert (
        evaluate("27_triple", ("7c", "5h", "4c", "3c", "2d"))[0]
        > evaluate("27_triple", ("6c", "5h", "4c", "3c", "2d"))[0]
    )
    assert (
        evaluate("a5_triple", ("5c", "4h", "3c", "2c", "Ad"))[0]
        > evaluate("a5_triple", ("6c", "4h", "3c", "2c", "Ad"))[0]
    )
    assert evaluate("badugi", ("Ac", "2d", "3h", "4s"))[0] > evaluate("badugi", ("Ac", "2d", "3h", "4h"))[0]
    assert (
        evaluate("razz", ("Ac", "2d", "3h", "4s", "5s", "Kd", "Kh"))[0]
        > evaluate("razz", ("Ac", "2d", "3h", "4s", "6s", "Kd", "Kh"))[0]
    )
    assert evaluate("5card", ("Ac", "Ad", "3h", "4s", "6s")) is not None
    assert evaluate("5card", ("Ac", "Ad", "3h", "4s")) is None


# --------------------------------------------------------------------------- mutations on real hands
def _corpus_hands(*folders: str) -> Iterator[tuple[list[str], M.Hand]]:
    roots = [CORPUS / "pokerstars" / f for f in folders if (CORPUS / "pokerstars" / f).is_dir()]
    if not roots:
        pytest.skip(f"shared corpus not found at {CORPUS} (set HHAUDIT_CORPUS to its location)")
    for path in expand_paths(str(r) for r in roots):
        if not path.endswith(".txt"):
            continue
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
        blocks = [b for b in text.replace("\r\n", "\n").split("\n\n\n") if b.strip().startswith("PokerStars")]
        for b in blocks:
            lines = b.strip("\n").split("\n")
            items = [h for h in parse_text("\n".join(lines) + "\n") if isinstance(h, M.Hand)]
            if len(items) == 1:
                yield lines, items[0]


def _first(lines: list[str], code: str) -> list[tuple[str, int | None]]:
    items = [h for h in parse_text("\n".join(lines) + "\n") if isinstance(h, M.Hand)]
    assert len(items) == 1
    return [(f.code, f.line) for f in audit_hand(items[0]).findings if f.code == code]


def _clean(hand: M.Hand) -> bool:
    return not [f for f in audit_hand(hand).findings if f.code[0] in "BSAH"]


def test_mutation_wrong_bring_in_player() -> None:
    caught = 0
    for lines, hand in _corpus_hands("cash-stud", "tournament-stud", "tournament-mixed"):
        post = next((e for e in hand.events if isinstance(e, M.Post) and e.kind == "bring_in"), None)
        nxt = next((e for e in hand.events if isinstance(e, M.Action) and post and e.line > post.line), None)
        if post is None or nxt is None or not _clean(hand):
            continue
        if bring_in_due(hand, {}) is None and not _has_due(hand):
            continue
        mutated = list(lines)
        i, j = post.line - 1, nxt.line - 1
        mutated[i] = mutated[i].replace(post.player + ":", nxt.player + ":", 1)
        mutated[j] = mutated[j].replace(nxt.player + ":", post.player + ":", 1)
        assert ("B012", post.line) in _first(mutated, "B012"), "\n".join(mutated[: post.line + 2])
        caught += 1
        if caught >= 10:
            break
    assert caught >= 3


def _has_due(hand: M.Hand) -> bool:
    from auditor.profiles import for_hand
    from auditor.replay.betting import replay

    t = replay(hand, for_hand(hand.site, None))
    return bring_in_due(hand, t.players) is not None


def test_mutation_out_of_order_on_a_later_street() -> None:
    caught = 0
    for lines, hand in _corpus_hands("cash-stud", "tournament-stud"):
        acts = [e for e in hand.events if isinstance(e, M.Action) and STREET_NUMBER.get(e.street, 0) >= 5]
        pair = next(((a, b) for a, b in itertools.pairwise(acts) if a.street == b.street
                     and b.line == a.line + 1 and a.player != b.player and a.kind in ("check", "bet")
                     and b.kind in ("check", "bet")), None)  # fmt: skip
        if pair is None or not _clean(hand):
            continue
        a, b = pair
        mutated = list(lines)
        mutated[a.line - 1], mutated[b.line - 1] = mutated[b.line - 1], mutated[a.line - 1]
        found = _first(mutated, "B004")
        assert found and found[0] == ("B004", a.line), (hand.hand_id, found)
        caught += 1
    assert caught >= 3


def test_mutation_wrong_bet_size_on_a_big_bet_street() -> None:
    caught = 0
    for lines, hand in _corpus_hands("cash-stud", "tournament-stud", "cash-draw"):
        bet = next((e for e in hand.events if isinstance(e, M.Action) and e.kind == "bet" and not e.all_in
                    and (STREET_NUMBER.get(e.street, 0) >= 5 or e.street in ("draw2", "draw3"))), None)  # fmt: skip
        if bet is None or hand.structure != "FL" or not _clean(hand):
            continue
        mutated = list(lines)
        text = mutated[bet.line - 1]
        half = bet.to // 2
        amount = f"{half / 100:.2f}" if hand.decimals == 2 else str(half)
        head, _, _ = text.partition(" bets ")
        mutated[bet.line - 1] = f"{head} bets {'$' if '$' in text else ''}{amount}"
        found = _first(mutated, "B009")
        assert found and found[0] == ("B009", bet.line), (hand.hand_id, mutated[bet.line - 1], found)
        caught += 1
    assert caught >= 3


def test_mutation_pot_to_the_wrong_half() -> None:
    caught = 0
    for lines, hand in _corpus_hands("cash-stud", "tournament-stud", "tournament-mixed"):
        if hand.game != "stud_hilo":
            continue
        collects = [e for e in hand.events if isinstance(e, M.Collect)]
        if len(collects) != 2 or collects[0].player == collects[1].player or not _clean(hand):
            continue
        a, b = collects
        mutated = list(lines)
        mutated[b.line - 1] = mutated[b.line - 1].replace(b.player + " collected", a.player + " collected", 1)
        items = [h for h in parse_text("\n".join(mutated) + "\n") if isinstance(h, M.Hand)]
        found = [(f.code, f.line) for f in audit_hand(items[0]).findings if f.code in ("A004", "A007")]
        assert found, hand.hand_id
        caught += 1
    assert caught >= 1


# --------------------------------------------------------------------------- fixtures: one real hand per game
#: the stud and draw fixtures (real hands, goldens beside them) and the game each must parse as
STUD_DRAW_FIXTURES = {
    "pokerstars/stud_high_showdown": ("stud", None),
    "pokerstars/stud_hilo_split": ("stud_hilo", None),
    "pokerstars/razz_showdown": ("razz", None),
    "pokerstars/draw_27_triple_showdown": ("draw", "27_triple"),
    "pokerstars/draw_27_single_nl_allin": ("draw", "27_single"),
    "pokerstars/draw_badugi_showdown": ("draw", "badugi"),
    "pokerstars/draw_5card_fl_showdown": ("draw", "5card"),
    "fulltilt/draw_a5_triple": ("draw", "a5_triple"),
}


@pytest.mark.parametrize("name", sorted(STUD_DRAW_FIXTURES))
def test_stud_and_draw_fixtures_audit_clean(name: str) -> None:
    from auditor.replay.draw import draw_variant
    from tests.conftest import FIXTURES

    path = FIXTURES / "sites" / f"{name}.txt"
    items = list(parse_text(path.read_text("utf-8"), path=str(path)))
    hands = [h for h in items if isinstance(h, M.Hand)]
    assert len(hands) == 1 and len(items) == 1, items
    game, variant = STUD_DRAW_FIXTURES[name]
    assert hands[0].game == game
    assert variant is None or draw_variant(hands[0]) == variant
    a = audit_hand(hands[0])
    assert a.trace.betting, "the betting replay must judge the hand"
    assert not a.findings, [(f.code, f.line, f.message) for f in a.findings]
    if name != "fulltilt/draw_a5_triple":  # the A-5 hand ends before a showdown
        assert a.pots is not None and a.pots.decided and a.pots.awards


def test_mutation_draws_exceed_the_deck() -> None:
    """H006 on real triple-draw hands: every opponent's draw line made a draw of the whole hand; with
    no reshuffle of the discards (``draw_reshuffle = "none"``) the rounds together then take more
    cards than the stub holds, caught at the first draw line of the round that runs out."""
    import dataclasses
    import re

    from auditor.profiles import for_hand
    from auditor.replay.draw import draw_variant

    pat = re.compile(r"^(?P<who>.+): (discards \d+ cards?|stands pat)$")
    caught = 0
    for lines, hand in _corpus_hands("cash-draw", "tournament-draw"):
        variant = draw_variant(hand)
        if variant not in ("27_triple", "badugi") or not _clean(hand):
            continue
        size = 4 if variant == "badugi" else 5
        profile = dataclasses.replace(for_hand(hand.site, None), draw_reshuffle="none")
        if [f for f in audit_hand(hand, profile).findings if f.code == "H006"]:
            continue  # the real hand already drew past the stub: the site reshuffled (the default profile)
        mutated = list(lines)
        for i, text in enumerate(mutated):
            m = pat.match(text)
            if m and not mutated[i + 1].startswith("Dealt to "):
                mutated[i] = f"{m['who']}: discards {size} cards"
        items = [h for h in parse_text("\n".join(mutated) + "\n") if isinstance(h, M.Hand)]
        assert len(items) == 1
        draws = [e for e in items[0].events if isinstance(e, M.Draw)]
        players = len({e.player for e in items[0].events if isinstance(e, M.HoleCards | M.Draw)})
        stub, total, expected = 52 - size * players, 0, None
        for street in dict.fromkeys(d.street for d in draws):
            total += sum(d.discarded for d in draws if d.street == street)
            if total > stub:
                expected = next(d.line for d in draws if d.street == street)
                break
        if expected is None:
            continue  # too few players drawing to run the stub out
        found = [(f.code, f.line) for f in audit_hand(items[0], profile).findings if f.code == "H006"]
        assert found and found[0] == ("H006", expected), (hand.hand_id, found, expected)
        caught += 1
    assert caught >= 3, caught


def _h006_hand(players: int, discard: int) -> str:
    names = [f"P{i}" for i in range(1, players + 1)]
    lines = ["PokerStars Game #1000000006:  5 Card Draw Limit ($0.10/$0.20 USD) - 2009/11/25 14:22:42 ET",
             f"Table 'Deck' 10-max Seat #{players} is the button"]  # fmt: skip
    lines += [f"Seat {i}: {n} ($2.00 in chips)" for i, n in enumerate(names, start=1)]
    lines += ["P1: posts small blind $0.05", "P2: posts big blind $0.10", "*** DEALING HANDS ***"]
    lines += [f"{n}: calls $0.10" for n in names[2:]] + ["P1: calls $0.05", "P2: checks", "*** FIRST DRAW ***"]
    lines += [f"{n}: discards {discard} cards" for n in names]
    lines += ["P1: bets $0.20"] + [f"{n}: folds" for n in names[1:]]
    pot = f"${players * 10 // 100}.{players * 10 % 100:02d}"
    lines += ["Uncalled bet ($0.20) returned to P1", f"P1 collected {pot} from pot", "*** SUMMARY ***",
              f"Total pot {pot} | Rake $0"]  # fmt: skip
    return "\n".join(lines) + "\n"


def test_h006_with_reshuffle_judges_each_draw_not_the_round() -> None:
    import dataclasses

    from auditor.profiles import for_hand

    # six players drawing four each: 24 cards in the round, 22 outside the hands; the discards are
    # reshuffled as the stub runs out, so every draw can be dealt (no finding) ...
    six = next(h for h in parse_text(_h006_hand(6, 4)) if isinstance(h, M.Hand))
    assert [f.code for f in audit_hand(six).findings] == []
    # ... but not with no reshuffle
    none = dataclasses.replace(for_hand(six.site, None), draw_reshuffle="none")
    assert [(f.code, f.line) for f in audit_hand(six, none).findings] == [("H006", 19)]
    # ten players hold 50 cards: a draw of three cannot be dealt even with the discards
    ten = next(h for h in parse_text(_h006_hand(10, 3)) if isinstance(h, M.Hand))
    found = [f for f in audit_hand(ten).findings if f.code == "H006"]
    assert [(f.line, f.data["expected"], f.data["actual"]) for f in found] == [(27, 2, 3)]
    assert "Draw Poker" in found[0].message


def test_stud_findings_cite_the_stud_rule() -> None:
    bad = stud("7 Card Stud", ("Td", "2d", "2c", "8s"), folds(["Bob", "Cat", "Dan", "Ann"]), "$0.04")
    b012 = [f for f in audit(bad) if f.code == "B012"]
    assert b012 and "Seven-Card Stud rule 1" in b012[0].message
    razz = stud("Razz", ("Kd", "Ks", "5c", "2d"), folds(["Ann", "Bob", "Cat", "Dan"]), "$0.04")
    b012 = [f for f in audit(razz) if f.code == "B012"]
    assert b012 and "Razz (the highest upcard" in b012[0].message
    # a betting code keeps the profile's rule and adds the stud rule that says who was due
    up, four = ("Td", "2d", "2c", "8s"), ("9c", "Kh", "8d")
    order = [f for f in audit(fourth("7 Card Stud", up, four, ["Ann", "Cat", "Dan"])) if f.code == "B004"]
    assert order and "TDA 2026 Rule 55-A" in order[0].message and "Seven-Card Stud rule 1" in order[0].message
