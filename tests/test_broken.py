"""Broken files give one clear line on stderr: `referee: FILE:LINE: FIELD: reason`.

`tests/broken/NAME.toml` is a deliberately broken save or ruleset (`ruleset-*.toml`);
`tests/broken/NAME.expect` holds the exact stderr line a referee should see, with
`{file}` standing for the path given on the command line, `{dir}` for its folder and
`{bundled}` for the ids of the ruleset files in `rulesets/`, as a message lists them (read
from the directory, so a new ruleset file edits no expectation).
The commands run from the project root with a relative path, as a person would type them.

A hypothesis test then breaks the valid scenario saves at random and checks that the
program always answers with exit 0, or exit 1 and a `referee: ` message, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "broken"
CASES = sorted(BROKEN.glob("*.toml"))
BUNDLED = ", ".join(sorted(p.stem for p in (ROOT / "rulesets").glob("*.toml")))
SCENARIOS = sorted(
    p for p in (ROOT / "tests" / "scenarios").glob("*/*.toml")
    if not p.name.endswith(".expect.toml")
)


def is_ruleset(path: Path) -> bool:
    return path.name.startswith("ruleset-")


def commands(path: Path) -> list[str]:
    return ["check"] if is_ruleset(path) else ["check", "plan"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`main(argv)` as the console script runs it: a SystemExit is an exit code too."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_folder_covers_enough() -> None:
    assert len(CASES) >= 40
    for path in CASES:
        assert path.with_suffix(".expect").is_file(), f"{path.name} has no .expect"
    for expect in BROKEN.glob("*.expect"):
        assert expect.with_suffix(".toml").is_file(), f"{expect.name} has no .toml"


@pytest.mark.parametrize(
    ("path", "command"),
    [(p, c) for p in CASES for c in commands(p)],
    ids=lambda v: v.stem if isinstance(v, Path) else v,
)
def test_broken_file(
    path: Path, command: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    typed = path.relative_to(ROOT).as_posix()
    lines = path.with_suffix(".expect").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1, f"{path.name}: an .expect holds exactly one line"
    want = lines[0].replace("{file}", typed).replace("{dir}", Path(typed).parent.as_posix()) \
        .replace("{bundled}", BUNDLED)

    code, out, err = run([command, typed], capsys)

    assert "Traceback" not in err, err
    assert code != 0, f"{command} {typed} accepted a broken file:\n{out}"
    assert err.rstrip("\n") == want
    assert ": ok (" not in out, f"{command} said ok and then failed:\n{out}"


# -- random breakage of valid saves ----------------------------------------------------

NUMBER = re.compile(r"(?<![\w.\"'-])-?\d+(?:\.\d+)?(?![\w.\"'])")
STRING = re.compile(r'"[^"\n]*"')


def mutate(text: str, kind: str, where: int, pick: int) -> str:
    lines = text.split("\n")
    line = where % len(lines)
    if kind == "delete":
        return "\n".join(lines[:line] + lines[line + 1:])
    if kind == "duplicate":
        return "\n".join(lines[: line + 1] + lines[line:])
    if kind == "truncate":
        return text[: where % (len(text) + 1)]
    if kind == "number-to-string":
        found = list(NUMBER.finditer(text))
        if not found:
            return text
        hit = found[pick % len(found)]
        return text[: hit.start()] + '"ten"' + text[hit.end():]
    found = list(STRING.finditer(text))  # string-to-number
    if not found:
        return text
    hit = found[pick % len(found)]
    return text[: hit.start()] + "3" + text[hit.end():]


MUTATIONS = ["delete", "duplicate", "truncate", "number-to-string", "string-to-number"]


def test_mutations_change_the_text() -> None:
    text = SCENARIOS[0].read_text(encoding="utf-8")
    for kind in MUTATIONS:
        assert mutate(text, kind, 5, 3) != text, kind


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    scenario=st.sampled_from(SCENARIOS),
    steps=st.lists(
        st.tuples(
            st.sampled_from(MUTATIONS),
            st.integers(min_value=0, max_value=10_000),
            st.integers(min_value=0, max_value=1_000),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_saves_never_crash(
    scenario: Path, steps: list[tuple[str, int, int]], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = scenario.read_text(encoding="utf-8")
    for kind, where, pick in steps:
        text = mutate(text, kind, where, pick)
    path = tmp_path / scenario.name
    path.write_text(text, encoding="utf-8")

    try:
        code, out, err = run(["plan", str(path)], capsys)
    except Exception as error:  # any exception escaping main() is the failure
        pytest.fail(f"{type(error).__name__}: {error}\n--- mutated save ---\n{text}")

    assert "Traceback" not in err, err
    assert code in (0, 1), (code, err, text)
    if code == 1:  # one line that says what is wrong (after a torn tail's warning, if any)
        lines = err.splitlines()
        assert lines and all(line.startswith("referee: ") for line in lines), (err, text)
        assert len(lines) == 1 or (len(lines) == 2 and "warning" in lines[0]), (err, text)
    else:  # a torn last event is dropped with one warning line
        assert err == "" or (err.startswith("referee: warning: ") and err.count("\n") == 1), err
