"""The engine and every ruleset package are pure, and headless commands never import
Textual. Each import runs in a fresh interpreter, so nothing loaded earlier hides a fault."""

import subprocess
import sys
from functools import cache

import pytest

from referee.rulesets import available, module_of
from tests.conftest import ROOT

FORBIDDEN_ROOTS = ("textual", "rich")
FORBIDDEN = ("referee.session", "referee.app", "referee.cli", "tomllib", "tomli")


@cache
def modules_after(statement: str) -> frozenset[str]:
    """The modules a fresh interpreter holds after `statement`, run once a worker: the
    tests that ask it of the same statement (a plan of the same save, `import referee.cli`)
    read the one answer."""
    code = f"{statement}; import sys; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return frozenset(out.stdout.split())


def impure(loaded: frozenset[str]) -> set[str]:
    return {m for m in loaded if m.split(".")[0] in FORBIDDEN_ROOTS
            or any(m == f or m.startswith(f + ".") for f in FORBIDDEN)}


def test_engine_imports_no_textual_rich_or_files_layer():
    assert impure(modules_after("import referee.engine, referee.engine.port")) == set()


@pytest.mark.parametrize("logic", available())
def test_every_ruleset_package_is_pure(logic):
    module = module_of(logic)
    loaded = modules_after(f"import {module}; {module}.RULESET")
    assert module in loaded
    assert impure(loaded) == set(), logic


def test_headless_cli_imports_no_textual():
    loaded = modules_after("import referee.cli")
    assert not {m for m in loaded if m.split(".")[0] in FORBIDDEN_ROOTS}


def test_no_ruleset_module_imports_a_layer_above_the_engine():
    """Not even inside a function, where importing the package would not show it: every
    import statement in every module of referee/rulesets/ and of every other folder the
    port finds rulesets in (the tests'), its acts.py too (what the command line offers of
    an act is data of its spec), names the engine, the standard library or the
    ruleset's own modules."""
    import ast

    from referee.rulesets import PACKAGE_DIRS

    found = []
    for path in sorted(p for folder, _ in PACKAGE_DIRS for p in folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom)
                     and node.level == 0 else [])
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                      if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)]
    assert found == []


def test_plan_json_imports_only_what_it_needs():
    """`referee plan SAVE --json` (scripts run it; its start-up is its speed) loads the
    save's ruleset package and no other, and nothing a plan does not use: no Textual, no
    shell completion, manual page or platform directories, no dice roller's generator
    (a plan rolls nothing), no fractions (only a distance to close needs them), and no
    argparse (its plain arguments are read without it: cli.PLAIN), and no typing (its
    modules take their typing names from referee.hints at run time); no json either (a
    small save goes straight to the TOML parser, and the plan's line is made by json's
    own C encoder)."""
    save = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    loaded = modules_after("import io, sys; from referee.cli import main; real = sys.stdout; "
                           f"sys.stdout = io.StringIO(); main(['plan', {str(save)!r}, '--json']); "
                           "sys.stdout = real")
    assert "referee.rulesets.demon_idol.planner" in loaded
    packages = {m.split(".")[2] for m in loaded if m.startswith("referee.rulesets.")}
    assert packages == {"demon_idol"}
    unwanted = {"textual", "rich", "argcomplete", "argparse_manpage", "platformdirs",
                "random", "fractions", "decimal", "referee.app", "referee.cli.acts",
                "argparse", "gettext", "locale", "typing", "json",
                "referee.session.fastload"}
    assert {m for m in loaded if m in unwanted or m.split(".")[0] in unwanted} == set()


# the kinds of role a plan never asks for: the damage form, the initiative dice, the acts,
# a report's runs (odds), set-up's questions and a latecomer's; a ruleset names each by where
# its class is (`Later`), so its module is imported only when the role is asked for
NEVER_PLANNED = ("Damage", "Rolling", "Acting", "Runs", "Carrying", "Joining")
SHIPPED = [logic for logic in available() if (module_of(logic) or "").startswith("referee.")]


def plan_json_modules(save: object) -> frozenset[str]:
    return modules_after("import io, sys; from referee.cli import main; real = sys.stdout; "
                         f"sys.stdout = io.StringIO(); main(['plan', {str(save)!r}, '--json']); "
                         "sys.stdout = real")


