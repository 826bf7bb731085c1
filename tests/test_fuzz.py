"""The fuzz harness (tests/fuzz.py) on a fixed seed and a small count: every headless
command on mutated saves of every ruleset answers with a message, in time, and leaves its
input as it was. `make fuzz` runs it long."""

from __future__ import annotations

from tests import fuzz


def test_a_short_fuzz_finds_nothing(tmp_path):
    found = fuzz.fuzz(count=len(fuzz.sources()), seed=20, findings_dir=tmp_path, workers=2)
    assert found == [], found[:3]


def test_the_mutations_cover_every_ruleset_and_every_kind():
    rulesets = {p.read_text().split('ruleset = "')[1].split('"')[0] for p in fuzz.sources()
                if 'ruleset = "' in p.read_text()}
    assert {"demon-idol", "count-up", "agility-order", "phases", "sanctum"} <= rulesets
    made = fuzz.jobs(120, seed=3)
    texts = [data for _, data, _ in made]
    assert len({data for data in texts}) == 120  # every file mutated its own way
    assert any(kind is True for _, _, kind in made)  # sanctum's own commands
    kinds = {kind.partition(":")[0] for _, _, kind in made if isinstance(kind, str)}
    assert kinds == {"catalogue", "party", "ruleset"}


def test_the_short_fuzz_mutates_every_catalogue_party_and_simple_ruleset():
    others = fuzz.other_sources()
    assert {kind for _, _, kind in others} >= {
        "catalogue:demon-idol", "catalogue:count-up", "catalogue:agility-order",
        "catalogue:phases", "catalogue:sanctum", "party:demon-idol", "party:count-up",
        "ruleset:side-d6.toml", "ruleset:d20-dex.toml"}
    names = {name.split("-", 2)[2] for name, _, kind in fuzz.jobs(len(fuzz.sources()), 20)
             if isinstance(kind, str)}
    assert names == {name for name, _, _ in others}


def test_the_harness_reports_a_traceback_a_hang_and_a_changed_input(monkeypatch):
    import signal
    import time

    import referee.cli.reading as cli

    data = (fuzz.ROOT / "saves" / "demo.toml").read_bytes()
    signal.signal(signal.SIGALRM, fuzz.on_alarm)

    def boom(path):
        raise ValueError("a bug")

    def slow(path, *rest):
        time.sleep(5)

    def scribble(path, *rest):
        path.write_text("changed")
        return 0

    monkeypatch.setattr(fuzz, "TIMEOUT", 1)
    monkeypatch.setattr(cli, "cmd_check", boom)
    monkeypatch.setattr(cli, "cmd_plan", slow)
    monkeypatch.setattr(cli, "cmd_replay", scribble)
    problems = {f["command"]: f["problem"] for f in fuzz.check_file(("x.toml", data, False))}
    assert "ValueError: a bug" in problems["check"]
    assert problems["plan"] == "took over 1 s"
    assert problems["replay"] == "changed its input file"
