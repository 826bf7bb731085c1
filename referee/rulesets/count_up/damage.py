"""count-up's damage form: whether the hit was critical, with the multiplier of the
weapon it was struck with (CU-7); a critical hit is entered with its damage multiplied
and goes straight to Wound Points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.roles import Damage
from referee.engine.specs import Field
from referee.engine.view import Fight

from . import events as cu
from . import hits, stats
from .fold import State
from .settings import Settled


class CountUpDamage(Settled[State], Damage[State]):
    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return (self.critical_field(fight),)

    def critical_field(self, fight: Fight) -> Field:
        """The hit form's critical question: the multiplier it will use in its label, the
        damage multiplied in its yes (for the one acting now; several: each one's
        weapon)."""
        kinds = self.settings.kinds
        who = hits.acting(fight)
        label, yes = "critical (CU-7)", "yes: × the weapon's multiplier"
        if len(who) == 1:
            weapon = hits.struck_with(kinds, fight, who[0])
            times = stats.critical(weapon) if weapon is not None else 1
            label = f"critical: ×{times} {weapon.name if weapon else 'no weapon'}"
            yes = f"yes: {self.damage_default(fight, who[0])} × {times} to Wound Points"
        elif who:
            yes = "yes: " + ", ".join(
                hits.multiplier_text(fight, hits.struck_with(kinds, fight, cid), cid)
                for cid in who)
        return Field("critical", label, "choice", False, options=(("no", False), (yes, True)),
                     help="multiplied by the weapon's multiplier, straight to Wound Points")

    def damage_events(self, fight: Fight, hit: ev.Damage,
                      values: Mapping[str, Any]) -> list[ev.Event]:
        """A critical hit entered with its damage multiplied by the weapon's multiplier."""
        if not hit.critical:
            return [hit]
        weapon = hits.struck_with(self.settings.kinds, fight, hit.source)
        if weapon is None:  # nothing to multiply: still straight to Wound Points
            return [hit]
        times = stats.critical(weapon)
        return [cu.Damage(round=hit.round, target=hit.target, amount=hit.amount * times,
                          source=hit.source, critical=True, beat=hit.beat, note=hit.note,
                          weapon=weapon.name, multiplier=times)]

    @staticmethod
    def critical_damage(damage: int, weapon_multiplier: int) -> int:
        """CU-7: a critical multiplies weapon damage; it then goes straight to Wound Points
        (the hit form's hits go through `damage_events`)."""
        return damage * weapon_multiplier
