"""Import parsimonious's expressions without its package ``__init__`` (issue 16: start-up).

``import parsimonious.expressions`` first runs ``parsimonious/__init__.py``, which imports
``parsimonious.grammar``, which builds parsimonious's own rule grammar - twice - when it is imported
(~8 ms, a twentieth of a one-hand ``hhaudit audit``).  A grammar loaded from the on-disk cache
(:mod:`auditor.formats.cache`) is made of ``parsimonious.expressions`` objects only and needs none of
that; only compiling a ``.peg`` file needs :class:`parsimonious.grammar.Grammar`.

:func:`install` registers the ``parsimonious`` package in ``sys.modules`` without running its
``__init__`` (:func:`auditor.deferinit.defer`, also used for pokerkit's: the same module object,
found by the normal import machinery, with its ``__path__``), so its submodules import as usual.
The first time anything asks the package itself for a name (``from parsimonious import Grammar``,
``parsimonious.ParseError``), a module ``__getattr__`` runs the real ``__init__`` on that module
object and answers from it: nothing of parsimonious is replaced, copied or changed, only the moment
its ``__init__`` runs.  When parsimonious is already imported, or cannot be found, nothing is done.
"""

from __future__ import annotations

from types import ModuleType

from auditor import deferinit

NAME = "parsimonious"


def install() -> None:
    """Make ``parsimonious``'s submodules importable without running its ``__init__`` yet
    (:func:`auditor.deferinit.defer`)."""
    deferinit.defer(NAME)


def is_deferred(module: ModuleType | None = None) -> bool:
    """Whether the package's ``__init__`` has not run yet (for tests)."""
    return deferinit.is_deferred(NAME, module)
