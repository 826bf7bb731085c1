"""The players' view cannot be exhausted, and no message writes a traceback (issue 31,
points 5 and 6): a real `referee serve` on 127.0.0.1 and a websocket client.

- 50 connections at once: at most 8 views run (the default; `--max-viewers`), the rest
  are turned away (a page that says so), and every process of the serve together stays
  under 512 MB; nothing is sent anywhere but the loopback address;
- a viewer that sends nothing is closed after `--idle-timeout`;
- a message nested too deep or carrying a lone surrogate is refused with one log line and
  its connection closed; never a traceback.
"""

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

import aiohttp
import pytest

from tests.conftest import ROOT
from tests.test_serve_hostile import drawing, free_port, listening, none_left, viewers
from tests.test_serve_hostile import start as serve_start

MB = 1024 * 1024
LOOPBACK = ("127.", "::1", "::ffff:127.")


def start(save: Path, port: int, log: Path, *more: str) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return serve_start(save, port, *more, out=out, err=subprocess.STDOUT)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator:
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    log = tmp_path / "serve.log"
    servers: list[subprocess.Popen[bytes]] = []

    def started(*more: str) -> tuple[Path, int, subprocess.Popen[bytes], Path]:
        port = free_port()
        servers.append(start(save, port, log, *more))
        return save, port, servers[-1], log

    try:
        yield started
    finally:
        for server in servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(10)
        for pid in viewers(save):
            os.kill(pid, signal.SIGKILL)


