"""How count-up names a combatant in the log and the tracker: by its name, or its id when
the roster no longer holds it."""

from __future__ import annotations

from referee.engine.view import Fight


def name(fight: Fight, cid: str | None) -> str:
    combatant = fight.roster.get(cid or "")
    return combatant.name if combatant else str(cid)
