"""The order the suite's tests are handed out in: the longest first.

pytest-xdist's worksteal hands each worker an even share of the collection in order (the
first quarter to the first of four workers, and so on), and an idle worker then steals half
of the longest queue's tail. A test already running cannot be stolen, so a long test that
starts late is the run's tail: the other workers sit idle while it ends. Here the longest
tests are dealt to the heads of the workers' shares, longest first, so that they start
first, each worker its part of them, and the many short ones fill in around them.
(Simulated on the per-test durations of a whole run, 4 workers: where the longest tests
were a large share of the run, the makespan 975 s -> 908 s, 4-8% shorter over durations
perturbed by +-40%; on a later run, whose longest tests weigh less, 0-2%. The list taken
anew from 1526468's run, simulated on its durations: 235.0 s -> 233.7 s, the even share
of the work being 231.7 s; perturbed by +-40%, the median 242.9 s -> 234.4 s. The total
work is the same.)

Only the order changes, and only with pytest-xdist: every test still runs. A name here
that no longer matches a test moves nothing. Whole files are moved where their tests share
a module-scoped fixture (test_packaging's wheel), so it is still built once.
"""

from __future__ import annotations

import os

import pytest

# measured by `pytest --durations` over a whole run (1526468's, 4 workers on 2 cores): each
# test's setup, call and teardown, longest first; a file whose tests share a module-scoped
# fixture counted whole (tests merged since: under the merged test's name, in the place of
# its longest part)
LONGEST = (
    "tests/test_cli_fight.py::"
    "test_a_fight_from_the_command_line_is_the_fight_from_the_keys[phases]",
    "tests/test_cli_fight.py::test_a_fight_from_the_command_line_is_the_fight_from_the_keys[demo]",
    "tests/test_serve_limits.py::"
    "test_one_serve_takes_fifty_viewers_then_garbage_then_unreadable_messages",
    "tests/test_press_work.py::test_what_a_press_repaints_leaves_the_screen_as_a_whole_drawing",
    "tests/test_serve_hostile.py",
    "tests/test_packaging.py",
    "tests/test_browser.py::test_the_served_view_follows_the_referee_in_two_browsers",
    "tests/test_quick_paths.py::test_events_read_quickly_as_the_strict_reader_reads_them",
    "tests/test_press_checkpoints.py::"
    "test_undo_and_redo_from_shared_checkpoints_fold_as_from_scratch",
    "tests/test_phases_rules.py::test_the_kept_plan_equals_a_plan_from_scratch",
    "tests/test_sanctum_pipeline.py::test_the_quiet_sink_fights_the_logged_fight",
    "tests/test_cli_fight.py::"
    "test_a_fight_from_the_command_line_is_the_fight_from_the_keys[count-up]",
    "tests/test_players_browser.py::test_two_players_declare_in_secret_from_their_phones",
    "tests/test_kill.py::test_every_acknowledged_event_survives_sigkill",
    "tests/test_app_collector.py::"
    "test_saves_opened_in_turn_free_the_last_and_hold_no_more_than_two",
    "tests/test_fuzz.py::test_a_short_fuzz_finds_nothing",
    "tests/test_sanctum_app.py::test_a_turn_set_up_fought_its_odds_and_one_run_replayed",
    "tests/test_demon_idol_properties.py::"
    "test_every_demon_idol_plan_by_default_and_by_the_book_holds_its_invariants",
    "tests/test_serve_limits.py::test_max_viewers_sets_the_bound",
    "tests/test_players_app.py::"
    "test_pages_served_from_the_app_closed_by_the_referee_and_stopped_by_another_save",
    "tests/test_table_ready.py::test_the_damage_form_offers_the_weapons_damage",
    "tests/test_cli_fight.py::"
    "test_a_fight_from_the_command_line_is_the_fight_from_the_keys[agility-order]",
    "tests/test_terminal_text.py",
    "tests/test_cli_fight.py::"
    "test_a_fight_from_the_command_line_is_the_fight_from_the_keys[toy-demo]",
    "tests/test_cli_fight.py::"
    "test_a_fight_from_the_command_line_is_the_fight_from_the_keys[d20-dex]",
    "tests/test_app_flows.py::test_undo_redo_save_as_quit_and_resume",
    "tests/test_table_ready_3.py::"
    "test_help_at_80x24_scrolls_to_its_end_and_cuts_no_word[agility-order.toml]",
    "tests/test_cli_fight.py::"
    "test_a_fight_from_the_command_line_is_the_fight_from_the_keys[seventh-demo]",
    "tests/test_fastload.py::test_tomli_w_documents",
    "tests/test_tomlpos.py::test_never_raises_on_any_text",
    "tests/test_terminal.py::"
    "test_a_round_at_80x24_keeps_the_current_beat_and_the_newest_line_in_view",
    "tests/test_table_ready_3.py::"
    "test_help_at_80x24_scrolls_to_its_end_and_cuts_no_word[demo.toml]",
    "tests/test_table_ready.py::test_the_current_beat_and_the_newest_line_stay_in_view_at_80x24",
    "tests/test_setup_catalogues.py::test_six_goblins_come_from_the_bestiary",
    "tests/test_serve_limits.py::test_the_apps_serve_stops_once_the_app_is_gone",
    "tests/test_plan_digests.py::test_the_plans_of_random_fights_are_as_pinned[agility-order]",
    "tests/test_plan_digests.py::test_the_plans_of_random_fights_are_as_pinned[demon-idol]",
)


PLACES = {name: place for place, name in reversed(list(enumerate(LONGEST)))}


def rank(nodeid: str) -> int:
    """Where a test goes: the place of the first name it matches (a whole test id, a test
    function's id without its parameters, or a file), else after them all. The names a
    test id may match are its own and its heads before a "[" or a "::", each looked up
    (not every name tried on every test: 40 names by 6,000 tests in every worker)."""
    heads = [nodeid]
    for mark in ("[", "::"):
        at = nodeid.find(mark)
        while at >= 0:
            heads.append(nodeid[:at])
            at = nodeid.find(mark, at + 1)
    return min((PLACES[head] for head in heads if head in PLACES), default=len(LONGEST))


def dealt(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """`items` with the longest dealt to the heads of the workers' shares (in a snake: the
    first worker the 1st and the 8th, the fourth the 4th and the 5th, with four; a file
    named whole goes to one worker), each share as long as worksteal makes it, the rest in
    their own order after them."""
    groups: list[list[pytest.Item]] = [[] for _ in range(len(LONGEST) + 1)]
    for item in items:
        groups[rank(item.nodeid)].append(item)
    rest = groups.pop()
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for place, group in enumerate(group for group in groups if group):
        lap, turn = divmod(place, workers)
        heads[turn if lap % 2 == 0 else workers - 1 - turn] += group  # a file's stay together
    order: list[pytest.Item] = []
    left, taken = len(items), 0
    for worker in range(workers):
        share = left // (workers - worker)  # as worksteal's first distribution
        left -= share
        more = max(0, share - len(heads[worker]))
        order += heads[worker] + rest[taken:taken + more]
        taken += more
    return order + rest[taken:]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (each worker collects alike, and the order must be the same in
    every one), the longest tests dealt to the heads of the workers' shares."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers > 1:
        items[:] = dealt(items, workers)
