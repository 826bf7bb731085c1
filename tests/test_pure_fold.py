"""A pure fold: no hook of a ruleset's fold changes a `Status` (nor its tables) or writes
the fight; it returns new records (`entering`, `apply_damage`, `apply_heal`, `effects`)
and a new state (`start`, `apply`, `new_round`), and the core stores them. Every save of
every ruleset (its demos and scenarios), and random fights of each played through the
table, are folded with each hook held to it, and with every status record the fold holds
checked unchanged after each event: checkpoints share the records, so one changed in
place would change the past."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from referee.engine.fight import Fight, Status
from referee.engine.options import Healing
from referee.engine.record import FrozenInstanceError
from referee.engine.roles import Fold
from referee.rulesets import available
from referee.session.files import load_ruleset, load_save
from tests.test_contract import RULESET_FILES, SAVES
from tests.test_plan_digests import FAMILIES, play, starts, unsynced

# the hooks of the fold, each given the fight first; the consequences (`after`,
# `end_of_round`) read it too, and write it no more than the fold's steps do
HOOKS = ("start", "apply", "new_round", "effects", "entering", "apply_damage", "after",
         "end_of_round")
FIGHTS = 12  # random fights per ruleset, at least
MOST_FIGHTS = 200  # ... and at most, until each of its `effects` is made


SCALARS = frozenset({str, int, float, bool, type(None)})  # kept as they are: unchangeable


def value(x: Any) -> Any:
    """`x` as a plain value, deep: what it holds now, kept from later changes. (The
    plain tables and sequences, most of what a state holds, are taken by their type,
    and a scalar in them without a call: a big fight's state is taken for each hook.)"""
    kind = type(x)
    if kind in SCALARS:
        return x
    if kind is dict:
        return ("dict", tuple([(k, v if type(v) in SCALARS else value(v))
                               for k, v in x.items()]))
    if kind is tuple or kind is list:
        return (kind.__name__, tuple([v if type(v) in SCALARS else value(v) for v in x]))
    if isinstance(x, Status):
        return ("status", x.hp, x.max_hp, value(x.conditions), x.dead, x.hp_at_round_start,
                value(x.marks))
    if isinstance(x, dict):
        return ("dict", tuple((k, value(v)) for k, v in x.items()))
    if isinstance(x, list | tuple):
        return (type(x).__name__, tuple(value(v) for v in x))
    if isinstance(x, set | frozenset):
        return (type(x).__name__, frozenset(x))
    return x


def fight_value(fight: Fight) -> Any:
    """The fight as the core keeps it (its state but the ruleset's own part, which the
    contract holds to `apply`), with each status record's identity (a hook that stored
    a record of its own would write the fight too), and the rest of the fight (its log,
    its checkpoints) by identity and size."""
    state = getattr(fight, "state", None)
    if state is None:
        return None  # `entering` as the first state is built: there is nothing yet
    core = {k: value(v) for k, v in vars(state).items() if k != "rs"}
    records = {cid: id(s) for cid, s in state.status.items()}
    around = {k: (id(v), len(v) if isinstance(v, list | dict | set) else v)
              for k, v in vars(fight).items() if k != "state"}
    return id(state), core, records, around


def held(hook: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A role's `hook` (given the fight after itself, the entering combatant for
    `entering`), checked to leave the fight as it found it."""

    def call(self: Any, fight: Any, *args: Any) -> Any:
        if not isinstance(fight, Fight):  # `entering(combatant, status)`: the status
            status = args[0]
            was = value(status)
            out = hook(self, fight, *args)
            assert value(status) == was, f"{name} changed the status it was given"
            return out
        before = fight_value(fight)
        out = hook(self, fight, *args)
        assert fight_value(fight) == before, f"{name} wrote the fight"
        return out

    return call


def statuses_kept(fight: Fight) -> list[tuple[Status, Any]]:
    """Every status record the fold holds now (the state's and its checkpoints'), with
    its value."""
    found = {id(s): s for state in [fight.state, *fight.checkpoints.values()]
             for s in state.status.values()}
    return [(s, value(s)) for s in found.values()]


@cache
def roles_to_hold() -> tuple[frozenset[type[Any]], tuple[type[Any], ...]]:
    """Every ruleset file's fold class and healing role class, in the files' order (a
    file's ruleset has the same classes at every load: read once a worker, not 11 files
    for each of the 300 tests)."""
    classes: set[type[Any]] = set()
    healers: list[type[Any]] = []
    for file in RULESET_FILES:
        ruleset = load_ruleset(str(file.path))
        classes.add(type(ruleset.fold))
        healing = ruleset.role(Healing)
        if healing is not None:
            healers.append(type(healing))
    return frozenset(classes), tuple(healers)


@pytest.fixture(scope="module")
def holding() -> Iterator[list[set[tuple[str, str]]]]:
    """Every ruleset's fold held to being pure, for this module's tests (patched once,
    not for each of its 300 tests); yields where the test under way collects the
    (ruleset id, event type) of each event folded (`folds_held`)."""
    seen: list[set[tuple[str, str]]] = [set()]
    classes, healers = roles_to_hold()
    with pytest.MonkeyPatch.context() as patch:
        for healer in healers:
            patch.setattr(healer, "apply_heal", held(healer.apply_heal, "apply_heal"))
        for cls in classes | {Fold}:
            for name in HOOKS:
                patch.setattr(cls, name, held(getattr(cls, name), f"{cls.__name__}.{name}"))
        real = Fight._apply

        def apply(self: Fight, index: int, event: Any) -> None:
            kept = statuses_kept(self)
            real(self, index, event)
            changed = [s for s, was in kept if value(s) != was]
            assert not changed, (event, changed)
            seen[0].add((self.ruleset.id, event.TYPE))

        patch.setattr(Fight, "_apply", apply)
        yield seen


@pytest.fixture
def folds_held(holding: list[set[tuple[str, str]]]) -> set[tuple[str, str]]:
    """Every ruleset's fold held to being pure for the test (`holding`); the (ruleset id,
    event type) of each event folded in it, its own."""
    holding[0] = set()
    return holding[0]


@pytest.mark.parametrize(("logic", "path"), SAVES)
def test_no_fold_of_a_save_changes_a_status_or_writes_the_fight(
        logic: str, path: Path, folds_held: set[tuple[str, str]]) -> None:
    """Every hook, as the save loads and as its events are pushed one by one onto a
    fight of its encounter (each event once: the fight then is the fight `at` that
    event), and the consequences as each event stood, asked of the fight then."""
    fight = load_save(path).fight
    part = Fight(fight.encounter, fight.ruleset)
    part.later = set(fight.later)
    for event in fight.log:  # the consequences as each event stood
        part.push(event)
        part.ruleset.fold.after(part, event)
        if part.round >= 1 and not part.ended:
            part.ruleset.fold.end_of_round(part)


# the events whose statuses or actions done are a ruleset's `effects`: random fights make
# them (the saves hold few)
EFFECTS = {"count-up": {"morale"}, "phases": {"decay"},
           "sanctum": {"attack", "combat-end"}}


@pytest.mark.parametrize("family", sorted(set(FAMILIES) & set(available())))
def test_no_fold_of_a_random_fight_changes_a_status_or_writes_the_fight(
        family: str, tmp_path: Path, folds_held: set[tuple[str, str]]) -> None:
    found, wanted = starts(family), EFFECTS.get(family, set())
    with unsynced():
        for number in range(MOST_FIGHTS):  # the first few, and on until every effect
            play(family, number, tmp_path, found)
            if number + 1 >= FIGHTS and wanted <= {kind for _, kind in folds_held}:
                break
    made = {kind for _, kind in folds_held}
    assert wanted <= made, f"no {sorted(wanted - made)} in {MOST_FIGHTS} fights"


def test_a_status_is_frozen_and_the_check_finds_a_table_changed() -> None:
    status = Status(5, 8, {"stunned": 1}, marks={"fatigue": 0})
    with pytest.raises(FrozenInstanceError):
        status.hp = 4  # type: ignore[misc]
    assert status.changed(hp=4).hp == 4 and status.hp == 5
    was = value(status)
    status.marks["fatigue"] = 2  # what no fold may do: the tests above would see it
    assert value(status) != was
