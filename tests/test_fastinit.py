"""The descriptor-setting ``__init__`` of the frozen model classes (auditor/fastinit.py) builds what
the dataclass's own ``__init__`` builds."""

from __future__ import annotations

import ast
import dataclasses
import pickle
from pathlib import Path

import pytest

from auditor import model as M
from auditor.fastinit import speed_up

CLASSES = tuple(
    c for c in vars(M).values() if isinstance(c, type) and c.__module__ == M.__name__ and dataclasses.is_dataclass(c)
)


def _twin(cls: type) -> type:
    """The same dataclass defined again, with the ``__init__`` that ``dataclasses`` writes."""
    fields = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass("Twin" + cls.__name__, fields, frozen=True, slots=True)


def _value(f: dataclasses.Field[object], salt: int) -> object:
    """A value of the field's declared type (the compiled build's native classes check types)."""
    t = f.type if isinstance(f.type, str) else f.type.__name__  # (a compiled class's: a class)
    if t == "type":  # compiled: a Literal kind or an optional field, read by the field's name
        t = "int | None" if f.name in _OPTIONAL_INTS else "str"
    if t.startswith("tuple"):
        return ((f.name, salt),) if t.startswith("tuple[tuple") else (f.name, str(salt))
    if t.startswith("dict"):
        return {f.name: str(salt)}
    if t in ("int", "int | None"):
        return salt * 1000 + len(f.name)
    if t == "bool":
        return salt % 2 == 1
    return f"{f.name}-{salt}"  # str, str | None and the Literal kinds


#: the optional int fields (a compiled class's annotations say ``type`` for every union and Literal)
_OPTIONAL_INTS = {"small_blind", "big_blind", "button", "max_seats", "ante", "cap", "bounty", "printed", "rake", "fee"}


def _values(cls: type, salt: int) -> dict[str, object]:
    return {f.name: _value(f, salt) for f in dataclasses.fields(cls)}


def _native(cls: type) -> bool:
    return "__mypyc_attrs__" in cls.__dict__


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_model_class_is_sped_up(cls: type) -> None:
    if _native(cls):  # the compiled build: the class's own __init__, compiled
        assert not hasattr(cls.__init__, "__code__")
    else:
        assert cls.__init__.__code__.co_filename == "<string>"


