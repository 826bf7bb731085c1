"""Rosters: a roster file to bring into an encounter, and the roster editor set-up uses.

The editor builds combatants from form values through the ruleset's own field specs
(the same specs that read a save strictly), so set-up offers exactly the keys the
ruleset reads, and refuses what a file would refuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.engine import Combatant, Encounter, RefereeError, Side
from referee.engine.errors import FormatError
from referee.engine.model import (
    Schemas,
    check_roster,
    read_combatant,
    read_combatants,
    read_sides,
    spell_to_dict,
    weapon_to_dict,
)
from referee.engine.port import Ruleset
from referee.engine.reading import Fields
from referee.engine.record import replace
from referee.engine.specs import Field, Form

from .files import fault, parse_toml, read_text
from .store import Session


def read_roster(data: dict[str, Any], name: str, text: str,
                ruleset: Ruleset) -> tuple[tuple[Side, ...], tuple[Combatant, ...]]:
    """Sides and combatants, strictly read; a fault names the roster's file and line."""
    try:
        f = Fields(data)
        f.str("format", "referee-roster")
        f.str("title", "")
        sides = read_sides(f.raw("sides"), ("sides",), ruleset.schemas)
        combatants = read_combatants(f.list("combatants", []), ("combatants",), sides,
                                     ruleset.schemas)
        f.done()
    except RefereeError as error:
        raise fault(name, text, error) from None
    return sides, combatants


# -- gear as one line of text ---------------------------------------------------------------


def gear_fields(ruleset: Ruleset, kind: str) -> tuple[Field, ...]:
    core = (Field("damage", "damage", "dice"),) if kind == "weapons" else ()
    extra = ruleset.weapon_fields() if kind == "weapons" else ruleset.spell_fields()
    return core + tuple(f for f in extra if f.form)


def gear_hint(ruleset: Ruleset, kind: str) -> str:
    keys = " ".join(f"{f.name}=…" if f.kind != "bool" else f.name
                    for f in gear_fields(ruleset, kind))
    return f"{kind}: name, {', '.join(keys.split())}; next …" if keys else f"{kind}: name; …"


def gear_text(items: tuple[Any, ...], ruleset: Ruleset, kind: str) -> str:
    """`long sword, speed_factor=5, length=3.5; short bow, missile, rate=2`."""
    specs = {f.name: f for f in gear_fields(ruleset, kind)}
    parts = []
    for item in items:
        data = weapon_to_dict(item) if kind == "weapons" else spell_to_dict(item)
        bits = [str(data.pop("name"))]
        for key, value in data.items():
            if key in specs and specs[key].kind == "bool":
                if value:
                    bits.append(key)
            else:
                bits.append(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}")
        parts.append(", ".join(bits))
    return "; ".join(parts)


def parse_gear(text: str, ruleset: Ruleset, kind: str) -> list[dict[str, Any]]:
    """The gear line back into tables, each value typed by its field; a fault says what."""
    specs = {f.name: f for f in gear_fields(ruleset, kind)}
    out = []
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        name, *rest = [bit.strip() for bit in part.split(",")]
        item: dict[str, Any] = {"name": name}
        for bit in filter(None, rest):
            key, has, raw = (b.strip() for b in bit.partition("="))
            spec = specs.get(key)
            if spec is None:
                known = ", ".join(specs) or "none"
                raise FormatError(f"{name}: {key!r} is not a {ruleset.id} {kind[:-1]} key "
                                  f"(keys: {known})", (kind,))
            item[key] = typed(spec, raw if has else "yes", name)
        out.append(item)
    return out


def typed(spec: Field, raw: str, owner: str) -> Any:
    try:
        if spec.kind == "int":
            return int(raw)
        if spec.kind == "number":
            return float(raw)
    except ValueError:
        raise FormatError(f"{owner}: {spec.name} takes a number, not {raw!r}",
                          (spec.name,)) from None
    if spec.kind == "bool":
        return raw.lower() in ("yes", "true", "1", "y")
    return raw
    if spec.kind == "rate" and raw.isdigit():
        return int(raw)  # shots a round; "1/2" stays text, read strictly with the roster


# -- the editor -------------------------------------------------------------------------------


