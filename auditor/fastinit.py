"""A cheaper ``__init__`` for frozen, slotted dataclasses (issue 16: events are built ~30 times a hand).

The ``__init__`` that ``dataclasses`` writes for a frozen class sets each field with
``object.__setattr__(self, name, value)``, which looks the name up on the type every time.  The
``__init__`` made here for a slotted class moves the new instance to an unfrozen *building* class
of the same layout (same base, same slots; its ``__setattr__`` is ``object``'s), stores each field
as a plain attribute (the interpreter's own slot store), and moves it back: two class assignments
in place of one call per field, a third of the frozen dataclass's cost for an 11-field event and
about half of calling each slot's descriptor (``Cls.__dict__[name].__set__``), which is what it
does instead for an instance of a subclass, for a class of fewer than five fields, or where the
layout cannot be shared.  The same slots hold the same values; everything else stays the
dataclass's: the signature (names, order, defaults, keyword use), ``__eq__``, ``__hash__``,
``__repr__``, ``dataclasses.replace``, pickling, and the frozen ``__setattr__`` that refuses
assignment once ``__init__`` has returned.

Only classes this module fully understands are changed (frozen, slotted, every field set by
``__init__``, no ``__post_init__``, no ``InitVar``, no keyword-only field); any other is left as it
is.  ``tests/test_fastinit.py`` checks the result against the dataclass's own ``__init__``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

_NO_DEFAULT = dataclasses.MISSING


def _slot_setters(cls: type) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for klass in cls.__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            d = klass.__dict__.get(name)
            if d is None or not hasattr(d, "__set__"):
                return None
            out.setdefault(name, d.__set__)
    return out


def by_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """A frozen dataclass's ``__reduce__``: rebuilt through its constructor (a compiled frozen
    class, mypyc, refuses unpickling by setting attributes)."""
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


def refuse_assignment(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def refuse_deletion(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def freeze(cls: type) -> None:
    """Make instances of the dataclass ``cls`` refuse assignment and deletion as a frozen
    dataclass's do (``FrozenInstanceError``), for a class declared ``unsafe_hash=True`` instead of
    ``frozen=True`` so that its own ``__init__`` may set its fields: mypyc compiles such an
    ``__init__`` to native stores, which this ``__setattr__``, installed after the class is made,
    does not see (see ``auditor/model.py``)."""
    type.__setattr__(cls, "__setattr__", refuse_assignment)
    type.__setattr__(cls, "__delattr__", refuse_deletion)


def frozen_class(cls: type) -> None:
    """:func:`freeze` the dataclass ``cls``, and in pure Python give it the cheaper ``__init__``
    (:func:`speed_up`, or :func:`speed_up_unslotted` for a class without slots); a compiled class
    (mypyc) keeps its own, native one.  Raises ``TypeError`` if the class cannot be sped up."""
    freeze(cls)
    if "__mypyc_attrs__" in cls.__dict__:
        return
    if not (speed_up(cls) if "__slots__" in cls.__dict__ else speed_up_unslotted(cls)):
        raise TypeError(f"{cls.__name__}: its __init__ cannot be sped up (auditor/fastinit.py)")


def _frozen(cls: type, params: Any) -> bool:
    return bool(params.frozen) or cls.__dict__.get("__setattr__") is refuse_assignment


def speed_up(cls: type) -> bool:
    """Give the frozen slotted dataclass ``cls`` (frozen by ``frozen=True`` or by :func:`freeze`) the
    descriptor-setting ``__init__``; returns whether it did (False: the class is left unchanged)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not _frozen(cls, params) or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return False
    fields = dataclasses.fields(cls)
    setters = _slot_setters(cls)
    if setters is None or any(not f.init or f.kw_only or f.name not in setters for f in fields):
        return False
    if len(fields) != len(setters):
        return False
    ns: dict[str, Any] = {f"_set{i}": setters[f.name] for i, f in enumerate(fields)}
    building = _building_class(cls) if len(fields) >= _BUILDING_FIELDS else None
    if building is None:
        return _install(cls, fields, ns, [], lambda i, name, value: f"    _set{i}(self, {value})")
    # the instance is moved to ``building`` (``_become``: the frozen ``__setattr__`` refuses a plain
    # ``__class__`` store), its fields stored as plain attributes there, and moved back; an instance
    # of a subclass (whose class this ``__init__`` must not change) gets the descriptor stores
    ns.update(_cls=cls, _building=building, _become=_SET_CLASS)
    names = ", ".join(f.name for f in fields)
    head = [
        "    if type(self) is not _cls:",
        f"        return _by_descriptors(self, {names})",
        "    _become(self, _building)",
    ]
    tail = ["    self.__class__ = _cls"]
    slow: dict[str, Any] = dict(ns)
    if not _install(cls, fields, slow, [], lambda i, name, value: f"    _set{i}(self, {value})"):
        return False
    ns["_by_descriptors"] = slow["__init__"]
    return _install(cls, fields, ns, head, lambda i, name, value: f"    self.{name} = {value}", tail)


