"""What the log says of sanctum's events: every step of a combat, with its rule ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine import events as ev
from referee.engine.view import Fight
from referee.engine.words import counted

from . import events as se


def name(fight: Fight, cid: str) -> str:
    combatant = fight.roster.get(cid)
    return combatant.name if combatant else cid


def cite(rules: tuple[str, ...]) -> str:
    return f" ({', '.join(rules)})" if rules else ""


def tell(fight: Fight, event: ev.Event) -> str | None:
    """The log's line for `event` told sanctum's way; None: the core's line."""
    told = TELLS.get(type(event))
    return told(fight, event) if told is not None else None


def new_turn(fight: Fight, event: ev.NewRound) -> str:
    return f"turn {event.round} begins"  # the fight's rounds are sanctum's turns


def combats(fight: Fight, event: se.Combats) -> str:
    pairs = ", ".join(f"{a} vs {b}" for a, b in event.pairs)
    return f"Turn {event.round}: {counted(len(event.pairs), 'combat')} listed: {pairs} (SA-2)"


def combat(fight: Fight, event: se.Combat) -> str:
    a, b = event.groups
    if event.skipped:
        return f"Combat {a} vs {b}: skipped, {event.why or 'fought already'} (SA-2)"
    seed = f" [seed {event.seed}]" if event.seed is not None else ""
    return f"Combat {a} vs {b}: {event.first} first — {event.why}{cite(event.rules)}{seed}"


def combat_round(fight: Fight, event: se.CombatRound) -> str:
    if event.combat_round == 1:
        return ("  round 1, the missile round: missiles only, misses infinite, hand "
                f"attacks forfeited{cite(event.rules)}")
    return (f"  round {event.combat_round}: armor and attacks reset, shooters idle"
            f"{cite(event.rules)}")


VERBS = {"paired": "pairs up with", "compelled": "must attack", "wise": "chooses",
         "retaliates": "retaliates on", "random": "turns on"}


def victim(fight: Fight, event: se.Victim) -> str:
    draw = f" [draw {event.draw}]" if event.draw else ""
    why = f": {event.why}" if event.why else ""
    return (f"    {name(fight, event.actor)} {VERBS.get(event.how, event.how)} "
            f"{name(fight, event.victim)}{why}{draw}{cite(event.rules)}")


def attack(fight: Fight, event: se.Attack) -> str:
    who = f"    r{event.combat_round} {name(fight, event.attacker)} → " \
          f"{name(fight, event.victim)} ({event.kind})"
    why = f"; {event.why}" if event.why else ""
    if not event.hit:
        return f"{who}: miss{why}{cite(event.rules)}"
    hp = f", hp {event.hp}" if event.hp is not None else ""
    return (f"{who}: hit {event.damage}, {event.soaked} soaked: {event.result}{hp}{why}"
            f"{cite(event.rules)}")


def forfeit(fight: Fight, event: se.Forfeit) -> str:
    return (f"    {name(fight, event.actor)} forfeits {event.attacks} attack"
            f"{'s' if event.attacks != 1 else ''}: {event.why}{cite(event.rules)}")


def combat_end(fight: Fight, event: se.CombatEnd) -> str:
    left = "; ".join(f"{g}: {', '.join(ids) or 'none'}" for g, ids in event.survivors.items())
    a, b = event.groups
    return (f"Combat {a} vs {b} over after {event.rounds} rounds: {event.ended}; "
            f"survivors {left} (SA-3)")


# Keyed by the event's own class
TELLS: dict[type[ev.Event], Callable[[Fight, Any], str]] = {
    ev.NewRound: new_turn,
    se.Combats: combats,
    se.Combat: combat,
    se.CombatRound: combat_round,
    se.Victim: victim,
    se.Attack: attack,
    se.Forfeit: forfeit,
    se.CombatEnd: combat_end,
}
