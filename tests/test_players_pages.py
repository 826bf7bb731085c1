"""The players' own pages (issue 34): the links beside the save (0600, read as a hostile
file), the desk (what a player sees and may do, per ruleset; secrecy; the DI-16 clock per
player; events from a device), `referee links`, the live page (server-sent events) and the
page's HTML (input names as the command line's options, CSP, escaping). The refusals
through HTTP are tests/test_players_refusals.py; the browser test is another file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import stat
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from referee.cli import main
from referee.engine import events as ev
from referee.phones.server import MAX_BODY, Phones
from referee.session.desk import DIE, BriefWriter, Desk, HeldTable, Refused, input_name
from referee.session.links import LinksError, links_for, links_path, read_links
from referee.session.store import Session
from referee.session.table import Table
from referee.session.view import declared_text
from tests.conftest import ROOT

TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
LIVE_WAIT = 1.0  # seconds a live page may take to hear of a change (the server polls 0.1 s)


def copy_save(tmp_path: Path, name: str = "demo") -> Path:
    path = tmp_path / f"{name}.toml"
    shutil.copyfile(ROOT / "saves" / f"{name}.toml", path)
    return path


@pytest.fixture
def save(tmp_path: Path) -> Path:
    return copy_save(tmp_path)


def open_table(save: Path) -> Table:
    return Table(Session.open(save), random.Random(1))


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Served:
    save: Path
    table: Table
    desk: Desk
    phones: Phones
    tokens: dict[str, str]
    client: TestClient


@contextlib.asynccontextmanager
async def served(save: Path, max_pages: int = 24) -> AsyncIterator[Served]:
    """The players' pages of `save` on a test server (as `phones_app` makes them, with the
    Phones object kept so a test can reach its buckets)."""
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    tokens = desk.make_links()
    app = web.Application(client_max_size=MAX_BODY)
    phones = Phones(desk, max_pages)
    phones.attach(app)
    async with TestClient(TestServer(app)) as client:
        yield Served(save, table, desk, phones, tokens, client)


async def load(client: TestClient, token: str) -> tuple[str, str]:
    """A player's page as its browser loads it: the HTML and the page's CSRF token."""
    response = await client.get(f"/p/{token}")
    assert response.status == 200
    text = await response.text()
    found = CSRF.search(text)
    assert found is not None, text
    return text, found.group(1)


class Forms(HTMLParser):
    """Each form's action and the names of its inputs and selects."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, list[str]] = {}
        self.scripts: list[dict[str, str | None]] = []
        self._action: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self._action = found.get("action") or ""
            self.forms[self._action] = []
        elif tag in ("input", "select", "textarea") and self._action is not None:
            name = found.get("name")
            if name is not None:
                self.forms[self._action].append(name)
        elif tag == "script":
            self.scripts.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._action = None


def parsed(text: str) -> Forms:
    parser = Forms()
    parser.feed(text)
    return parser


# -- links -----------------------------------------------------------------------------------


def test_links_are_made_private_url_safe_kept_and_revoked(save: Path):
    table = open_table(save)
    tokens = links_for(table.fight, save)
    assert list(tokens) == ["brann", "zed", "mira", "odo"]  # the party, never the goblins
    assert all(TOKEN.fullmatch(token) for token in tokens.values())
    assert len(set(tokens.values())) == 4
    path = links_path(save)
    assert path == save.with_name("demo.toml.links")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not any(token in save.read_text() for token in tokens.values())  # never the save
    assert links_for(table.fight, save) == tokens == read_links(save)  # kept
    revoked = links_for(table.fight, save, revoke=True)
    assert list(revoked) == list(tokens)
    assert not set(revoked.values()) & set(tokens.values())  # every one new
    assert read_links(save) == revoked
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not list(save.parent.glob(".*.tmp"))


def test_an_ended_fight_has_no_links_and_its_file_goes(save: Path):
    table = open_table(save)
    links_for(table.fight, save)
    assert links_path(save).exists()
    table.end()
    with pytest.raises(LinksError, match="over"):
        links_for(table.fight, save)
    assert not links_path(save).exists()


