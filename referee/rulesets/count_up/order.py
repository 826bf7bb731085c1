"""The order of a count-up round, as pure functions of what they need: each declared
action's count (base initiative and the action's modifier with its weapon's or spell's
speed, CU-3), the beats by count (CU-4), and a round's turns once the fight has ended
(CU-10). The planner puts them together."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.model import Combatant, Weapon
from referee.engine.plan import Beat, Plan, PlannedAction, action_key
from referee.engine.record import record
from referee.engine.view import Fight

from . import events as cu
from . import stats
from .settings import ActionRule


@record(frozen=True)
class Turn:
    count: int
    action: PlannedAction
    rules: tuple[str, ...]
    why: str


def key_of(turn: Turn) -> str:
    """What a `resolve` event records of a turn (count-up beats carry no segment)."""
    return action_key(Beat([]), turn.action)


def modifier(kinds: Mapping[str, ActionRule], actor: Combatant,
             d: cu.Declare) -> tuple[int, str]:
    if d.modifier is not None:
        return d.modifier, f"modifier {d.modifier:+d} as declared"
    modifier, adds = kinds[d.action].modifier, kinds[d.action].adds
    speed, what = 0, ""
    if adds == "weapon":
        weapon = weapon_used(kinds, actor, d)
        speed = stats.weapon_speed(weapon) if weapon else 0
        what = f" + {weapon.name} speed {speed}" if weapon else " (not attacking: speed 0)"
    elif adds == "spell":
        spell = actor.spell(d.spell or "")
        speed = stats.spell_speed(spell) if spell else 0
        what = f" + {spell.name} speed {speed}" if spell else ""
    total = modifier + speed
    return total, f"{d.action} {modifier:+d}{what}"


def weapon_used(kinds: Mapping[str, ActionRule], actor: Combatant,
                d: cu.Declare) -> Weapon | None:
    """The named weapon; an attack naming none uses the first. A defensive attack
    naming none is one that does not attack: weapon speed 0 (CU-3)."""
    if d.weapon is not None:
        return actor.weapon(d.weapon)
    if kinds[d.action].weapon_optional:
        return None
    return actor.weapons[0] if actor.weapons else None


def after_the_end(fight: Fight, plan: Plan) -> Plan:
    """Once the fight has ended, the turns of its last round not yet taken never come
    (CU-10): marked skipped, so no beat is left to resolve."""
    if not fight.ended or plan.round != max(fight.round, 1):
        return plan
    done = fight.resolved.get(plan.round, set())
    why = "the fight is over: initiative wiped (CU-10)"
    for beat in plan.beats:
        beat.actions = [a if action_key(beat, a) in done else a.with_extra(skipped=why)
                        for a in beat.actions]
    plan.notes.append(why)
    return plan


def fell_in_beat(died: tuple[int, frozenset[str]] | None, round_: int, turn: Turn,
                 kept: list[Turn]) -> bool:
    """Whether its actor died while `turn`'s beat was the one under way: every turn
    taken at a lower count was done by then (CU-4)."""
    if died is None or died[0] != round_:
        return False
    return all(key_of(t) in died[1] for t in kept if t.count < turn.count)


def beat(fight: Fight, count: int, turns: list[Turn]) -> Beat:
    turns.sort(key=lambda t: (fight.roster_index(t.action.actor), t.action.turn or 0))
    rules = ["CU-4"]
    whys = []
    for turn in turns:
        rules.extend(r for r in turn.rules if r not in rules)
        whys.append(f"{turn.action.actor}: {turn.why}")
    if len(turns) > 1:
        whys.append("equal counts act simultaneously")
    return Beat([t.action for t in turns], rules, whys, {"count": count}, f"@{count}")
