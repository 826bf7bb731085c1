"""Building declaration forms from a combatant's gear: shared by the rulesets."""

from __future__ import annotations

from collections.abc import Mapping

from referee.hints import TYPE_CHECKING

from .specs import Field

if TYPE_CHECKING:
    from typing import Any

    from .events import Declare
    from .model import Combatant
    from .view import Fight
else:
    from referee.hints import Any

NONE = ("—", None)


def target_options(fight: Fight) -> tuple[tuple[str, Any], ...]:
    return tuple((c.name, cid) for cid, c in fight.roster.items() if fight.alive(cid))


def declare_fields(fight: Fight, actor: str, needs: tuple[str, ...], prefill: Mapping[str, Any],
                   specs: Mapping[str, Field] | None = None) -> tuple[Field, ...]:
    """Only what the action needs, in the order it lists them, pre-filled.

    Weapons, spells and targets are choices among the actor's gear and the living;
    any other field comes from `specs` (the ruleset's own).
    """
    combatant = fight.roster[actor]
    out: list[Field] = []
    for name in needs:
        if name == "weapon":
            if combatant.weapons:
                options = (NONE,) + tuple((w.name, w.name) for w in combatant.weapons)
                out.append(Field("weapon", "weapon", "choice", prefill.get("weapon"),
                                 options=options))
        elif name == "spell":
            if combatant.spells:
                options = (NONE,) + tuple((s.name, s.name) for s in combatant.spells)
                out.append(Field("spell", "spell", "choice", prefill.get("spell"),
                                 options=options))
        elif name == "target":
            out.append(Field("target", "target", "choice", prefill.get("target"),
                             options=(NONE,) + target_options(fight)))
        elif specs and name in specs:
            spec = specs[name]
            out.append(spec if name not in prefill else _with_default(spec, prefill[name]))
    return tuple(out)


def _with_default(spec: Field, value: Any) -> Field:
    from .record import replace

    return replace(spec, default=value)


def last_declaration(fight: Fight, actor: str) -> Declare | None:
    for round_ in range(max(fight.round, 1) - 1, 0, -1):
        for _, decl in fight.declared(round_):
            if decl.actor == actor and decl.step is None:
                return decl
    return None


def prefill(fight: Fight, actor: str, action: str, missile: bool,
            needs: tuple[str, ...] = ("weapon", "spell", "target")) -> dict[str, Any]:
    """Fields for a new declaration: last round's where they fit, else the actor's own.
    `missile`: the action wants a missile weapon first."""
    combatant = fight.roster[actor]
    last = last_declaration(fight, actor)
    out: dict[str, Any] = {}
    casts = "spell" in needs and bool(combatant.spells)
    if casts and "weapon" in needs:  # one or the other: last round's choice, else a spell
        casts = not (last is not None and last.action == action and getattr(last, "weapon", None))
    if "weapon" in needs and not casts:
        out["weapon"] = _weapon(combatant, action, last, missile)
    if casts:
        spell = getattr(last, "spell", None) if last is not None else None
        out["spell"] = spell if spell and combatant.spell(spell) else combatant.spells[0].name
    if "target" in needs:
        target = _target(fight, combatant, last)
        if target:
            out["target"] = target
    return {k: v for k, v in out.items() if v}


def _weapon(combatant: Combatant, action: str, last: Declare | None,
            missile: bool) -> str | None:
    chosen = getattr(last, "weapon", None) if last is not None else None
    if last is not None and last.action == action and chosen:
        return str(chosen)
    for weapon in combatant.weapons:
        if bool(weapon.stat("missile", False)) == missile:
            return weapon.name
    return combatant.weapons[0].name if combatant.weapons else None


def _target(fight: Fight, combatant: Combatant, last: Declare | None) -> str | None:
    earlier = last.target[0] if last is not None and last.target else None
    if earlier in fight.roster and fight.alive(earlier):
        return earlier
    for cid, other in fight.roster.items():
        if other.side != combatant.side and fight.alive(cid):
            return cid
    return None


def weapon_damage(fight: Fight, source: str | None) -> str | None:
    """The damage of the weapon `source` declared this round, else of its first weapon."""
    if source is None or source not in fight.roster:
        return None
    combatant = fight.roster[source]
    for _, decl in fight.declared(max(fight.round, 1)):
        weapon = getattr(decl, "weapon", None)
        if decl.actor == source and weapon:
            chosen = combatant.weapon(weapon)
            if chosen is not None and chosen.damage:
                return chosen.damage
    return next((w.damage for w in combatant.weapons if w.damage), None)
