"""`referee config`: where referee's files go, and the settings file's keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.cli.common import settings

if TYPE_CHECKING:
    import argparse


def config_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", action="store_true",
                        help="print the settings file's path alone")


def run_config(args: argparse.Namespace) -> int:
    from referee.engine.text import shown
    from referee.session import places
    from referee.session.config import KEYS, described

    if args.path:
        print(shown(str(places.config_path())))
        return 0
    config = settings()  # a broken file: its one-line message, exit 1
    exists = config.path is not None and config.path.is_file()
    print(f"settings:      {shown(str(config.path))}" + ("" if exists else "  (none yet)"))
    for key, value in described(config):
        print(f"  {key:<11} = {value or '(not set: ' + KEYS[key][1] + ')'}")
    print(f"new saves go:  {shown(str(places.saves_folder(campaign=config.campaign_dir)))}  "
          "(a save given by path stays where it is named)")
    print(f"data folder:   {shown(str(places.data_saves()))}  (when not in a campaign directory)")
    print(f"recent list:   {shown(str(places.recent_path()))}")
    return 0
