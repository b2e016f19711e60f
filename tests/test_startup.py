"""Start-up (issue 16): the on-disk grammar cache never gives a wrong grammar, and a one-hand audit
imports none of the heavy libraries it does not need.

* a cold cache is built and written; a warm one is loaded without compiling; a corrupt, truncated,
  renamed (another key inside) or foreign file is ignored and rebuilt; an edited grammar gets
  another key.  Every grammar so obtained reads every fixture hand exactly as a fresh compile does;
* the cross-hand stage gives what :class:`auditor.crosshand_audit.Bounded` gives, with polars imported
  only from the second hand on.
"""

from __future__ import annotations

import io
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.formats import Chunk
from auditor.formats import cache as C
from auditor.formats.peg import PegGrammar, read_hand
from auditor.formats.registry import Format, Registry, grammar_dir
from auditor.ingest import expand_paths, read_stream
from tests.conftest import FIXTURES, ROOT

SITES = ("pokerstars", "ggpoker", "winamax", "888poker", "partypoker")


def fixture_chunks(site: str) -> list[Chunk]:
    out: list[Chunk] = []
    for p in expand_paths([str(FIXTURES / "sites" / site)]):
        data = Path(p).read_bytes()
        out += [c for c in read_stream(io.BytesIO(data), p, len(data))[1] if isinstance(c, Chunk) and c.site == site]
    return out


def fresh(fmt: Format) -> PegGrammar:
    return PegGrammar.compile(fmt.name, fmt.grammars, fmt.facts)


def reads_like_fresh(g: PegGrammar, fmt: Format) -> int:
    ref = fresh(fmt)
    n = 0
    for c in fixture_chunks(fmt.name):
        assert read_hand(g, c) == read_hand(ref, c), f"{c.path}:{c.first_line}"
        assert read_hand(g, c, fast=False) == read_hand(ref, c, fast=False)
        n += 1
    return n


def cached(fmt: Format) -> PegGrammar:
    g = C.compiled_grammar(fmt.name, fmt.grammars, fmt.facts)
    assert isinstance(g, PegGrammar)
    return g


def files(d: Path, kind: str) -> list[Path]:
    return sorted(d.glob(f"{kind}-*.pickle"))


@pytest.mark.parametrize("site", SITES)
def test_cold_then_warm_cache_reads_like_a_fresh_compile(site: str, cache_dir: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    fmt = Registry().formats[site]
    g = cached(fmt)  # cold: compiled and written
    assert len(files(cache_dir, f"grammar-{site}")) == 1
    assert reads_like_fresh(g, fmt) >= 1

    def no_compile(*a: object, **k: object) -> PegGrammar:
        raise AssertionError("compiled although the cache is warm")

    monkeypatch.setattr(PegGrammar, "compile", classmethod(no_compile))
    warm = cached(fmt)
    assert warm.dispatch.by_first  # derived once (in compile), stored
    monkeypatch.undo()
    monkeypatch.setenv(C.ENV_DIR, str(cache_dir))
    assert reads_like_fresh(warm, fmt) >= 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(b"not a pickle at all"),
        lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),  # truncated
        lambda p: p.write_bytes(pickle.dumps(("another key", "a string, not a grammar"))),
        lambda p: p.write_bytes(pickle.dumps(("0" * 64, pickle.loads(p.read_bytes())[1]))),  # stale: key differs
        lambda p: p.write_bytes(b""),
    ],
    ids=["garbage", "truncated", "wrong-type", "stale-key", "empty"],
)
def test_a_damaged_cache_file_is_rebuilt(damage: object, cache_dir: Path) -> None:
    fmt = Registry().formats["pokerstars"]
    cached(fmt)
    (path,) = files(cache_dir, "grammar-pokerstars")
    damage(path)  # type: ignore[operator]
    g = cached(fmt)
    assert reads_like_fresh(g, fmt) >= 1
    key, value = pickle.loads(path.read_bytes())  # rewritten whole
    assert isinstance(value, PegGrammar) and path.name.endswith(f"{key[:40]}.pickle")


def test_an_edited_grammar_gets_another_key_and_its_own_reading(tmp_path: Path, cache_dir: Path) -> None:
    src = tmp_path / "grammars"
    shutil.copytree(grammar_dir(), src)
    before = Registry([src]).formats["pokerstars"]
    g1 = cached(before)
    # the same edit in the copy: "checks" lines no longer read as actions (they become unknown lines)
    peg = src / "_stars.peg"
    text = peg.read_text("utf-8")
    assert "checks" in text
    peg.write_text(text.replace("checks", "chequers"), "utf-8")
    after = Registry([src]).formats["pokerstars"]
    g2 = cached(after)
    assert len(files(cache_dir, "grammar-pokerstars")) == 2
    assert reads_like_fresh(g2, after) >= 1  # the edited grammar, not the cached one
    c = next(c for c in fixture_chunks("pokerstars") if any(": checks" in x for x in c.lines))
    assert read_hand(g1, c) != read_hand(g2, c)