#: the fewest fields for which the building class pays: its two class assignments cost about as
#: much as four descriptor calls (measured: 3 fields 0.36 against 0.32 us, 6 fields 0.40 against 0.50)
_BUILDING_FIELDS = 5

#: the setter of ``object.__class__``, called as a function: the frozen class's ``__setattr__``
#: refuses ``self.__class__ = ...``
_SET_CLASS = object.__dict__["__class__"].__set__


def _building_class(cls: type, plain_init: bool = False) -> type | None:
    """An unfrozen class with the layout of the slotted class ``cls`` (its base, its slots; the
    ``__setattr__`` and ``__delattr__`` of ``object``, so that the interpreter stores attributes
    straight into the slots), which an instance of ``cls`` may be moved to and back; None when the
    interpreter refuses the move.  ``plain_init``: its ``__init__`` is ``object``'s, so that calling
    it with no argument makes an empty instance (cheaper than ``object.__new__(building)``)."""
    base = cls.__base__
    if base is None or len(cls.__bases__) != 1:
        return None
    ns = {
        "__slots__": cls.__dict__["__slots__"],
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
        "__module__": cls.__module__,
        "__qualname__": f"{cls.__qualname__}.building",
    }
    if plain_init:
        ns["__init__"] = object.__init__
    building = type(f"{cls.__name__}.building", (base,), ns)
    probe: Any = object.__new__(cls)
    try:
        _SET_CLASS(probe, building)
        probe.__class__ = cls
    except TypeError:
        return None
    return building if type(probe) is cls else None


