"""A port taken between the look for a free one and the listen: the app's `V` serves the
players' view (a `referee serve` process) and the players' pages (in the app) from the
next free port, and says an address only once it takes connections."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

import referee.app.watch as watch
import referee.phones.addresses as addresses

ROOT = Path(__file__).resolve().parent.parent


def own_port() -> int:
    """A port of this worker's own, below the kernel's ephemeral range (test_serve_hostile
    uses 21000 + 100 a worker; these start at 25000)."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    return 25_000 + 100 * worker


def taken(port: int) -> socket.socket:
    """`port` bound by another program that has not started listening yet (as another
    served view between its bind and its listen): a bind there fails, a connect is
    refused."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", port))
    return holder


def look_then_lose(monkeypatch: pytest.MonkeyPatch, module: object, port: int,
                   thief: list[socket.socket]) -> list[int]:
    """The first look for a free port finds `port` free, and another program takes it at
    once: the race. Later looks are the real ones. The ports looked from, in turn."""
    real = addresses.free_port
    looked: list[int] = []

    def racing(host: str, first: int = addresses.DEFAULT_PORT, tries: int = 50) -> int:
        looked.append(first)
        found = real(host, first, tries)
        if not thief:
            thief.append(taken(found))
        return found

    monkeypatch.setattr(module, "free_port", racing)
    return looked


def test_the_view_is_served_from_the_next_port_when_its_own_is_taken_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "race.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    first = own_port()
    thief: list[socket.socket] = []
    looked = look_then_lose(monkeypatch, watch, first, thief)
    app = SimpleNamespace(settings=SimpleNamespace(view_port=first))

    async def serve() -> tuple[str, bool]:
        address = await watch.start_serving(app, save, network=False)  # type: ignore[arg-type]
        try:
            # said once it takes connections: the page answers at once
            page = await asyncio.to_thread(
                lambda: urllib.request.urlopen(address, timeout=10).read())
            return address, b"<html" in page.lower()
        finally:
            await watch.stop_serving(app)  # type: ignore[arg-type]

    try:
        address, answered = asyncio.run(serve())
        assert [holder.getsockname()[1] for holder in thief] == [first]
    finally:
        for holder in thief:
            holder.close()
    assert looked == [first, first + 1]  # the first process could not listen: the next port
    assert address == f"http://127.0.0.1:{first + 1}"
    assert answered


def test_the_view_that_cannot_start_anywhere_is_refused_in_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A served process that ends before it listens, every time: ServeError after three
    ports, nothing left serving, not a hang."""
    import sys

    tried: list[int] = []

    async def ending(path: Path, host: str, port: int, *rest: object) -> object:
        tried.append(port)
        return await asyncio.create_subprocess_exec(sys.executable, "-c", "raise SystemExit(2)")

    monkeypatch.setattr(watch, "served_process", ending)
    first = own_port() + 10
    app = SimpleNamespace(settings=SimpleNamespace(view_port=first))
    with pytest.raises(addresses.ServeError, match=r"could not be started \(3 tries"):
        asyncio.run(watch.start_serving(app, tmp_path / "x.toml", network=False))  # type: ignore[arg-type]
    assert tried == [first, first + 1, first + 2]
    assert not watch.serving(app)  # type: ignore[arg-type]


def test_the_players_pages_listen_on_the_next_port_when_theirs_is_taken_meanwhile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from aiohttp import web

    from referee.app.phones import listen

    first = own_port() + 20
    thief: list[socket.socket] = []
    looked = look_then_lose(monkeypatch, addresses, first, thief)

    async def pages() -> int:
        runner = web.AppRunner(web.Application(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            return await listen(runner, "127.0.0.1", first)
        finally:
            await runner.cleanup()

    try:
        port = asyncio.run(pages())
    finally:
        for holder in thief:
            holder.close()
    assert looked == [first, first + 1]
    assert port == first + 1


async def test_v_while_the_view_starts_says_so_and_starts_no_second_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The view's process takes a moment to listen; `V` meanwhile asks nothing again (a
    second view would be started and the first left running) and says it is starting."""
    import random

    from referee.app import RefereeApp
    from referee.app.forms import FormScreen
    from referee.app.phones import stop_phones
    from referee.session.config import Config

    listening = asyncio.Event()
    started: list[Path] = []

    async def slow(app: object, path: Path, *rest: object) -> str:
        started.append(path)
        await listening.wait()
        return "http://127.0.0.1:1"

    monkeypatch.setattr(watch, "start_serving", slow)
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    app = RefereeApp(save, save.parent, random.Random(3),
                     settings=Config(view_port=own_port() + 30))
    async with app.run_test(size=(80, 24)) as pilot:
        try:
            await pilot.press("V")
            assert isinstance(app.screen, FormScreen)
            await pilot.press("enter")
            for _ in range(100):
                if started:
                    break
                await pilot.pause(0.05)
            await pilot.press("V")
            await pilot.pause()
            assert not isinstance(app.screen, FormScreen)
            assert any("starting" in n.message for n in app._notifications)
            listening.set()
            for _ in range(100):
                if isinstance(app.screen, watch.ServingScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, watch.ServingScreen)
            assert len(started) == 1
            assert id(app) not in watch.STARTING
        finally:
            await stop_phones(app)
