"""The README shows real output: the transcript of its first command must be what hhaudit prints."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import ROOT


def test_readme_transcript_matches() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    m = re.search(r"```\n\$ hhaudit audit fixtures/samples fixtures/sites --fail-on none\n(.*?)```", readme, re.S)
    assert m, "the README shows a transcript of `hhaudit audit fixtures/samples fixtures/sites --fail-on none`"
    r = subprocess.run(
        [sys.executable, "-m", "auditor.cli", "audit", "fixtures/samples", "fixtures/sites", "--fail-on", "none"],
        capture_output=True, text=True, check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert r.stdout == m.group(1)


def test_readme_starts_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
    assert "pip install" in blocks[0] and "hhaudit audit fixtures/samples" in blocks[0]
    assert blocks[1].strip() == "bash scripts/test.sh"
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
