"""The quick paths of roster reading and planning give exactly what the plain ones give.

`Schema.read` keeps a value of its kind's own type without calling the key's reader;
`read_weapon`, `read_spell` and `read_combatant`, and demon-idol's planned actions, fill
their records without calling the class: the same values, the same faults with the same
paths, the same records.
"""

from __future__ import annotations

import copy
import tomllib
from functools import cache

import pytest
import tomli
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
    """The two rulesets each example samples, loaded once for the module (they are only
    read: not loaded again for every example)."""
    return [ruleset_of(ruleset_id) for ruleset_id in ("demon-idol", "count-up")]


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


@cache
def ruleset_choice():
    return st.sampled_from(rulesets())


@cache
def schema_choice(ruleset):
    """The ruleset's schemas, each with the keys it skips and the strategy of its tables'
    keys: made once a ruleset, not again for every example (the same draws)."""
    schemas = ruleset.schema.schemas
    return st.sampled_from([
        (schema, skip, st.lists(st.sampled_from([*schema.readers, *sorted(skip),
                                                 "speed_factr", "zzz"]),
                                max_size=6, unique=True))
        for schema, skip in ((schemas.combatant, COMBATANT_KEYS),
                             (schemas.weapon, WEAPON_KEYS), (schemas.spell, SPELL_KEYS),
                             (schemas.side, frozenset({"id", "name"})),
                             (schemas.encounter, set()))])


@st.composite
def schema_tables(draw):
    """A ruleset, one of its schemas (with the keys it skips) and a table for it."""
    ruleset = draw(ruleset_choice())
    schema, skip, keys = draw(schema_choice(ruleset))
    table = {key: draw(values) for key in draw(keys)}
    return schema, skip, {key: value for key, value in table.items() if value is not None}


@settings(max_examples=200, deadline=None)  # 10 (ruleset, schema) pairs, ~20 draws each
@given(schema_tables())
def test_schema_reads_as_its_readers_do(case):
    schema, skip, table = case
    path = ("combatants", 3)
    assert outcome(lambda: schema.read(table, path, skip)) == outcome(
        lambda: by_the_readers(schema, table, path, skip))


def every_roster_table():
    """Every combatant table of every save and scenario written by hand, each once: a
    table written the same (keys in the same order, values of the same types) at the same
    index of another file of the same ruleset is the same reading twice (609 tables in
    168 readings), checked under the first file's name."""
    found, seen = [], set()
    for path in sorted([*(ROOT / "tests").rglob("*.toml"), *(ROOT / "saves").rglob("*.toml")]):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a broken file kept on purpose (tests/broken)
        if not any(word in text for word in ("demon-idol", "count-up", "\\u", "\\U")):
            continue  # names neither ruleset, even escaped: not parsed (in every worker)
        try:
            data = tomli.loads(text)  # as tomllib (the same parser, compiled: 5x quicker)
        except (tomli.TOMLDecodeError, RecursionError):
            continue  # a broken file kept on purpose (tests/broken)
        if data.get("ruleset") not in ("demon-idol", "count-up"):
            continue
        for index, table in enumerate(data.get("combatants", [])):
            reading = (data["ruleset"], index, _written(table))
            if isinstance(table, dict) and reading not in seen:
                seen.add(reading)
                found.append((data["ruleset"], path.name, index, table))
    return found


def _written(value):
    """`value` with its keys' order and every value's type: equal only for tables read
    alike (1, 1.0 and True are told apart)."""
    if isinstance(value, dict):
        return tuple((k, _written(v)) for k, v in value.items())
    if isinstance(value, list):
        return ("list", tuple(_written(v) for v in value))
    return (type(value).__name__, repr(value))


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


# -- events: each shape of table read by a reader made for it ------------------------------

@cache
def event_readers():
    """The event reader of every bundled ruleset (each example samples one: listed once)."""
    from referee.session.files import builtin_rulesets

    return [ruleset_of(ruleset_id).schema.reader for ruleset_id in sorted(builtin_rulesets())]


event_values = st.one_of(
    values, st.integers(-2, 10_000), st.sampled_from([1_000_000_000, 1_000_000_001, -1, 0]),
    st.sampled_from(["\t", "gob1", "brann", "x\ny", "é"]),
    st.lists(st.sampled_from(["gob1", "", 3, "brann"]), max_size=3),
    st.lists(st.dictionaries(st.sampled_from(["weapon", "x"]), st.sampled_from(["a", 1]),
                             max_size=2), max_size=2),
)


def event_outcome(work):
    try:
        event = work()
    except FormatError as error:
        return ("fault", error.reason, error.path)
    return ("event", type(event), repr(event), {k: (type(v), v) for k, v in vars(event).items()})


