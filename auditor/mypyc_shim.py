"""``mypyc_attr`` for the modules of the compiled build (issue 16) that need it on a class.

The decorator tells mypyc how to compile a class (a native class another module subclasses, one
that :mod:`pickle` copies, one that must stay a Python class); it does nothing at run time.  It
comes with ``mypy_extensions``, which a pure-Python install may not have: there it is a no-op.
"""

from __future__ import annotations

from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python without mypy installed

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


__all__ = ["mypyc_attr"]
