"""What a D can discharge: a missile or thrown weapon, a device, a spell, or turning undead.
A long sword is not discharged: a D naming only a melee weapon (or nothing at all) is
refused, in a save as in the form, and one with nothing to discharge cannot declare D."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.errors import IllegalDeclaration
from referee.hints import TYPE_CHECKING

from . import stats

if TYPE_CHECKING:
    from typing import Any

    from referee.engine.model import Combatant

    from .events import Declare
else:
    from referee.hints import Any

WHAT = "a missile or thrown weapon, a device, a spell or turning undead"


def has_something(combatant: Combatant) -> bool:
    """Whether `combatant` carries anything a D can discharge (or can turn undead)."""
    return (any(stats.discharged(w) for w in combatant.weapons) or bool(combatant.spells)
            or bool(stats.devices(combatant)) or stats.turns(combatant))


def why_not(combatant: Combatant, letter: str) -> str:
    """Why `combatant` cannot declare a D at all ("" when it can)."""
    if has_something(combatant):
        return ""
    return (f"{combatant.name} has nothing a {letter} discharges: no missile or thrown "
            "weapon, device or spell, and does not turn undead (set-up gives it one)")


def check(d: Declare, combatant: Combatant) -> None:
    """A D names what it discharges, and a weapon it names is one that can be loosed."""
    weapon = combatant.weapon(d.weapon) if d.weapon else None
    if weapon is not None and not stats.discharged(weapon):
        raise IllegalDeclaration(f"{weapon.name} is a melee weapon, not thrown: a "
                                 f"{d.action} needs {WHAT}", ("weapon",))
    named = (weapon is not None or d.spell is not None or d.device is not None
             or d.usage_time is not None or d.turn)
    if not named:
        raise IllegalDeclaration(f"a {d.action} names what it discharges: {WHAT}",
                                 ("weapon",))


def first_weapon(combatant: Combatant) -> str | None:
    """The weapon a D looses by default: the first missile weapon, else the first one
    that can be thrown."""
    for loosed in (stats.missile, stats.thrown):
        found = next((w.name for w in combatant.weapons if loosed(w)), None)
        if found is not None:
            return found
    return None


# what a D discharges: one of these, never two
CHOICES = ("weapon", "spell", "device", "turn")


def prefill(combatant: Combatant, filled: dict[str, Any],
            again: Declare | None = None) -> dict[str, Any]:
    """A D's form starts on one thing to discharge, the others blank: what its D
    discharged last round (`again`), if it still carries it; else its first missile (else
    thrown) weapon, even for a caster (README); else its first spell, device, or
    turning."""
    out = {k: v for k, v in filled.items() if k not in CHOICES}
    return {**out, **(_as_before(combatant, again) or _first(combatant))}


def _as_before(combatant: Combatant, again: Declare | None) -> dict[str, Any]:
    if again is None:
        return {}
    weapon = combatant.weapon(again.weapon) if again.weapon else None
    if weapon is not None and stats.discharged(weapon):
        return {"weapon": weapon.name}
    if again.spell and combatant.spell(again.spell) is not None:
        return {"spell": again.spell}
    if again.device and again.device in stats.devices(combatant):
        return {"device": again.device}
    return {"turn": True} if again.turn and stats.turns(combatant) else {}


def _first(combatant: Combatant) -> dict[str, Any]:
    loosed = first_weapon(combatant)
    if loosed is not None:
        return {"weapon": loosed}
    if combatant.spells:
        return {"spell": combatant.spells[0].name}
    if stats.devices(combatant):
        return {"device": stats.devices(combatant)[0]}
    return {"turn": True} if stats.turns(combatant) else {}


def clears(values: Mapping[str, Any], changed: str) -> dict[str, Any]:
    """The form's other things to discharge, blanked, when the referee picks one
    (`changed`: the weapon, a spell, a device typed, turning set): none when it was
    blanked itself or is not one of them."""
    if changed not in CHOICES or _blank(values.get(changed)):
        return {}
    return {k: (False if k == "turn" else None) for k in CHOICES
            if k != changed and k in values and not _blank(values[k])}


def _blank(value: Any) -> bool:
    return value in (None, False) or (isinstance(value, str) and not value.strip())


def chosen(values: Mapping[str, Any], started: Mapping[str, Any]) -> dict[str, Any]:
    """A D's answer names one thing to discharge: when the form's answer names several,
    the one the referee chose (changed from what the form `started` on) clears the
    others (the weapon picked, the spell the form opened on goes). Two changed, or none:
    the answer as given, which the check refuses with its reason."""
    named = [k for k in CHOICES if values.get(k) not in (None, False, "")]
    if len(named) < 2:
        return dict(values)
    changed = [k for k in named if values.get(k) != started.get(k)]
    if len(changed) != 1:
        return dict(values)
    return {k: v for k, v in values.items() if k not in CHOICES or k == changed[0]}
