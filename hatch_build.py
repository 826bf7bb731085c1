"""The wheel carries the bundled demos: every `saves/*.toml` but the copies the app makes
(`demo-<time>.toml`) and the backups kept beside a save (`NAME.toml.damaged-…`). A new
ruleset's demo joins by being there: no list to keep.

It carries the manual page too, made from the argument parser as `referee --help-man`
prints it (argparse-manpage, a build requirement), installed as
`share/man/man1/referee.1` (pipx links it where `man referee` finds it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MAN_PAGE = "share/man/man1/referee.1"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        saves = Path(self.root) / "saves"
        for demo in sorted(saves.glob("*.toml")):
            if not demo.name.startswith("demo-"):
                build_data["force_include"][str(demo)] = f"referee/_saves/{demo.name}"
        if version == "editable":  # a clone's venv: `referee --help-man` prints the page
            return
        self.made = Path(tempfile.mkdtemp(prefix="referee-man-"))
        page = self.made / "referee.1"
        env = {**os.environ, "PYTHONPATH": str(self.root), "COLUMNS": "80"}
        made = subprocess.run([sys.executable, "-c", "from referee.cli import man_page; "
                               "import sys; sys.stdout.write(man_page())"],
                              capture_output=True, text=True, env=env, cwd=self.root)
        if made.returncode != 0:
            raise RuntimeError(f"the manual page could not be made: {made.stderr}")
        page.write_text(made.stdout, encoding="utf-8")
        build_data["shared_data"][str(page)] = MAN_PAGE

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        made = getattr(self, "made", None)
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
