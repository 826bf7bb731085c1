"""The players' view against browsers that misbehave (issue 20, point 1): a real websocket
client against `referee serve` on 127.0.0.1. A flood of keystrokes then a disconnect, an
oversized message, twenty clients coming and going: no `referee watch` is left behind
within 5 s, and the save is byte-identical after."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.conftest import ROOT

GONE_WITHIN = 5.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def viewers(save: Path) -> list[int]:
    """The pids of the `referee watch` processes on `save` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"watch" in words and str(save).encode() in words:
            found.append(int(entry.name))
    return found


def none_left(save: Path, within: float = GONE_WITHIN) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not viewers(save):
            return True
        time.sleep(0.1)
    return not viewers(save)


def listening(port: int, within: float = 20) -> bool:
    """Whether something listens on 127.0.0.1:`port` within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.1)
    return False


def start(save: Path, port: int, *more: str, out: Any = subprocess.PIPE,
          err: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([sys.executable, "-m", "referee", "serve", str(save),
                               "--port", str(port), *more], stdout=out, stderr=err,
                              start_new_session=True)
    listening(port)
    return server


@pytest.fixture(scope="module")
def one_serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    """One serve for the module's clients (a serve costs a second of CPU to start): each
    test leaves none of its views behind and the save as it was, and says so."""
    save = tmp_path_factory.mktemp("served") / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    port = free_port()
    # room for every client these tests open at once (the bound: test_serve_limits.py)
    server = start(save, port, "--max-viewers", "20")
    try:
        yield save, port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
        for pid in viewers(save):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def served(one_serve: tuple[Path, int]) -> Iterator[tuple[Path, int]]:
    save, _ = one_serve
    try:
        yield one_serve
    finally:
        for pid in viewers(save):  # never leave one behind, whatever the test found
            os.kill(pid, signal.SIGKILL)


async def connect(port: int, then: list[list[object]], read_first: bool = True) -> int:
    """Open the view, read what it draws, send `then`, and go; the bytes it drew."""
    async with aiohttp.ClientSession() as client, client.ws_connect(
            f"http://127.0.0.1:{port}/ws?width=80&height=24") as ws:
        await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))
        drawn = await drawing(ws, 8 if read_first else 0)
        for envelope in then:
            await ws.send_str(json.dumps(envelope))
    return drawn


async def drawing(ws: aiohttp.ClientWebSocketResponse, seconds: float) -> int:
    """The bytes the view draws within `seconds` (enough: 2,000 of them)."""
    drawn = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and drawn < 2000:
        try:
            message = await asyncio.wait_for(ws.receive(), 0.5)
        except TimeoutError:
            continue
        if message.type == aiohttp.WSMsgType.BINARY:
            drawn += len(message.data)
    return drawn


def test_a_flood_of_keys_then_a_disconnect_leaves_no_view(served):
    save, port = served
    before = save.read_bytes()
    flood = [["stdin", "j" * 60]] * 5000 + [["resize", {"width": 9999, "height": -1}]] * 100
    drawn = asyncio.run(connect(port, flood))
    assert drawn > 0  # the view was served and drew itself
    assert none_left(save)
    assert save.read_bytes() == before


def test_one_huge_message_then_a_disconnect_leaves_no_view(served):
    save, port = served
    before = save.read_bytes()
    asyncio.run(connect(port, [["stdin", "j" * 70_000]]))
    assert none_left(save)
    assert save.read_bytes() == before


def test_twenty_clients_coming_and_going_leave_none(served):
    save, port = served
    before = save.read_bytes()

    async def twenty() -> list[int]:
        return await asyncio.gather(*(connect(port, [["stdin", "q"]] if n % 2 else [],
                                              read_first=n % 3 == 0) for n in range(20)))

    asyncio.run(twenty())
    assert none_left(save)
    assert save.read_bytes() == before


def test_garbage_messages_never_stop_the_server(served):
    save, port = served
    junk = [["stdin", 7], ["resize", "wide"], ["nonsense"], [], ["ping", {"x": 1}]]

    async def garbage() -> None:
        async with aiohttp.ClientSession() as client, client.ws_connect(
                f"http://127.0.0.1:{port}/ws") as ws:
            for envelope in junk:
                await ws.send_str(json.dumps(envelope))
            await ws.send_str("not json at all")
            await ws.send_bytes(b"\x00\x01")

    asyncio.run(garbage())
    assert asyncio.run(connect(port, [])) > 0  # still serving
    assert none_left(save)


def test_a_view_ends_on_sigterm_and_when_its_input_closes(tmp_path):
    """The hardened driver, without a server: SIGTERM ends it at once; so does its input
    closing (the server gone), within the grace it gives itself."""
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    env = dict(os.environ, TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver")
    for how in ("sigterm", "eof"):
        view = subprocess.Popen([sys.executable, "-m", "referee", "watch", str(save)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)
        assert view.stdout is not None and view.stdin is not None
        assert view.stdout.readline() == b"__GANGLION__\n"  # it is running
        if how == "sigterm":
            view.send_signal(signal.SIGTERM)
        else:
            view.stdin.close()
        try:
            view.wait(GONE_WITHIN)
        finally:
            view.kill()
        assert view.returncode is not None, how


def test_a_token_is_the_key_to_the_view(tmp_path):
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    port = free_port()
    server = start(save, port, "--token", "table-7")
    base = f"http://127.0.0.1:{port}"

    async def visit() -> tuple[int, int, bool, int]:
        async with aiohttp.ClientSession() as stranger:
            turned_away = (await stranger.get(f"{base}/")).status
            try:
                await stranger.ws_connect(f"{base}/ws")
                no_socket = False
            except aiohttp.WSServerHandshakeError:
                no_socket = True
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as player:
            page = await player.get(f"{base}/?token=table-7")
            async with player.ws_connect(f"{base}/ws?width=80&height=24") as ws:
                drawn = await drawing(ws, 8)
            return turned_away, page.status, no_socket, drawn

    try:
        turned_away, opened, no_socket, drawn = asyncio.run(visit())
        assert turned_away == 403 and no_socket
        assert opened == 200 and drawn > 0
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    assert none_left(save)


def test_serving_on_the_network_says_who_can_watch_and_makes_a_token(tmp_path):
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    server = start(save, free_port(), "--host", "0.0.0.0")
    try:
        assert server.stdout is not None
        said = b""
        deadline = time.monotonic() + 20
        while b"Ctrl+C" not in said and time.monotonic() < deadline:
            said += server.stdout.read1(4096)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    text = " ".join(said.decode().split())
    assert "Anyone on this network with the address (and its token) can watch" in text
    assert "/?token=" in text


def screen_lines(app) -> list[str]:
    """The screen as plain lines, as the referee sees it."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def own_port_app(save: Path) -> Any:
    """The app on `save`, its view served from ports of this worker's own: from the
    settings' view_port the first free port is looked for and then taken by another
    process, so two workers starting from the same one could race for it (and a port the
    kernel hands out, as `free_port` does, may meanwhile be a client's own end: below
    the kernel's range, a hundred a worker)."""
    import random

    from referee.app import RefereeApp
    from referee.session.config import Config

    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    return RefereeApp(save, save.parent, random.Random(3),
                      settings=Config(view_port=21_000 + 100 * worker))


