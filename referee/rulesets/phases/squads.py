"""PH-7 to PH-9, PH-20: stacks and hordes, leaders, command units and orders."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.errors import FormatError, Path
from referee.engine.model import Combatant, Encounter
from referee.engine.reading import describe
from referee.engine.record import record
from referee.engine.specs import Field
from referee.engine.stats import Schema
from referee.hints import TYPE_CHECKING

from . import stats

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

LIMITS = {"stack": 8, "horde": 24}
HORDE_TRAITS = ("Uncroaked", "Thriller", "Bone Warlord")
TACTICS = ("hold", "delay", "rally", "bull-rush", "withdraw")
PLACED = ("rally", "bull-rush", "withdraw")  # the tactics that name a square (X, Y)
COORDINATE = (-9999, 9999)  # a square of the map: the range `at` makes sense in

ORDER = (Field("tactic", "tactic", "choice", "hold", options=tuple((t, t) for t in TACTICS)),
         Field("target", "target", "text", "any"),
         Field("at", "at (x, y)", "text", form=False))
SQUAD = (
    Field("id", "id", "id", required=True),
    Field("kind", "kind", "choice", "stack", options=(("stack", "stack"), ("horde", "horde"))),
    Field("leader", "leader", "id", required=True),
    Field("members", "members", "ids", required=True),
    Field("order", "order", "table", items=ORDER),
)
ENCOUNTER = (Field("squads", "squads", "items", items=SQUAD, form=False),)


@record(frozen=True)
class Order:
    tactic: str = "hold"
    target: str = "any"
    at: tuple[int, ...] = ()

    def text(self) -> str:
        where = f" ({', '.join(str(n) for n in self.at)})" if self.at else ""
        return f"{self.tactic}{where} → {self.target}"


@record(frozen=True)
class Squad:
    id: str
    kind: str
    leader: str | None
    members: tuple[str, ...]
    order: Order


def _want(value: Any, kind: type, what: str, path: Path) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise FormatError(f"expected {what}, found {describe(value)}", path)
    return value


def read_order(data: Any, path: Path) -> dict[str, Any]:
    """An order table, strictly (tactic, target, at = [x, y])."""
    _want(data, Mapping, "a table", path)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in ("tactic", "target", "at"):
            raise FormatError("not a phases order key (tactic, target, at)", path + (key,))
        if key == "at":
            _want(value, list, "a list [x, y]", path + (key,))
            for index, item in enumerate(value):
                if type(item) is not int:
                    raise FormatError(f"expected an integer, found {describe(item)}",
                                      path + (key, index))
                low, high = COORDINATE
                if not low <= item <= high:
                    raise FormatError(f"{item} is out of range ({low} to {high})",
                                      path + (key, index))
            if len(value) != 2:
                raise FormatError(f"expected [x, y], found {len(value)} numbers",
                                  path + (key,))
            out[key] = list(value)
        else:
            out[key] = _want(value, str, "a string", path + (key,))
    check_order(out.get("tactic", "hold"), tuple(out.get("at", ())), path)
    return out


def check_order(tactic: str, at: tuple[int, ...], path: Path) -> None:
    if tactic not in TACTICS:
        raise FormatError(f"unknown tactic {tactic!r} (tactics: {', '.join(TACTICS)}; PH-9)",
                          path + ("tactic",))
    if tactic in PLACED and len(at) != 2:
        raise FormatError(f"{tactic} names a square: at = [x, y] (PH-9)", path + ("at",))


def order_of(data: Mapping[str, Any] | None) -> Order:
    data = data or {}
    return Order(str(data.get("tactic", "hold")), str(data.get("target", "any")),
                 tuple(data.get("at", ())))


def read_squads(value: Any, path: Path, key: str) -> tuple[dict[str, Any], ...]:
    """The reader of the save's `[[squads]]` (the engine's kinds have no list of numbers
    for `order.at`, so the list is read here, with the same messages)."""
    where = path + (key,)
    _want(value, list, "a list of tables", where)
    out = []
    for index, item in enumerate(value):
        at = where + (index,)
        _want(item, Mapping, "a table", at)
        squad: dict[str, Any] = {}
        for name, raw in item.items():
            if name == "id" or name == "leader":
                squad[name] = _id(raw, at + (name,))
            elif name == "kind":
                if not isinstance(raw, str) or raw not in LIMITS:  # a table: unhashable
                    raise FormatError(f"expected stack or horde, found {describe(raw)}",
                                      at + (name,))
                squad[name] = raw
            elif name == "members":
                _want(raw, list, "a list of unit ids", at + (name,))
                squad[name] = tuple(_id(m, at + (name, n)) for n, m in enumerate(raw))
            elif name == "order":
                squad[name] = read_order(raw, at + (name,))
            else:
                raise FormatError("not a phases squad key (id, kind, leader, members, order)",
                                  at + (name,))
        for name in ("id", "leader", "members"):
            if name not in squad:
                raise FormatError("missing required field", at + (name,))
        out.append(squad)
    return tuple(out)


def _id(value: Any, path: Path) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FormatError(f"expected an id string, found {describe(value)}", path)
    return value


def command_unit(c: Combatant) -> bool:
    """PH-8: every player-controlled unit; NPCs with Leadership, Paragon or Caster."""
    return stats.player(c) or any(stats.has(c, t) for t in ("Leadership", "Paragon", "Caster"))


def check_squads(encounter: Encounter, limits: Mapping[str, int] | None = None) -> None:
    """PH-7: sizes, the trait a horde needs, one squad per unit, the leader inside."""
    limits = LIMITS if limits is None else limits
    items = encounter.stats.get("squads", ())
    units = {c.id: c for c in encounter.combatants}
    seen: dict[str, int] = {}
    ids: dict[str, int] = {}
    for index, squad in enumerate(items):
        path: Path = ("squads", index)
        sid, kind = squad["id"], squad.get("kind", "stack")
        if sid in ids:
            raise FormatError(f"duplicate squad {sid!r} (squads[{ids[sid]}] has it)",
                              path + ("id",))
        ids[sid] = index
        members = squad["members"]
        if not members:
            raise FormatError("a squad has at least one member (PH-7)", path + ("members",))
        if len(members) > limits[kind]:
            raise FormatError(f"a {kind} holds at most {limits[kind]} units, found "
                              f"{len(members)} (PH-7)", path + ("members",))
        for number, cid in enumerate(members):
            if cid not in units:
                raise FormatError(f"unknown unit {cid!r}", path + ("members", number))
            if cid in seen:
                raise FormatError(f"{cid} is already in squad {items[seen[cid]]['id']!r}: a "
                                  "unit belongs to at most one squad (PH-7)",
                                  path + ("members", number))
            seen[cid] = index
        sides = {units[cid].side for cid in members}
        if len(sides) > 1:
            raise FormatError(f"squad {sid!r} mixes sides ({', '.join(sorted(sides))})",
                              path + ("members",))
        if kind == "horde" and not any(stats.has(units[c], t) for c in members
                                       for t in HORDE_TRAITS):
            raise FormatError(f"horde {sid!r} needs a unit with Uncroaked, Thriller or Bone "
                              "Warlord (PH-7)", path + ("kind",))
        leader = squad["leader"]
        if leader not in members:
            raise FormatError(f"leader {leader!r} is not a member of squad {sid!r} (PH-7)",
                              path + ("leader",))


def order_rank(roster: Mapping[str, Combatant], squad: Squad, by: str | None) -> int:
    """PH-9: the squad's leader, then the Chief Warlord, then highest Leadership."""
    if by is None or by == squad.leader:
        return 0
    c = roster.get(by)
    if c is None:
        return 1000
    if stats.has(c, "Chief Warlord"):
        return 1
    return 100 - min(stats.leadership(c), 98)


def delaying(table: Mapping[str, Squad]) -> frozenset[str]:
    """PH-20: the members of squads whose tactic is Delay."""
    return frozenset(cid for s in table.values() if s.order.tactic == "delay"
                     for cid in s.members)


def squads_of(encounter: Encounter) -> dict[str, Squad]:
    return {s["id"]: Squad(s["id"], s.get("kind", "stack"), s["leader"], tuple(s["members"]),
                           order_of(s.get("order"))) for s in encounter.stats.get("squads", ())}


class EncounterSchema(Schema):
    """The save's top-level keys of phases: `squads`, read by `read_squads` (the engine's
    field kinds have no list of numbers for `order.at`)."""

    def read(self, data: Mapping[str, Any], path: Path,
             skip: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key in skip:
                continue
            if key != "squads":
                raise FormatError(self.unknown(key, skip), path + (key,))
            out[key] = read_squads(value, path, key)
        return out
