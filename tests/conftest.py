import os
import sys
from pathlib import Path

# hypothesis runs its plugins' entry points when first imported: the only one installed is
# trio's (a dependency of selenium's), which imports trio and collects the garbage to
# register trio's generator, ~0.3 CPU-s in each worker; no test uses trio.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The toy ruleset lives only in the tests: its package folder joins the fixed directory
# the port looks in, for this test run alone.
from referee.rulesets import PACKAGE_DIRS  # noqa: E402

TEST_RULESETS = (ROOT / "tests" / "rulesets", "tests.rulesets")
if TEST_RULESETS not in PACKAGE_DIRS:
    PACKAGE_DIRS.append(TEST_RULESETS)


import gc  # noqa: E402
import itertools  # noqa: E402
import re  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402

from tests.schedule import pytest_collection_modifyitems  # noqa: E402,F401 - the order
from tests.settle import install as _settle  # noqa: E402

_settle()  # Pilot waits for idle in 5 ms stretches, and for nothing queued (tests/settle.py)


@pytest.fixture(scope="session")
def own_folders(tmp_path_factory) -> Path:
    """The folder (one a worker, in pytest's base temporary directory) that holds each
    test's tmp_path and XDG home. pytest's own tmp_path numbers a test's folder by listing
    every folder made so far (`make_numbered_dir`): over a worker's 1,500 tests, and the
    XDG home each of them made beside it, that listing was ~10 CPU-s a worker; a folder
    named by `tempfile.mkdtemp` is found in one call."""
    return tmp_path_factory.mktemp("own")


@pytest.fixture
def tmp_path(request, own_folders) -> Path:
    """As pytest's tmp_path (a fresh, empty folder of the test's own, named after it, kept
    after the run as pytest keeps its own), made in one call."""
    name = re.sub(r"[\W]", "_", request.node.name)[:30]
    return Path(tempfile.mkdtemp(prefix=name, dir=own_folders))


_homes = itertools.count()  # a worker's tests each name their own home in its own folder


@pytest.fixture(autouse=True)
def own_home(own_folders, monkeypatch):
    """No test reads or writes the real home's referee files: the platform's directories
    (platformdirs honours the XDG variables) are a fresh folder of each test's own, beside
    its tmp_path, never in it. Nothing a test does leaves the machine either: Selenium
    Manager is told not to send its usage statistics (its documented variable).
    The folder is named, not made: what writes there makes the folders it needs, as on a
    fresh machine (a made folder a test, 6,000 tests, was ~2 CPU-s of the suite)."""
    home = own_folders / f"xdg{next(_homes)}"
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


@pytest.fixture(autouse=True)
def own_collector():
    """Each test starts with the garbage collector as a fresh process has it. An app
    freezes what it has loaded (referee.app.collector: the open save lives as long as the
    app) and raises the young threshold; left so in a worker, every later test's loads
    went unaged (files._aged leaves a frozen heap alone) and were walked again and again:
    after one app test, the agility-order properties took 9.5 CPU-s, not 3.4. Thawed
    through referee.session.heap, which the loads read instead of asking the collector."""
    from referee.session import heap

    threshold, enabled = gc.get_threshold(), gc.isenabled()
    yield
    heap.thaw()
    gc.set_threshold(*threshold)
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The garbage a run leaves collected until a collection finds none, and the heap then
    frozen: pytest's own clean-up (after this) collects five times over the whole heap in
    case a finaliser leaves more garbage (0.25 CPU-s each in a process of 220,000 objects,
    at the tail of each worker), and now walks only what was made since. Nothing that was
    garbage here goes uncollected, nor its finalisers' unraisable exceptions unreported
    (pytest's hook still catches them: it is removed after its collections)."""
    for _ in range(5):
        if not gc.collect():
            break
    gc.freeze()
