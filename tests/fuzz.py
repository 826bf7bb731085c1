"""Fuzz the headless commands with mutated saves (issue 20).

    python tests/fuzz.py --count 2000 --seed 1      # or: make fuzz

It mutates the bundled demos and the scenario saves of every ruleset — numbers (huge,
negative, floats, inf, nan), strings, keys dropped and invented, bytes torn off, bad UTF-8,
deep nesting, invented and duplicated events — and runs every headless command on each
(check, plan and plan --json, replay and replay --json, replay --to, export --markdown,
and sanctum's fight -o and odds). It mutates the bundled catalogues (check, catalogue
--file), a party written from each demo with a players' side (check, play NEW --party,
the app not opened) and the `simple` rulesets (check, and plan, replay, check and export
of their demo saved beside them) the same ways. A finding is any traceback, any command
over TIMEOUT seconds, or any change to the input file; each is written to the findings
folder with the command, so it can be kept as a broken-file test. Exit 1 if there is any.

Each file runs in a worker process with a memory cap (a blow-up is a finding, not the
machine's end) and the commands run inside it, under an alarm.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import random
import re
import resource
import signal
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TIMEOUT = 10  # seconds a command may take on one file
MEMORY = 2 * 1024**3  # bytes a worker may use
COMMANDS = [["check"], ["plan"], ["plan", "--json"], ["replay"], ["replay", "--json"],
            ["replay", "--to", "3"], ["export", "--markdown"]]
SANCTUM = [["fight", "--seed", "5", "-o", "{out}"], ["odds", "--runs", "3", "--workers", "1"]]
# the other kinds of file: {file} is the mutated file, {save} a demo beside it, {id} the
# ruleset a catalogue or party is for
OTHERS = {
    "catalogue": [["check", "{file}"], ["catalogue", "{id}", "--file", "{file}"]],
    "party": [["check", "{file}"], ["play", "{new}", "--party", "{file}"]],
    "ruleset": [["check", "{file}"], ["check", "{save}"], ["plan", "{save}"],
                ["replay", "{save}"], ["export", "{save}", "--markdown"]],
}


def sources() -> list[Path]:
    """Every save the project ships: the demos and the scenarios (not their .expect)."""
    found = sorted((ROOT / "saves").glob("*.toml"))
    found += sorted(p for p in (ROOT / "tests" / "scenarios").glob("*/*.toml")
                    if not p.name.endswith(".expect.toml"))
    return found


def other_sources() -> list[tuple[str, str, str]]:
    """(name, text, kind) of every other kind of file: each bundled catalogue
    ("catalogue:RULESET"), a party written from each demo with a players' side
    ("party:RULESET") and each `simple` ruleset ("ruleset:ITS DEMO SAVE")."""
    from referee.session.files import load_save
    from referee.session.party import party_file

    found = []
    for path in sorted((ROOT / "rulesets" / "catalogues").glob("*.toml")):
        found.append((path.name, path.read_text(encoding="utf-8"),
                      "catalogue:" + path.stem.rpartition(".")[0]))
    for path in sorted((ROOT / "saves").glob("*.toml")):
        try:
            fight = load_save(path).fight
            text, _ = party_file(fight)
        except Exception:  # no side run by the players: no party
            continue
        found.append((f"party-{path.name}", text, "party:" + fight.encounter.ruleset))
    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        demo = ROOT / "saves" / path.name
        if 'logic = "simple"' in text and demo.exists():
            found.append((path.name, text, "ruleset:" + demo.name))
    return found


# -- mutations --------------------------------------------------------------------------

NUMBER = re.compile(r"(?<=[=\[,] )-?\d+(?:\.\d+)?|(?<==)-?\d+")
STRING = re.compile(r'"[^"\n]*"')
KEY_LINE = re.compile(r"^[A-Za-z_\"][^=\n]*=.*$", re.MULTILINE)
HUGE = ["100000000", "1000000000000", "100000000000000000000000000", "-1", "-100000000",
        "0", "1.5", "inf", "nan", "-inf", "99999", "1e308", "007"]
WORDS = ['""', '" "', '"ghost"', '"gob1"', '"1d1000000"', '"\\u0000"', '"' + "x" * 5000 + '"',
         "true", "[]", "{}", '"A"', '"1/999999999999"', '"../../etc/passwd"']


def mutate(text: str, rng: random.Random) -> bytes:
    """One to three mutations of a save's text."""
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(TEXT_MUTATIONS)(text, rng)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.15:
        data = rng.choice(BYTE_MUTATIONS)(data, rng)
    return data


