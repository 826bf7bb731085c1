"""UI-neutral descriptions a ruleset gives of itself: fields, forms, columns, cells,
acts and reports (charts). The app renders them as widgets, the command line as
text; neither needs to know which ruleset it is showing.

A `Field` also describes one key a ruleset adds to combatants, weapons, spells, sides or
the encounter: the same spec reads the key strictly from a file and builds the set-up form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from referee.hints import TYPE_CHECKING

from .errors import OVER, IllegalEvent
from .record import record

if TYPE_CHECKING:  # the acts' signatures only: the fight imports these specs
    import random  # annotations only: a plan rolls nothing (start-up)
    from typing import Any

    from .events import Event
    from .view import Fight
else:
    from referee.hints import Any

# What a field holds, and so how it is read from a file and which widget edits it.
KINDS = ("text", "int", "number", "bool", "choice", "dice", "id", "ids", "texts", "table",
         "items", "rate")  # rate: shots a round (2), or one shot every N rounds ("1/2")


@record(frozen=True)
class Field:
    name: str
    label: str = ""
    kind: str = "text"
    default: Any = None
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None  # the largest the rules make sense of (None: LARGEST)
    options: tuple[tuple[str, Any], ...] = ()  # for "choice": (label, value)
    help: str = ""  # a placeholder or a hint
    items: tuple[Field, ...] = ()  # for "table" and "items": the keys of each table
    form: bool = True  # offered in set-up forms (False: read from files only)
    # for "id": what it names, offered as a choice in set-up: "sides", or the key of the
    # encounter's own list ("groups": a minion's group)
    refers: str = ""
    # whole entries offered as one types (a catalogue's gear, a bestiary's monsters): a
    # "name, key=value, …" line completes the part after the last ";" and fills its numbers
    suggest: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def initial(self) -> Any:
        """What the field holds before anything is typed: its default, but a choice whose
        default is not among its options holds its first (a target fallen since)."""
        if self.kind != "choice" or not self.options:
            return self.default
        values = [value for _, value in self.options]
        return self.default if self.default in values else values[0]


@record(frozen=True)
class Timer:
    """A form timed while a player decides (demon-idol's declaration clock, DI-16): each
    full `every` seconds it runs adds one to the answer's `field`, shown in `unit`."""

    every: float
    field: str
    unit: str
    rule: str = ""


@record(frozen=True)
class Form:
    """A form to fill: the app shows it as a modal, a script passes the values."""

    title: str
    fields: tuple[Field, ...]
    hint: str = ""
    focus: str | None = None  # the field the cursor starts on (default: the first)
    clock: Timer | None = None  # runs while a player decides (DI-16), adding to a field


@record(frozen=True)
class Column:
    key: str
    label: str
    width: int = 0  # at most this wide on a small screen (0: as wide as it needs)
    fold: int = 0  # on a narrow screen, left out: the highest first (0: always shown)


@record(frozen=True)
class Cell:
    text: str
    tone: str = ""  # "", "good", "bad", "warn", "dim", "strong"


# What an act is asked, with the fight it is asked of and the combatant selected (if any).
Allowed = Callable[["Fight", "str | None"], str]  # why it cannot be done now ("" if it can)
FormOf = Callable[["Fight", "str | None"], "Form | None"]  # its form (None: it asks nothing)
Run = Callable[["Fight", "str | None", Mapping[str, Any], "random.Random"], "list[Event]"]
Progress = Callable[[int, int], None]
MakeReport = Callable[["Fight", Mapping[str, Any], "Progress | None"], "Report"]
# What the command line reads of an act beyond that (see `Act`): `made` is the events the act
# makes, or its report.
CopyFrom = Callable[["Fight"], "Fight"]  # the fight a copy (-o FILE) starts from
Told = Callable[["Fight", Any, str], list[str]]  # (fight, made, the save as named) -> lines
Stream = Callable[["Fight", "Event"], str]  # (fight, an event just written) -> its line
Summary = Callable[["Fight", Any], dict[str, Any]]  # (fight, made) -> what --json prints
# What a form's changed field brings (fight, actor, the fields as they stand, the one that
# changed): its new title (None: it keeps its own), defaults for the fields the referee has
# not changed, values for fields whatever they hold.
FollowOf = Callable[["Fight", "str | None", Mapping[str, Any], str], "Followed"]
Offered = Callable[["Fight", "str | None"], bool]  # whether it is offered on the footer
FieldsOf = Callable[["Fight", "str | None"], "tuple[Field, ...]"]
Notices = Callable[["Fight"], list[tuple[str, str]]]  # (title, text) said once it is done


@record(frozen=True)
class Followed:
    """What a changed field of an act's form brings (see `FollowOf`)."""

    title: str | None = None
    defaults: Mapping[str, Any] = {}
    values: Mapping[str, Any] = {}


def anytime(fight: Fight, actor: str | None) -> str:
    return ""


def no_form(fight: Fight, actor: str | None) -> Form | None:
    return None


@record(frozen=True, eq=False)
class Act:
    """One table operation, whole: its key and label, when it is allowed, its form, and
    what it makes — events for the log (`run`), or a report that changes nothing (`report`:
    the odds). The app shows it as a key and a form, the command line as `referee act
    SAVE ACT` (or `referee ACT SAVE`) with the form's fields as options; nothing anywhere
    dispatches on its id.

    The command line also reads these, which the app never does:
    - `options` (and `options_from`, those that depend on the fight: its sides' dice):
      fields only the command line asks, as flags after the form's fields;
      their values join the form's (in the app they are absent: the act's own defaults).
      An option's label names its value in the help (`--runs N`); a required one must be
      given. An act's own `seed` takes the place of the command line's `--seed X` (the
      program's dice).
    - `gated`: the command line refuses the act by `allowed` before doing anything, as the
      app does. False leaves refusing to `run` or `report`, in their own words: sanctum's
      fight on a turn already fought prints the turn and succeeds, as scripts expect.
    - `copy_from`: an act that makes events takes `-o FILE [--force]`: it is done on a copy
      of the save written to FILE, the save untouched; the copy holds the log of the fight
      `copy_from` gives (default: the fight as it stands; sanctum's fight: the turn as it
      began, so that `--seed X -o RUN.toml` replays run X of the odds).
    - `told(fight, made, save)`: the lines printed of what the act made, before any of it
      is written: a heading for the events about to be written (the turn and the seed
      they are drawn from, or why there are none), or the report itself. Without it: a
      report's title and lines, no heading. `save`: the save as the command line names it.
    - `stream(fight, event)`: given, the events are written one at a time, each printed as
      this line once it is on disk (a long turn shows as it goes; one cut short keeps what
      it wrote). Without it they are one write, undone together, printed as the log
      numbers them.
    - `summary(fight, made)`: given, the act takes `--json`, which prints this as JSON
      instead of the lines: the fight's once the events are written, or the report's data.

    Once the fight is over an act that makes events is refused, by `allowed` and by `run`,
    in one message for every ruleset (`until_over`, which every act passes through on its
    way to the table), unless it is `after_end`: what the end leaves to do (healing, a
    wound removed, a critical injury judged, a status). A report changes nothing: it says
    for itself whether it has anything to say of an ended fight.
    """

    id: str
    label: str
    key: str = ""
    help: str = ""
    show: bool = True  # in the one-line footer (else only in help and the palette)
    needs_actor: bool = False  # done by the selected combatant
    allowed: Allowed = anytime
    form: FormOf = no_form
    run: Run | None = None
    report: MakeReport | None = None
    options: tuple[Field, ...] = ()
    options_from: FieldsOf | None = None  # more options, from the fight (sides' dice)
    gated: bool = True
    copy_from: CopyFrom | None = None
    told: Told | None = None
    stream: Stream | None = None
    summary: Summary | None = None
    after_end: bool = False  # still done once the fight is over
    over_checked: bool = False  # its own allowed and run refuse it once the fight is over
    # What the interfaces read to render it beyond its form (the table's own acts use them):
    # - `first`: a form asked before its own (a yes/no `sure`: "roll with some undeclared?";
    #   a choice: "add a further action, or replace?"); its answers join the form's, and a
    #   `sure` left no does nothing. The command line answers `sure` by the command itself.
    # - `follow`: what a changed field of its form brings (another attacker: its damage).
    # - `offered`: whether the footer offers it now (default: when `allowed` says yes).
    # - `place`: where the footer puts it: "moving" (what moves the fight on, first),
    #   "act" (a ruleset's own, folded into one entry when there are many), "declare" (a
    #   declaration: one entry for all), "other".
    # - `after`: where the cursor goes once it is done: "work" (who acts, or declares,
    #   now), "follow" (there if who acts changed), "declare" (the next to declare),
    #   "stay".
    # - `notices`: what the rules say once it is done (a new round's checks), worked out
    #   before it is done.
    first: FormOf = no_form
    follow: FollowOf | None = None
    offered: Offered | None = None
    place: str = "act"
    after: str = "follow"
    notices: Notices | None = None

    @property
    def reports(self) -> bool:
        return self.report is not None


def until_over(act: Act) -> Act:
    """`act` as the table has it: refused once the fight is over (OVER), by `allowed`
    before anything is asked and by `run` whatever was answered, unless it is still done
    then (`after_end`) or is a report."""
    if act.after_end or act.over_checked or act.run is None:
        return act
    # a copy with the two gates, made without `replace`'s re-init: the table asks for its
    # acts on every key and cursor move (a few µs an act, not ten)
    gated = object.__new__(type(act))
    gated.__dict__.update(act.__dict__)
    gated.__dict__["allowed"] = partial(_open_allowed, act.allowed)
    gated.__dict__["run"] = partial(_open_run, act.run)
    return gated


def _open_allowed(allowed: Allowed, fight: Fight, actor: str | None) -> str:
    return OVER if fight.ended else allowed(fight, actor)


def _open_run(run: Run, fight: Fight, actor: str | None, values: Mapping[str, Any],
              rng: random.Random) -> list[Event]:
    if fight.ended:
        raise IllegalEvent(OVER)
    return run(fight, actor, values, rng)


# An act the selected combatant does, as its ruleset writes it: the combatant is given.
ActorAllowed = Callable[["Fight", str], str]
ActorForm = Callable[["Fight", str], "Form | None"]
ActorRun = Callable[["Fight", str, Mapping[str, Any], "random.Random"], "list[Event]"]


def actor_act(id_: str, label: str, key: str, help_: str, allowed: ActorAllowed,
              form: ActorForm, run: ActorRun, show: bool = True,
              unselected: str = "select a unit first", recheck: bool = True,
              after_end: bool = False) -> Act:
    """An act done by the selected combatant. With none selected (or one not in the
    fight) it is refused with `unselected` and asks nothing. With `recheck`, its run is
    refused as `allowed` refuses: the form may have stood open while the table went on.
    `after_end`: still done once the fight is over (`Act`)."""
    # the end's gate is in its own allowed and run (`until_over` copies nothing): the
    # table asks for a ruleset's acts on every key
    return Act(id_, label, key, help_, show, needs_actor=True,
               allowed=partial(_actor_allowed, allowed, unselected, after_end),
               form=partial(_actor_form, form),
               run=partial(_actor_run, allowed if recheck else None, run, unselected,
                           after_end),
               after_end=after_end, over_checked=True)


def _selected(fight: Fight, actor: str | None) -> str | None:
    return actor if actor is not None and actor in fight.roster else None


def _actor_allowed(allowed: ActorAllowed, unselected: str, after_end: bool, fight: Fight,
                   actor: str | None) -> str:
    if fight.ended and not after_end:
        return OVER
    chosen = _selected(fight, actor)
    return unselected if chosen is None else allowed(fight, chosen)


def _actor_form(form: ActorForm, fight: Fight, actor: str | None) -> Form | None:
    chosen = _selected(fight, actor)
    return None if chosen is None else form(fight, chosen)


def _actor_run(allowed: ActorAllowed | None, run: ActorRun, unselected: str,
               after_end: bool, fight: Fight, actor: str | None, values: Mapping[str, Any],
               rng: random.Random) -> list[Event]:
    if fight.ended and not after_end:
        raise IllegalEvent(OVER)
    chosen = _selected(fight, actor)
    if chosen is None:
        raise IllegalEvent(unselected)
    why = allowed(fight, chosen) if allowed is not None else ""
    if why:
        raise IllegalEvent(why)
    return run(fight, chosen, values, rng)


@record(frozen=True)
class ActionKind:
    """One entry of a ruleset's declaration catalogue."""

    key: str  # what a declaration's `action` holds (a letter, or a word)
    name: str
    fields: tuple[str, ...] = ()  # declaration fields this action uses
    hotkey: str = ""


@record(frozen=True)
class Series:
    """One set of values of a chart, one value per label (wins, draws ...)."""

    name: str
    values: tuple[float, ...]


@record(frozen=True)
class Chart:
    """A chart a report shows: `bars` draws one bar per label, its series stacked end to
    end (a side's wins, draws and losses); `histogram` draws a column per label (how many
    runs left 0, 1, 2 ... survivors)."""

    title: str
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    kind: str = "bars"  # "bars" or "histogram"
    unit: str = ""  # after each value: "%"


@record(frozen=True)
class ReportRun:
    """One run behind a report, which can be written out and replayed in full."""

    number: int  # 1-based, as the referee names it
    seed: int
    outcome: str


@record(frozen=True)
class Report:
    """What a report command shows (the odds): lines of text, charts, and the runs it
    was made of. A report never changes the save."""

    title: str
    lines: tuple[str, ...] = ()
    charts: tuple[Chart, ...] = ()
    runs: tuple[ReportRun, ...] = ()

    def run(self, number: int) -> ReportRun | None:
        return self.runs[number - 1] if 1 <= number <= len(self.runs) else None


__all__ = ["Act", "ActionKind", "Cell", "Chart", "Column", "Field", "Followed", "Form", "KINDS",
           "Report",
           "ReportRun", "Series", "Timer", "actor_act"]