def tree(root: int) -> list[int]:
    """`root` and every process descended from it (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grown = bool(more)
    return sorted(pid for pid in found if pid in parents or pid == root)


def rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def address(hex_address: str) -> str:
    host, _ = hex_address.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw[::-1])
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
    return socket.inet_ntop(socket.AF_INET6, words)


def sockets_off_loopback(pids: list[int]) -> list[str]:
    """Every inet socket these processes hold whose either end is not loopback (an
    unconnected end, 0.0.0.0 or ::, aside)."""
    inodes: set[str] = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with_target = os.readlink(fd) if fd.is_symlink() else ""
                if with_target.startswith("socket:["):
                    inodes.add(with_target[8:-1])
        except OSError:
            continue
    bad = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        try:
            lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[9] not in inodes:
                continue
            for end in (address(fields[1]), address(fields[2])):
                if end not in ("0.0.0.0", "::") and not end.startswith(LOOPBACK):
                    bad.append(f"{table} {end}")
    return bad


async def hold(port: int, seconds: float) -> str | int:
    """A viewer that connects and watches for `seconds`: the bytes drawn, or why it was
    turned away."""
    async with aiohttp.ClientSession() as client:
        try:
            async with client.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24") as ws:
                drawn, deadline = 0, time.monotonic() + seconds
                while time.monotonic() < deadline:  # connected all along, reading
                    try:
                        message = await asyncio.wait_for(ws.receive(), 0.5)
                    except TimeoutError:
                        continue
                    if message.type == aiohttp.WSMsgType.BINARY:
                        drawn += len(message.data)
                    elif message.type != aiohttp.WSMsgType.TEXT:
                        break
                return drawn
        except aiohttp.WSServerHandshakeError as error:
            return f"refused {error.status}"


def test_one_serve_takes_fifty_viewers_then_garbage_then_unreadable_messages(serve):
    """One serve (a serve costs over a second of CPU to start) through the three in turn,
    each checked as it was on a serve of its own: fifty viewers at once (the slots all
    free first), then garbage of the old kind, then the unreadable messages (the serve
    stopped at the end, its whole log read)."""
    save, port, server, log = serve()
    fifty_viewers_at_once_get_eight_views_under_512_mb_on_loopback_only(save, port, server)
    garbage_of_the_old_kind_still_never_stops_the_server(save, port, log)
    an_unreadable_message_is_refused_with_one_line_and_no_traceback(save, port, server, log)


def fifty_viewers_at_once_get_eight_views_under_512_mb_on_loopback_only(
        save: Path, port: int, server: subprocess.Popen[bytes]) -> None:
    before = save.read_bytes()
    peak, most, off_loopback = 0, 0, []

    async def fifty() -> list[str | int]:
        nonlocal peak, most
        clients = asyncio.gather(*(hold(port, 15) for _ in range(50)))
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            pids = tree(server.pid)
            peak = max(peak, sum(rss(pid) for pid in pids))
            most = max(most, len(viewers(save)))
            off_loopback.extend(sockets_off_loopback(pids))
        async with aiohttp.ClientSession() as client:  # a browser while it is full
            page = await client.get(f"http://127.0.0.1:{port}/")
            said = (page.status, await page.text())
        assert said[0] == 503 and "The players' view is full" in said[1], said
        return await clients

    results = asyncio.run(fifty())
    served = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, str)]
    assert len(served) == 8 and all(r > 0 for r in served), results
    assert refused == ["refused 503"] * 42
    assert most <= 8
    assert peak < 512 * MB, f"{peak / MB:.0f} MB"
    assert off_loopback == []
    assert none_left(save)
    assert isinstance(asyncio.run(hold(port, 3)), int)  # the slots are free again
    assert save.read_bytes() == before


def test_max_viewers_sets_the_bound(serve):
    save, port, _, _ = serve("--max-viewers", "2")

    async def five() -> list[str | int]:
        return await asyncio.gather(*(hold(port, 6) for _ in range(5)))

    results = asyncio.run(five())
    assert sorted(map(str, results)).count("refused 503") == 3, results
    assert none_left(save)


def test_an_idle_viewer_is_closed(serve):
    save, port, _, log = serve("--idle-timeout", "2")

    async def idle() -> tuple[float, aiohttp.WSMsgType]:
        async with aiohttp.ClientSession() as client, client.ws_connect(
                f"http://127.0.0.1:{port}/ws?width=80&height=24") as ws:
            began = time.monotonic()
            while True:  # autoping answers the server's heartbeat: still idle
                message = await asyncio.wait_for(ws.receive(), 20)
                if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    return time.monotonic() - began, message.type
    took, kind = asyncio.run(idle())
    assert kind in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED) and 1.5 < took < 10
    assert none_left(save)
    assert "nothing from it for 2 s" in log.read_text()


UNREADABLE = {
    "nested": "[" * 8000 + "]" * 8000,  # nested too deep, under 16 KiB
    "surrogate-key": '["stdin", "\\ud800"]',  # a lone surrogate in a keystroke
    "surrogate-other": '["resize", "\\udfff"]',
    "nested-envelope": "[" * 3000 + '"stdin"' + "]" * 3000,
}


def an_unreadable_message_is_refused_with_one_line_and_no_traceback(
        save: Path, port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    """Each message on a connection of its own, to one serve (one serve for the four: a
    serve and its viewers cost seconds each): each is refused with one line of its own
    and its connection closed, and the serve goes on serving others."""

    async def send(message: str) -> aiohttp.WSMsgType:
        async with aiohttp.ClientSession() as client, client.ws_connect(
                f"http://127.0.0.1:{port}/ws?width=80&height=24") as ws:
            await drawing(ws, 3)
            await ws.send_str(message)
            while True:
                got = await asyncio.wait_for(ws.receive(), 10)
                if got.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    return got.type

    for name, message in UNREADABLE.items():
        assert len(message.encode()) < 16 * 1024, name
        said = len(log.read_text())  # the serve's log lines are written as they are logged
        # (after a refusal, the next connection is taken: the serve still serves others)
        assert asyncio.run(send(message)) in (aiohttp.WSMsgType.CLOSE,
                                              aiohttp.WSMsgType.CLOSED), name
        assert none_left(save), name
        assert log.read_text()[said:].count("refused a message") == 1, (name, log.read_text())
    assert isinstance(asyncio.run(hold(port, 3)), int)  # still serving others
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(10)
    text = log.read_text()
    assert "Traceback" not in text and "Error" not in text, text
    assert text.count("refused a message") == len(UNREADABLE), text


def garbage_of_the_old_kind_still_never_stops_the_server(save: Path, port: int,
                                                         log: Path) -> None:
    """A well-formed envelope with nonsense in it is dropped (the connection stays)."""
    said = len(log.read_text())  # the log as the serve wrote it before

    async def junk() -> int:
        async with aiohttp.ClientSession() as client, client.ws_connect(
                f"http://127.0.0.1:{port}/ws?width=80&height=24") as ws:
            for envelope in (["stdin", 7], ["resize", "wide"], ["nonsense"], ["ping", {}]):
                await ws.send_str(json.dumps(envelope))
            return await drawing(ws, 5)

    assert asyncio.run(junk()) > 0
    assert none_left(save)
    assert "refused" not in log.read_text()[said:]


@pytest.mark.parametrize("args, said", [
    (["serve", "--max-viewers", "0"], "--max-viewers: takes a number from 1 to 64, not 0"),
    (["serve", "--max-viewers", "many"], "--max-viewers: takes a whole number"),
    (["play", "--max-viewers", "65"], "--max-viewers: takes a number from 1 to 64, not 65"),
    (["serve", "--idle-timeout", "0"], "--idle-timeout 0: takes a number of seconds above 0"),
])
def test_the_bounds_are_checked(tmp_path: Path, capsys, args: list[str], said: str):
    from referee.cli import main

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    assert main([args[0], str(save), *args[1:]]) != 0
    assert said in capsys.readouterr().err


async def test_v_serves_with_the_bound_play_was_given(tmp_path: Path):
    import random

    from referee.app import RefereeApp
    from referee.app.watch import _SERVING, ServingScreen, stop_serving

    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    app = RefereeApp(save, tmp_path, random.Random(3))
    app.max_viewers = 3
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("V", "enter")
        deadline = time.monotonic() + 10
        while not isinstance(app.screen, ServingScreen) and time.monotonic() < deadline:
            await pilot.pause(0.1)
        process = _SERVING[id(app)][0]
        words = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
        await stop_serving(app)
    assert words[words.index(b"--max-viewers") + 1] == b"3"
    assert none_left(save)


def test_the_apps_serve_stops_once_the_app_is_gone(tmp_path: Path) -> None:
    """A terminal closed under the app (SIGHUP) ends it before its atexit stops the
    serve it started: the serve sees it gone and stops serving too, port and all."""
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    port = free_port()
    # `sh` stands for the app: it starts the serve with its own pid, then is gone once
    # told (a line on its input), however long a loaded machine took to start the serve
    script = (f'"{sys.executable}" -m referee serve "{save}" --port {port} --exit-with $$ '
              '>/dev/null 2>&1 & echo $!; read gone')
    app = subprocess.Popen(["sh", "-c", script], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    assert app.stdout is not None and app.stdin is not None
    served = int(app.stdout.readline())
    assert listening(port, within=20), "the serve did not listen while its app was there"
    app.stdin.write("gone\n")
    app.stdin.close()
    app.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.kill(served, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        os.kill(served, signal.SIGKILL)
        pytest.fail("the serve went on serving after the app that started it was gone")
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0