def test_a_save_without_players_has_no_links(tmp_path: Path):
    path = copy_save(tmp_path, "phases")
    with pytest.raises(LinksError, match="players = true"):
        links_for(open_table(path).fight, path)
    assert not links_path(path).exists()


def _symlink(path: Path) -> None:
    target = path.with_name("elsewhere")
    target.write_text(path.read_text())
    target.chmod(0o600)
    path.unlink()
    path.symlink_to(target)


def _mode_0644(path: Path) -> None:
    path.chmod(0o644)


def _oversize(path: Path) -> None:
    path.write_text(path.read_text() + "# " + "x" * (64 * 1024) + "\n")


def _not_toml(path: Path) -> None:
    path.write_text("[tokens\nbrann = \n")


def _wrong_shape(path: Path) -> None:
    text = path.read_text()
    token = re.search(r'"brann" = "([^"]+)"', text)
    assert token is not None
    path.write_text(text.replace(token.group(1), "short"))


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path, 0o600)


@pytest.mark.parametrize(("spoil", "said"), [
    (_symlink, "cannot be read"),
    (_mode_0644, "others may read it (mode 644)"),
    (_oversize, "over 64 KiB"),
    (_not_toml, "not a links file"),
    (_wrong_shape, "field tokens.brann: not a token"),
    (_fifo, "not a regular file"),
], ids=["symlink", "mode-0644", "oversize", "not-toml", "token-shape", "fifo"])
def test_a_hostile_links_file_is_refused_with_the_file_named(save: Path, spoil, said):
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    tokens = desk.make_links()
    assert desk.player(tokens["brann"]) == "brann"
    spoil(links_path(save))
    with pytest.raises(LinksError) as error:
        read_links(save)
    assert str(error.value).startswith(f"{links_path(save)}: ")
    assert said in str(error.value)
    with pytest.raises(LinksError):
        links_for(table.fight, save)  # kept ones are read first: the same refusal
    # the pages follow the file: a hostile one leaves no token working, and says why
    assert desk.player(tokens["brann"]) is None
    assert str(links_path(save)) in desk.problem
    # --revoke makes a good file again whatever was there
    fresh = links_for(table.fight, save, revoke=True)
    assert read_links(save) == fresh
    assert not links_path(save).is_symlink()
    assert stat.S_IMODE(links_path(save).stat().st_mode) == 0o600


LINE = re.compile(r"([a-z0-9_-]+)\t([^\t]+)\thttp://127\.0\.0\.1:9123/p/([A-Za-z0-9_-]{32})")


