"""The event log: frozen events, read strictly from plain data and written back.

Each event type declares its fields with a reading kind; one generic reader and
writer serve them all, so adding an event type is one small class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from referee.hints import TYPE_CHECKING

from .errors import FormatError, Path
from .model import Combatant
from .reading import LARGEST, describe, id_list, int_table, out_of_range
from .record import MISSING, field, fields, quick_reader, record

if TYPE_CHECKING:
    from typing import Any, ClassVar
else:
    from referee.hints import Any, ClassVar


def _f(kind: str, default: Any = None) -> Any:
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: type(default)(default), metadata={"kind": kind})
    return field(default=default, metadata={"kind": kind})


@record(frozen=True)
class Event:
    TYPE: ClassVar[str] = ""
    # the referee is told of it as it happens, beyond the log (a death, a spell lost)
    ANNOUNCED: ClassVar[bool] = False
    # it moves the fight on: refused once the fight has ended, in a file as at the table
    # (what the end leaves to do — healing, conditions, notes, a death — does not)
    MOVES_ON: ClassVar[bool] = False
    round: int
    follows: bool = _f("bool", False)  # entered with the event before it: undone together
    # sent from a player's own page (the players at the table): the combatant whose link
    # sent it; None when the referee entered it
    from_device: str | None = _f("str")

    @property
    def type(self) -> str:
        return self.TYPE

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE, "round": self.round}
        cls = type(self)
        writing = _WRITING.get(cls) or _writing(cls)
        for name, required, default, ids in writing:
            value = getattr(self, name)
            if value is None or (not required and value == default):
                continue
            out[name] = value[0] if ids and len(value) == 1 else _plain(value)
        return out


# each event class's fields after `round`, as `to_dict` writes them: (name, required,
# default, whether a list of ids), worked out at its first event written
_WRITING: dict[type, tuple[tuple[str, bool, Any, bool], ...]] = {}


def _writing(cls: type[Event]) -> tuple[tuple[str, bool, Any, bool], ...]:
    found = _WRITING[cls] = tuple(
        (spec.name, spec.metadata["kind"].endswith("!"), _default(spec),
         spec.metadata["kind"] == "ids")
        for spec in fields(cls)[1:])  # (a default is only compared with, never changed)
    return found


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
    """Initiative for a round; each ruleset adds what it rolls (a die per side, a base
    per combatant, tie rolls)."""

    TYPE = "initiative"
    MOVES_ON = True
    dice: dict[str, Any] = _f("table", {})  # every die rolled, by id, when the program rolled


@record(frozen=True)
class Declare(Event):
    """A declared action; each ruleset adds the fields its actions take."""

    TYPE = "declare"
    MOVES_ON = True
    actor: str = _f("str!", "")
    action: str = _f("str!", "")
    target: tuple[str, ...] = _f("ids", ())
    replaces: bool = _f("bool", False)  # takes the place of the actor's earlier declaration
    # a further declaration of the actor this round (close, then strike), where its
    # ruleset allows one (Ruleset.further)
    then: bool = _f("bool", False)
    note: str | None = _f("str")

    @property
    def step(self) -> int | None:
        """The step before the round proper it is made for (a surprise segment, in a
        ruleset that has them), or None: a declaration of the round itself."""
        return None

    @property
    def verb(self) -> str:
        """How the log tells it: declares, declares again, then declares."""
        return "declares again" if self.replaces else "then declares" if self.then else \
            "declares"


@record(frozen=True)
class Join(Event):
    TYPE = "join"
    MOVES_ON = True
    combatant: Combatant | None = _f("combatant")


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
class Death(Event):
    TYPE = "death"
    ANNOUNCED = True
    target: str = _f("str!", "")
    cause: str | None = _f("str")


@record(frozen=True)
class NewRound(Event):
    TYPE = "round"
    MOVES_ON = True


@record(frozen=True)
class Phase(Event):
    """A step of the round's procedure (declarations, initiative, resolution ...)."""

    TYPE = "phase"
    MOVES_ON = True
    phase: str = _f("str!", "")
    skipped: bool = _f("bool", False)


@record(frozen=True)
class Note(Event):
    TYPE = "note"
    text: str = _f("str!", "")
    hidden: bool = _f("bool", False)  # the referee's own: never in the players' view
    source: str | None = _f("str")  # a miss: who missed
    beat: int | None = _f("int1")  # a miss: the beat it was recorded in


