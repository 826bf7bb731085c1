"""Rosters: a roster file to bring into an encounter, and the roster editor set-up uses.

The editor builds combatants from form values through the ruleset's own field specs
(the same specs that read a save strictly), so set-up offers exactly the keys the
ruleset reads, and refuses what a file would refuse.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.engine import Combatant, Encounter, RefereeError, Side
from referee.engine.errors import FormatError
from referee.engine.model import (
    check_roster,
    read_combatant,
    read_combatants,
    read_side,
    read_sides,
    spell_to_dict,
    weapon_to_dict,
)
from referee.engine.options import Entries
from referee.engine.port import Ruleset
from referee.engine.reading import Fields
from referee.engine.record import replace
from referee.engine.specs import Field, Form
from referee.engine.stats import Schema

from .files import fault, parse_toml, read_text
from .store import Session

MOST_ADDED = 200  # monsters added from the bestiary at once
MOST_IN_ROSTER = 2000  # combatants a roster (a party) brings into an encounter at once


def counted(text: str) -> tuple[int, str]:
    """"6 goblins" -> (6, "goblins"); "goblin" -> (1, "goblin")."""
    found = re.fullmatch(r"\s*(\d+)\s*[x×]?\s+(.+?)\s*", text)
    if found:
        return int(found.group(1)), found.group(2).lower()
    return 1, text.strip().lower()


def singulars(name: str) -> list[str]:
    """A plural's likely singulars: goblins, wolves, giant rats, lizard men."""
    out = [name]
    if name.endswith("ves"):
        out.append(name[:-3] + "f")
    if name.endswith("men"):
        out.append(name[:-3] + "man")
    if name.endswith("es"):
        out.append(name[:-2])
    if name.endswith("s"):
        out.append(name[:-1])
    return out


def slug(name: str) -> str:
    """An id's stem from a name: "Giant rat" -> "giant-rat"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "monster"


def read_roster(data: dict[str, Any], name: str, text: str,
                ruleset: Ruleset[Any]) -> tuple[tuple[Side, ...], tuple[Combatant, ...]]:
    """Sides and combatants, strictly read; a fault names the roster's file and line."""
    try:
        f = Fields(data)
        f.str("format", "referee-roster")
        f.str("title", "")
        f.str("ruleset", "")  # the ruleset it was written for (`referee check` reads it)
        sides = read_sides(f.raw("sides"), ("sides",), ruleset.schema.schemas)
        listed = f.list("combatants", [])
        if len(listed) > MOST_IN_ROSTER:  # before any is read
            raise FormatError(f"{len(listed)} combatants: a roster holds at most "
                              f"{MOST_IN_ROSTER}", ("combatants",))
        combatants = read_combatants(listed, ("combatants",), sides, ruleset.schema.schemas)
        f.done()
    except RefereeError as error:
        raise fault(name, text, error) from None
    return sides, combatants


# -- gear as one line of text ---------------------------------------------------------------


def gear_fields(ruleset: Ruleset[Any], kind: str) -> tuple[Field, ...]:
    """Every key a gear line may hold (the form's, and those only a file or a catalogue
    fills, such as demon-idol's damage against large)."""
    core = (Field("damage", "damage", "dice"),) if kind == "weapons" else ()
    extra = ruleset.schema.weapon_fields() if kind == "weapons" else ruleset.schema.spell_fields()
    return core + tuple(extra)


def gear_hint(ruleset: Ruleset[Any], kind: str) -> str:
    keys = " ".join(f"{f.name}=…" if f.kind != "bool" else f.name
                    for f in gear_fields(ruleset, kind) if f.form)
    return f"{kind}: name, {', '.join(keys.split())}; next …" if keys else f"{kind}: name; …"


def gear_text(items: tuple[Any, ...], ruleset: Ruleset[Any], kind: str) -> str:
    """`long sword, speed_factor=5, length=3.5; short bow, missile, rate=2`."""
    specs = {f.name: f for f in gear_fields(ruleset, kind)}
    parts = []
    for item in items:
        data = weapon_to_dict(item) if kind == "weapons" else spell_to_dict(item)
        parts.append(", ".join([str(data.pop("name"))] + pairs_bits(data, specs)))
    return "; ".join(parts)