def a_number(text: str, rng: random.Random) -> str:
    found = list(NUMBER.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    return text[: match.start()] + rng.choice(HUGE) + text[match.end():]


def a_string(text: str, rng: random.Random) -> str:
    found = list(STRING.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    return text[: match.start()] + rng.choice(WORDS) + text[match.end():]


def a_key_dropped(text: str, rng: random.Random) -> str:
    found = list(KEY_LINE.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    return text[: match.start()] + text[match.end() + 1:]


def a_key_invented(text: str, rng: random.Random) -> str:
    found = list(KEY_LINE.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    key = rng.choice(["surprise", "bogus", "round", "hp", "target", "segment", "rate",
                      "combat", "speed_factor", "actions", "__class__"])
    line = f"{key} = {rng.choice(HUGE + WORDS)}\n"
    return text[: match.end() + 1] + line + text[match.end() + 1:]


def deep_nesting(text: str, rng: random.Random) -> str:
    depth = rng.choice([50, 120, 500, 5000])
    opener, closer = rng.choice([("[", "]"), ("{a=", "}")])
    return a_key_invented(text, rng).replace(
        "= ", f"= {opener * depth}{closer * depth} #", 1) if rng.random() < 0.5 else \
        text + f"\nnested = {opener * depth}1{closer * depth}\n"


def an_event_invented(text: str, rng: random.Random) -> str:
    kinds = ["declare", "damage", "heal", "condition", "round", "initiative", "undo",
             "redo", "join", "note", "roll", "morale", "surprise", "end", "resolve", "death",
             "attack", "bull_rush", "combat", "move", "regroup", "mystery"]
    fields = {"actor": '"gob1"', "target": rng.choice(['"brann"', '["zed", "ghost"]']),
              "action": rng.choice(['"G"', '"A"', '"attack"', '"Z"']),
              "amount": rng.choice(HUGE), "round": rng.choice(["1", "2", "9999", "10000",
                                                               "1000000", "0", "-3"])}
    block = "\n[[events]]\n" + f'type = "{rng.choice(kinds)}"\n'
    for key, value in fields.items():
        if rng.random() < 0.7:
            block += f"{key} = {value}\n"
    return text + block


def an_event_repeated(text: str, rng: random.Random) -> str:
    blocks = text.split("\n[[events]]\n")
    if len(blocks) < 2:
        return an_event_invented(text, rng)
    index = rng.randrange(1, len(blocks))
    blocks.insert(rng.randrange(1, len(blocks) + 1), blocks[index])
    return "\n[[events]]\n".join(blocks)


def lines_shuffled(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    if len(lines) > 3:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


TEXT_MUTATIONS = [a_number, a_number, a_string, a_key_dropped, a_key_invented, deep_nesting,
                  an_event_invented, an_event_repeated, lines_shuffled]


def torn(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def bad_utf8(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + data[at:]


BYTE_MUTATIONS = [torn, bad_utf8]


# -- running ---------------------------------------------------------------------------


class Timeout(BaseException):
    pass


def on_alarm(*_: object) -> None:
    raise Timeout


def run_one(path: Path, argv: list[str]) -> str | None:
    """None if the command answered (any exit code, a message); else what went wrong."""
    from referee.cli import main

    out, err = io.StringIO(), io.StringIO()
    signal.alarm(TIMEOUT)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main(argv)
    except Timeout:
        return f"took over {TIMEOUT} s"
    except SystemExit:
        return None
    except MemoryError:
        return "ran out of memory"
    except BaseException:
        return traceback.format_exc(limit=-8)
    finally:
        signal.alarm(0)
    if "Traceback" in err.getvalue():
        return "printed a traceback:\n" + err.getvalue()[-2000:]
    return None


def check_file(job: tuple[str, bytes, bool | str]) -> list[dict[str, str]]:
    """Every command on one mutated file, in this worker: what went wrong, if anything.
    The job's kind: False (a save), True (a sanctum save) or "catalogue:ID", "party:ID",
    "ruleset:DEMO" (other_sources)."""
    name, data, kind = job
    findings = []
    with TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        commands, ruleset, save = _commands(kind, path, Path(folder))
        for command in commands:
            out = str(Path(folder) / "out.toml")
            new = Path(folder) / "new.toml"
            parts = [part.replace("{out}", out).replace("{file}", str(path))
                     .replace("{save}", str(save)).replace("{id}", ruleset)
                     .replace("{new}", str(new)) for part in command]
            argv = parts if isinstance(kind, str) else [parts[0], str(path), *parts[1:]]
            problem = run_one(path, argv)
            if problem is None and path.read_bytes() != data:
                problem = "changed its input file"
                path.write_bytes(data)
            if problem is not None:
                findings.append({"command": " ".join(command), "problem": problem})
            Path(out).unlink(missing_ok=True)
            new.unlink(missing_ok=True)
    return findings


def _commands(kind: bool | str, path: Path, folder: Path) -> tuple[list[list[str]], str, Path]:
    """The commands for a job's kind, the ruleset id they name, and the demo save written
    beside a mutated ruleset (naming it by its file)."""
    if not isinstance(kind, str):
        return COMMANDS + (SANCTUM if kind else []), "", path
    what, _, detail = kind.partition(":")
    save = path
    if what == "ruleset":
        text = (ROOT / "saves" / detail).read_text(encoding="utf-8")
        save = folder / f"demo-{detail}"
        save.write_text(re.sub(r'(?m)^ruleset = "[^"]*"', f'ruleset = "{path.name}"', text,
                               count=1), encoding="utf-8")
    return OTHERS[what], detail, save


def no_app() -> None:
    """`play --party` imports the party, then would open the app: in the fuzz it does not."""
    import referee.cli.play as cli

    cli.open_app = lambda *args, **kwargs: 0  # type: ignore[assignment]


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGALRM, on_alarm)
    no_app()


def jobs(count: int, seed: int) -> list[tuple[str, bytes, bool | str]]:
    """`count` mutated files: saves, and (one in four) the other kinds of file in turn."""
    rng = random.Random(seed)
    saves = sources()
    others = other_sources()
    made: list[tuple[str, bytes, bool | str]] = []
    for number in range(count):
        if number % 4 == 3 and others:
            name, text, kind = others[(number // 4) % len(others)]
            made.append((f"fuzz-{number:05d}-{name}", mutate(text, rng), kind))
            continue
        source = saves[number % len(saves)]
        text = source.read_text(encoding="utf-8")
        sanctum = 'ruleset = "sanctum"' in text
        made.append((f"fuzz-{number:05d}-{source.name}", mutate(text, rng), sanctum))
    return made


def fuzz(count: int, seed: int, findings_dir: Path | None = None,
         workers: int = 1) -> list[dict[str, str]]:
    """Run `count` mutated files; every finding, with the file's name."""
    found: list[dict[str, str]] = []
    work = jobs(count, seed)
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=limit_memory, maxtasksperchild=50) as pool:
        for (name, data, _), problems in zip(work, pool.imap(check_file, work, chunksize=4),
                                             strict=True):
            for problem in problems:
                found.append({"file": name, **problem})
                if findings_dir is not None:
                    findings_dir.mkdir(parents=True, exist_ok=True)
                    (findings_dir / name).write_bytes(data)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2000, help="how many mutated files")
    parser.add_argument("--seed", type=int, default=1, help="the mutations' seed")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--findings", type=Path, default=ROOT / "fuzz-findings",
                        help="where files that found something are kept")
    args = parser.parse_args(argv)
    found = fuzz(args.count, args.seed, args.findings, max(1, args.workers))
    for finding in found:
        print(json.dumps(finding))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # any one worker
    print(f"fuzz: the largest worker process reached {peak:.0f} MB")
    print(f"fuzz: {args.count} files (seed {args.seed}), {len(sources())} saves and "
          f"{len(other_sources())} catalogues, parties and rulesets, {len(COMMANDS)} commands "
          f"a save (sanctum {len(COMMANDS) + len(SANCTUM)}), "
          f"{', '.join(f'{len(c)} a {k}' for k, c in OTHERS.items())}: {len(found)} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
