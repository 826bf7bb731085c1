"""The referee's app with the players' pages served (Pilot, no browser): `V` serves them
beside the view, a page's declaration is drawn and said at once, the serving panel lists
each player's link, and its `d` closes declarations on the pages (and opens them again)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app.app import RefereeApp
from referee.app.phones import desk_of, stop_phones
from referee.app.watch import ServingScreen, stop_serving
from referee.session.config import Config
from tests.conftest import ROOT
from tests.test_players_browser import FakeClock, free_port, serve_pages, until
from tests.test_players_view import svg_text


def app_on(save: Path) -> RefereeApp:
    return RefereeApp(save, save.parent, random.Random(3), clock=FakeClock(),
                      settings=Config(view_port=free_port()))


async def test_pages_served_from_the_app_closed_by_the_referee_and_stopped_by_another_save(
        tmp_path: Path) -> None:
    """The pages served (the panel lists the links), a page's declaration drawn and said
    at once, `d` closing declarations and opening them again; then another save opened:
    its players are others, and the pages stop. (One serve: the pages' serve is over a
    second of CPU to start, and the stop was a test of its own.)"""
    save, other = tmp_path / "ford.toml", tmp_path / "road.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    shutil.copyfile(ROOT / "saves" / "count-up.toml", other)
    app = app_on(save)
    # the notice is read once the pages have stopped: on a loaded machine (a whole suite
    # on two cores) that took longer than a notice's 5 s on screen, and it was gone
    app.NOTIFICATION_TIMEOUT = 600
    async with app.run_test(size=(80, 24)) as pilot:
        await serve_pages(pilot)
        try:
            desk = desk_of(app)
            assert desk is not None
            screen = svg_text(app.export_screenshot())
            assert "Each player's own page" in screen and "/p/" in screen
            await pilot.press("escape")

            desk.page("zed")  # Zed's page is open: the tracker says he is deciding there
            assert await until(pilot, lambda: "deciding… (page)" in svg_text(
                app.export_screenshot()), tries=60)
            desk.page("brann")
            desk.submit("brann", "declare-C", {})
            await pilot.pause(0.3)
            said = [n.title for n in app._notifications]
            assert "From a player's page" in said  # said at once
            screen = svg_text(app.export_screenshot())
            assert "page: C" in screen  # the tracker marks it
            assert "(from Brann the fighter's page)" in screen  # in the log

            await pilot.press("V")  # the panel again, where d closes declarations
            assert await until(pilot, lambda: isinstance(app.screen, ServingScreen))
            await pilot.press("d")
            assert await until(pilot, lambda: not desk.declaring_open())
            assert all(not f.act.startswith("declare-") for f in desk.forms("zed"))
            await pilot.press("d")
            assert await until(pilot, desk.declaring_open)
            assert any(f.act == "declare-G" for f in desk.forms("zed"))

            await pilot.press("escape")
            app.switch_to(other)  # its players are others: the old links stop
            for _ in range(100):
                if desk_of(app) is None:
                    break
                await pilot.pause(0.05)
            assert desk_of(app) is None
            assert "The players' pages are no longer served" in \
                [n.message for n in app._notifications][-1]
        finally:
            await stop_phones(app)
            await stop_serving(app)


async def test_a_pages_text_is_shown_as_typed_never_as_markup(tmp_path: Path) -> None:
    """A player's note is text from a client: the notice that says it shows it as typed,
    never as Rich markup (bold, a link, an action)."""
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    app = app_on(save)
    async with app.run_test(size=(120, 40)) as pilot:
        await serve_pages(pilot)
        try:
            desk = desk_of(app)
            assert desk is not None
            await pilot.press("escape")
            desk.page("brann")
            desk.submit("brann", "declare-A", {"note": ["[b]run[/b] away [@click=app.quit]x[/]"]})
            await pilot.pause()
            (notice,) = [n for n in app._notifications if n.title == "From a player's page"]
            assert "[b]run[/b] away" in notice.message and not notice.markup
            assert "[b]run[/b] away" in svg_text(app.export_screenshot())  # the log, too
            assert app.is_running
        finally:
            await stop_phones(app)
            await stop_serving(app)
