"""A tool that behaves like one (issue 35): `--version`, the manual page, shell completion,
where new saves go (a campaign directory or the platform's data directory), the settings
file (strict, written by the app), the recent saves ctrl+o opens on, NO_COLOR and Textual's
own variables. Every test has its own XDG directories (conftest's `own_home`)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.files import OpenScreen
from referee.cli import main, play
from referee.session import places
from referee.session.config import Config, load_config, save_setting
from referee.session.files import LoadError
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "demo.toml"
SIDE_D6 = ROOT / "saves" / "side-d6.toml"


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- version and manual page ---------------------------------------------------------------


def test_version_is_the_packages(capsys):
    from importlib.metadata import version

    import referee

    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out == f"referee {version('referee')}\n"
    assert version("referee") == referee.__version__  # one source: the package's


def test_manual_page_from_the_parser(capsys):
    code, out, _ = run(["--help-man"], capsys)
    assert code == 0 and out.startswith('.TH REFEREE "1"')
    for part in (".SH SYNOPSIS", ".SH\nCOMMANDS", ".SH FILES", ".SH ENVIRONMENT", "NO_COLOR",
                 "config.toml", r"\fBreferee\fR \fI\,plan\/\fR", "d%,"):
        assert part in out, part
    if shutil.which("man"):  # the page reads as a page
        shown = subprocess.run(["man", "-l", "-"], input=out, capture_output=True,
                               text=True, env={**os.environ, "MANWIDTH": "80"})
        assert shown.returncode == 0 and "referee plan" in shown.stdout


def test_plan_imports_none_of_the_tools_libraries():
    """plan --json starts as quickly as before: no settings, completion or manual page."""
    code = ("import sys; from referee.cli import main; main(['plan', 'saves/demo.toml', "
            "'--json']); print('\\n'.join(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=120).stdout.split()
    heavy = ("platformdirs", "argcomplete", "argparse_manpage", "referee.session.config",
             "referee.session.places", "textual")
    assert not [m for m in out if m.split(".")[0] in heavy or m in heavy]


# -- shell completion ----------------------------------------------------------------------


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_for_each_shell(shell, capsys, tmp_path):
    code, out, _ = run(["completion", shell], capsys)
    assert code == 0 and "referee" in out and "_ARGCOMPLETE" in out
    script = tmp_path / f"referee.{shell}"
    script.write_text(out)
    checker = "bash" if shell == "bash" else shell
    if shell == "bash" or shutil.which(checker):  # bash always: the shell parses it
        parsed = subprocess.run([checker, "-n", str(script)], capture_output=True, text=True)
        assert parsed.returncode == 0, parsed.stderr


BASH_TAB = """
source "$1"
tab() {
  COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$2"
  [[ "$2" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
  _python_argcomplete referee
  echo "${COMPREPLY[*]}"
}
tab x "referee pl"
tab x "referee declare-"
tab x "referee hit "
tab x "referee act fight.toml "
tab x "referee plan --"
"""


def test_bash_completes_commands_acts_and_saves(tmp_path):
    """The script sourced in a real bash, Tab pressed: it runs `referee` as a shell would."""
    referee = shutil.which("referee", path=str(Path(sys.executable).parent))
    assert referee is not None
    script = tmp_path / "referee.bash"
    script.write_text(subprocess.run([referee, "completion", "bash"], capture_output=True,
                                     text=True, check=True).stdout)
    shutil.copyfile(SIDE_D6, tmp_path / "fight.toml")
    (tmp_path / "notes.txt").write_text("not a save")
    env = {**os.environ, "PATH": f"{Path(referee).parent}{os.pathsep}{os.environ['PATH']}"}
    out = subprocess.run(["bash", "-c", BASH_TAB, "tab", str(script)], capture_output=True,
                         text=True, cwd=tmp_path, env=env, timeout=120)
    lines = out.stdout.splitlines()
    assert len(lines) == 5, out
    assert set(lines[0].split()) == {"plan", "play"}
    assert {"declare-G", "declare-cast"} <= set(lines[1].split())  # two rulesets' acts
    assert lines[2].split() == ["fight.toml"]  # a save: .toml files, not notes.txt
    assert {"initiative", "hit", "miss", "end", "undo"} <= set(lines[3].split())
    assert "declare-G" not in lines[3]  # only that save's ruleset's acts (side-d6)
    assert {"--json", "--round"} <= set(lines[4].split())


# -- where a new save goes -----------------------------------------------------------------


@pytest.fixture
def no_app(monkeypatch):
    """The app is recorded instead of started."""
    started: list[tuple[Path, Config | None]] = []
    monkeypatch.setattr(play, "open_app", lambda path, setup, own=(), config=None, read=None:
                        started.append((path, config)) or 0)
    return started


def test_outside_a_campaign_the_demo_copy_goes_to_the_data_directory(tmp_path, monkeypatch,
                                                                     no_app, own_home):
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    (path, _), = no_app
    assert path.parent == own_home / "data" / "referee" / "saves" == places.data_saves()
    assert path.name.startswith("demo-") and not (tmp_path / "saves").exists()
    assert list(tmp_path.iterdir()) == []  # nothing written where the referee stood


def test_in_a_campaign_directory_the_demo_copy_goes_to_its_saves(tmp_path, monkeypatch,
                                                                 no_app):
    (tmp_path / "saves").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    (path, _), = no_app
    assert path.parent.resolve() == (tmp_path / "saves").resolve()
    assert not places.data_saves().exists()


def test_the_configured_campaign_takes_new_saves_and_ruleset(tmp_path, monkeypatch, no_app):
    campaign = tmp_path / "ford"
    save_setting("campaign", str(campaign))
    save_setting("ruleset", "side-d6")
    here = tmp_path / "elsewhere"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main([]) == 0
    (path, config), = no_app
    assert path.parent == campaign / "saves" and 'ruleset = "side-d6"' in path.read_text()
    assert config is not None and config.campaign == str(campaign)
    assert main(["play", "new.toml"]) == 0  # a save named by path stays where it is named
    assert no_app[-1][0] == Path("new.toml") and (here / "new.toml").is_file()
    assert 'ruleset = "side-d6"' in (here / "new.toml").read_text()  # the config's ruleset


# -- the settings file ---------------------------------------------------------------------


def test_a_missing_settings_file_is_no_settings():
    config = load_config()
    assert config.path == places.config_path() and not config.path.exists()
    assert (config.theme, config.campaign, config.ruleset, config.view_port) == (None,) * 4


@pytest.mark.parametrize(("text", "line", "key", "says"), [
    ('theme = "nord"\ncolour = "red"\n', 2, "colour", "unknown key 'colour' (the keys are:"),
    ('\n\nview_port = "eight"\n', 3, "view_port", "takes a port, a whole number from 1"),
    ('view_port = 70000\n', 1, "view_port", "takes a port"),
    ('[view]\nport = 8000\n', 1, "view", "unknown key 'view'"),
    ('theme = "nord\n', 1, "", "TOML syntax error"),
])
def test_a_bad_setting_is_one_line_naming_file_line_and_key(text, line, key, says, capsys,
                                                            monkeypatch, tmp_path, no_app):
    path = places.config_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(LoadError):
        load_config()
    monkeypatch.chdir(tmp_path)
    for argv in (["config"], [], ["play", "x.toml"], ["serve", str(DEMO)]):
        code, out, err = run(argv, capsys)
        assert code == 1 and out == "" and err.count("\n") == 1, (argv, err)
        assert err.startswith(f"referee: {path}:{line}: {key + ': ' if key else ''}"), err
        assert says in err, err
    assert no_app == [] and not (tmp_path / "x.toml").exists()  # nothing started or written


def test_an_unknown_theme_is_refused_before_the_app(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(RefereeApp, "run", lambda self: pytest.fail("the app must not run"))
    save_setting("theme", "purple-haze")
    shutil.copyfile(DEMO, tmp_path / "ford.toml")
    code, _, err = run(["play", str(tmp_path / "ford.toml")], capsys)
    path = places.config_path()
    assert code == 1 and err.startswith(f"referee: {path}:1: theme: no theme 'purple-haze'")


def test_writing_a_setting_keeps_the_rest_of_the_file():
    path = places.config_path()
    path.parent.mkdir(parents=True)
    path.write_text("# my settings\nview_port = 8080  # the TV's\ntheme = \"nord\"\n")
    save_setting("theme", "gruvbox")
    save_setting("campaign", "/games/ford")
    assert path.read_text() == ('# my settings\nview_port = 8080  # the TV\'s\n'
                                'theme = "gruvbox"\ncampaign = "/games/ford"\n')
    config = load_config()
    assert (config.theme, config.view_port, config.campaign) == ("gruvbox", 8080,
                                                                 "/games/ford")


def test_config_command_says_where_files_go(capsys, tmp_path, monkeypatch, own_home):
    monkeypatch.chdir(tmp_path)
    save_setting("view_port", 8123)
    code, out, _ = run(["config"], capsys)
    assert code == 0
    assert f"settings:      {places.config_path()}\n" in out and "view_port   = 8123" in out
    assert f"new saves go:  {own_home / 'data' / 'referee' / 'saves'}" in out
    assert run(["config", "--path"], capsys)[1] == f"{places.config_path()}\n"


def test_serve_takes_its_host_and_port_from_the_settings(monkeypatch):
    from referee.cli import views

    served = []
    monkeypatch.setattr(views, "cmd_serve", lambda *args: served.append(args[1:3]) or 0)
    assert main(["serve", str(DEMO)]) == 0
    save_setting("view_port", 8123)
    save_setting("view_host", "0.0.0.0")
    assert main(["serve", str(DEMO)]) == 0
    assert main(["serve", str(DEMO), "--port", "9000", "--host", "127.0.0.1"]) == 0
    assert served == [("127.0.0.1", 8000), ("0.0.0.0", 8123), ("127.0.0.1", 9000)]


# -- the app: theme kept, NO_COLOR, Textual's variables -------------------------------------


def app_on(tmp_path: Path, settings: Config | None = None) -> RefereeApp:
    save = tmp_path / "ford.toml"
    if not save.exists():
        shutil.copyfile(DEMO, save)
    return RefereeApp(save, tmp_path / "saves", random.Random(1),
                      settings=settings if settings is not None else load_config())


async def test_a_theme_chosen_is_kept_and_opens_next_time(tmp_path):
    app = app_on(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        app.theme = "nord"  # as ctrl+p's "Change theme" sets it
        await pilot.pause()
    assert load_config().theme == "nord"
    assert 'theme = "nord"' in places.config_path().read_text()
    again = app_on(tmp_path)
    async with again.run_test(size=(100, 30)):
        assert again.theme == "nord"


async def test_no_color_draws_every_screen_in_monochrome(tmp_path, monkeypatch):
    """NO_COLOR (Textual's monochrome filter): every screen draws, none stops the app."""
    from textual.filter import Monochrome

    monkeypatch.setenv("NO_COLOR", "1")
    app = app_on(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        for keys in (["ctrl+o"], ["escape", "question_mark"], ["escape", "ctrl+e"],
                     ["escape", "R"], ["escape"]):
            await pilot.press(*keys)
            await pilot.pause(0.2)
            app.save_screenshot(str(tmp_path / "screen.svg"))  # the whole frame drawn
        assert app.no_color and any(isinstance(f, Monochrome) for f in app._filters)


THEMED = """
import asyncio, random, sys
from pathlib import Path
from referee.app import RefereeApp
from referee.session.config import load_config

async def main():
    app = RefereeApp(Path(sys.argv[1]), Path(sys.argv[2]), random.Random(1),
                     settings=load_config())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(app.theme)

asyncio.run(main())
"""


@pytest.mark.parametrize(("variable", "shown"), [(None, "nord"), ("gruvbox", "gruvbox")])
def test_textual_theme_wins_over_the_settings(variable, shown, tmp_path):
    save_setting("theme", "nord")
    shutil.copyfile(DEMO, tmp_path / "ford.toml")
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_THEME"}
    if variable:
        env["TEXTUAL_THEME"] = variable
    out = subprocess.run([sys.executable, "-c", THEMED, str(tmp_path / "ford.toml"),
                          str(tmp_path)], capture_output=True, text=True, cwd=ROOT, env=env,
                         timeout=120)
    assert out.stdout.split()[-1:] == [shown], out.stderr[-2000:]
    assert load_config().theme == "nord"  # the variable is not written as the referee's


# -- ctrl+o: the recent saves, browsing, the campaign directory ------------------------------


def cells(screen: OpenScreen) -> list[list[str]]:
    table = screen.query_one("DataTable")
    return [[str(cell) for cell in table.get_row(key)] for key in table.rows]


async def test_ctrl_o_opens_on_the_recent_saves_most_recent_first(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    old = elsewhere / "bridge.toml"
    shutil.copyfile(SIDE_D6, old)
    over = elsewhere / "over.toml"
    shutil.copyfile(SIDE_D6, over)
    assert main(["initiative", str(over)]) == 0 and main(["end", str(over)]) == 0
    assert main(["initiative", str(old)]) == 0
    fresh = elsewhere / "demo-fresh.toml"  # a copy not played yet, changed last
    shutil.copyfile(DEMO, fresh)
    for path in (old, over, fresh):
        places.remember(path)
    os.utime(old, (1_700_000_000, 1_700_000_000))
    app = app_on(tmp_path)  # opening it puts ford.toml first
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, OpenScreen) and "recent saves" in screen.title
        rows = cells(screen)
        # most recent first, a fight not started after those under way, and the save
        # open now (the most recent of all) last
        assert [row[4] for row in rows] == [str(over), str(old), str(fresh),
                                            str(tmp_path / "ford.toml")]
        assert rows[0][1:3] == ["side-d6", "1 ended"] and rows[1][2] == "1"
        assert rows[2][2] == "0"
        assert rows[3][0] == "Goblins at the ford"
        await pilot.press("enter")  # the cursor starts on the most recent: Enter opens it
        await pilot.pause(0.2)
        assert app.session.path == over
    assert places.recent_saves()[:2] == [over, (tmp_path / "ford.toml").resolve()]


async def test_browse_lists_a_folder_and_makes_it_the_campaign(tmp_path):
    campaign = tmp_path / "ford"
    (campaign / "saves").mkdir(parents=True)
    shutil.copyfile(SIDE_D6, campaign / "saves" / "bridge.toml")
    app = app_on(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause(0.2)
        await pilot.press("b")
        await pilot.pause()
        field = app.screen.query_one("Input")
        field.value = str(campaign)
        await pilot.press("down", "space", "enter")  # "my campaign directory from now on"
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, OpenScreen) and not screen.recent
        assert screen.title == f"referee — saves in {places.shown_path(campaign / 'saves')}"
        assert screen.folder == campaign / "saves"
        assert [row[4] for row in cells(screen)] == ["bridge.toml"]
        assert app.saves == campaign / "saves"
        await pilot.press("enter")  # a listed save opens as from the recent list
        await pilot.pause(0.2)
        assert app.session.path == campaign / "saves" / "bridge.toml"
    assert load_config().campaign_dir == campaign


def test_the_recent_list_keeps_the_newest_once_and_drops_gone_files(tmp_path):
    files = [tmp_path / f"s{n}.toml" for n in range(3)]
    for file in files:
        file.write_text("x")
        places.remember(file)
    places.remember(files[0])
    files[1].unlink()
    assert places.recent_saves() == [files[0], files[2]]
    places.recent_path().write_text("\0garbage\nrelative.toml\n")
    assert places.recent_saves() == []
