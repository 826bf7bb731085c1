"""The players' view (`referee watch`, served by `referee serve`): it follows the save
live, survives the file being replaced, shows a notice when it is gone, and never shows
an enemy's exact hit points or a declaration before initiative is in."""

from __future__ import annotations

import html
import os
import random
import re
import shutil
import socket
import time
from pathlib import Path

import pytest

from referee.cli import main
from referee.session.follow import Follower, hide_hit_points, players_view
from referee.session.store import Session, write_atomic
from referee.session.table import Table
from referee.session.view import declared_text
from tests.conftest import ROOT

MY_FILES = ["referee/session/follow.py", "referee/app/watch.py", "referee/cli/views.py"]


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return path


def svg_text(svg: str) -> str:
    text = html.unescape(" ".join(re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S)))
    return text.replace("\xa0", " ")


def leaks(table: Table, text: str) -> list[str]:
    """What `text` shows that the players may not see."""
    fight = table.fight
    found = []
    for cid, status in fight.status.items():
        side = fight.encounter.side(fight.roster[cid].side)
        if side is not None and side.players:
            continue
        for figure in (f"{status.hp}/{status.max_hp}", f"hp {status.hp}", "hit points"):
            if figure in text:
                found.append(f"{cid}: {figure}")
    if table.initiative_due():
        for cid, decl in table.declared().items():
            said = declared_text(fight, cid, decl)
            if said in text:
                found.append(f"{cid} declared {said}")
    return found


async def test_a_whole_demo_round_never_shows_enemy_hit_points_or_secrets(save: Path):
    from referee.app.watch import WatchApp

    table = Table(Session.open(save), random.Random(1))
    app = WatchApp(save, poll=30)  # the test looks itself after every event
    frames = 0
    async with app.run_test(size=(160, 60)) as pilot:

        async def frame() -> str:
            nonlocal frames
            app.follow()
            await pilot.pause()
            frames += 1
            assert app.follower.fight is not None
            assert len(app.follower.fight.log) == len(table.fight.log)
            model = players_view(app.follower.fight, app.follower.title, app.follower.told)
            text = svg_text(app.export_screenshot()) + "\n" + model.text()
            assert leaks(table, text) == [], text
            return text

        text = await frame()
        assert "Brann the fighter" in text and "round 1" in text
        for actor in list(table.fight.roster):
            action = "D" if actor in ("zed", "shaman") else "G"
            table.declare(actor, action, **table.prefill(actor, action))
            text = await frame()
            assert "declared ✓" in text and "secret until initiative" in text
        table.enter_initiative({"party": 4, "goblins": 2})
        text = await frame()
        assert "▶" in text and "long sword" in text  # public once initiative is in
        hurt = False
        while table.current_beat() is not None:
            for actor in table.acting():
                decl = table.declared().get(actor)
                if decl and decl.target and table.fight.alive(decl.target[0]) and not hurt:
                    table.damage(decl.target[0], 3, source=actor)
                    await frame()
                    hurt = True
            table.resolve_next()
            await frame()
        table.condition("zed", "deafened", rounds=2)
        text = await frame()
        assert "deafened" in text
        table.damage("gob3", 50, source="brann")
        text = await frame()
        assert "Goblin 3 dies" in text
        table.undo()
        await frame()
        table.next_round()
        text = await frame()
        assert "round 2" in text
    table.session.close()
    assert frames > 15


def test_the_follower_reads_only_what_was_appended(save: Path):
    follower = Follower(save)
    assert follower.poll() and follower.fight is not None
    table = Table(Session.open(save), random.Random(1))
    first = follower.fight
    table.declare("brann", "G", **table.prefill("brann", "G"))
    assert follower.poll() and follower.fight is first  # appended to, not reloaded
    assert follower.poll() is False  # nothing new
    table.undo()
    assert follower.poll() and follower.fight is first
    assert len(first.log) == len(table.fight.log) and not table.declared()
    table.session.close()


