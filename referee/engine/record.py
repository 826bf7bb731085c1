"""A small stand-in for `dataclasses`, for start-up time.

`referee plan` must start within a few times a bare `python3 -c pass`; the standard
`dataclasses` module (with `inspect`) and its per-class code generation cost more than
the rest of the command. `record` builds the same kind of class — fields from
annotations, defaults, frozen, eq, repr — with shared functions instead of generated
code. Only what this package uses is supported.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType

from referee.hints import TYPE_CHECKING

if not TYPE_CHECKING:  # (this way round, linters read `overload` as typing's)
    from referee.hints import Any, TypeVar, dataclass_transform, overload
else:
    from types import CodeType
    from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    __slots__ = ("name", "default", "default_factory", "metadata", "compare")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING,
                 metadata: dict[str, Any] | None = None, compare: bool = True) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.metadata = metadata or {}
        self.compare = compare

    def value(self) -> Any:
        if self.default_factory is not MISSING:
            return self.default_factory()
        return self.default


def field(*, default: Any = MISSING, default_factory: Any = MISSING,
          metadata: dict[str, Any] | None = None, compare: bool = True) -> Any:
    return Field(default, default_factory, metadata, compare)


def fields(obj: Any) -> tuple[Field, ...]:
    specs: tuple[Field, ...] = obj.__record_fields__
    return specs


def replace(obj: T, **changes: Any) -> T:
    values = {f.name: getattr(obj, f.name) for f in fields(obj)}
    values.update(changes)
    return type(obj)(**values)


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = False, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: type | None = None, *, frozen: bool = False, eq: bool = True) -> Any:
    """Use like `@dataclass` / `@dataclass(frozen=True, eq=False)`: type checkers read it
    as one (`dataclass_transform`)."""

    def wrap(klass: type) -> type:
        return _build(klass, frozen, eq)

    return wrap if cls is None else wrap(cls)


def _own_fields(cls: type) -> list[Field]:
    own = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(default=value)
        spec.name = name
        if isinstance(value, Field):
            if spec.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        own.append(spec)
    return own


def _build(cls: type, frozen: bool, eq: bool) -> type:
    inherited = getattr(cls, "__record_fields__", ())
    specs = {f.name: f for f in inherited}
    specs.update((f.name, f) for f in _own_fields(cls))
    cls.__record_fields__ = tuple(specs.values())  # type: ignore[attr-defined]
    cls.__init__ = _lazy_init  # type: ignore[misc]
    cls.__repr__ = _repr  # type: ignore[assignment]
    if eq:
        cls.__eq__ = _eq  # type: ignore[assignment]
        cls.__hash__ = _hash if frozen else None  # type: ignore[assignment]
    if frozen:
        cls.__setattr__ = _frozen  # type: ignore[method-assign]
        cls.__delattr__ = _frozen  # type: ignore[assignment]
    return cls


GENERIC_FIRST = 16  # a class's first instances are built by the generic __init__


def _lazy_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """The generic __init__ for a class's first few instances, then a specialised one
    compiled and used from then on (cheap imports, fast construction of a long log's
    thousands): a short command (`plan` of a small save) makes a handful of most
    classes, fewer than would repay the compile."""
    cls = type(self)
    made = cls.__dict__.get("__record_made__", 0)
    if made < GENERIC_FIRST:
        cls.__record_made__ = made + 1
        _init(cls.__record_fields__)(self, *args, **kwargs)
        return
    cls.__init__ = _compiled_init(cls.__record_fields__) or _init(cls.__record_fields__)
    cls.__init__(self, *args, **kwargs)


def _compiled_init(specs: tuple[Field, ...]) -> Callable[..., None] | None:
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {"_put": object.__setattr__, "_FACTORY": _Missing()}
    seen_default = False
    for index, spec in enumerate(specs):
        if spec.default is MISSING and spec.default_factory is MISSING:
            if seen_default:
                return None
            params.append(spec.name)
            body.append(f"    _put(self, {spec.name!r}, {spec.name})")
            continue
        seen_default = True
        if spec.default_factory is not MISSING:
            scope[f"_f{index}"] = spec.default_factory
            params.append(f"{spec.name}=_FACTORY")
            body.append(f"    _put(self, {spec.name!r}, _f{index}() if {spec.name} is _FACTORY "
                        f"else {spec.name})")
        else:
            scope[f"_d{index}"] = spec.default
            params.append(f"{spec.name}=_d{index}")
            body.append(f"    _put(self, {spec.name!r}, {spec.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, scope)  # noqa: S102 - our own field names only, never file content
    init: Callable[..., None] = scope["__init__"]
    return init


def quick_reader(cls: type, rounds: int, largest: int,
                 checks: list[tuple[str, str | None, Any, str, bool]],
                 factories: list[tuple[str, Any]],
                 keep: Callable[[Any, Any], Any],
                 seen: dict[str, dict[Any, Any]] | None = None) -> Callable[..., Any]:
    """A reader of a table with exactly the fields `checks` names, in that order, into
    `cls` (events.py's quick reader): `round` first, then each field either held to its
    check (an expression of `v` from our own code) or passed to its reader (ids, an id
    alone or a list of them, and ints, a list of integers, taken as they stand); None at
    any doubt, and for a table without one of those fields (the caller gives it the
    tables of as many keys). The round, a field marked `kept` (a string, or ids) and a
    list of integers are given as `keep(v, v)` gives them: one object for the same value
    however often a long log repeats it. `seen`, when given, keeps the strings and ids
    read (a field of these kinds is looked up there first: one read before is not
    checked again), shared by the readers of one log. Every name compiled is one of the
    class's own field names, which the caller has checked."""
    fields_of = {spec.name for spec in fields(cls)}
    if any(not name.isidentifier() or name not in fields_of for name, *_ in checks):
        raise ValueError("a quick reader compiles only the record's own field names")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "keep": keep,
                             "ids": _quick_ids}
    if seen is not None:  # by kind: a kind's check is the same for every field of it
        # (events.py's _PLAIN_KINDS), so a string one field passed, another of it passes
        strs, ids_of = seen.setdefault("str", {}), seen.setdefault("ids", {})
        scope.update(strs=strs, strs_get=strs.get, ids_of=ids_of, ids_get=ids_of.get)
    body = ["def quick(data, path):",
            "    r = data['round']",
            f"    if type(r) is not int or not 0 <= r <= {int(rounds)}:",
            "        return None",
            "    if r > 256:  # (a smaller int is one object already)",
            "        r = keep(r, r)"]
    for number, (name, check, reader, kind, kept) in enumerate(checks):
        body.append(f"    v = data[{name!r}]")
        if kind == "str" and kept and seen is not None:  # a string read before is looked
            # up, not checked again: the one object kept for it (no call made but the look-up)
            body += ["    if type(v) is not str:",
                     "        return None",
                     "    w = strs_get(v)",
                     "    if w is None:",
                     f"        if not ({check}):",
                     "            return None",
                     "        w = strs[v] = keep(v, v)",
                     "    v = w"]
        elif kind == "ids" and seen is not None:  # as a string read before, by the string
            # or the tuple of the list's items (a list equals its tuple's only if each of
            # its items is the string there)
            body += ["    k = v if type(v) is str else tuple(v) if type(v) is list else None",
                     "    try:",
                     "        w = ids_get(k)",
                     "    except TypeError:  # a list holding a list or a table",
                     "        return None",
                     "    if w is None:",
                     "        if k is None:",
                     "            return None",
                     "        if type(v) is str and v:",
                     "            w = (keep(v, v),)",
                     "        else:",
                     "            w = ids(v, keep)",
                     "            if w is None:",
                     "                return None",
                     "        w = ids_of[k] = keep(w, w)",
                     "    v = w"]
        elif check is not None:
            body += [f"    if not ({check}):", "        return None"]
            if kept:
                body.append("    v = keep(v, v)")
        elif kind == "ints":  # integers in range, as `_ints` reads them, without its call
            body += ["    if type(v) is not list:",
                     "        return None",
                     "    for n in v:",
                     f"        if type(n) is not int or not -{int(largest)} <= n <= "
                     f"{int(largest)}:",
                     "            return None",
                     "    v = tuple(v)",
                     "    v = keep(v, v)"]
        elif kind == "ids":  # an id alone or a list of ids, as `id_list` reads them, no call
            body += ["    if type(v) is str and v:",
                     "        v = (keep(v, v),)",
                     "    else:",
                     "        v = ids(v, keep)",
                     "        if v is None:",
                     "            return None",
                     "    v = keep(v, v)"]
        else:
            scope[f"read{number}"] = reader
            body += ["    try:",
                     f"        v = read{number}(v, path, {name!r})",
                     "    except Exception:",
                     "        return None"]
        body.append(f"    v{number} = v")
    # set one at a time, in the strict reader's order: the quickest way to fill an
    # object's own table (what is left out is the class's default)
    body += ["    event = new(cls)", "    own = event.__dict__", "    own['round'] = r"]
    body += [f"    own[{name!r}] = v{number}" for number, (name, *_) in enumerate(checks)]
    for number, (name, factory) in enumerate(factories):
        scope[f"make{number}"] = factory
        body.append(f"    own[{name!r}] = make{number}()")
    body.append("    return event")
    # a table without one of the keys is not of this shape: None (its own is looked up)
    body = [body[0], "  try:", *("  " + line for line in body[1:]), "  except KeyError:",
            "    return None"]
    source = "\n".join(body)
    code = _QUICK_CODE.get(source)
    if code is not None:  # each log's reader makes its own readers: compiled once a
        # process, the function made anew over this reader's names (no compile() call:
        # its first makes every class of Python's syntax tree, which a plan never pays)
        return FunctionType(code, scope)
    exec(source, scope)  # noqa: S102 - our own field names and checks only
    quick: Callable[..., Any] = scope["quick"]
    _QUICK_CODE[source] = quick.__code__
    return quick