def test_header_patterns_cached_equal_derived(cache_dir: Path) -> None:
    r = Registry()
    derived = {f.name: (f.header_pattern(), f.lead_in_pattern()) for f in r.supported()}
    assert r.patterns == derived  # cold
    assert files(cache_dir, "patterns")
    assert Registry().patterns == derived  # warm
    (path,) = files(cache_dir, "patterns")
    path.write_bytes(b"\x80\x05garbage")
    assert Registry().patterns == derived  # rebuilt


def test_compiled_registry_patterns_cached_equal_compiled(cache_dir: Path) -> None:
    """The detector and the other patterns the registry compiles come from the cache with their
    programs (issue 16: start-up): equal to compiling them now, cold and warm."""
    for r in (Registry(), Registry()):  # cold, then warm
        sup = r.supported()
        text = [f for f in sup if not f.is_document]
        assert r.detector == re.compile("|".join(f"(?P<fmt_{f.name}>{f.header_pattern()})" for f in text))
        assert r.preamble == re.compile("|".join(f"(?:{f.preamble})" for f in sup if f.preamble))
        assert r.summary_start == re.compile("|".join(f"(?:{f.summary})" for f in r.formats.values() if f.summary))
        assert r.separator_line == re.compile("|".join(f"(?:{f.separator})" for f in r.formats.values() if f.separator))
        assert [(p, f.name) for p, f in r.sniffers] == [
            (re.compile(f.header_pattern()), f.name) for f in sup if f.is_document
        ]
        assert r.lead_ins == {f.name: re.compile(p) for f in sup if (p := f.lead_in_pattern()) is not None}
        assert [f.name for _p, f in r.recognisers] == [f.name for f in r.formats.values() if not f.supported]
    assert files(cache_dir, "patterns")


def test_cache_off_and_unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = Registry().formats["pokerstars"]
    monkeypatch.setenv(C.ENV_OFF, "1")
    assert C.cache_dir() is None
    assert reads_like_fresh(cached(fmt), fmt) >= 1
    monkeypatch.delenv(C.ENV_OFF)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(C.ENV_DIR, str(blocker / "sub"))  # cannot be created: built, not stored
    assert reads_like_fresh(cached(fmt), fmt) >= 1


def run_py(code: str, tmp_path: Path) -> str:
    env_code = f"import os; os.environ['{C.ENV_DIR}'] = {str(tmp_path / 'c')!r}\n" + code
    out = subprocess.run([sys.executable, "-c", env_code], capture_output=True, text=True, cwd=ROOT, check=True)
    return out.stdout


#: A child's code that audits the one-hand sample as ``hhaudit audit`` does (then the test's own lines).
ONE_HAND_AUDIT = (
    "import sys\n"
    "from auditor.cli import main\n"
    "try:\n"
    f"    main(['audit', {str(FIXTURES / 'samples' / 'disputed_reraise.txt')!r}])\n"
    "except SystemExit:\n"
    "    pass\n"
)


def test_one_hand_audit_imports_no_heavy_library(tmp_path: Path) -> None:
    """``hhaudit audit one_hand.txt``: no polars (the cross-hand stage waits for a second hand), no
    pokerkit (no hi/lo or short-deck hand), no jinja2 (no report), no dask, no pyarrow, no OpenSSL
    (``_hashlib``: BLAKE2b comes from the built-in module, :mod:`auditor.digests`)."""
    code = (
        ONE_HAND_AUDIT
        + "heavy = {'polars', 'pokerkit', 'jinja2', 'dask', 'pyarrow', 'numpy', 'starlette', '_hashlib'}\n"
        "print('IMPORTED', sorted({m.split('.')[0] for m in sys.modules} & heavy))\n"
    )
    for _ in range(2):  # cold cache, then warm
        out = run_py(code, tmp_path)
        assert "B001" in out  # the audit ran
        assert "IMPORTED []" in out


def test_a_warm_cache_loads_no_parsimonious_grammar(tmp_path: Path) -> None:
    """A grammar from the cache is made of ``parsimonious.expressions`` objects: parsimonious's own
    rule grammar (built when ``parsimonious.grammar`` is imported) is not needed; the package's API
    still answers when asked for (its ``__init__`` then runs)."""
    code = (
        ONE_HAND_AUDIT + "print('GRAMMAR', 'parsimonious.grammar' in sys.modules)\n"
        "import parsimonious\n"
        "from parsimonious import Grammar, ParseError\n"
        "from parsimonious.grammar import Grammar as G2\n"
        "assert Grammar is G2 and parsimonious.Grammar is G2 and issubclass(ParseError, Exception)\n"
        "print('PARSES', bool(Grammar('a = ~r\"x+\"').parse('xx')))\n"
    )
    run_py(code, tmp_path)  # cold: compiles (and imports parsimonious.grammar)
    out = run_py(code, tmp_path)
    assert "B001" in out
    assert "GRAMMAR False" in out and "PARSES True" in out