def test_each_init_sets_the_declared_fields() -> None:
    """The model's own ``__init__`` (what the compiled build runs: pure Python replaces it) takes
    the dataclass's fields, in order, with their defaults, and sets each field from its parameter."""
    tree = ast.parse(Path(M.__file__).with_name("model.py").read_text("utf-8"))
    inits = {n.name: next(f for f in n.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
             for n in tree.body if isinstance(n, ast.ClassDef) and n.name in {c.__name__ for c in CLASSES}}  # fmt: skip
    assert set(inits) == {c.__name__ for c in CLASSES}
    for cls in CLASSES:
        init, fields = inits[cls.__name__], dataclasses.fields(cls)
        params = init.args.args[1:]
        assert [a.arg for a in params] == [f.name for f in fields], cls
        defaults = dict(
            zip([a.arg for a in params][len(params) - len(init.args.defaults) :], init.args.defaults, strict=True)
        )
        for f in fields:
            if f.default is not dataclasses.MISSING:
                assert ast.literal_eval(defaults[f.name]) == f.default, (cls, f.name)
            elif f.default_factory is not dataclasses.MISSING:
                assert ast.literal_eval(defaults[f.name]) is None, (cls, f.name)
            else:
                assert f.name not in defaults, (cls, f.name)
        sets = [ast.unparse(st) for st in init.body]
        expected = [f"self.{f.name} = {f.name}" if f.default_factory is dataclasses.MISSING
                    else f"self.{f.name} = {{}} if {f.name} is None else {f.name}" for f in fields]  # fmt: skip
        assert sets == (expected or ["pass"]), cls


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_same_objects_as_the_dataclass_init(cls: type) -> None:
    twin = _twin(cls)
    fields = dataclasses.fields(cls)
    vals = _values(cls, 1)
    by_kw, twin_kw = cls(**vals), twin(**vals)
    by_pos = cls(*vals.values())
    assert [getattr(by_kw, f.name) for f in fields] == [getattr(twin_kw, f.name) for f in fields]
    assert by_pos == by_kw
    if not any(isinstance(v, dict) for v in vals.values()):  # (a Hand holds a dict: unhashable, as before)
        assert hash(by_pos) == hash(by_kw)
    required = {f.name: v for f, v in zip(fields, vals.values(), strict=True)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}  # fmt: skip
    a, b = cls(**required), twin(**required)
    assert [getattr(a, f.name) for f in fields] == [getattr(b, f.name) for f in fields]
    assert pickle.loads(pickle.dumps(a)) == a
    other = _value(fields[0], 9)
    assert dataclasses.replace(a, **{fields[0].name: other}) == cls(**{**required, fields[0].name: other})
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, fields[0].name, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(a, fields[0].name)
    with pytest.raises(TypeError):
        cls(**vals, not_a_field=1)
    if required:
        with pytest.raises(TypeError):
            cls()


def test_default_factory_gives_a_fresh_value() -> None:
    seat = M.Seat(1, "ann", 100, 3)
    extras = [f for f in dataclasses.fields(M.Hand) if f.default_factory is not dataclasses.MISSING]
    assert extras, "Hand has a field with a default factory"
    required = {f.name: _value(f, 1) for f in dataclasses.fields(M.Hand)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}  # fmt: skip
    h1, h2 = M.Hand(**required), M.Hand(**required)
    for f in extras:
        assert getattr(h1, f.name) == f.default_factory()  # type: ignore[misc]
        assert getattr(h1, f.name) is not getattr(h2, f.name)
        # the model's own __init__ takes ``extras=None`` as "a fresh {}": the __init__ written in pure
        # Python keeps that (the compiled build runs the model's own)
        h3, h4 = M.Hand(**required, **{f.name: None}), M.Hand(**required, **{f.name: None})
        assert getattr(h3, f.name) == f.default_factory()  # type: ignore[misc]
        assert getattr(h3, f.name) is not getattr(h4, f.name)
    assert seat.player == "ann"


def test_left_alone() -> None:
    @dataclasses.dataclass(slots=True)
    class Mutable:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Post:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class KwOnly:
        a: int = dataclasses.field(kw_only=True)

    for c in (Mutable, Post, NoSlots, KwOnly):
        assert not speed_up(c)


def test_kinds_are_the_declared_literals() -> None:
    """``M.KINDS`` (what the batch store's ``kind`` enum is made of) says each event class's ``kind``
    Literal; in pure Python it is the annotation itself."""
    import typing

    from auditor import tables

    events = [c for c in CLASSES if issubclass(c, M.Event)]
    if not any(_native(c) for c in events):
        hints = {c.__name__: typing.get_type_hints(c).get("kind") for c in events}
        assert {k: v for k, v in hints.items() if v is not None} == M.KINDS
    kinds = list(tables.KIND.categories)
    assert kinds[:2] == ["fold", "check"] and {"insurance", "ante", "sits_out"} <= set(kinds)
    assert len(kinds) == len(set(kinds)) == sum(len(typing.get_args(v)) for v in M.KINDS.values())


# --------------------------------------------------------------------------- the replay's classes
def _replay_classes() -> list[type]:
    from auditor.replay import betting, pots

    return [betting.Player, betting.Step, betting.StreetOpen, betting.Trace, pots.Pot, pots.Award, pots.PotTrace]


@pytest.mark.parametrize("cls", _replay_classes(), ids=lambda c: c.__name__)
def test_each_replay_init_sets_the_declared_fields(cls: type) -> None:
    """The replay's per-hand classes write their own ``__init__`` (native stores when compiled): it
    takes the dataclass's fields, in order, with their defaults (None for a default factory, which
    it calls), and sets each field from its parameter."""
    import sys

    source = Path(sys.modules[cls.__module__].__file__ or "").with_name(cls.__module__.rsplit(".", 1)[1] + ".py")
    tree = ast.parse(source.read_text("utf-8"))  # (the .py shipped beside a compiled module's .so)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    init = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
    fields = dataclasses.fields(cls)
    params = init.args.args[1:]
    assert [a.arg for a in params] == [f.name for f in fields]
    defaults = dict(
        zip([a.arg for a in params][len(params) - len(init.args.defaults) :], init.args.defaults, strict=True)
    )
    expected = []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            assert ast.literal_eval(defaults[f.name]) == f.default, f.name
            expected.append(f"self.{f.name} = {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            assert ast.literal_eval(defaults[f.name]) is None, f.name
            expected.append(f"self.{f.name} = {f.default_factory()!r} if {f.name} is None else {f.name}")
        else:
            assert f.name not in defaults, f.name
            expected.append(f"self.{f.name} = {f.name}")
    assert [ast.unparse(st) for st in init.body] == expected


@pytest.mark.parametrize("name", ["StreetOpen", "Pot", "Award"])
def test_frozen_replay_classes(name: str) -> None:
    """``StreetOpen``, ``Pot`` and ``Award`` stay frozen (assignment refused), equal and hashed by
    their fields, rebuilt by ``dataclasses.replace`` and pickled; ``Pot`` keeps its ``__dict__``
    in pure Python (``convert/check.py`` reads it)."""
    from auditor.replay import betting, pots

    if name == "StreetOpen":
        board = M.Board(3, 1, "flop", 1, ("Ah", "Kd", "2c"))
        a, b = betting.StreetOpen(4, board, ("ann",)), betting.StreetOpen(index=4, event=board, pending=("ann",))
        field, other = "index", 5
    elif name == "Pot":
        a, b = pots.Pot("main", 10, ("a", "b"), 0, 5, 2, 0), pots.Pot("main", 10, ("a", "b"), 0, 5, 2, 0, net=0)
        field, other = "net", 8
        if not _native(pots.Pot):
            assert a.__dict__ == {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}
    else:
        a = pots.Award("main", 1, "all", 10, ("a",), (("a", 10),), "best hand")
        b = pots.Award(pot="main", run=1, half="all", amount=10, winners=("a",), shares=(("a", 10),), why="best hand")
        field, other = "amount", 9
    assert a == b and hash(a) == hash(b)
    c = dataclasses.replace(a, **{field: other})
    assert getattr(c, field) == other and c != a
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, field, other)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(a, field)
    assert pickle.loads(pickle.dumps(a)) == a  # (through the constructor: a compiled frozen class needs it)


def test_speed_up_unslotted() -> None:
    @dataclasses.dataclass(unsafe_hash=True)
    class Thing:
        a: int
        b: list[int] = dataclasses.field(default_factory=list)
        c: str = "x"

        def __init__(self, a: int, b: list[int] | None = None, c: str = "x") -> None:
            raise AssertionError("replaced")

    from auditor.fastinit import freeze, speed_up_unslotted

    freeze(Thing)
    assert speed_up_unslotted(Thing)
    t = Thing(1)
    assert (
        (t.a, t.b, t.c) == (1, [], "x")
        and t.b is not Thing(1).b
        and Thing(2, [3], c="y").__dict__
        == {
            "a": 2,
            "b": [3],
            "c": "y",
        }
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.a = 2

    @dataclasses.dataclass(slots=True, unsafe_hash=True)
    class Slotted:
        a: int

        def __init__(self, a: int) -> None:
            self.a = a

    freeze(Slotted)
    assert not speed_up_unslotted(Slotted)  # slotted: speed_up's


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_built_in_a_building_class_of_the_same_layout(cls: type) -> None:
    """In pure Python each model class of five fields or more is built in its unfrozen building
    class (same base, same slots) and handed back as itself, frozen."""
    if _native(cls):
        pytest.skip("the compiled class keeps its native __init__")
    if len(dataclasses.fields(cls)) < 5:
        assert "_building" not in cls.__init__.__globals__  # (the descriptor stores: cheaper there)
        return
    building = cls.__init__.__globals__["_building"]
    assert building.__base__ is cls.__base__ and building.__slots__ == cls.__slots__
    obj = cls(**_values(cls, 2))
    assert type(obj) is cls
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, dataclasses.fields(cls)[0].name, 0)


def test_a_subclass_keeps_its_class() -> None:
    """An instance of a subclass that inherits the sped-up ``__init__`` is not moved to the base's
    building class (it gets the descriptor stores): it stays an instance of the subclass."""
    from auditor.fastinit import freeze

    @dataclasses.dataclass(slots=True, unsafe_hash=True)
    class Base:
        a: int
        b: str = "x"

    freeze(Base)
    assert speed_up(Base)

    class Sub(Base):
        __slots__ = ("c",)

    base, sub = Base(1), Sub(2, b="y")
    assert type(base) is Base and type(sub) is Sub
    assert (base.a, base.b, sub.a, sub.b) == (1, "x", 2, "y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        sub.a = 3


@pytest.mark.parametrize("name", sorted(M.BUILDERS))
def test_builders_build_what_the_class_builds(name: str) -> None:
    """``model.new_<event>`` (pure Python: ``fastinit.builder``'s, which does not call the class)
    gives what the class gives, by position and with the defaults; the result is frozen."""
    cls, build = M.BUILDERS[name], getattr(M, name)
    fields = dataclasses.fields(cls)
    vals = _values(cls, 3)
    made = build(*vals.values())
    assert type(made) is cls
    assert made == cls(*vals.values())
    assert [getattr(made, f.name) for f in fields] == list(vals.values())
    required = [v for f, v in zip(fields, vals.values(), strict=True) if f.default is dataclasses.MISSING]
    assert build(*required) == cls(*required)
    assert hash(build(*required)) == hash(cls(*required))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, fields[0].name, 0)
    if not _native(cls):
        assert build.__code__.co_filename == "<string>"  # the builder, not the function that calls the class


def test_builder_signature_is_the_class_init() -> None:
    """Each ``new_<event>`` function in model.py (what the compiled build runs) takes its class's
    fields in order with the same defaults, and passes them on in that order."""
    tree = ast.parse(Path(M.__file__).with_name("model.py").read_text("utf-8"))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in M.BUILDERS}
    assert set(funcs) == set(M.BUILDERS)
    for name, fn in funcs.items():
        fields = dataclasses.fields(M.BUILDERS[name])
        assert [a.arg for a in fn.args.args] == [f.name for f in fields], name
        defaults = [f.default for f in fields if f.default is not dataclasses.MISSING]
        assert [ast.literal_eval(d) for d in fn.args.defaults] == defaults, name
        ret = fn.body[-1]
        assert isinstance(ret, ast.Return) and isinstance(ret.value, ast.Call)
        assert ast.unparse(ret.value.func) == M.BUILDERS[name].__name__
        assert [ast.unparse(a) for a in ret.value.args] == [f.name for f in fields], name


@pytest.mark.parametrize("name", ["Audited", "Result"])
def test_the_audit_step_classes_write_their_init(name: str) -> None:
    """``audit.Audited`` (once a hand) and ``audit.Result`` write their ``__init__`` as the replay's
    classes do (compiled, a dataclass would keep the interpreted one ``dataclasses`` generates)."""
    from auditor import audit

    test_each_replay_init_sets_the_declared_fields(getattr(audit, name))
