"""PH-11, PH-16 to PH-19: effective Combat and Defense and what changes them."""

from __future__ import annotations

from collections.abc import Iterable

from referee.engine.errors import FormatError, IllegalEvent, Path
from referee.engine.model import Combatant

from . import stats

# name -> (Combat, Defense) for the unit itself (PH-11)
EFFECT = {
    "block": (-2, 3), "mighty-blow": (3, -2), "guard": (-2, 0), "interpose": (0, -2),
    "support": (-2, 0), "coordinate": (0, -2), "dodge": (0, 0), "take-cover": (0, 0),
}
PER_ATTACK = {  # modifiers that count attacks: one attack per level
    "guard": "adjacent allies +3 Defense vs opponents adjacent to it",
    "interpose": "adjacent allies +3 Defense vs opponents adjacent to it",
    "support": "adjacent ally on the same enemy +3 Combat",
    "coordinate": "adjacent ally on the same enemy +3 Combat",
    "dodge": "+3 Defense",
    "take-cover": "+4 Defense (needs cover)",
}


def unmodified(c: Combatant, decay: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """Combat and Defense before any combat modifier: base, Elite, decay (PH-17)."""
    com, dfn = stats.combat(c), stats.defense(c)
    if stats.has(c, "Elite"):
        com, dfn = com + 1, dfn + 2
    return com - decay[0], dfn - decay[1]


def modified(c: Combatant, chosen: Iterable[str],
             decay: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """... with the combat modifiers added, before any floor (PH-11)."""
    com, dfn = unmodified(c, decay)
    for name in chosen:
        dc, dd = EFFECT.get(name, (0, 0))
        com, dfn = com + dc, dfn + dd
    return com, dfn


def floor(before: int, after: int) -> int:
    """PH-11: a combat modifier never takes a score below 1 (nor lower than it was, if it
    was below 1 already): a base Combat of 0 stays 0, not 1."""
    return after if after >= before else max(after, min(before, 1))


def effective(c: Combatant, chosen: Iterable[str], decay: tuple[int, int] = (0, 0),
              statuses: Iterable[str] = ()) -> tuple[int, int]:
    """Combat and Defense as they stand: the modifiers' floor of 1 (PH-11); carried -2
    Combat -4 Defense (PH-18); Immobilized no Defense bonuses and -2 (PH-10); never below
    0; Incapacitated and dragged: Defense 0 (PH-10, PH-18)."""
    names = set(statuses)
    base = unmodified(c, decay)
    com, dfn = modified(c, chosen, decay)
    com, dfn = floor(base[0], com), floor(base[1], dfn)
    if stats.carriers(c):
        com, dfn = com - 2, dfn - 4
    if "immobilized" in names:
        dfn = min(dfn, stats.defense(c)) - 2
    com, dfn = max(com, 0), max(dfn, 0)
    if "incapacitated" in names or stats.draggers(c):
        dfn = 0
    return com, dfn


def check(c: Combatant, chosen: tuple[str, ...], path: Path, event: bool = False) -> None:
    """PH-11: Military only, known names, one per level, each once, Combat and Defense
    left at 1 or more."""
    error = IllegalEvent if event else FormatError
    if not chosen:
        return
    if not stats.has(c, "Military"):
        raise error(f"{c.id} is not Military: no combat modifiers (PH-11)", path)
    seen: set[str] = set()
    for index, name in enumerate(chosen):
        if name not in EFFECT:
            raise error(f"unknown combat modifier {name!r} (known: {', '.join(EFFECT)})",
                        path + (index,))
        if name in seen:
            raise error(f"{c.id} takes {name} twice: each modifier at most once per level "
                        "(PH-11)", path + (index,))
        if name == "take-cover" and not c.stats.get("cover"):
            raise error(f"{c.id} has no cover to take (PH-11)", path + (index,))
        seen.add(name)
    if len(chosen) > stats.level(c):
        raise error(f"{c.id} is level {stats.level(c)}: {len(chosen)} modifiers, one per level "
                    "(PH-11)", path)
    (com0, dfn0), (com, dfn) = unmodified(c), modified(c, chosen)
    low_com, low_dfn = com < 1 and com < com0, dfn < 1 and dfn < dfn0
    if low_com or low_dfn:
        which = f"Combat {com}" if low_com else f"Defense {dfn}"
        raise error(f"{', '.join(chosen)} would leave {c.id} at {which}: never below 1 "
                    "(PH-11)", path)


def attacks(c: Combatant, chosen: Iterable[str]) -> list[str]:
    """PH-11: the attacks a modifier covers: one per level."""
    level = stats.level(c)
    if stats.has(c, "Transport") or c.stats.get("transport"):
        chosen = [n for n in chosen if n != "dodge"]  # PH-19: a transport cannot dodge
    return [f"{name} ×{level}: {PER_ATTACK[name]}" for name in chosen if name in PER_ATTACK]


def elevation_bonus(high: Combatant, low: Combatant) -> int:
    """PH-16: +4 Defense per level above the opponent (up to 4 levels)."""
    return 4 * max(0, min(stats.elevation(high), 4) - min(stats.elevation(low), 4))
