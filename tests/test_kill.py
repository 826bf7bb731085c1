"""Kill test: a process appends events while it is killed with SIGKILL at random moments;
after every kill the save loads and holds every event that was acknowledged."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from referee.engine import events as ev
from referee.session.files import load_save
from tests.conftest import ROOT

CHILD = """
import sys
sys.path.insert(0, sys.argv[2])
from referee.engine import events as ev
from referee.session.store import Session
session = Session.open(sys.argv[1])
start = len(session.fight.log)
for n in range(start, start + 100000):
    session.append(ev.Note(round=1, text=f"note {n}"))
    print(n, flush=True)
"""

KILLS = 25


def notes(path: Path) -> list[str]:
    save = load_save(path)
    return [e.text for e in save.fight.log if isinstance(e, ev.Note)]


def test_every_acknowledged_event_survives_sigkill(tmp_path: Path):
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    rng = random.Random(20261121)
    for _ in range(KILLS):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(ROOT)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # killed at a random moment once it is appending (a loaded machine may take a
        # while to start it: the kill must not land before its first event)
        assert child.stdout is not None
        first = child.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.35))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate()
        assert "Traceback" not in err, err
        acked = [int(line) for line in (first + out).split()]
        kept = notes(path)
        assert kept == [f"note {n}" for n in range(len(kept))]  # in order, none lost between
        if acked:
            assert len(kept) > acked[-1], (acked[-1], len(kept))
    assert len(notes(path)) > KILLS
