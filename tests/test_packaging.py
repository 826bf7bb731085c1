"""Bundled rulesets and the demo are found from a checkout, an installed wheel, or a path."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from referee.cli import main
from referee.session.files import builtin_rulesets, load_save
from tests.conftest import ROOT


def test_rulesets_found_from_the_checkout():
    assert {"demon-idol", "count-up"} <= set(builtin_rulesets())


def test_ruleset_loaded_by_path_with_a_house_rule(tmp_path: Path):
    house = tmp_path / "house.toml"
    text = (ROOT / "rulesets" / "demon-idol.toml").read_text()
    house.write_text(text.replace('id = "demon-idol"', 'id = "house"\nlogic = "demon-idol"')
                     .replace("death_at = -10", "death_at = -3"))
    scenario = ROOT / "tests" / "scenarios" / "demon-idol" / "di-01-won-initiative.toml"
    save = tmp_path / "fight.toml"
    save.write_text(scenario.read_text().replace('ruleset = "demon-idol"',
                                                 'ruleset = "house.toml"'))
    fight = load_save(save).fight
    assert fight.ruleset.settings.death_at == -3 and fight.ruleset.id == "demon-idol"
    assert main(["check", str(house)]) == 0


def test_wheel_carries_rulesets_and_demo_and_runs_without_the_checkout(tmp_path: Path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("referee-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "referee/_rulesets/demon-idol.toml" in names
    assert "referee/_rulesets/count-up.toml" in names
    assert "referee/_saves/demo.toml" in names
    assert "referee/_rulesets/side-d6.toml" in names and "referee/_saves/d20-dex.toml" in names
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c",
                          "import referee.session.files as f, referee;"
                          "print(referee.__file__); print(sorted(f.builtin_rulesets()))"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert str(target) in out.stdout
    for bundled in ("count-up", "demon-idol", "side-d6", "d20-dex"):
        assert f"'{bundled}'" in out.stdout, bundled
    demo = subprocess.run([sys.executable, "-m", "referee", "demo"], capture_output=True, text=True,
                          env=env, cwd=tmp_path)
    assert demo.returncode == 0 and "Goblins at the ford" in demo.stdout
