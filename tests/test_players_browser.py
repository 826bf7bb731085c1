"""The players at the table, in real Chromium: the referee's app (Pilot) serves the players'
own pages (`V`), two phone-sized browsers (separate profiles: two players, two cookie jars)
declare in secret, one types the party's initiative die, and the referee rolls initiative
from it. Selenium's calls block, so they run in threads while the app's loop serves.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from referee.app.app import RefereeApp
from referee.app.phones import desk_of, players_of, stop_phones
from referee.app.watch import ServingScreen, stop_serving
from referee.session.config import Config
from tests.conftest import ROOT
from tests.test_players_view import svg_text


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def phone() -> Any:
    """A headless Chromium the size of a phone, with a profile of its own."""
    import os

    os.environ["SE_AVOID_STATS"] = "true"  # nothing a test does leaves the machine
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=360,640", "--disable-gpu"):
        options.add_argument(flag)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


async def until(pilot: Pilot[None], done: Callable[[], bool], tries: int = 200) -> bool:
    """Whether `done` comes true within `tries` pauses (a loaded machine is slow)."""
    for _ in range(tries):
        if done():
            return True
        await pilot.pause(0.05)
    return done()


async def serve_pages(pilot: Pilot[None]) -> None:
    """`V`, this machine only: the view and the players' pages served."""
    from referee.app.forms import FormScreen

    await pilot.press("V")
    assert await until(pilot, lambda: isinstance(pilot.app.screen, FormScreen))
    await pilot.press("enter")
    assert await until(pilot, lambda: bool(players_of(pilot.app)))
    # the panel once the view takes connections too (a served process starting)
    assert await until(pilot, lambda: isinstance(pilot.app.screen, ServingScreen))
    await pilot.pause()  # and drawn


async def page_text(driver: Any, selector: str = "main") -> str:
    from selenium.webdriver.common.by import By

    def read() -> str:
        return str(driver.find_element(By.CSS_SELECTOR, selector).text)

    return await asyncio.to_thread(read)


async def shows(driver: Any, text: str, selector: str = "main", within: float = 10.0,
                gone: bool = False) -> str:
    """The page's text once it shows `text` (or no longer does), without a reload."""
    deadline = time.monotonic() + within
    found = ""
    while time.monotonic() < deadline:
        try:
            found = await page_text(driver, selector)
        except Exception:  # the page is being replaced by its live refresh
            found = ""
        if (text in found) != gone:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{'still' if gone else 'not'} shown within {within}s: {text!r}\n"
                         f"{found}")