def completed(value: str, entries: tuple[str, ...]) -> str | None:
    """`value` with its last part (after the last ";" of a gear line) completed by the
    first entry it starts, in any case (None: none); a count before it ("6 gob") is
    kept. Set-up's fields offer it as one types."""
    typed = value.rpartition(";")[2].lstrip()
    typed = typed[len(typed) - len(typed.lstrip("0123456789")):].lstrip()
    if not typed or "," in typed:
        return None
    wanted = typed.casefold()
    for entry in entries:
        if entry.casefold().startswith(wanted) and len(entry) > len(typed):
            return value + entry[len(typed):]
    return None


def gear_suggestions(ruleset: Ruleset[Any], kind: str,
                     own: Sequence[Path] = ()) -> tuple[str, ...]:
    """The ruleset's catalogue of that gear as set-up lines, offered as one types a name
    (none bundled: none)."""
    from .catalogues import entries_for

    specs = {f.name: f for f in gear_fields(ruleset, kind)}
    return tuple(", ".join([name] + pairs_bits(
        {k: v for k, v in entry.items() if k not in ("name", "notes")}, specs))
        for name, entry in entries_for(ruleset, kind, own).items())


def pairs_bits(data: dict[str, Any], specs: dict[str, Field]) -> list[str]:
    """`key=value` for each key of a table, a yes/no key alone when it is yes."""
    bits = []
    for key, value in data.items():
        if key in specs and specs[key].kind == "bool":
            if value:
                bits.append(key)
        else:
            bits.append(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}")
    return bits


def parse_gear(text: str, ruleset: Ruleset[Any], kind: str,
               own: Sequence[Path] = ()) -> list[dict[str, Any]]:
    """The gear line back into tables, each value typed by its field; a fault says what."""
    specs = {f.name: f for f in gear_fields(ruleset, kind)}
    out = []
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        name, *rest = [bit.strip() for bit in part.split(",")]
        item: dict[str, Any] = {"name": name}
        if not any(rest):  # a name alone: the catalogue's entry of that name, if any
            item.update(catalogued(ruleset, kind, name, own))
        item.update(parse_pairs(rest, specs, name, f"{ruleset.id} {kind[:-1]}", kind))
        out.append(item)
    return out


def catalogued(ruleset: Ruleset[Any], kind: str, name: str,
               own: Sequence[Path] = ()) -> dict[str, Any]:
    """The numbers of the catalogue's entry named `name` (any case), or none."""
    from .catalogues import entries_for

    entry = entries_for(ruleset, kind, own).get(name.strip().lower(), {})
    return {k: v for k, v in entry.items() if k not in ("name", "notes")}


def parse_pairs(bits: list[str], specs: dict[str, Field], owner: str, what: str,
                where: str) -> dict[str, Any]:
    """`key=value` bits (a key alone: yes) as a table, each value typed by its field."""
    out: dict[str, Any] = {}
    for bit in filter(None, (b.strip() for b in bits)):
        key, has, raw = (b.strip() for b in bit.partition("="))
        spec = specs.get(key)
        if spec is None:
            known = ", ".join(specs) or "none"
            raise FormatError(f"{owner}: {key!r} is not a {what} key (keys: {known})",
                              (where,))
        out[key] = typed(spec, raw if has else "yes", owner)
    return out


def table_text(value: Any, spec: Field) -> str:
    """A table key (sanctum's `hand = { attacks = 1, damage = 3 }`) as one line."""
    return ", ".join(pairs_bits(dict(value), {f.name: f for f in spec.items})) if value else ""


def parse_table(text: str, spec: Field) -> dict[str, Any] | None:
    """The line back into the table (blank: none), typed by the table's keys."""
    found = parse_pairs(str(text or "").split(","), {f.name: f for f in spec.items},
                        spec.title, spec.name, spec.name)
    return found or None


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
    if spec.kind == "rate" and raw.isdigit():
        return int(raw)  # shots a round; "1/2" stays text, read strictly with the roster
    return raw


