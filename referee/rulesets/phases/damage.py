"""phases' damage form: a hit may be subdual damage, Fatigue and not Hits (PH-14)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.engine import events as ev
from referee.engine import roles
from referee.engine.record import fields
from referee.engine.specs import Field
from referee.engine.view import Fight

from . import events as ph
from .state import State


class Damage(roles.Damage[State]):
    # the damage form's one more field, the same for every fight
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("fatigue", "Fatigue", "bool", False,
              help="subdual damage: Fatigue, not Hits (PH-14; S rolls a subdue's d6)"),)

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return self.FIELDS

    def damage_events(self, fight: Fight, hit: ev.Damage,
                      values: Mapping[str, Any]) -> list[ev.Event]:
        """PH-14: a hit marked Fatigue is subdual damage, entered as Fatigue (phases' own
        damage event), not Hits; the amount is the Fatigue dealt."""
        if not values.get("fatigue"):
            return [hit]
        given = {spec.name: getattr(hit, spec.name) for spec in fields(hit)}
        return [ph.Damage(**{**given, "fatigue": True})]
