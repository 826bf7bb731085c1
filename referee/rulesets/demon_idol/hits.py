"""What the hit form offers as damage: the acting action's own. A blow or a shot offers
its weapon's dice (a routine naming its weapon, that one); a spell offers the spell's
`damage`, else nothing — a spell, a device or turning never offers a weapon's dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from referee.engine.errors import RefereeError

from . import stats
from .events import Declare
from .items import weapon_of

if TYPE_CHECKING:
    from referee.engine.model import Weapon
    from referee.engine.view import Fight


def acting(fight: Fight, source: str) -> tuple[Declare, int | None] | None:
    """The declaration `source` acts on now, and the routine: its action in the current
    beat; else (a hit out of turn) its latest declaration this round; None if it has
    none."""
    round_ = max(fight.round, 1)
    own = [d for _, d in fight.declared(round_) if isinstance(d, Declare) and d.actor == source]
    if not own:
        return None
    if len(own) == 1 and not own[0].routines:  # plain: no plan needed (a big one is slow)
        return own[0], None
    try:
        plan = fight.plan(round_)
    except RefereeError:  # no plan yet (initiative to roll): what it declared
        return own[-1], None
    now = plan.current(fight.resolved.get(round_, set()))
    for action in plan.beats[now - 1].actions if now is not None else ():
        decl = fight.log[action.declared]
        if action.actor == source and isinstance(decl, Declare):
            return decl, action.routine
    return own[-1], None


def offered(role_of: Mapping[str, str], fight: Fight, source: str,
            target: str | None = None) -> str | None:
    """The damage the acting action offers ("" for a spell without damage, a device or
    turning: nothing sensible to offer); None when it has no declaration this round. A
    weapon offers its damage vs large at a large target: `target`, else the one the
    action aims at."""
    found = acting(fight, source)
    if found is None:
        return None
    decl, routine = found
    actor = fight.roster[source]
    if role_of.get(decl.action) == "discharge" and decl.weapon is None:
        spell = actor.spell(decl.spell) if decl.spell else None
        return (stats.spell_damage(spell) or "") if spell is not None else ""
    weapon = arm(decl, routine, fight, role_of)
    if weapon is None:
        return None
    aimed = target if target in fight.roster else aimed_at(fight, decl)
    return stats.damage_against(weapon, fight.roster.get(aimed or "")) or None


def aimed_at(fight: Fight, decl: Declare) -> str | None:
    """The one a declaration aims at (a volley's first shot's; a side named: its first
    member)."""
    named = fight.members(decl.shots[:1] or decl.target) if decl.target or decl.shots else []
    return named[0] if named else None


def arm(decl: Declare, routine: int | None, fight: Fight,
        role_of: Mapping[str, str]) -> Weapon | None:
    """The weapon the action strikes or shoots with: its routine's own, else the one it
    names, else (a G) the first melee weapon."""
    actor = fight.roster[decl.actor]
    if decl.routines:
        named = decl.routines[min(routine or 1, len(decl.routines)) - 1]["weapon"]
        return actor.weapon(named)
    return weapon_of(decl, actor, role_of.get(decl.action, ""))
