"""Build sanctum's compiled simulator (`make` runs this): sim.py compiled by mypyc as
`referee/rulesets/sanctum/_simc`, which the runs take while it is sim.py's own
(referee/rulesets/sanctum/simulator.py).

The source compiled is sim.py's text with its fingerprint appended, built in a folder of
its own; the two shared objects mypyc makes are then moved beside sim.py. Without a C
compiler, or when the build fails, nothing is left there and the runs are sim.py's
(slower, the same draws): the build says so and succeeds, since nothing else needs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee" / "rulesets" / "sanctum"
NAME = "_simc"


def built() -> list[Path]:
    return sorted(PACKAGE.glob(f"{NAME}*{sysconfig.get_config_var('EXT_SUFFIX')}"))


def compiler() -> str | None:
    """The C compiler, if there is one and Python's headers to build with it."""
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return None  # (Debian's python3 without python3-dev)
    return shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


def source() -> str:
    sys.path.insert(0, str(ROOT))
    from referee.rulesets.sanctum import simulator

    text = (PACKAGE / "sim.py").read_text(encoding="utf-8")
    return f"{text}\n\nFINGERPRINT = {simulator.fingerprint(simulator.pure)!r}\n"


def compile_in(folder: Path, text: str) -> list[Path]:
    package = folder / "referee" / "rulesets" / "sanctum"
    package.mkdir(parents=True)
    for level in (folder / "referee", package.parent, package):
        (level / "__init__.py").write_text("")
    (package / f"{NAME}.py").write_text(text, encoding="utf-8")
    # optimised at level 1 (mypyc's own default is 3): the build is a third quicker (it is
    # on every fresh `make`'s way to the tests) and its odds run as fast (10,000 runs: the
    # same processor time, timed in turn)
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "1")}
    done = subprocess.run([sys.executable, "-m", "mypyc", f"referee/rulesets/sanctum/{NAME}.py"],
                          cwd=folder, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(done.stdout[-2000:] + done.stderr[-2000:])
    return sorted(package.glob(f"{NAME}*{sysconfig.get_config_var('EXT_SUFFIX')}"))


def main() -> int:
    for old in built():
        old.unlink()
    if compiler() is None:
        print("sanctum's simulator: no C compiler (or no Python.h) found; its odds run as "
              "plain Python")
        return 0
    with tempfile.TemporaryDirectory(prefix="referee-simc-") as folder:
        try:
            made = compile_in(Path(folder), source())
        except (RuntimeError, OSError) as failed:
            print(f"sanctum's simulator: not compiled; its odds run as plain Python\n{failed}")
            return 0
        for path in made:
            shutil.copyfile(path, PACKAGE / f".{path.name}.part")
            os.replace(PACKAGE / f".{path.name}.part", PACKAGE / path.name)
    check = subprocess.run([sys.executable, "-c", "from referee.rulesets.sanctum import "
                            "simulator as s; print(s.sim is not s.pure)"],
                           cwd=ROOT, capture_output=True, text=True)
    taken = check.stdout.strip() == "True"
    print("sanctum's simulator: compiled" if taken else
          f"sanctum's simulator: compiled but not taken; its odds run as plain Python\n"
          f"{check.stderr[-2000:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
