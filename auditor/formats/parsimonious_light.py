"""Import parsimonious's expressions without its package ``__init__`` (issue 16: start-up).

``import parsimonious.expressions`` first runs ``parsimonious/__init__.py``, which imports
``parsimonious.grammar``, which builds parsimonious's own rule grammar - twice - when it is imported
(~8 ms, a twentieth of a one-hand ``hhaudit audit``).  A grammar loaded from the on-disk cache
(:mod:`auditor.formats.cache`) is made of ``parsimonious.expressions`` objects only and needs none of
that; only compiling a ``.peg`` file needs :class:`parsimonious.grammar.Grammar`.

:func:`install` registers the ``parsimonious`` package in ``sys.modules`` without running its
``__init__`` (the same module object, found by the normal import machinery, with its ``__path__``),
so its submodules import as usual.  The first time anything asks the package itself for a name
(``from parsimonious import Grammar``, ``parsimonious.ParseError``), a module ``__getattr__`` runs the
real ``__init__`` on that module object and answers from it: nothing of parsimonious is replaced,
copied or changed, only the moment its ``__init__`` runs.  When parsimonious is already imported, or
cannot be found, nothing is done.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

NAME = "parsimonious"
_lock = threading.RLock()


def install() -> None:
    """Make ``parsimonious``'s submodules importable without running its ``__init__`` yet."""
    if NAME in sys.modules:
        return
    with _lock:
        if NAME in sys.modules:
            return
        spec = importlib.util.find_spec(NAME)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return  # not installed as a package: the ordinary import reports it
        module = importlib.util.module_from_spec(spec)
        loader = spec.loader
        state = {"done": False}

        def __getattr__(name: str) -> Any:  # the module-level hook (PEP 562)
            with _lock:
                if not state["done"]:
                    state["done"] = True
                    del module.__dict__["__getattr__"]
                    loader.exec_module(module)  # the package's own __init__, on the same module
            try:
                return module.__dict__[name]
            except KeyError:
                raise AttributeError(f"module {NAME!r} has no attribute {name!r}") from None

        module.__dict__["__getattr__"] = __getattr__
        sys.modules[NAME] = module


def is_deferred(module: ModuleType | None = None) -> bool:
    """Whether the package's ``__init__`` has not run yet (for tests)."""
    m = module if module is not None else sys.modules.get(NAME)
    return m is not None and "__getattr__" in m.__dict__
