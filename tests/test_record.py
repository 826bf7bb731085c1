"""The small dataclass stand-in behaves like the dataclasses it replaces."""

import pytest

from referee.engine.record import FrozenInstanceError, field, fields, record, replace


@record(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: list = field(default_factory=list)


@record(frozen=True, eq=False)
class Token:
    name: str


@record
class Box:
    size: int = 1


@record(frozen=True)
class Point3(Point):
    z: int = 0


def test_defaults_factories_and_keywords():
    a = Point(1)
    assert (a.x, a.y, a.tags) == (1, 0, [])
    assert Point(1).tags is not Point(1).tags
    assert Point(x=2, y=3) == Point(2, 3)
    assert [f.name for f in fields(Point3)] == ["x", "y", "tags", "z"]


def test_frozen_equality_hash_and_repr():
    a = Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        a.x = 5
    assert hash(Point(1, 2, ())) == hash(Point(1, 2, ()))
    assert Point(1, 2) != Point(2, 1)
    assert repr(a) == "Point(x=1, y=2, tags=[])"
    assert replace(a, y=9) == Point(1, 9)


def test_identity_equality_and_mutable_records():
    assert Token("a") != Token("a")
    box = Box()
    box.size = 3
    assert box == Box(3)
    with pytest.raises(TypeError):
        hash(box)


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, 2, [], 4)
    with pytest.raises(TypeError):
        Point(1, w=3)
