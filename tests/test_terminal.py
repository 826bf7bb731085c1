"""The app in a real terminal (tmux): declare for everyone, roll initiative, resolve
beats, record damage; kill the process with SIGKILL; the save holds every step the
screen acknowledged, and the app restarted on it shows the round as it was.

Every wait polls the pane (never a fixed sleep) until the effect shows, with a timeout.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.engine import events as ev
from referee.session.files import Save, load_save
from tests.conftest import ROOT

TMUX = shutil.which("tmux")
WIDTH, HEIGHT = 100, 30
TITLE = "Goblins at the ford"
FORM = "Esc cancels"  # every form's hint line: a form is open
EMPTY_DAMAGE = re.compile(r"│? damage +(│|█|dice to roll|$)", re.MULTILINE)
TYPED_DAMAGE = re.compile(r" damage +1 ")
DAMAGE_FIELD = re.compile(r"█ damage  ")  # the damage form's amount field
POLL = 0.05  # seconds between two looks at the pane (each look a tmux process: 0.02 cost
# the tmux clients a third more CPU, for a step seen at most 30 ms sooner)
TIMEOUT = 10.0  # seconds for one step to show; launching gets twice as long


def referee_command() -> list[str]:
    script = Path(sys.executable).parent / "referee"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "referee"]


def poll(what: str, done: Callable[[], bool], timeout: float = TIMEOUT,
         shown: Callable[[], str] = str) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; {shown()}")
        time.sleep(POLL)


class Terminal:
    """A private tmux server (its own socket, in a folder of its own) running the app."""

    def __init__(self, folder: Path) -> None:
        self.socket = f"rt-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        # The socket lives under TMUX_TMPDIR: no other tmux server or socket is touched.
        self.env.update(TMUX_TMPDIR=str(folder), LC_ALL="C.UTF-8", LANG="C.UTF-8")
        self.session = ""

    def tmux(self, *args: str, check: bool = True) -> str:
        done = subprocess.run([TMUX or "tmux", "-u", "-L", self.socket, *args], env=self.env,
                              capture_output=True, text=True, timeout=10)
        if check and done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def start(self, save: Path, width: int = WIDTH, height: int = HEIGHT) -> int:
        """The app on `save` as the pane's own process (env execs it: same pid)."""
        self.session = f"app-{uuid.uuid4().hex[:8]}"
        command = ["env", "TERM=xterm-256color", "COLORTERM=truecolor", "LC_ALL=C.UTF-8",
                   *referee_command(), "play", str(save)]
        self.tmux("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height),
                  "--", *command)
        # A killed app leaves its pane (and so the server) behind: a restart never races
        # a server on its way out, and tmux itself can say the process is dead.
        self.tmux("set-option", "-g", "remain-on-exit", "on")
        return int(self.tmux("list-panes", "-t", self.session, "-F", "#{pane_pid}").split()[0])

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def wait(self, what: str, shows: Callable[[str], bool], timeout: float = TIMEOUT) -> str:
        """Poll the pane until `shows` holds for it; that screen."""
        seen = [""]

        def look() -> bool:
            seen[0] = self.screen()
            return shows(seen[0])

        poll(what, look, timeout, lambda: f"the screen shows:\n{seen[0]}")
        return seen[0]

    def wait_text(self, text: str, timeout: float = TIMEOUT) -> str:
        return self.wait(repr(text), lambda screen: text in screen, timeout)

    def pane_dead(self) -> bool:
        return self.tmux("list-panes", "-t", self.session, "-F", "#{pane_dead}").strip() == "1"

    def close(self) -> None:
        self.tmux("kill-server", check=False)


def tracker_row(screen: str, name: str) -> str | None:
    """The tracker's row for the combatant called `name`: its name after the mark column
    (▶ for the current beat's actors, blank otherwise)."""
    for line in screen.splitlines():
        if re.match(rf"^[▶ ]? *{re.escape(name)}  ", line):
            return line
    return None


def row(screen: str, name: str) -> str:
    found = tracker_row(screen, name)
    assert found is not None, f"no tracker row for {name!r} on the screen:\n{screen}"
    return found


def plan_row(screen: str, beat: int) -> str | None:
    """The plan's row for beat `beat` (its mark, its number, its actions)."""
    for line in screen.splitlines():
        if re.match(rf"^[✓▶ ]? *{beat} +\S", line):
            return line
    return None


