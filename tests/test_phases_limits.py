"""phases numbers have ranges (issue 20): a ruleset file's, a round far ahead of the fight
refused at once (not walked through, however big the battle), and a unit that joins
read as the roster's are (Elite +5 Hits, PH-17)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from referee.rulesets.phases import events as ph
from referee.session.files import LoadError, load_ruleset, load_save
from tests.conftest import ROOT

RULESET = ROOT / "rulesets" / "phases.toml"


@pytest.mark.parametrize(("old", "new", "said"), [
    ("stack_size = 8", "stack_size = 100000", "stack_size: 100000 is out of range (1 to 99)"),
    ("extended_decay_every = 3", "extended_decay_every = 1000",
     "extended_decay_every: 1000 is out of range (1 to 99)"),
    ("decay_hits = 2", "decay_hits = 100", "decay_hits: 100 is out of range (0 to 99)"),
])
def test_a_ruleset_files_numbers_have_ranges(tmp_path: Path, old: str, new: str,
                                             said: str) -> None:
    text = RULESET.read_text()
    assert old in text
    path = tmp_path / "house.toml"
    path.write_text(text.replace(old, new))
    with pytest.raises(LoadError) as found:
        load_ruleset(str(path))
    assert f"{found.value.field}: {found.value.reason}" == said and found.value.line


def test_a_round_far_ahead_of_a_big_battle_is_refused_at_once(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from phases_bench import battle_text

    path = tmp_path / "battle.toml"
    path.write_text(battle_text() + '\n[[events]]\ntype = "round"\nround = 9999\n')
    start = time.perf_counter()
    with pytest.raises(LoadError) as found:
        load_save(path)
    assert time.perf_counter() - start < 5
    assert found.value.reason.startswith("9999 is out of range (0 to 2): the fight is in "
                                         "round 0")


def test_a_unit_that_joins_is_read_as_the_rosters_are() -> None:
    fight = load_save(ROOT / "tests" / "scenarios" / "phases" / "ph-01-phases-count-down.toml"
                      ).fight
    joiner = fight.roster["grub"].__class__(
        id="champ", name="Champion", side="town", hp=10, max_hp=10,
        stats={"combat": 2, "defense": 3, "traits": ("Elite",)})
    fight.enter(ph.ev.Join(round=1, combatant=joiner))
    assert (fight.status["champ"].hp, fight.status["champ"].max_hp) == (15, 15)  # PH-17
    assert fight.ruleset.tracker.facts(fight, "champ")["combat"] == 3
