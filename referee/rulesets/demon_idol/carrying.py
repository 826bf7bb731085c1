"""What a demon-idol combatant takes out of a fight into the next: its spells, less those
cast (a D with a spell whose beat was resolved: the spell is spent) and those lost to
damage (DI-15): each is gone from memory until learned again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.model import spell_to_dict
from referee.engine.options import Carrying
from referee.engine.view import Fight

from . import events as di
from .settings import Settled
from .state import State, state_of


class DemonIdolCarrying(Settled[State], Carrying[State]):
    def carried(self, fight: Fight, cid: str, answers: Mapping[str, Any]) -> dict[str, Any]:
        gone = self.lost(fight, cid) + self.spent(fight, cid)
        kept = []
        for spell in fight.roster[cid].spells:
            if spell.name in gone:
                gone.remove(spell.name)  # one memorised copy a spell gone
                continue
            kept.append(spell_to_dict(spell))
        return {"spells": kept}

    def lost(self, fight: Fight, cid: str) -> list[str]:
        return [e.spell for e in state_of(fight).lost_spells.values()
                if e.actor == cid and e.spell]

    def spent(self, fight: Fight, cid: str) -> list[str]:
        """The spells it cast: a D naming a spell, resolved, and not lost that round."""
        lost = state_of(fight).lost_spells
        role_of = self.settings.role_of
        out = []
        for round_, items in fight.declarations.items():
            done = fight.resolved.get(round_, set())
            for _, d in items:
                if (d.actor == cid and isinstance(d, di.Declare) and d.spell
                        and role_of.get(d.action) == "discharge"
                        and (round_, cid) not in lost
                        and any(key.split("@")[0].split("~")[0] == f"{cid}:{d.action}"
                                for key in done)):
                    out.append(d.spell)
        return out
