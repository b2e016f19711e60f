"""An on-disk cache of what the format registry derives from its sources (issue 16: start-up).

Compiling a format's grammar chain (composing the ``.peg`` files, then parsimonious compiling ~80
regexes) and deriving every format's hand-header pattern (composing every grammar, importing every
document reader for its ``SNIFF``) cost most of the start-up of a one-hand ``hhaudit audit``; reading
the ~40 format cards (TOML, export facts, house profiles) cost ~10 ms more.  All are pure functions
of files: the grammar and card files, the modules of :mod:`auditor.formats` that define what is
derived and how it is stored (and :mod:`auditor.profiles` for the cards), the sources of parsimonious
and ``regex``, and the versions of hhaudit and Python.  So the results are pickled in a user cache
directory, keyed by a BLAKE2b digest of all of those (the built-in one,
:mod:`auditor.digests`: no OpenSSL import at start-up), and reused while the key is the same.  The libraries'
sources are found without importing them: a cached grammar is made of ``parsimonious.expressions``
objects, and loading it never imports ``parsimonious.grammar`` (see
:mod:`auditor.formats.parsimonious_light`).

Never a wrong grammar:

* the key covers every byte the derived value depends on (a grammar edit, a card edit, another
  version of a library or of this package: another key, another file);
* the key is stored inside the file too, and checked after loading (a file copied or renamed by
  hand is not trusted);
* a file that cannot be read, unpickled or checked is ignored and rebuilt (and overwritten);
* files are written atomically (a temporary file in the same directory, then ``os.replace``), so a
  concurrent reader (two batch workers starting at once) sees the old file, the new one or none;
* any failure to write (read-only home, full disk) only costs the time of building again.

Bounded on disk: every edit of a grammar or card, every hhaudit or Python upgrade, gives new keys,
and the old files are never read again.  So each write (a cache miss: something was just built)
also removes the files not used for :data:`STALE_DAYS` days and any temporary file a killed writer
left behind (older than a day); a file in use keeps a fresh modification time (a load touches it
when it is more than a day old).  Only this package's own ``<kind>-<key>.pickle`` names are removed.

Where: ``$HHAUDIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/hhaudit``, else ``~/.cache/hhaudit``
(``%LOCALAPPDATA%\\hhaudit`` on Windows).  ``HHAUDIT_NO_CACHE=1`` turns the cache off (every
process builds what it needs, as before).  The directory is created private to the user (0700):
its pickles are loaded by this package, so it must be writable by the user alone, like Python's
own ``__pycache__``.  ``hhaudit`` never reads a cache file written by anybody else: files not owned
by the current user are ignored (POSIX).

Compiled ``re`` patterns (a grammar's fast-path line patterns, ~40 for PokerStars) are stored with
what CPython's ``re`` compiler made of them (:func:`_pattern`): pickled the ordinary way, a pattern
is compiled again from its source when it is loaded (~20 ms of a one-hand audit's ~140).  The
stored program is checked when it is written (the pattern it makes equals the compiled one) and
again when it is read (the ``_sre`` engine's ``MAGIC`` and its own validation of the program); any
doubt, or another Python, and the pattern is compiled from its source as before.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pickle
import re
import sys
import time
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from auditor.digests import blake2b

T = TypeVar("T")

ENV_DIR = "HHAUDIT_CACHE_DIR"
ENV_OFF = "HHAUDIT_NO_CACHE"
#: Bumped when the layout of cached values changes in a way the source fingerprint would not see.
LAYOUT = 1
#: Days after which a cache file nobody loaded is removed (at the next write).
STALE_DAYS = 30
_DAY = 86_400.0
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*-[0-9a-f]{40}\.pickle(?:\.[^/\\]+\.tmp)?")


def cache_dir() -> Path | None:
    """The cache directory (not created here), or None when the cache is turned off."""
    if os.environ.get(ENV_OFF, "").strip() not in ("", "0"):
        return None
    explicit = os.environ.get(ENV_DIR)
    if explicit:
        return Path(explicit)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "hhaudit"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hhaudit"


@cache
def _code_fingerprint() -> bytes:
    """The versions, the sources of parsimonious and of its ``regex`` engine, the modules of
    :mod:`auditor.formats` and :mod:`auditor.profiles` (what derives the cached values and what
    they are pickled as).

    Found without importing them (``importlib.util.find_spec``): a cache hit then never imports
    ``parsimonious.grammar`` (see :mod:`auditor.formats.parsimonious_light`)."""
    from auditor import __version__

    h = blake2b(digest_size=32)
    h.update(f"{LAYOUT}|{__version__}|".encode())
    h.update(sys.version.encode())
    # parsimonious states no version at run time: its own source is the key (what pickled
    # expressions are made of); regex's (its version is in its _main.py) and the names of its
    # compiled modules; then the modules here
    dirs: list[Path] = []
    for lib in ("parsimonious", "regex"):
        spec = importlib.util.find_spec(lib)
        for loc in (spec.submodule_search_locations or []) if spec is not None else []:
            dirs.append(Path(loc))
        h.update(f"|{lib}:{len(dirs)}|".encode())
    here = Path(__file__).resolve().parent
    for d in (*dirs, here):
        for p in sorted(d.glob("*.py")):
            h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
        for p in sorted(d.glob("*.so")) + sorted(d.glob("*.pyd")):
            h.update(p.name.encode() + b"\0" + str(p.stat().st_size).encode() + b"\0")
    # the house profiles in the cards are pickled field by field (``Profile.__reduce__``): its fields
    # are part of what a cached card means (the compiled wheel ships the .py beside its .so)
    profiles = here.parent / "profiles.py"
    if profiles.is_file():
        h.update(b"profiles.py\0" + profiles.read_bytes() + b"\0")
    return h.digest()


def key_of(kind: str, files: Iterable[Path], extra: str = "") -> str:
    """The cache key of a value of ``kind`` derived from ``files`` (their names and bytes, in order)
    and ``extra`` (any other input, e.g. a ``repr``), with the code fingerprint."""
    h = blake2b(_code_fingerprint(), digest_size=32)
    h.update(kind.encode() + b"\0")
    for p in files:
        h.update(str(p.name).encode() + b"\0" + Path(p).read_bytes() + b"\0")
    h.update(extra.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def path_of(kind: str, key: str) -> Path | None:
    d = cache_dir()
    return None if d is None else d / f"{kind}-{key[:40]}.pickle"


def _load(path: Path, key: str, expect: type) -> object | None:
    try:
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            if hasattr(os, "getuid") and st.st_uid != os.getuid():
                return None  # somebody else's file: never loaded
            stored = pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception:  # corrupt, truncated, from another layout: rebuilt
        return None
    if not (isinstance(stored, tuple) and len(stored) == 2 and stored[0] == key and isinstance(stored[1], expect)):
        return None
    _touch(path, st.st_mtime)
    return stored[1]


def _touch(path: Path, mtime: float) -> None:
    """Mark a file in use (its modification time now) when it was last marked over a day ago, so
    that :func:`prune` keeps it: at most one ``utime`` a file a day."""
    import time

    if time.time() - mtime > _DAY:
        with contextlib.suppress(OSError):  # read-only: the file may be pruned and built again, nothing worse
            os.utime(path)


def prune(directory: Path, now: float | None = None) -> list[str]:
    """Remove from ``directory`` the cache files not used for :data:`STALE_DAYS` days and the
    temporary files of writes that never finished (older than a day); returns the names removed.

    Only this package's file names (``<kind>-<40 hex digits>.pickle``, and those names with a
    temporary suffix) owned by the current user are considered; any error leaves the file."""
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for e in entries:
        if not _NAME.fullmatch(e.name):
            continue
        try:
            st = e.stat(follow_symlinks=False)
            if uid is not None and st.st_uid != uid:
                continue
            limit = _DAY if e.name.endswith(".tmp") else STALE_DAYS * _DAY
            if now - st.st_mtime > limit and e.is_file(follow_symlinks=False):
                os.unlink(e.path)
                removed.append(e.name)
        except OSError:
            continue
    return removed


@cache
def _internals() -> tuple[Any, Any, Any]:
    """CPython's regular expression engine and the ``re`` compiler's parser and code generator
    (private modules: their absence, or another layout, means patterns are pickled as usual)."""
    import importlib

    sre: Any = importlib.import_module("_sre")
    return sre, importlib.import_module("re._compiler"), importlib.import_module("re._parser")


def _program(p: re.Pattern[Any]) -> tuple[Any, ...] | None:
    """The arguments CPython's ``re`` compiler hands ``_sre.compile`` for ``p`` (its source, flags,
    program, group count and names), or None when they cannot be derived here or do not give back
    a pattern equal to ``p`` (``re.Pattern`` equality compares the source, flags and program)."""
    try:
        _sre, _compiler, _parser = _internals()
        parsed = _parser.parse(p.pattern, p.flags)
        code = [int(op) for op in _compiler._code(parsed, p.flags)]  # (its opcodes are int subclasses)
        groupindex = parsed.state.groupdict
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        args = (p.pattern, p.flags | parsed.state.flags, code, parsed.state.groups - 1, groupindex, tuple(indexgroup))
        if _sre.compile(*args) != p:
            return None
        return (_sre.MAGIC, *args)
    except Exception:  # another implementation or layout of re's internals: pickled the ordinary way
        return None


def _pattern(magic: int, pattern: Any, flags: int, *program: Any) -> re.Pattern[Any]:
    """A stored pattern (:func:`_program`) made again without compiling its source, when the
    engine is the one that wrote it; else compiled from its source, as an ordinary pickle does."""
    try:
        _sre = _internals()[0]
        if magic == _sre.MAGIC:
            compiled: re.Pattern[Any] = _sre.compile(pattern, flags, *program)  # the engine validates the program
            return compiled
    except Exception:
        pass
    return re.compile(pattern, flags)


class _Pickler(pickle.Pickler):
    """Pickles ``re`` patterns with their compiled program (:func:`_program`)."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is re.Pattern:
            program = _program(obj)
            if program is not None:
                return _pattern, program
        return NotImplemented


