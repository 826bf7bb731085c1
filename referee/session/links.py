"""The players' links: a random token per player combatant, kept beside the save in a file
only its owner may read (`SAVE.links`), never in the save, which is shared.

A token is 192 random bits (`secrets`), URL-safe. The file is read as a hostile file is:
a regular file (no link followed), owned by this user, readable by no one else, at most
LINKS_BYTES, each token of the shape we make; anything else is refused with the file and
the field named. It is written whole through a temporary file made 0600 and renamed.
Tokens die with the fight: an ended fight has none (`links` refuses, the file is removed).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from referee.engine import Fight
from referee.engine.text import compiled_later

LINKS_BYTES = 64 * 1024  # a links file is a few lines a player
TOKEN_BYTES = 24  # 192 bits
_TOKEN = compiled_later(r"[A-Za-z0-9_-]{32}")


class LinksError(Exception):
    """A links file that cannot be used, or links that cannot be made."""


def links_path(save: Path) -> Path:
    return save.with_name(save.name + ".links")


def player_combatants(fight: Fight) -> list[str]:
    """The combatants on the sides the players run, in roster order."""
    players = {side.id for side in fight.encounter.sides if side.players}
    return [cid for cid, c in fight.roster.items() if c.side in players]


def new_token() -> str:
    import secrets  # (here: the app opens a save without making a token)

    return secrets.token_urlsafe(TOKEN_BYTES)


def read_links(save: Path) -> dict[str, str]:
    """The tokens kept beside `save` by combatant id ({} when there is no file)."""
    path = links_path(save)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise LinksError(f"{path}: cannot be read ({error.strerror or error}); "
                         "`referee links SAVE --revoke` makes new links") from None
    with open(fd, "rb") as handle:
        found = os.fstat(handle.fileno())
        _check_file(path, found)
        data = handle.read(LINKS_BYTES + 1)
    if len(data) > LINKS_BYTES:
        raise LinksError(f"{path}: over {LINKS_BYTES // 1024} KiB, not a links file")
    import tomllib  # (here: a save without links, the app's start, never parses one)

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise LinksError(f"{path}: not a links file ({error})") from None
    tokens = table.get("tokens", {})
    if not isinstance(tokens, dict):
        raise LinksError(f"{path}: field tokens: expected a table")
    for cid, token in tokens.items():
        if not isinstance(token, str) or not _TOKEN().fullmatch(token):
            raise LinksError(f"{path}: field tokens.{cid}: not a token this program made")
    return dict(tokens)


def _check_file(path: Path, found: os.stat_result) -> None:
    if not stat.S_ISREG(found.st_mode):
        raise LinksError(f"{path}: not a regular file")
    if found.st_uid != os.getuid():
        raise LinksError(f"{path}: owned by another user; `referee links SAVE --revoke` "
                         "makes new links")
    if found.st_mode & 0o077:
        raise LinksError(f"{path}: others may read it (mode {found.st_mode & 0o777:o}); "
                         "`referee links SAVE --revoke` makes new links, readable by you "
                         "alone")


def write_links(save: Path, tokens: dict[str, str]) -> None:
    """The tokens written beside `save`, whole or not at all, readable by its owner only."""
    import secrets

    path = links_path(save)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    lines = ["# the players' links of this save: keep it private (referee links)\n",
             "[tokens]\n"] + [f'"{cid}" = "{token}"\n' for cid, token in tokens.items()
                              if _plain_key(cid)]
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with open(fd, "w", encoding="utf-8") as handle:
            handle.write("".join(lines))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise LinksError(f"{path}: cannot be written ({error.strerror or error})") from None


def _plain_key(cid: str) -> bool:
    # ids are checked when the save is read; one that would need escaping is left out
    return '"' not in cid and "\\" not in cid and cid.isprintable()


def remove_links(save: Path) -> None:
    with contextlib.suppress(OSError):
        links_path(save).unlink()


def links_for(fight: Fight, save: Path, revoke: bool = False) -> dict[str, str]:
    """A token for each player combatant: those kept beside the save, new ones for the
    rest (`revoke`: all new). Written back when anything changed. An ended fight has none:
    LinksError, and the file is removed."""
    if fight.ended:
        remove_links(save)
        raise LinksError("the fight is over: its links are gone (a player's page says so)")
    players = player_combatants(fight)
    if not players:
        raise LinksError("no side is run by the players (players = true): no links to make")
    kept = {} if revoke else read_links(save)
    tokens = {cid: kept.get(cid) or new_token() for cid in players}
    if tokens != kept:
        write_links(save, tokens)
    return tokens
