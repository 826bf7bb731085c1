"""The roles a ruleset may fill or lack: declarations, initiative, tracker groups,
runs of a report, acts, the heal check, a join's questions, lists that fill themselves in
set-up, a step of its own after the end. A ruleset names the ones it fills in
`Ruleset.ROLES`; the app and the command line ask for one with `rs.role(Declaring)` and
get None when it is absent.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping

from referee.hints import TYPE_CHECKING

from . import events as ev
from .errors import FormatError, IllegalDeclaration
from .roles import Role
from .specs import Act, ActionKind, Field, Form, actor_act, until_over

if TYPE_CHECKING:
    import random  # annotations only: a plan rolls nothing (start-up)
    from typing import Any, ClassVar, TypeVar

    from .model import Combatant, Encounter
    from .roles import Kit
    from .view import Fight, Status
else:
    from referee.hints import Any, ClassVar, TypeVar


S = TypeVar("S")


class Grouping(Role[S], ABC):
    """The tracker's groups: a large battle's rows fold and unfold by group."""

    @abstractmethod
    def row_groups(self, fight: Fight) -> Mapping[str, tuple[str, str]]:
        """The group each grouped tracker row belongs to (a squad) as combatant id ->
        (key, label); a row not in it has none. The tracker asks this on every change:
        keep it while the groups stay the same (the same mapping, by identity)."""

    def row_group(self, fight: Fight, cid: str) -> tuple[str, str] | None:
        """One row's group as (key, label), or None."""
        return self.row_groups(fight).get(cid)


class Runs(Role[S], ABC):
    """Runs of a report (sanctum's odds), each one to be written out and replayed."""

    @abstractmethod
    def replay_run(self, fight: Fight, seed: int) -> tuple[Fight, list[ev.Event]]:
        """One run: the fight it starts from (its log kept) and the events the run adds,
        drawn from `seed`."""


class Rolling(Role[S], ABC):
    """The initiative role: what is rolled by the program (or typed from real dice)
    before a round can be resolved; the plan orders the round by it."""

    def initiative_due(self, fight: Fight) -> bool:
        """Whether initiative is still to be rolled for the current round."""
        return max(fight.round, 1) not in fight.initiatives

    def initiative_blocks(self, fight: Fight) -> bool:
        """Whether nothing can be resolved until it is rolled (tie rolls may wait)."""
        return self.initiative_due(fight)

    @abstractmethod
    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        """The program's roll: its events (the dice in them)."""

    @abstractmethod
    def initiative_form(self, fight: Fight) -> Form:
        """The form for initiative typed from real dice."""

    @abstractmethod
    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        """The events of initiative typed from real dice, as the form asked for them."""