def test_save_as_compaction_deletion_and_garbage(save: Path, tmp_path: Path):
    follower = Follower(save)
    follower.poll()
    table = Table(Session.open(save), random.Random(1))
    table.declare("brann", "G", **table.prefill("brann", "G"))
    follower.poll()
    table.session.close()
    text = save.read_text()
    write_atomic(save, text)  # a compaction or repair: a new file in its place
    assert follower.poll() and follower.notice == ""
    assert len(follower.fight.log) == 1  # type: ignore[union-attr]
    save.unlink()
    assert follower.poll() and "gone" in follower.notice
    assert follower.fight is not None  # the last fight stays on screen under the notice
    save.write_text("this is = = not a save")
    assert follower.poll() and "TOML" in follower.notice
    save.write_text(text.split("\n[[events]]")[0])  # back, shorter than before
    assert follower.poll() and follower.notice == ""
    assert follower.fight is not None and follower.fight.log == []
    moved = tmp_path / "elsewhere.toml"
    save.rename(moved)
    shutil.copyfile(ROOT / "saves" / "count-up.toml", save)  # another fight in its place
    assert follower.poll() and follower.fight.ruleset.id != "" and follower.notice == ""


def test_twenty_followers_keep_up_with_the_referee(save: Path):
    """20 views on one save (20 followers in one process: one per browser is what
    `referee serve` runs) each catch up within half a second of every event."""
    followers = [Follower(save) for _ in range(20)]
    for follower in followers:
        follower.poll()
    table = Table(Session.open(save), random.Random(1))
    acts = [lambda a=a: table.declare(a, "G", **table.prefill(a, "G"))
            for a in ("brann", "mira", "odo", "gob1", "gob2", "gob3", "ogre")]
    acts += [lambda: table.declare("zed", "D", **table.prefill("zed", "D")),
             lambda: table.declare("shaman", "D", **table.prefill("shaman", "D")),
             lambda: table.enter_initiative({"party": 4, "goblins": 2}),
             table.resolve_next, lambda: table.damage("gob1", 2, source="brann"),
             table.undo, table.resolve_next]
    for act in acts:
        act()
        start = time.monotonic()
        for follower in followers:
            assert follower.poll()
        assert time.monotonic() - start < 0.5
        for follower in followers:
            assert follower.fight is not None
            assert len(follower.fight.log) == len(table.fight.log)
    views = {players_view(f.fight, f.title, f.told).text() for f in followers}  # type: ignore[arg-type]
    assert len(views) == 1  # every browser sees the same
    table.session.close()


def test_hit_point_figures_are_taken_out_of_log_lines():
    assert hide_hit_points("Goblin 2 dies (-20 hit points (DI-19))") == "Goblin 2 dies (DI-19)" \
        or "20" not in hide_hit_points("Goblin 2 dies (-20 hit points (DI-19))")
    assert "3" not in hide_hit_points("A hits B: hit 5, 2 soaked: wounded, hp 3")
    assert hide_hit_points("X takes 5 damage (hp 3/8)") == "X takes 5 damage"
    assert hide_hit_points("round 2 begins") == "round 2 begins"


def test_players_see_own_hit_points_only_when_the_ruleset_says_so(save: Path):
    if "players = true" not in save.read_text():  # the demo's party is the players' already
        save.write_text(save.read_text().replace('id = "party"\n',
                                                 'id = "party"\nplayers = true\n'))
    follower = Follower(save)
    follower.poll()
    fight = follower.fight
    assert fight is not None
    assert not any("/" in r.state for r in players_view(fight, "").rows)
    house = save.parent / "house.toml"  # a house copy of the ruleset that says so
    house.write_text('players_see_own = "hit points"\n'
                     + (ROOT / "rulesets" / "demon-idol.toml").read_text())
    save.write_text(save.read_text().replace('ruleset = "demon-idol"', 'ruleset = "house.toml"'))
    follower = Follower(save)
    follower.poll()
    fight = follower.fight
    assert fight is not None and fight.ruleset.tracker.players_see_own == "hit points"
    rows = {r.key: r for r in players_view(fight, "").rows}
    players = [cid for cid in fight.roster
               if (side := fight.encounter.side(fight.roster[cid].side)) and side.players]
    assert players and all(rows[cid].state.startswith("hp ") for cid in players)
    assert all(not rows[cid].state.startswith("hp ") for cid in rows if cid not in players)


def test_the_view_binds_nothing_but_scrolling_and_quitting():
    from referee.app.watch import WatchApp

    actions = {b.action.split("(")[0] for b in WatchApp.BINDINGS}  # type: ignore[union-attr]
    assert actions == {"quit", "scroll"}


