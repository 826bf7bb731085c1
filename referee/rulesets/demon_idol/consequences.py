"""What the demon-idol rules add after an event or at the end of a round: a spell lost
to damage before it resolved (DI-15), death at the ruleset's threshold and bleeding
below 0 hit points (DI-19), and preparations that lapse unfired (DI-14)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.plan import Plan

from . import events as di
from .board import ready, repeats
from .state import state_of

if TYPE_CHECKING:
    from referee.engine.view import Fight

    from .settings import Settings


def after(s: Settings, fight: Fight, event: ev.Event) -> list[ev.Event]:
    """What damage brings: the spell it interrupts (DI-15), and death at the ruleset's
    threshold (DI-19)."""
    if not isinstance(event, ev.Damage):
        return []
    out: list[ev.Event] = []
    lost = spell_lost_by(fight, event)
    if lost is not None:
        out.append(lost)
    status = fight.status[event.target]
    if not status.dead and status.hp <= s.death_at:
        out.append(ev.Death(round=event.round, target=event.target,
                            cause=f"{status.hp} hit points (DI-19)"))
    return out


def end_of_round(s: Settings, fight: Fight) -> list[ev.Event]:
    """Preparations that lapse unfired (DI-14); bleeding, and death by it, for everyone
    who began the round below 0 hit points (DI-19)."""
    out: list[ev.Event] = list(lapsed_preparations(fight))
    for cid, status in fight.status.items():
        if status.dead or status.hp_at_round_start >= 0:
            continue
        out.append(ev.Damage(round=fight.round, target=cid, amount=s.bleed,
                             note="bleeding (DI-19)"))
        if status.hp - s.bleed <= s.death_at:
            out.append(ev.Death(round=fight.round, target=cid, cause="bled out (DI-19)"))
    return out


def spell_lost_by(fight: Fight, damage: ev.Damage) -> di.SpellLost | None:
    """DI-15: damage before the caster's spell resolves loses it; same beat does not."""
    round_ = damage.round
    if (round_, damage.target) in state_of(fight).lost_spells or damage.amount <= 0:
        return None
    spells = [d for _, d in fight.declared(round_) if d.actor == damage.target
              and isinstance(d, di.Declare) and d.spell is not None and d.segment is None]
    if not spells:
        return None
    try:
        plan = fight.plan(round_)
    except RefereeError:
        return None
    now = damage.beat
    if now is None:
        now = plan.current(fight.resolved.get(round_, set())) or len(plan.beats) + 1
    at = spell_beat(plan, damage.target)
    if at is not None and at <= now:
        return None
    return di.SpellLost(round=round_, actor=damage.target, spell=spells[0].spell,
                        reason=f"damaged in beat {now} before the spell resolved (DI-15)")


def spell_beat(plan: Plan, actor: str) -> int | None:
    for number, beat in enumerate(plan.beats, start=1):
        if "segment" in beat.extra or ready(beat) or repeats(beat):
            continue
        if any(a.actor == actor and not a.flag("prepared") for a in beat.actions):
            return number
    return None


def lapsed_preparations(fight: Fight) -> Iterable[ev.Event]:
    """DI-14: a preparation not fired by the round's end lapses."""
    fired = state_of(fight).fired
    for _, decl in fight.declared(fight.round):
        if getattr(decl, "prepared", False) and (fight.round, decl.actor) not in fired:
            yield ev.Note(round=fight.round,
                          text=f"{decl.actor}'s prepared {decl.action} lapses unfired (DI-14)")