class Declaring(Role[S], ABC):
    """The declarations role: before the round, each combatant declares one of the
    ruleset's actions (its catalogue), through a form; the plan orders what was declared.
    A declaration is this role's act. A ruleset without it has none:
    `rs.role(Declaring)` is None."""

    def check_declaration(self, fight: Fight, event: ev.Declare) -> None:
        """Refuse a declaration of an action not in the catalogue (the roster schema's
        check of a declare event asks this)."""
        kinds = self.__dict__.get("_kind_table") or self._kinds()  # (a long log's)
        if event.action not in kinds:
            known = ", ".join(self._kinds())
            raise IllegalDeclaration(
                f"unknown action {event.action!r} for {self.rs.id} (actions: {known})",
                ("action",))

    @abstractmethod
    def actions(self) -> list[ActionKind]:
        """Its declaration catalogue: what a combatant may declare, each with its key."""

    def action_keys(self) -> list[str]:
        return list(self._kinds())

    def kind(self, action: str) -> ActionKind | None:
        return self._kinds().get(action)

    def _kinds(self) -> dict[str, ActionKind]:
        """The catalogue by key, worked out once: it comes from the ruleset file."""
        found: dict[str, ActionKind] | None = self.__dict__.get("_kind_table")
        if found is None:
            found = {kind.key: kind for kind in self.actions()}
            self.__dict__["_kind_table"] = found
        return found

    def can_declare(self, fight: Fight, actor: str, action: str) -> str:
        """Why `actor` cannot declare `action` now ("" when it can)."""
        why = self.rs.planner.can_act(fight, actor)
        return f"{fight.roster[actor].name} is {why}" if why else ""

    def further(self, fight: Fight, actor: str, earlier: list[ev.Declare],
                action: str) -> str:
        """Why `actor`, having declared `earlier` this round, cannot add a further
        declaration of `action` ("" when it can: close, then strike)."""
        return (f"{actor} has already declared in round {max(fight.round, 1)}: "
                f"{self.rs.id} takes one declaration a combatant a round")

    def declare_form(self, fight: Fight, actor: str, action: str,
                     prefill: Mapping[str, Any]) -> Form:
        from .forms import declare_fields

        kind = self.kind(action)
        name = kind.name if kind else action
        title = f"{fight.roster[actor].name} declares {action} — {name}"
        return Form(title, declare_fields(fight, actor, kind.fields if kind else (), prefill))

    def prefill(self, fight: Fight, actor: str, action: str) -> dict[str, Any]:
        from .forms import prefill

        kind = self.kind(action)
        return prefill(fight, actor, action, missile=False, needs=kind.fields if kind else ())

    def follow(self, fight: Fight, actor: str, action: str, values: Mapping[str, Any],
               changed: str) -> dict[str, Any]:
        """The declaration form's other fields a change to field `changed` sets, with
        their new values, whatever they hold (demon-idol's D: the spell picked blanks
        the weapon); `values` are the fields as they stand, unchecked. None by default."""
        return {}

    def declaration(self, fight: Fight, actor: str, action: str,
                    values: Mapping[str, Any]) -> ev.Event:
        target = values.get("target")
        targets = (target,) if isinstance(target, str) else tuple(target or ())
        rest = {k: v for k, v in values.items() if k != "target" and v not in (None, False, "")}
        return self.rs.schema.event("declare", round=max(fight.round, 1), actor=actor,
                                    action=action, target=targets, **rest)

    def declaration_acts(self) -> list[Act]:
        """Each action of the catalogue as an act (`declare-G`): a declaration is this
        role's act, and the command line declares through these as the app's keys do."""
        return [until_over(self._declaring(kind.key, kind.name, kind.hotkey))
                for kind in self.actions()]

    def _declaring(self, action: str, name: str, key: str) -> Act:
        def allowed(fight: Fight, actor: str) -> str:
            return self.can_declare(fight, actor, action)

        def form(fight: Fight, actor: str) -> Form:
            return self.declare_form(fight, actor, action, self.prefill(fight, actor, action))

        def run(fight: Fight, actor: str, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
            given = {k: v for k, v in values.items() if k not in ("replaces", "then")}
            if any(d.actor == actor and d.step is None
                   for _, d in fight.declared(max(fight.round, 1))):
                given["replaces"] = True  # a new declaration takes the place of the old
            return [self.declaration(fight, actor, action, given)]

        return actor_act(f"declare-{action}", f"Declare {action}: {name}", key, "",
                         allowed, form, run, show=False, unselected="select who declares")

    def declared_text(self, fight: Fight, cid: str, decl: ev.Declare) -> str:
        """A declaration in the tracker's few columns."""
        text = decl.action
        if decl.target:
            text += f" → {', '.join(decl.target)}"
        return text


class Acting(Role[S], ABC):
    """Its table operations beyond the core's (morale, fire, stand up, the odds ...)."""

    @abstractmethod
    def acts(self, fight: Fight) -> list[Act]:
        """Each act whole: its key, when it is allowed, its form, and the events or the
        report it makes (`Act`)."""


class Healing(Role[S], ABC):
    """A heal that asks more than its amount (count-up's Heal check with its TN)."""

    @abstractmethod
    def heal_fields(self, fight: Fight, target: str | None) -> tuple[Field, ...]:
        """Extra fields of the heal form."""

    @abstractmethod
    def heal_events(self, fight: Fight, heal: ev.Heal,
                    values: Mapping[str, Any]) -> list[ev.Event]:
        """The events a healing from the heal form is entered as, given the answers to
        `heal_fields`."""

    @abstractmethod
    def apply_heal(self, fight: Fight, status: Status, event: ev.Heal) -> Status:
        """The combatant's status after a heal event (a new one: `status` stays as it
        is)."""


class Joining(Role[S], ABC):
    """A join that asks more than the combatant (the count reached as it comes in)."""

    @abstractmethod
    def join_fields(self, fight: Fight) -> tuple[Field, ...]:
        """What a join asks beyond the combatant itself."""

    @abstractmethod
    def join_event(self, fight: Fight, combatant: Combatant,
                   values: Mapping[str, Any]) -> ev.Event:
        """The join event, given the answers to `join_fields`."""


class Carrying(Role[S], ABC):
    """What a combatant takes out of a fight beyond its hit points and conditions (spells
    lost, Stress and Wound Points), for a party carried into the next encounter; what
    ends with the fight and stays behind, said; and what the rules leave open, asked when
    the party is written (`questions`: the app's form shows them beside the file name,
    `referee party` takes them as options), each with a default that stands when not
    asked."""

    # said when the party is written: what the next fight does not inherit, and why
    LEFT: tuple[str, ...] = ()

    def questions(self, fight: Fight) -> tuple[Field, ...]:
        """What the rules leave open about carrying the party over, each a field whose
        default is the answer when it is not asked (said in the field and its help, with
        the rule). None by default."""
        return ()

    @abstractmethod
    def carried(self, fight: Fight, cid: str, answers: Mapping[str, Any]) -> dict[str, Any]:
        """Roster keys to write for `cid` as the fight left it (its spells without those
        lost ...), given the answers to `questions` (every one there, defaults filled)."""

    def left(self, fight: Fight, answers: Mapping[str, Any]) -> list[str]:
        """What ends with the fight and is not written, each with why, given the answers
        to `questions`: said when the party is written, so a default is never silent.
        By default its `LEFT`."""
        return list(self.LEFT)


class Ending(Role[S], ABC):
    """A fight whose end leaves a step of the ruleset's own, not the core's "over":
    demon-idol's recovery turn (DI-20). The core's fold reads it as it folds the end."""

    PHASE: ClassVar[str] = "over"  # the phase the end leaves the fight in


class Entries(Role[S], ABC):
    """Lists of the encounter (sanctum's groups) that set-up fills as combatants name
    their entries."""

    @abstractmethod
    def new_item(self, encounter: Encounter, key: str, item_id: str,
                 combatant: Combatant) -> dict[str, Any] | None:
        """A combatant names an entry of the encounter's list `key` that is not there
        yet: the entry to make for it, or None to refuse."""


# -- what the core does where a ruleset lacks the role -------------------------------------


def acts_of(rs: Kit[Any], fight: Fight) -> list[Act]:
    """The ruleset's own acts (none without the role), each refused once the fight is
    over unless the end leaves it to do (`until_over`): no ruleset can forget it."""
    acting = rs.role(Acting)
    return [until_over(act) for act in acting.acts(fight)] if acting is not None else []


def heal_fields(rs: Kit[Any], fight: Fight, target: str | None) -> tuple[Field, ...]:
    healing = rs.role(Healing)
    return healing.heal_fields(fight, target) if healing is not None else ()


def heal_events(rs: Kit[Any], fight: Fight, heal: ev.Heal,
                values: Mapping[str, Any]) -> list[ev.Event]:
    """A healing as the ruleset enters it: by default the heal event itself."""
    healing = rs.role(Healing)
    return healing.heal_events(fight, heal, values) if healing is not None else [heal]


def apply_heal(rs: Kit[Any], fight: Fight, status: Status, event: ev.Heal) -> Status:
    """A heal event folded: by default hit points back, up to the most."""
    healing = rs.role(Healing)
    if healing is not None:
        return healing.apply_heal(fight, status, event)
    return healed(status, event)


def healed(status: Status, event: ev.Heal) -> Status:
    """A heal's default: hit points back, up to the most."""
    return status.changed(hp=min(status.max_hp, status.hp + event.amount))


def carry_questions(rs: Kit[Any], fight: Fight) -> tuple[Field, ...]:
    """What the ruleset asks when a party is written (none without the role)."""
    carrying = rs.role(Carrying)
    return carrying.questions(fight) if carrying is not None else ()


def carry_answers(rs: Kit[Any], fight: Fight,
                  given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every question's answer: each default, then what was `given` (None: nothing asked,
    every default stands). An answer to a question the ruleset does not ask, or one that
    is not among a choice's options, is refused with its name."""
    fields = {f.name: f for f in carry_questions(rs, fight)}
    answers = {name: f.default for name, f in fields.items()}
    for name, value in (given or {}).items():
        field = fields.get(name)
        if field is None:
            asked = ", ".join(fields) or "none"
            raise FormatError(f"{rs.name} asks no question {name!r} when the party is "
                              f"written (its questions: {asked})", (name,))
        if value is None:
            continue  # not answered: the default stands
        allowed = ([v for _, v in field.options] if field.kind == "choice"
                   else [False, True] if field.kind == "bool" else None)
        if allowed is not None and value not in allowed:
            shown = ", ".join(repr(v) for v in allowed)
            raise FormatError(f"{field.title}: one of {shown}, not {value!r}", (name,))
        answers[name] = value
    return answers


def join_fields(rs: Kit[Any], fight: Fight) -> tuple[Field, ...]:
    joining = rs.role(Joining)
    return joining.join_fields(fight) if joining is not None else ()


def join_event(rs: Kit[Any], fight: Fight, combatant: Combatant,
               values: Mapping[str, Any]) -> ev.Event:
    """A join as the ruleset enters it: by default the combatant joins this round."""
    joining = rs.role(Joining)
    if joining is not None:
        return joining.join_event(fight, combatant, values)
    return rs.schema.event("join", round=max(fight.round, 1), combatant=combatant)