@pytest.mark.parametrize("logic", SHIPPED)
def test_plan_json_imports_no_role_a_plan_never_asks_for(logic):
    """`referee plan SAVE --json` on a scenario of each ruleset imports the modules of
    the roles it asks for (the roster schema, the fold, the planner ...) and none of those
    a plan never asks for."""
    from referee.engine.port import Later
    from referee.rulesets import ruleset_class

    folder = ROOT / "tests" / "scenarios" / logic
    save = next(p for p in sorted(folder.glob("*.toml")) if not p.name.endswith(".expect.toml"))
    package = module_of(logic)
    named = {later.kind.__name__: f"{package}{later.where.partition(':')[0]}"
             for later in ruleset_class(logic).ROLES if isinstance(later, Later)}
    loaded = plan_json_modules(save)
    assert {named["RosterSchema"], named["Fold"], named["Planner"]} <= loaded
    unasked = {module for kind, module in named.items() if kind in NEVER_PLANNED}
    assert unasked and unasked & loaded == set()


def test_plan_json_of_demon_idol_imports_only_the_roles_it_asks_for():
    """Of demon-idol's roles, a plan asks for the roster schema, the fold, the planner
    and the declarations (the schema's check of each declare event): its tracker, damage
    form, initiative dice, acts (fire, morale) and set-up questions are not imported, nor
    what they alone import (the acts' prepared spells, the damage form's hits)."""
    save = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    loaded = plan_json_modules(save)
    own = {m.rpartition(".")[2] for m in loaded if m.startswith("referee.rulesets.demon_idol.")}
    assert {"schema", "fold", "planner", "declaring"} <= own
    assert own & {"tracker", "damage", "hits", "initiative", "acts", "prepared",
                  "carrying"} == set()


def test_every_role_of_every_ruleset_is_pure():
    """Importing a ruleset's package no longer imports its roles (each is imported when
    first asked for): every module a ruleset names a role in, imported, loads no Textual,
    Rich, session or app module."""
    from referee.engine.port import Later
    from referee.rulesets import ruleset_class

    modules = sorted({f"{module_of(logic)}{later.where.partition(':')[0]}"
                      for logic in SHIPPED for later in ruleset_class(logic).ROLES
                      if isinstance(later, Later)})
    assert modules
    assert impure(modules_after(f"import {', '.join(modules)}")) == set()


COUNT_COMPILES = """\
import builtins, io, sys
compiled, real = [], builtins.compile
def counted(source, filename, *args, **kwargs):
    if not sys._getframe(1).f_code.co_filename.startswith("<frozen"):  # not a module's source
        compiled.append(filename)
    return real(source, filename, *args, **kwargs)
builtins.compile = counted
from referee.cli import main
out, sys.stdout = sys.stdout, io.StringIO()
main(["plan", SAVE, "--json"])
sys.stdout = out
print(compiled)
"""


