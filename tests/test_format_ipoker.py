"""iPoker (XML sessions): corpus parse rate against an independent count of <game> elements, the
expected findings of the corpus folder, streaming, and mutations of real hands caught with their
code and line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from auditor.audit import audit_hand
from auditor.findings import Finding
from auditor.formats import REGISTRY, Chunk, parse_chunk
from auditor.ingest import expand_paths, read_stream
from auditor.profiles import for_hand
from tests.conftest import FIXTURES, corpus_dir

GAME = re.compile(r"<game\b[^>]*\bgamecode=")
SIDE = (".hp", ".hands", ".gt", ".json")


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def independent_count(folder: Path) -> int:
    """Hands by a plain regex over the raw decoded files (no hhaudit code)."""
    n = 0
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.name.endswith(SIDE):
            n += len(GAME.findall(_decode(p.read_bytes())))
    return n


def audit_bytes(data: bytes, path: str = "m.xml") -> tuple[int, int, list[Finding]]:
    seen = parsed = 0
    found: list[Finding] = []
    for c in read_stream(io.BytesIO(data), path, len(data))[1]:
        if isinstance(c, Finding):
            found.append(c)
            continue
        seen += 1
        hand, fs = parse_chunk(c)
        found += fs
        if hand is not None:
            parsed += 1
            found += audit_hand(hand, for_hand(hand.site, None)).findings
    return seen, parsed, found


def test_corpus_parse_rate() -> None:
    folder = corpus_dir("ipoker")
    expected = independent_count(folder)
    seen = parsed = 0
    failed_with_finding = 0
    for path in expand_paths([str(folder)]):
        data = Path(path).read_bytes()
        s, p, found = audit_bytes(data, path)
        seen += s
        parsed += p
        failed_with_finding += min(s - p, len([f for f in found if f.code.startswith("P") and f.line]))
    assert seen == expected, (seen, expected)
    assert parsed / seen >= 0.995
    assert seen - parsed == failed_with_finding


# The folder's serious findings are checked against tests/corpus_expected/ipoker{.tsv,.open.tsv} by
# tests/test_corpus_expected.py, with every other folder's.


def test_sniff_and_card() -> None:
    fmt = REGISTRY["ipoker"]
    assert fmt.is_document
    assert REGISTRY.sniff_document('<?xml version="1.0" encoding="utf-8"?>') is fmt
    assert REGISTRY.sniff_document('<session sessioncode="1">') is fmt
    assert fmt.facts.prints_uncalled is False


def _fixture(name: str) -> bytes:
    return (FIXTURES / "sites" / "ipoker" / name).read_bytes()


def test_streaming_one_chunk_per_game_with_session_context() -> None:
    data = _fixture("cash_nlhe_2011.txt")
    chunks = [c for c in read_stream(io.BytesIO(data), "x.xml", len(data))[1] if isinstance(c, Chunk)]
    assert len(chunks) == 1
    assert chunks[0].lines[0].strip().startswith("<game")
    assert "<gametype>" in chunks[0].context[0]


def test_clean_fixtures_audit_clean() -> None:
    for p in sorted((FIXTURES / "sites" / "ipoker").glob("*.txt")):
        s, parsed, found = audit_bytes(p.read_bytes(), p.name)
        assert s == parsed == 1, p.name
        assert [f for f in found if f.code[0] in "BSAHP"] == [], (p.name, found)


def test_localised_numbers() -> None:
    from auditor.formats import parse_text
    from auditor.model import Hand

    text = _fixture("sng_italian_locale.txt").decode("utf-8")
    hands = [h for h in parse_text(text) if isinstance(h, Hand)]
    assert hands and any(s.stack == 1500 for s in hands[0].seats)


# -- mutations of real hands: each injected violation is found with its code at its line


def _codes(data: bytes) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in audit_bytes(data)[2]]


def _line_no(text: str, needle: str) -> int:
    for i, line in enumerate(text.split("\n"), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_mutation_collect_more_than_the_pot() -> None:
    # a tournament hand (no rake): one chip more in the winner's win -> chips not conserved
    text = _fixture("sng_italian_locale.txt").decode("utf-8")
    m = re.search(r'win="([\d.,]+)"', text.split("<players>")[1].replace('win="0"', 'win=""', 0))
    assert m is not None
    wins = [w for w in re.findall(r'win="([^"]+)"', text) if w not in ("0",)]
    win = next(w for w in wins if re.fullmatch(r"[\d.]+", w) and w != "0")
    mutated = text.replace(f'win="{win}"', f'win="{int(win.replace(".", "")) + 1}"', 1)
    codes = {c for c, _ in _codes(mutated.encode())}
    assert codes & {"A010", "A004", "A005"}


def test_mutation_wager_beyond_stack() -> None:
    text = _fixture("cash_nlhe_2011.txt").decode("utf-8")
    mutated = text.replace('player="Player6" type="5" sum="$0.04"', 'player="Player6" type="5" sum="$40.04"')
    line = _line_no(mutated, "$40.04")
    assert ("S001", line) in _codes(mutated.encode())


def test_mutation_duplicated_card() -> None:
    text = _fixture("cash_nlhe_2011.txt").decode("utf-8")
    mutated = text.replace(">C5</cards>", ">CJ</cards>")  # the hero holds CJ
    line = _line_no(mutated, ">CJ</cards>" if mutated.count(">CJ</cards>") == 1 else "Turn")
    assert ("H002", line) in _codes(mutated.encode())


def test_mutation_out_of_turn() -> None:
    # the river: Player6 bets (no 10), Hero folds (no 11); swapping the numbers makes Hero act first
    text = _fixture("cash_nlhe_2011.txt").decode("utf-8")
    mutated = text.replace('action no="10" player="Player6"', 'action no="12" player="Player6"')
    found = _codes(mutated.encode())
    assert any(c == "B004" for c, _ in found), found


def test_mutation_pot_to_the_loser() -> None:
    text = _fixture("allin_showdown.txt").decode("utf-8")
    # the all-in player won the main pot, the other player the side pot: swap what they were paid
    players = re.findall(r"<player [^>]*>", text)
    winner, loser = players[1], players[0]
    wamount = re.findall(r'win="([^"]*)"', winner)[0]
    lamount = re.findall(r'win="([^"]*)"', loser)[0]
    w2 = winner.replace(f'win="{wamount}"', f'win="{lamount}"')
    l2 = loser.replace(f'win="{lamount}"', f'win="{wamount}"')
    mutated = text.replace(winner, w2).replace(loser, l2)
    codes = {c for c, _ in _codes(mutated.encode())}
    assert codes & {"A004", "A005"}, codes


def test_mutation_raise_below_minimum() -> None:
    text = _fixture("sng_italian_locale.txt").decode("utf-8")
    raises = re.findall(r'<action [^>]*type="23"[^>]*>', text)
    if not raises:
        pytest.skip("no raise in the fixture")
    r = raises[0]
    amount = re.search(r'sum="([^"]*)"', r).group(1)  # type: ignore[union-attr]
    mutated = text.replace(r, r.replace(f'sum="{amount}"', 'sum="31"'))
    line = _line_no(mutated, 'sum="31"')
    found = _codes(mutated.encode())
    assert ("B002", line) in found, found


def test_explain_works() -> None:
    from auditor.cli import main

    p = FIXTURES / "sites" / "ipoker" / "cash_nlhe_2011.txt"
    assert main(["explain", str(p), "--hand", "3013573623"]) == 0


def test_rebuy_tournament_is_recorded_from_the_session_header() -> None:
    from auditor import model as M
    from auditor.formats import parse_text

    # "$3,500 GP R/A", <buyin>$5+$0.50</buyin> <totalbuyin>$15.50</totalbuyin>: chips can be bought
    text = (FIXTURES / "sites" / "ipoker" / "mtt_no_dealer_marked.txt").read_text("utf-8")
    (h,) = [x for x in parse_text(text) if isinstance(x, M.Hand)]
    assert h.extras.get("rebuys") == "yes"
    # a freezeout: total buy-in equal to the buy-in, no name saying so, no player flag
    plain = text.replace("$3,500 GP R/A", "$3,500 GP").replace("<totalbuyin>$15.50</totalbuyin>",
                                                               "<totalbuyin>$5.50</totalbuyin>")  # fmt: skip
    (h,) = [x for x in parse_text(plain) if isinstance(x, M.Hand)]
    assert "rebuys" not in h.extras
    # the Italian sit-and-go (total buy-in "Iscriviti[ €0,40 + €0,10 ..]" is not an amount)
    sng = (FIXTURES / "sites" / "ipoker" / "sng_italian_locale.txt").read_text("utf-8")
    assert all("rebuys" not in x.extras for x in parse_text(sng) if isinstance(x, M.Hand))
