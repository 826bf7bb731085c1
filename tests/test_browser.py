"""The players' view in a real browser: `referee serve` on a save, headless Chromium
(Debian's `chromium` and `chromium-driver`, installed by `make test`) driven by
selenium, and the referee appending events through the session layer.

textual-serve's page draws the terminal with xterm.js on a WebGL/canvas renderer (no
DOM rows), and keeps its terminal in a closure; a script run before the page's own
catches the terminal as it is assigned (`this.terminal = new Terminal(...)`) and the
test reads the text from xterm's buffer API. A screenshot of the page is kept in
tests/artifacts/players-view.png (and docs/players-view.png for the README).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT

ARTIFACTS = ROOT / "tests" / "artifacts"
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, 'terminal', {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(this, 'terminal', {value: value, writable: true,
                                              configurable: true, enumerable: true});
    if (value && value.buffer && !window.__terminals) { window.__terminals = []; }
    if (value && value.buffer) { window.__terminals.push(value); }
  },
});
"""
READ_TERMINAL = """
const t = (window.__terminals || [])[0];
if (!t) { return ''; }
const buffer = t.buffer.active, lines = [];
for (let i = 0; i < t.rows; i++) {
  const line = buffer.getLine(buffer.viewportY + i);
  lines.push(line ? line.translateToString(true) : '');
}
return lines.join('\\n');
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return path


@pytest.fixture
def served(save: Path) -> Iterator[str]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(save),
                               "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    address = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            time.sleep(0.1)
    try:
        yield address
    finally:
        server.terminate()
        server.wait(10)


def browser():  # type: ignore[no-untyped-def]
    # Selenium Manager sends usage statistics off the machine unless told not to (its
    # documented variable); nothing a test does may leave the loopback address
    os.environ["SE_AVOID_STATS"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--enable-unsafe-swiftshader",
                 "--use-angle=swiftshader", "--disable-gpu-sandbox"):
        options.add_argument(flag)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_TERMINAL})
    return driver


def screen(driver) -> str:  # type: ignore[no-untyped-def]
    return str(driver.execute_script(READ_TERMINAL))


def shows(driver, *texts: str, within: float = 2.0) -> str:  # type: ignore[no-untyped-def]
    """The page's text once it shows every one of `texts`; fails after `within` seconds."""
    deadline = time.monotonic() + within
    text = ""
    while time.monotonic() < deadline:
        text = screen(driver)
        if all(t in text for t in texts):
            return text
        time.sleep(0.05)
    raise AssertionError(f"not shown within {within}s: {texts}\n{text}")


def test_the_served_view_follows_the_referee_in_two_browsers(save: Path, served: str):
    first = browser()
    second = None
    try:
        first.get(served)
        text = shows(first, "Goblins at the ford", "Brann the fighter", "Goblin shaman",
                     "round 1", within=20)
        assert "declared ✓" not in text
        table = Table(Session.open(save), random.Random(1))
        fields = table.prefill("brann", "G")
        table.declare("brann", "G", **fields)
        shows(first, "declared ✓")
        assert "long sword" not in screen(first)  # secret until initiative
        for actor in list(table.fight.roster)[1:]:
            action = "D" if actor in ("zed", "shaman") else "G"
            table.declare(actor, action, **table.prefill(actor, action))
        table.enter_initiative({"party": 4, "goblins": 2})
        text = shows(first, "initiative: The party 4", "▶", "Zed the magic-user: D")
        assert "long sword" in text  # public now
        table.resolve_next()
        shows(first, "beat 1 resolved")
        second = browser()  # a second browser joins: the same view
        second.get(served)
        shows(second, "beat 1 resolved", "Goblins at the ford", within=20)
        enemy = table.fight.status["gob2"]
        table.damage("gob2", enemy.max_hp - 1, source="brann")
        for driver in (first, second):
            text = shows(driver, "badly wounded")
            assert f"{1}/{enemy.max_hp}" not in text and "hp 1" not in text
        table.undo()
        for driver in (first, second):
            deadline = time.monotonic() + 2
            while "badly wounded" in screen(driver) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "badly wounded" not in screen(driver)
        table.damage("gob2", enemy.max_hp + 20, source="brann")
        shows(first, "Goblin 2")
        shows(first, "dead") if table.fight.status["gob2"].dead else shows(first, "down")
        table.session.close()
        ARTIFACTS.mkdir(exist_ok=True)
        first.save_screenshot(str(ARTIFACTS / "players-view.png"))
        docs = ROOT / "docs"
        docs.mkdir(exist_ok=True)
        shutil.copyfile(ARTIFACTS / "players-view.png", docs / "players-view.png")
    finally:
        first.quit()
        if second is not None:
            second.quit()