@pytest.mark.parametrize("logic", SHIPPED)
def test_plan_json_compiles_no_source(logic):
    """A plan compiles nothing but a module's own source (when its cached bytecode is
    stale): Python's first compile() makes every class of its syntax tree, a few
    milliseconds, and a type given by name (typing's ForwardRef: `TypeVar(bound="...")`)
    is compiled where it is made."""
    folder = ROOT / "tests" / "scenarios" / logic
    save = next(p for p in sorted(folder.glob("*.toml")) if not p.name.endswith(".expect.toml"))
    code = COUNT_COMPILES.replace("SAVE", repr(str(save)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]"]


COUNT_PATTERNS = """\
import io, re, sys
compile, unused = re.compile, {}
class Kept:  # a pattern referee compiled, which says when it is used
    def __init__(self, pattern, where):
        self.pattern, unused[id(self)] = pattern, where
    def __getattr__(self, name):
        unused.pop(id(self), None)
        return getattr(self.pattern, name)
def counted(pattern, flags=0):
    made, code = compile(pattern, flags), sys._getframe(1).f_code
    return Kept(made, code.co_filename) if "referee" in code.co_filename else made
re.compile = counted
from referee.cli import main
out, sys.stdout = sys.stdout, io.StringIO()
main(["plan", SAVE, "--json"])
sys.stdout = out
print(sorted(unused.values()))
"""


def test_plan_json_compiles_only_the_patterns_it_uses():
    """Each regular expression a module compiles at import costs about as much as a
    small module's import: of referee's, `plan --json` compiles only those it uses (the
    others are compiled the first time they are asked for: text.compiled_later)."""
    save = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    code = COUNT_PATTERNS.replace("SAVE", repr(str(save)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]"]


def test_plan_json_as_a_program_leaves_its_objects_to_the_end_of_the_process():
    """Run as the program (not called by a test), a reading command freezes what it made:
    the interpreter's shutdown does not walk it all once more with the collector."""
    save = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    code = ("import gc, io, sys; from referee.cli import main; real = sys.stdout; "
            f"sys.argv = ['referee', 'plan', {str(save)!r}, '--json']; "
            "sys.stdout = io.StringIO(); main(); sys.stdout = real; "
            "print(gc.get_freeze_count() > 0); main(['plan', '--json', sys.argv[2]])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    first, plan = out.stdout.split("\n", 1)
    assert first == "True" and plan.startswith("{")


def test_plan_json_of_a_small_save_compiles_no_pattern_of_ours():
    """The command line's words and a plain save's text are checked for control
    characters without a pattern (printable ASCII holds none), and a ruleset's name
    without one: `plan --json` of a small save compiles none of referee's patterns."""
    save = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    code = COUNT_PATTERNS.replace("SAVE", repr(str(save))).replace(
        "print(sorted(unused.values()))", "print(len(unused) + len(used))").replace(
        "unused.pop(id(self), None)", "used[id(self)] = unused.pop(id(self), None)").replace(
        "compile, unused = re.compile, {}", "compile, unused, used = re.compile, {}, {}")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == ["0"]


@pytest.mark.parametrize("logic", ["agility-order", "demon-idol", "phases", "simple"])
def test_plan_json_imports_no_typing(logic):
    """The modules a plan imports take typing's names from referee.hints at run time
    (typing itself, about a twelfth of `plan --json`'s start-up, is for the type checker)."""
    folder = ROOT / "tests" / "scenarios" / logic
    save = next(p for p in sorted(folder.glob("*.toml")) if not p.name.endswith(".expect.toml"))
    assert "typing" not in plan_json_modules(save)


def test_the_stand_ins_for_typing_do_what_typing_does_in_our_code():
    from referee import hints

    class Box(hints.Generic[hints.TypeVar("T")]):
        __slots__ = ("x",)

    class IntBox(Box[int]):
        __slots__ = ()

    assert Box[int] is Box and IntBox.__mro__[1] is Box and not hasattr(IntBox(), "__dict__")
    assert hints.cast(hints.Any, 3) == 3 and hints.cast("list[int] | None", None) is None
    assert dict[str, hints.Any] and (hints.Any | None) and (hints.TypeVar("S") | None)
    assert hints.overload(len) is len and hints.dataclass_transform(field_specifiers=())(len) is len
    assert hints.TYPE_CHECKING is False


def test_a_short_save_is_read_by_the_parser_as_the_fast_reader_would():
    """parse_toml hands a text shorter than the fast reader's FAST_FROM to the TOML
    parser itself, as the fast reader would: a small save imports neither it nor json."""
    from referee.session import fastload, files

    assert files.SHORT_TEXT == fastload.FAST_FROM


def test_plan_json_as_a_program_runs_no_collection_and_the_cli_imports_no_pathlib():
    """Run as the program, a reading command runs without the cyclic collector from its
    first import on (no collection at all while it runs), and importing the command line
    imports no pathlib (its many objects would be made before the collector is off)."""
    assert "pathlib" not in modules_after("import referee.cli")
    save = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    code = ("import gc, io, sys; from referee.cli import main; real = sys.stdout; "
            f"sys.argv = ['referee', 'plan', {str(save)!r}, '--json']; "
            "made = sum(s['collections'] for s in gc.get_stats()); "
            "sys.stdout = io.StringIO(); main(); sys.stdout = real; "
            "print(sum(s['collections'] for s in gc.get_stats()) - made)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == ["0"]


def test_the_app_reading_a_save_without_links_imports_no_toml_parser_or_secrets():
    """The app looks for the players' links of every save it opens: a save without any
    (most) is answered without importing tomllib (its patterns and classes: about 7 ms
    of the app's start) or secrets (and its hashing)."""
    code = ("import sys\nfrom pathlib import Path\nimport referee.app.app, referee.app.phones\n"
            "from referee.session.links import read_links\n"
            f"assert read_links(Path({str(ROOT / 'saves' / 'demo.toml')!r})) == {{}}\n"
            "print(sorted({'tomllib', 'secrets'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]"]
