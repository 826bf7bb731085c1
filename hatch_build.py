"""The wheel carries the bundled demos: every `saves/*.toml` but the copies the app makes
(`demo-<time>.toml`) and the backups kept beside a save (`NAME.toml.damaged-…`). A new
ruleset's demo joins by being there: no list to keep."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        saves = Path(self.root) / "saves"
        for demo in sorted(saves.glob("*.toml")):
            if not demo.name.startswith("demo-"):
                build_data["force_include"][str(demo)] = f"referee/_saves/{demo.name}"
