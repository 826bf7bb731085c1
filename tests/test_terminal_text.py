"""Text that cannot drive the terminal (issue 31, point 1): a name, title, note, trigger,
condition, catalogue entry or ruleset name carrying escape sequences, C1 controls or bidi
overrides reaches no output as a control: every command's stdout and stderr, every `-o`
file, the app's screen and the players' view hold none but newline and tab; text typed on
the command line with a control character is refused; Markdown cannot be injected."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.engine.text import markdown_text, shown, source_may_hold_controls
from referee.session.files import load_save, parse_toml
from referee.session.store import Session
from referee.session.table import Table
from referee.session.writer import string
from tests.conftest import ROOT

# what may never reach an output: C0 but newline and tab, DEL, C1, bidi controls
BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOLE = "@@H@@"
NASTY = ("\x1b]0;PWNED\x07\x1b]52;c;aGVsbG8=\x07\x1b[2J\x9b31m\u202eevil\u2066\r\b\x7f"
         "\x1bP+q\x1b\\ [link](http://x) <b>&amp; *em* `code`")


def hostile_save(folder: Path) -> Path:
    """The demo played a little, with HOLE in a note, a trigger, a condition and an end
    note (the header's strings are swapped by `filled`)."""
    path = folder / "template.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    session = Session.open(path)
    table = Table(session, random.Random(1))
    table.note(HOLE)
    for actor in list(table.fight.roster):
        action = "D" if actor in ("zed", "shaman", "mira", "gob3") else "G"
        extra = {"prepared": True, "trigger": HOLE} if actor == "brann" else {}
        table.declare(actor, action, **{**table.prefill(actor, action), **extra})
    table.roll_initiative()
    for _ in range(3):
        if table.current_beat() is not None:
            table.resolve_next()
    table.damage("gob1", 20, source="brann")
    table.condition("zed", HOLE, rounds=2)
    table.end(note=HOLE)
    session.close()
    return path


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> str:
    return hostile_save(tmp_path_factory.mktemp("template")).read_text(encoding="utf-8")


def toml_string(text: str, style: int) -> str:
    """`text` as a TOML string three ways: the writer's \\u escapes (C1 and bidi raw),
    TOML 1.1's \\e and \\xHH, and \\U for everything outside ASCII's printables."""
    if style == 0:
        return string(text)
    out = []
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif code == 0x1B and style == 1:
            out.append("\\e")
        elif (code < 0x20 or 0x7F <= code < 0x100) and style == 1:
            out.append(f"\\x{code:02x}")
        elif code < 0x20 or code >= 0x7F:
            out.append(f"\\U{code:08x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def filled(template: str, text: str, style: int) -> str:
    quoted = toml_string(text, style)
    out = template.replace(f'"{HOLE}"', quoted)
    for plain in ("Goblins at the ford", "The party", "Goblins", "Brann the fighter",
                  "long sword", "Goblin 1"):
        out = out.replace(f'"{plain}"', quoted if plain != "Goblins" else toml_string(
            text + " ", style))  # two sides of one name are allowed, but not needed
    return out


def outputs(save: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Every headless command's stdout and stderr on the save, and each -o file."""
    found: dict[str, str] = {}
    party = folder / "party.toml"
    recap = folder / "recap.md"
    for argv in (["check"], ["plan"], ["plan", "--json"], ["plan", "--round", "1"],
                 ["replay"], ["replay", "--json"], ["replay", "--to", "5"],
                 ["export", "--markdown"], ["export", "--markdown", "-o", str(recap)],
                 ["party", "-o", str(party)], ["act"], ["morale", "--actor", "gob2"]):
        argv = [argv[0], str(save), *argv[1:]]
        main(argv)
        out, err = capsys.readouterr()
        found[" ".join(argv[:1] + argv[2:]) + " (stdout)"] = out
        found[" ".join(argv[:1] + argv[2:]) + " (stderr)"] = err
    for written in (party, recap):
        if written.exists():
            found[written.name] = written.read_text(encoding="utf-8")
            written.unlink()
    if party.exists():
        pass
    return found


def no_controls(found: dict[str, str]) -> None:
    for where, text in found.items():
        bad = BAD.search(text)
        assert bad is None, (where, repr(text[max(0, bad.start() - 40): bad.end() + 40]))


def test_shown_draws_every_control_visibly():
    assert shown("a\x1b[2Jb") == "a\u241b[2Jb"
    assert shown("\x9b31m") == "\\u009b31m"
    assert shown("\u202eevil\u2069") == "\\u202eevil\\u2069"
    assert shown("\x7f\x00\r\b") == "\u2421\u2400\u240d\u2408"
    assert shown("line one\nline\ttwo") == "line one\nline\ttwo"
    assert shown("Grünwald ⚔ 蛇") == "Grünwald ⚔ 蛇"
    assert BAD.search(shown(NASTY)) is None


def test_markdown_text_cannot_make_a_link_a_tag_a_heading_or_a_list():
    assert markdown_text("[x](http://evil)") == "\\[x\\](http://evil)"
    assert markdown_text("<img src=x onerror=alert(1)>") == \
        "&lt;img src=x onerror=alert(1)&gt;"
    assert markdown_text("# title") == "\\# title"
    assert markdown_text("- item") == "\\- item"
    assert markdown_text("1. first") == "1\\. first"
    assert markdown_text("a\n# b") == "a # b"
    assert markdown_text("*b* _i_ `c` ~~s~~") == "\\*b\\* \\_i\\_ \\`c\\` \\~\\~s\\~\\~"
    assert markdown_text("Goblin 1") == "Goblin 1"


def test_the_scan_of_a_file_sees_every_way_toml_writes_a_control():
    for text in ("\x1b", "\x9b", "\u202e", "\x7f", "\r", "\b"):
        for style in (0, 1, 2):
            source = f"a = {toml_string(text, style)}"
            assert source_may_hold_controls(source), source
            assert BAD.search(json.dumps(parse_toml(source, "x"), ensure_ascii=False)) is None
    assert not source_may_hold_controls('a = "plain text\\n with a \\"quote\\" and é"\n')
    assert not source_may_hold_controls('a = "a shown C1 written back: \\\\u009b"')


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.one_of(st.sampled_from(["\\", "\x1b", "\x9b", "\u202e", "\x7f", "\r",
                                                "\b", "\x0c", "u", "e", "x", "0", "9", "b"]),
                              st.characters(exclude_categories=["Cs"]))),
       style=st.integers(0, 2))
def test_the_scan_never_misses_a_control_a_parsed_string_holds(text, style):
    source = f"a = {toml_string(text, style)}"
    if BAD.search(text):
        assert source_may_hold_controls(source)
    assert BAD.search(parse_toml(source, "x")["a"]) is None


def test_a_hostile_save_reaches_no_output_as_a_control(template, tmp_path, capsys):
    save = tmp_path / "ford.toml"
    save.write_text(filled(template, NASTY, 0), encoding="utf-8")
    found = outputs(save, tmp_path, capsys)
    assert "ok" in found["check (stdout)"], found["check (stderr)"]
    assert "\u241b]0;PWNED" in found["replay (stdout)"]  # shown, not dropped
    assert "PWNED" in found["party.toml"]
    recap = found["recap.md"]
    assert "<b>" not in recap and "[link](" not in recap and "\\[link\\](" in recap
    no_controls(found)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(st.sampled_from(
    ["\x1b", "\x9b", "\x07", "\r", "\b", "\x7f", "\x00", "\x85", "\u202e", "\u2066", "\t",
     "\n", "[", "]", "(", "<", "&", "#", "*", "a", "é", " ", "\\", '"', "0", ";"]),
    min_size=1, max_size=24).filter(lambda t: t.strip() != ""),
    style=st.integers(0, 2))
