"""sanctum's acts, each whole: fight the turn (F; `referee fight`), the odds (O; `referee
odds`, a report) and a turn's pairs (P): when each is allowed, its form, what it makes, and
what the command line offers and prints of it (SA-2, SA-11).

Fight and the odds leave refusing to their own work on the command line (`gated=False`):
`referee fight` on a turn already fought prints the turn (scripts fight what is pending,
if anything), and `referee odds` gives the odds of the turn as it began, ended or not.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.specs import Act, Field, Form, Progress, Report
from referee.engine.view import Fight

from . import events as se
from . import turns
from .log_lines import tell
from .state import state_of
from .turns import OVER

if TYPE_CHECKING:
    from .fold import SanctumFold
    from .schema import SanctumSchema
    from .settings import Settings

UNLISTED = "this turn lists no combats (SA-2): P lists them"


def acts(s: Settings, fold: SanctumFold, schema: SanctumSchema) -> list[Act]:
    """The table, in the order the footer and the help list it: each act given the house
    rules and the roles it uses (the fold's steps and seed, the schema's checks)."""
    return [
        Act("fight", "Fight the turn", "F", "resolve every pending combat of the turn, step "
            "by step into the log (SA-1 .. SA-10)", allowed=fight_allowed,
            run=partial(fight, fold), gated=False, copy_from=turn_start,
            options=(Field("seed", "X", "int", help="draw from random.Random(X) instead of "
                           "the save's seed (a run of `referee odds`)"),),
            told=partial(fight_told, fold), stream=step_line, summary=fight_summary),
        Act("odds", "Odds", "O", f"simulate the pending combats {s.odds_runs} times: each "
            "side's chance, as a chart; any run opens in replay (SA-11)",
            allowed=odds_allowed, report=partial(odds, s), gated=False,
            options=(Field("runs", "N", "int", required=True, minimum=1, help="how many runs"),
                     Field("seed", "S", "int", help="derive the runs' seeds from S (default: "
                           "the save's seed)"),
                     Field("workers", "W", "int", 0, help="worker processes (default: one per "
                           "core for many runs)")),
            told=odds_told, summary=odds_summary),
        Act("pairs", "Pairs", "P", "list a turn's pairs of groups, in the map's neighbour "
            "order: its combats (SA-2)", allowed=pairs_allowed,
            form=pairs_form, run=partial(pairs, schema)),
    ]


def listed(fight: Fight) -> str:
    """Why no combat of this turn can be fought or simulated: the fight is over, or the
    turn lists none ("" when there are some)."""
    if fight.ended:
        return OVER
    return "" if turns.pairs(fight, state_of(fight)) else UNLISTED


# -- fight the turn (SA-1 .. SA-10) --------------------------------------------------------


def fight_allowed(fight: Fight, actor: str | None) -> str:
    why = listed(fight)
    if why:
        return why
    done = turns.fought(state_of(fight), fight.round)
    return "every combat of this turn is fought" if done else ""


def fight(fold: SanctumFold, fight: Fight, actor: str | None, values: Mapping[str, Any],
          rng: random.Random) -> list[ev.Event]:
    """The turn's steps still to log, drawn from the save's seed (or `seed`: a run of the
    odds): none once the turn is fought. An ended fight or a turn with no combats is
    refused in `pending`'s words."""
    seed = values.get("seed")
    return fold.pending(fight, None if seed is None else int(seed))[0]


def turn_start(fight: Fight) -> Fight:
    """The fight as its turn's combats began: what a run fought on a copy starts from."""
    return turns.turn_start(fight)[0]


def fight_told(fold: SanctumFold, fight: Fight, made: Any, save: str) -> list[str]:
    """The turn and the seed its steps are drawn from; with no step left, that the turn is
    fought."""
    steps: list[ev.Event] = list(made)
    seed = next((e.seed for e in steps if isinstance(e, se.Combat) and e.seed is not None),
                None)
    seed = fold.turn_seed(fight) if seed is None else seed
    heading = f"{fight.encounter.title} — turn {max(fight.round, 1)}, seed {seed}"
    if steps:
        return [heading]
    return [heading, "every combat of this turn has been fought (referee replay shows them)"]


def step_line(fight: Fight, event: Any) -> str:
    return tell(fight, event) or event.TYPE


def fight_summary(fight: Fight, made: Any) -> dict[str, Any]:
    """The turn's combats as the log has them (FORMAT.md)."""
    return turn_json(fight)


