"""DI-20: once the fight is over, one recovery turn passes. The round it ended in keeps the
beats already resolved; the rest never come (each action marked skipped, DI-20), so no beat
stands as the one under way, and the plan says what the recovery turn allows."""

from __future__ import annotations

from referee.engine.plan import action_key
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.engine.plan import Plan
    from referee.engine.view import Fight

# DI-20: what the recovery turn after a fight allows, said where the fight ends (the
# plan's note, and the end's line in the log)
RECOVERY = ("one recovery turn passes (DI-20): no travel, but bleeding can be staunched, "
            "spells cast, prisoners tied")
NEVER = "the fight is over: not resolved (DI-20)"


def over(fight: Fight, round_: int) -> bool:
    """Whether `round_` is the round the fight ended in (earlier rounds' plans are what
    happened)."""
    return fight.ended and round_ == max(fight.round, 1)


def close(fight: Fight, plan: Plan) -> Plan:
    """The plan of the round the fight ended in: what was not resolved is skipped, and a
    note says the recovery turn has begun."""
    done = fight.resolved.get(plan.round, set())
    for beat in plan.beats:
        beat.actions = [a if action_key(beat, a) in done or a.flag("skipped")
                        else a.with_extra(skipped=NEVER) for a in beat.actions]
    plan.notes.append(f"the fight is over: {RECOVERY}")
    return plan
