from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = Path(os.environ.get("HHAUDIT_CORPUS", ROOT.parent / "shared" / "corpus"))


def corpus_path(*parts: str) -> Path:
    """A file or folder of the shared corpus; the test is skipped, saying so, when it is absent."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared corpus not found at {path} (set HHAUDIT_CORPUS to its location)")
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files from current output")


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private, empty format/grammar cache directory for the test (the cache turned on)."""
    from auditor.formats import cache

    d = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_DIR, str(d))
    monkeypatch.delenv(cache.ENV_OFF, raising=False)
    return d


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def corpus_dir(*parts: str) -> Path:
    """A folder of the shared corpus, or skip the test (saying why) when it is absent."""
    d = CORPUS.joinpath(*parts)
    if not d.is_dir():
        pytest.skip(f"shared corpus not found at {d} (set HHAUDIT_CORPUS to its location)")
    return d
