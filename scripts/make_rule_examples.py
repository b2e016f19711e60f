"""Write fixtures/rules/<CODE>/{bad,good}.txt: for every rule, a hand that breaks it and the same
hand that keeps it.  Run once and commit the files; tests/test_rule_examples.py checks that each
bad hand yields its code and each good hand audits clean.

    .venv/bin/python scripts/make_rule_examples.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.handbuilder import HandBuilder  # noqa: E402

OUT = ROOT / "fixtures" / "rules"
FIX = ROOT / "fixtures" / "sites" / "pokerstars"


HOLES = ["Ah Kd", "Qc Qs", "7h 6h", "Jd Tc", "9s 9c"]
OMAHA_HOLES = ["Ah Kd As Kh", "Qc Qs Jh Jc", "7h 6h 5c 4c", "Jd Tc 8d 8h", "9s 9c 3d 3h"]


def close_round(hb: HandBuilder) -> None:
    """Everyone still to act calls (or checks): the betting round ends the plain way."""
    from auditor.formats import REGISTRY
    from auditor.profiles import for_hand
    from auditor.replay.betting import Replay

    for _ in range(20):
        h = hb.hand()
        r = Replay(h, for_hand(h.site, None), REGISTRY.facts_for(h))
        r.run()
        nxt = r.next_to_act()
        if nxt is None:
            return
        pl, facts = nxt
        if facts["to_call"]:
            hb.call(pl.name)
        else:
            hb.check(pl.name)


def settle(hb: HandBuilder) -> str:
    """End a built hand the way a site would: the rest of the board, a showdown between the
    players left, the uncalled part returned, the pot collected as the rules award it."""
    from auditor.audit import audit_hand
    from auditor.profiles import for_hand

    live = [p.name for p in hb._ps.values() if not p.folded]
    streets = {line.split(" ***")[0] for line in hb.lines if line.startswith("*** ")}
    if len(live) > 1:
        close_round(hb)
        for name, deal in (("*** FLOP", hb.flop), ("*** TURN", hb.turn), ("*** RIVER", hb.river)):
            if name not in streets:
                deal()
                close_round(hb)
        hb.raw("*** SHOW DOWN ***")
        holes = OMAHA_HOLES if hb.game == "omaha" else HOLES
        for name, cards in zip(live, holes, strict=False):
            hb.raw(f"{name}: shows [{cards}]")
    h = hb.hand()
    pt = audit_hand(h, for_hand(h.site, None)).pots
    assert pt is not None
    for n, v in pt.expected_returns.items():
        hb.raw(f"Uncalled bet ({v}) returned to {n}")
    for n, v in pt.expected_paid.items():
        hb.raw(f"{n} collected {v} from pot")
    hb._total = pt.total_expected
    return hb.text()


def flop_pair(build: Callable[[HandBuilder, bool], None], **kw: object) -> tuple[str, str]:
    texts = []
    for bad in (True, False):
        hb = HandBuilder(**kw)  # type: ignore[arg-type]
        build(hb, bad)
        texts.append(settle(hb))
    return texts[0], texts[1]


def b001(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 100)
    hb.allin("B")
    hb.call("C")
    hb.raise_to("A", 250) if bad else hb.call("A")


def b002(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 10)
    hb.allin("B")
    hb.raise_to("C", 23 if bad else 24)


def b003(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 1 if bad else 2)


def b004(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    if bad:
        hb.bet("B", 10)
    else:
        hb.check("A")
        hb.bet("B", 10)


def b005(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 10)
    hb.fold("B")
    hb.call("C")
    if bad:
        hb.check("B")


def b006(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 10)
    hb.check("B") if bad else hb.call("B")
    hb.call("C")


def b007(hb: HandBuilder, bad: bool) -> None:
    hb.post_blinds()
    hb.call("C", 60 if bad else 100)


def b008(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 150)
    hb.raise_to("B", 601 if bad else 600)


def b009(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.check("A")
    hb.check("B")
    hb.check("C")
    hb.turn()
    hb.bet("A", 20)
    hb.raise_to("B", 30 if bad else 40)


def b010(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.bet("A", 10)
    hb.raise_to("B", 20)
    hb.raise_to("C", 30)
    hb.raise_to("A", 40)
    if bad:
        hb.raise_to("B", 50)


def b011(hb: HandBuilder, bad: bool) -> None:
    hb.post_blinds()
    hb.call("C")
    hb.call("A")
    if not bad:
        hb.check("B")
    hb.flop()


def s001(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    if bad:
        hb.bet("A", 300)
    else:
        hb.allin("A")


def s002(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.raw("A re-buys and receives 500 chips for $5")
    hb.bet("A", 300) if bad else hb.bet("A", 100)


def s003(hb: HandBuilder, bad: bool) -> None:
    hb.preflop_limp()
    hb.flop()
    hb.allin("A")
    if bad:
        hb.lines[-1] = hb.lines[-1].replace(" and is all-in", "")


BUILT: dict[str, tuple[Callable[[HandBuilder, bool], None], dict[str, object]]] = {
    "B001": (b001, {"blinds": (50, 100), "players": [("A", 1100), ("B", 250), ("C", 1100)], "tournament": True}),
    "B002": (b002, {"blinds": (1, 2), "players": [("A", 1002), ("B", 16), ("C", 1002)], "tournament": True}),
    "B003": (b003, {"blinds": (1, 2), "players": [("A", 100), ("B", 100), ("C", 100)], "tournament": True}),
    "B004": (b004, {"blinds": (5, 10), "players": [("A", 500), ("B", 500)], "button": "B", "tournament": True}),
    "B005": (b005, {"blinds": (1, 2), "players": [("A", 100), ("B", 100), ("C", 100)], "tournament": True}),
    "B006": (b006, {"blinds": (1, 2), "players": [("A", 100), ("B", 100), ("C", 100)], "tournament": True}),
    "B007": (b007, {"blinds": (50, 100), "players": [("A", 1000), ("B", 60), ("C", 1000)], "tournament": True}),
    "B008": (
        b008,
        {
            "blinds": (25, 50),
            "players": [("A", 2000), ("B", 2000), ("C", 2000)],
            "structure": "PL",
            "game": "omaha",
            "tournament": True,
        },
    ),
    "B009": (
        b009,
        {"blinds": (5, 10), "players": [("A", 500), ("B", 500), ("C", 500)], "structure": "FL", "tournament": True},
    ),
    "B010": (
        b010,
        {"blinds": (5, 10), "players": [("A", 500), ("B", 500), ("C", 500)], "structure": "FL", "tournament": True},
    ),
    "B011": (b011, {"blinds": (5, 10), "players": [("A", 500), ("B", 500), ("C", 500)], "tournament": True}),
    "S001": (s001, {"blinds": (1, 2), "players": [("A", 102), ("B", 500), ("C", 500)], "tournament": True}),
    "S002": (s002, {"blinds": (1, 2), "players": [("A", 102), ("B", 500), ("C", 500)], "tournament": True}),
    "S003": (s003, {"blinds": (1, 2), "players": [("A", 102), ("B", 500), ("C", 500)], "tournament": True}),
}


def h006_hand(discard: int) -> str:
    """Ten players at five card draw hold 50 cards, 2 are left: Ann draws ``discard``, the rest stand pat."""
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
    lines = ["PokerStars Game #1000000006:  5 Card Draw Limit ($0.10/$0.20 USD) - 2009/11/25 14:22:42 ET",
             "Table 'Deck' 10-max Seat #10 is the button"]  # fmt: skip
    lines += [f"Seat {i}: {n} ($2.00 in chips)" for i, n in enumerate(names, start=1)]
    lines += ["Ann: posts small blind $0.05", "Bob: posts big blind $0.10", "*** DEALING HANDS ***"]
    lines += [f"{n}: calls $0.10" for n in names[2:]] + ["Ann: calls $0.05", "Bob: checks", "*** FIRST DRAW ***"]
    lines += [f"Ann: discards {discard} cards"] + [f"{n}: stands pat" for n in names[1:]]
    lines += ["Ann: bets $0.20"] + [f"{n}: folds" for n in names[1:]]
    lines += ["Uncalled bet ($0.20) returned to Ann", "Ann collected $1.00 from pot", "*** SUMMARY ***",
              "Total pot $1.00 | Rake $0"]  # fmt: skip
    return "\n".join(lines) + "\n"


def edit(name: str, *pairs: tuple[str, str]) -> str:
    text = (FIX / name).read_text("utf-8")
    for old, new in pairs:
        assert old in text, (name, old)
        text = text.replace(old, new, 1)
    return text


def main() -> None:
    pairs: dict[str, tuple[str, str]] = {}
    for code, (fn, kw) in BUILT.items():
        pairs[code] = flop_pair(fn, **kw)
    basic = (FIX / "cash_nlhe_basic.txt").read_text("utf-8")
    zoom = (FIX / "zoom.txt").read_text("utf-8")
    # H001: a second, different record under the id (the rake changed); H005: an identical copy
    forged = basic.replace("alice collected $0.62", "alice collected $0.65").replace("Rake $0.03", "Rake $0")
    forged = forged.replace("collected ($0.62)", "collected ($0.65)")
    pairs["H001"] = (basic + "\n\n" + forged, basic + "\n\n" + zoom)
    pairs["H005"] = (basic + "\n\n" + basic, basic + "\n\n" + zoom)
    # P009: the header of a converted record (no time zone, no currency code)
    converted = ("($0.05/$0.10 USD) - 2024/03/02 20:15:07 ET", "($0.05/$0.10) - 2024/03/02 20:15:07")
    pairs["P009"] = (edit("cash_nlhe_basic.txt", converted), basic)
    # P010: a record the site wrote without seat lines (a Full Tilt record of the summary alone)
    ft = ROOT / "fixtures" / "sites" / "fulltilt" / "cash_plo_2010.txt"
    partial = ROOT / "fixtures" / "exports" / "fulltilt" / "fulltilt_summary_only.txt"
    pairs["P010"] = (partial.read_text("utf-8"), ft.read_text("utf-8"))
    h002 = edit("cash_nlhe_basic.txt", ("[Kc 7d 2s]", "[Kd 7d 2s]"), ("Board [Kc 7d 2s]", "Board [Kd 7d 2s]"))
    pairs["H002"] = (h002,
                     basic)  # fmt: skip
    pairs["H003"] = (edit("cash_nlhe_basic.txt", ("Table 'Andromeda IV' 6-max", "Table 'Andromeda IV' 4-max"),
                          ("Seat 4: dave", "Seat 7: dave"), ("Seat 4: dave", "Seat 7: dave")), basic)  # fmt: skip
    pairs["H004"] = (edit("cash_nlhe_basic.txt", ("Dealt to alice [Ah Kd]", "Dealt to alice [Ah Kd Qh]")), basic)
    pairs["P001"] = (edit("cash_nlhe_basic.txt", ("Table 'Andromeda IV' 6-max Seat #2 is the button\n", "")), basic)
    pairs["P002"] = (edit("cash_nlhe_basic.txt", ("dave: checks\n", "dave: checks\ndave: stares at the flop\n")),
                     basic)  # fmt: skip
    pairs["P003"] = ("<hands><hand id='1'/></hands>\n", basic)
    pairs["P005"] = ("\n".join(basic.splitlines()[:16]) + "\n", basic)
    pairs["P006"] = (edit("cash_nlhe_basic.txt", ("Seat 4: dave ($10 in chips)", "Seat 4: dave ($10.00001 in chips)")),
                     basic)  # fmt: skip
    # P007: a line of 70,000 characters inside a hand (the limit is 64 KiB)
    long_line = 'dave said, "' + "z" * 70_000 + '"'
    pairs["P007"] = (edit("cash_nlhe_basic.txt", ("dave: checks\n", f"dave: checks\n{long_line}\n")), basic)
    pairs["A001"] = (edit("cash_nlhe_basic.txt", ("Uncalled bet ($0.40) returned to alice\n", "")), basic)
    pairs["A002"] = (edit("cash_nlhe_basic.txt", ("Total pot $0.65", "Total pot $0.75")), basic)
    pairs["A010"] = (edit("cash_nlhe_basic.txt", ("alice collected $0.62", "alice collected $0.63")), basic)
    pairs["A004"] = (
        edit("cash_out.txt", ("nina collected $8.05", "omar collected $8.05")),
        (FIX / "cash_out.txt").read_text(),
    )
    a005 = edit("plo_side_pots.txt", ("eve collected $31.70 from side pot", "finn collected $31.70 from side pot"))
    pairs["A005"] = (a005,
                     (FIX / "plo_side_pots.txt").read_text())  # fmt: skip
    tourn = (FIX / "tournament_ante_bounty.txt").read_text("utf-8")
    pairs["A009"] = (edit("tournament_ante_bounty.txt", ("cat collected 3350", "cat collected 3340"),
                          ("Total pot 3350 | Rake 0", "Total pot 3350 | Rake 10")), tourn)  # fmt: skip
    pairs["D001"] = (edit("cash_out.txt", ("nina: shows [Qs Js] (a full house, Queens full of Aces)",
                                           "nina: shows [Qs Js] (a straight flush, Ace high)")),
                     (FIX / "cash_out.txt").read_text())  # fmt: skip
    # A003: the seed's 80 / 210 / 350 example (a tournament: no rake, so pots must equal their layers)
    from tests.test_explain import SEED_003_A

    pairs["A003"] = (SEED_003_A.replace("Main pot 240. Side pot 260.", "Main pot 250. Side pot 250."), SEED_003_A)
    # A006: a tie on a 8.05 net pot; the odd cent goes to the first winner left of the button (nina)
    tie = edit("cash_out.txt", ("omar: shows [Th Tc] (a full house, Tens full of Aces)",
                                "omar: shows [Qc Jc] (a full house, Queens full of Aces)"),
               ("nina collected $8.05 from pot\nomar cashed out the hand for $3.10 | Cash Out Fee $0.06",
                "nina collected $4.03 from pot\nomar collected $4.02 from pot"),
               ("showed [Qs Js] and won ($8.05)", "showed [Qs Js] and won ($4.03)"),
               ("showed [Th Tc] and lost with a full house, Tens full of Aces (cashed out)",
                "showed [Qc Jc] and won ($4.02) with a full house, Queens full of Aces"))  # fmt: skip
    pairs["A006"] = (tie.replace("nina collected $4.03", "nina collected $4.02").replace(
        "omar collected $4.02", "omar collected $4.03"), tie)  # fmt: skip
    # A007: hi-lo with an odd cent (rake 0.05 leaves 0.85): 0.43 to high, 0.42 to low
    hilo = edit("omaha_hilo_limit_split.txt", ("hal collected $0.43", "hal collected $0.43"),
                ("jon collected $0.43", "jon collected $0.42"), ("| Rake $0.04", "| Rake $0.05"),
                ("won ($0.43) with LO", "won ($0.42) with LO"))  # fmt: skip
    pairs["A007"] = (hilo.replace("hal collected $0.43", "hal collected $0.42").replace(
        "jon collected $0.42", "jon collected $0.43"), hilo)  # fmt: skip
    # A008: run it twice with an odd cent (rake 1.01 leaves 160.99): the first board takes 80.50
    rit = edit("run_it_twice.txt", ("| Rake €1", "| Rake €1.01"), ("max collected €80.50", "max collected €80.49"),
               ("won (€80.50) with a pair of Aces", "won (€80.49) with a pair of Aces"))  # fmt: skip
    pairs["A008"] = (rit.replace("lou collected €80.50", "lou collected €80.49").replace(
        "max collected €80.49", "max collected €80.50"), rit)  # fmt: skip
    # H006: a draw of three with two cards outside the players' hands (good: a draw of two)
    pairs["H006"] = (h006_hand(3), h006_hand(2))
    for code, (bad, good) in sorted(pairs.items()):
        d = OUT / code
        d.mkdir(parents=True, exist_ok=True)
        (d / "bad.txt").write_text(bad, "utf-8")
        (d / "good.txt").write_text(good, "utf-8")
    # P004: a byte that is not valid cp1252 (0x81), in an otherwise cp1252 file
    d = OUT / "P004"
    d.mkdir(parents=True, exist_ok=True)
    euro = (FIX / "run_it_twice.txt").read_text("utf-8")
    (d / "bad.txt").write_bytes(euro.encode("cp1252").replace(b"Mekbuda", b"Mek\x81uda", 1))
    (d / "good.txt").write_bytes(euro.encode("cp1252"))
    print(f"wrote {len(pairs) + 1} rules' examples under {OUT}")


if __name__ == "__main__":
    main()
