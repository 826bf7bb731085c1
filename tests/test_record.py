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


def test_the_first_instances_and_the_compiled_init_build_the_same():
    """A class's first GENERIC_FIRST instances are built by the generic __init__, the
    rest by one compiled for it: both give the same objects and refuse the same calls."""
    from referee.engine.record import GENERIC_FIRST

    @record(frozen=True)
    class Pair:
        a: int
        b: str = "x"
        c: list = field(default_factory=list)

    calls = [((1,), {}), ((1, "y"), {}), ((), {"a": 2, "c": [3]}), ((4,), {"b": "z"})]
    built = [[(p.a, p.b, p.c) for p in (Pair(*args, **kwargs) for args, kwargs in calls)]
             for _ in range(GENERIC_FIRST // len(calls) + 2)]
    assert Pair.__init__.__name__ == "__init__" and "__record_made__" in Pair.__dict__
    assert all(batch == built[0] for batch in built)
    assert built[0] == [(1, "x", []), (1, "y", []), (2, "x", [3]), (4, "z", [])]
    for args, kwargs in [((), {}), ((1, "y", [], 4), {}), ((1,), {"w": 3}), ((1,), {"a": 1})]:
        with pytest.raises(TypeError):
            Pair(*args, **kwargs)
