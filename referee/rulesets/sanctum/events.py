"""sanctum's own events: the turn's pairs, and every step of a resolved combat."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.errors import FormatError, Path
from referee.engine.events import event_field as f
from referee.engine.reading import describe
from referee.engine.record import record, replace
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


@record(frozen=True)
class Combats(ev.Event):
    """SA-2: the turn's combats, in the map's neighbour order (`round` is the turn)."""

    TYPE = "combats"
    pairs: tuple[tuple[str, str], ...] = f("ints", ())  # read by read_pairs (see Reader)


@record(frozen=True)
class Combat(ev.Event):
    """A combat begins (or a pair is skipped, SA-2); `seed` seeds the turn's draws."""

    TYPE = "combat"
    groups: tuple[str, ...] = f("ids!", ())
    first: str | None = f("str")
    skipped: bool = f("bool", False)
    seed: int | None = f("int")
    rules: tuple[str, ...] = f("ids", ())
    why: str | None = f("str")


@record(frozen=True)
class CombatRound(ev.Event):
    """SA-5: a combat round begins: armor and attacks reset, shooters idle."""

    TYPE = "combat-round"
    combat_round: int = f("int1!", 1)
    rules: tuple[str, ...] = f("ids", ())


@record(frozen=True)
class Victim(ev.Event):
    """A minion's victim is set: paired, compelled, wise, retaliates or random."""

    TYPE = "victim"
    combat_round: int = f("int1!", 1)
    actor: str = f("str!", "")
    victim: str = f("str!", "")
    how: str = f("str!", "")
    draw: str | None = f("str")  # a random draw: "k of n"
    rules: tuple[str, ...] = f("ids", ())
    why: str | None = f("str")


@record(frozen=True)
class Attack(ev.Event):
    """SA-9: one attack and its result (the fold reads it: it never rolls again)."""

    TYPE = "attack"
    combat_round: int = f("int1!", 1)
    attacker: str = f("str!", "")
    victim: str = f("str!", "")
    kind: str = f("str!", "")
    hit: bool = f("bool", False)
    damage: int = f("int0", 0)
    soaked: int = f("int0", 0)
    result: str | None = f("str")
    hp: int | None = f("int")  # the victim's hit points after it
    rules: tuple[str, ...] = f("ids", ())
    why: str | None = f("str")


@record(frozen=True)
class Forfeit(ev.Event):
    """SA-7: a basher with no victim forfeits its remaining attacks."""

    TYPE = "forfeit"
    combat_round: int = f("int1!", 1)
    actor: str = f("str!", "")
    attacks: int = f("int0", 0)
    rules: tuple[str, ...] = f("ids", ())
    why: str | None = f("str")


@record(frozen=True)
class CombatEnd(ev.Event):
    """SA-3: a combat is over: after how many rounds, why, and who is left."""

    TYPE = "combat-end"
    groups: tuple[str, ...] = f("ids!", ())
    rounds: int = f("int0", 0)
    ended: str = f("str!", "")
    survivors: dict[str, Any] = f("table", {})


EVENTS: tuple[type[ev.Event], ...] = (Combats, Combat, CombatRound, Victim, Attack, Forfeit,
                                      CombatEnd)
STEPS = frozenset(("combat", "combat-round", "victim", "attack", "forfeit", "combat-end"))


def read_pairs(value: Any, path: Path, name: str) -> tuple[tuple[str, str], ...]:
    """`pairs`: a list of two-group lists."""
    if not isinstance(value, list):
        raise FormatError(f"expected a list of pairs of group ids, found {describe(value)}",
                          path + (name,))
    out = []
    for index, pair in enumerate(value):
        ok = isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(g, str) and g.strip() for g in pair)
        if not ok:
            raise FormatError(f"expected a pair of group ids, found {describe(pair)}",
                              path + (name, index))
        out.append((pair[0], pair[1]))
    return tuple(out)


def read_seed(value: Any, path: Path, name: str) -> int:
    """`seed`: the seed of a turn's draws, any 64-bit number (the odds' run seeds take 32
    bits, a run asked for by `--seed` may take more)."""
    from .ranges import SEED, within

    if type(value) is not int:
        raise FormatError(f"expected an integer, found {describe(value)}", path + (name,))
    within(value, SEED, path + (name,))
    return value


# The fields sanctum reads itself, by event type: (the field, its reader, required).
OWN: dict[str, tuple[str, Any, bool]] = {"combats": ("pairs", read_pairs, True),
                                         "combat": ("seed", read_seed, False)}


class Reader(ev.EventReader):
    """The core's reader, with the fields no core kind reads (`OWN`): a combats event's
    `pairs`, a list of pairs, and a combat's `seed`, a 64-bit number. The rest of the
    event is read by the core, then that field by its own reader."""

    def read(self, data: Any, path: Path) -> ev.Event:
        kind = data.get("type") if isinstance(data, dict) else None
        own = OWN.get(kind) if isinstance(kind, str) else None
        if own is None:
            return super().read(data, path)
        name, reader, required = own
        if name not in data:
            if required:
                raise FormatError("missing required field", path + (name,))
            return super().read(data, path)
        rest = {k: v for k, v in data.items() if k != name}
        event = super().read(rest, path)
        return replace(event, **{name: reader(data[name], path, name)})
