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
#: the modules of the hook's ``include`` (pyproject.toml): parse path, replay, pots, rules, audit step, and the
#: per-hand helpers of the audit run (the fingerprints, the cross-hand row, its times; the chunk, the export facts
#: and the rule profile every hand reads), the reading of the
#: input (decoding, the split into hands) and the run's loop over its hands
HOT = (
    "auditor.model",
    "auditor.replay.betting",
    "auditor.replay.pots",
    "auditor.replay.cards",
    "auditor.replay.showdown",
    "auditor.replay.limits",
    "auditor.replay.stud",
    "auditor.replay.draw",
    "auditor.rules.stakes",
    "auditor.rules.studdraw",
    "auditor.rules.common",
    "auditor.rules.betting",
    "auditor.rules.hand",
    "auditor.rules.awards",
    "auditor.audit",
    "auditor.formats.assembler",
    "auditor.formats.money",
    "auditor.formats.vocab",
    "auditor.formats.pegline",
    "auditor.formats.peg",
    "auditor.formats.quick",
    "auditor.formats.partial",
    "auditor.formats.facts",
    "auditor.formats.chunk",
    "auditor.profiles",
    "auditor.handprint",
    "auditor.crosshand_rows",
    "auditor.times",
    "auditor.ingest",
    "auditor.pipeline",
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


@pytest.mark.skipif(not EXPECT, reason="the compiled leg only (scripts/test_compiled.sh sets HHAUDIT_EXPECT_COMPILED)")
def test_compiled_rules_keep_their_documentation() -> None:
    """mypyc drops a compiled function's docstring: the rule catalogue reads it from the ``.py``
    shipped beside the ``.so`` (``findings._source_doc``), so ``hhaudit rules`` says the same."""
    import ast

    import auditor.rules.betting as betting
    from auditor.findings import catalogue

    assert betting.b001.__doc__ is None or betting.b001.__doc__ == "", "b001 is not compiled"
    rules = catalogue()
    src = Path(betting.__file__).with_name("betting.py").read_text("utf-8")
    tree = ast.parse(src)
    doc = next(ast.get_docstring(n) for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "b001")
    assert rules["B001"].doc == doc
    assert all(r.doc for r in rules.values())


def test_the_three_lists_of_compiled_modules_agree() -> None:
    """The hook's ``include`` (pyproject.toml), ``MODULES`` of scripts/build_compiled.sh (which
    removes their in-place ``.so`` files) and :data:`HOT` name the same modules: a module added to
    one list alone would be compiled and not checked, or checked and never compiled."""
    import re
    import tomllib

    hook = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["hatch"]["build"]["targets"]["wheel"][
        "hooks"
    ]["mypyc"]
    included = [p.removesuffix(".py").replace("/", ".") for p in hook["include"]]
    script = (ROOT / "scripts" / "build_compiled.sh").read_text("utf-8")
    block = re.search(r"^MODULES=\(\n(.*?)^\)", script, re.M | re.S)
    assert block is not None, "MODULES=( ... ) not found in scripts/build_compiled.sh"
    modules = [line.strip().replace("/", ".") for line in block.group(1).splitlines() if line.strip()]
    assert included == modules == list(HOT)


def test_the_compiled_value_classes_pickle_compare_and_stay_frozen() -> None:
    """The chunk, the export facts and the rule profile (compiled in the compiled build: native
    attributes for the readers, the replay and the rules) pickle through their constructors (the
    disk cache pickles format cards, a batch sends chunks), compare and hash as frozen dataclasses,
    and refuse assignment, compiled or not."""
    import dataclasses
    import pickle

    from auditor.formats.chunk import Chunk
    from auditor.formats.facts import ExportFacts
    from auditor.profiles import BOOKS, for_hand

    chunk = Chunk("a.txt", "pokerstars", 3, ("line 1", "line 2"), context=("ctx",))
    facts = ExportFacts(prints_uncalled=False, eras=(("", "2012-01", (("wagers_as_street_total", True),)),))
    house = for_hand("pokerstars", None)
    for value in (chunk, facts, BOOKS["tda"], house, house.for_brand("x")):
        back = pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(back) is type(value) and back == value and repr(back) == repr(value)
        field = dataclasses.fields(value)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, getattr(value, field))
    assert hash(chunk) == hash(Chunk("a.txt", "pokerstars", 3, ("line 1", "line 2"), False, ("ctx",)))
    assert chunk.text == "line 1\nline 2" and dataclasses.replace(chunk, overflow=True).overflow
    assert facts.at("2011/11/02 10:00:00").wagers_as_street_total and not facts.at("2012/01/01").wagers_as_street_total
