"""Several weapons in one round: a G whose routines each name their own weapon (a sword of
speed and a dagger; a mace and two claws), and may each carry their own initiative
override (DI-3). In a save: `routines = [ { weapon = "sword of speed" }, { weapon =
"dagger", initiative = "slow" } ]`; in the declaration form, one line in the gear lines'
way: `sword of speed; dagger, initiative=slow`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.errors import IllegalDeclaration

from .events import Declare
from .items import INITIATIVE

if TYPE_CHECKING:
    from referee.engine.model import Combatant

KEYS = ("weapon", "initiative")
MOST = 20  # routines a round: as many as `attacks` may give (stats.COMBATANT)
HELP = "one weapon a routine, in order: sword of speed; dagger, initiative=slow"

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
    if word is not None and word not in INITIATIVE:
        raise IllegalDeclaration(f"expected one of {', '.join(INITIATIVE)}, found {word!r}",
                                 path + ("initiative",))


def parse(text: str) -> tuple[Routine, ...]:
    """The form's line back into routines: `;` between routines, each its weapon, then
    `initiative=word` if it has its own. The names are checked with the declaration."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, *rest = (bit.strip() for bit in part.split(","))
        routine = {"weapon": name}
        for bit in filter(None, rest):
            key, has, value = (b.strip() for b in bit.partition("="))
            if key != "initiative" or not has or not value:
                raise IllegalDeclaration(f"{name}: {bit!r} is not initiative=haste, speed or "
                                         "slow", ("routines",))
            routine["initiative"] = value
        out.append(routine)
    return tuple(out)


def text_of(routines: tuple[dict[str, Any], ...]) -> str:
    """The routines as the form's line (what `parse` reads back)."""
    return "; ".join(r["weapon"] + (f", initiative={r['initiative']}" if "initiative" in r
                                    else "") for r in routines)


def several_weapons(actor: Combatant) -> bool:
    """The form offers routines with weapons of their own to one carrying more than one
    weapon to strike with."""
    return len(actor.weapons) > 1
