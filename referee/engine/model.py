"""The encounter as it starts: sides, combatants, their weapons, spells and devices."""

from __future__ import annotations

from typing import Any

from .errors import DuplicateId, FormatError, Path, UnknownSide
from .reading import Fields
from .record import field, record


@record(frozen=True)
class Weapon:
    name: str
    speed_factor: int | None = None  # demon-idol; None for claws, bites, breath
    length: float | None = None
    missile: bool = False
    rate: int = 1
    speed: int = 0  # count-up action modifier
    damage: str | None = None
    critical: int = 2  # count-up critical multiplier
    damage_type: str = ""
    notes: str = ""

    @property
    def natural(self) -> bool:
        return self.speed_factor is None

    @classmethod
    def read(cls, data: Any, path: Path) -> Weapon:
        f = Fields(data, path)
        weapon = cls(
            name=f.str("name"),
            speed_factor=f.int("speed_factor", None, minimum=0),
            length=f.number("length", None),
            missile=f.bool("missile", False),
            rate=f.int("rate", 1, minimum=1),
            speed=f.int("speed", 0),
            damage=f.str("damage", None),
            critical=f.int("critical", 2, minimum=1),
            damage_type=f.str("damage_type", ""),
            notes=f.str("notes", ""),
        )
        f.raw("natural", None)  # documentation only: no speed_factor already says it
        f.done()
        return weapon


@record(frozen=True)
class Spell:
    name: str
    casting_time: int | None = None  # segments (demon-idol)
    speed: int | None = None  # count-up spell speed
    casting_tn: int | None = None
    level: int | None = None
    notes: str = ""

    @property
    def count_up_speed(self) -> int:
        if self.speed is not None:
            return self.speed
        if self.casting_tn is not None:
            return self.casting_tn - 10
        return 0

    @classmethod
    def read(cls, data: Any, path: Path) -> Spell:
        f = Fields(data, path)
        spell = cls(
            name=f.str("name"),
            casting_time=f.int("casting_time", None, minimum=0),
            speed=f.int("speed", None),
            casting_tn=f.int("casting_tn", None),
            level=f.int("level", None),
            notes=f.str("notes", ""),
        )
        f.done()
        return spell


@record(frozen=True)
class Device:
    name: str
    usage_time: int = 1

    @classmethod
    def read(cls, data: Any, path: Path) -> Device:
        f = Fields(data, path)
        device = cls(name=f.str("name"), usage_time=f.int("usage_time", 1, minimum=0))
        f.done()
        return device


@record(frozen=True)
class Side:
    id: str
    name: str
    color: str = ""
    players: bool = False  # the players' own side: no monster morale checks

    @classmethod
    def read(cls, data: Any, path: Path) -> Side:
        f = Fields(data, path)
        side = cls(id=f.str("id"), name=f.str("name", ""), color=f.str("color", ""),
                   players=f.bool("players", False))
        f.done()
        return side if side.name else _replace(side, name=side.id)


