"""What a save of a `simple` ruleset holds: the roster keys its file names, its two
events, and the checks of the rolls in them."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.dice import DiceError, Roll
from referee.engine.errors import IllegalEvent
from referee.engine.roles import RosterSchema
from referee.engine.specs import Field
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import standing
from .events import EVENTS, Initiative, Tie
from .settings import Settled
from .standing import State

if TYPE_CHECKING:
    from typing import Any

    from referee.engine.port import Ruleset
else:
    from referee.hints import Any


class SimpleSchema(Settled[State], RosterSchema[State]):
    GEAR = ("weapons",)

    def __init__(self, rs: Ruleset[State]) -> None:
        super().__init__(rs)
        # the roster keys the file names, as fields: made once, with the settings
        self._fields = tuple(Field(key, key, "int", 0, minimum=-999, maximum=999,
                                   help="a number from the character sheet")
                             for key in self.settings.keys)

    def combatant_fields(self) -> tuple[Field, ...]:
        return self._fields

    def events(self) -> tuple[type[ev.Event], ...]:
        return EVENTS

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        if isinstance(event, Initiative | Tie):
            self.check_rolls(fight, event.rolls, event.dice)
        if isinstance(event, Tie):
            tied = {w for group in standing.open_ties(self.settings, fight) for w in group}
            for who in event.rolls:
                if who not in tied:
                    raise IllegalEvent(f"{standing.name_of(fight, who)} is not in a tie "
                                       "waiting for a re-roll (SI-6)", ("rolls", who))

    def check_rolls(self, fight: Fight, rolls: Mapping[str, int],
                    dice: Mapping[str, Any]) -> None:
        s = self.settings
        known = set(fight.roster) if s.mode == "combatant" else fight.side_ids()
        what = "combatant" if s.mode == "combatant" else "side"
        for who, value in rolls.items():
            if who not in known:
                raise IllegalEvent(f"unknown {what} {who!r}: initiative is by {what} (SI-1)",
                                   ("rolls", who))
            if not s.low <= value <= s.high:
                raise IllegalEvent(f"{value} cannot be rolled on {s.die} ({s.low} to "
                                   f"{s.high})", ("rolls", who))
            if who in dice:
                self.check_dice(who, value, dice[who])

    def check_dice(self, who: str, value: int, record: Any) -> None:
        die = self.settings.die
        try:
            rolled = Roll.from_dict(record)
        except DiceError as error:
            raise IllegalEvent(str(error), ("dice", who)) from None
        if rolled.total != value or rolled.expression != die:
            raise IllegalEvent(f"the dice logged for {who!r} ({rolled.detail()}) do not "
                               f"make {value} on {die}", ("dice", who))
