"""The app: `referee` alone (a fresh copy of the bundled demo) and `referee play SAVE` (an
existing save, or a new one created first, with a party joined)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from referee.cli.common import (
    UsageError,
    demo_path,
    open_for_writing,
    opened,
    save_argument,
    settings,
    viewers_argument,
    whole,
    write_output,
)

if TYPE_CHECKING:
    import argparse

    from referee.app.told import Told
    from referee.session.config import Config
    from referee.session.files import Save


def play_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--ruleset", metavar="ID",
                        help="for a new save: its ruleset (default: the config file's "
                             "`ruleset`, else the bundled demo's); a bundled id or a path "
                             "to a ruleset .toml")
    parser.add_argument("--demo", action="store_true",
                        help="for a new save: a copy of the ruleset's bundled demo, "
                             "instead of an empty encounter to set up")
    parser.add_argument("--party", metavar="FILE",
                        help="a party written by `referee party`: its sides and "
                             "combatants join the save's set-up first")
    parser.add_argument("--catalogue", dest="own", action="append", default=[],
                        metavar="F", help="a catalogue of your own for set-up, merged over "
                        "the bundled one by name (again for more)")
    parser.add_argument("--seed", type=whole, metavar="N",
                        help="for a new save: the seed of the program's dice, on purpose "
                             "(a test, a tournament); default: a fresh one of its own")
    viewers_argument(parser)


def run_play(args: argparse.Namespace) -> int:
    if args.max_viewers is not None:  # the players' view that V serves
        from referee.app import RefereeApp

        RefereeApp.max_viewers = args.max_viewers
    party = Path(args.party) if args.party else None
    return cmd_play(Path(args.save), args.ruleset, args.demo, party,
                    [Path(f) for f in args.own], args.seed)


def cmd_app(seed: int | None = None) -> int:
    """A fresh copy of the bundled demo (of the config's ruleset, when it names one) in
    the saves folder: `./saves/` in a campaign directory, else the config's campaign's,
    else the platform's data directory's."""
    from referee.app import fresh_demo

    config = settings()
    demo = demo_path() if config.ruleset is None else config_demo(config)
    return open_app(fresh_demo(saves_folder(config), demo, seed), False, (), config)


def saves_folder(config: Config | None = None) -> Path:
    """Where a new save without a path goes (session/places.py)."""
    from referee.session.places import saves_folder as where

    return where(campaign=(config or settings()).campaign_dir)


def config_demo(config: Config) -> Path:
    """The bundled demo of the config's ruleset; the bundled demo when it has none (a
    ruleset file of the referee's own)."""
    from referee.session.demos import NoDemo, demo_for

    try:
        return demo_for(config.ruleset or "")
    except NoDemo:
        return demo_path()


def cmd_play(path: Path, ruleset: str | None = None, demo: bool = False,
             party: Path | None = None, catalogues: Sequence[Path] = (),
             seed: int | None = None) -> int:
    """An existing save is opened (refused while another referee has it open); a missing
    one is created: an empty encounter to set up, or (`demo`) a copy of a bundled demo,
    with `seed` or a fresh seed of its own. A `party` (a roster file) joins its set-up
    first; `catalogues` are the referee's own, read now (a broken one is refused before
    any screen)."""
    if catalogues:
        from referee.session.catalogues import load_catalogue

        for own in catalogues:
            load_catalogue(own)
    if seed is not None and path.exists():
        raise UsageError(f"{path}: exists; --seed {seed} applies only to a new save (its "
                         "seed is in its file)")
    if party is not None:
        return play_with_party(path, ruleset, demo, party, catalogues, seed)
    if path.exists():
        refuse_if_open(path)
        if demo:
            raise UsageError(f"{path}: exists; --demo copies a demo to a new file only "
                             "(leave --demo out to open this one)")
        from referee.app.told import Told

        told = Told()  # the log pane's lines, told as this load folds the log
        save = opened(path, told.watch)  # a broken save is refused here, before any screen
        if ruleset is not None and ruleset not in (save.encounter.ruleset, save.ruleset.id):
            raise UsageError(f"{path}: is a {save.encounter.ruleset} save; --ruleset "
                             f"{ruleset} applies only to a new save (leave it out)")
        return open_app(path, False, catalogues, read=(save, told))
    if demo:
        copy_demo(path, ruleset or settings().ruleset, seed)
        return open_app(path, False, catalogues)
    create_save(path, ruleset or new_ruleset(), seed)
    return open_app(path, True, catalogues)


def new_ruleset() -> str:
    """A new save's ruleset when none is named: the config file's, else the bundled
    demo's."""
    from referee.session.demos import default_ruleset

    return settings().ruleset or default_ruleset()


def play_with_party(path: Path, ruleset: str | None, demo: bool, party: Path,
                    catalogues: Sequence[Path] = (), seed: int | None = None) -> int:
    from referee.session.party import roster_ruleset
    from referee.session.roster import RosterEditor

    made = False
    if not path.exists():
        ruleset = ruleset or roster_ruleset(party)  # a new save takes the party's ruleset
        if demo:
            copy_demo(path, ruleset, seed)
        else:
            create_save(path, ruleset or new_ruleset(), seed)
        made = True
    session = open_for_writing(path)
    try:
        count = RosterEditor(session).import_roster(party)
    except BaseException:
        session.close()
        if made:
            path.unlink()  # nothing of a new save is left when its party is refused
        raise
    session.close()
    print(f"{party}: {count} combatants joined {path}", file=sys.stderr)
    return open_app(path, made and not demo, catalogues)


def refuse_if_open(path: Path) -> None:
    from referee.session.lock import SaveLocked, ensure_free

    try:
        ensure_free(path)
    except SaveLocked as error:
        raise UsageError(str(error)) from None


def copy_demo(path: Path, ruleset: str | None, seed: int | None = None) -> None:
    """A copy of a bundled demo, with `seed` or a fresh seed of its own."""
    from referee.session.demos import demo_for, demo_text

    source = demo_for(ruleset) if ruleset else demo_path()
    write_output(str(path), demo_text(source, seed), [source], force=False)


def create_save(path: Path, ruleset: str, seed: int | None = None) -> None:
    from referee.app.files import new_save
    from referee.session.files import load_ruleset
    from referee.session.store import SaveError

    load_ruleset(ruleset, path.parent)  # an unknown ruleset is refused before anything
    try:
        new_save(path, path.stem.replace("-", " ").replace("_", " "), ruleset, seed=seed)
    except SaveError as error:
        raise UsageError(str(error)) from None


def open_app(path: Path, setup: bool, catalogues: Sequence[Path] = (),
             config: Config | None = None,
             read: tuple[Save, Told] | None = None) -> int:
    """The app on `path`; ctrl+o lists the recent saves and the saves folder, where its new
    encounter goes. The settings' theme is checked before any screen. `read`: the save as
    loaded to check it, and its log told (the app's `read`)."""
    from referee.app import RefereeApp, known_theme
    from referee.session.store import SaveError

    config = config or settings()
    known_theme(config)
    try:
        app = RefereeApp(path, saves_folder(config), start_in_setup=setup,
                         catalogues=catalogues, settings=config, read=read)
    except SaveError as error:  # opened by another referee since it was checked
        raise UsageError(str(error)) from None
    app.run()
    return 0
