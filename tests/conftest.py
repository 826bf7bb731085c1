import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The toy ruleset lives only in the tests: its package folder joins the fixed directory
# the port looks in, for this test run alone.
from referee.rulesets import PACKAGE_DIRS  # noqa: E402

TEST_RULESETS = (ROOT / "tests" / "rulesets", "tests.rulesets")
if TEST_RULESETS not in PACKAGE_DIRS:
    PACKAGE_DIRS.append(TEST_RULESETS)


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch):
    """No test reads or writes the real home's referee files: the platform's directories
    (platformdirs honours the XDG variables) are a fresh folder of each test's own, beside
    its tmp_path, never in it. Nothing a test does leaves the machine either: Selenium
    Manager is told not to send its usage statistics (its documented variable)."""
    home = tmp_path_factory.mktemp("xdg")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(home / name.removeprefix("XDG_").removesuffix("_HOME")
                                     .lower()))
    monkeypatch.setenv("SE_AVOID_STATS", "true")
    # the tests draw as the snapshots were taken; an app a test starts in a terminal of
    # its own takes that terminal's size (pytest-xdist's workers carry COLUMNS=80 and
    # LINES=24, which Textual would take over the terminal's)
    for name in ("TEXTUAL_THEME", "NO_COLOR", "COLUMNS", "LINES"):
        monkeypatch.delenv(name, raising=False)
    return home
