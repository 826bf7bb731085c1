"""phases' own events: Moves and Actions used and delayed, statuses with a phase,
orders, regroups, decay, manoeuvres and surrender."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.events import event_field as f
from referee.engine.record import record

KINDS = ("move", "action")


@record(frozen=True)
class Use(ev.Event):
    """A Move or an Action taken in a phase (a held delayed one first, PH-2, PH-3)."""

    TYPE = "use"
    phase: int = f("int0!", 0)
    actor: str = f("str!", "")
    what: str = f("str!", "")
    engaged: bool = f("bool", False)  # the Move ended beside an enemy (PH-5)
    note: str | None = f("str")


@record(frozen=True)
class Delay(ev.Event):
    """PH-3: keep this round's Move and/or Action into the next round."""

    TYPE = "delay"
    actor: str = f("str!", "")
    keep: tuple[str, ...] = f("ids", ("move", "action"))


@record(frozen=True)
class Condition(ev.Condition):
    """PH-10: a status, from a phase of its round (no phase: from the round's start)."""

    phase: int | None = f("int0")


@record(frozen=True)
class Damage(ev.Damage):
    fatigue: bool = f("bool", False)  # Subdue deals Fatigue (PH-14)


@record(frozen=True)
class Order(ev.Event):
    """PH-9: a squad's new order, given at the start of a round."""

    TYPE = "order"
    squad: str = f("str!", "")
    tactic: str = f("str!", "")
    target: str | None = f("str")
    at: tuple[int, ...] = f("ints", ())
    by: str | None = f("str")  # who gives it (conflicting orders, PH-9)


@record(frozen=True)
class Regroup(ev.Event):
    """PH-12 (an Action): leave a squad, join another, change all combat modifiers;
    PH-7: a new leader named as part of it."""

    TYPE = "regroup"
    actor: str = f("str!", "")
    phase: int | None = f("int0")
    join: str | None = f("str")  # the squad it joins
    leave: bool = f("bool", False)  # leaves its squad without joining another
    leader: str | None = f("str")  # names a new leader of its squad
    modifiers: tuple[str, ...] | None = f("ids")


@record(frozen=True)
class Decay(ev.Event):
    """PH-17: an Uncroaked unit decays at the end of a turn."""

    TYPE = "decay"
    target: str = f("str!", "")
    combat: int = f("int0", 1)
    defense: int = f("int0", 1)
    hits: int = f("int0", 2)
    extended: bool = f("bool", False)


@record(frozen=True)
class Manoeuvre(ev.Event):
    """The result of a bull rush, dismount or subdue (PH-13, PH-15, PH-14); its dice are
    the `roll` events just before it, and `check` refuses an outcome they do not give.
    What else decided it is written beside (older saves without it are read as they
    can be: a unit with no roll may have dodged, a rush that failed may have had no
    room)."""

    TYPE = "manoeuvre"
    kind: str = f("str!", "")
    actor: str = f("str!", "")
    target: tuple[str, ...] = f("ids", ())
    success: bool = f("bool", False)
    phase: int | None = f("int0")
    simultaneous: bool = f("bool", False)  # PH-6: costs no Action
    result: str | None = f("str")
    dodging: tuple[str, ...] | None = f("ids")  # bull rush: who dodged (lose, PH-13)
    room: bool | None = f("bool")  # bull rush: a square for everyone displaced
    defense: int | None = f("int0")  # dismount: the mount's Defense the dice had to beat
    damage: int | None = f("int0")  # subdue: the attack's damage, before the d6 (PH-14)


@record(frozen=True)
class Surrender(ev.Event):
    """PH-10: every unit of a side is Calm, Incapacitated or croaked."""

    TYPE = "surrender"
    side: str = f("str!", "")


EVENTS: tuple[type[ev.Event], ...] = (Use, Delay, Condition, Damage, Order, Regroup, Decay,
                                      Manoeuvre, Surrender)
