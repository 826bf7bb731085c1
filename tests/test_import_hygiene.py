"""The engine is pure, and headless commands never import Textual."""

import subprocess
import sys

from tests.conftest import ROOT


def modules_after(statement: str) -> set[str]:
    code = f"{statement}; import sys; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return set(out.stdout.split())


def test_engine_imports_no_textual_rich_or_files_layer():
    loaded = modules_after("import referee.engine, referee.engine.rulesets")
    assert not {m for m in loaded if m.split(".")[0] in ("textual", "rich")}
    assert "referee.session" not in loaded
    assert "tomllib" not in loaded


def test_headless_cli_imports_no_textual():
    loaded = modules_after("import referee.cli")
    assert not {m for m in loaded if m.split(".")[0] in ("textual", "rich")}
