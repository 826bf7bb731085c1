"""Firing a prepared action (DI-14): it goes immediately before the action that triggered
it. When the beat under way holds more than one actor who could have triggered it, the
referee is asked whose action it was; with one, it is that one's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine.errors import RefereeError
from referee.engine.specs import Field, Form

if TYPE_CHECKING:
    from referee.engine.view import Fight

NOBODY = "none of them: it fires where it is ready"


def beat_under_way(fight: Fight) -> list[tuple[str, str, bool]]:
    """The actions of the beat under way: (actor, letter, skipped), in the beat's order."""
    round_ = max(fight.round, 1)
    try:
        plan = fight.plan(round_)
    except RefereeError:  # no order yet (initiative to roll): no beat under way
        return []
    now = plan.current(fight.resolved.get(round_, set()))
    actions = plan.beats[now - 1].actions if now is not None else []
    return [(a.actor, a.action, bool(a.flag("skipped"))) for a in actions]


def triggers(fight: Fight, actor: str) -> list[tuple[str, str]]:
    """Who acts in the beat under way besides `actor`, with the letter each acts on:
    whose action could have triggered the preparation."""
    found: dict[str, str] = {}
    for cid, letter, skipped in beat_under_way(fight):
        if cid != actor and not skipped:
            found.setdefault(cid, letter)
    return list(found.items())


def form(fight: Fight, actor: str) -> Form | None:
    """The question, when the answer is not plain: several could have triggered it, or
    the one who could is not the first of the beat (whom the table names unasked)."""
    could = triggers(fight, actor)
    first = [cid for cid, _, _ in beat_under_way(fight)][:1]
    if not could or (len(could) == 1 and first == [could[0][0]]):
        return None
    options = tuple((f"{fight.roster[cid].name} ({letter})", cid) for cid, letter in could)
    name = fight.roster[actor].name
    field = Field("before", "fires just before", "choice", could[0][0],
                  options=options + ((NOBODY, None),))
    return Form(f"{name}'s prepared action fires (DI-14)", (field,),
                hint="whose action triggered it: it resolves immediately before that one")


def before(fight: Fight, actor: str, values: Mapping[str, Any]) -> str | None:
    """Whom it fires before: the answer, never the actor itself (its own ready beat)."""
    chosen = values.get("before")
    return chosen if isinstance(chosen, str) and chosen != actor and chosen in fight.roster \
        else None
