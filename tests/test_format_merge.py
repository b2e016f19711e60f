"""Merge Gaming network (XML hands): corpus parse rate against an independent count of <game>
elements, the card, and mutations of real hands caught with their code and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.formats import REGISTRY
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import audit_text, codes_at, line_of, parse_rate

GAME = re.compile(r"^\s*<game\s+id=\"", re.M)


def test_corpus_parse_rate() -> None:
    folder = corpus_dir("merge-network")
    r = parse_rate(folder, GAME)
    assert r.seen == r.parsed + r.failed
    assert r.headers == r.seen, (r.headers, r.seen)
    assert r.rate >= 0.995, r.failures
    assert all(f.line for f in r.failures)


# The folder's serious findings are checked against tests/corpus_expected/merge-network.tsv by
# tests/test_corpus_expected.py, with every other folder's.


def test_sniff_and_card() -> None:
    fmt = REGISTRY["merge"]
    assert fmt.is_document
    assert REGISTRY.sniff_document('<description type="Holdem" stakes="No Limit ($1/$2)"/>') is fmt
    assert REGISTRY.sniff_document('\ufeff<description type="Omaha" stakes="Pot Limit ($5/$10)"/>') is fmt
    assert fmt.facts.prints_uncalled is False
    assert fmt.facts.prints_total_pot is False


def _fixture(name: str) -> str:
    return (FIXTURES / "sites" / "merge" / f"{name}.txt").read_text("utf-8")


def test_clean_fixtures_audit_clean() -> None:
    for p in sorted((FIXTURES / "sites" / "merge").glob("*.txt")):
        found = [f for f in audit_text(p.read_text("utf-8")) if f.code[0] in "BSAHP"]
        assert found == [], (p.name, found)


# -- mutations of real hands: each injected violation is found with its code at its line

CASH = "cash_nlhe_uncalled_winner_2012"


def _mutant(name: str, old: str, new: str) -> tuple[str, int]:
    text = _fixture(name)
    assert text.count(old) == 1, old
    mutated = text.replace(old, new)
    return mutated, line_of(mutated, new.splitlines()[0])


def test_mutation_collect_one_unit_more() -> None:
    # a tournament hand (no rake): one chip unit more to the winner -> chips not conserved
    text = _fixture("tournament_balances_after_blinds_2012")
    m = re.search(r'<winner amount="([\d.]+)" uncalled="false"', text)
    assert m is not None
    amount = m.group(1)
    more = f"{float(amount) + 0.01:.2f}"
    mutated = text.replace(f'<winner amount="{amount}"', f'<winner amount="{more}"', 1)
    codes = {c for c, _ in codes_at(audit_text(mutated))}
    assert "A010" in codes, codes


def test_mutation_uncalled_return_changed() -> None:
    # Merge prints a return only sometimes (prints_uncalled = false), so a wrong return is caught by
    # the money balance of the hand (A010, on the winner's line after it), not by A001
    mutated, line = _mutant(CASH, '<winner amount="21.74" uncalled="true"', '<winner amount="31.74" uncalled="true"')
    found = codes_at(audit_text(mutated))
    assert ("A001", line) in found or ("A010", line + 1) in found, found


def test_mutation_wager_beyond_stack() -> None:
    mutated, line = _mutant(CASH, 'player="4" amount="8.00"', 'player="4" amount="800.00"')
    assert ("S001", line) in codes_at(audit_text(mutated))


def test_mutation_duplicated_card() -> None:
    mutated, line = _mutant(CASH, 'cards="Ad,Ah" player="5"', 'cards="Kc,Ah" player="5"')
    assert ("H002", line) in codes_at(audit_text(mutated))


def test_mutation_actions_out_of_turn() -> None:
    lines = _fixture(CASH).split("\n")
    i = line_of("\n".join(lines), 'sequence="3" type="FOLD"') - 1
    lines[i], lines[i + 1] = lines[i + 1], lines[i]  # player 3 folds before player 2, whose turn it is
    mutated = "\n".join(lines)
    assert ("B004", i + 1) in codes_at(audit_text(mutated))


def test_mutation_pot_to_the_losing_hand() -> None:
    mutated, line = _mutant("cash_plo_showdown_2012", 'potnumber="1" player="0"', 'potnumber="1" player="5"')
    assert ("A004", line) in codes_at(audit_text(mutated))


def test_mutation_raise_below_minimum() -> None:
    mutated, line = _mutant(CASH, 'player="5" amount="22.25"', 'player="5" amount="9.00"')
    assert ("B002", line) in codes_at(audit_text(mutated))


@pytest.mark.parametrize(
    "name",
    [
        "cash_nlhe_raise_adds_2010",
        "tournament_v21_balances_before_blinds_2015",
    ],
)
def test_generations_read_clean(name: str) -> None:
    assert [f for f in audit_text(_fixture(name)) if f.code[0] in "BSAH"] == []


# -- cross-check against fpdb's expectations (``<raw>.hp`` sidecars: the first hand of the file)

_SNG = "tournament-flop/fpdb3/PLO8-USD-SNG-2-2012.Sample.xml"
#: (raw file relative to the folder, player, field) -> why hhaudit and fpdb differ
KNOWN_DISAGREEMENTS = {
    # the 2012 tournament export prints each balance after the blinds were taken; fpdb keeps the
    # printed balance, hhaudit adds the blind back (every player starts a sit-and-go's first hand
    # with 1,500 chips; the profits agree)
    (_SNG, "Player2", "startCash"): "balance printed after the small blind (1,490 + 10)",
    (_SNG, "Player3", "startCash"): "balance printed after the big blind (1,480 + 20)",
}


def test_fpdb_crosscheck() -> None:
    from auditor import ingest
    from auditor import model as M
    from auditor.formats import Chunk, parse_chunk
    from tests.test_fpdb_crosscheck import _hp_players

    folder = corpus_dir("merge-network")
    disagreements: dict[tuple[str, str, str], tuple[object, object]] = {}
    compared = 0
    for hp in sorted(folder.rglob("*.hp")):
        raw = hp.with_name(hp.name[: -len(".hp")])
        rel = raw.relative_to(folder).as_posix()
        stream, size = ingest.open_source(str(raw))
        with stream:
            chunk = next(i for i in ingest.read_stream(stream, str(raw), size)[1] if isinstance(i, Chunk))
        hand, _ = parse_chunk(chunk)
        assert hand is not None
        scale = 100 // 10**hand.decimals
        fpdb = _hp_players(hp)
        for s in hand.seats:
            if s.player not in fpdb:
                assert s.sitting_out, (rel, s.player)  # fpdb leaves out players not dealt in
                continue
            ev = [e for e in hand.events if getattr(e, "player", None) == s.player]
            won = sum(e.amount for e in ev if isinstance(e, M.Collect))
            put = sum(e.amount for e in ev if isinstance(e, M.Post)) + sum(
                e.increment for e in ev if isinstance(e, M.Action)
            )
            put -= sum(e.amount for e in ev if isinstance(e, M.UncalledReturn))
            f = fpdb[s.player]
            mine = {"seatNo": s.seat + 1, "startCash": s.stack * scale, "winnings": won * scale,
                    "totalProfit": (won - put) * scale}  # fmt: skip
            for k, v in mine.items():
                compared += 1
                if v != f.get(k):
                    disagreements[(rel, s.player, k)] = (v, f.get(k))
        assert set(fpdb) <= {s.player for s in hand.seats}, rel
    assert compared > 100
    assert set(disagreements) == set(KNOWN_DISAGREEMENTS), disagreements


def test_new_header_2012_balances_are_before_the_blinds() -> None:
    # August 2012's new header (game version="1", starttime with an offset): a heads-up sit-and-go's
    # two balances add up to the 3,000 chips dealt, the blinds not yet taken: the stacks as printed
    from auditor import model as M
    from auditor.formats import parse_text

    (h,) = [x for x in parse_text(_class_fixture("tournament_v1_balances_before_blinds_2012")) if isinstance(x, M.Hand)]
    assert [(s.player, s.stack) for s in h.seats] == [("Hero", 153000), ("Player0", 147000)]


def test_new_header_2012_chopped_pot_chains_to_the_next_hand(tmp_path: Path) -> None:
    # a chopped pot leaves both balances as they were (1,530 / 1,470); the next hand starts there
    from tests.test_continuity import rows_of, t_findings

    path = FIXTURES / "exports" / "merge" / "tournament_v1_chopped_pot_2012.txt"
    assert [f.code for f in t_findings(rows_of(path))] == []
    # chips that appear between the two hands are flagged (the pair is judged, not a gap)
    text = path.read_text("utf-8")
    old = 'nickname="Player0" balance="$1470.00"'
    assert text.count(old) == 2
    i = text.rindex(old)
    mutant = tmp_path / "mutant.txt"
    mutant.write_text(text[:i] + 'nickname="Player0" balance="$1480.00"' + text[i + len(old) :], "utf-8")
    found = [(f.code, f.hand_id, f.data.get("amount")) for f in t_findings(rows_of(mutant))]
    assert found == [("T003", "60139095-6", 1000)]


def _class_fixture(name: str) -> str:
    """A hand of a false-alarm class (fixtures/exports/merge/, checked against its golden by
    tests/test_golden.py)."""
    return (FIXTURES / "exports" / "merge" / f"{name}.txt").read_text("utf-8")
