"""phases' tracker groups: a large battle's rows fold by squad (PH-7)."""

from __future__ import annotations

from referee.engine.options import Grouping
from referee.engine.view import Fight

from .state import State

LOOSE = ""  # the tracker's group of the units in no squad: no squad's id can be empty


class Groups(Grouping[State]):
    def row_groups(self, fight: Fight) -> dict[str, tuple[str, str]]:
        """The tracker folds a large battle by squad (PH-7); worked out again only when
        the squads change (a Regroup, a new leader) or a unit joins."""
        state = self.state(fight)
        caches, roster = state.caches, fight.roster
        # the roster by identity and size: a unit joins it in place, and an undo folds
        # a copy of it (the same squads may then meet another unit that joined)
        kept = caches.groups
        if kept is not None and kept[0] is state.squads and kept[1] is state.member and \
                kept[2] is roster and kept[3] == len(roster):
            found: dict[str, tuple[str, str]] = kept[4]
            return found
        headings: dict[str, tuple[str, str]] = {}
        for squad in state.squads.values():
            leader = fight.roster.get(squad.leader or "")
            led = f", led by {leader.name}" if leader is not None else ", no leader"
            headings[squad.id] = (squad.id, f"{squad.kind} {squad.id}{led}")
        found = {cid: headings[sid] for cid, sid in state.member.items() if sid in headings}
        if found:  # the units in no squad together, not strewn between the squads
            loose = LOOSE, "no squad (PH-9)"
            found.update((cid, loose) for cid in fight.roster if cid not in found)
        caches.groups = (state.squads, state.member, roster, len(roster), found)
        return found
