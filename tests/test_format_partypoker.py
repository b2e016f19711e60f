"""PartyPoker: the corpus folder read in full, its findings named, and violations injected into real
Party hands caught with their code and line.

The hand count is independent of the grammar: a plain regex over the decoded files (UTF-8 with or
without BOM, UTF-16 with stray NULs) counts the "***** Hand History for Game" lines.
"""

from __future__ import annotations

import codecs
import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.pipeline import Summary, iter_parsed
from tests.conftest import CORPUS, FIXTURES, corpus_dir
from tests.test_mutations import audit_text

FOLDER = "partypoker"
SITE = "partypoker"
HEADER = re.compile(r"^\*{5} Hand History [Ff]or Game \w+ \*{5}", re.M)
EXPECTED = Path(__file__).parent / "corpus_expected" / f"{FOLDER}.tsv"
OPEN = Path(__file__).parent / "corpus_expected" / f"{FOLDER}.open.tsv"
HAND_FAILURES = {"P001", "P006"}
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
    summary, results = corpus
    expected = independent_count(corpus_dir(FOLDER))
    assert expected > 150
    assert summary.hands_seen == expected
    assert summary.by_site[SITE] == expected
    assert summary.hands_seen == summary.hands_parsed + summary.hands_failed
    clean = sum(1 for hand, fs in results if hand is not None and not any(f.code == "P002" for f in fs))  # type: ignore[attr-defined]
    rate = clean / expected
    print(f"{FOLDER}: {expected} hands, {summary.hands_parsed} parsed, {summary.hands_failed} failed, "
          f"{clean} with no P002 ({rate:.2%})")  # fmt: skip
    assert rate >= 0.995
    failed_named = sum(
        1 for hand, fs in results if hand is None and any(f.code in HAND_FAILURES and f.line for f in fs)
    )  # type: ignore[attr-defined]
    assert failed_named == summary.hands_failed


def _expected_rows() -> Counter[tuple[str, str, str]]:
    """Real problems of the record and known false alarms (``.open.tsv``), together."""
    rows = []
    for path in (EXPECTED, OPEN):
        if path.exists():
            with path.open(encoding="utf-8", newline="") as f:
                rows += list(csv.DictReader(f, delimiter="\t"))
    assert all(r["reason"].strip() for r in rows), "every expected finding says why"
    return Counter((r["path"], r["hand_id"], r["code"]) for r in rows)


@pytest.mark.corpus
def test_findings_are_exactly_the_listed_ones() -> None:
    from auditor.audit import audit_hand
    from auditor.profiles import for_hand

    d = corpus_dir(FOLDER)
    got: Counter[tuple[str, str, str]] = Counter()
    for hand, _fs in iter_parsed([str(d)], Summary()):
        if hand is None:
            continue
        for f in audit_hand(hand, for_hand(hand.site, None)).findings:
            if f.code.startswith(AUDITED):
                got[(str(Path(hand.path).relative_to(CORPUS)), hand.hand_id, f.code)] += 1
    assert got == _expected_rows()


# ---------------------------------------------------------------- mutations of real Party hands


def fixture(name: str) -> list[str]:
    return (FIXTURES / "sites" / SITE / f"{name}.txt").read_text("utf-8").splitlines()


def edit(lines: list[str], old: str, new: str) -> tuple[list[str], int]:
    """Replace the one line equal to ``old``; returns the lines and the 1-based line number."""
    i = lines.index(old)
    out = list(lines)
    out[i] = new
    return out, i + 1


def first(lines: list[str], code: str) -> int | None:
    for f in audit_text(lines):
        if f.code == code:
            return f.line
    return None


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