def test_referee_links_prints_a_line_per_player(save: Path, capsys):
    args = ["links", str(save), "--host", "127.0.0.1", "--port", "9123"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert err == ""
    found = [LINE.fullmatch(line) for line in lines]
    assert all(found), lines
    rows = [m.groups() for m in found if m]
    assert [(cid, name) for cid, name, _ in rows] == [
        ("brann", "Brann the fighter"), ("zed", "Zed the magic-user"),
        ("mira", "Mira the ranger"), ("odo", "Brother Odo")]
    assert {cid: token for cid, _, token in rows} == read_links(save)
    assert main(args) == 0  # kept across calls
    assert capsys.readouterr().out == out
    assert main([*args, "--revoke"]) == 0
    again = [LINE.fullmatch(line) for line in capsys.readouterr().out.splitlines()]
    new = {m.group(1): m.group(3) for m in again if m}
    assert list(new) == ["brann", "zed", "mira", "odo"]
    assert not set(new.values()) & {token for _, _, token in rows}


def test_referee_links_of_an_ended_fight_is_one_line_and_no_file(save: Path, capsys):
    assert main(["links", str(save)]) == 0
    assert links_path(save).exists()
    open_table(save).end()
    capsys.readouterr()
    code = main(["links", str(save)])
    out, err = capsys.readouterr()
    assert code != 0
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("referee: ")
    assert "over" in err and "Traceback" not in err
    assert not links_path(save).exists()


# -- the desk: what a player may do ----------------------------------------------------------


DEMON_IDOL = ["declare-P", "declare-A", "declare-B", "declare-C", "declare-E", "declare-F",
              "declare-G"]


def test_demon_idol_offers_declarations_and_the_die_until_initiative(save: Path):
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    assert [f.act for f in desk.forms("brann")] == [*DEMON_IDOL, DIE]
    # Zed has spells: D (discharge) is his too; Brann has nothing to discharge
    assert "declare-D" in [f.act for f in desk.forms("zed")]
    (die,) = [f for f in desk.forms("zed") if f.act == DIE]
    assert [f.name for f in die.form.fields] == ["party"]  # demon-idol: a d6 per side
    assert all(f.clock is not None and f.clock.every == 6 for f in desk.forms("brann")
               if f.act != DIE)
    # the clock's field is never offered: a player cannot type their own delay
    assert not [f for pf in desk.forms("brann") for f in pf.form.fields if f.name == "delay"]

    desk.close_declarations()
    assert [f.act for f in desk.forms("brann")] == [DIE]  # the die is still due
    assert desk.page("brann").asked.startswith("Initiative is due")
    with pytest.raises(Refused, match="declarations are closed"):
        desk.submit("brann", "declare-G", {"weapon": ["spear"]})
    desk.close_declarations(False)
    assert [f.act for f in desk.forms("brann")] == [*DEMON_IDOL, DIE]

    table.roll_initiative()
    assert desk.forms("brann") == [] and desk.forms("zed") == []
    assert desk.page("brann").asked == "Nothing is asked of you now: follow the fight."
    with pytest.raises(Refused, match="declarations are closed"):
        desk.submit("brann", "declare-G", {"weapon": ["spear"]})
    with pytest.raises(Refused, match="no initiative die"):
        desk.submit("brann", DIE, {"party": ["3"]})


@pytest.mark.parametrize(("name", "who", "acts", "die"), [
    ("count-up", "hilde", ["declare-attack", "declare-consumable", "declare-throw",
                           "declare-full-defense", "declare-defensive-attack"], "hilde"),
    ("d20-dex", "borin", [], "borin"),  # a die per combatant, no declarations
    ("side-d6", "tam", [], "party"),  # a die per side
    ("agility-order", "mira", [], None),  # nothing typed, nothing declared
])
def test_forms_offered_per_ruleset(tmp_path: Path, name, who, acts, die):
    save = copy_save(tmp_path, name)
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    assert who in desk.make_links()
    forms = desk.forms(who)
    assert [f.act for f in forms] == acts + ([DIE] if die else [])
    if die:
        assert [f.name for f in forms[-1].form.fields] == [die]
        assert forms[-1].form.fields[0].required
    else:
        assert desk.page(who).asked == "Nothing is asked of you now: follow the fight."
    # another combatant's die is not this player's to type
    others = [cid for cid in desk.make_links() if cid != who]
    if die == who:
        with pytest.raises(Refused, match="no field"):
            desk.submit(who, DIE, {others[0]: ["3"]})


def test_count_up_declares_in_a_later_round_until_its_first_beat(tmp_path: Path):
    """Count-up keeps round 1's initiative: a later round's declarations stay open on the
    pages (no die asked) until its first beat is resolved."""
    save = copy_save(tmp_path, "count-up")
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    table.roll_initiative()
    assert desk.forms("tomas") == []
    table.next_round()
    assert table.fight.round == 2 and not table.initiative_due()
    acts = [f.act for f in desk.forms("tomas")]
    assert acts and DIE not in acts and all(a.startswith("declare-") for a in acts)
    (event,) = desk.submit("hilde", "declare-attack", {})
    assert event.from_device == "hilde" and event.round == 2
    assert [f.act for f in desk.forms("tomas")] == acts
    table.resolve_next()
    assert desk.forms("tomas") == []
    with pytest.raises(Refused, match="declarations are closed"):
        desk.submit("tomas", "declare-attack", {})


def test_a_page_shows_the_own_combatant_whole_and_the_enemy_in_words(save: Path):
    table = open_table(save)
    table.damage("gob1", 3)
    table.damage("brann", 4)
    desk = Desk(HeldTable(table), save)
    page = desk.page("brann")
    own = dict(zip([c.key for c in page.columns], [c.text for c in page.cells], strict=True))
    assert "10/14" in own.values()  # the player's own hit points, as numbers
    assert "brann" not in [r.key for r in page.others]
    rows = {r.key: r for r in page.others}
    assert rows["gob1"].state == "badly wounded"  # 2 of 5 left: the ruleset's word
    assert rows["gob2"].state == "unhurt"
    enemy = " ".join(f"{r.name} {r.declared} {r.conditions} {r.state}" for r in page.others
                     if r.side == "Goblins")
    assert not re.search(r"\d+/\d+|\bhp\b", enemy), enemy  # never the goblins' numbers
    assert "2/5" not in " ".join(page.log)


def test_declarations_are_secret_until_initiative(save: Path):
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    desk.submit("brann", "declare-G", {"weapon": ["spear"], "target": ["gob2"]})
    table.declare("gob1", "G", weapon="short sword", target=("brann",))
    brann = desk.page("brann")
    zed = desk.page("zed")
    said = declared_text(table.fight, "brann", table.declared()["brann"])
    goblin = declared_text(table.fight, "gob1", table.declared()["gob1"])
    assert "spear" in said and "short sword" in goblin
    assert zed.secret
    rows = {r.key: r for r in zed.others}
    assert rows["brann"].declared == "declared ✓"
    assert rows["gob1"].declared == "declared ✓"
    assert rows["mira"].declared == ""
    assert zed.plan == []
    everything = repr(zed)
    assert said not in everything and "spear" not in everything
    assert "short sword" not in everything
    # the player's own declaration is theirs to see, the goblin's is not
    assert said.removeprefix("page: ") in brann.asked  # its own words, unmarked
    assert "short sword" not in repr(brann)

    table.roll_initiative()
    zed = desk.page("zed")
    rows = {r.key: r for r in zed.others}
    assert not zed.secret
    assert rows["brann"].declared == said
    assert rows["gob1"].declared == goblin
    assert zed.plan  # the order of play, now public


def test_the_clock_runs_per_player_from_the_first_page_view(save: Path):
    clock = FakeClock(100.0)
    table = open_table(save)
    told: list[list] = []
    desk = Desk(HeldTable(table), save, clock=clock, written=told.append)
    assert desk.page("brann").clock_seconds == 0
    clock.now += 5
    assert desk.page("zed").clock_seconds == 0  # Zed's clock is his own
    clock.now += 5
    assert desk.page("brann").clock_seconds == 10  # a second view does not restart it
    clock.now += 3  # 13 seconds on Brann's clock: two full 6-second steps (DI-16)
    (event,) = desk.submit("brann", "declare-G", {"weapon": ["spear"], "target": ["gob2"]})
    assert event.delay == 2
    assert event.from_device == "brann"
    assert told == [[event]]
    assert table.told()[-1].text.endswith("(from Brann the fighter's page)")
    assert table.declared()["brann"].from_device == "brann"
    assert desk.from_device() == {"brann"}
    (event,) = desk.submit("zed", "declare-G", {"weapon": ["dagger"], "target": ["gob1"]})
    assert event.delay == 1  # 8 seconds on Zed's own clock: one step
    assert event.from_device == "zed"
    # the written save says so too: a reader from the file sees it
    reread = Session.open(save).fight
    assert [e.from_device for e in reread.events[-2:]] == ["brann", "zed"]


def test_the_clock_counts_whole_steps_of_six(save: Path):
    clock = FakeClock(0.0)
    table = open_table(save)
    desk = Desk(HeldTable(table), save, clock=clock)
    desk.page("zed")
    clock.now = 5.5
    (event,) = desk.submit("zed", "declare-C", {})
    assert not event.delay
    desk.page("mira")
    clock.now += 12.0
    (event,) = desk.submit("mira", "declare-C", {})
    assert event.delay == 2
    with pytest.raises(Refused, match="no field 'delay'"):
        desk.submit("odo", "declare-C", {"delay": ["0"]})


def test_the_typed_initiative_form_starts_from_a_pages_die(save: Path):
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    defaults = {f.name: f.default for f in table.initiative_form().fields}
    assert defaults == {"party": None, "goblins": None}
    (roll,) = desk.submit("zed", DIE, {"party": ["4"]})
    assert roll.from_device == "zed" and roll.total == 4
    assert table.told()[-1].text.endswith("(from Zed the magic-user's page)")
    defaults = {f.name: f.default for f in table.initiative_form().fields}
    assert defaults == {"party": 4, "goblins": None}
    desk.submit("mira", DIE, {"party": ["2"]})  # one die a side: the latest counts
    assert {f.name: f.default for f in table.initiative_form().fields}["party"] == 2
    table.undo()
    assert {f.name: f.default for f in table.initiative_form().fields}["party"] == 4
    table.undo()
    defaults = {f.name: f.default for f in table.initiative_form().fields}
    assert defaults == {"party": None, "goblins": None}  # an undone die is gone
    with pytest.raises(Refused, match="no field 'goblins'"):
        desk.submit("brann", DIE, {"goblins": ["1"]})  # the enemy's die is not theirs


@pytest.mark.parametrize(("name", "who"), [("count-up", "hilde"), ("d20-dex", "ria"),
                                          ("side-d6", "hild")])
def test_a_pages_die_is_taken_by_every_ruleset_that_asks_one(tmp_path: Path, name, who):
    """A die typed on a page is a roll the ruleset's fold accepts (count-up checks a roll's
    expression) and the typed-initiative form's default; initiative entered from it."""
    save = copy_save(tmp_path, name)
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    (form,) = [f for f in desk.forms(who) if f.act == DIE]
    (field,) = form.form.fields
    (roll,) = desk.submit(who, DIE, {field.name: ["3"]})
    assert roll.total == 3 and roll.from_device == who
    typed = {f.name: f.default for f in table.initiative_form().fields}
    assert typed[field.name] == 3
    values = {f.name: f.default if f.default is not None else
              (f.minimum if f.minimum is not None else 1) for f in
              table.initiative_form().fields}
    table.enter_initiative(values)
    assert not table.initiative_due()
    assert DIE not in {f.act for f in desk.forms(who)}


def test_the_serves_writer_locks_only_to_write_and_yields_to_the_app(save: Path):
    """`referee serve --players`'s desk: a page's act is written under the save's lock,
    released at once (the referee's commands take turns); while the app holds the save,
    a page is told so and nothing is written."""
    desk = Desk(BriefWriter(save), save)
    desk.page("brann")
    (made,) = desk.submit("brann", "declare-C", {})
    assert made.from_device == "brann" and '"from_device" = "brann"' in save.read_text()
    with Session.open(save, lock=True) as app:  # free again: the app could open it
        app.append(ev.Note(round=1, text="the referee's own"))
    assert "the referee's own" in desk.page("zed").log[-1]  # read as the file changed
    with Session.open(save, lock=True):
        before = save.read_bytes()
        with pytest.raises(Refused, match="the referee's app has the save open"):
            desk.submit("zed", "declare-C", {})
        assert save.read_bytes() == before


def test_a_revoke_from_another_terminal_stops_the_old_token(save: Path):
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    tokens = desk.make_links()
    assert desk.player(tokens["zed"]) == "zed"
    assert desk.player("x" * 32) is None
    new = links_for(open_table(save).fight, save, revoke=True)  # another process's revoke
    assert desk.player(tokens["zed"]) is None
    assert desk.player(new["zed"]) == "zed"
    links_path(save).unlink()
    assert desk.player(new["zed"]) is None  # no file, no token
    links_for(table.fight, save)
    table.end()
    assert all(desk.player(token) is None for token in read_links(save).values())


# -- the live page ---------------------------------------------------------------------------


async def next_message(response) -> bytes:
    """The next line of a live page that is not a comment or a blank (awaited, not timed:
    the server polls every 0.1 s; a second is the test's patience)."""
    while True:
        line = await asyncio.wait_for(response.content.readline(), LIVE_WAIT)
        if line.strip() and not line.startswith(b":"):
            return line


async def test_a_live_page_hears_of_an_event_the_table_wrote(save: Path):
    async with served(save) as s:
        response = await s.client.get(f"/p/{s.tokens['brann']}/live")
        assert response.status == 200
        assert response.headers["Content-Type"] == "text/event-stream"
        assert await next_message(response) == b"retry: 1000\n"
        s.table.declare("gob1", "G", weapon="short sword", target=("brann",))
        assert await next_message(response) == b"data: changed\n"
        s.table.damage("gob2", 1)
        assert await next_message(response) == b"data: changed\n"
        # revoked from another terminal: at the next change the page is told it is gone
        links_for(open_table(save).fight, save, revoke=True)
        s.table.note("the ogre roars")
        assert await next_message(response) == b"data: gone\n"
        # the message's blank line, then the stream ends
        assert await asyncio.wait_for(response.content.read(), LIVE_WAIT) == b"\n"
        response.close()


async def test_a_live_page_hears_of_a_page_declaring(save: Path):
    async with served(save) as s:
        zed = await s.client.get(f"/p/{s.tokens['zed']}/live")
        assert await next_message(zed) == b"retry: 1000\n"
        _, csrf = await load(s.client, s.tokens["brann"])
        posted = await s.client.post(f"/p/{s.tokens['brann']}/act/declare-G", data={
            "csrf": csrf, "weapon": "spear", "target": "gob2"}, allow_redirects=False)
        assert posted.status == 303
        assert posted.headers["Location"] == f"/p/{s.tokens['brann']}"
        assert await next_message(zed) == b"data: changed\n"
        zed.close()


# -- the page's HTML -------------------------------------------------------------------------


def cli_options(capsys, save: Path, act: str, cid: str) -> set[str]:
    """The options `referee act SAVE ACT --help` lists for the act's own fields."""
    capsys.readouterr()
    assert main(["act", str(save), act, "--actor", cid, "--help"]) == 0
    out = capsys.readouterr().out
    options = out[out.index("\noptions:"):]
    found = set(re.findall(r"^\s+(?:-\w \S+, )?--([a-z][a-z0-9-]*)", options, re.M))
    return found - {"help", "actor", "seed", "json", "output", "force"}


async def test_every_input_is_named_as_the_command_lines_option(save: Path, capsys):
    async with served(save) as s:
        seen = 0
        for cid in ("brann", "zed", "mira"):
            text, _ = await load(s.client, s.tokens[cid])
            forms = parsed(text).forms
            offered = {f.act: f for f in s.desk.forms(cid)}
            assert set(forms) == {f"/p/{s.tokens[cid]}/act/{act}" for act in offered}
            for act, player_form in offered.items():
                names = forms[f"/p/{s.tokens[cid]}/act/{act}"]
                assert names[0] == "csrf" and names.count("csrf") == 1
                fields = [input_name(f.name) for f in player_form.form.fields]
                assert names[1:] == fields
                if act == DIE:
                    continue
                assert set(fields) == cli_options(capsys, save, act, cid), (cid, act)
                seen += 1
        assert seen >= 20
        assert "usage-time" in cli_options(capsys, save, "declare-D", "zed")  # _ as -


async def test_the_pages_scripts_run_only_by_nonce(save: Path):
    async with served(save) as s:
        response = await s.client.get(f"/p/{s.tokens['brann']}")
        text = await response.text()
        policy = response.headers["Content-Security-Policy"]
        directives = {part.split()[0]: part.split()[1:] for part in policy.split(";")
                      if part.strip()}
        assert "'unsafe-inline'" not in directives["script-src"]
        assert "'unsafe-eval'" not in directives["script-src"]
        (nonce,) = [word[len("'nonce-"):-1] for word in directives["script-src"]]
        assert directives["default-src"] == ["'none'"]
        assert directives["frame-ancestors"] == ["'none'"]
        scripts = parsed(text).scripts
        assert scripts and all(attrs.get("nonce") == nonce for attrs in scripts)
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Cache-Control"] == "no-store"
        cookie = response.cookies["referee-page"]
        assert cookie["samesite"] == "Strict" and cookie["httponly"]
        again = await s.client.get(f"/p/{s.tokens['brann']}")
        assert again.headers["Content-Security-Policy"] != policy  # a nonce a page


async def test_a_name_full_of_markup_is_shown_escaped(tmp_path: Path):
    save = copy_save(tmp_path)
    text = save.read_text()
    assert 'name = "Goblin 1"' in text and 'name = "Brann the fighter"' in text
    save.write_text(text.replace('name = "Goblin 1"', 'name = "<script>alert(1)</script>"')
                    .replace('name = "Brann the fighter"',
                             'name = "<img src=x onerror=alert(2)>"'))
    async with served(save) as s:
        s.table.damage("gob1", 1)
        for cid in ("brann", "zed"):
            page, _ = await load(s.client, s.tokens[cid])
            assert "<script>alert(1)</script>" not in page
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
            assert "<img" not in page
            assert "&lt;img src=x onerror=alert(2)&gt;" in page
            scripts = parsed(page).scripts
            assert len(scripts) == 1  # the page's own, nothing from the save


def test_a_request_line_in_the_access_log_shows_no_token():
    """aiohttp's access log (the serve's console) gets each request line whole; a player's
    token in it is cut short and a control in it drawn visibly."""
    import logging

    from referee.phones.server import HiddenTokens

    token = "A" * 32
    record = logging.LogRecord("aiohttp.access", logging.INFO, __file__, 1,
                               f'"GET /p/{token}/live HTTP/1.1" 200 \x1b[31m', None, None)
    assert HiddenTokens().filter(record)
    assert token not in record.msg and "/p/AAAA…" in record.msg
    assert "\x1b" not in record.msg


def test_a_page_says_what_its_combatant_still_has(save: Path):
    """The spells a demon-idol caster still has (its ruleset's Carrying role), less a
    spell lost to damage while casting (DI-15)."""
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    assert desk.page("zed").kept == [("spells left", "sleep, magic missile, web")]
    assert desk.page("brann").kept == [("spells left", "none")]
    table.declare("zed", "D", spell="web", target=("gob1",))
    for cid in ("brann", "mira", "odo", "gob1", "gob2", "gob3", "ogre", "shaman"):
        action = "D" if cid == "shaman" else "G"
        table.declare(cid, action, **table.prefill(cid, action))
    table.enter_initiative({"party": 1, "goblins": 6})
    table.damage("zed", 1, source="gob1")  # hit while casting: the spell is lost
    assert desk.page("zed").kept == [("spells left", "sleep, magic missile")]


def test_replay_and_export_say_what_came_from_a_page(save: Path):
    from referee.session.render import markdown
    from referee.session.replay import told

    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    desk.submit("brann", "declare-C", {})
    table.session.close()
    _, chronicle = told(save)
    assert chronicle.lines[-1][2].endswith("(from Brann the fighter's page)")
    assert "(from Brann the fighter's page)" in markdown(chronicle)


def test_a_page_says_the_die_it_sent(tmp_path: Path):
    save = copy_save(tmp_path, "d20-dex")
    table = open_table(save)
    desk = Desk(HeldTable(table), save)
    assert desk.page("ria").asked == "Initiative is due: type Ria's die as it fell."
    desk.submit("ria", DIE, {"ria": ["17"]})
    assert desk.page("ria").asked.startswith("Your die is in: 17.")
    assert desk.page("borin").asked == "Initiative is due: type Borin's die as it fell."


def test_referee_links_loads_no_textual_nor_any_server(save: Path):
    """Printing the links is a headless command: no Textual, Rich or aiohttp loaded."""
    import subprocess
    import sys

    code = ("import sys; from referee.cli import main; "
            f"main(['links', {str(save)!r}, '--host', '127.0.0.1']); "
            "print('\\n'.join(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=120).stdout.split()
    assert any("/p/" in line for line in out)  # the links were printed
    assert not [m for m in out if m.split(".")[0] in ("textual", "rich", "aiohttp")]
