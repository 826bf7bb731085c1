"""Setting up an encounter: its title, sides and combatants, or a roster imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label

from referee.engine import Combatant, Encounter, RefereeError, Side, Spell, Weapon
from referee.engine.record import replace
from referee.session.files import LoadError, parse_toml, read_text
from referee.session.roster import read_roster
from referee.session.store import SaveError, Session

from .forms import Field, Form

WEAPON_HELP = "weapons: name/speed factor/length; … (missile: name/sf/missile/rate)"
COUNT_UP_HELP = "weapons: name/speed; …   spells: name/casting TN; …"


def weapons_text(combatant: Combatant, count_up: bool) -> str:
    parts = []
    for w in combatant.weapons:
        if count_up:
            parts.append(f"{w.name}/{w.speed}")
            continue
        bits = [w.name] + ([str(w.speed_factor)] if w.speed_factor is not None else [])
        if w.missile:
            bits += ["missile", str(w.rate)]
        elif w.length is not None:
            bits.append(f"{w.length:g}")
        parts.append("/".join(bits))
    return "; ".join(parts)


def spells_text(combatant: Combatant, count_up: bool) -> str:
    if count_up:
        return "; ".join(f"{s.name}/{s.casting_tn or s.count_up_speed + 10}"
                         for s in combatant.spells)
    return "; ".join(f"{s.name}/{s.casting_time or 1}" for s in combatant.spells)


def parse_weapons(text: str, count_up: bool) -> tuple[Weapon, ...]:
    weapons = []
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        name, *rest = [b.strip() for b in part.split("/")]
        numbers = [b for b in rest if b not in ("missile",)]
        if count_up:
            weapons.append(Weapon(name, speed=int(numbers[0]) if numbers else 0))
        elif "missile" in rest:
            speed = int(rest[0]) if rest and rest[0] != "missile" else None
            rate = int(rest[-1]) if rest[-1] != "missile" else 1
            weapons.append(Weapon(name, speed_factor=speed, missile=True, rate=rate))
        else:
            speed = int(numbers[0]) if numbers else None
            length = float(numbers[1]) if len(numbers) > 1 else None
            weapons.append(Weapon(name, speed_factor=speed, length=length))
    return tuple(weapons)


def parse_spells(text: str, count_up: bool) -> tuple[Spell, ...]:
    spells = []
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        name, _, number = (b.strip() for b in part.partition("/"))
        value = int(number) if number else None
        spells.append(Spell(name, casting_tn=value) if count_up
                      else Spell(name, casting_time=value or 1))
    return tuple(spells)


class SetupScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "done", "Done"),
        Binding("a", "add", "Add"),
        Binding("e,enter", "edit", "Edit"),
        Binding("x,delete", "remove", "Remove"),
        Binding("s", "add_side", "Side"),
        Binding("S", "remove_side", "Remove side", show=False),
        Binding("t", "title", "Title", show=False),
        Binding("i", "import_roster", "Import"),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    @property
    def count_up(self) -> bool:
        return self.session.fight.ruleset.id == "count-up"

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Label("", id="setup-title")
            yield Label("Sides (s adds, S removes; e renames the one under the cursor)",
                        classes="heading")
            yield DataTable(id="sides", cursor_type="row")
            yield Label("Combatants (a adds, e edits, x removes; t sets the title)",
                        classes="heading")
            yield DataTable(id="combatants", cursor_type="row")
            yield Label(COUNT_UP_HELP if self.count_up else WEAPON_HELP, id="setup-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "referee — set up"
        self.query_one("#sides", DataTable).add_columns("side", "name")
        self.query_one("#combatants", DataTable).add_columns(
            "id", "name", "side", "hp", "attacks", "weapons", "spells")
        self.show()
        self.query_one("#combatants", DataTable).focus()

    def show(self) -> None:
        encounter = self.session.encounter
        self.query_one("#setup-title", Label).update(
            f"{encounter.title or '(untitled)'} — {encounter.ruleset}")
        sides = self.query_one("#sides", DataTable)
        sides.clear()
        for side in encounter.sides:
            sides.add_row(side.id, side.name, key=side.id)
        table = self.query_one("#combatants", DataTable)
        table.clear()
        for c in encounter.combatants:
            table.add_row(c.id, c.name, c.side, str(c.hp), str(c.attacks),
                          weapons_text(c, self.count_up), spells_text(c, self.count_up),
                          key=c.id)

    def selected(self) -> Combatant | None:
        table = self.query_one("#combatants", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.session.encounter.combatant(key)

    def write(self, encounter: Encounter) -> bool:
        try:
            self.session.replace_encounter(encounter)
        except (RefereeError, SaveError) as error:
            self.notify(str(error), title="Not changed", severity="error", timeout=8)
            return False
        self.show()
        return True

    def combatant_fields(self, c: Combatant | None) -> list[Field]:
        sides = [(s.name, s.id) for s in self.session.encounter.sides]
        return [
            Field("id", "id", value=c.id if c else ""),
            Field("name", "name", value=c.name if c else ""),
            Field("side", "side", "choice", c.side if c else sides[0][1], sides),
            Field("hp", "hit points", "int", c.hp if c else 6),
            Field("reaction", "reaction adjustment", "int", c.reaction if c else 0),
            Field("agility", "Agility modifier", "int", c.agility if c else 0),
            Field("attacks", "attack routines", "int", c.attacks if c else 1),
            Field("weapons", "weapons", value=weapons_text(c, self.count_up) if c else ""),
            Field("spells", "spells", value=spells_text(c, self.count_up) if c else ""),
        ]

    def built(self, values: dict[str, Any], old: Combatant | None) -> Combatant | None:
        try:
            weapons = parse_weapons(values.get("weapons") or "", self.count_up)
            spells = parse_spells(values.get("spells") or "", self.count_up)
        except (ValueError, IndexError):
            self.notify(COUNT_UP_HELP if self.count_up else WEAPON_HELP,
                        title="Could not read the weapons or spells",
                        severity="error")
            return None
        if not values.get("id") or values.get("hp") is None:
            self.notify("a combatant needs an id and hit points", severity="error")
            return None
        base = old or Combatant(values["id"], values["id"], values["side"], 1, 1)
        return replace(base, id=values["id"], name=values.get("name") or values["id"],
                       side=values["side"], hp=values["hp"], max_hp=values["hp"],
                       reaction=values.get("reaction") or 0, agility=values.get("agility") or 0,
                       attacks=max(values.get("attacks") or 1, 1), weapons=weapons,
                       spells=spells)

    def action_add(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            combatant = self.built(values, None) if values else None
            if combatant is not None:
                encounter = self.session.encounter
                if encounter.combatant(combatant.id) is not None:
                    self.notify(f"{combatant.id} is taken", severity="error")
                    return
                self.write(replace(encounter, combatants=encounter.combatants + (combatant,)))

        self.app.push_screen(Form("Add a combatant", self.combatant_fields(None)), done)

    def action_edit(self) -> None:
        if self.query_one("#sides", DataTable).has_focus:
            self.edit_side()
            return
        old = self.selected()
        if old is None:
            return

        def done(values: dict[str, Any] | None) -> None:
            combatant = self.built(values, old) if values else None
            if combatant is not None:
                encounter = self.session.encounter
                roster = tuple(combatant if c.id == old.id else c for c in encounter.combatants)
                self.write(replace(encounter, combatants=roster))

        self.app.push_screen(Form(f"Edit {old.name}", self.combatant_fields(old)), done)

    def action_remove(self) -> None:
        old = self.selected()
        if old is not None:
            encounter = self.session.encounter
            roster = tuple(c for c in encounter.combatants if c.id != old.id)
            if self.write(replace(encounter, combatants=roster)):
                self.notify(f"{old.name} removed")

    def action_add_side(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if values and values.get("id"):
                encounter = self.session.encounter
                if encounter.side(values["id"]) or encounter.combatant(values["id"]):
                    self.notify(f"{values['id']} is taken", severity="error")
                    return
                side = Side(values["id"], values.get("name") or values["id"])
                self.write(replace(encounter, sides=encounter.sides + (side,)))

        self.app.push_screen(Form("Add a side", [Field("id", "id"), Field("name", "name")]),
                             done)

    def edit_side(self) -> None:
        table = self.query_one("#sides", DataTable)
        if table.row_count == 0:
            return
        side_id = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        side = self.session.encounter.side(side_id)

        def done(values: dict[str, Any] | None) -> None:
            if values and values.get("name"):
                encounter = self.session.encounter
                sides = tuple(replace(s, name=values["name"]) if s.id == side_id else s
                              for s in encounter.sides)
                self.write(replace(encounter, sides=sides))

        field = Field("name", "name", value=side.name if side else "")
        self.app.push_screen(Form(f"Rename the side {side_id}", [field], focus="name"), done)

    def action_remove_side(self) -> None:
        table = self.query_one("#sides", DataTable)
        if table.row_count == 0:
            return
        side = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        encounter = self.session.encounter
        if any(c.side == side for c in encounter.combatants):
            self.notify(f"{side} still has combatants: remove them first", severity="error")
            return
        if len(encounter.sides) == 1:
            self.notify("an encounter needs a side", severity="error")
            return
        self.write(replace(encounter, sides=tuple(s for s in encounter.sides if s.id != side)))

    def action_title(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if values and values.get("title"):
                self.write(replace(self.session.encounter, title=values["title"]))

        field = Field("title", "title", value=self.session.encounter.title)
        self.app.push_screen(Form("Title", [field]), done)

    def action_import_roster(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if not values or not values.get("path"):
                return
            path = Path(values["path"])
            try:
                text = read_text(path)
                sides, combatants = read_roster(parse_toml(text, str(path)), str(path), text)
            except LoadError as error:
                self.notify(str(error), title="Roster not imported", severity="error",
                            timeout=10)
                return
            encounter = self.session.encounter
            known = {s.id for s in encounter.sides}
            new_sides = tuple(s for s in sides if s.id not in known)
            self.write(replace(encounter, sides=encounter.sides + new_sides,
                               combatants=encounter.combatants + combatants))

        self.app.push_screen(Form("Import a roster TOML", [Field("path", "file")]), done)

    def action_done(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.action_help()