def _store(path: Path, key: str, value: object) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        import tempfile  # only when writing (a cache hit does not import it)

        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump((key, value))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except Exception:  # read-only or full: the value was built, only the next start-up pays again
        return
    prune(path.parent)


def load_or_build(kind: str, key: str, expect: type[T], build: Callable[[], T]) -> T:
    """The cached value of ``kind`` under ``key`` (an instance of ``expect``), else ``build()``,
    stored for next time."""
    path = path_of(kind, key)
    if path is not None:
        found = _load(path, key, expect)
        if found is not None:
            return found  # type: ignore[return-value]  # checked: isinstance(found, expect)
    value = build()
    if path is not None:
        _store(path, key, value)
    return value


# ------------------------------------------------------------------------ what the registry caches


def compiled_grammar(name: str, files: tuple[Path, ...], facts: object) -> object:
    """The :class:`~auditor.formats.peg.PegGrammar` of a grammar chain, its line dispatch and head
    plan included (what the first hand would derive), from the cache or compiled."""
    from auditor.formats.peg import PegGrammar

    def build() -> PegGrammar:
        g = PegGrammar.compile(name, files, facts)  # type: ignore[arg-type]
        _ = g.dispatch, g.head_plan  # derived in compile: pickled with the grammar
        return g

    return load_or_build(f"grammar-{name}", key_of("grammar", files, f"{name}|{facts!r}"), PegGrammar, build)


