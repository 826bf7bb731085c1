"""The event log: frozen events, read strictly from plain data and written back.

Each event type declares its fields with a reading kind; one generic reader and
writer serve them all, so adding an event type is one small class.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .errors import FormatError, Path
from .model import Combatant
from .reading import describe, id_list, int_table
from .record import MISSING, field, fields, record


def _f(kind: str, default: Any = None) -> Any:
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: type(default)(default), metadata={"kind": kind})
    return field(default=default, metadata={"kind": kind})


@record(frozen=True)
class Event:
    TYPE: ClassVar[str] = ""
    round: int
    follows: bool = _f("bool", False)  # entered with the event before it: undone together

    @property
    def type(self) -> str:
        return self.TYPE

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE, "round": self.round}
        for spec in fields(self)[1:]:
            value = getattr(self, spec.name)
            required = spec.metadata["kind"].endswith("!")
            if value is None or (value == _default(spec) and not required):
                continue
            single = spec.metadata["kind"] == "ids" and len(value) == 1
            out[spec.name] = value[0] if single else _plain(value)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Combatant):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@record(frozen=True)
class Initiative(Event):
    """demon-idol: one die per side (`rolls`); count-up: base initiative (`base`)."""

    TYPE = "initiative"
    rolls: dict[str, int] = _f("int_table", {})
    base: dict[str, int] = _f("int_table", {})
    dice: dict[str, Any] = _f("table", {})  # every die rolled, by id, when the program rolled


@record(frozen=True)
class Declare(Event):
    TYPE = "declare"
    actor: str = _f("str!", "")
    action: str = _f("str!", "")
    target: tuple[str, ...] = _f("ids", ())
    weapon: str | None = _f("str")
    spell: str | None = _f("str")
    device: str | None = _f("str")
    usage_time: int | None = _f("int0")
    turn: bool = _f("bool", False)
    charge: bool = _f("bool", False)
    closing: int | None = _f("int0")
    prepared: bool = _f("bool", False)
    trigger: str | None = _f("str")
    delay: int = _f("int0", 0)
    modifier: int | None = _f("int")
    segment: int | None = _f("int1")  # a surprise segment (DI-17)
    note: str | None = _f("str")


@record(frozen=True)
class Join(Event):
    TYPE = "join"
    combatant: Combatant | None = _f("combatant")
    at_count: int | None = _f("int")
    base: int | None = _f("int")


@record(frozen=True)
class Surprise(Event):
    TYPE = "surprise"
    surprised: tuple[str, ...] = _f("ids!", ())
    segments: int = _f("int0", 0)


@record(frozen=True)
class Roll(Event):
    """A roll made by the program or typed in from real dice, with every die."""

    TYPE = "roll"
    expr: str = _f("str!", "")
    dice: tuple[int, ...] = _f("ints", ())
    total: int = _f("int!", 0)
    purpose: str | None = _f("str")
    actor: str | None = _f("str")
    real: bool = _f("bool", False)


@record(frozen=True)
class Damage(Event):
    TYPE = "damage"
    target: str = _f("str!", "")
    amount: int = _f("int0!", 0)
    source: str | None = _f("str")
    critical: bool = _f("bool", False)
    beat: int | None = _f("int1")
    note: str | None = _f("str")


@record(frozen=True)
class Heal(Event):
    TYPE = "heal"
    target: str = _f("str!", "")
    amount: int = _f("int0!", 0)
    stabilize: bool = _f("bool", False)


@record(frozen=True)
class Condition(Event):
    TYPE = "condition"
    target: str = _f("str!", "")
    name: str = _f("str!", "")
    on: bool = _f("bool", True)
    duration: int | None = _f("int1")  # rounds


@record(frozen=True)
class SpellLost(Event):
    TYPE = "spell_lost"
    actor: str = _f("str!", "")
    spell: str | None = _f("str")
    reason: str | None = _f("str")


@record(frozen=True)
class Morale(Event):
    TYPE = "morale"
    group: tuple[str, ...] = _f("ids!", ())
    roll: int | None = _f("int")
    target: int | None = _f("int")
    passed: bool | None = _f("bool")  # None: triggered, not rolled yet
    avoid: str | None = _f("str")  # the avoidance a failure names (flee, surrender, ...)


@record(frozen=True)
class Death(Event):
    TYPE = "death"
    target: str = _f("str!", "")
    cause: str | None = _f("str")


@record(frozen=True)
class NewRound(Event):
    TYPE = "round"


@record(frozen=True)
class Phase(Event):
    TYPE = "phase"
    phase: str = _f("str!", "")
    skipped: bool = _f("bool", False)


@record(frozen=True)
class Note(Event):
    TYPE = "note"
    text: str = _f("str!", "")


@record(frozen=True)
class Resolve(Event):
    """The referee has resolved beat `beat` (1-based) of the round's plan."""

    TYPE = "resolve"
    beat: int = _f("int1!", 1)
    segment: int | None = _f("int1")


@record(frozen=True)
class Fire(Event):
    """A prepared action's trigger happened (DI-14)."""

    TYPE = "fire"
    actor: str = _f("str!", "")
    before: str | None = _f("str")  # the actor whose action triggered it