@record(frozen=True)
class Combatant:
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    reaction: int = 0
    agility: int = 0
    attacks: int = 1
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    devices: tuple[Device, ...] = ()
    group: str = ""  # identical monsters that share an initiative roll
    stress: int = 0  # count-up
    wounds: int | None = None  # count-up Wound Points; defaults to hp
    strength: int = 10  # count-up: dead at minus this
    insight: int = 0
    hd: int = 0
    # Kept for the referee's eye, not used by the rules yet.
    ac: int | None = None
    level: int | None = None
    move: int | None = None
    notes: str = ""

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    def spell(self, name: str) -> Spell | None:
        return next((s for s in self.spells if s.name == name), None)

    def device(self, name: str) -> Device | None:
        return next((d for d in self.devices if d.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return combatant_to_dict(self)

    @property
    def wound_points(self) -> int:
        return self.hp if self.wounds is None else self.wounds

    @classmethod
    def read(cls, data: Any, path: Path) -> Combatant:
        f = Fields(data, path)
        hp = f.int("hp")
        combatant = cls(
            id=f.str("id"),
            name=f.str("name", ""),
            side=f.str("side"),
            hp=hp,
            max_hp=f.int("max_hp", hp),
            reaction=f.int("reaction", 0),
            agility=f.int("agility", 0),
            attacks=f.int("attacks", 1, minimum=1),
            weapons=_read_items(f, "weapons", Weapon.read),
            spells=_read_items(f, "spells", Spell.read),
            devices=_read_items(f, "devices", Device.read),
            group=f.str("group", ""),
            stress=f.int("stress", 0, minimum=0),
            wounds=f.int("wounds", None),
            strength=f.int("strength", 10, minimum=1),
            insight=f.int("insight", 0),
            hd=f.int("hd", 0, minimum=0),
            ac=f.int("ac", None),
            level=f.int("level", None),
            move=f.int("move", None, minimum=0),
            notes=f.str("notes", ""),
        )
        f.done()
        _unique_names(combatant.weapons, f.sub("weapons"), "weapon")
        _unique_names(combatant.spells, f.sub("spells"), "spell")
        _unique_names(combatant.devices, f.sub("devices"), "device")
        if not combatant.name:
            combatant = _replace(combatant, name=combatant.id)
        return combatant


def _replace(obj: Any, **changes: Any) -> Any:
    from .record import replace

    return replace(obj, **changes)


def _read_items(f: Fields, key: str, reader: Any) -> tuple[Any, ...]:
    items = f.list(key, [])
    return tuple(reader(item, f.sub(key) + (index,)) for index, item in enumerate(items))


def _unique_names(items: tuple[Any, ...], path: Path, what: str) -> None:
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item.name in seen:
            raise DuplicateId(f"duplicate {what} name {item.name!r}", path + (index, "name"))
        seen.add(item.name)


@record(frozen=True)
class Encounter:
    """The fight as it started: the header and roster of a save."""

    ruleset: str
    title: str
    seed: int
    sides: tuple[Side, ...]
    combatants: tuple[Combatant, ...]
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def side(self, side_id: str) -> Side | None:
        return next((s for s in self.sides if s.id == side_id), None)

    def combatant(self, combatant_id: str) -> Combatant | None:
        return next((c for c in self.combatants if c.id == combatant_id), None)


def read_sides(items: Any, path: Path) -> tuple[Side, ...]:
    if not isinstance(items, list) or not items:
        raise FormatError("expected a list of at least one side", path)
    sides = tuple(Side.read(item, path + (i,)) for i, item in enumerate(items))
    _unique_ids(sides, path)
    return sides


def read_combatants(items: Any, path: Path, sides: tuple[Side, ...]) -> tuple[Combatant, ...]:
    if not isinstance(items, list):
        raise FormatError("expected a list of combatants", path)
    combatants = tuple(Combatant.read(item, path + (i,)) for i, item in enumerate(items))
    _unique_ids(combatants, path)
    side_ids = {s.id for s in sides}
    for index, combatant in enumerate(combatants):
        check_side(combatant.side, side_ids, path + (index, "side"))
    return combatants


def check_roster(sides: tuple[Side, ...], combatants: tuple[Combatant, ...]) -> None:
    """Ids unique across sides and combatants, and every combatant on a known side: what
    a roster read from a file is held to, and one edited in set-up too."""
    _unique_ids(sides, ("sides",))
    _unique_ids(combatants, ("combatants",))
    side_ids = {s.id for s in sides}
    for index, combatant in enumerate(combatants):
        if combatant.id in side_ids:
            raise DuplicateId(f"id {combatant.id!r} is both a side and a combatant",
                              ("combatants", index, "id"))
        check_side(combatant.side, side_ids, ("combatants", index, "side"))


def check_side(side_id: str, side_ids: set[str], path: Path) -> None:
    if side_id not in side_ids:
        known = ", ".join(sorted(side_ids))
        raise UnknownSide(f"unknown side {side_id!r} (sides: {known})", path)


def _unique_ids(items: tuple[Any, ...], path: Path) -> None:
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item.id in seen:
            raise DuplicateId(f"duplicate id {item.id!r}", path + (index, "id"))
        seen.add(item.id)


def _item_dict(item: Any) -> dict[str, Any]:
    defaults = type(item)(name=item.name)
    return {
        k: v
        for k, v in vars(item).items()
        if k == "name" or (v is not None and v != getattr(defaults, k))
    }


def combatant_to_dict(c: Combatant) -> dict[str, Any]:
    out: dict[str, Any] = {"id": c.id, "name": c.name, "side": c.side, "hp": c.hp}
    base = Combatant(id=c.id, name=c.name, side=c.side, hp=c.hp, max_hp=c.hp)
    for key in ("max_hp", "reaction", "agility", "attacks", "group", "stress", "wounds",
                "strength", "insight", "hd", "ac", "level", "move", "notes"):
        value = getattr(c, key)
        if value is not None and value != getattr(base, key):
            out[key] = value
    for key in ("weapons", "spells", "devices"):
        items = getattr(c, key)
        if items:
            out[key] = [_item_dict(item) for item in items]
    return out
