"""The players' view: `watch` (in a terminal) and `serve` (to web browsers)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.common import UsageError, save_argument, settings, viewers_argument, whole

if TYPE_CHECKING:
    import argparse


def watch_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)


def serve_arguments(parser: argparse.ArgumentParser) -> None:
    import argparse

    save_argument(parser)
    address_arguments(parser, "the address to listen on (default: the settings' view_host, "
                              "else 127.0.0.1: this machine only; 0.0.0.0 puts the view on "
                              "the network, on purpose)", "the port to listen on")
    parser.add_argument("--token", metavar="T",
                        help="only the address with ?token=T opens the view (default: a "
                             "random token when the host is not this machine only)")
    viewers_argument(parser)
    parser.add_argument("--idle-timeout", type=whole, metavar="S", default=None,
                        help="close a browser's view when it has sent nothing for S seconds "
                             "(default 14400: an evening)")
    parser.add_argument("--players", action="store_true",
                        help="serve each player's own page too (their links: referee links "
                             "SAVE); the save is locked only while a page's act is written, "
                             "and the serve does not start while the app has it open (the "
                             "app's V serves them)")
    # the app's own serve: it stops when the app that started it is gone (a closed terminal)
    parser.add_argument("--exit-with", type=whole, metavar="PID", help=argparse.SUPPRESS)


def links_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    address_arguments(parser, "the address the players reach this machine by (default: "
                              "this machine's address on the network, else the settings' "
                              "view_host)", "the port the pages are served on")
    parser.add_argument("--revoke", action="store_true",
                        help="make new links: the old ones stop working")


def address_arguments(parser: argparse.ArgumentParser, host: str, port: str) -> None:
    parser.add_argument("--host", metavar="H", help=host)
    parser.add_argument("--port", type=whole, metavar="P",
                        help=f"{port} (default: the settings' view_port, else 8000)")


def run_links(args: argparse.Namespace) -> int:
    """One line a player combatant: its id, its name, its link (tab-separated)."""
    from referee.engine.text import shown
    from referee.phones.addresses import local_addresses
    from referee.session.links import LinksError, links_for

    from .common import opened

    path = Path(args.save)
    config = settings()
    port = args.port if args.port is not None else config.view_port or 8000
    if not 0 < port < 65536:
        raise UsageError(f"port {port}: takes a number from 1 to 65535")
    host = args.host or config.view_host or "0.0.0.0"
    base = local_addresses(host, port)[-1]
    fight = opened(path).fight
    try:
        tokens = links_for(fight, path, args.revoke)
    except LinksError as error:
        raise UsageError(f"{path}: {error}") from None
    for cid, token in tokens.items():
        name = shown(fight.roster[cid].name).replace("\t", " ")
        print(f"{shown(cid)}\t{name}\t{base}/p/{token}")
    return 0


def run_watch(args: argparse.Namespace) -> int:
    return cmd_watch(Path(args.save))


def run_serve(args: argparse.Namespace) -> int:
    host, port = args.host, args.port
    if host is None or port is None:  # the settings file's, else this machine on 8000
        config = settings()
        host = host or config.view_host or "127.0.0.1"
        port = port if port is not None else config.view_port or 8000
    return cmd_serve(Path(args.save), host, port, args.token, args.max_viewers,
                     args.idle_timeout, args.exit_with, args.players)


def players_save(path: Path) -> None:
    """A save the players' view can follow: it must exist and read now (later faults
    are shown in the view, which waits for the file to come back)."""
    from referee.session.files import load_save

    load_save(path)


def cmd_watch(path: Path) -> int:
    from referee.app.watch import WatchApp

    players_save(path)
    WatchApp(path).run()
    return 0


def cmd_serve(path: Path, host: str, port: int, token: str | None = None,
              max_viewers: int | None = None, idle: int | None = None,
              parent: int | None = None, players: bool = False) -> int:
    import secrets

    from referee.app.serving import serve
    from referee.phones.addresses import ServeError, loopback

    if not 0 < port < 65536:
        raise UsageError(f"port {port}: takes a number from 1 to 65535")
    if idle is not None and idle <= 0:
        raise UsageError(f"--idle-timeout {idle}: takes a number of seconds above 0")
    if token is not None and not (0 < len(token) <= 64 and token.isascii()
                                  and token.replace("-", "").replace("_", "").isalnum()):
        raise UsageError("--token: 1 to 64 letters, digits, - or _")
    if token is None and not loopback(host):
        token = secrets.token_urlsafe(9)
    players_save(path)
    phones = player_pages(path, host, port) if players else None
    try:
        serve(path, host, port, token, max_viewers, idle, parent, phones)
    except ServeError as error:
        raise UsageError(str(error)) from None
    return 0


def player_pages(path: Path, host: str, port: int) -> Any:
    """The players' pages of the save, served by this process: the save locked only for
    the moment a page's act is written (the referee's own commands take turns with it), and
    refused while the app has it open (its `V` serves them). Their links printed."""
    import random

    from referee.engine.text import shown
    from referee.phones.addresses import local_addresses
    from referee.phones.server import Phones
    from referee.session.desk import BriefWriter, Desk
    from referee.session.links import LinksError
    from referee.session.lock import SaveLocked, ensure_free

    try:
        ensure_free(path)
    except SaveLocked as error:
        raise UsageError(f"{error}: with the app open, its V serves the players' pages") \
            from None
    desk = Desk(BriefWriter(path, random.Random()), path)
    try:
        tokens = desk.make_links()
    except LinksError as error:
        raise UsageError(f"{path}: {error}") from None
    base = local_addresses(host, port)[-1]
    print("The players' own pages (send each player theirs):")
    for cid, token in tokens.items():
        print(f"  {shown(desk.table.name(cid))}: {base}/p/{token}")
    return Phones(desk)