def turn_json(fight: Fight, turn: int | None = None) -> dict[str, object]:
    """`referee fight --json`: the turn's combats as the log has them (FORMAT.md)."""
    turn = max(fight.round, 1) if turn is None else turn
    combats: list[dict[str, object]] = []
    current: dict[str, object] | None = None
    attacks: list[dict[str, object]] = []
    for event in fight.events:
        if event.round != turn:
            continue
        if isinstance(event, se.Combat):
            if event.skipped:
                combats.append({"groups": list(event.groups), "skipped": True,
                                "rules": list(event.rules) or ["SA-2"]})
                current = None
                continue
            attacks = []
            current = {"groups": list(event.groups), "first": event.first,
                       "rules": list(event.rules) or ["SA-1"]}
            combats.append(current)
        elif isinstance(event, se.Attack) and current is not None:
            entry: dict[str, object] = {"round": event.combat_round,
                                        "attacker": event.attacker, "victim": event.victim,
                                        "kind": event.kind, "hit": event.hit}
            if event.hit:
                entry.update(damage=event.damage, soaked=event.soaked, result=event.result)
            entry["rules"] = list(event.rules)
            attacks.append(entry)
        elif isinstance(event, se.CombatEnd) and current is not None:
            current.update(rounds=event.rounds, ended=event.ended,
                           survivors={g: list(ids) for g, ids in event.survivors.items()},
                           attacks=attacks)
            current = None
    if current is not None:  # cut short: what was logged so far
        current["attacks"] = attacks
    return {"ruleset": "sanctum", "turn": turn, "combats": combats}


# -- the odds (SA-11) -----------------------------------------------------------------------


def odds_allowed(fight: Fight, actor: str | None) -> str:
    return listed(fight)  # the odds are of the turn from its start: fought or not


def odds(s: Settings, fight: Fight, values: Mapping[str, Any],
         progress: Progress | None) -> Report:
    """The turn simulated from its start, `runs` times (the app: `odds_runs`) from seeds
    derived from `seed` (default: the save's). The app asks no `workers`: its worker
    thread simulates in-process (forking from a threaded app is unsafe); the command line's
    default 0 is one process per core for many runs."""
    from .odds import report_of, run_odds, workers_for

    runs = int(values.get("runs") or s.odds_runs)
    seed = values.get("seed")
    workers = int(values.get("workers", 1)) or workers_for(runs)
    return report_of(run_odds(s, fight, runs, fight.encounter.seed if seed is None
                              else int(seed), max(1, workers), progress))


def odds_told(fight: Fight, made: Any, save: str) -> list[str]:
    """The summary as lines a person reads, and how to replay one of its runs."""
    from .odds import summary_lines

    return [*summary_lines(odds_summary(fight, made)),
            f"replay a run: referee fight {save} --seed SEED -o RUN.toml"]


def odds_summary(fight: Fight, made: Any) -> dict[str, Any]:
    """Every side's chances, each combat's, and every run's seed and outcome."""
    summary: dict[str, Any] = made.summary
    return summary


# -- a turn's pairs (SA-2) ------------------------------------------------------------------


def pairs_allowed(fight: Fight, actor: str | None) -> str:
    if fight.ended:
        return OVER
    state = state_of(fight)
    turn = turns.pairs_turn(fight, state)
    if turn not in state.pairs:
        return ""
    if turn == max(fight.round, 1):
        return f"turn {turn} already lists its combats (SA-2): F fights them"
    return f"turn {turn} already lists its combats (SA-2)"


def pairs_form(fight: Fight, actor: str | None) -> Form:
    turn = turns.pairs_turn(fight, state_of(fight))
    default = "; ".join(f"{a} {b}" for a, b in turns.hostile_pairs(fight))
    # with no pair to offer, the placeholder says why: an example naming the roster's
    # groups would read as groups still to fight, wiped out or not
    help = "" if default else "no hostile groups standing: E ends the fight"
    return Form(f"Turn {turn}: its combats", (
        Field("pairs", "pairs", "text", default=default, required=True, help=help),),
                hint="two hostile groups' ids a pair, pairs separated by ';', in the map's "
                     "neighbour order (SA-2); a pair listed twice is fought once")


def pairs(schema: SanctumSchema, fight: Fight, actor: str | None,
          values: Mapping[str, Any], rng: random.Random) -> list[ev.Event]:
    why = pairs_allowed(fight, actor)
    if why:
        raise IllegalEvent(why)
    event = se.Combats(round=turns.pairs_turn(fight, state_of(fight)),
                       pairs=read_pairs(str(values.get("pairs") or "")))
    schema.check_pairs(fight, event)  # the event's own checks, before it is written
    return [event]


def read_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """`red-1 blue-1; blue-1 red-1` (or one pair a line) as pairs."""
    out = []
    for part in text.replace("\n", ";").split(";"):
        words = part.replace(",", " ").split()
        if not words:
            continue
        if len(words) != 2:
            raise IllegalEvent(f"a pair is two groups, not {part.strip()!r} (write "
                               "'red-1 blue-1; blue-1 red-1')", ("pairs",))
        out.append((words[0], words[1]))
    return tuple(out)
