"""A cheaper ``__init__`` for frozen, slotted dataclasses (issue 16: events are built ~30 times a hand).

The ``__init__`` that ``dataclasses`` writes for a frozen class sets each field with
``object.__setattr__(self, name, value)``, which looks the name up on the type every time.  The
``__init__`` made here calls each slot's own descriptor (``Cls.__dict__[name].__set__``) instead:
the same slots set to the same values, about half the cost.  Everything else stays the dataclass's:
the signature (names, order, defaults, keyword use), ``__eq__``, ``__hash__``, ``__repr__``,
``dataclasses.replace``, pickling, and the frozen ``__setattr__`` that refuses assignment.

Only classes this module fully understands are changed (frozen, slotted, every field set by
``__init__``, no ``__post_init__``, no ``InitVar``, no keyword-only field); any other is left as it
is.  ``tests/test_fastinit.py`` checks the result against the dataclass's own ``__init__``.

A class compiled by mypyc (``auditor/model.py`` in the compiled build) is a native class whose
attributes are getset descriptors of the class, and whose ``__init__`` is still the interpreted one
``dataclasses`` writes (mypyc compiles only the methods written in the source): it gets the same
treatment through those descriptors, which also check each value's type as the native class does.
"""

from __future__ import annotations

import dataclasses
from typing import Any

_NO_DEFAULT = dataclasses.MISSING


def _slot_setters(cls: type) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    native = cls.__dict__.get("__mypyc_attrs__")
    if native is not None:  # compiled by mypyc: every attribute is a getset descriptor of the class itself
        for name in native:
            d = cls.__dict__.get(name)
            if d is None or not hasattr(d, "__set__"):
                return None
            out[name] = d.__set__
        return out
    for klass in cls.__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            d = klass.__dict__.get(name)
            if d is None or not hasattr(d, "__set__"):
                return None
            out.setdefault(name, d.__set__)
    return out


def speed_up(cls: type) -> bool:
    """Give the frozen slotted dataclass ``cls`` the descriptor-setting ``__init__``; returns whether
    it did (False: the class is left unchanged)."""
    params = getattr(cls, "__dataclass_params__", None)
    slotted = "__slots__" in cls.__dict__ or "__mypyc_attrs__" in cls.__dict__  # (a mypyc class has no __slots__)
    if params is None or not params.frozen or not slotted or hasattr(cls, "__post_init__"):
        return False
    fields = dataclasses.fields(cls)
    setters = _slot_setters(cls)
    if setters is None or any(not f.init or f.kw_only or f.name not in setters for f in fields):
        return False
    if len(fields) != len(setters):
        return False
    ns: dict[str, Any] = {"_MISSING": _NO_DEFAULT}
    args: list[str] = []
    body: list[str] = []
    for i, f in enumerate(fields):
        ns[f"_set{i}"] = setters[f.name]
        if f.default is not _NO_DEFAULT:
            ns[f"_dflt{i}"] = f.default
            args.append(f"{f.name}=_dflt{i}")
            body.append(f"    _set{i}(self, {f.name})")
        elif f.default_factory is not _NO_DEFAULT:
            ns[f"_fact{i}"] = f.default_factory
            args.append(f"{f.name}=_MISSING")
            body.append(f"    _set{i}(self, _fact{i}() if {f.name} is _MISSING else {f.name})")
        else:
            if any(a.find("=") >= 0 for a in args):
                return False  # (a dataclass would have refused this order already)
            args.append(f.name)
            body.append(f"    _set{i}(self, {f.name})")
    src = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(src, ns)  # generated from the class's own field list, as dataclasses does
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__dict__["__init__"].__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning a method)
    return True
