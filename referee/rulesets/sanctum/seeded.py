"""A turn's steps as its seed gives them, and the check that a log's steps are those.

Every random draw of a turn comes from one generator seeded with the turn's seed (its
first `combat` event's, else the save's), and every outcome of a step — who is chosen,
hit or miss, damage, armor soaked, result, hit points, forfeits, survivors — follows from
those draws and the roster at the turn's start. So the steps a log holds must be exactly
the ones the seed gives (SA-11: a fight replays from its log or its seed alike); a step
that is not is a save changed by hand, and is refused at the field that differs, with
both values. The explanations (`why`, `rules`) are not compared: their wording may change
from one version of the program to the next without the fight changing.
"""

from __future__ import annotations

import random
from operator import attrgetter

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.record import fields
from referee.hints import TYPE_CHECKING

from . import simulator

if TYPE_CHECKING:
    from typing import Any

    from .sim import Roster
else:
    from referee.hints import Any

# what a step says about itself rather than about the fight
UNCOMPARED = frozenset({"round", "follows", "why", "rules"})


class Opening:
    """A turn's start as the fold saw it: the simulator's roster, the hit points and the
    pairs. The steps of a seed are worked out the first time they are asked for, then
    kept: a load checks every step of the turn against them, and `F` or `n` logs them,
    with one simulation."""

    def __init__(self, turn: int, roster: Roster, hp: list[int],
                 pairs: list[tuple[str, str]], types: dict[str, type[ev.Event]]) -> None:
        self.turn, self.roster, self.hp, self.pairs = turn, roster, hp, pairs
        self.types = types
        self.kept: dict[int, list[ev.Event]] = {}

    def steps(self, seed: int) -> list[ev.Event]:
        found = self.kept.get(seed)
        if found is None:
            found = self.kept[seed] = self.simulated(seed)
        return found

    def simulated(self, seed: int) -> list[ev.Event]:
        log: list[dict[str, Any]] = []
        simulator.sim.run_turn(self.roster, list(self.hp), self.pairs, random.Random(seed), log)
        out = []
        for step in log:
            values = dict(step)
            kind = values.pop("type")
            if kind == "combat":
                values["seed"] = seed
            out.append(self.types[kind](round=self.turn, **values))
        return out


def check_step(opening: Opening, done: int, seed: int, event: ev.Event) -> None:
    """`event`, the turn's step number `done` (0-based), is the one `seed` gives."""
    steps = opening.steps(seed)
    said = f"turn {opening.turn}'s seed {seed}"
    if done >= len(steps):
        raise IllegalEvent(f"{said} gives no further step: the turn's listed combats are "
                           "fought (SA-2)", ("type",))
    want = steps[done]
    if want.TYPE != event.TYPE:
        raise IllegalEvent(f"{said} gives a {want.TYPE!r} step here, the log has a "
                           f"{event.TYPE!r} step", ("type",))
    found = first_difference(want, event)
    if found is not None:
        name, wanted, logged = found
        rules: tuple[str, ...] = getattr(want, "rules", ())
        cited = f" ({', '.join(rules)})" if rules else ""
        raise IllegalEvent(f"{said} gives {shown(wanted)}, the log has {shown(logged)}"
                           f"{cited}", (name,))


def first_difference(want: ev.Event, got: ev.Event) -> tuple[str, Any, Any] | None:
    """The first field (in the event's order) where `got` says otherwise than `want`."""
    names, read = compared(type(want))
    if read(want) == read(got):  # the commonest case, in one comparison
        return None
    for name in names:
        wanted, logged = getattr(want, name), getattr(got, name)
        if name == "seed" and logged is None:
            continue  # a step written without its seed: the turn's, as `pending` reads it
        if wanted != logged:
            return name, wanted, logged
    return None


_COMPARED: dict[type, tuple[tuple[str, ...], Any]] = {}


def compared(kind: type) -> tuple[tuple[str, ...], Any]:
    """The fields of a step type that say what happened, and a reader of all of them at
    once (a load compares every step of a long turn)."""
    found = _COMPARED.get(kind)
    if found is None:
        names = tuple(spec.name for spec in fields(kind) if spec.name not in UNCOMPARED)
        found = _COMPARED[kind] = (names, attrgetter(*names))
    return found


def shown(value: Any) -> str:
    """A value as a save writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {shown(v)}" for k, v in value.items()) + " }"
    return str(value)