@record(frozen=True)
class Resolve(Event):
    """The referee has resolved these planned actions (their keys, `plan.action_key`);
    `beat` is the beat's number at the time, for the reader.

    Older saves wrote only the beat's number; a fold reads those against the plan as it
    stood (see Fight), and a rewrite stores the actions.
    """

    TYPE = "resolve"
    MOVES_ON = True
    actions: tuple[str, ...] = _f("ids", ())
    beat: int | None = _f("int1")
    segment: int | None = _f("int1")


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
    """The fight is over; the ruleset says what that means (a recovery turn, initiative
    wiped, MP replenished)."""

    TYPE = "end"
    MOVES_ON = True
    note: str | None = _f("str")


CORE_EVENTS: tuple[type[Event], ...] = (
    Initiative, Declare, Join, Roll, Damage, Heal, Condition, Death, NewRound, Phase, Note,
    Resolve, End, Undo, Redo,
)


# -- events some rulesets take ---------------------------------------------------------
# Not the core's: a ruleset that has them lists them among its own events
# (`RosterSchema.events`), and no other reads them. Surprise and morale are demon-idol's
# (DI-17, DI-18) and count-up's (CU-1, CU-6): defined here once, below both, since one
# ruleset's package never imports another's. The fight checks the sides, groups and
# combatants they name (fight.py).


@record(frozen=True)
class Surprise(Event):
    TYPE = "surprise"
    MOVES_ON = True
    surprised: tuple[str, ...] = _f("ids!", ())


@record(frozen=True)
class Morale(Event):
    TYPE = "morale"
    MOVES_ON = True
    group: tuple[str, ...] = _f("ids!", ())
    roll: int | None = _f("int")
    target: int | None = _f("int")
    passed: bool | None = _f("bool")  # None: triggered, not rolled yet
    avoid: str | None = _f("str")  # the avoidance a failure names (flee, surrender, ...)


def event_types(extra: tuple[type[Event], ...] = ()) -> dict[str, type[Event]]:
    """The core's event types with a ruleset's own: a ruleset's class of the same type
    (its `declare`, with the fields its actions take) takes the core's place."""
    table = {cls.TYPE: cls for cls in CORE_EVENTS}
    table.update((cls.TYPE, cls) for cls in extra)
    return table


