"""``hhaudit profiles [NAME]``: what each rule profile decides, rendered from the dataclass.

The fields of :class:`auditor.profiles.Profile` are read generically (``dataclasses.fields``), so
the listing keeps working when options are added, renamed or moved.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from auditor.profiles import Profile

_META = ("name", "title", "citations")


def _fmt(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, tuple):
        return "/".join(str(x) for x in v)
    return str(v)


def options(p: Profile) -> list[tuple[str, str, bool]]:
    """(option, value, is the default) for every option of ``p`` except its name, title and citations."""
    out = []
    for f in dataclasses.fields(p):
        if f.name in _META:
            continue
        v = getattr(p, f.name)
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = dataclasses.MISSING
        out.append((f.name.replace("_", "-"), _fmt(v), v == default))
    return out


def render_table(profiles: list[Profile]) -> str:
    """Every profile: its title and the options where it departs from the defaults."""
    width = max(len(p.name) for p in profiles)
    lines = []
    for p in profiles:
        changed = [f"{k}={v}" for k, v, dflt in options(p) if not dflt]
        lines.append(f"{p.name:<{width}}  {p.title}")
        lines.append(f"{'':<{width}}  decides: {', '.join(changed) if changed else 'defaults only'}")
    lines.append("")
    lines.append("`hhaudit profiles NAME` shows every option of one profile and the rules it cites.")
    return "\n".join(lines) + "\n"


def render_profile(p: Profile) -> str:
    """One profile: every option (marking defaults) and every citation, by rule code or family."""
    opts = options(p)
    w = max(len(k) for k, _v, _d in opts)
    lines = [f"{p.name}: {p.title}", "", "options:"]
    lines += [f"  {k:<{w}}  {v}{'' if d else '  (differs from the default)'}" for k, v, d in opts]
    lines += ["", "citations (a finding cites the entry for its code, else its family letter, else the title):"]
    cites = getattr(p, "citations", {}) or {}
    if not cites:
        lines.append(f"  every rule: {p.title}")
    cw = max((len(k) for k in cites), default=0)
    lines += [f"  {k:<{cw}}  {v}" for k, v in sorted(cites.items())]
    return "\n".join(lines) + "\n"