async def declare(driver: Any, act: str, choices: dict[str, str]) -> None:
    """Open the act's part of the page, choose, send: as a player taps it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def tap() -> None:
        form = driver.find_element(By.CSS_SELECTOR, f'form[action$="/act/{act}"]')
        details = form.find_element(By.XPATH, "./..")
        if details.get_attribute("open") is None:
            details.find_element(By.TAG_NAME, "summary").click()
        for name, value in choices.items():
            field = form.find_element(By.NAME, name)
            if field.tag_name == "select":
                Select(field).select_by_value(value)
            else:
                field.clear()
                field.send_keys(value)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    await asyncio.to_thread(tap)


async def test_two_players_declare_in_secret_from_their_phones(tmp_path: Path) -> None:
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    clock = FakeClock()
    app = RefereeApp(save, tmp_path, random.Random(3), clock=clock,
                     settings=Config(view_port=free_port()))
    brann = zed = None
    async with app.run_test(size=(120, 40)) as pilot:
        await serve_pages(pilot)
        links = dict(players_of(app))
        assert set(links) == {"Brann the fighter", "Zed the magic-user", "Mira the ranger",
                              "Brother Odo"}
        assert all(link.startswith("http://127.0.0.1:") for link in links.values())
        await pilot.press("escape")
        table = app.table
        try:
            brann, zed = await asyncio.gather(asyncio.to_thread(phone),
                                              asyncio.to_thread(phone))
            await asyncio.to_thread(brann.get, links["Brann the fighter"])
            await asyncio.to_thread(zed.get, links["Zed the magic-user"])
            await shows(brann, "Declare Brann the fighter's action")
            await shows(zed, "Your declaration clock")

            # Brann at once; Zed after 13 seconds on his clock (DI-16: 6 s a segment)
            await declare(brann, "declare-G", {"weapon": "spear", "target": "gob2"})
            await shows(brann, "Brann the fighter has declared")
            clock.now += 13
            await declare(zed, "declare-D", {"target": "gob1"})
            await shows(zed, "Zed the magic-user has declared")

            # neither page shows the other's declaration: only that there is one
            others = await shows(brann, "declared ✓", "#others")
            assert "Zed the magic-user declared ✓" in others.replace("The party ", "")
            assert " D" not in others and "magic missile" not in others.lower()
            others = await shows(zed, "declared ✓", "#others")
            assert "spear" not in others and "G " not in others
            assert "14/14" not in others and "5/5" not in others  # the enemy in words

            # the referee's app shows both, from the pages, with Zed's delay
            await pilot.pause(0.2)
            declared = table.declared()
            assert declared["brann"].from_device == "brann"
            made = {cid: d.to_dict() for cid, d in declared.items()}
            assert made["zed"]["from_device"] == "zed" and made["zed"]["delay"] == 2
            assert made["brann"]["weapon"] == "spear" and made["brann"]["target"] == "gob2"
            screen = svg_text(app.export_screenshot())
            assert "from pages: Brann the fighter, Zed" in screen
            assert "+2" in screen and "seg" in screen
            assert screen.count("page: ") == 2  # the tracker marks both

            # a form kept from before initiative, to be sent once declarations are closed
            from selenium.webdriver.common.by import By

            kept = await asyncio.to_thread(lambda: brann.find_element(
                By.CSS_SELECTOR, 'form[action$="/act/declare-C"]').get_attribute("outerHTML"))

            # Zed types the party's die from his page; the referee's form starts from it
            await declare(zed, "initiative-die", {"party": "5"})
            await shows(zed, "Your die is in")
            await pilot.press("I")
            assert await until(pilot, lambda: bool(app.screen.query("#f-party")))
            assert app.screen.query_one("#f-party").value == "5"  # type: ignore[attr-defined]
            await pilot.press("tab", "2", "enter")
            assert await until(pilot, lambda: not table.initiative_due())
            (initiative,) = [e for e in table.fight.events if e.TYPE == "initiative"]
            assert initiative.rolls == {"party": 5, "goblins": 2}  # type: ignore[attr-defined]
            assert table.plan().beats  # the plan is made from it

            # public now: the order of play on both pages, the forms gone
            order = await shows(brann, "Zed the magic-user", "#order")
            assert "Brann the fighter" in order
            await shows(zed, "Declare Zed", gone=True)

            # the kept form sent now: refused on the page, the save untouched
            before = save.read_bytes()

            def send_kept() -> None:
                brann.execute_script(
                    "document.body.insertAdjacentHTML('beforeend', arguments[0]);"
                    "document.body.lastElementChild.submit();", kept)

            await asyncio.to_thread(send_kept)
            refused = await shows(brann, "Not done")
            assert "declarations are closed" in refused
            assert save.read_bytes() == before
            shot = ROOT / "tests" / "artifacts" / "players-phone.png"
            shot.parent.mkdir(exist_ok=True)
            await asyncio.to_thread(brann.save_screenshot, str(shot))
            shutil.copyfile(shot, ROOT / "docs" / "players-phone.png")  # the README's
        finally:
            for driver in (brann, zed):
                if driver is not None:
                    await asyncio.to_thread(driver.quit)
            assert desk_of(app) is not None
            await stop_phones(app)
            await stop_serving(app)
        assert desk_of(app) is None
