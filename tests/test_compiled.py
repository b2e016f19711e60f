"""The compiled leg of CI (``scripts/test_compiled.sh``) really tests compiled modules.

Run with ``HHAUDIT_EXPECT_COMPILED=1`` (the script sets it), this fails unless the hot modules were
loaded from mypyc ``.so`` files of an installed wheel, not from this checkout's ``.py`` files: a
compiled leg that silently tested pure Python would prove nothing.  In the ordinary run it is
skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import ROOT

EXPECT = os.environ.get("HHAUDIT_EXPECT_COMPILED") == "1"
HOT = (
    "auditor.replay.betting",
    "auditor.replay.pots",
    "auditor.formats.assembler",  # the parse path (issue 16)
    "auditor.formats.money",
    "auditor.formats.vocab",
    "auditor.formats.pegline",
    "auditor.formats.peg",
)


@pytest.mark.skipif(not EXPECT, reason="the compiled leg only (scripts/test_compiled.sh sets HHAUDIT_EXPECT_COMPILED)")
def test_the_hot_modules_are_compiled_and_installed() -> None:
    import importlib

    import auditor

    assert Path(auditor.__file__).resolve().parent != (ROOT / "auditor").resolve(), "the checkout, not the wheel"
    for name in HOT:
        m = importlib.import_module(name)
        assert m.__file__ is not None and m.__file__.endswith(".so"), f"{name} is not compiled: {m.__file__}"
    from auditor.replay.betting import Replay

    assert not hasattr(Replay.run, "__code__"), "Replay.run is a Python function"
    from auditor.formats.peg import PegVisitor

    assert not hasattr(PegVisitor.read_lines, "__code__"), "PegVisitor.read_lines is a Python function"
