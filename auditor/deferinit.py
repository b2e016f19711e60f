"""Import a package's submodules without running the package's ``__init__`` (issue 16: start-up).

Some libraries' package ``__init__`` imports everything they have, and some of that is costly at
import time: ``parsimonious/__init__.py`` builds parsimonious's own rule grammar (twice; a cached
grammar needs only ``parsimonious.expressions``, :mod:`auditor.formats.parsimonious_light`), and
``pokerkit/__init__.py`` imports its game state machine and builds the lookup table of every hand
type it knows (~0.3 s of CPU, where an audit needs one table: :mod:`auditor.replay.cards`).

:func:`defer` registers the package in ``sys.modules`` without running its ``__init__`` (the same
module object the normal import machinery would make, with its ``__path__``), so its submodules
import as usual.  The first time anything asks the package itself for a name (``from pokerkit
import StandardHighHand``, ``parsimonious.ParseError``), a module ``__getattr__`` (PEP 562) runs the
real ``__init__`` on that module object and answers from it: nothing of the library is replaced,
copied or changed, only the moment its ``__init__`` runs.  When the package is already imported, or
cannot be found, nothing is done.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

_lock = threading.RLock()


def defer(name: str) -> None:
    """Make the package ``name``'s submodules importable without running its ``__init__`` yet."""
    if name in sys.modules:
        return
    with _lock:
        if name in sys.modules:
            return
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return  # not installed as a package: the ordinary import reports it
        module = importlib.util.module_from_spec(spec)
        loader = spec.loader
        state = {"done": False}

        def __getattr__(attr: str) -> Any:  # the module-level hook (PEP 562)
            with _lock:
                if not state["done"]:
                    state["done"] = True
                    del module.__dict__["__getattr__"]
                    loader.exec_module(module)  # the package's own __init__, on the same module
            try:
                return module.__dict__[attr]
            except KeyError:
                raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

        module.__dict__["__getattr__"] = __getattr__
        sys.modules[name] = module


def is_deferred(name: str, module: ModuleType | None = None) -> bool:
    """Whether the package ``name``'s ``__init__`` has not run yet (for tests)."""
    m = module if module is not None else sys.modules.get(name)
    return m is not None and "__getattr__" in m.__dict__
