"""What a save of each size costs to read: `referee check` on valid demon-idol saves of
2 to 16 MiB, each in a fresh process, its wall time and its peak memory (max RSS).

The save cap (referee/session/files.py, SAVE_BYTES) is the size this machine checks in
under 5 s and 500 MB (issue 31, point 4); the cap's own row says whether it still does.

    .venv/bin/python benchmarks/save_cap_bench.py            # 2, 4, 8, 12, 16 MiB
    .venv/bin/python benchmarks/save_cap_bench.py 8 10       # the sizes to try
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from session_bench import generated_fight  # noqa: E402

from referee.session.files import MIB, SAVE_BYTES  # noqa: E402
from referee.session.writer import save_text  # noqa: E402

ROUND_EVENTS = 39  # one generated round: 9 declarations, initiative, 7 beats of 4, a new round
ROUNDS = 256
_ROUND = re.compile(r'^"round" = (\d+)$', re.MULTILINE)


def save_of(size: int, folder: Path) -> Path:
    """A valid save of about `size` bytes: the generated fight's whole rounds again and
    again, each copy's rounds after the last."""
    fight = generated_fight(ROUND_EVENTS * ROUNDS)
    text = save_text(fight.encounter, list(fight.log))
    head, _, events = text.partition("\n[[events]]\n")
    events = "[[events]]\n" + events
    parts, total, copy = [head + "\n"], len(head), 0
    while total < size:
        chunk = _ROUND.sub(lambda m, shift=copy * ROUNDS: f'"round" = {int(m.group(1)) + shift}',
                           events)
        if total + len(chunk) > size:
            blocks = chunk.split("\n[[events]]\n")
            cut = max(1, len(blocks) * (size - total) // len(chunk))
            cut -= cut % ROUND_EVENTS  # whole rounds only
            chunk = "\n[[events]]\n".join(blocks[:max(cut, 1)]) + "\n"
            parts.append(chunk)
            break
        parts.append(chunk)
        total += len(chunk)
        copy += 1
    path = folder / f"save-{size // MIB}mib.toml"
    path.write_text("".join(parts), encoding="utf-8")
    return path


# `referee check` with the save cap lifted, to see what a save past it would cost
LIFTED = ("import sys; import referee.session.files as f; f.CAPS['a save'] = 1 << 40; "
          "from referee.cli import main; sys.exit(main(['check', sys.argv[1]]))")


def checked(path: Path) -> tuple[float, float, str]:
    """Seconds and peak MB of `referee check` on `path` in a fresh process (the cap lifted
    for a save past it), and its answer."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", LIFTED, str(path)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    _, _, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    answer = child.stdout.read().decode().strip() if child.stdout else ""
    return seconds, usage.ru_maxrss / 1024, answer


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [2, 4, 8, 12, 16]
    print(f"save cap now: {SAVE_BYTES / MIB:.0f} MiB (target: checked in under 5 s and 500 MB)")
    with tempfile.TemporaryDirectory() as folder:
        for mib in sizes:
            path = save_of(mib * MIB, Path(folder))
            real = path.stat().st_size / MIB
            seconds, peak, answer = checked(path)
            ok = "ok" if ": ok (" in answer else answer[-120:]
            over = "  (past the cap: refused unread)" if real > SAVE_BYTES / MIB else ""
            print(f"{real:6.1f} MiB  check {seconds:5.2f} s  peak {peak:6.0f} MB  {ok}{over}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