@record(frozen=True)
class Injury(Event):
    TYPE = "injury"
    target: str = _f("str!", "")
    roll: int | None = _f("int")
    injury: str = _f("str!", "")
    table: str | None = _f("str")


@record(frozen=True)
class Undo(Event):
    """Takes back the last batch of events still in effect; kept in the log."""

    TYPE = "undo"


@record(frozen=True)
class Redo(Event):
    """Brings back the batch the last undo took back."""

    TYPE = "redo"


@record(frozen=True)
class End(Event):
    """The fight is over (DI-20: one recovery turn; CU-10: initiative wiped)."""

    TYPE = "end"
    note: str | None = _f("str")


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        Initiative, Declare, Join, Surprise, Roll, Damage, Heal, Condition, SpellLost,
        Morale, Death, NewRound, Phase, Note, Resolve, Fire, Injury, End, Undo, Redo,
    )
}


def read_event(data: Any, path: Path) -> Event:
    """An event from plain data, strictly: the first fault found raises FormatError.

    Written without the generic `Fields` reader because a long fight reads tens of
    thousands of events on load; the messages are the same.
    """
    if not isinstance(data, dict):
        raise FormatError(f"expected a table, found {describe(data)}", path)
    kind, round_ = data.get("type"), data.get("round")
    if type(kind) is not str:
        kind = _value(data, "type", "str!", path)
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        known = ", ".join(sorted(EVENT_TYPES))
        raise FormatError(f"unknown event type {kind!r} (known: {known})", path + ("type",))
    if type(round_) is not int or round_ < 0:
        round_ = _value(data, "round", "int0!", path)
    shape = _SHAPES.get(cls) or _shape(cls)
    values = {"round": round_}
    for name in shape.required:
        if name not in data:
            raise FormatError("missing required field", path + (name,))
    readers = shape.readers
    for name, raw in data.items():
        reader = readers.get(name)
        if reader is _str and type(raw) is str and raw and not raw.isspace():
            values[name] = raw  # the commonest case, checked here without a call
        elif reader is not None:
            values[name] = reader(raw, path, name)
        elif name != "type" and name != "round":
            raise FormatError(f"unknown field {name!r}", path + (name,))
    for name, factory in shape.factories:
        if name not in data:
            values[name] = factory()
    # Fields left out keep their defaults as class attributes (see record.py): setting
    # only what the file gives is what makes reading a long log quick.
    event = object.__new__(cls)
    event.__dict__.update(values)
    return event


class _Shape:
    """What reading one event type needs, worked out once."""

    def __init__(self, cls: type) -> None:
        specs = fields(cls)[1:]
        self.readers = {f.name: READERS[f.metadata["kind"].rstrip("!")] for f in specs}
        self.required = [f.name for f in specs if f.metadata["kind"].endswith("!")]
        self.factories = [(f.name, f.default_factory) for f in specs if f.default is MISSING]


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type) -> _Shape:
    _SHAPES[cls] = _Shape(cls)
    return _SHAPES[cls]


def _default(spec: Any) -> Any:
    if spec.default is not MISSING:
        return spec.default
    return spec.default_factory()


def _value(data: dict[str, Any], name: str, kind: str, path: Path) -> Any:
    if name not in data:
        raise FormatError("missing required field", path + (name,))
    return READERS[kind.rstrip("!")](data[name], path, name)


# Readers take the event's path and the field's name apart, and join them only to
# report a fault: most values are fine, and a long log has tens of thousands.


def _wrong(value: Any, want: str, path: Path) -> FormatError:
    return FormatError(f"expected {want}, found {describe(value)}", path)


def _str(value: Any, path: Path, name: str) -> str:
    if type(value) is not str:
        raise _wrong(value, "a string", path + (name,))
    if not value.strip():
        raise FormatError("must not be empty", path + (name,))
    return value


def _int(minimum: int | None) -> Any:
    def read(value: Any, path: Path, name: str) -> int:
        if type(value) is not int:
            raise _wrong(value, "an integer", path + (name,))
        if minimum is not None and value < minimum:
            raise FormatError(f"must be at least {minimum}, found {value}", path + (name,))
        return value

    return read


def _bool(value: Any, path: Path, name: str) -> bool:
    if type(value) is not bool:
        raise _wrong(value, "true or false", path + (name,))
    return value


def _table(value: Any, path: Path, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _wrong(value, "a table", path + (name,))
    return dict(value)


def _ints(value: Any, path: Path, name: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _wrong(value, "a list", path + (name,))
    for index, item in enumerate(value):
        if type(item) is not int:
            raise _wrong(item, "an integer", path + (name, index))
    return tuple(value)


def _combatant(value: Any, path: Path, name: str) -> Combatant:
    if not isinstance(value, dict):
        raise _wrong(value, "a table", path + (name,))
    return Combatant.read(value, path + (name,))


READERS: dict[str, Any] = {
    "str": _str,
    "int": _int(None),
    "int0": _int(0),
    "int1": _int(1),
    "bool": _bool,
    "ids": lambda value, path, name: id_list(value, path + (name,)),
    "int_table": lambda value, path, name: int_table(value, path + (name,)),
    "table": _table,
    "ints": _ints,
    "combatant": _combatant,
}
