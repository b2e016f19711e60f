"""Property: hands built by choosing random *legal* actions from the replay's own facts never
produce a B, S or H finding — in no-limit, pot-limit and fixed-limit, with any number of players,
short stacks, antes and all-ins."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from auditor.findings import Finding
from auditor.formats import REGISTRY
from auditor.model import Hand
from auditor.profiles import for_hand
from auditor.replay.betting import Replay
from tests.handbuilder import HandBuilder

BOARD = ["2c", "7d", "Ks", "9h", "3s"]


def next_to_act(hb: HandBuilder, rules: str) -> tuple[str, dict[str, object]] | None:
    h = hb.hand()
    r = Replay(h, for_hand(h.site, rules), REGISTRY.facts_for(h))
    r.run()
    nxt = r.next_to_act()
    return None if nxt is None else (nxt[0].name, nxt[1])


def legal_moves(f: dict[str, object], structure: str) -> list[tuple[str, int]]:
    """Every kind of legal action with one legal amount range endpoint each."""
    stack = int(f["stack"])  # type: ignore[call-overload]
    street_bet = int(f["street_bet"])  # type: ignore[call-overload]
    current = int(f["current_bet"])  # type: ignore[call-overload]
    call_to = int(f["call_to"])  # type: ignore[call-overload]
    all_in_to = street_bet + stack
    moves: list[tuple[str, int]] = []
    if street_bet < call_to:
        moves += [("fold", 0), ("call", min(call_to, all_in_to))]
    else:
        moves.append(("check", 0))
    can_raise = bool(f["reopened"]) and all_in_to > current and not f.get("fl_cap_reached")
    if not can_raise:
        return moves
    if structure == "FL":
        target = int(f["fl_expected_to"])  # type: ignore[call-overload]
        moves.append(("raise" if current else "bet", min(target, all_in_to)))
        return moves
    low = int(f["min_raise_to"]) if current else max(int(f["min_inc"]), 1)  # type: ignore[call-overload]
    high = all_in_to
    if structure == "PL":
        high = min(high, int(f["pl_max_to"]))  # type: ignore[call-overload]
    if low <= high:
        moves += [("raise" if current else "bet", low), ("raise" if current else "bet", high)]
        if high - low > 1:
            moves.append(("raise" if current else "bet", (low + high) // 2))
    elif current == 0 or all_in_to <= high:
        moves.append(("raise" if current else "bet", all_in_to))  # all-in for less than a full raise
    return moves


@st.composite
def legal_hand(draw: st.DrawFn) -> tuple[HandBuilder, str]:
    structure = draw(st.sampled_from(["NL", "PL", "FL"]))
    n = draw(st.integers(2, 6))
    bb = draw(st.sampled_from([2, 10, 100]))
    depth = st.one_of(st.integers(1, 4), st.integers(20, 300))  # in half big blinds: short and deep
    stacks = draw(st.lists(depth, min_size=n, max_size=n))
    ante = draw(st.sampled_from([0, 0, bb // 10]))
    players = [(f"P{i}", bb * s // 2 + ante + draw(st.integers(0, 3))) for i, s in enumerate(stacks)]
    rules = draw(st.sampled_from(["tda", "wsop-live", "roberts", "pokerstars"]))
    hb = HandBuilder(blinds=(bb // 2, bb), players=players, structure=structure, ante=ante, tournament=True)
    hb.post_blinds()
    streets = [("FLOP", " ".join(BOARD[:3])), ("TURN", BOARD[3]), ("RIVER", BOARD[4])]
    for street in range(4):
        for _ in range(40):
            nxt = next_to_act(hb, rules)
            if nxt is None:
                break
            who, facts = nxt
            kind, amount = draw(st.sampled_from(legal_moves(facts, structure)))
            if kind == "fold":
                hb.fold(who)
            elif kind == "check":
                hb.check(who)
            elif kind == "call":
                hb.call(who, amount)
            elif kind == "bet":
                hb.bet(who, amount)
            else:
                hb.raise_to(who, amount)
        if sum(1 for p in hb._ps.values() if not p.folded) <= 1 or street == 3:
            break
        name, cards = streets[street]
        hb.street(name, cards)
    return hb, rules


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(legal_hand())
def test_random_legal_hands_audit_clean(built: tuple[HandBuilder, str]) -> None:
    hb, rules = built
    event(f"{sum(1 for line in hb.lines if ': ' in line and 'posts' not in line) // 5 * 5}+ actions")
    event(f"streets dealt: {sum(1 for line in hb.lines if line.startswith('*** ') and 'HOLE' not in line)}")
    found: list[Finding] = [f for f in hb.audit(rules) if f.code[0] in "BSH"]
    assert found == [], hb.text() + "\n" + "\n".join(f"{f.line}: {f.code} {f.message}" for f in found)
    assert isinstance(hb.hand(), Hand)


CARDS = [r + s for r in "23456789TJQKA" for s in "shdc"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(legal_hand(), st.randoms(use_true_random=False))
def test_random_legal_hands_conserve_chips_and_awards_reconcile(built: tuple[HandBuilder, str], rnd) -> None:  # type: ignore[no-untyped-def]
    """Showdown with random cards: every chip put in is either returned or in a pot; each pot is
    awarded exactly (shares add up to it) to players eligible for it; all-in players win at most
    what their stake covers; and paying the derived awards audits clean (A-codes)."""
    from auditor.replay.pots import build

    hb, rules = built
    deck = [c for c in CARDS if c not in BOARD]
    rnd.shuffle(deck)
    live = [p for p in hb._ps.values() if not p.folded]
    for p in live:
        hb.raw(f"{p.name}: shows [{deck.pop()} {deck.pop()}]")
    h = hb.hand()
    prof = for_hand(h.site, rules)
    r = Replay(h, prof, REGISTRY.facts_for(h))
    t = r.run()
    pt = build(t, prof)
    put_in = sum(pt.contributions.values()) + sum(pt.dead.values())
    assert sum(p.amount for p in pt.pots) + sum(pt.expected_returns.values()) == put_in
    for pot in pt.pots:
        assert pot.eligible, pot
        assert all(not t.players[n].folded for n in pot.eligible)
        shares = sum(v for a in pt.awards if a.pot == pot.label for _, v in a.shares)
        if pt.decided:
            assert shares == pot.net
    for n, won in pt.expected_paid.items():
        assert won <= sum(p.net for p in pt.pots if n in p.eligible)
    if (pt.decided and len([line for line in hb.lines if line.startswith("*** RIVER")])) or len(live) == 1:
        # pay what the rules say, and the audit of the money is clean
        for n, v in pt.expected_paid.items():
            hb.raw(f"{n} collected {v} from pot")
        for n, v in pt.expected_returns.items():
            hb.raw(f"Uncalled bet ({v}) returned to {n}")
        hb._total = put_in - sum(pt.expected_returns.values())
        found = [f for f in hb.audit(rules) if f.code[0] == "A"]
        assert found == [], hb.text() + "\n".join(f"{f.code} {f.message}" for f in found)
