"""Bundled rulesets and the demo are found from a checkout, an installed wheel, or a path."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once, offline: the project's own hatchling (a test dependency,
    installed with the venv), not one fetched into an isolated build environment."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                    "--no-index", "-q", "-w", str(out), str(ROOT)], check=True,
                   capture_output=True, timeout=300)
    return next(out.glob("referee-*.whl"))


def test_wheel_carries_rulesets_and_demo_and_runs_without_the_checkout(tmp_path: Path,
                                                                       wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    assert not [name for name in names if "_simc" in name]  # a build is this machine's
    assert "referee/_rulesets/demon-idol.toml" in names
    assert "referee/_rulesets/count-up.toml" in names
    assert "referee/_saves/demo.toml" in names
    assert "referee-0.1.0.data/data/share/man/man1/referee.1".replace(
        "0.1.0", version("referee")) in names  # the manual page
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


def test_the_wheel_installs_into_a_fresh_venv_outside_the_clone_and_runs(tmp_path: Path,
                                                                        wheel: Path):
    """What `pipx install .` or `uv tool install .` makes: the wheel installed into a venv
    of its own, run as `referee` from a folder that is not the clone. The venv is made
    fresh; its dependencies are the project venv's, already installed (a path file points
    at that site-packages and processes nothing in it: the clone's editable install is not
    reached), so the test needs no network and no index."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_path('purelib'))"], check=True,
                               capture_output=True, text=True).stdout.strip())
    (site / "_project_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True,
                   timeout=300)
    checked = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "check"],
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout  # every dependency the wheel declares

    table = tmp_path / "table"  # where the referee stands: no saves/, not the clone
    table.mkdir()
    home = tmp_path / "home"
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"))

    def referee(*argv: str) -> str:
        done = subprocess.run([str(venv / "bin" / "referee"), *argv], capture_output=True,
                              text=True, cwd=table, env=env, timeout=120)
        assert done.returncode == 0, (argv, done.stderr)
        return done.stdout

    assert referee("--version") == f"referee {version('referee')}\n"
    where = subprocess.run([str(python), "-c", "import referee; print(referee.__file__)"],
                           capture_output=True, text=True, cwd=table, env=env, check=True)
    assert where.stdout.startswith(str(site))  # the wheel's referee, not the clone's
    assert "Goblins at the ford" in referee("demo")
    assert "beat" in referee("plan", str(site / "referee" / "_saves" / "demo.toml"))
    assert "demon-idol" in referee("catalogue")
    assert "long sword" in referee("catalogue", "demon-idol", "--kind", "weapons")
    assert "complete" in referee("completion", "bash")
    assert referee("--help-man").startswith(".TH REFEREE")
    assert f"new saves go:  {home / 'data' / 'referee' / 'saves'}" in referee("config")
    assert list(table.iterdir()) == []  # nothing written where the referee stood
    page = venv / "share" / "man" / "man1" / "referee.1"  # where pipx links it from
    assert page.read_text(encoding="utf-8").startswith('.TH REFEREE "1"')
