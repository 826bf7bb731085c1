"""Table-ready 3 (issue 30), the screen's part: whom a hit or a miss is by and aimed at
(A6, A7), what `E` does to a beat with a hit in it (A8), count-up's `J` (B14),
agility-order's cursor after a tie (B17), footers that say what works (B22) and `?` at
80x24 (B23). Each through the app's own keys, as a referee uses them."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, PlanView, Tracker
from referee.app.widgets.keys import KeyLine
from referee.engine import events as ev
from tests.conftest import ROOT
from tests.test_demon_idol_table import field, form

SMALL, LARGE = (80, 24), (120, 40)


class StillClock:
    def __call__(self) -> float:
        return 1000.0


def app_on(tmp_path: Path, name: str = "demo.toml") -> RefereeApp:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / name, path)
    return RefereeApp(path, tmp_path, random.Random(3), clock=StillClock())


def title(pilot) -> str:
    return str(form(pilot).query_one("#form-title").render())


def redraw(pilot) -> None:
    """What the table did behind the screen's back, drawn (as after any key)."""
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen)
    screen.refresh_view()
    screen.point_at_work()


def log_lines(pilot) -> list[str]:
    return list(pilot.app.screen.query_one(LogView).lines)


def plan_rows(pilot) -> list[tuple[str, ...]]:
    pane = pilot.app.screen.query_one(PlanView)
    return [tuple(text for text, _ in pane.row_cells(n)) for n in range(pane.row_count)]


# A6: a volley's shots, each at its own target