def header_patterns(cards: list[Path], grammars: list[Path], build: Callable[[], dict[str, T]],
                    kind: str = "patterns") -> dict[str, T]:  # fmt: skip
    """Every format's hand-header and lead-in patterns and the registry's patterns compiled from them
    and from the cards (the header detector, ...: see :class:`~auditor.formats.registry.Registry`),
    keyed by every card and grammar file of the registry (document readers' ``SNIFF`` patterns live
    in :mod:`auditor.formats` modules, which the code fingerprint covers); ``kind`` another value
    derived from the same files (``"dispatch"``: the split's header dispatch, with the file of the
    code deriving it among ``grammars``)."""
    key = key_of(kind, [*cards, *grammars], "|".join(str(p.parent) for p in cards))
    return load_or_build(kind, key, dict, build)


def format_cards(directories: list[Path], build: Callable[[], dict[str, T]]) -> dict[str, T]:
    """The registry's loaded format cards (:class:`~auditor.formats.registry.Format` by name: the
    TOML read, the export facts and house profiles built), keyed by every card's bytes, the
    directories in order, the ``.peg`` files each holds (a card's grammar chain is resolved by
    looking for them) and :mod:`auditor.profiles` (what a card's ``[profile]`` becomes)."""
    cards = [p for d in directories for p in sorted(d.glob("*.toml"))]
    pegs = [f"{d}:{','.join(sorted(p.name for p in d.glob('*.peg')))}" for d in directories]
    profiles = Path(__file__).resolve().parent.parent / "profiles.py"
    key = key_of("cards", [*cards, profiles], "|".join(str(p.parent) for p in cards) + "|" + "|".join(pegs))
    return load_or_build("cards", key, dict, build)
