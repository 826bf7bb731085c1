"""A party that carries over: the players' sides as a roster, as the fight left them
(hit points, conditions with rounds left, and what the ruleset carries: spells lost,
Wound Points, Stress when the referee says so), for the next encounter's set-up (`referee
play NEW --party FILE`). What the rules leave open is asked as it is written (the ruleset's
`Carrying.questions`: the app's form, `referee party`'s options); unasked, each default
stands, and the line that says who was written says what stayed behind."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.engine import Fight
from referee.engine.errors import FormatError
from referee.engine.model import side_to_dict
from referee.engine.options import Carrying, carry_answers

ROSTER_FORMAT = "referee-roster"


def party_roster(fight: Fight, answers: Mapping[str, Any] | None = None
                 ) -> tuple[dict[str, Any], list[str]]:
    """The roster of the players' sides, and who was left out (the dead), given the
    answers to the ruleset's questions (None: every default)."""
    sides = [s for s in fight.encounter.sides if s.players]
    if not sides:
        raise FormatError("no side is run by the players: mark one in set-up (e on a side)",
                          ("sides",))
    ids = {s.id for s in sides}
    carrying = fight.ruleset.role(Carrying)
    answered = carry_answers(fight.ruleset, fight, answers)
    combatants, dead = [], []
    for cid, c in fight.roster.items():
        if c.side not in ids:
            continue
        status = fight.status[cid]
        if status.dead:
            dead.append(c.name)
            continue
        data = c.to_dict()
        data.update(hp=status.hp, max_hp=status.max_hp)
        data.pop("conditions", None)
        if status.conditions:
            data["conditions"] = {k: True if v is None else v
                                  for k, v in status.conditions.items()}
        if carrying is not None:
            data.update(carrying.carried(fight, cid, answered))
        combatants.append({k: v for k, v in data.items() if v not in ([], {})})
    title = f"The party after {fight.encounter.title}".strip()
    return ({"format": ROSTER_FORMAT, "ruleset": fight.encounter.ruleset, "title": title,
             "sides": [side_to_dict(s) for s in sides], "combatants": combatants}, dead)


def roster_text(roster: dict[str, Any]) -> str:
    import tomli_w

    return tomli_w.dumps(roster)


def roster_ruleset(path: Path) -> str | None:
    """The ruleset a roster file names (`ruleset = "ID"`), or None when it names none: a
    new save made for the party takes it. A file that cannot be read says so here."""
    from .files import parse_toml, read_text

    named = parse_toml(read_text(path, "a roster"), str(path)).get("ruleset")
    return named if isinstance(named, str) and named else None


def party_file(fight: Fight, answers: Mapping[str, Any] | None = None) -> tuple[str, str]:
    """The party's roster as the text of its file, read back as strictly as set-up's
    import will read it, and a line saying who is in it (and who was left out, and what
    stayed behind), given the answers to the ruleset's questions (None: every default)."""
    from .roster import read_roster

    roster, dead = party_roster(fight, answers)
    text = roster_text(roster)
    read_roster(roster, "the party", text, fight.ruleset)
    names = ", ".join(c["name"] for c in roster["combatants"]) or "nobody"
    said = names + (f" (left out, dead: {', '.join(dead)})" if dead else "")
    left = left_behind(fight, answers)
    return text, said + (f"; not carried over: {'; '.join(left)}" if left else "")


def left_behind(fight: Fight, answers: Mapping[str, Any] | None = None) -> list[str]:
    """What ends with the fight and is not written, each with why (its Carrying role's
    `left`, given the answers): said when the party is written, so the default is never
    silent."""
    carrying = fight.ruleset.role(Carrying)
    if carrying is None:
        return []
    return carrying.left(fight, carry_answers(fight.ruleset, fight, answers))
