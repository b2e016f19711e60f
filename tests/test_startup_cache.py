"""Start-up caches of issue 16 (s10): compiled ``re`` programs in the grammar cache, and pokerkit's
hand lookup tables on disk.

* a pattern stored with its program (``cache._program``) loads equal to ``re.compile`` of its
  source, for every pattern of every cached grammar; another engine's ``MAGIC`` or a program the
  engine refuses falls back to compiling the source; a warm grammar load compiles nothing;
* a hand type's table from the cache equals pokerkit's own (cold, warm, damaged file, read-only or
  turned-off cache); another pokerkit (other source bytes) gets another key; a fresh process with a
  warm cache evaluates without ``pokerkit.hands`` (nor pokerkit's ``__init__``), with the same
  results as pokerkit's own tables; a whole audit gives the same report cold, warm and uncached.
"""

from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from auditor.formats import cache as C
from auditor.formats.registry import Registry
from auditor.replay import cards
from tests.conftest import FIXTURES, ROOT

#: the pokerkit hand types hhaudit asks for a table (cards.py and showdown.py)
HAND_TYPES = (
    "ShortDeckHoldemHand",
    "OmahaEightOrBetterLowHand",
    "EightOrBetterLowHand",
    "RegularLowHand",
    "StandardLowHand",
    "BadugiHand",
)


@pytest.fixture
def no_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's tables forgotten (restored afterwards)."""
    monkeypatch.setattr(cards, "_LOOKUPS", {})
    monkeypatch.setattr(cards, "_ENTRIES", {})


def patterns_of(obj: object) -> list[re.Pattern[Any]]:
    """Every ``re`` pattern reachable from ``obj`` (what pickling it visits)."""
    found: list[re.Pattern[Any]] = []

    class Finder(pickle.Pickler):
        def reducer_override(self, o: Any) -> Any:
            if type(o) is re.Pattern:
                found.append(o)
            return NotImplemented

    Finder(open("/dev/null", "wb")).dump(obj)  # noqa: SIM115
    return found


# ---------------------------------------------------------------------------- re programs


@pytest.mark.parametrize(
    "source,flags",
    [
        (r"(?P<player>.+?): (?P<verb>bets|calls) (?P<amount>[\d.,]+)(?P<allin> and is all-in)?$", 0),
        (r"(?i)seat (\d+): (.*)", 0),
        (r"^\*\*\* (HOLE CARDS|FLOP|TURN|RIVER) \*\*\*", re.M),
        (r"(?<=\$)\d+(?:\.\d\d)?|€\s?\d+", re.I | re.S),
        (r"[^\x00-\x1f]+", re.A),
        (rb"\xef\xbb\xbf(?P<x>.)", 0),
        (r"(?!)", 0),
    ],
)
def test_a_stored_program_makes_the_same_pattern(source: Any, flags: int) -> None:
    p = re.compile(source, flags)
    program = C._program(p)
    assert program is not None
    q = C._pattern(*program)
    assert q == p and q.groupindex == p.groupindex and q.groups == p.groups and q.flags == p.flags
    assert pickle.loads(pickle.dumps(program)) == program  # plain ints, strings, dicts: picklable


def test_another_engine_or_a_refused_program_compiles_the_source(monkeypatch: pytest.MonkeyPatch) -> None:
    p = re.compile(r"(?P<a>x+)y")
    program = C._program(p)
    assert program is not None
    magic, source, flags, code, *rest = program
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: Any, flags: int = 0) -> Any:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(C.re, "compile", counting)
    assert C._pattern(magic + 1, source, flags, code, *rest) == p  # another Python's program
    assert C._pattern(magic, source, flags, [255, 255, 255], *rest) == p  # refused by the engine
    assert compiled == [source, source]
    assert C._pattern(magic, source, flags, code, *rest) == p  # this engine's own: not compiled
    assert compiled == [source, source]


