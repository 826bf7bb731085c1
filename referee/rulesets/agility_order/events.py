"""agility-order's own events: tie rolls, delays, what a turn spends, attacks and wounds."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.events import event_field as f
from referee.engine.record import record


@record(frozen=True)
class Initiative(ev.Initiative):
    """AO-1: the d20 tie rolls (or the referee's ranks), kept for the whole battle."""

    ties: dict[str, int] = f("int_table", {})


@record(frozen=True)
class Delay(ev.Event):
    """AO-3: on its turn a unit waits until after `after` (or to the end of the round)."""

    TYPE = "delay"
    MOVES_ON = True
    actor: str = f("str!", "")
    after: str | None = f("str")


@record(frozen=True)
class Spend(ev.Event):
    """AO-4: actions taken from a turn's budget, and what for."""

    TYPE = "spend"
    MOVES_ON = True
    actor: str = f("str!", "")
    aa: int = f("int0", 0)
    ma: int = f("int0", 0)
    ba: int = f("int0", 0)
    use: str = f("str!", "")
    spaces: int | None = f("int0")  # a move: how far (AO-5)
    how: str | None = f("str")  # sneaking, swimming, climbing ... (AO-5)
    mp: int = f("int0", 0)  # MP paid (a spell)
    off_turn: bool = f("bool", False)  # AO-6: standing up off-turn, from the next turn
    spell: str | None = f("str")  # a cast: which of the caster's spells (AO-4)
    target: str | None = f("str")  # a cast: at whom (none: the caster, an area)


@record(frozen=True)
class Attack(ev.Event):
    """AO-7 … AO-10: one attack as it was rolled (each die is also a `roll` event)."""

    TYPE = "attack"
    MOVES_ON = True
    actor: str = f("str!", "")
    target: str = f("str!", "")
    weapon: str | None = f("str")
    d20: int = f("int!", 0)
    bonus: int = f("int", 0)
    needed: int = f("int", 0)
    hit: bool = f("bool", False)
    crit: int = f("int", 0)  # 0 none; 1 critical; 2 super; 3 decisive (AO-8)
    fumble: int = f("int", 0)  # 0 none; 1 natural 1; 2 tragedy; 3 killed outright
    free: bool = f("bool", False)  # a free hit (AO-10)
    granted: bool = f("bool", False)  # a tragedy's free critical: no slot needed (AO-9)
    zone: bool = f("bool", True)  # the attacker was in the target's melee zone (AO-9)
    aim: str | None = f("str")
    extra: bool = f("bool", False)  # MA + 2 BA: the extra attack (AO-4)
    # The dice and the inputs the outcome is worked out from, so a check can redo it.
    # Saves written before they were recorded leave them out (empty, None).
    chain: tuple[int, ...] = f("ints", ())  # AO-8, AO-9: the chain's dice, die by die
    sneak: bool | None = f("bool")  # AO-12: undetected: the target is flat-footed
    flank: bool | None = f("bool")  # AO-7: from behind, +1 to hit
    reduce: int | None = f("int0")  # AO-11: reductions beyond armour, on a hit
    note: str | None = f("str")  # the referee's words on it (issue 24: a note field)


@record(frozen=True)
class Wound(ev.Event):
    """AO-11: a wound (6+ net damage), with the aimed effect it carries."""

    TYPE = "wound"
    target: str = f("str!", "")
    effect: str | None = f("str")
    by: str | None = f("str")


@record(frozen=True)
class Heal(ev.Heal):
    """Healing of 6 or more removes a wound (AO-11): `wound` names which (1-based);
    a spell that removes a wound heals 0 with `wound` set."""

    wound: int | None = f("int1")


EFFECTS = ("fatal", "slowing", "weakening", "disrupting")
AIMS = ("centre",) + EFFECTS

EVENTS: tuple[type[ev.Event], ...] = (Initiative, Delay, Spend, Attack, Wound, Heal)
