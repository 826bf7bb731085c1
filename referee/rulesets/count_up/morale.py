"""CU-6: who must check morale at the end of a round, the check (3d6 + Insight + HD +
allies against 11 + opponents, or an Intimidation result), the roll of it, and a logged
check held to its dice."""

from __future__ import annotations

import random
from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.dice import roll as roll_dice
from referee.engine.errors import IllegalEvent
from referee.engine.record import record
from referee.engine.view import Fight, Status
from referee.hints import TYPE_CHECKING

from . import outcomes, stats

if TYPE_CHECKING:
    from referee.engine.model import Combatant

    from .settings import Settings


@record(frozen=True)
class MoraleCheck:
    """CU-6: 3d6 + Insight + HD + allies against 11 + opponents (or an Intimidation result)."""

    combatant: str
    roll: int
    insight: int
    hd: int
    allies: int
    opponents: int
    tn: int

    @property
    def total(self) -> int:
        return self.roll + self.insight + self.hd + self.allies

    @property
    def passed(self) -> bool:
        return self.total >= self.tn

    def explain(self) -> str:
        verdict = "holds" if self.passed else "breaks"
        return (f"{self.combatant} morale: {self.roll} + Insight {self.insight} + HD {self.hd}"
                f" + {self.allies} allies = {self.total} vs TN {self.tn}: {verdict} (CU-6)")


def triggers(fight: Fight, intimidated: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """CU-6: who must check morale at the end of this round, and why. A check already
    made answers what it was made for: it is due again only for a new big hit or worse
    odds, and never once morale has broken (the monster flees or gives up)."""
    players = {s.id for s in fight.encounter.sides if s.players}
    due = []
    for cid, combatant in fight.roster.items():
        status = fight.status[cid]
        marks = status.marks
        if combatant.side in players or status.dead or marks["broke"]:
            continue
        margin_ = margin(fight, cid)
        if marks["big_hit_round"] == fight.round and marks["big_hits"] > marks[
                "checked_hits"]:
            due.append((cid, "took more than half its Wound Points in one hit"))
        elif margin_ > 0 and margin_ > marks["checked_margin"]:
            foes, allies = sides_of(fight, cid)
            due.append((cid, f"outnumbered {foes} to {allies}"))
        elif cid in intimidated:
            due.append((cid, "the target of Intimidation"))
    return due


def settled(fight: Fight, cid: str, passed: bool) -> Status:
    """`cid`'s status once a morale check is made: it answers the big hits taken and the
    odds faced so far; one that broke ends its checks (it flees or gives up: the
    referee's call) (CU-6)."""
    status = fight.status[cid]
    marks = status.marks
    return status.changed(marks={**marks, "checked_hits": marks["big_hits"],
                                 "checked_margin": max(margin(fight, cid), 0),
                                 "broke": marks["broke"] or not passed})


def sides_of(fight: Fight, cid: str) -> tuple[int, int]:
    """(opponents, its side) still alive, itself counted."""
    side = fight.roster[cid].side
    return (count_alive(fight, lambda c: c.side != side),
            count_alive(fight, lambda c: c.side == side))


def margin(fight: Fight, cid: str) -> int:
    """By how many its opponents outnumber its side (0 or less: they do not)."""
    foes, allies = sides_of(fight, cid)
    return foes - allies


def count_alive(fight: Fight, predicate: Callable[[Combatant], bool]) -> int:
    return sum(1 for cid, c in fight.roster.items() if predicate(c) and fight.alive(cid))


def check(s: Settings, fight: Fight, cid: str, roll: int,
          intimidation: int | None = None) -> MoraleCheck:
    combatant = fight.roster[cid]
    allies = sum(1 for o, c in fight.roster.items()
                 if o != cid and c.side == combatant.side and fight.alive(o))
    opponents = sum(1 for o, c in fight.roster.items()
                    if c.side != combatant.side and fight.alive(o))
    tn = intimidation if intimidation is not None else s.morale_tn + opponents
    return MoraleCheck(cid, roll, stats.insight(combatant), stats.hd(combatant), allies,
                       opponents, tn)


def roll_morale(s: Settings, fight: Fight, cid: str, rng: random.Random,
                intimidation: int | None = None) -> list[ev.Event]:
    dice = roll_dice(s.morale_dice, rng)
    made = check(s, fight, cid, dice.total, intimidation)
    return [
        ev.Roll(round=fight.round, expr=dice.expression, dice=outcomes.dice_values(dice),
                total=dice.total, purpose=f"{outcomes.MORALE}(CU-6)", actor=cid),
        ev.Morale(round=fight.round, group=(cid,), roll=made.total, target=made.tn,
                  passed=made.passed, avoid=None if made.passed else "flee"),
    ]


def check_morale(s: Settings, fight: Fight, event: ev.Morale) -> None:
    """CU-6: a roll entered with it is its 3d6 with Insight, HD and allies added; the
    verdict is the roll against the TN."""
    check_morale_roll(s, fight, event)
    if event.passed is not None and event.roll is not None and event.target is not None:
        holds = event.roll >= event.target
        if event.passed != holds:
            verdict = "holds" if holds else "breaks"
            raise IllegalEvent(f"{event.roll} against TN {event.target} {verdict}: passed is "
                               f"{outcomes.shown(holds)}, the log has "
                               f"{outcomes.shown(event.passed)} (CU-6)", ("passed",))


def check_morale_roll(s: Settings, fight: Fight, event: ev.Morale) -> None:
    roll = outcomes.roll_before(fight, outcomes.MORALE)
    if roll is None or event.roll is None or len(event.group) != 1 \
            or event.group[0] not in fight.roster:
        return
    outcomes.rolled_on(roll, s.morale_dice, "roll", "CU-6")
    made = check(s, fight, event.group[0], roll.total)
    if event.roll != made.total:
        raise IllegalEvent(f"the dice roll {roll.total}: {roll.total} + Insight {made.insight}"
                           f" + HD {made.hd} + {made.allies} allies = {made.total}, the log "
                           f"has {event.roll} (CU-6)", ("roll",))