@pytest.mark.parametrize("site", ["pokerstars", "ggpoker", "winamax", "888poker", "partypoker"])
def test_a_warm_grammar_compiles_no_pattern_and_every_pattern_is_its_source_s(
    site: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fmt = Registry().formats[site]
    cold = C.compiled_grammar(fmt.name, fmt.grammars, fmt.facts)
    (path,) = sorted(cache_dir.glob(f"grammar-{site}-*.pickle"))
    real = re.compile
    compiled: list[str] = []

    def counting(pattern: Any, flags: int = 0) -> Any:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(C.re, "compile", counting)
    _key, warm = pickle.loads(path.read_bytes())
    monkeypatch.undo()
    assert compiled == []
    before, after = patterns_of(cold), patterns_of(warm)
    assert len(after) == len(before) >= 1
    for a, b in zip(before, after, strict=True):
        assert a == b == re.compile(a.pattern, a.flags) and a.groupindex == b.groupindex


# ---------------------------------------------------------------------------- pokerkit's tables


def pokerkit_table(hand_type: str) -> Any:
    import pokerkit

    return getattr(pokerkit, hand_type).lookup


def table_files(d: Path, hand_type: str) -> list[Path]:
    return sorted(d.glob(f"lookup-{hand_type}-*.pickle"))


@pytest.mark.parametrize("hand_type", HAND_TYPES)
def test_a_cached_table_is_pokerkit_s(hand_type: str, cache_dir: Path, no_tables: None) -> None:
    cold = cards.lookup(hand_type)
    assert cold == pokerkit_table(hand_type)  # (a dataclass: its entries compared)
    (path,) = table_files(cache_dir, hand_type)
    cards._LOOKUPS.clear()
    warm = cards.lookup(hand_type)
    assert warm is not pokerkit_table(hand_type) and warm == pokerkit_table(hand_type)  # read from the file
    assert type(warm) is type(pokerkit_table(hand_type))
    assert cards.lookup(hand_type) is warm  # kept for the process
    key, stored = pickle.loads(path.read_bytes())
    assert stored == warm and path.name.endswith(f"{key[:40]}.pickle")


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(b"not a pickle at all"),
        lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),  # truncated
        lambda p: p.write_bytes(pickle.dumps((pickle.loads(p.read_bytes())[0], {"a": "dict, not a table"}))),
        lambda p: p.write_bytes(pickle.dumps(("0" * 64, pickle.loads(p.read_bytes())[1]))),  # stale: key differs
        lambda p: p.write_bytes(b""),
    ],
    ids=["garbage", "truncated", "wrong-type", "stale-key", "empty"],
)
def test_a_damaged_table_file_is_rebuilt(damage: Any, cache_dir: Path, no_tables: None) -> None:
    cards.lookup("RegularLowHand")
    (path,) = table_files(cache_dir, "RegularLowHand")
    damage(path)
    cards._LOOKUPS.clear()
    assert cards.lookup("RegularLowHand") == pokerkit_table("RegularLowHand")
    _key, value = pickle.loads(path.read_bytes())  # rewritten whole
    assert value == pokerkit_table("RegularLowHand")


def test_tables_without_a_writable_cache_or_with_it_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_tables: None
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(C.ENV_DIR, str(blocker / "sub"))  # cannot be created: built, not stored
    monkeypatch.delenv(C.ENV_OFF, raising=False)
    assert cards.lookup("BadugiHand") == pokerkit_table("BadugiHand")
    cards._LOOKUPS.clear()
    monkeypatch.setenv(C.ENV_OFF, "1")
    assert cards.lookup("StandardLowHand") == pokerkit_table("StandardLowHand")
    assert not any(tmp_path.rglob("*.pickle"))


def test_another_pokerkit_gets_another_key(tmp_path: Path) -> None:
    sources = cards.pokerkit_sources()
    assert [p.name for p in sources] == list(cards.POKERKIT_SOURCES) and all(p.is_file() for p in sources)
    copies = []
    for p in sources:
        shutil.copy(p, tmp_path / p.name)
        copies.append(tmp_path / p.name)
    for ht in HAND_TYPES:
        assert cards.lookup_key(ht, copies) == cards.lookup_key(ht, sources)  # the bytes, not the place
    assert len({cards.lookup_key(ht, sources) for ht in HAND_TYPES}) == len(HAND_TYPES)
    for edited in copies:  # a release that changes any of them: every table gets another key
        before = {ht: cards.lookup_key(ht, copies) for ht in HAND_TYPES}
        edited.write_bytes(edited.read_bytes() + b"\n# another version\n")
        assert all(cards.lookup_key(ht, copies) != before[ht] for ht in HAND_TYPES)