def speed_up_unslotted(cls: type) -> bool:
    """The same for a frozen dataclass *without* slots (its fields live in the instance's
    ``__dict__``, which some callers read): an ``__init__`` that stores each field in the instance's
    dictionary, as ``object.__setattr__`` would, without the per-field call.  Returns whether it did."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not _frozen(cls, params) or hasattr(cls, "__post_init__"):
        return False
    if "__mypyc_attrs__" in cls.__dict__ or any("__slots__" in k.__dict__ for k in cls.__mro__[:-1]):
        # (a compiled class keeps its native __init__; a slotted one is speed_up's)
        return False
    fields = dataclasses.fields(cls)
    if any(not f.init or f.kw_only for f in fields):
        return False
    return _install(cls, fields, {}, ["    _d = self.__dict__"], lambda i, name, value: f"    _d[{name!r}] = {value}")


def field_stores(cls: type) -> Any:
    """A function of the fields of the slotted dataclass ``cls``, in order, that stores them on a new
    instance made without ``__init__``: one call instead of a class called with every field (the
    replay's 28-field ``Step``: ~1.6 times as much there).  Pure Python only: a compiled class's
    ``__new__`` runs its ``__init__``."""
    names = [f.name for f in dataclasses.fields(cls)]
    src = "".join([f"def _new_{cls.__name__.lower()}({', '.join(names)}):\n", "    s = new(cls)\n",
                   *[f"    s.{n} = {n}\n" for n in names], "    return s\n"])  # fmt: skip
    space: dict[str, Any] = {"new": cls.__new__, "cls": cls}
    exec(src, space)  # generated from the class's own field list, as dataclasses does
    return space[f"_new_{cls.__name__.lower()}"]


def builder(cls: type, name: str) -> Any:
    """A function named ``name`` that builds an instance of the frozen slotted dataclass ``cls``
    from its fields (the parameters, order and defaults of its ``__init__``) without calling the
    class: a new instance of its building class (:func:`_building_class`), its fields stored as
    plain attributes, moved to ``cls`` once.  The class call's argument tuple, ``__init__``'s
    frame and its first class move are saved: ~0.3 of 0.5-0.8 us an event (the readers build ~25
    a hand).  The same slots hold the same values as ``cls(...)`` gives (``tests/test_fastinit.py``).
    None when ``cls`` cannot be built so (see :func:`speed_up`; a default factory is not supported):
    the caller keeps calling the class.  Pure Python only."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or "__slots__" not in cls.__dict__ or "__mypyc_attrs__" in cls.__dict__:
        return None
    fields = dataclasses.fields(cls)
    setters = _slot_setters(cls)
    if setters is None or len(fields) != len(setters) or hasattr(cls, "__post_init__"):
        return None
    if any(not f.init or f.kw_only or f.name not in setters or f.default_factory is not _NO_DEFAULT for f in fields):
        return None
    building = _building_class(cls, plain_init=True)
    if building is None:
        return None
    ns: dict[str, Any] = {"_building": building, "_cls": cls, "_become": _SET_CLASS}
    args: list[str] = []
    for i, f in enumerate(fields):
        if f.default is _NO_DEFAULT:
            args.append(f.name)
        else:
            ns[f"_dflt{i}"] = f.default
            args.append(f"{f.name}=_dflt{i}")
    body = ["    s = _building()", *[f"    s.{f.name} = {f.name}" for f in fields], "    _become(s, _cls)",
            "    return s"]  # fmt: skip
    exec(f"def {name}({', '.join(args)}):\n" + "\n".join(body) + "\n", ns)  # generated from the class's own fields
    fn = ns[name]
    fn.__qualname__ = name
    fn.__doc__ = f"A new {cls.__name__} (see auditor.fastinit.builder)."
    return fn


def _none_for_factory(cls: type) -> frozenset[str]:
    """The parameters of the class's own ``__init__`` whose default is ``None`` (read from the
    function's defaults, without ``inspect``): a field with a default factory that the class's
    ``__init__`` takes as ``name=None`` (``Hand.extras``: ``None`` gives a fresh ``{}``) keeps that
    meaning in the ``__init__`` written here, so the pure build and the compiled one agree."""
    own = cls.__dict__.get("__init__")
    code, defaults = getattr(own, "__code__", None), getattr(own, "__defaults__", None)
    if code is None or not defaults:
        return frozenset()
    names = code.co_varnames[: code.co_argcount]
    return frozenset(n for n, d in zip(names[len(names) - len(defaults) :], defaults, strict=True) if d is None)


def _install(cls: type, fields: tuple[dataclasses.Field[Any], ...], ns: dict[str, Any], head: list[str],
             store: Any, tail: list[str] | None = None) -> bool:  # fmt: skip
    """Write and install the ``__init__`` of ``fields``; ``store(i, name, value)`` is the line that
    sets field ``i``, ``head`` and ``tail`` the lines before and after the stores."""
    ns["_MISSING"] = _NO_DEFAULT
    args: list[str] = []
    body: list[str] = list(head)
    none_means_default = _none_for_factory(cls)
    for i, f in enumerate(fields):
        if f.default is not _NO_DEFAULT:
            ns[f"_dflt{i}"] = f.default
            args.append(f"{f.name}=_dflt{i}")
            body.append(store(i, f.name, f.name))
        elif f.default_factory is not _NO_DEFAULT:
            ns[f"_fact{i}"] = f.default_factory
            marker = "None" if f.name in none_means_default else "_MISSING"
            args.append(f"{f.name}={marker}")
            body.append(store(i, f.name, f"_fact{i}() if {f.name} is {marker} else {f.name}"))
        else:
            if any(a.find("=") >= 0 for a in args):
                return False  # (a dataclass would have refused this order already)
            args.append(f.name)
            body.append(store(i, f.name, f.name))
    body += tail or []
    src = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(src, ns)  # generated from the class's own field list, as dataclasses does
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__dict__["__init__"].__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning a method)
    return True
