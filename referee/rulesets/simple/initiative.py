"""simple's initiative: rolled by the program or typed from real dice, a tie re-rolled
until it breaks where the file says so (SI-2, SI-6)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.options import Rolling
from referee.engine.port import dice_roll
from referee.engine.specs import Field, Form
from referee.engine.view import Fight

from . import order, standing
from .events import Initiative, Tie
from .settings import Settled
from .standing import State

MOST_REROLLS = 50  # a tie re-rolled this often stays tied: the referee rolls again (i)


class SimpleInitiative(Settled[State], Rolling[State]):
    def initiative_due(self, fight: Fight) -> bool:
        s = self.settings
        return not fight.ended and bool(standing.missing(s, fight)
                                        or standing.open_ties(s, fight))

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        s = self.settings
        round_ = max(fight.round, 1)
        out: list[ev.Event] = []
        missing = standing.missing(s, fight)
        trial = fight
        if missing:
            rolls, dice = self.rolled(missing, rng)
            out.append(Initiative(round=round_, rolls=rolls, dice=dice))
            trial = fight.copy()
            trial.push(out[-1])
        for _ in range(MOST_REROLLS):
            tied = [w for group in order.open_ties(standing.places(s, trial, round_))
                    for w in group]
            if not tied:
                break
            rolls, dice = self.rolled(tied, rng)
            out.append(Tie(round=round_, rolls=rolls, dice=dice, follows=bool(out)))
            if trial is fight:
                trial = fight.copy()
            trial.push(out[-1])
        return out

    def rolled(self, who: list[str], rng: random.Random) -> tuple[dict[str, int],
                                                                  dict[str, Any]]:
        results = {w: dice_roll(self.settings.die, rng) for w in who}
        return ({w: r.total for w, r in results.items()},
                {w: r.to_dict() for w, r in results.items()})

    def initiative_form(self, fight: Fight) -> Form:
        """A field for each roll due: a die typed from the table, or left blank for the
        program to roll (as agility-order's tie form)."""
        s = self.settings
        missing = standing.missing(s, fight)
        who = missing or [w for group in standing.open_ties(s, fight) for w in group]
        fields = tuple(Field(w, standing.name_of(fight, w), "int", None,
                             minimum=s.low, maximum=s.high,
                             help=f"{s.die}: {s.low} to {s.high}; blank: the program rolls")
                       for w in who)
        hint = "leave blank for the program's dice"
        if missing:
            added = f" (+ {s.modifier}, added for you)" if s.modifier else ""
            return Form(f"Initiative from real dice: {s.die}{added} (SI-2)", fields,
                        hint=hint)
        return Form(f"The tie re-rolled from real dice: {s.die} (SI-6)", fields, hint=hint)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        """The rolls typed, and the program's for those left blank (logged die by die),
        drawn as the table draws its dice: from the save's seed and how far its log has
        come, so a blank rolls what `i` would have rolled."""
        rolls = {w: int(v) for w, v in values.items() if v not in (None, "")}
        blank = [w for w, v in values.items() if v in (None, "")]
        dice: dict[str, Any] = {}
        if blank:
            rng = random.Random(f"{fight.encounter.seed}/{len(fight.log)}")
            rolled, dice = self.rolled(blank, rng)
            rolls.update(rolled)
        if standing.missing(self.settings, fight):
            return [Initiative(round=max(fight.round, 1), rolls=rolls, dice=dice)]
        return [Tie(round=max(fight.round, 1), rolls=rolls, dice=dice)]
