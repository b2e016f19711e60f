"""Settings of ``hhaudit audit``: defaults, a configuration file, the command line — in that order.

The configuration is read from the first of these found in the working directory or one of its
parents (the way ruff finds its own): ``.hhaudit.toml``, ``hhaudit.toml`` (settings at the top
level, or under ``[tool.hhaudit]``), or a ``pyproject.toml`` that has a ``[tool.hhaudit]``
table.  ``--config FILE`` names one explicitly; ``--isolated`` reads none.

Keys (kebab-case, as on the command line)::

    [tool.hhaudit]
    select = ["ALL"]                 # codes, prefixes, rule names, or ALL (default ALL)
    extend-select = []               # added to select
    ignore = ["D001"]                # removed from the selection (an ignore always wins)
    per-file-ignores = { "exports/old/*" = ["P002"] }
    exclude = ["*.bak", "archive/*"] # globs; files under a directory that match are not read
    rules = "tda"                    # rule profile (default: each hand's site profile)
    fail-on = "warning"              # info, warning, error (default) or none
    baseline = "baseline.json"       # relative to the configuration file

A flag given on the command line replaces the file's value of the same key (``--select``
replaces ``select``); ``--extend-select`` adds to it.  Globs are matched (``fnmatch``, where
``*`` also matches ``/``) against the path as found, the path relative to the configuration
file's folder, and the file name.  ``hhaudit config`` prints the settings in force and where
each came from.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILES = (".hhaudit.toml", "hhaudit.toml", "pyproject.toml")
LISTS = ("select", "extend-select", "ignore", "exclude")
STRINGS = ("rules", "fail-on", "baseline")
DEFAULTS: dict[str, Any] = {
    "select": ["ALL"],
    "extend-select": [],
    "ignore": [],
    "per-file-ignores": {},
    "exclude": [],
    "rules": "",
    "fail-on": "error",
    "baseline": None,
}


class ConfigError(ValueError):
    """A configuration file that cannot be read or holds a bad key or value (exit status 2)."""


@dataclass
class Setting:
    value: Any
    source: str  # "default", "command line", or the file it was read from


@dataclass
class Settings:
    """Every key's value and where it came from; ``file`` is the configuration file read, if any."""

    values: dict[str, Setting] = field(default_factory=dict)
    file: Path | None = None

    def __getitem__(self, key: str) -> Any:
        return self.values[key].value

    @property
    def base(self) -> Path:
        """The folder globs and relative paths of the file are taken from."""
        return self.file.parent if self.file else Path.cwd()


def _table(path: Path) -> dict[str, Any] | None:
    """The hhaudit settings of ``path``: None when it is a pyproject.toml without [tool.hhaudit]."""
    import tomllib  # only when a file is found (start-up, issue 16)

    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror or e}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e
    tool = doc.get("tool", {})
    section = tool.get("hhaudit") if isinstance(tool, dict) else None
    if path.name == "pyproject.toml":
        return section if isinstance(section, dict) else None
    if isinstance(section, dict):
        return section
    return doc


def find(start: Path | None = None) -> Path | None:
    """The configuration file that applies in ``start`` (default: the working directory)."""
    d = (start or Path.cwd()).resolve()
    for folder in (d, *d.parents):
        for name in FILES:
            p = folder / name
            if p.is_file() and _table(p) is not None:
                return p
    return None


def _check(key: str, value: Any, where: str) -> Any:
    if key in LISTS:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ConfigError(f"{where}: {key} must be a list of strings")
        return value
    if key == "per-file-ignores":
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: per-file-ignores must be a table of glob = [selectors]")
        out = {}
        for glob, sels in value.items():
            out[glob] = _check("ignore", sels, f"{where}: per-file-ignores {glob!r}")
        return out
    if not isinstance(value, str):
        raise ConfigError(f"{where}: {key} must be a string")
    return value


def load(path: Path) -> dict[str, Any]:
    """The checked settings of one file (unknown keys are an error, naming the nearest key)."""
    import difflib

    table = _table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.hhaudit] table")
    out: dict[str, Any] = {}
    for key, value in table.items():
        k = key.replace("_", "-")
        if k not in DEFAULTS:
            near = difflib.get_close_matches(k, list(DEFAULTS), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ConfigError(f"{path}: unknown setting {key!r}{hint} (known: {', '.join(DEFAULTS)})")
        out[k] = _check(k, value, str(path))
    if out.get("baseline"):
        out["baseline"] = str(path.parent / out["baseline"])
    return out


def resolve(flags: dict[str, Any], config: str | None = None, isolated: bool = False) -> Settings:
    """Defaults, then the configuration file (``config``, or the one :func:`find` finds), then
    the command line: ``flags`` maps keys to the values given (None: not given)."""
    s = Settings({k: Setting(v, "default") for k, v in DEFAULTS.items()})
    path = None if isolated else (Path(config) if config else find())
    if path is not None:
        path = path.resolve()
        s.file = path
        for k, v in load(path).items():
            s.values[k] = Setting(v, str(path))
    for k, v in flags.items():
        if v is None:
            continue
        if k == "extend-select" and v:
            s.values[k] = Setting([*s[k], *v], "command line" if not s[k] else f"{s.values[k].source} + command line")
        else:
            s.values[k] = Setting(v, "command line")
    return s


def matches(path: str, globs: list[str], base: Path) -> str | None:
    """The first glob of ``globs`` that ``path`` matches (as found, relative to ``base``, or by
    file name), or None."""
    if not globs or path == "-":
        return None
    cands = {path, os.path.basename(path)}
    with contextlib.suppress(ValueError):
        cands.add(os.path.relpath(os.path.abspath(path), base))
    cands |= {c.replace(os.sep, "/") for c in cands}
    for g in globs:
        if any(fnmatch.fnmatchcase(c, g) for c in cands):
            return g
    return None


def render(s: Settings) -> str:
    """``hhaudit config``: every setting as TOML, with where it came from."""
    import json

    lines = [f"# configuration file: {s.file if s.file else 'none found (defaults and flags only)'}", "[tool.hhaudit]"]
    for k in DEFAULTS:
        st = s.values[k]
        v = st.value
        if k == "per-file-ignores":
            text = "{" + ", ".join(f"{json.dumps(g)} = {json.dumps(c)}" for g, c in v.items()) + "}"
        elif v is None:
            lines.append(f"# {k} is not set  (source: {st.source})")
            continue
        else:
            text = json.dumps(v, ensure_ascii=False)
        lines.append(f"{k} = {text}  # {st.source}")
    return "\n".join(lines) + "\n"