def log_numbers(screen: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^ *(\d+)\. \S", screen, re.MULTILINE)]


def hp_text(save: Save, cid: str) -> str:
    status = save.fight.status[cid]
    return f"{status.hp}/{status.max_hp}"


def test_a_killed_app_restarts_on_the_round_as_it_was(tmp_path: Path):
    if TMUX is None:
        pytest.skip("tmux is not installed")
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    roster = load_save(path).fight.roster
    names = {cid: c.name for cid, c in roster.items()}
    # A short folder of its own for the server's socket (a socket path has ~100 bytes).
    sockets = Path(tempfile.mkdtemp(prefix="referee-tmux-"))
    term = Terminal(sockets)
    try:
        pid = term.start(path)
        # the pane is the app (once `env` has exec'd it: the same pid)
        poll("the pane to run the app", lambda: any(
            b"referee" in part for part in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")),
             shown=lambda: str(Path(f"/proc/{pid}/cmdline").read_bytes()))
        screen = term.wait_text(TITLE, timeout=2 * TIMEOUT)
        assert "round 1 · declarations" in screen

        # Declarations: `g` opens the form for the combatant under the cursor, Enter
        # confirms, and the cursor moves on to the next one by itself.
        for name in names.values():
            term.keys("g")
            term.wait(f"{name}'s declaration form",
                      lambda s, name=name: FORM in s and f"{name} declares G" in s)
            term.keys("Enter")
            screen = term.wait(
                f"{name}'s declaration in the tracker",
                lambda s, name=name: FORM not in s
                and re.search(r"\d+/\d+ +G \S", tracker_row(s, name) or "") is not None)
        # the plan's panel may draw a frame after the tracker's row
        term.wait("the plan asking for initiative", lambda s: "roll initiative to order them" in s)

        term.keys("i")
        screen = term.wait("the plan", lambda s: "· initiative · dice " in s and plan_row(s, 1))
        plan = load_save(path).fight.plan(1)
        assert len(plan.beats) >= 3  # the demo's seed: party 4, goblins 1; three beats
        for number, beat in enumerate(plan.beats, start=1):
            shown = plan_row(screen, number)
            assert shown is not None, f"beat {number} is not shown:\n{screen}"
            text = ", ".join(action.label() for action in beat.actions)
            # a beat of many actions is cut at 40% of the pane, to leave its rules and why
            # room (Enter on it shows it whole)
            assert text[:20] in shown and (text in shown or "…" in shown), (text, shown)
        assert plan_row(screen, 1).startswith("▶")  # the first beat is next

        term.keys("n")
        screen = term.wait("beat 1 checked off", lambda s: (plan_row(s, 1) or "").startswith("✓")
                           and "beat 1 resolved" in s)
        assert plan_row(screen, 2).startswith("▶")

        term.keys("h")
        term.wait("the damage form", lambda s: FORM in s and DAMAGE_FIELD.search(s) is not None)
        term.keys("5")
        term.wait("the damage typed", lambda s: re.search(r"█ damage +5 ", s) is not None)
        term.keys("Enter")
        screen = term.wait("the damage in the log", lambda s: FORM not in s and re.search(
            r"takes 5 damage from .* \(hp ", s) is not None)

        term.keys("n")
        screen = term.wait("beat 2 checked off", lambda s: (plan_row(s, 2) or "").startswith("✓")
                           and "beat 2 resolved" in s)

        # What the screen acknowledged, read off it before the kill.
        damage_line = re.search(r"(\d+)\. (\S.* takes 5 damage from .* \(hp -?\d+/\d+\))",
                                screen)
        assert damage_line is not None, screen
        last_shown = max(log_numbers(screen))
        before = {cid: row(screen, name) for cid, name in names.items()}

        os.kill(pid, signal.SIGKILL)
        poll("the killed app to die", lambda: term.pane_dead() and state(pid) in ("Z", "X"),
             shown=lambda: f"pane dead: {term.pane_dead()}, process state: {state(pid)}")

        save = load_save(path)
        fight = save.fight
        assert save.warning == ""
        assert len(fight.log) == last_shown
        declared = {d.actor: d for _, d in fight.declared(1) if d.segment is None}
        assert set(declared) == set(roster)
        assert all(d.action == "G" for d in declared.values())
        assert 1 in fight.initiatives
        assert fight.plan(1).current(fight.resolved.get(1, set())) == 3  # two beats done
        damage = [e for e in fight.log if isinstance(e, ev.Damage)]
        assert len(damage) == 1 and damage[0].amount == 5
        target = damage[0].target
        assert fight.status[target].hp == roster[target].hp - 5
        assert damage_line.group(2).startswith(f"{names[target]} takes 5 damage")
        for cid in roster:
            assert f"  {hp_text(save, cid)}  " in before[cid], (cid, before[cid])

        # The app again, on the same file.
        pid = term.start(path)
        screen = term.wait("the combat screen again",
                           lambda s: TITLE in s and plan_row(s, 3) is not None,
                           timeout=2 * TIMEOUT)
        assert "round 1 · resolution" in screen
        for cid, name in names.items():
            shown = row(screen, name)
            assert f"  {hp_text(save, cid)}  " in shown, (name, shown)
            decl = declared[cid]
            target = fight.roster[decl.target[0]].name  # the screen names, never ids
            assert f"  G {decl.weapon} → {target}" in shown, (name, shown)
        assert plan_row(screen, 1).startswith("✓")
        assert plan_row(screen, 2).startswith("✓")
        assert plan_row(screen, 3).startswith("▶")
        for action in fight.plan(1).beats[2].actions:  # its actors who can still act
            marked = row(screen, names[action.actor]).startswith("▶")
            assert marked == (not action.flag("skipped")), action.actor
        assert f"{int(damage_line.group(1)):>5}. {damage_line.group(2)}" in screen
        assert f"{last_shown:>5}. beat 2 resolved" in screen
        assert max(log_numbers(screen)) == last_shown
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)


def state(pid: int) -> str:
    """A process's state letter (Z for a zombie), or X when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return "X"


def test_a_round_at_80x24_keeps_the_current_beat_and_the_newest_line_in_view(tmp_path: Path):
    """Played from the keyboard on a small terminal: after every step the screen shows the
    newest log line (its number is the log's length on disk) and, once initiative is in,
    the current beat's row marked ▶."""
    if TMUX is None:
        pytest.skip("tmux is not installed")
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    letters = {"brann": "g", "zed": "d", "mira": "d", "odo": "g", "gob1": "g", "gob2": "g",
               "gob3": "d", "ogre": "g", "shaman": "d"}
    sockets = Path(tempfile.mkdtemp(prefix="referee-tmux-"))
    term = Terminal(sockets)

    def newest_shown(screen: str) -> bool:
        logged = len(load_save(path).fight.log)
        return logged == 0 or logged in log_numbers(screen)

    def current_shown(screen: str) -> bool:
        fight = load_save(path).fight
        beat = fight.plan(1).current(fight.resolved.get(1, set()))
        return beat is None or any(re.match(rf"^▶ +{beat} ", line)
                                   for line in screen.splitlines())

    try:
        term.start(path, 80, 24)
        term.wait_text(TITLE, timeout=2 * TIMEOUT)
        roster = load_save(path).fight.roster
        for actor in letters:
            logged = len(load_save(path).fight.log)
            term.keys(letters[actor])
            # the form is this actor's (the cursor moved on) before anything is typed in it
            term.wait_text(f"{roster[actor].name} declares")
            term.keys("Enter")
            term.wait(f"{actor}'s declaration logged and in view",
                      lambda s, n=logged: len(load_save(path).fight.log) > n and newest_shown(s))
        term.keys("i")
        term.wait("initiative and the first beat in view",
                  lambda s: newest_shown(s) and current_shown(s) and "▶" in s)
        fight = load_save(path).fight
        for step in range(len(fight.plan(1).beats)):  # every beat the dice gave
            term.keys("h")
            term.wait("the damage form", lambda s: bool(DAMAGE_FIELD.search(s)))
            # typed from real dice: a spell without damage offers none (issue 24 B.8)
            term.keys("C-u")
            term.wait("the damage field empty", lambda s: bool(EMPTY_DAMAGE.search(s)))
            # 1 a blow: however the dice order the round, no one falls before acting.
            # A character sent within a few ms of ctrl+u is lost between tmux and
            # Textual's key parser (a person's next key is never that close).
            time.sleep(0.2)
            term.keys("1")
            term.wait("1 typed", lambda s: bool(TYPED_DAMAGE.search(s)))
            term.keys("Enter")
            term.wait(f"hit {step} in view", lambda s: newest_shown(s) and current_shown(s))
            term.keys("n")
            term.wait(f"beat {step} resolved, the next in view",
                      lambda s: newest_shown(s) and current_shown(s))
            screen = term.screen()
            assert len(screen.splitlines()) <= 24
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)
