"""Where files go: the platform's directories for referee (platformdirs: the XDG ones on
Linux, honouring XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_STATE_HOME), the saves folder a
new save without a path goes to, and the list of saves the app opened most recently.

A save given by path stays where it is named. Without one (the bare `referee`'s demo copy,
ctrl+o's new encounter typed as a bare name), a new save goes to the saves folder:

1. `./saves/` when the current directory is a campaign directory (it holds `saves/`), as a
   clone is;
2. else `<campaign>/saves/` when the config file names a campaign directory;
3. else the platform's data directory: `~/.local/share/referee/saves` on Linux.

platformdirs is imported here only, and this module only by the commands that need it (the
app, `play`, `serve`, `config`): never by `plan` or `check`.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "referee"
RECENT = 30  # saves the recent list keeps


def config_dir() -> Path:
    import platformdirs

    return platformdirs.user_config_path(APP, appauthor=False)


def config_path() -> Path:
    return config_dir() / "config.toml"


def data_dir() -> Path:
    import platformdirs

    return platformdirs.user_data_path(APP, appauthor=False)


def state_dir() -> Path:
    import platformdirs

    return platformdirs.user_state_path(APP, appauthor=False)


def cache_dir() -> Path:
    import platformdirs

    return platformdirs.user_cache_path(APP, appauthor=False)


def data_saves() -> Path:
    """The saves folder of no campaign: the platform's data directory's `saves/`."""
    return data_dir() / "saves"


def campaign_saves(folder: Path) -> Path:
    """The saves folder of a campaign directory: its `saves/`."""
    return folder / "saves"


def is_campaign(folder: Path) -> bool:
    """A campaign directory holds a `saves/` folder (a clone does). Anything named `saves`
    there counts: a file in its place is refused when a save is written to it (with the
    reason), never passed over for another folder."""
    return os.path.lexists(folder / "saves")


def saves_folder(cwd: Path | None = None, campaign: Path | None = None) -> Path:
    """Where a new save without a path goes (see the module's docstring): the current
    directory's `saves/` in a campaign directory, else the configured campaign's, else the
    platform's data directory's."""
    here = Path.cwd() if cwd is None else cwd
    if is_campaign(here):
        return campaign_saves(here)
    if campaign is not None:
        return campaign_saves(campaign)
    return data_saves()


def campaign_of(folder: Path) -> Path:
    """The campaign directory a browsed folder stands for: itself when it holds `saves/` or
    is not one; the folder above a `saves/` folder."""
    if folder.name == "saves" and not is_campaign(folder):
        return folder.parent
    return folder


# -- the recent list -------------------------------------------------------------------


def recent_path() -> Path:
    return state_dir() / "recent"


def recent_saves() -> list[Path]:
    """The saves the app opened, most recent first; gone files left out."""
    try:
        text = recent_path().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    found: list[Path] = []
    for line in text.splitlines():
        path = Path(line)
        if line and path.is_absolute() and path not in found and path.is_file():
            found.append(path)
    return found


def remember(path: Path) -> None:
    """`path` first on the recent list. The list is a convenience: a folder that cannot be
    written leaves it as it was, and never stops a save from opening."""
    from referee.session.store import SaveError, write_atomic

    try:
        path = path.resolve()
        kept = [p for p in recent_saves() if p != path][: RECENT - 1]
        recent_path().parent.mkdir(parents=True, exist_ok=True)
        write_atomic(recent_path(), "".join(f"{p}\n" for p in [path, *kept]))
    except (OSError, ValueError, SaveError):
        pass


def shown_path(path: Path) -> str:
    """A path as a person reads it: `~/` for the home directory."""
    home = os.path.expanduser("~")
    text = str(path)
    if home not in ("", "/", "~") and (text == home or text.startswith(home + os.sep)):
        return "~" + text[len(home):]
    return text