def test_no_ruleset_is_named_in_the_players_view_code():
    from referee.rulesets import available, package_name

    ids = [name for logic in available() for name in {logic, package_name(logic)}]
    for name in MY_FILES[:2]:
        text = (ROOT / name).read_text()
        assert [i for i in ids if i in text] == [], name


# -- bad input: one clear message each -------------------------------------------------


def test_a_save_that_does_not_exist(tmp_path: Path, capsys):
    for command in ("watch", "serve"):
        assert main([command, str(tmp_path / "nope.toml")]) == 1
        err = capsys.readouterr().err
        assert err.startswith("referee: ") and "no such file" in err and err.count("\n") == 1


def test_a_port_in_use(save: Path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", str(save), "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err == f"referee: port {port} on 127.0.0.1 is in use: pick another with --port\n"


@pytest.mark.parametrize("host", ["192.0.2.77", "no-such-host.invalid"])
def test_a_host_that_cannot_be_bound(save: Path, host: str, capsys):
    assert main(["serve", str(save), "--host", host, "--port", "8123"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("referee: cannot listen on ") and host in err
    assert err.count("\n") == 1


def test_serving_never_writes_to_the_save(save: Path):
    before = (save.read_bytes(), os.stat(save).st_mtime_ns)
    follower = Follower(save)
    for _ in range(3):
        follower.poll()
    assert (save.read_bytes(), os.stat(save).st_mtime_ns) == before


# -- issue 30 B18: what the players never saw, names, and the tracker first ------------


def test_no_undo_line_for_what_the_players_never_saw(save: Path):
    """An undo (or redo) of a hidden note or a morale result tells the players nothing;
    one of a line they saw says which line, never an event's number."""
    table = Table(Session.open(save), random.Random(1))
    table.note("the ogre is a coward", hidden=True)
    table.undo()
    table.command("morale", "gob1", {"passed": False, "roll": 11, "target": 7})
    table.undo()
    table.session.close()
    follower = Follower(save)
    follower.poll()
    assert follower.fight is not None
    log = players_view(follower.fight, follower.title, follower.told).log
    assert not [line for line in log if "undo" in line or "redo" in line], log
    table = Table(Session.open(save), random.Random(1))
    table.redo()  # brings back the morale result: unseen as well
    table.note("the bridge creaks")
    table.undo()
    table.session.close()
    follower.poll()
    log = players_view(follower.fight, follower.title, follower.told).log
    assert log[-2:] == ["note: the bridge creaks", "undo: takes back “note: the bridge creaks”"]
    assert not any("redo" in line or "event" in line for line in log), log


def test_the_order_of_play_says_names_never_ids(save: Path):
    table = Table(Session.open(save), random.Random(1))
    for actor in list(table.fight.roster):
        action = "D" if actor in ("zed", "shaman") else "G"
        table.declare(actor, action, **table.prefill(actor, action))
    table.enter_initiative({"party": 4, "goblins": 2})
    table.resolve_next()
    ids = list(table.fight.roster)
    names = sorted((c.name for c in table.fight.roster.values()), key=len, reverse=True)
    table.session.close()
    follower = Follower(save)
    follower.poll()
    assert follower.fight is not None
    shown = players_view(follower.fight, follower.title, follower.told)
    said = [f"{beat.label} {beat.actions}" for beat in shown.plan] + shown.log
    assert any("Goblin 1: G" in line for line in said), said
    assert any("resolved: Zed the magic-user: D" in line for line in said), said
    for line in said:
        for name in names:  # what is left once the names are out: no id
            line = line.replace(name, "·")
        assert not [cid for cid in ids if re.search(rf"\b{cid}:", line)], line


async def test_at_80x24_the_view_opens_on_the_tracker_with_the_newest_line_in_view(save: Path):
    from textual.containers import VerticalScroll

    from referee.app.watch import WatchApp

    table = Table(Session.open(save), random.Random(1))
    for number in range(15):
        table.note(f"note {number}")
    table.session.close()
    app = WatchApp(save)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.5)
        screen = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "Combatants" in screen and "Brann the" in screen, screen
        assert "note 14" in screen, screen  # the newest line
        assert app.query_one("#body", VerticalScroll).scroll_y == 0
        table = Table(Session.open(save), random.Random(1))
        table.note("a newer one")
        table.session.close()
        deadline = time.monotonic() + 5
        while "a newer one" not in screen and time.monotonic() < deadline:
            await pilot.pause(0.2)
            screen = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "a newer one" in screen and "Brann the" in screen, screen
