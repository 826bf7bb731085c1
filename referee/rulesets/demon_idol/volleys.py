"""A volley split between targets (1e allows it): a D's `shots` name one target per shot,
in order. The form takes them as one line, as a referee says it — `gob1, gob2`, or
`Goblin 1 x2, Goblin 2` for two arrows at the first and one at the second — by id or by
name; the tracker and the log show them grouped the same way."""

from __future__ import annotations

import re
from collections.abc import Callable

from referee.engine.errors import IllegalDeclaration
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.engine.view import Fight

HELP = "a volley split: gob1, gob2 — or gob1 x2, gob2 (blank: every shot at the target)"
# compiled on first use (re's cache), not at start-up: only a volley's form reads it
TIMES = r"^(?P<who>.*?)\s*[x×*]\s*(?P<count>\d+)$"
MOST = 20  # shots a round: no more than a rate may give (stats.WEAPON)


def parse(fight: Fight, text: str) -> tuple[str, ...]:
    """The form's line as one target id per shot, in order."""
    shots: list[str] = []
    for part in filter(None, (p.strip() for p in re.split(r"[,;]", text))):
        found = re.match(TIMES, part, re.IGNORECASE)
        who, count = (found["who"], int(found["count"])) if found else (part, 1)
        if not 1 <= count <= MOST:
            raise IllegalDeclaration(f"{part!r}: 1 to {MOST} shots at one target", ("shots",))
        shots += [combatant_named(fight, who)] * count
    return tuple(shots)


def combatant_named(fight: Fight, who: str) -> str:
    """The combatant `who` names: its id, else its name (any case)."""
    if who in fight.roster:
        return who
    wanted = who.casefold()
    found = [cid for cid, c in fight.roster.items()
             if cid.casefold() == wanted or c.name.casefold() == wanted]
    if len(found) != 1:
        raise IllegalDeclaration(f"shots: no one is called {who!r} (by id or name: "
                                 f"{', '.join(fight.roster)})", ("shots",))
    return found[0]


def grouped(shots: tuple[str, ...]) -> list[tuple[str, int]]:
    """Each target with its shots in a row: (gob1, 2), (gob2, 1)."""
    out: list[tuple[str, int]] = []
    for target in shots:
        if out and out[-1][0] == target:
            out[-1] = (target, out[-1][1] + 1)
        else:
            out.append((target, 1))
    return out


def text_of(shots: tuple[str, ...], name: Callable[[str], str] = str) -> str:
    """The shots as the form's line reads them back: `gob1 x2, gob2` (`name` says each
    target: its id, or its name for the log)."""
    return ", ".join(f"{name(target)} x{count}" if count > 1 else name(target)
                     for target, count in grouped(shots))


def targets(shots: tuple[str, ...]) -> tuple[str, ...]:
    """The combatants a volley aims at, once each, in the order first shot at."""
    return tuple(dict.fromkeys(shots))
