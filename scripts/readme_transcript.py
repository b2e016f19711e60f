"""Rewrite the README's transcript of its first command with what hhaudit prints now.

    .venv/bin/python scripts/readme_transcript.py

``tests/test_readme.py`` fails when the transcript and the output differ (a new fixture, a new
message): run this, then read the diff before committing it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "hhaudit audit fixtures/samples fixtures/sites --fail-on none"


def main() -> int:
    out = subprocess.run([sys.executable, "-m", "auditor.cli", *COMMAND.split()[1:]], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout  # fmt: skip
    readme = ROOT / "README.md"
    text = readme.read_text("utf-8")
    pattern = re.compile(r"(```\n\$ " + re.escape(COMMAND) + r"\n)(.*?)(```)", re.S)
    if not pattern.search(text):
        print("the README has no transcript of the first command", file=sys.stderr)
        return 1
    readme.write_text(pattern.sub(lambda m: m.group(1) + out + m.group(3), text, count=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