class EventReader:
    """Reads events strictly from plain data, for one ruleset's table of event types.

    Written without the generic `Fields` reader because a long fight reads tens of
    thousands of events on load; the messages are the same.
    """

    def __init__(self, types: dict[str, type[Event]],
                 combatant: Callable[[Any, Path], Combatant] | None = None) -> None:
        self.types = types
        self.combatant = combatant
        self.shapes: dict[type, _Shape] = {}
        # type -> the keys of a table, in order, or their number -> its quick reader
        # (see `_quick`)
        self.quick: dict[str, dict[Any, Quick]] = {kind: {} for kind in types}
        # each string, ids and round the quick readers have read, as the one object they
        # give for it: a long log names the same few ids, dice and purposes, and each
        # round, tens of thousands of times
        self.kept: dict[Any, Any] = {}
        # the strings and ids read, by kind, each once checked (`record.quick_reader`)
        self.seen: dict[str, dict[Any, Any]] = {}
        self.quick_from = QUICK_FROM

    def read(self, data: Any, path: Path) -> Event:
        """An event from plain data: the first fault found raises FormatError.

        A long log's tables come in a few shapes (the same keys in the same order, as
        the writer writes them): each shape is read by a reader made for it, which
        gives the event the strict reader gives, or None at any doubt (a value of
        another kind, out of range), and the strict reader then reads it, or says
        what is wrong exactly as always."""
        if type(data) is dict:
            kind = data.get("type")
            try:  # (only a string names a type: any other kind finds none)
                known = self.quick.get(kind)  # type: ignore[arg-type]
            except TypeError:  # a list or a table is no key at all
                known = None
            if known is not None:
                quick = known.get(len(data))  # (see `_quick`)
                event = None if quick is None else quick(data, path)
                if event is None:
                    keys = tuple(data)
                    shaped = known.get(keys) or self._quick(known, str(kind), keys)
                    if shaped is not quick:
                        event = shaped(data, path)
                if event is not None:
                    return event
        return self.strictly(data, path)

    def each(self, tables: list[Any], at: list[int]) -> Iterator[Event]:
        """`read` of each table of `tables` in turn (a save's log: each at the path
        ("events", its index)), each let go once read (a long log's peak); `at[0]` is
        the index of the table read last, which a fault of its event names."""
        plain = type(self).read is EventReader.read
        if not plain or len(tables) < self.quick_from:
            # a reader of a ruleset's own; or a short log, which its shapes' quick readers
            # would cost more to make than they save (a small save's `plan`)
            read = self.read if not plain else self.strictly
            for index, data in enumerate(tables):
                at[0] = index
                event = read(data, ("events", index))
                tables[index] = None
                yield event
            return
        quick_of, strictly = self.quick, self.strictly
        anywhere = ("events", -1)  # a quick reader reads no path: it gives None at a fault
        for index, data in enumerate(tables):
            at[0] = index
            if type(data) is dict:  # `read`, written out
                kind = data.get("type")
                try:  # (only a string names a type: any other kind finds none)
                    known = quick_of.get(kind)  # type: ignore[arg-type]
                except TypeError:  # a list or a table is no key at all
                    known = None
                if known is not None:
                    quick = known.get(len(data))
                    quickly = None if quick is None else quick(data, anywhere)
                    if quickly is None:
                        keys = tuple(data)
                        shaped = known.get(keys) or self._quick(known, str(kind), keys)
                        if shaped is not quick:
                            quickly = shaped(data, anywhere)
                    if quickly is not None:
                        tables[index] = None
                        yield quickly
                        continue
            event = strictly(data, ("events", index))
            tables[index] = None
            yield event

    def _quick(self, known: dict[Any, Quick], kind: str, keys: tuple[Any, ...]) -> Quick:
        """The quick reader of the tables of type `kind` with exactly `keys`, in that
        order, made and kept in `known` under `keys`; and under their number, where no
        other shape's is: a table of as many keys is first given to it without making a
        tuple of its keys (it reads every key it was made for, and gives None for a table
        without one of them: then the table's own shape is looked up)."""
        cls = self.types[kind]
        shape = self.shapes.get(cls) or self._shape(cls)
        quick: Quick = _never
        if sum(type(made) is tuple for made in known) < QUICK_SHAPES:
            quick = _compile_quick(cls, shape, keys, self.kept.setdefault,
                                   self.seen) or _never
        known[keys] = quick
        if quick is not _never:
            known.setdefault(len(keys), quick)
        return quick

    def strictly(self, data: Any, path: Path) -> Event:
        """`read`, one check at a time."""
        if not isinstance(data, dict):
            raise FormatError(f"expected a table, found {describe(data)}", path)
        kind, round_ = data.get("type"), data.get("round")
        if type(kind) is not str:
            kind = _value(data, "type", "str!", path)
        cls = self.types.get(kind)
        if cls is None:
            known = ", ".join(sorted(self.types))
            raise FormatError(f"unknown event type {kind!r} (known: {known})", path + ("type",))
        if type(round_) is not int or not 0 <= round_ <= ROUNDS:
            round_ = _value(data, "round", "round!", path)
        shape = self.shapes.get(cls) or self._shape(cls)
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

    def _shape(self, cls: type) -> _Shape:
        shape = _Shape(cls, self._combatant)
        self.shapes[cls] = shape
        return shape

    def _combatant(self, value: Any, path: Path, name: str) -> Combatant:
        if not isinstance(value, dict):
            raise _wrong(value, "a table", path + (name,))
        if self.combatant is None:
            raise FormatError("no combatants can be read here", path + (name,))
        return self.combatant(value, path + (name,))


class _Shape:
    """What reading one event type needs, worked out once."""

    def __init__(self, cls: type, combatant: Any) -> None:
        specs = fields(cls)[1:]
        readers = dict(READERS, combatant=combatant)
        self.kinds = {f.name: f.metadata["kind"].rstrip("!") for f in specs}
        self.readers = {name: readers[kind] for name, kind in self.kinds.items()}
        self.required = [f.name for f in specs if f.metadata["kind"].endswith("!")]
        self.factories = [(f.name, f.default_factory) for f in specs if f.default is MISSING]


Quick = Callable[[dict[str, Any], Path], "Event | None"]
QUICK_SHAPES = 64  # the shapes of one type given a reader each; a file of more reads strictly
# The fewest tables of a log `each` reads with quick readers: making a shape's reader
# costs about what it saves over a thousand tables (`referee check` by instruction count:
# a 1,000-event save 1.7% cheaper read strictly, a 2,500-event one 2.3% dearer)
QUICK_FROM = 1500