def form_value(spec: Field, value: Any) -> Any:
    """What a form's field holds, as a file holds it: a list typed on one line as its
    items, a table typed as `key=value` pairs as the table."""
    if spec.kind in ("texts", "ids") and isinstance(value, str):
        return words(value) or None
    if spec.kind == "table" and isinstance(value, str):
        return parse_table(value, spec)
    return value


def put(data: dict[str, Any], key: str, value: Any, default: Any = None) -> None:
    """`key` set to `value` in a table about to be read as a file's; left out when
    blank (or, given one, the default)."""
    if value is None or value == "" or (default is not None and value == default):
        data.pop(key, None)
    else:
        data[key] = value


def words(text: str) -> list[str]:
    """`a, b` (a list typed on one line) as its items."""
    return [part.strip() for part in str(text).split(",") if part.strip()]


def listed(value: Any) -> Any:
    """A list as the one line a form shows it on."""
    return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value


# -- the editor -------------------------------------------------------------------------------


class RosterEditor:
    """Set-up's operations: each writes the whole roster atomically through the session,
    refused (with the reason) when the log so far would not fit it."""

    def __init__(self, session: Session, catalogues: Sequence[Path] = ()) -> None:
        self.session = session
        self.catalogues = tuple(catalogues)  # a referee's own, over the bundled ones

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self.session.fight.ruleset

    @property
    def encounter(self) -> Encounter:
        return self.session.encounter

    def write(self, encounter: Encounter) -> None:
        # the ruleset's rules over the whole roster first: a save it would not load again
        # (a minion in a group of another side) is never written
        self.ruleset.schema.check_encounter(encounter)
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
        for spec in self.ruleset.schema.combatant_fields():
            if spec.form and spec.kind == "table":  # one line: attacks=1, damage=3
                keys = ", ".join(f"{f.name}=…" if f.kind != "bool" else f.name
                                 for f in spec.items)
                fields.append(replace(spec, kind="text", help=spec.help or keys,
                                      default=table_text(stats.get(spec.name), spec)))
            elif spec.form:
                value = stats.get(spec.name, spec.default)
                fields.append(self.choices(replace(spec, default=listed(value))))
        for kind in self.ruleset.schema.GEAR:
            items = getattr(old, kind) if old else ()
            fields.append(Field(kind, kind, default=gear_text(items, self.ruleset, kind),
                                help=gear_hint(self.ruleset, kind),
                                suggest=gear_suggestions(self.ruleset, kind,
                                                         self.catalogues)))
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
        for spec in self.ruleset.schema.combatant_fields():
            if spec.form:
                put(data, spec.name, form_value(spec, values.get(spec.name)), spec.default)
        for kind in self.ruleset.schema.GEAR:
            data[kind] = parse_gear(values.get(kind) or "", self.ruleset, kind,
                                    self.catalogues)
            if not data[kind]:
                del data[kind]
        return read_combatant(data, ("combatants", 0), self.ruleset.schema.schemas)

    def add(self, values: Mapping[str, Any]) -> Combatant:
        combatant = self.built(values, None)
        if self.encounter.combatant(combatant.id) is not None:
            raise FormatError(f"{combatant.id} is taken", ("id",))
        encounter = replace(self.encounter, combatants=self.encounter.combatants + (combatant,))
        self.write(self.with_items_for(encounter, combatant))
        return combatant

    def edit(self, old_id: str, values: Mapping[str, Any]) -> Combatant:
        old = self.encounter.combatant(old_id)
        combatant = self.built(values, old)
        roster = tuple(combatant if c.id == old_id else c for c in self.encounter.combatants)
        self.write(self.with_items_for(replace(self.encounter, combatants=roster), combatant))
        return combatant

    def remove(self, cid: str) -> None:
        roster = tuple(c for c in self.encounter.combatants if c.id != cid)
        self.write(replace(self.encounter, combatants=roster))

    def choices(self, spec: Field) -> Field:
        """A field naming a side or an entry of the encounter's own lists (a minion's
        group) offered as a choice among those there are (typed while there are none)."""
        if spec.refers == "sides":
            options = tuple((s.name, s.id) for s in self.encounter.sides)
        elif spec.refers:
            options = tuple((str(i["id"]), str(i["id"])) for i in self.items(spec.refers))
        else:
            return spec
        return replace(spec, kind="choice", options=options) if options else spec

    # the encounter's own lists (sanctum's groups), edited like the roster

    def item_specs(self) -> list[Field]:
        return [f for f in self.ruleset.schema.encounter_fields() if f.kind == "items" and f.form]

    def item_spec(self, key: str) -> Field:
        return next(f for f in self.item_specs() if f.name == key)

    def items(self, key: str) -> list[dict[str, Any]]:
        return [dict(item) for item in self.encounter.stats.get(key, ())]

    def links(self, key: str) -> list[Field]:
        """The combatant keys that name an entry of `key` (a minion's `group`)."""
        return [f for f in self.ruleset.schema.combatant_fields() if f.refers == key]

    def members(self, key: str, item_id: str) -> list[str]:
        links = self.links(key)
        return [c.id for c in self.encounter.combatants
                if any(c.stats.get(f.name) == item_id for f in links)]

    def item_form(self, key: str, old_id: str | None) -> Form:
        spec = self.item_spec(key)
        old = next((i for i in self.items(key) if i.get("id") == old_id), {})
        fields = [self.choices(replace(f, default=old.get(f.name, f.default)))
                  for f in spec.items if f.form]
        if not old and self.links(key):
            fields.append(Field("members", "members", "ids",
                                help="ids of combatants to move into it: a, b"))
        one = spec.title.removesuffix("s")
        return Form(f"Edit the {one} {old_id}" if old else f"Add a {one}", tuple(fields))

    def save_item(self, key: str, old_id: str | None, values: Mapping[str, Any]) -> None:
        """Add (`old_id` None) or change an entry; its members follow a new id."""
        spec = self.item_spec(key)
        items = self.items(key)
        index = next((n for n, i in enumerate(items) if i.get("id") == old_id), len(items))
        item = dict(items[index]) if index < len(items) else {}
        for f in spec.items:
            if f.form:
                put(item, f.name, form_value(f, values.get(f.name)))
        item = Schema(spec.items, self.ruleset.id).read(item, (key, index))  # as a file
        new_id = str(item.get("id", ""))
        items[index:index + 1] = [item]
        moved = set(words(values.get("members") or ""))
        unknown = sorted(moved - {c.id for c in self.encounter.combatants})
        if unknown:
            raise FormatError(f"no combatant {', '.join(unknown)}", (key, index, "members"))
        roster = tuple(self.linked(c, key, new_id, old_id, moved)
                       for c in self.encounter.combatants)
        self.write(replace(self.encounter, combatants=roster,
                           stats={**self.encounter.stats, key: tuple(items)}))

    def linked(self, c: Combatant, key: str, new_id: str, old_id: str | None,
               moved: set[str]) -> Combatant:
        """`c` with its link to the entry renamed, or made, where it is one of its members."""
        stats = dict(c.stats)
        for f in self.links(key):
            if c.id in moved or (old_id is not None and stats.get(f.name) == old_id):
                stats[f.name] = new_id
        return replace(c, stats=stats) if stats != c.stats else c

    def remove_item(self, key: str, item_id: str) -> list[str]:
        """An entry and its members taken out (refused while the log names one of them);
        returns the members' ids."""
        gone = self.members(key, item_id)
        items = tuple(i for i in self.items(key) if i.get("id") != item_id)
        roster = tuple(c for c in self.encounter.combatants if c.id not in gone)
        self.write(replace(self.encounter, combatants=roster,
                           stats={**self.encounter.stats, key: items}))
        return gone

    def with_items_for(self, encounter: Encounter, combatant: Combatant) -> Encounter:
        """The encounter with the entries `combatant` names and the roster lacks made for
        it, as the ruleset makes them (a minion's new group); else left to its checks."""
        entries = self.ruleset.role(Entries)
        if entries is None:
            return encounter
        for spec in self.item_specs():
            known = {str(i.get("id")) for i in encounter.stats.get(spec.name, ())}
            for link in self.links(spec.name):
                wanted = combatant.stats.get(link.name)
                if not isinstance(wanted, str) or wanted in known:
                    continue
                made = entries.new_item(encounter, spec.name, wanted, combatant)
                if made is not None:
                    items = tuple(encounter.stats.get(spec.name, ())) + (made,)
                    encounter = replace(encounter, stats={**encounter.stats, spec.name: items})
                    known.add(wanted)
        return encounter

    # sides and the title

    def add_side(self, side_id: str, name: str = "",
                 values: Mapping[str, Any] | None = None) -> None:
        if self.encounter.side(side_id) or self.encounter.combatant(side_id):
            raise FormatError(f"{side_id} is taken", ("id",))
        side = self.built_side(Side(side_id, name or side_id), values or {})
        self.write(replace(self.encounter, sides=self.encounter.sides + (side,)))

    def rename_side(self, side_id: str, name: str) -> None:
        self.edit_side(side_id, {"name": name})

    def edit_side(self, side_id: str, values: Mapping[str, Any]) -> None:
        """A side's name, whether players run it, and its ruleset's keys (SA-1's standing,
        PH-4's defenders ...), read as strictly as a file would be."""
        sides = tuple(self.built_side(s, values) if s.id == side_id else s
                      for s in self.encounter.sides)
        self.write(replace(self.encounter, sides=sides))

    def side_form(self, old: Side | None) -> Form:
        fields = [] if old else [Field("id", "id", required=True)]
        fields += [Field("name", "name", default=old.name if old else ""),
                   Field("players", "run by players", "bool", old.players if old else False)]
        for spec in self.ruleset.schema.side_fields():
            if spec.form:
                value = old.stats.get(spec.name, spec.default) if old else spec.default
                fields.append(self.choices(replace(spec, default=listed(value))))
        return Form(f"Edit the side {old.id}" if old else "Add a side", tuple(fields))

    def built_side(self, side: Side, values: Mapping[str, Any]) -> Side:
        data: dict[str, Any] = {"id": side.id, "name": values.get("name") or side.name,
                                "players": side.players, **side.stats}
        if side.color:
            data["color"] = side.color
        if values.get("players") is not None:
            data["players"] = bool(values["players"])
        for spec in self.ruleset.schema.side_fields():
            if spec.form and spec.name in values:
                put(data, spec.name, form_value(spec, values[spec.name]))
        return read_side(data, ("sides", 0), self.ruleset.schema.schemas.side)

    def remove_side(self, side_id: str) -> None:
        if any(c.side == side_id for c in self.encounter.combatants):
            raise FormatError(f"{side_id} still has combatants: remove them first")
        if len(self.encounter.sides) == 1:
            raise FormatError("an encounter needs a side")
        self.write(replace(self.encounter,
                           sides=tuple(s for s in self.encounter.sides if s.id != side_id)))

    def set_title(self, title: str) -> None:
        self.write(replace(self.encounter, title=title))

    def add_monsters(self, entry: Mapping[str, Any], count: int, side: str,
                     rng: random.Random, real: Sequence[int] = ()) -> list[Combatant]:
        """`count` of a bestiary entry on `side` (made when new): goblin 1 … goblin N,
        numbered on from any already there, hit points rolled from its dice (or `real`,
        typed from the table's dice, in order), the roll kept in each one's notes, and
        one group for them where the ruleset groups combatants (a shared roll)."""
        if not 1 <= count <= MOST_ADDED:
            raise FormatError(f"a count from 1 to {MOST_ADDED}", ("count",))
        if real and len(real) != count:
            raise FormatError(f"{len(real)} hit points typed for {count}", ("hp",))
        if self.encounter.side(side) is None:
            self.add_side(side, side.replace("-", " ").capitalize())
        base = slug(str(entry["name"]))
        first = self.next_number(base)
        grouped = "group" in self.ruleset.schema.schemas.combatant.by_name
        made = []
        for n in range(first, first + count):
            hp = real[n - first] if real else None
            given = {"group": base} if grouped else {}
            shown = entry["name"] if count == first == 1 else f"{entry['name']} {n}"
            made.append(self.monster(entry, f"{base}{n}", str(shown).capitalize(),
                                     side, rng, hp, given))
        encounter = self.encounter
        for combatant in made:
            encounter = self.with_items_for(replace(
                encounter, combatants=encounter.combatants + (combatant,)), combatant)
        self.write(encounter)
        return made

    def bestiary_form(self) -> Form:
        """Set-up's `b`: "6 goblins" from the ruleset's bestiary onto a side."""
        from .catalogues import entries_for

        names = tuple(entries_for(self.ruleset, "monsters", self.catalogues))
        sides = tuple((s.name, s.id) for s in self.encounter.sides)
        theirs = next((s.id for s in self.encounter.sides if not s.players),
                      sides[0][1] if sides else "")
        fields = (
            Field("what", "monsters", required=True, suggest=names,
                  help="how many and which: 6 goblins (→ completes a name)"),
            Field("side", "side", "choice", theirs, options=sides),
            Field("hp", "hit points", help="from real dice, one each: 4 6 5 …; blank: "
                                           "rolled from the bestiary's dice"),
        )
        return Form("Add from the bestiary", fields)

    def add_from_bestiary(self, values: Mapping[str, Any],
                          rng: random.Random | None = None) -> list[Combatant]:
        """Set-up's `b` answered; the hit-point dice drawn from `rng` (tests inject one),
        else from the encounter's seed and how many it holds (each batch its own)."""
        from .catalogues import bestiary_said, entries_for

        count, name = counted(str(values.get("what") or ""))
        bestiary = entries_for(self.ruleset, "monsters", self.catalogues)
        entry = next((bestiary[n] for n in singulars(name) if n in bestiary), None)
        if entry is None:
            close = sorted(n for n in bestiary if name[:3] in n)[:5]
            hint = f" (close: {', '.join(close)})" if close else ""
            said = bestiary_said(self.ruleset, self.catalogues)
            raise FormatError(f"no {name!r} in the bestiary{hint}: {said}", ("what",))
        typed = str(values.get("hp") or "").replace(",", " ").split()
        if not all(v.isdigit() for v in typed):
            raise FormatError("whole numbers, one a monster: 4 6 5", ("hp",))
        if rng is None:
            rng = random.Random(f"{self.encounter.seed}/setup/"
                                f"{len(self.encounter.combatants)}")
        return self.add_monsters(entry, count, str(values["side"]), rng,
                                 [int(v) for v in typed])

    def monster(self, entry: Mapping[str, Any], cid: str, name: str, side: str,
                rng: random.Random, hp: int | None, given: Mapping[str, Any]) -> Combatant:
        from .catalogues import monster, rolled_hp

        if hp is None:
            hp, told = rolled_hp(entry, rng)
        else:
            told = f"hp {hp} from real dice ({entry.get('hp')})"
        made = monster(self.ruleset, {**entry, "hp": hp}, cid, side, name=name,
                       given=given)
        notes = "; ".join(n for n in (made.notes, told) if n)
        return replace(made, notes=notes)

    def next_number(self, base: str) -> int:
        """The first number free after `base1`, `base2` … in the roster."""
        taken = [int(c.id[len(base):]) for c in self.encounter.combatants
                 if c.id.startswith(base) and c.id[len(base):].isdigit()]
        return max(taken, default=0) + 1

    def import_roster(self, path: Path) -> int:
        """Sides and combatants from a roster file; returns how many combatants came."""
        text = read_text(path, "a roster")
        data = parse_toml(text, str(path))
        named = data.get("ruleset")
        if named and named not in (self.encounter.ruleset, self.ruleset.id,
                                   self.ruleset.file_id):
            raise fault(str(path), text, FormatError(
                f"a {named} roster: this save is {self.ruleset.file_id}", ("ruleset",)))
        sides, combatants = read_roster(data, str(path), text, self.ruleset)
        known = {s.id for s in self.encounter.sides}
        new_sides = tuple(s for s in sides if s.id not in known)
        encounter = replace(self.encounter, sides=self.encounter.sides + new_sides,
                            combatants=self.encounter.combatants + combatants)
        check_roster(encounter.sides, encounter.combatants)
        self.write(encounter)
        return len(combatants)
