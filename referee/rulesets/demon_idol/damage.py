"""What demon-idol's damage form offers: the acting action's own damage (hits.py), twice
for a weapon set against a charge (F)."""

from __future__ import annotations

from referee.engine.roles import Damage
from referee.engine.view import Fight

from . import events as di
from . import hits, stats
from .settings import Settled
from .state import State


class DemonIdolDamage(Settled[State], Damage[State]):
    def damage_default(self, fight: Fight, source: str | None,
                       target: str | None = None) -> str:
        """The acting action's own damage (hits.py): its weapon's, its routine's weapon's,
        its spell's, or nothing for a spell without damage, a device or turning; a
        weapon's damage vs large at a large target (`target`, else the one the action
        aims at); and a weapon set against a charge (F) does double damage: its dice
        twice."""
        damage = (hits.offered(self.settings.role_of, fight, source, target)
                  if source in fight.roster else None)
        if damage is None:  # no declaration this round: its own weapon's, as any ruleset
            damage = self.own_weapon(fight, source, target)
        if damage and source is not None and self.set_against_charge(fight, source):
            return f"{damage}+{damage}"
        return damage

    def own_weapon(self, fight: Fight, source: str | None, target: str | None) -> str:
        """Without a declaration: its first weapon's damage (vs large at a large
        `target`), as any ruleset offers."""
        combatant = fight.roster.get(source or "")
        weapon = next((w for w in combatant.weapons if w.damage), None) if combatant else None
        if weapon is None or target not in fight.roster:
            return super().damage_default(fight, source)
        return stats.damage_against(weapon, fight.roster[target]) or ""

    def set_against_charge(self, fight: Fight, cid: str) -> bool:
        """Whether `cid` set a weapon (F) this round against a charge declared at it, or
        at the charger its F names."""
        role_of = self.settings.role_of
        declared = [d for _, d in fight.declared(max(fight.round, 1))
                    if isinstance(d, di.Declare) and d.segment is None]
        sets = [d for d in declared if d.actor == cid and role_of.get(d.action) == "set"]
        if not sets:
            return False
        named = {t for d in sets for t in fight.members(d.target)}
        return any(d.charge and role_of.get(d.action) == "move"
                   and fight.roster[d.actor].side != fight.roster[cid].side
                   and (d.actor in named or cid in fight.members(d.target))
                   for d in declared)
