"""count-up's declarations: the actions of CU-3's table (the ruleset file's), each with
the weapon or spell whose speed it adds, and a note for the log."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.options import Declaring
from referee.engine.specs import ActionKind, Field, Form
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from .fold import State
from .naming import name
from .settings import Settled

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

# the declaration forms' own field: a word on what the actor means to do (issue 24, 17)
NOTE = Field("note", "note", help="for the log: aims at the eyes …")


class CountUpDeclarations(Settled[State], Declaring[State]):
    def actions(self) -> list[ActionKind]:
        fields = {"weapon": ("weapon", "target", "note"), "spell": ("spell", "target", "note"),
                  "": ("target", "note")}
        return [ActionKind(key, name, fields[adds], hotkey)
                for key, (name, _, adds, hotkey, _) in self.settings.kinds.items()]

    def declare_form(self, fight: Fight, actor: str, action: str,
                     prefill: Mapping[str, Any]) -> Form:
        from referee.engine.forms import declare_fields

        kind = self.kind(action)
        if kind is None:
            return super().declare_form(fight, actor, action, prefill)
        title = f"{fight.roster[actor].name} declares {action} — {kind.name}"
        return Form(title, declare_fields(fight, actor, kind.fields, prefill, {"note": NOTE}))

    def can_declare(self, fight: Fight, actor: str, action: str) -> str:
        why = super().can_declare(fight, actor, action)
        combatant = fight.roster[actor]
        if not why and self.settings.kinds[action].adds == "spell" and not combatant.spells:
            return f"{combatant.name} has no spell to cast"
        return why

    def declared_text(self, fight: Fight, cid: str, decl: ev.Declare) -> str:
        what = (getattr(decl, "weapon", None) or getattr(decl, "spell", None) or "")
        text = f"{decl.action} {what}".strip()
        if decl.target:  # named as the rest of the screen names them
            text += f" → {', '.join(name(fight, t) for t in decl.target)}"
        return text
