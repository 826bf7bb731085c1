"""demon-idol's declarations: its letters (the file's, P and A-G by default), each with
the fields its role takes; the declaration form with its clock (DI-16); what it prefills;
the further declaration after an E (book.py); a declaration's cell in the tracker."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.forms import last_declaration, prefill
from referee.engine.options import Declaring
from referee.engine.record import replace
from referee.engine.specs import ActionKind, Field, Form, Timer
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import discharge, routines, stats, volleys
from . import events as di
from .settings import Settings, Settled
from .state import State, state_of
from .wording import name

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

# DI-16: each full 6 seconds a player dithers over a declaration delays it 1 segment
DECLARATION_CLOCK = Timer(6, "delay", "seg", "DI-16")
# the fields a declaration of each letter role takes, and those any takes
FIELDS = {
    "psionic": ("target",),
    "avoid": ("note",),
    "parley": ("target",),
    "await": (),
    "discharge": ("weapon", "spell", "device", "usage_time", "turn", "target", "shots"),
    "move": ("charge", "distance", "indoors", "closing", "weapon", "target"),
    "set": ("weapon", "target"),
    "strike": ("weapon", "target", "routines"),
}
ALWAYS = ("prepared", "trigger", "delay", "segment", "note", "initiative")
DECLARE_SPECS = {
    "device": Field("device", "device"),
    "usage_time": Field("usage_time", "segments to use", "int", minimum=0),
    "turn": Field("turn", "turn undead", "bool", False),
    "charge": Field("charge", "charge", "bool", False),
    "closing": Field("closing", "segments to close", "int", minimum=0,
                     help="typed: wins over the distance"),
    "distance": Field("distance", "distance", "number",
                      help='inches (") to close: with the movement rate, the segments'),
    "indoors": Field("indoors", "where", "choice", None,
                     options=(("as the encounter", None), ("indoors", "indoors"),
                              ("outdoors", "outdoors")),
                     help="a charge: twice the movement rate indoors, a third more outdoors"),
    "prepared": Field("prepared", "prepared", "bool", False),
    "trigger": Field("trigger", "trigger"),
    "initiative": Field("initiative", "initiative", "choice", None,
                        options=(("as its side", None), ("haste: wins", "haste"),
                                 ("weapon of speed: wins", "speed"), ("slow: loses", "slow")),
                        help="this action alone wins or loses initiative"),
    "shots": Field("shots", "shots at each target", help=volleys.HELP),
    "note": Field("note", "how", help="slams the door, flees north, escapes by magic …"),
    "routines": Field("routines", "weapon of each routine", help=routines.HELP),
}


class DemonIdolDeclaring(Settled[State], Declaring[State]):
    def actions(self) -> list[ActionKind]:
        return [ActionKind(key, name, FIELDS[role], key.lower())
                for key, name, role in self.settings.letters]

    def further(self, fight: Fight, actor: str, earlier: list[ev.Declare],
                action: str) -> str:
        from .book import further

        return further(self.settings, earlier, action)

    def can_declare(self, fight: Fight, actor: str, action: str) -> str:
        """... and a D only of one with something to discharge (a fighter with a long
        sword alone has none)."""
        why = super().can_declare(fight, actor, action)
        if why or self.settings.role_of.get(action) != "discharge":
            return why
        return discharge.why_not(fight.roster[actor], action)

    def declare_form(self, fight: Fight, actor: str, action: str,
                     prefilled: Mapping[str, Any]) -> Form:
        from referee.engine.forms import declare_fields

        kind = self.kind(action)
        combatant = fight.roster[actor]
        needs = tuple(n for n in (kind.fields if kind else ())
                      if (n != "shots" or _volleys(combatant))
                      and (n != "routines" or routines.several_weapons(combatant)))
        needs += ("prepared", "trigger")
        if "initiative" in prefilled or _overrides(combatant):
            needs += ("initiative",)
        title = f"{combatant.name} declares {action} — {kind.name if kind else ''}"
        return Form(title, declare_fields(fight, actor, needs, prefilled, DECLARE_SPECS),
                    clock=DECLARATION_CLOCK)

    def prefill(self, fight: Fight, actor: str, action: str) -> dict[str, Any]:
        role_of = self.settings.role_of
        kind = self.kind(action)
        needs = kind.fields if kind else ()
        out = prefill(fight, actor, action, missile=role_of.get(action) == "discharge",
                      needs=needs)
        combatant = fight.roster[actor]
        last = last_declaration(fight, actor)
        if role_of.get(action) == "discharge":
            again = last if isinstance(last, di.Declare) and last.action == action else None
            out = discharge.prefill(combatant, out, again)
        aimed = _aimed_this_round(fight, actor)
        if aimed is not None and "target" in needs:
            out["target"] = aimed  # a G after an E strikes whom the E closed on
        weapon = combatant.weapon(out["weapon"]) if out.get("weapon") else None
        override = stats.hasted(combatant) or (
            "speed" if weapon is not None and stats.of_speed(weapon) else None)
        if override is not None:
            out["initiative"] = override
        if isinstance(last, di.Declare) and last.action == action and last.routines:
            out["routines"] = routines.text_of(last.routines)  # as last round
        return out

    def follow(self, fight: Fight, actor: str, action: str, values: Mapping[str, Any],
               changed: str) -> dict[str, Any]:
        """A D discharges one thing: the one the referee picks blanks the others."""
        if self.settings.role_of.get(action) != "discharge":
            return {}
        return discharge.clears(values, changed)

    def declaration(self, fight: Fight, actor: str, action: str,
                    values: Mapping[str, Any]) -> ev.Event:
        if self.settings.role_of.get(action) == "discharge":  # the one chosen clears
            values = discharge.chosen(values, self.prefill(fight, actor, action))
        named = values.get("routines")
        if isinstance(named, str):  # the form's line: its routines name the weapons
            values = {k: v for k, v in values.items() if k != "routines"}
            if named.strip():
                values = {k: v for k, v in values.items() if k != "weapon"}
                values["routines"] = routines.parse(named)
        shots = values.get("shots")
        if isinstance(shots, str):  # the form's line: the shots name the volley's targets
            values = _volley(fight, values, volleys.parse(fight, shots))
        elif isinstance(shots, (list, tuple)):
            values = {**values, "shots": tuple(shots)}
        where = values.get("indoors")
        if isinstance(where, str):  # the form's words: a choice cannot carry a false value
            values = {k: v for k, v in values.items() if k != "indoors"}
            event = super().declaration(fight, actor, action, values)
            return replace(event, indoors=where == "indoors")
        return super().declaration(fight, actor, action, values)

    def declared_text(self, fight: Fight, cid: str, decl: ev.Declare) -> str:
        return declared(self.settings, fight, cid, decl)


# -- a declaration's cell in the tracker (and the players' view, which shows the same) ----


def declared(s: Settings, fight: Fight, cid: str, decl: ev.Declare) -> str:
    """A declaration in the tracker's few columns; a group that broke shows the avoidance
    that replaced what it declared (DI-18), never the old declaration."""
    broke = state_of(fight).broken.get((max(fight.round, 1), cid))
    if broke is not None:
        return f"{s.letter_of['avoid']} {broke} (morale, DI-18)"
    text = one_declared(fight, cid, decl)
    if decl.then:  # close, then strike: the whole round's intent in one cell
        first = fight.own_declarations(decl)[0]
        text = f"{one_declared(fight, cid, first, brief=True)}, then {text}"
    return text


def one_declared(fight: Fight, cid: str, decl: ev.Declare, brief: bool = False) -> str:
    """`G (+1 seg) long sword → Goblin 1`: the letter, the declaration delay it added (DI-16),
    what it uses, at whom (a volley's shots grouped by target), and its note; `brief`:
    the letter and the target alone."""
    d = decl if isinstance(decl, di.Declare) else None
    text = decl.action
    if d is not None and d.delay:
        text += f" (+{d.delay} seg)"
    what = "" if brief or d is None else using(fight, cid, d)
    if what:
        text += f" {what}"
    if d is not None and d.shots and not brief:  # named as the rest of the screen names them
        text += f" → {volleys.text_of(d.shots, lambda t: name(fight, t))}"
    elif decl.target:
        text += f" → {', '.join(name(fight, t) for t in decl.target)}"
    if d is not None and d.spell and (fight.round, cid) in state_of(fight).lost_spells:
        text += " (lost)"
    if decl.note and not brief:
        text += f": {decl.note}"
    return text


def using(fight: Fight, cid: str, d: di.Declare) -> str:
    """What a declaration uses: its weapon (each routine's), spell with its casting time,
    device, or turning."""
    if d.routines:
        return " + ".join(r["weapon"] + (f" ({r['timing']})" if "timing" in r else "")
                          for r in d.routines)
    what = d.weapon or d.spell or d.device or ("turn undead" if d.turn else "")
    spell = fight.roster[cid].spell(d.spell) if d.spell else None
    time = stats.casting_time(spell) if spell is not None else None
    return f"{what} ({time} seg)" if time is not None else what


# -- the form's helpers --------------------------------------------------------------------


def _volley(fight: Fight, values: Mapping[str, Any], shots: tuple[str, ...]) -> dict[str, Any]:
    """A volley split from the form: its shots, and as its target whom they aim at
    (the target field is the whole volley's when no shots are typed)."""
    out = {k: v for k, v in values.items() if k != "shots"}
    if shots:
        out["shots"], out["target"] = shots, volleys.targets(shots)
    return out


def _aimed_this_round(fight: Fight, actor: str) -> str | None:
    """Whom `actor` already aims at this round (its E, before a further G or D; its
    own declaration, when it declares again), if that one still stands in the fight:
    this round's word beats last round's."""
    for _, decl in reversed(fight.declared(max(fight.round, 1))):
        if decl.actor == actor and decl.step is None and decl.target:
            aimed = decl.target[0]
            return aimed if aimed in fight.roster and fight.alive(aimed) else None
    return None


def _overrides(combatant: Any) -> bool:
    """The declaration form asks for an initiative override only of a combatant hasted,
    slowed or carrying a weapon of speed."""
    return stats.hasted(combatant) is not None or any(
        stats.of_speed(w) for w in combatant.weapons)


def _volleys(combatant: Any) -> bool:
    """... and for a target per shot only of one with a missile of rate 2 or more."""
    return any(stats.discharged(w) and stats.rate(w) > 1 for w in combatant.weapons)
