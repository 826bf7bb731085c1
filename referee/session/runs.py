"""One run of a report (a run of the odds) written out as a save of its own, to replay.

The file is written the way `referee fight SAVE --seed X -o RUN.toml` writes it: the
save as the run starts (its log so far), then each step the run adds appended to it
like any event, so both give the same file.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine import Encounter, Fight
from referee.engine.errors import IllegalEvent
from referee.engine.options import Runs

from .store import SaveError, Session, write_atomic
from .writer import save_text


def run_path(save: Path, number: int) -> Path:
    """A new file beside the save, `<stem>-run-<n>.toml` (then `-2`, `-3` ...): created
    empty here, so a file already there is never written over."""
    tries = 1
    while True:
        tail = "" if tries == 1 else f"-{tries}"
        path = save.with_name(f"{save.stem}-run-{number}{tail}.toml")
        try:
            path.open("x", encoding="utf-8").close()
        except FileExistsError:
            tries += 1
            continue
        except OSError as error:
            raise SaveError(f"{path}: cannot write it ({error.strerror})") from None
        return path


def write_run(encounter: Encounter, fight: Fight, seed: int, path: Path) -> Path:
    """Run `seed` of the fight's report written to `path` (which `run_path` made)."""
    runs = fight.ruleset.role(Runs)
    if runs is None:
        raise IllegalEvent(f"{fight.ruleset.name} has no runs to replay")
    base, steps = runs.replay_run(fight, seed)
    try:
        write_atomic(path, save_text(encounter, list(base.log)))
        session = Session.open(path, lock=True)
        try:
            for number, step in enumerate(steps):  # one act, undone whole, as fought
                session.append(step, follows=number > 0)
        finally:
            session.close()
    except BaseException:
        path.unlink(missing_ok=True)  # no half-written run left behind to mislead
        raise
    return path
