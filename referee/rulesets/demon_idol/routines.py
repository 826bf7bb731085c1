"""Several weapons in one round: a G whose routines each name their own weapon (a sword of
speed and a dagger; a mace and two claws), and may each carry their own initiative
override (DI-3). In a save: `routines = [ { weapon = "sword of speed" }, { weapon =
"dagger", initiative = "slow" } ]`; in the declaration form, one line in the gear lines'
way: `sword of speed; dagger, initiative=slow`.

A routine may instead carry the timing an item or a spell gives it (`timing`): `first`
(it wins initiative whatever the dice: before the enemy's actions), `normal` (at its
side's initiative, even with a weapon of speed or haste), `last` (after the enemy's
actions). Each timed routine is planned in a place of its own (DI-3; by the book,
DMG-62 too), never sharing a beat with its combatant's other routines:
`routines = [ { weapon = "sword of speed", timing = "first" }, { weapon = "long sword",
timing = "normal" } ]`, in the form `sword of speed, timing=first; long sword,
timing=normal`. The routines resolve in order (DI-13), so the timings go first, normal,
last, never back."""

from __future__ import annotations

from referee.engine.errors import IllegalDeclaration
from referee.hints import TYPE_CHECKING

from .events import Declare
from .items import INITIATIVE, TIMING

if TYPE_CHECKING:
    from typing import Any

    from referee.engine.model import Combatant
else:
    from referee.hints import Any

KEYS = ("weapon", "initiative", "timing")
MOST = 20  # routines a round: as many as `attacks` may give (stats.COMBATANT)
HELP = ("one weapon a routine, in order: sword of speed; dagger, initiative=slow (or "
        "timing=first, normal or last)")

Routine = dict[str, str]


def check(d: Declare, actor: Combatant, role: str) -> None:
    """Refuse routines on anything but a G, beside a `weapon`, or naming what the actor
    does not carry: each fault with its path (`routines`, its number, its key)."""
    if role != "strike":
        raise IllegalDeclaration(f"{d.action} ({role}) takes no routines: only a strike does",
                                 ("routines",))
    if d.weapon is not None:
        raise IllegalDeclaration("routines name their own weapons: give no weapon beside "
                                 "them", ("weapon",))
    if len(d.routines) > MOST:
        raise IllegalDeclaration(f"{len(d.routines)} routines is out of range (1 to {MOST})",
                                 ("routines",))
    for index, routine in enumerate(d.routines):
        check_one(routine, actor, ("routines", index))
    check_timings(d)


def check_timings(d: Declare) -> None:
    """Routines resolve in order (DI-13): their timings never go back (a `last` routine
    before a `normal` one)."""
    order = list(TIMING)
    latest = ""
    for index, routine in enumerate(d.routines):
        timing = routine.get("timing")
        if timing is None:
            continue
        if latest and order.index(timing) < order.index(latest):
            raise IllegalDeclaration(
                f"a {timing} routine after a {latest} one: routines resolve in order "
                "(DI-13), so their timings go first, normal, last", ("routines", index,
                                                                    "timing"))
        latest = timing


def check_one(routine: dict[str, Any], actor: Combatant, path: tuple[Any, ...]) -> None:
    for key in routine:
        if key not in KEYS:
            raise IllegalDeclaration(f"not a routine key (keys: {', '.join(KEYS)})",
                                     path + (key,))
    name = routine.get("weapon")
    if not isinstance(name, str) or not name.strip():
        raise IllegalDeclaration("each routine names its weapon", path + ("weapon",))
    if actor.weapon(name) is None:
        known = ", ".join(w.name for w in actor.weapons) or "none"
        raise IllegalDeclaration(f"{actor.id} has no weapon {name!r} (weapons: {known})",
                                 path + ("weapon",))
    word = routine.get("initiative")
    if word is not None and (not isinstance(word, str) or word not in INITIATIVE):
        raise IllegalDeclaration(f"expected one of {', '.join(INITIATIVE)}, found {word!r}",
                                 path + ("initiative",))
    timing = routine.get("timing")
    if timing is not None and (not isinstance(timing, str) or timing not in TIMING):
        raise IllegalDeclaration(f"expected one of {', '.join(TIMING)}, found {timing!r}",
                                 path + ("timing",))
    if timing is not None and word is not None:
        raise IllegalDeclaration("a routine has its own initiative or its timing, not both",
                                 path + ("timing",))


def parse(text: str) -> tuple[Routine, ...]:
    """The form's line back into routines: `;` between routines, each its weapon, then
    `initiative=word` if it has its own. The names are checked with the declaration."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, *rest = (bit.strip() for bit in part.split(","))
        routine = {"weapon": name}
        for bit in filter(None, rest):
            key, has, value = (b.strip() for b in bit.partition("="))
            if key not in ("initiative", "timing") or not has or not value:
                raise IllegalDeclaration(f"{name}: {bit!r} is not initiative=haste, speed or "
                                         "slow, nor timing=first, normal or last",
                                         ("routines",))
            routine[key] = value
        out.append(routine)
    return tuple(out)


def text_of(routines: tuple[dict[str, Any], ...]) -> str:
    """The routines as the form's line (what `parse` reads back)."""
    return "; ".join(r["weapon"] + "".join(f", {k}={r[k]}" for k in ("initiative", "timing")
                                           if k in r) for r in routines)


def several_weapons(actor: Combatant) -> bool:
    """The form offers routines with weapons of their own to one carrying more than one
    weapon to strike with."""
    return len(actor.weapons) > 1