class RosterEditor:
    """Set-up's operations: each writes the whole roster atomically through the session,
    refused (with the reason) when the log so far would not fit it."""

    def __init__(self, session: Session) -> None:
        self.session = session

    @property
    def ruleset(self) -> Ruleset:
        return self.session.fight.ruleset

    @property
    def encounter(self) -> Encounter:
        return self.session.encounter

    def write(self, encounter: Encounter) -> None:
        self.session.replace_encounter(encounter)

    # combatants

    def combatant_form(self, old: Combatant | None) -> Form:
        sides = tuple((s.name, s.id) for s in self.encounter.sides)
        stats = old.stats if old else {}
        fields = [
            Field("id", "id", default=old.id if old else "", required=True),
            Field("name", "name", default=old.name if old else ""),
            Field("side", "side", "choice", old.side if old else sides[0][1], options=sides),
            Field("hp", "hit points", "int", old.hp if old else 6, required=True),
        ]
        for spec in self.ruleset.combatant_fields():
            if spec.form:
                fields.append(replace(spec, default=stats.get(spec.name, spec.default)))
        for kind in ("weapons", "spells"):
            items = getattr(old, kind) if old else ()
            fields.append(Field(kind, kind, default=gear_text(items, self.ruleset, kind),
                                help=gear_hint(self.ruleset, kind)))
        title = f"Edit {old.name}" if old else "Add a combatant"
        return Form(title, tuple(fields))

    def built(self, values: Mapping[str, Any], old: Combatant | None) -> Combatant:
        """A combatant from the form, read as strictly as a file would be."""
        if not values.get("id") or values.get("hp") is None:
            raise FormatError("a combatant needs an id and hit points")
        data: dict[str, Any] = dict(old.to_dict()) if old else {}
        data.update(id=values["id"], name=values.get("name") or values["id"],
                    side=values["side"], hp=values["hp"])
        data.pop("max_hp", None)
        for spec in self.ruleset.combatant_fields():
            if spec.form:
                value = values.get(spec.name)
                if value is None or value == spec.default or value == "":
                    data.pop(spec.name, None)
                else:
                    data[spec.name] = value
        for kind in ("weapons", "spells"):
            data[kind] = parse_gear(values.get(kind) or "", self.ruleset, kind)
            if not data[kind]:
                del data[kind]
        return read_combatant(data, ("combatants", 0), Schemas(self.ruleset))

    def add(self, values: Mapping[str, Any]) -> Combatant:
        combatant = self.built(values, None)
        if self.encounter.combatant(combatant.id) is not None:
            raise FormatError(f"{combatant.id} is taken", ("id",))
        self.write(replace(self.encounter, combatants=self.encounter.combatants + (combatant,)))
        return combatant

    def edit(self, old_id: str, values: Mapping[str, Any]) -> Combatant:
        old = self.encounter.combatant(old_id)
        combatant = self.built(values, old)
        roster = tuple(combatant if c.id == old_id else c for c in self.encounter.combatants)
        self.write(replace(self.encounter, combatants=roster))
        return combatant

    def remove(self, cid: str) -> None:
        roster = tuple(c for c in self.encounter.combatants if c.id != cid)
        self.write(replace(self.encounter, combatants=roster))

    # sides and the title

    def add_side(self, side_id: str, name: str = "") -> None:
        if self.encounter.side(side_id) or self.encounter.combatant(side_id):
            raise FormatError(f"{side_id} is taken", ("id",))
        side = Side(side_id, name or side_id)
        self.write(replace(self.encounter, sides=self.encounter.sides + (side,)))

    def rename_side(self, side_id: str, name: str) -> None:
        sides = tuple(replace(s, name=name) if s.id == side_id else s
                      for s in self.encounter.sides)
        self.write(replace(self.encounter, sides=sides))

    def remove_side(self, side_id: str) -> None:
        if any(c.side == side_id for c in self.encounter.combatants):
            raise FormatError(f"{side_id} still has combatants: remove them first")
        if len(self.encounter.sides) == 1:
            raise FormatError("an encounter needs a side")
        self.write(replace(self.encounter,
                           sides=tuple(s for s in self.encounter.sides if s.id != side_id)))

    def set_title(self, title: str) -> None:
        self.write(replace(self.encounter, title=title))

    def import_roster(self, path: Path) -> int:
        """Sides and combatants from a roster file; returns how many combatants came."""
        text = read_text(path)
        sides, combatants = read_roster(parse_toml(text, str(path)), str(path), text,
                                        self.ruleset)
        known = {s.id for s in self.encounter.sides}
        new_sides = tuple(s for s in sides if s.id not in known)
        encounter = replace(self.encounter, sides=self.encounter.sides + new_sides,
                            combatants=self.encounter.combatants + combatants)
        check_roster(encounter.sides, encounter.combatants)
        self.write(encounter)
        return len(combatants)
