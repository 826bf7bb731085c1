"""The players' view: `watch` (in a terminal) and `serve` (to web browsers)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.cli.common import UsageError, save_argument, settings, viewers_argument, whole

if TYPE_CHECKING:
    import argparse


def watch_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)


def serve_arguments(parser: argparse.ArgumentParser) -> None:
    import argparse

    save_argument(parser)
    parser.add_argument("--host", metavar="H",
                        help="the address to listen on (default: the settings' view_host, "
                             "else 127.0.0.1: this machine only; 0.0.0.0 puts the view on "
                             "the network, on purpose)")
    parser.add_argument("--port", type=whole, metavar="P",
                        help="the port to listen on (default: the settings' view_port, "
                             "else 8000)")
    parser.add_argument("--token", metavar="T",
                        help="only the address with ?token=T opens the view (default: a "
                             "random token when the host is not this machine only)")
    viewers_argument(parser)
    parser.add_argument("--idle-timeout", type=whole, metavar="S", default=None,
                        help="close a browser's view when it has sent nothing for S seconds "
                             "(default 14400: an evening)")
    # the app's own serve: it stops when the app that started it is gone (a closed terminal)
    parser.add_argument("--exit-with", type=whole, metavar="PID", help=argparse.SUPPRESS)


def run_watch(args: argparse.Namespace) -> int:
    return cmd_watch(Path(args.save))


def run_serve(args: argparse.Namespace) -> int:
    host, port = args.host, args.port
    if host is None or port is None:  # the settings file's, else this machine on 8000
        config = settings()
        host = host or config.view_host or "127.0.0.1"
        port = port if port is not None else config.view_port or 8000
    return cmd_serve(Path(args.save), host, port, args.token, args.max_viewers,
                     args.idle_timeout, args.exit_with)


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
              parent: int | None = None) -> int:
    import secrets

    from referee.app.watch import ServeError, loopback, serve

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
    try:
        serve(path, host, port, token, max_viewers, idle, parent)
    except ServeError as error:
        raise UsageError(str(error)) from None
    return 0
