"""The quick paths of roster reading and planning give exactly what the plain ones give.

`Schema.read` keeps a value of its kind's own type without calling the key's reader;
`read_weapon`, `read_spell` and `read_combatant`, and demon-idol's planned actions, fill
their records without calling the class: the same values, the same faults with the same
paths, the same records.
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import FormatError, RefereeError
from referee.engine.model import (
    COMBATANT_KEYS,
    SPELL_KEYS,
    WEAPON_KEYS,
    Combatant,
    Spell,
    Weapon,
    read_combatant,
    read_spell,
    read_weapon,
)
from referee.session.files import load_ruleset
from tests.conftest import ROOT


def rulesets():
    return [load_ruleset(ruleset_id) for ruleset_id in ("demon-idol", "count-up")]


def by_the_readers(schema, data, path, skip):
    """`Schema.read` as it was: every key through its reader."""
    out = {}
    for key, value in data.items():
        if key in skip:
            continue
        reader = schema.readers.get(key)
        if reader is None:
            raise FormatError(schema.unknown(key, skip), path + (key,))
        out[key] = reader(value, path, key)
    for name in schema.required:
        if name not in out:
            raise FormatError("missing required field", path + (name,))
    return out


def outcome(work):
    try:
        value = work()
    except FormatError as error:
        return ("fault", error.reason, error.path)
    return ("value", {k: (type(v).__name__, repr(v)) for k, v in value.items()})


values = st.one_of(
    st.integers(-3, 12), st.booleans(), st.floats(-2, 40, allow_nan=False),
    st.sampled_from(["", " ", "x", "sleep", "1d6", "d", "a-b"]), st.none(),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.sampled_from(["name", "x"]),
                                                            st.integers(0, 2), max_size=2),
)


@st.composite
def tables(draw, schema, skip):
    keys = [*schema.readers, *sorted(skip), "speed_factr", "zzz"]
    chosen = draw(st.lists(st.sampled_from(keys), max_size=6, unique=True))
    table = {key: draw(values) for key in chosen}
    return {key: value for key, value in table.items() if value is not None}


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_schema_reads_as_its_readers_do(data):
    ruleset = data.draw(st.sampled_from(rulesets()), label="ruleset")
    schemas = ruleset.schema.schemas
    schema, skip = data.draw(st.sampled_from([
        (schemas.combatant, COMBATANT_KEYS), (schemas.weapon, WEAPON_KEYS),
        (schemas.spell, SPELL_KEYS), (schemas.side, frozenset({"id", "name"})),
        (schemas.encounter, set())]), label="schema")
    table = data.draw(tables(schema, skip), label="table")
    path = ("combatants", 3)
    assert outcome(lambda: schema.read(table, path, skip)) == outcome(
        lambda: by_the_readers(schema, table, path, skip))


def every_roster_table():
    """Every combatant table of every save and scenario written by hand."""
    found = []
    for path in sorted([*(ROOT / "tests").rglob("*.toml"), *(ROOT / "saves").rglob("*.toml")]):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
            continue  # a broken file kept on purpose (tests/broken)
        if data.get("ruleset") not in ("demon-idol", "count-up"):
            continue
        for index, table in enumerate(data.get("combatants", [])):
            if isinstance(table, dict):
                found.append((data["ruleset"], path.name, index, table))
    return found


def ruleset_of(ruleset_id, cache={}):  # noqa: B006 - one ruleset per id for the whole run
    if ruleset_id not in cache:
        cache[ruleset_id] = load_ruleset(ruleset_id)
    return cache[ruleset_id]


@pytest.mark.parametrize("ruleset_id,name,index,table", every_roster_table(),
                         ids=lambda v: str(v) if isinstance(v, (str, int)) else "")
def test_records_read_are_the_records_the_classes_build(ruleset_id, name, index, table):
    schemas = ruleset_of(ruleset_id).schema.schemas
    path = ("combatants", index)
    try:
        read = read_combatant(table, path, schemas)
    except RefereeError:
        return  # a broken file's fault: the same code reports it either way
    built = Combatant(read.id, read.name, read.side, read.hp, read.max_hp,
                      tuple(Weapon(w.name, w.damage, w.notes, w.stats) for w in read.weapons),
                      tuple(Spell(s.name, s.notes, s.stats) for s in read.spells),
                      read.notes, read.stats)
    assert read == built
    assert vars(read).keys() == vars(built).keys()
    for mine, theirs in zip(read.weapons + read.spells, built.weapons + built.spells,
                            strict=True):
        assert mine == theirs and vars(mine) == vars(theirs)


def test_every_field_is_filled():
    schemas = ruleset_of("demon-idol").schema.schemas
    weapon = read_weapon({"name": "bow", "missile": True}, ("w",), schemas.weapon)
    spell = read_spell({"name": "sleep"}, ("s",), schemas.spell)
    assert vars(weapon) == vars(Weapon("bow", None, "", {"missile": True}))
    assert vars(spell) == vars(Spell("sleep", "", {}))
    assert weapon == Weapon("bow", stats={"missile": True}) and spell == Spell("sleep")


def demon_idol_scenarios():
    folder = ROOT / "tests" / "scenarios" / "demon-idol"
    return sorted(p for p in folder.glob("*.toml") if not p.name.endswith(".expect.toml"))


@pytest.mark.parametrize("path", demon_idol_scenarios(), ids=lambda p: p.stem)
def test_planned_actions_are_what_the_class_builds(path):
    from referee.engine.plan import PlannedAction
    from referee.session.files import load_save

    fight = load_save(path).fight
    for round_ in sorted({1, *fight.declarations}):
        for beat in fight.plan(round_).beats:
            for action in beat.actions:
                built = PlannedAction(action.actor, action.action, action.routine, action.turn,
                                      action.declared, action.extra)
                assert action == built and vars(action) == vars(built)
