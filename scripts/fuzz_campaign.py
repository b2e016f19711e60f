"""The nightly fuzz campaign of issue 11: the mutation strategy of ``tests/test_fuzz.py`` run with
a time budget instead of a fixed number of cases, not derandomized.

    .venv/bin/python scripts/fuzz_campaign.py --minutes 30

Exit status 0 when the contract held on every case, 1 with the minimal failing input written to
``fuzz-failure.bin`` (hypothesis shrinks it first).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, given, settings

from tests.test_fuzz import check_contract, mutated


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10.0)
    args = p.parse_args()
    stop = time.monotonic() + args.minutes * 60
    cases = 0
    tmp = Path(tempfile.mkdtemp(prefix="hhaudit-fuzz-"))

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(data=mutated())
    def campaign(data: bytes) -> None:
        nonlocal cases
        cases += 1
        try:
            check_contract(data, tmp)
        except BaseException:
            Path("fuzz-failure.bin").write_bytes(data)
            raise

    try:
        while time.monotonic() < stop:  # rounds of 200 random cases until the budget is spent
            campaign()
    except Exception as e:
        print(f"fuzz campaign: contract broken after {cases:,} cases: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(f"fuzz campaign: {cases:,} cases in {args.minutes:g} min, contract held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
