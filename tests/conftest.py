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
