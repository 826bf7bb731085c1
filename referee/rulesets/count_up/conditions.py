"""CU-8: the condition a creature's Wound Points leave it in."""

from __future__ import annotations

from referee.hints import TYPE_CHECKING

from . import stats

if TYPE_CHECKING:
    from referee.engine.model import Combatant
    from referee.engine.view import Status


def condition(combatant: Combatant, status: Status) -> str:
    """CU-8: fine, incapacitated, dying, stabilised (by a Heal check) or dead."""
    wounds = status.marks["wounds"]
    if status.dead or wounds <= -stats.strength(combatant):
        return "dead"
    if status.marks["stable"] and wounds <= 0:
        return "stabilised"
    if wounds < 0:
        return "dying"
    if wounds == 0:
        return "incapacitated"
    return "fine"
