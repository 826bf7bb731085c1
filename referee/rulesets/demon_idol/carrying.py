"""What a demon-idol combatant takes out of a fight into the next: its spells, less those
lost (DI-15: a spell lost to damage is gone from memory until learned again)."""

from __future__ import annotations

from typing import Any

from referee.engine.fight import Fight
from referee.engine.model import spell_to_dict
from referee.engine.options import Carrying

from .state import State, state_of


class DemonIdolCarrying(Carrying[State]):
    def carried(self, fight: Fight, cid: str) -> dict[str, Any]:
        lost = [e.spell for e in state_of(fight).lost_spells.values()
                if e.actor == cid and e.spell]
        kept = []
        for spell in fight.roster[cid].spells:
            if spell.name in lost:
                lost.remove(spell.name)  # one memorised copy a spell lost
                continue
            kept.append(spell_to_dict(spell))
        return {"spells": kept}