def test_any_text_in_any_field_reaches_no_output_as_a_control(template, tmp_path, capsys,
                                                              text, style):
    save = tmp_path / "ford.toml"
    save.write_text(filled(template, text, style), encoding="utf-8")
    no_controls(outputs(save, tmp_path, capsys))


def test_catalogues_rosters_and_rulesets_reach_no_output_as_a_control(tmp_path, capsys):
    quoted = string(NASTY)
    catalogue = tmp_path / "mine.monsters.toml"
    catalogue.write_text(
        'format = "referee-catalogue"\nruleset = "demon-idol"\nkind = "monsters"\n\n'
        f'[[entries]]\nname = {quoted}\nhit_dice = "1"\nhp = "1d8"\nmove = 6\n'
        f'weapons = [ {{ name = {quoted}, speed_factor = 3, damage = "1d6" }} ]\n',
        encoding="utf-8")
    roster = tmp_path / "party.toml"
    roster.write_text(
        f'format = "referee-roster"\nruleset = "demon-idol"\ntitle = {quoted}\n\n'
        f'[[sides]]\nid = "p"\nname = {quoted}\n\n'
        f'[[combatants]]\nid = "a"\nname = {quoted}\nside = "p"\nhp = 5\n', encoding="utf-8")
    ruleset = tmp_path / "house.toml"
    ruleset.write_text((ROOT / "rulesets" / "demon-idol.toml").read_text().replace(
        'name = "Demon Idol"', f"name = {quoted}"), encoding="utf-8")
    save = tmp_path / "ford.toml"
    save.write_text((ROOT / "saves" / "demo.toml").read_text().replace(
        'ruleset = "demon-idol"', 'ruleset = "house.toml"'), encoding="utf-8")
    found = {}
    for argv in (["check", str(catalogue)], ["check", str(roster)], ["check", str(ruleset)],
                 ["catalogue", "demon-idol", "--file", str(catalogue)],
                 ["catalogue", "demon-idol", shown(NASTY).strip(), "--file", str(catalogue)],
                 ["plan", str(save)], ["replay", str(save)],
                 ["export", str(save), "--markdown"],
                 ["add", str(save), shown(NASTY).strip(), "--side", "goblins",
                  "--file", str(catalogue)]):
        code = main(argv)
        out, err = capsys.readouterr()
        found[" ".join(argv[:2]) + " (stdout)"] = out
        found[" ".join(argv[:2]) + " (stderr)"] = err
        if argv[0] != "catalogue" or len(argv) > 4:
            assert code in (0, 1), (argv, err)
    assert "\u241b]0;pwned" in found[f"add {save} (stdout)"].lower()
    no_controls(found)