_QUICK_CODE: dict[str, CodeType] = {}  # a quick reader's source -> its code


def _quick_ids(value: Any, keep: Callable[[Any, Any], Any]) -> tuple[str, ...] | None:
    """A list of ids (non-empty strings) as a tuple, each kept; None for anything else
    (the strict reader then says what is wrong)."""
    if type(value) is not list:
        return None
    try:  # every item a string (join refuses any other) and none empty, without a loop
        "".join(value)
    except TypeError:
        return None
    if "" in value:
        return None
    return tuple(map(keep, value, value))  # (each kept without a Python call)


def _init(specs: tuple[Field, ...]) -> Callable[..., None]:
    names = [f.name for f in specs]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} arguments")
        put = object.__setattr__
        for name, value in zip(names, args, strict=False):
            put(self, name, value)
        for spec in specs[len(args):]:
            if spec.name in kwargs:
                put(self, spec.name, kwargs.pop(spec.name))
            elif spec.default is MISSING and spec.default_factory is MISSING:
                raise TypeError(f"{type(self).__name__} is missing {spec.name!r}")
            else:
                put(self, spec.name, spec.value())
        if kwargs:
            raise TypeError(f"{type(self).__name__} has no field {next(iter(kwargs))!r}")

    return __init__


def _values(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in obj.__record_fields__ if f.compare)


def _eq(self: Any, other: Any) -> Any:
    if type(other) is not type(self):
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__)
    return f"{type(self).__name__}({inner})"


def _frozen(self: Any, name: str, *value: Any) -> None:
    raise FrozenInstanceError(f"cannot change {name!r}: {type(self).__name__} is frozen")
