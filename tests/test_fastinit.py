"""The descriptor-setting ``__init__`` of the frozen model classes (auditor/fastinit.py) builds what
the dataclass's own ``__init__`` builds."""

from __future__ import annotations

import dataclasses
import pickle

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


def _values(cls: type, salt: int) -> dict[str, object]:
    return {f.name: (f.name, salt) for f in dataclasses.fields(cls)}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_model_class_is_sped_up(cls: type) -> None:
    assert cls.__init__.__code__.co_filename == "<string>"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_same_objects_as_the_dataclass_init(cls: type) -> None:
    twin = _twin(cls)
    fields = dataclasses.fields(cls)
    vals = _values(cls, 1)
    by_kw, twin_kw = cls(**vals), twin(**vals)
    by_pos = cls(*vals.values())
    assert [getattr(by_kw, f.name) for f in fields] == [getattr(twin_kw, f.name) for f in fields]
    assert by_pos == by_kw and hash(by_pos) == hash(by_kw)
    required = {f.name: v for f, v in zip(fields, vals.values(), strict=True)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}  # fmt: skip
    a, b = cls(**required), twin(**required)
    assert [getattr(a, f.name) for f in fields] == [getattr(b, f.name) for f in fields]
    assert pickle.loads(pickle.dumps(a)) == a
    assert dataclasses.replace(a, **{fields[0].name: "x"}) == cls(**{**required, fields[0].name: "x"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, fields[0].name, 0)
    with pytest.raises(TypeError):
        cls(**vals, not_a_field=1)
    if required:
        with pytest.raises(TypeError):
            cls()


def test_default_factory_gives_a_fresh_value() -> None:
    seat = M.Seat(1, "ann", 100, 3)
    extras = [f for f in dataclasses.fields(M.Hand) if f.default_factory is not dataclasses.MISSING]
    assert extras, "Hand has a field with a default factory"
    required = {f.name: None for f in dataclasses.fields(M.Hand)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}  # fmt: skip
    h1, h2 = M.Hand(**required), M.Hand(**required)
    for f in extras:
        assert getattr(h1, f.name) == f.default_factory()  # type: ignore[misc]
        assert getattr(h1, f.name) is not getattr(h2, f.name)
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