def test_parsimonious_light_defers_only_the_package_init() -> None:
    code = (
        "import sys\n"
        "from auditor.formats import parsimonious_light as L\n"
        "assert L.is_deferred()  # installed by importing auditor.formats\n"
        "L.install()  # again: nothing changes\n"
        "import parsimonious.expressions\n"
        "assert L.is_deferred() and 'parsimonious.grammar' not in sys.modules\n"
        "import parsimonious\n"
        "assert parsimonious.ParseError is parsimonious.exceptions.ParseError\n"
        "assert not L.is_deferred() and 'parsimonious.grammar' in sys.modules\n"
        "print('OK')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "OK"


def test_cross_hand_stage_waits_for_a_second_hand() -> None:
    from auditor.audit import AuditRun
    from auditor.crosshand_audit import Bounded, FirstHandFirst

    cs = [c for site in ("pokerstars", "winamax", "ggpoker") for c in fixture_chunks(site)]
    assert len(cs) >= 10
    for n in (0, 1, 2, 3, len(cs)):
        lazy, real = FirstHandFirst(), Bounded()
        for c in cs[:n]:
            for collector in (lazy, real):
                AuditRun(crosshand=collector).process(c)
        assert list(lazy.findings()) == list(real.findings())
        if n <= 1:
            assert lazy.inner is None and list(lazy.findings()) == []


def test_format_cards_cached_equal_loaded(cache_dir: Path) -> None:
    loaded = Registry()._load_cards()
    assert Registry().formats == loaded  # cold: loaded and written
    (path,) = files(cache_dir, "cards")
    assert Registry().formats == loaded  # warm
    path.write_bytes(b"\x80\x05garbage")
    assert Registry().formats == loaded  # rebuilt


def test_a_new_card_or_grammar_file_gets_another_cards_key(tmp_path: Path, cache_dir: Path) -> None:
    src = tmp_path / "grammars"
    shutil.copytree(grammar_dir(), src)
    before = Registry([src]).formats
    card = src / "pokerstars.toml"
    card.write_text(card.read_text("utf-8").replace('title = "', 'title = "Edited ', 1), "utf-8")
    after = Registry([src]).formats
    assert after["pokerstars"].title.startswith("Edited ") and not before["pokerstars"].title.startswith("Edited ")
    assert len(files(cache_dir, "cards")) == 2


def test_the_command_s_own_parser_reads_its_arguments_as_the_whole_parser() -> None:
    from auditor.cli import _parser

    for argv in (
        ["audit", "a.txt", "--format", "json", "--select", "B", "-o", "out.json"],
        ["parse", "a.txt", "--to", "jsonl", "--out", "d"],
        ["explain", "a.txt", "--hand", "123"],
        ["rules", "B001"],
        ["profiles"],
        ["config", "--isolated"],
        ["formats", "pokerstars"],
        ["batch", "in", "--store", "s", "--workers", "2", "--quiet"],
        ["report", "--store", "s", "--html", "out"],
    ):
        assert vars(_parser(argv[0]).parse_args(argv)) == vars(_parser().parse_args(argv)), argv


def test_the_batch_command_starts_its_pool_before_the_audit_stack(tmp_path: Path) -> None:
    """``hhaudit batch``: neither importing ``auditor.cli`` nor reading the batch command's arguments
    imports the audit stack (the pool's workers start first, issue 16)."""
    code = (
        "import sys\n"
        "from auditor.cli import _parser\n"
        "_parser('batch').parse_args(['batch', 'in', '--store', 's', '--workers', '2'])\n"
        "print('LOADED', sorted(m for m in ('auditor.pipeline', 'auditor.audit', 'auditor.output', 'polars') "
        "if m in sys.modules))\n"
    )
    assert "LOADED []" in run_py(code, tmp_path)


def test_quick_exit_only_for_the_process_s_own_command(tmp_path: Path) -> None:
    """``hhaudit`` freezes the objects left out of the collector's sight before the process ends
    (``auditor.cli.quick_exit``: no collection of the whole heap at exit), never for a caller of
    ``main(argv)``; the command's output is the same."""
    import gc

    from auditor.cli import main

    hand = ROOT / "fixtures" / "samples" / "disputed_reraise.txt"
    before = gc.get_freeze_count()
    out = tmp_path / "in-process.json"
    assert main(["audit", str(hand), "--format", "json", "-o", str(out), "--fail-on", "none", "-q"]) == 0
    assert gc.get_freeze_count() == before
    child = tmp_path / "process.json"
    subprocess.run([sys.executable, "-m", "auditor.cli", "audit", str(hand), "--format", "json", "-o", str(child),
                    "--fail-on", "none", "-q"], check=True, cwd=ROOT)  # fmt: skip
    assert child.read_bytes() == out.read_bytes()
