"""The small interface every ruleset implements, and the helpers they share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..errors import FormatError, IllegalDeclaration
from ..reading import Fields
from ..record import record

if TYPE_CHECKING:
    import random

    from ..fight import Fight, Status
    from ..plan import Plan


@record(frozen=True)
class ActionKind:
    """One entry of a ruleset's action catalogue."""

    key: str  # what a declaration's `action` holds (a letter, or a word)
    name: str
    fields: tuple[str, ...] = ()  # declaration fields this action uses
    hotkey: str = ""


class Ruleset:
    """Initiative method, action catalogue, ordering, tie rules, end-of-round steps.

    Subclasses hold the logic; `config` holds what a referee may house-rule (read
    from `rulesets/<id>.toml` by the sessions layer, never by the engine).
    """

    id = ""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = dict(config)
        f = Fields(self.config)
        for key in ("format", "version", "id", "logic", "source"):
            f.raw(key, None)
        self.name = f.str("name", self.id)
        self.read(f)
        f.done()

    def read(self, f: Fields) -> None:
        """Read this ruleset's house-rulable numbers and tables from its file."""

    # -- catalogue and validation --------------------------------------------------

    def actions(self) -> list[ActionKind]:
        raise NotImplementedError

    def action_keys(self) -> list[str]:
        if not hasattr(self, "_keys"):
            self._keys = [kind.key for kind in self.actions()]
        return self._keys

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        if type(event) is ev.Declare and event.action not in self.action_keys():
            known = ", ".join(self.action_keys())
            raise IllegalDeclaration(
                f"unknown action {event.action!r} for {self.id} (actions: {known})", ("action",)
            )

    # -- initiative ----------------------------------------------------------------

    def base_initiative(self, fight: Fight, event: ev.Initiative) -> dict[str, int]:
        return {}

    def roll_initiative(self, fight: Fight, rng: random.Random) -> ev.Initiative:
        raise NotImplementedError

    # -- ordering ------------------------------------------------------------------

    def plan(self, fight: Fight, round_: int) -> Plan:
        raise NotImplementedError

    # -- consequences --------------------------------------------------------------

    def apply_damage(self, status: Status, event: ev.Damage) -> None:
        status.hp -= event.amount

    def apply_heal(self, status: Status, event: ev.Heal) -> None:
        status.hp = min(status.max_hp, status.hp + event.amount)
        status.stable = status.stable or event.stabilize

    def after_damage(self, fight: Fight, event: ev.Damage) -> list[ev.Event]:
        """Events the rules add once `event` is in the log (spells lost, deaths)."""
        return []

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        """Events the rules add when the current round ends (bleeding, morale due)."""
        return []


def unique_keys(items: list[Any], what: str, path: tuple) -> None:
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        if item in seen:
            raise FormatError(f"duplicate {what} {item!r} ({path[0]}[{seen[item]}] has it)",
                              path + (index, "key"))
        seen[item] = index