#: A child that evaluates random deals of every game that asks pokerkit, prints the keys as JSON
#: and which of pokerkit's modules it imported.
EVALUATE = """
import json, random, sys
from auditor.replay import cards, showdown
deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
rng = random.Random(16)
out = {}
for game in ("omaha_hilo", "omaha5_hilo", "courchevel_hilo"):
    n = cards.HOLE_CARDS[game]
    out[game] = [cards.low_key(game, d[:n], d[n:n + 5]) for d in (rng.sample(deck, n + 5) for _ in range(300))]
out["shortdeck"] = [cards.high_key("shortdeck", d[:2], d[2:7]) for d in (rng.sample(deck, 7) for _ in range(300))]
deals = [rng.sample(deck, 7) for _ in range(50)]
out["shortdeck_category"] = [cards.category("shortdeck", d[:2], d[2:7]) for d in deals]
for game in ("stud_hilo", "razz", "27_single", "27_triple", "a5_triple", "badugi"):
    n, high, low = showdown.EVALUATORS[game]
    hands = [tuple(rng.sample(deck, n)) for _ in range(300)]
    out[game] = [[high(h), low(h) if low else None] for h in hands]
print(json.dumps({"keys": out, "modules": sorted(m for m in sys.modules if m.startswith("pokerkit"))}))
"""


def evaluate(tmp_path: Path, **env: str) -> dict[str, Any]:
    import os

    child_env = {k: v for k, v in os.environ.items() if k not in (C.ENV_OFF, C.ENV_DIR)} | env
    out = subprocess.run([sys.executable, "-c", EVALUATE], capture_output=True, text=True, cwd=ROOT, check=True,
                         env=child_env)  # fmt: skip
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_a_warm_process_evaluates_like_pokerkit_without_importing_it_whole(tmp_path: Path) -> None:
    d = str(tmp_path / "c")
    cold = evaluate(tmp_path, **{C.ENV_DIR: d})
    warm = evaluate(tmp_path, **{C.ENV_DIR: d})
    off = evaluate(tmp_path, **{C.ENV_OFF: "1"})
    assert "pokerkit.hands" in cold["modules"] and "pokerkit.hands" in off["modules"]
    assert warm["modules"] == ["pokerkit", "pokerkit.lookups", "pokerkit.utilities"]  # no hands, no state
    assert warm["keys"] == cold["keys"] == off["keys"]
    assert any(k is not None for k in warm["keys"]["omaha_hilo"])  # lows were found
    assert any(k is not None for k in warm["keys"]["shortdeck"])


def test_pokerkit_s_init_runs_when_its_api_is_asked_for(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from auditor.replay import cards\n"
        "cards.lookup('EightOrBetterLowHand')\n"
        "from auditor import deferinit\n"
        "assert deferinit.is_deferred('pokerkit') and 'pokerkit.state' not in sys.modules\n"
        "from pokerkit import OmahaEightOrBetterLowHand, StandardHighHand\n"
        "import pokerkit.lookups\n"
        "assert not deferinit.is_deferred('pokerkit') and 'pokerkit.state' in sys.modules\n"
        "assert isinstance(StandardHighHand.lookup, pokerkit.lookups.StandardLookup)\n"
        "assert cards.lookup('OmahaEightOrBetterLowHand') == OmahaEightOrBetterLowHand.lookup\n"
        "print('OK')\n"
    )
    import os

    env = {k: v for k, v in os.environ.items() if k != C.ENV_OFF} | {C.ENV_DIR: str(tmp_path / "c")}
    for _ in range(2):  # cold, then warm
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
        assert out.stdout.strip() == "OK", out.stderr


def test_an_audit_reports_the_same_cold_warm_and_uncached(tmp_path: Path) -> None:
    import os

    args = [sys.executable, "-m", "auditor.cli", "audit", str(FIXTURES / "sites"), "--format", "json",
            "--select", "ALL", "--fail-on", "none"]  # fmt: skip
    base = {k: v for k, v in os.environ.items() if k not in (C.ENV_OFF, C.ENV_DIR)}
    runs = []
    for env in ({C.ENV_DIR: str(tmp_path / "c")}, {C.ENV_DIR: str(tmp_path / "c")}, {C.ENV_OFF: "1"}):
        out = subprocess.run(args, capture_output=True, cwd=tmp_path, env=base | env, check=True)
        runs.append(out.stdout)
    assert runs[0] == runs[1] == runs[2]
    report = json.loads(runs[0])
    assert report["summary"]["hands_seen"] >= 100
    assert any((tmp_path / "c").glob("lookup-*.pickle"))  # the fixtures have hi/lo, stud, draw hands


def test_the_hand_types_are_those_the_code_asks_for() -> None:
    """:data:`HAND_TYPES` lists every hand type ``cards`` and ``showdown`` name (so every table
    that can be cached is tested above)."""
    text = "".join((ROOT / "auditor" / "replay" / name).read_text() for name in ("cards.py", "showdown.py"))
    named = set(re.findall(r'"([A-Z]\w+Hand)"', text))
    assert named == set(HAND_TYPES)