async def wait_for(pilot, done, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        await pilot.pause(0.1)
    return done()


async def test_v_asks_who_may_watch_and_serves_the_network_with_a_token(tmp_path):
    """Issue 30 B13: the address is shown in a panel the referee closes (Esc), whole on
    one line at 80x24 (its token unbroken), with its QR code; V shows it again, V there
    stops serving and the panel goes."""

    from referee.app.forms import FormScreen
    from referee.app.watch import ServingScreen, served_address, serving

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    app = own_port_app(save)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("V")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#f-where").value == "local"  # this machine, unless asked
        await pilot.press("right", "enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ServingScreen))
        assert serving(app)
        address = served_address(app)
        assert address is not None and "?token=" in address
        await pilot.pause(0.2)
        lines = screen_lines(app)
        text = "\n".join(lines)
        assert any(address in line for line in lines), text  # whole, on one line
        assert "Serving the players' view" in text  # its first line is not cut
        assert "Anyone on this network" in text
        assert "█" in text  # the QR code of that address
        await pilot.press("escape")  # closed: still served, and nothing of it left
        assert not isinstance(app.screen, ServingScreen) and serving(app)
        assert address not in "\n".join(screen_lines(app))
        await pilot.press("V")  # again: the address, where V stops serving
        assert isinstance(app.screen, ServingScreen)
        await pilot.press("V")
        assert await wait_for(pilot, lambda: not serving(app))
        assert not isinstance(app.screen, ServingScreen)
        assert address not in "\n".join(screen_lines(app))
    assert none_left(save)


async def test_the_address_panel_goes_when_serving_stops(tmp_path):
    """The panel never outlives the serve: a server that ends takes its address away."""

    from referee.app.watch import _SERVING, ServingScreen, serving

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    app = own_port_app(save)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("V", "enter")  # this machine only
        assert await wait_for(pilot, lambda: isinstance(app.screen, ServingScreen))
        assert "█" not in "\n".join(screen_lines(app))  # no code for 127.0.0.1
        _SERVING[id(app)][0].terminate()  # the server ends
        assert await wait_for(pilot, lambda: not serving(app))
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ServingScreen), 3)
    assert none_left(save)


async def test_watch_opens_on_the_newest_line(tmp_path):
    """The log, below the tracker, opens (and stays) on its newest line; the tracker opens
    at its top."""
    import random

    from textual.containers import VerticalScroll

    from referee.app.watch import WatchApp
    from referee.session.store import Session
    from referee.session.table import Table

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    table = Table(Session.open(save), random.Random(1))
    for number in range(12):
        table.note(f"note {number}")
    table.session.close()
    app = WatchApp(save)
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause(0.3)
        log = app.query_one("#logbox", VerticalScroll)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        assert "note 11" in "\n".join(screen_lines(app))
        assert app.query_one("#body", VerticalScroll).scroll_y == 0
