"""Keep tests/corpus_expected/ in step after a fix: drop listed rows that no longer appear.

    .venv/bin/python scripts/corpus_lists.py [FOLDER ...]     # default: every folder with a list

For each folder it audits the corpus folder, removes from ``<folder>.tsv`` and ``<folder>.open.tsv``
the rows whose finding no longer appears (a fix, or a finding now folded into its cause), and prints
the serious findings that are in neither list.  It never adds a row: a new finding needs a person to
decide whether the record is wrong (``.tsv``, with the reason) or hhaudit is (``.open.tsv``, or a fix).
"""

from __future__ import annotations

import csv
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_corpus_expected import FOLDERS, LISTS, found  # noqa: E402


def prune(path: Path, left: Counter[tuple[str, str, str]]) -> int:
    """Keep the rows of ``path`` that ``left`` still holds (consuming them); returns rows dropped."""
    if not path.exists():
        return 0
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    kept = []
    for r in rows:
        key = (r["path"], r["hand_id"], r["code"])
        if left[key] > 0:
            left[key] -= 1
            kept.append(r)
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, ["path", "hand_id", "code", "reason"], delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(kept)
    return len(rows) - len(kept)


def main(argv: list[str]) -> int:
    status = 0
    for folder in argv or FOLDERS:
        left = Counter(found(folder))
        dropped = prune(LISTS / f"{folder}.tsv", left) + prune(LISTS / f"{folder}.open.tsv", left)
        new = +left
        print(f"{folder}: {dropped} row(s) dropped, {sum(new.values())} finding(s) in no list")
        for (p, h, c), n in sorted(new.items()):
            print(f"  {p}\t{h}\t{c}" + (f"  (x{n})" if n > 1 else ""))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
