"""Every new encounter rolls its own dice: a fresh seed by every path that makes one
(`play NEW`, `play NEW --demo`, `play NEW --party`, bare `referee`, ctrl+o's new encounter),
and `--seed N` sets one on purpose, which replays the same dice (issue 30, A1)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.cli import play as cli
from referee.session.files import load_save
from referee.session.roster import RosterEditor
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT

_made = itertools.count()


@pytest.fixture()
def no_app(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    opened: list[Path] = []
    monkeypatch.setattr(cli, "open_app",
                        lambda path, setup, *own, **named: opened.append(path) or 0)
    return opened


def party(folder: Path) -> Path:
    out = folder / "party.toml"
    if not out.exists():
        assert main(["party", str(ROOT / "saves" / "demo.toml"), "-o", str(out)]) == 0
    return out


def new_save(folder: Path, path: str, seed: int | None = None) -> Path:
    """A new save made by one of the paths a referee has to a new encounter."""
    save = folder / f"new-{next(_made)}.toml"
    given_seed = [] if seed is None else ["--seed", str(seed)]
    if path == "referee":
        from referee.app import fresh_demo

        return fresh_demo(folder / "saves", ROOT / "saves" / "demo.toml", seed)
    if path == "ctrl+o":
        from referee.app.files import new_save as made

        made(save, "ambush", "count-up", seed=seed)
        return save
    extra = {"play": [], "demo": ["--demo", "--ruleset", "count-up"],
             "party": ["--party", str(party(folder))]}[path]
    assert main(["play", str(save), *extra, *given_seed]) == 0
    return save


PATHS = ("play", "demo", "party", "referee", "ctrl+o")


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PATHS), min_size=2, max_size=6))
def test_two_new_saves_never_share_a_seed(tmp_path: Path, no_app: list[Path],
                                          paths: list[str]) -> None:
    seeds = [load_save(new_save(tmp_path, path)).encounter.seed for path in paths]
    assert len(set(seeds)) == len(seeds), seeds


def dice(save: Path) -> tuple[list[int], list[float]]:
    """What the program rolls first in a save: six goblins' hit points in set-up, then
    the table's dice."""
    session = Session.open(save, lock=True)
    try:
        editor = RosterEditor(session)
        if not editor.encounter.side("foes"):
            editor.add_side("foes", "Foes")
        made = editor.add_from_bestiary({"what": "6 goblins", "side": "foes", "hp": ""})
        table = Table(session)
        return [c.hp for c in made], [table.rng.random() for _ in range(3)]
    finally:
        session.close()


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**40), st.sampled_from(("play", "demo", "referee")))
def test_the_same_seed_replays_the_same_dice(tmp_path: Path, no_app: list[Path], seed: int,
                                              path: str) -> None:
    first, second = new_save(tmp_path, path, seed), new_save(tmp_path, path, seed)
    assert load_save(first).encounter.seed == seed
    assert dice(first) == dice(second)


def test_play_new_writes_a_fresh_seed_not_one(tmp_path: Path, no_app: list[Path]) -> None:
    seeds = {load_save(new_save(tmp_path, "play")).encounter.seed for _ in range(3)}
    assert len(seeds) == 3 and 1 not in seeds


def test_seed_is_refused_for_a_save_that_exists(tmp_path: Path, no_app: list[Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    save = new_save(tmp_path, "play")
    assert main(["play", str(save), "--seed", "5"]) == 1
    assert "--seed 5 applies only to a new save" in capsys.readouterr().err


def test_bare_referee_takes_a_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   no_app: list[Path]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["--seed", "77"]) == 0
    assert load_save(no_app[0]).encounter.seed == 77


def test_the_seed_before_the_command_sets_a_new_saves(tmp_path: Path,
                                                       no_app: list[Path]) -> None:
    save = tmp_path / "early.toml"
    assert main(["--seed", "78", "play", str(save)]) == 0
    assert load_save(save).encounter.seed == 78
