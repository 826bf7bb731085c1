"""`referee demo`: a bundled demo's roster and plan, printed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.cli.common import demo_path
from referee.cli.reading import plan_of

if TYPE_CHECKING:
    import argparse

    from referee.session.files import Save


def demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", metavar="ID",
                        help="that ruleset's bundled demo (default: the bundled demo)")


def run_demo(args: argparse.Namespace) -> int:
    from referee.session import demos

    return cmd_demo(demos.demo_for(args.ruleset) if args.ruleset else demo_path())


def cmd_demo(path: Path) -> int:
    from referee.session.files import load_save
    from referee.session.render import render_plan

    save = load_save(path)
    print(f"{save.encounter.title} — {save.ruleset.name} (the bundled demo, {path.name})")
    print(render_roster(save))
    print(render_plan(plan_of(save, None)))
    return 0


def render_roster(save: Save) -> str:
    """Each combatant with the ruleset's own columns and its gear."""

    fight = save.fight
    columns = list(fight.ruleset.tracker.columns())
    lines = []
    for cid, c in fight.roster.items():
        side = fight.encounter.side(c.side)
        cells = fight.ruleset.tracker.cells(fight, cid)
        own = "  ".join(f"{col.label} {cells[col.key].text}" for col in columns
                        if col.key in cells and cells[col.key].text)
        weapons = ", ".join(w.name for w in c.weapons)
        spells = ", ".join(s.name for s in c.spells)
        gear = weapons + (f"; spells: {spells}" if spells else "")
        lines.append(f"  {side.name if side else c.side:<10} {c.name:<20} {own}  {gear}"
                     .rstrip())
    return "\n".join(lines)