async def test_each_shot_of_a_volley_is_aimed_at_its_own_target(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("mira", "D", weapon="short bow", shots="Goblin 2, Goblin 3")
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        redraw(pilot)
        await pilot.pause()
        await pilot.press("h")
        assert field(pilot, "by").value == "mira"
        assert field(pilot, "target").value == "gob2"  # the first shot's
        field(pilot, "amount").value = "2"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("h")
        assert field(pilot, "by").value == "mira"
        assert field(pilot, "target").value == "gob3"  # the second shot's own target
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("m")  # Mira alone in the beat: the miss is recorded at once
        await pilot.pause()
        miss = table.fight.log[-1]
        assert isinstance(miss, ev.Note) and miss.text == "Mira the ranger misses Goblin 3"
        assert miss.source == "mira" and miss.beat == 1


# A7: several attackers in a beat: the next with nothing recorded; the title follows "by"


async def test_a_hit_defaults_to_the_beats_next_attacker_and_the_title_follows_by(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("odo", "G", weapon="mace", target="gob2")
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        redraw(pilot)
        await pilot.pause()
        assert table.acting() == ["brann", "odo"]
        await pilot.press("h")
        assert field(pilot, "by").value == "brann"
        assert title(pilot) == "Brann the fighter hits: damage"
        field(pilot, "amount").value = "3"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("h")  # Brann's blow is in: Odo's is next
        assert field(pilot, "by").value == "odo"
        assert title(pilot) == "Brother Odo hits: damage"
        assert field(pilot, "target").value == "gob2"
        assert field(pilot, "amount").value == "1d6+1"
        field(pilot, "by").focus()
        await pilot.press("left")  # back to Brann: the title, target and damage follow
        await pilot.pause()
        assert field(pilot, "by").value == "brann"
        assert title(pilot) == "Brann the fighter hits: damage"
        assert field(pilot, "target").value == "gob1"
        assert field(pilot, "amount").value == "1d8"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("m")  # Odo still has nothing recorded: the miss is his
        assert field(pilot, "by").value == "odo"
        assert title(pilot) == "Brother Odo misses"
        assert field(pilot, "target").value == "gob2"


async def test_a_value_the_referee_typed_stays_when_by_changes(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("odo", "G", weapon="mace", target="gob2")
        table.enter_initiative({"party": 5, "goblins": 2})
        redraw(pilot)
        await pilot.pause()
        await pilot.press("h")
        field(pilot, "amount").value = "7"
        field(pilot, "by").focus()
        await pilot.press("right")
        await pilot.pause()
        assert field(pilot, "by").value == "odo"
        assert field(pilot, "amount").value == "7"  # typed: kept
        assert field(pilot, "target").value == "gob2"  # untouched: follows


# A8: E after a hit in the beat under way: that beat is resolved, not skipped


async def test_ending_the_fight_resolves_a_beat_with_a_hit_recorded(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        redraw(pilot)
        await pilot.pause()
        await pilot.press("h")
        field(pilot, "amount").value = "2"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("E")
        field(pilot, "sure").value = True
        await pilot.press("enter")
        await pilot.pause()
        assert table.fight.ended
        rows = plan_rows(pilot)
        first = next(r for r in rows if r[1] == "1")
        second = next(r for r in rows if r[1] == "2")
        assert first[0] == "✓" and "skipped" not in first[2], rows
        assert "[skipped]" in second[2], rows  # the goblin's blow never came
        resolve = [e for e in table.fight.events if isinstance(e, ev.Resolve)]
        assert [r.beat for r in resolve] == [1]
        await pilot.press("ctrl+z")  # one undo takes the end and the resolve back
        await pilot.pause()
        assert not table.fight.ended and table.current_beat() == 1


# B14: count-up's J opens on the latest critical still to be judged


CU_BASES = {"hilde": 1, "tomas": 5, "wren": 6, "grey-wolves": 8, "alpha": 9}
CU_TARGETS = {"hilde": "wolf1", "tomas": "wolf2", "wren": "wolf2", "wolf1": "hilde",
              "wolf2": "hilde", "alpha": "hilde"}


async def test_j_opens_on_the_latest_critical_still_to_be_judged(tmp_path):
    async with app_on(tmp_path, "count-up.toml").run_test(size=SMALL) as pilot:
        table = pilot.app.table
        for actor, target in CU_TARGETS.items():
            table.declare(actor, "attack", target=target)
        table.enter_initiative(CU_BASES)
        table.damage("wolf1", 2, source="hilde", critical=True, values={"critical": True})
        table.damage("wolf2", 30, source="tomas", critical=True, values={"critical": True})
        assert not table.fight.alive("wolf2")  # the last critical killed its target
        redraw(pilot)
        await pilot.pause()
        pilot.app.screen.query_one(Tracker).select("alpha")
        await pilot.press("J")
        defaults = {f.name: f.default for f in form(pilot).spec.fields}
        assert defaults["target"] == "wolf1" and defaults["source"] == "hilde"
        hit = next(e for e in table.fight.events
                   if isinstance(e, ev.Damage) and e.target == "wolf1")
        assert defaults["damage"] == hit.amount
        await pilot.press("enter")  # judged: the next J has nothing left to judge
        await pilot.pause()
        await pilot.press("J")
        defaults = {f.name: f.default for f in form(pilot).spec.fields}
        assert defaults["target"] == "alpha" and defaults["damage"] is None


# B17: agility-order: a tie roll that reorders the lineup moves the cursor to who acts


async def test_a_tie_roll_that_changes_who_acts_moves_the_cursor_there(tmp_path):
    async with app_on(tmp_path, "agility-order.toml").run_test(size=LARGE) as pilot:
        screen = pilot.app.screen
        await pilot.press("n")  # Sable's turn is over: Brann, tied with Vask, is next
        await pilot.pause()
        assert pilot.app.table.acting() == ["brann"] and screen.selected() == "brann"
        await pilot.press("t")
        field(pilot, "brann").value = "4"
        field(pilot, "vask").value = "15"
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.table.acting() == ["vask"]
        assert screen.selected() == "vask"


# B22: footers that say what works; keys that do nothing say why


def footer(pilot) -> list[str]:
    return [key for key, _ in pilot.app.screen.query_one(KeyLine).shown]


def notices(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(RefereeApp, "notify", lambda self, message, **kw: shown.append(
        (str(kw.get("title")), message)))
    return shown


async def test_sanctum_once_the_turn_is_fought_offers_the_end_and_p_where_it_works(tmp_path):
    """F fights the turn: the footer then offers the end, not the fight; r goes on to turn
    2, which lists no combats yet: P is offered there, and opens its form. (One launch:
    the footer after F and P's own test each fought the demo's turn first.)"""
    async with app_on(tmp_path, "sanctum.toml").run_test(size=SMALL) as pilot:
        keys = footer(pilot)
        assert "F" in keys and "O" in keys  # the turn lists its pairs: fight or weigh them
        assert "P" not in keys and "E" not in keys  # listed already; a turn under way
        await pilot.press("F")
        await pilot.pause()
        keys = footer(pilot)
        assert "F" not in keys and "O" not in keys, keys  # every combat of it is fought
        assert "E" in keys and "r" in keys and "P" in keys, keys  # end it, or the next turn
        line = pilot.app.screen.query_one(KeyLine).line().plain
        assert " E  End the fight" in line and " ? " in line, line  # fits at 80 columns
        await pilot.press("r")  # turn 2 lists no combats yet: P lists them
        await pilot.pause()
        assert "P" in footer(pilot) and "F" not in footer(pilot)
        await pilot.press("P")
        assert isinstance(pilot.app.screen, FormScreen)


@pytest.mark.parametrize("name, keys", [("demo.toml", ("i", "r", "n", "h")),
                                        ("agility-order.toml", ("r", "v", "a")),
                                        ("count-up.toml", ("i", "r"))])
async def test_after_the_end_a_key_that_does_nothing_says_why(tmp_path, monkeypatch, name,
                                                              keys):
    shown = notices(monkeypatch)
    async with app_on(tmp_path, name).run_test(size=SMALL) as pilot:
        pilot.app.table.end("they fled")
        redraw(pilot)
        await pilot.pause()
        for key in keys:
            shown.clear()
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(pilot.app.screen, CombatScreen), key
            assert [text for _, text in shown if "the fight is over" in text], (key, shown)
            assert key not in footer(pilot)


async def test_a_key_that_does_nothing_now_says_why(tmp_path, monkeypatch):
    shown = notices(monkeypatch)
    async with app_on(tmp_path).run_test(size=SMALL) as pilot:
        await pilot.press("n")  # initiative is not in
        assert [text for _, text in shown if "initiative first" in text], shown
        shown.clear()
        await pilot.press("ctrl+y")
        assert [text for _, text in shown if "nothing to redo" in text], shown


# B23: `?` at 80x24: down goes to the last key, and no description is cut


def screen_lines(pilot) -> list[str]:
    return [strip.text for strip in pilot.app.screen._compositor.render_strips()]


def box_text(lines: list[str]) -> str:
    """What the help box shows, its lines run together (a wrapped line continues)."""
    bars = str.maketrans("", "", "▀▄▁▂▃▅▆▇▏▕")  # the box's edges and its scrollbar
    inside = [line.split("█")[1].translate(bars) for line in lines if line.count("█") >= 2]
    return " ".join(" ".join(inside).split())


@pytest.mark.parametrize("name", ["demo.toml", "agility-order.toml"])
async def test_help_at_80x24_scrolls_to_its_end_and_cuts_no_word(tmp_path, name):
    from referee.app.help import HelpScreen

    async with app_on(tmp_path, name).run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        rows = help_screen.rows()
        seen = box_text(screen_lines(pilot))
        box = help_screen.query_one("#help")
        for _ in range(80):  # ↓ a line at a time, as far as it goes (80 presses at most)
            await pilot.press("down")
            if box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y:
                break  # at the end: a further ↓ moves nothing
        await pilot.pause()
        assert box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y
        last = box_text(screen_lines(pilot))
        assert last.endswith("ctrl+p the command palette: every action by name"), last
        shown = seen + " " + last
        for _ in range(80):  # and back up, reading every line on the way
            await pilot.press("up")
            await pilot.pause()
            shown += " " + box_text(screen_lines(pilot))
            if box.scroll_y == 0:
                break  # at the top: a further ↑ shows the same lines again
        for key, what in rows:
            assert f"{key} {' '.join(what.split())}" in shown, (key, what)


async def test_a_resolved_beat_with_one_who_could_not_act_is_ticked(tmp_path):
    """A8: the beat's actions were recorded and resolved; the goblin who fell before it
    never acted (skipped): the beat is done, before and after E."""
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("gob1", "G", target="brann")
        table.declare("gob2", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        table.damage("gob1", 7, source="brann")  # falls before the goblins' beat
        table.resolve_next()
        redraw(pilot)
        await pilot.pause()
        assert table.acting() == ["gob1", "gob2"] and table.current_beat() == 2
        await pilot.press("h")
        assert field(pilot, "by").value == "gob2"  # gob1 cannot act: gob2 is next
        field(pilot, "amount").value = "1"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        rows = plan_rows(pilot)
        assert next(r for r in rows if r[1] == "2")[0] == "✓", rows
        await pilot.press("r")  # the next round: its beat 2 is never reached
        await pilot.pause()
        table.declare("gob2", "G", target="brann")
        table.declare("brann", "G", weapon="long sword", target="gob2")
        table.enter_initiative({"party": 2, "goblins": 5})
        redraw(pilot)
        await pilot.press("h")
        assert field(pilot, "by").value == "gob2"
        field(pilot, "amount").value = "1"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("E")
        field(pilot, "sure").value = True
        await pilot.press("enter")
        await pilot.pause()
        rows = plan_rows(pilot)
        assert next(r for r in rows if r[1] == "1")[0] == "✓", rows
        assert next(r for r in rows if r[1] == "2")[0] == "", rows  # never reached
