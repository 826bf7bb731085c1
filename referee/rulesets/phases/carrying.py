"""PH-18 and PH-19 over the roster: who carries, drags and rides whom, which units that
binds (a carrier, a dragger and a dragged unit take no Action), and the saves the rules
refuse (a non-Heavy carrier, a Heavy rider on a Mount, a mount in a stack without its
rider)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.engine.errors import FormatError
from referee.engine.model import Combatant
from referee.hints import TYPE_CHECKING

from . import stats

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


def involved(c: Combatant) -> bool:
    """Whether it rides, is carried or dragged: most units of a big battle are not, and
    are passed over with this one look."""
    keys = c.stats
    return "carried_by" in keys or "dragged_by" in keys or "mount" in keys


def bound(roster: Mapping[str, Combatant]) -> dict[str, str]:
    """The units that cannot take an Action (PH-18), each with what binds it."""
    out: dict[str, str] = {}
    for cid, c in roster.items():
        if not involved(c):
            continue
        for carrier in stats.carriers(c):
            out.setdefault(carrier, f"carries {c.name}")
        draggers = stats.draggers(c)
        for dragger in draggers:
            out.setdefault(dragger, f"drags {c.name}")
        if draggers:
            out.setdefault(cid, "is dragged")
    return out


def ridden(roster: Mapping[str, Combatant]) -> dict[str, str]:
    """mount -> its rider, for Mounts only: a Transport's riders are not a pair (PH-19)."""
    out: dict[str, str] = {}
    for cid, c in roster.items():
        mount = c.stats.get("mount") if involved(c) else None
        if mount and mount in roster and not roster[mount].stats.get("transport"):
            out.setdefault(mount, cid)
    return out


def check(combatants: Sequence[Combatant], squads: Sequence[Mapping[str, Any]]) -> None:
    if not any(involved(c) for c in combatants):
        return  # nobody rides, carries or drags
    units = {c.id: c for c in combatants}
    check_carried(combatants, units)
    check_mounts(combatants, units)
    check_pairs_in_squads(units, squads)


def _known(units: Mapping[str, Combatant], cid: str, path: tuple[Any, ...]) -> Combatant:
    if cid not in units:
        raise FormatError(f"unknown unit {cid!r}", path)
    return units[cid]


def check_carried(combatants: Sequence[Combatant], units: Mapping[str, Combatant]) -> None:
    """PH-18: only a Heavy unit carries, one unit at a time, a non-Heavy one alone and a
    Heavy one with another Heavy unit; one regular unit drags a non-Heavy one, two drag a
    Heavy one."""
    busy: dict[str, str] = {}  # who bears whom: one unit at a time, carried or dragged
    for index, c in enumerate(combatants):
        carriers, draggers = stats.carriers(c), stats.draggers(c)
        if carriers and draggers:
            raise FormatError(f"{c.id} is carried and dragged at once (PH-18)",
                              ("combatants", index, "dragged_by"))
        for key, bearers, verb in (("carried_by", carriers, "carry"),
                                   ("dragged_by", draggers, "drag")):
            path = ("combatants", index, key)
            for number, cid in enumerate(bearers):
                where = path + (number,) if len(bearers) > 1 else path
                bearer = _known(units, cid, where)
                if cid == c.id:
                    raise FormatError(f"{c.id} cannot {verb} itself (PH-18)", where)
                if key == "carried_by" and not stats.has(bearer, "Heavy"):
                    raise FormatError(f"{cid} is not Heavy: only a Heavy unit carries "
                                      "(PH-18)", where)
                if cid in busy:
                    raise FormatError(f"{cid} already bears {busy[cid]}: one unit at a time "
                                      "(PH-18)", where)
                busy[cid] = c.id
            if len(bearers) > 2:
                raise FormatError(f"{len(bearers)} units for {c.id}: one, or two for a "
                                  "Heavy unit (PH-18)", path)
            if bearers and stats.has(c, "Heavy") and len(bearers) < 2:
                raise FormatError(f"{c.id} is Heavy: it takes two units together to {verb} "
                                  "it (PH-18)", path)


def check_mounts(combatants: Sequence[Combatant], units: Mapping[str, Combatant]) -> None:
    """PH-19: a Mount carries one non-Heavy rider; a Transport (X) carries X units, Heavy
    ones too."""
    riders: dict[str, list[str]] = {}
    for index, c in enumerate(combatants):
        mount = c.stats.get("mount")
        if not mount:
            continue
        path = ("combatants", index, "mount")
        carrier = _known(units, mount, path)
        if mount == c.id:
            raise FormatError(f"{c.id} cannot ride itself (PH-19)", path)
        aboard = riders.setdefault(mount, [])
        aboard.append(c.id)
        room = carrier.stats.get("transport")
        if room:
            if len(aboard) > room:
                raise FormatError(f"{mount} is a Transport ({room}): it carries {room} "
                                  f"units, and {', '.join(aboard)} ride it (PH-19)", path)
            continue
        if stats.has(c, "Heavy"):
            raise FormatError(f"{c.id} is Heavy: a Mount carries one non-Heavy rider; only "
                              "a Transport carries Heavy units (PH-19)", path)
        if len(aboard) > 1:
            raise FormatError(f"{mount} already carries {aboard[0]}: a Mount carries one "
                              "rider (PH-19)", path)


def check_pairs_in_squads(units: Mapping[str, Combatant],
                          squads: Sequence[Mapping[str, Any]]) -> None:
    """PH-19: a mount with a rider is in a squad only if its rider is in it too."""
    pairs = ridden(units)
    for index, squad in enumerate(squads):
        members = squad["members"]
        for number, cid in enumerate(members):
            rider = pairs.get(cid)
            if rider is not None and rider not in members:
                raise FormatError(pair_apart(cid, rider),
                                  ("squads", index, "members", number))


def pair_apart(mount: str, rider: str) -> str:
    return (f"{mount} carries {rider}: a mount with a rider is in a squad only if its rider "
            "is in it too (PH-19)")