VALID = {  # a value each kind reads, most of the time
    "str": st.sampled_from(["gob1", "x", "long sword", " a"]),
    "bool": st.booleans(),
    "int": st.integers(-5, 50), "int0": st.integers(0, 50), "int1": st.integers(1, 50),
    "round": st.sampled_from([0, 1, 2, 9_999, 10_000]),
    "ids": st.one_of(st.sampled_from(["gob1", "brann"]),
                     st.lists(st.sampled_from(["gob1", "brann"]), max_size=3)),
    "int_table": st.dictionaries(st.sampled_from(["party", "goblins"]), st.integers(1, 6)),
    "table": st.dictionaries(st.sampled_from(["party", "x"]), st.integers(1, 6)),
    "ints": st.lists(st.integers(1, 6), max_size=3),
    "tables": st.lists(st.dictionaries(st.sampled_from(["weapon"]), st.just("dagger")),
                       max_size=2),
    "number0": st.one_of(st.integers(0, 90), st.floats(0, 90)),
}


@cache
def shapes_of(reader, kind):
    """What a table of `kind` may hold, and the strategies that draw its keys: worked out
    once a (reader, type), not built again for every example (the same draws)."""
    fields = reader.types[kind].__record_fields__
    specs = {f.name: f.metadata.get("kind", "round").rstrip("!") for f in fields}
    required = [name for name, spec in zip(specs, fields, strict=True)
                if spec.metadata.get("kind", "!").endswith("!")]
    keys = st.lists(st.sampled_from([*specs, "type", "zzz"]), max_size=8, unique=True)
    return specs, required, keys


@cache
def kinds_of(reader):
    return st.sampled_from(sorted(reader.types))


@st.composite
def event_tables(draw):
    """A reader, one of its event types, and a table for it: drawn in one strategy, as
    st.data() drew them one by one (the same draws, in the same order), without each
    draw's own bookkeeping (its label, its note, the global random's state compared)."""
    reader = draw(st.sampled_from(event_readers()))
    kind = draw(kinds_of(reader))
    specs, required, any_keys = shapes_of(reader, kind)
    keys = draw(any_keys)
    if draw(st.integers(0, 3)) > 0:  # every field the type requires, and more
        keys = [*dict.fromkeys(["type", *required, *keys])]
    table = {}
    for key in keys:
        valid = VALID.get(specs.get(key, ""))
        odd = valid is None or draw(st.integers(0, 9)) == 0
        table[key] = draw(event_values if odd else valid)
    table = {key: value for key, value in table.items() if value is not None}
    if "type" in table and draw(st.integers(0, 5)) > 0:
        table["type"] = kind
    return reader, kind, table


@settings(max_examples=800, deadline=None)
@given(event_tables())
def test_events_read_quickly_as_the_strict_reader_reads_them(case):
    """The quick reader of a table's shape gives the strict reader's event, or leaves the
    table to it: the same event, the same fields set, the same fault with the same path."""
    reader, _kind, table = case
    path = ("events", 7)
    plain = copy.copy(reader)  # the same reader with no quick one: each table read strictly
    plain.quick = {}
    strict = event_outcome(lambda: plain.read(dict(table), path))
    for _ in range(2):  # the first read of a shape makes its reader; the second uses it
        assert event_outcome(lambda: reader.read(dict(table), path)) == strict


def test_a_written_log_is_read_by_the_quick_readers(monkeypatch):
    """Every event of a written log goes through its shape's reader: none is left to the
    strict one, and each shape is made a reader once."""
    import random

    from referee.engine import events as ev
    from referee.engine.fight import Fight
    from referee.rulesets.demon_idol import events as di
    from referee.session.fastload import loads
    from referee.session.files import load_save
    from referee.session.writer import save_text

    demo = load_save(ROOT / "saves" / "demo.toml").fight
    fight, rng = Fight(demo.encounter, demo.ruleset), random.Random(3)
    for round_ in range(1, 4):
        for cid in fight.roster:
            fight.enter(di.Declare(round=round_, actor=cid, action="B", target=("ogre",)))
        fight.enter(di.Initiative(round=round_, rolls={"party": rng.randint(1, 6),
                                                       "goblins": rng.randint(1, 6)}))
        fight.enter(ev.Roll(round=round_, expr="1d8", dice=(4,), total=4, purpose="damage"))
        fight.enter(ev.Damage(round=round_, target="gob1", amount=1))
        fight.enter(ev.Heal(round=round_, target="gob1", amount=1))
        fight.enter(ev.Resolve(round=round_, beat=1))
        fight.enter(ev.NewRound(round=round_ + 1))
    raw = loads(save_text(fight.encounter, fight.log), tomllib.loads)["events"]
    reader = type(demo.ruleset.schema.reader)(demo.ruleset.schema.reader.types)
    strict: list[object] = []
    monkeypatch.setattr(type(reader), "strictly", lambda self, d, p: strict.append(d))
    made: list[tuple[str, tuple[str, ...]]] = []
    quick = type(reader)._quick
    monkeypatch.setattr(type(reader), "_quick",
                        lambda self, known, kind, keys: made.append((kind, keys)) or quick(
                            self, known, kind, keys))
    events = [reader.read(table, ("events", n)) for n, table in enumerate(raw)]
    assert strict == [] and events == fight.log
    assert sorted(made) == sorted({(table["type"], tuple(table)) for table in raw})
