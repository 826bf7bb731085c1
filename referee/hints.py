"""What type hints need at run time, without importing `typing` (issue 33: `typing` is
about a twelfth of `referee plan --json`'s start-up, and a plan has no use for it).

A module on the plan's path takes its typing names as

    from referee.hints import TYPE_CHECKING

    if TYPE_CHECKING:
        from typing import Any, Generic, TypeVar, cast
    else:
        from referee.hints import Any, Generic, TypeVar, cast

mypy reads the first branch (to it a name TYPE_CHECKING is true, wherever it comes from)
and Python the second: stand-ins that do at run time what typing's do in our code. A
generic class subscripted is the class itself, `cast` gives its value back, a TypeVar is
a name; none of them is ever inspected (nothing here reads hints at run time).
"""

from __future__ import annotations

TYPE_CHECKING = False


class Any:
    """typing.Any where it is evaluated (`cast(Any, x)`, `dict[str, Any]`, `Any | None`)."""


class _Hint:
    """A TypeVar, AnyStr or ClassVar: a name, subscripted or joined in a union as it is."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, item: object) -> _Hint:
        return self

    def __or__(self, other: object) -> _Hint:
        return self

    __ror__ = __or__

    def __repr__(self) -> str:
        return self.name


def TypeVar(name: str, *constraints: object, **options: object) -> _Hint:
    return _Hint(name)


AnyStr = _Hint("AnyStr")
ClassVar = _Hint("ClassVar")


class Generic:
    """A base whose subscript (`Ruleset[S]`, `Generic[S]`) is the class itself."""

    __slots__ = ()

    def __class_getitem__(cls, item: object) -> type:
        return cls


class Protocol:
    """As Generic: a protocol is only ever read by the type checker."""

    __slots__ = ()

    def __class_getitem__(cls, item: object) -> type:
        return cls


def cast(kind: object, value: object) -> object:
    return value


def overload(function: object) -> object:
    return function


def dataclass_transform(**options: object) -> object:
    return overload