def _never(data: dict[str, Any], path: Path) -> None:
    """The quick reader of a shape that has none: every table is read strictly."""


# What the strict readers accept of a kind, as an expression of `v`: a value it holds
# is read as it stands.
_PLAIN_KINDS = {
    "str": "type(v) is str and v and not v.isspace()",
    "bool": "type(v) is bool",
    "int": f"type(v) is int and -{LARGEST} <= v <= {LARGEST}",
    "int0": f"type(v) is int and 0 <= v <= {LARGEST}",
    "int1": f"type(v) is int and 1 <= v <= {LARGEST}",
}


def _compile_quick(cls: type, shape: _Shape, keys: tuple[Any, ...],
                   keep: Callable[[Any, Any], Any],
                   seen: dict[str, dict[Any, Any]] | None = None) -> Quick | None:
    """A reader of the tables with exactly `keys`, in that order, into `cls`: what
    `EventReader.strictly` gives for each, or None where it might say otherwise (then
    it reads the table itself). None for keys it would refuse (unknown, a required one
    missing)."""
    names = [key for key in keys if key != "type" and key != "round"]
    if "round" not in keys or "type" not in keys or any(
            type(name) is not str or not name.isidentifier() or name not in shape.kinds
            for name in names) or any(name not in keys for name in shape.required):
        return None
    checks = [(name, _PLAIN_KINDS.get(shape.kinds[name]), shape.readers[name],
               shape.kinds[name], shape.kinds[name] in ("str", "ids"))
              for name in names]
    factories = [(name, factory) for name, factory in shape.factories if name not in keys]
    quick: Quick = quick_reader(cls, ROUNDS, LARGEST, checks, factories, keep, seen)
    return quick


def _default(spec: Any) -> Any:
    if spec.default is not MISSING:
        return spec.default
    return spec.default_factory()


def _value(data: dict[str, Any], name: str, kind: str, path: Path) -> Any:
    if name not in data:
        raise FormatError("missing required field", path + (name,))
    return READERS[kind.rstrip("!")](data[name], path, name)


ROUNDS = 9_999  # no fight runs longer: a later round in a file is refused, not walked to

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


def _int(minimum: int | None, maximum: int = LARGEST) -> Any:
    def read(value: Any, path: Path, name: str) -> int:
        if type(value) is not int:
            raise _wrong(value, "an integer", path + (name,))
        if minimum is not None and value < minimum:
            raise FormatError(f"must be at least {minimum}, found {value}", path + (name,))
        if not -maximum <= value <= maximum:
            raise out_of_range(value, minimum, maximum, path + (name,))
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


def _number(value: Any, path: Path, name: str) -> int | float:
    """A number at least 0, kept as written (an integer stays one)."""
    if type(value) not in (int, float):
        raise _wrong(value, "a number", path + (name,))
    if value < 0:
        raise FormatError(f"must be at least 0, found {value}", path + (name,))
    if not value <= LARGEST:  # inf and nan too
        raise out_of_range(value, 0, LARGEST, path + (name,))
    number: int | float = value
    return number


def _ints(value: Any, path: Path, name: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _wrong(value, "a list", path + (name,))
    for index, item in enumerate(value):
        if type(item) is not int:
            raise _wrong(item, "an integer", path + (name, index))
        if not -LARGEST <= item <= LARGEST:
            raise out_of_range(item, None, LARGEST, path + (name, index))
    return tuple(value)


def _tables(value: Any, path: Path, name: str) -> tuple[dict[str, Any], ...]:
    """A list of tables (a ruleset's check reads each table's keys)."""
    if not isinstance(value, list):
        raise _wrong(value, "a list of tables", path + (name,))
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise _wrong(item, "a table", path + (name, index))
    return tuple(dict(item) for item in value)


READERS: dict[str, Any] = {
    "str": _str,
    "int": _int(None),
    "int0": _int(0),
    "round": _int(0, ROUNDS),
    "int1": _int(1),
    "bool": _bool,
    "ids": lambda value, path, name: id_list(value, path + (name,)),
    "int_table": lambda value, path, name: int_table(value, path + (name,)),
    "table": _table,
    "ints": _ints,
    "tables": _tables,
    "number0": _number,
}


event_field = _f  # a ruleset's own events declare their fields with this
