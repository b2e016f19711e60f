"""polars' allocator setting for the store's cross-hand pass (auditor/batch/allocator.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from auditor.batch import allocator

_PROBE = (
    "import os, sys\n"
    "from auditor.batch.allocator import keep_freed_pages\n"
    "set_here = keep_freed_pages()\n"
    "import polars\n"
    "print(set_here, os.environ.get('_RJEM_MALLOC_CONF'), sep='|')\n"
)


def _probe(**env: str) -> tuple[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in (allocator.ENV, allocator.OPT_OUT)}
    out = subprocess.run([sys.executable, "-c", _PROBE], env={**base, **env}, capture_output=True, text=True,
                         check=True).stdout.strip()  # fmt: skip
    got, conf = out.split("|")
    return got, conf


def test_set_before_polars_when_unset() -> None:
    got, conf = _probe()
    assert got == "True"
    # polars puts its own defaults first and the environment's value after them: ours is last, so it wins
    assert conf.endswith(allocator.KEEP)


def test_user_setting_wins() -> None:
    got, conf = _probe(_RJEM_MALLOC_CONF="dirty_decay_ms:1234")
    assert got == "False"
    assert conf.endswith("dirty_decay_ms:1234") and allocator.KEEP not in conf


def test_opt_out() -> None:
    got, conf = _probe(HHAUDIT_POLARS_DEFAULT_ALLOCATOR="1")
    assert got == "False"
    assert allocator.KEEP not in conf


def test_too_late_once_polars_is_imported() -> None:
    import polars  # noqa: F401  (jemalloc has read its options)

    saved = os.environ.pop(allocator.ENV, None)
    try:
        assert allocator.keep_freed_pages() is False
        assert allocator.ENV not in os.environ
    finally:
        if saved is not None:
            os.environ[allocator.ENV] = saved
