"""The report's rule pages (``rules/<CODE>.html``), written by a child process of ``audit --html``.

Each page shows its rule's bad and good example hands audited (``views.rule_view``): that audit
runs the cross-hand stage in process (polars) and loads pokerkit's evaluators, ~60-90 MiB that the
auditing process would otherwise hold until it exits, for pages that do not depend on the input.
So :func:`write_rule_pages` writes them from ``python -m auditor.report.rulepages DIR`` (the same
package: its folder is put first on the child's path), and in process only if the child fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _write(rules_dir: Path) -> None:
    from auditor.findings import RULES
    from auditor.report import render, write
    from auditor.report.views import rule_view

    for code in RULES:
        write(rules_dir / f"{code}.html", render("rule.html.j2", view=rule_view(code, "../")))


def write_rule_pages(rules_dir: Path) -> None:
    """Write every rule's page into ``rules_dir`` (which exists), from a child process."""
    import auditor

    home = str(Path(auditor.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([home, *filter(None, [env.get("PYTHONPATH")])])
    cmd = [sys.executable, "-m", "auditor.report.rulepages", str(rules_dir)]
    try:
        done = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False)  # fmt: skip
        if done.returncode == 0:
            return
    except OSError:
        pass
    _write(rules_dir)  # no interpreter to start (embedded, frozen): in process


if __name__ == "__main__":
    _write(Path(sys.argv[1]))
