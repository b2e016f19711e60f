"""The wheel carries grammars/ and reports/: build it, install it into a fresh virtual environment
(no access to the source tree), and run ``hhaudit`` on a fixture."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT


@pytest.mark.slow
def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    r = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    (wheel,) = dist.glob("hhaudit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # the default build is pure Python (the mypyc hook is off unless HATCH_BUILD_HOOK_ENABLE_MYPYC=1)
    assert wheel.name.endswith("-py3-none-any.whl") and not [n for n in names if n.endswith(".so")], wheel.name
    assert "auditor/grammars/_base.peg" in names and "auditor/grammars/pokerstars.toml" in names
    assert "auditor/grammars/pokerstars.peg" in names
    assert any(n.startswith("auditor/reports/") for n in names)

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    # Runtime dependencies come from the test environment's site-packages (a plain path entry: its
    # .pth files, among them the editable install of the source tree, are not processed).
    deps = [p for p in site.getsitepackages() if "site-packages" in p]
    Path(purelib, "_deps.pth").write_text("\n".join(deps) + "\n")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    entry = env_dir / "bin" / "hhaudit"

    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = subprocess.run([str(py), "-c", "import auditor, sys; print(auditor.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path, env=clean_env)  # fmt: skip
    assert where.stdout.strip().startswith(str(purelib)), "the installed wheel must be imported, not the source tree"
    fixture = FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt"
    r = subprocess.run([str(entry), "audit", str(fixture), "--format", "json"],
                       capture_output=True, text=True, check=False, cwd=tmp_path, env=clean_env)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["summary"]["hands_parsed"] == 1
