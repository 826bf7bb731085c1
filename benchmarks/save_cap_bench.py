"""What a save of each size costs to read: `referee check` on valid demon-idol saves of
2 to 16 MiB, each in a fresh process, its wall time and its peak memory (max RSS):
savecap.Nmib and savecap.Nmib.peak.

The save cap (referee/session/files.py, SAVE_BYTES) is the size this machine checks in
under 5 s and 500 MB (issue 31, point 4); the cap's own row says whether it still does.
A save past the cap is checked with the cap lifted, to see what it would cost.

    .venv/bin/python benchmarks/save_cap_bench.py            # 2, 4, 8, 12, 16 MiB
    .venv/bin/python benchmarks/save_cap_bench.py 8 10       # the sizes to try
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import TREE, Figure, Measure, Values, main, measured, workdir  # noqa: E402
from session_bench import generated_fight  # noqa: E402

from referee.session import files  # noqa: E402
from referee.session.writer import save_text  # noqa: E402

ROOT = TREE
MIB = 1024 * 1024
SAVE_BYTES: int | None = getattr(files, "SAVE_BYTES", None)  # none before issue 31
SIZES = [2, 4, 8, 12, 16]

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
LIFTED = ("import sys; import referee.session.files as f; "
          "hasattr(f, 'CAPS') and f.CAPS.__setitem__('a save', 1 << 40); "
          "from referee.cli import main; sys.exit(main(['check', sys.argv[1]]))")


def checked(path: Path) -> tuple[float, float, str]:
    """Seconds and peak MB of `referee check` on `path` in a fresh process (the cap lifted
    for a save past it), and its answer."""
    ran = measured([sys.executable, "-c", LIFTED, str(path)], ROOT)
    return ran.seconds, ran.peak, ran.output.strip()


@functools.cache
def sized(mib: int) -> Path:
    return save_of(mib * MIB, workdir())


def checks(mib: int) -> Measure:
    def sample(n: int) -> Values:
        found: Values = {"seconds": [], "peak": []}
        for _ in range(n):
            seconds, peak, answer = checked(sized(mib))
            if ": ok (" not in answer:
                raise RuntimeError(f"referee check on {mib} MiB: {answer[-200:]}")
            found["seconds"].append(seconds)
            found["peak"].append(peak)
        return found

    over = "  (past the cap: checked with it lifted)" if past(mib) else ""
    name, text = f"savecap.{mib}mib", f"referee check, a {mib} MiB save{over}"
    return Measure(name, sample, (
        Figure(name, text, "seconds", unit="s", goal="< 5 s" if not over else ""),
        Figure(f"{name}.peak", f"{text}, peak memory", "peak", unit="MB",
               goal="< 500 MB" if not over else "")),
        setup=lambda: sized(mib), script=(1, 1), compare=(1, 1), every=2 if mib >= 8 else 1,
        warm=False)


def past(mib: int) -> bool:
    return SAVE_BYTES is not None and mib * MIB > SAVE_BYTES


MEASURES: list[Measure] = [checks(mib) for mib in SIZES]


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[1:]] or SIZES
    cap = f"{SAVE_BYTES / MIB:.0f} MiB" if SAVE_BYTES else "none"
    main([checks(mib) for mib in sizes],
         f"save cap now: {cap} (target: checked in under 5 s and 500 MB)")
