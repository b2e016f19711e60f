"""Every serious finding (B, S, A, H) on the shared corpus is accounted for.

``tests/corpus_expected/<folder>.tsv`` lists, for one corpus folder, every B/S/A/H/T finding (of
warning or error severity: an identical copy of a hand, H005, is info) that is
a real problem in the record (a file kept broken on purpose, a site misprint), one row per finding
with the reason.  ``<folder>.open.tsv`` lists *known false alarms*: findings on hands that are not
wrong, which hhaudit does not yet judge right (each with what is missing).  The test fails on any
serious finding listed in neither, and on any listed finding that no longer appears, so both lists
stay exact: a fix removes rows from the open list, and a regression cannot hide.
"""

from __future__ import annotations

import csv
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from auditor.findings import Severity
from auditor.pipeline import Summary, iter_parsed
from tests.conftest import CORPUS, ROOT

LISTS = ROOT / "tests" / "corpus_expected"
SERIOUS = ("B", "S", "A", "H", "T")
FOLDERS = sorted({p.name.split(".")[0] for p in LISTS.glob("*.tsv")})

Row = tuple[str, str, str]  # path relative to the corpus, hand id, code


def read_list(path: Path) -> Counter[Row]:
    if not path.exists():
        return Counter()
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        assert r["reason"] and r["reason"].strip(), f"{path.name}: a row without a reason: {r}"
    return Counter((r["path"], r["hand_id"], r["code"]) for r in rows)


@cache
def found(folder: str) -> Counter[Row]:
    d = CORPUS / folder
    if not d.is_dir():
        pytest.skip(f"shared corpus not found at {d} (set HHAUDIT_CORPUS to its location)")
    out: Counter[Row] = Counter()
    for _hand, fs in iter_parsed([str(d)], Summary()):
        for f in fs:
            if f.code.startswith(SERIOUS) and f.severity > Severity.INFO:  # H005 (a copy) is info
                out[(str(Path(f.path).relative_to(CORPUS)), f.hand_id or "", f.code)] += 1
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("folder", FOLDERS)
def test_serious_findings_are_exactly_the_listed_ones(folder: str) -> None:
    real, open_ = read_list(LISTS / f"{folder}.tsv"), read_list(LISTS / f"{folder}.open.tsv")
    got = found(folder)
    unexplained = got - real - open_
    gone = (real + open_) - got
    print(f"{folder}: {sum(got.values())} serious findings; {sum(real.values())} real problems listed, "
          f"{sum(open_.values())} known false alarms listed")  # fmt: skip
    assert not unexplained, f"{folder}: serious findings in no list: {sorted(unexplained.elements())[:20]}"
    assert not gone, f"{folder}: listed findings that no longer appear: {sorted(gone.elements())[:20]}"


def test_every_list_names_a_corpus_folder_and_has_the_header() -> None:
    for p in LISTS.glob("*.tsv"):
        first = p.read_text("utf-8").splitlines()[0]
        assert first.split("\t") == ["path", "hand_id", "code", "reason"], p.name