def test_an_argument_with_a_control_character_is_refused(tmp_path, capsys):
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    before = save.read_bytes()
    for bad in ("gob\x1b]0;x\x07", "\x9b2J", "a\u202eb"):
        code = main(["add", str(save), "goblin", "--side", bad])
        out, err = capsys.readouterr()
        assert code == 2 and "control character" in err, err
        assert BAD.search(out + err) is None
    assert save.read_bytes() == before


def test_a_save_rewritten_from_hostile_text_holds_it_shown(template, tmp_path):
    """What was shown at load is what a rewrite (save as) keeps: visible, never raw."""
    save = tmp_path / "ford.toml"
    save.write_text(filled(template, NASTY, 1), encoding="utf-8")
    session = Session.open(save)
    session.save_as(tmp_path / "copy.toml")
    session.close()
    copy = (tmp_path / "copy.toml").read_text(encoding="utf-8")
    assert BAD.search(copy) is None and not source_may_hold_controls(copy)
    assert load_save(tmp_path / "copy.toml").encounter.title == shown(NASTY)


async def test_the_app_and_the_players_view_show_no_control(template, tmp_path):
    from referee.app.app import RefereeApp
    from referee.app.watch import WatchApp
    from referee.session.follow import players_view
    from tests.test_players_view import svg_text

    save = tmp_path / "ford.toml"
    save.write_text(filled(template, NASTY, 0).replace(
        '"type" = "end"', '"type" = "note"\n"text" = "x"').replace('"follows" = true\n', "")
        .replace('"note" = ' + string(NASTY), '"hidden" = false'), encoding="utf-8")
    load_save(save)  # it opens
    app = RefereeApp(save, tmp_path, random.Random(3))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = svg_text(app.export_screenshot())
        assert "PWNED" in screen
        assert BAD.search(screen) is None, repr(screen)
    watch = WatchApp(save, poll=30)
    async with watch.run_test(size=(160, 50)) as pilot:
        watch.follow()
        await pilot.pause()
        assert watch.follower.fight is not None
        model = players_view(watch.follower.fight, watch.follower.title, watch.follower.told)
        text = svg_text(watch.export_screenshot()) + "\n" + model.text()
        assert "PWNED" in text
        assert BAD.search(text) is None, repr(text)


async def test_a_form_refuses_a_pasted_control_character(tmp_path):
    from referee.app.app import RefereeApp
    from referee.app.forms import FormScreen

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    before = save.read_bytes()
    app = RefereeApp(save, tmp_path, random.Random(1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("N")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-text").value = "the title is \x1b]0;PWNED\x07 now"  # as pasted
        await pilot.press("enter")
        assert app.screen is form  # kept open, the reason under the field
        assert "a control character (\u241b) is not allowed" in form.fault()
    assert save.read_bytes() == before


async def test_a_save_named_with_a_control_is_replayed_with_its_name_shown(tmp_path):
    from referee.app.app import RefereeApp
    from referee.app.replay import ReplayScreen
    from tests.test_players_view import svg_text

    demo = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", demo)
    hostile = tmp_path / "x\x1b]0;PWNED\x07.toml"
    shutil.copyfile(demo, hostile)
    app = RefereeApp(demo, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = ReplayScreen(load_save(hostile))
        await app.push_screen(screen)
        await pilot.pause()
        assert "PWNED" in screen.sub_title and BAD.search(screen.sub_title) is None
        assert BAD.search(svg_text(app.export_screenshot())) is None
