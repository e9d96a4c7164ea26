"""The ``lazaretto`` command, driven through Typer's runner on a real database file:
every command answers, ``--json`` is machine-readable, and every error is one line
with the exit code of its class (core/errors.py) and never a traceback."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from tests.e2e.clitools import Run, ok, ok_json, refused

from lazaretto.core.errors import ClockError, Conflict, InvalidInput, NotFound

START = "2026-06-13T09:00"


@pytest.fixture
def game(run: Run) -> Run:
    """A campaign ``siege`` (manual clock at 09:00, seed 1) with Rustam (c1) and Boris (c2)."""
    ok(run("campaign", "create", "siege", "--start", START, "--seed", "1"))
    ok(run("character", "add", "c1", "--name", "Rustam", "--hits", "3"))
    ok(run("character", "add", "c2", "--name", "Boris", "--hits", "3"))
    return run


# --- campaigns -------------------------------------------------------------------------


def test_campaign_create_list_and_show_report_the_new_campaign(run: Run) -> None:
    out = ok(run("campaign", "create", "siege", "--start", START, "--seed", "1"))
    assert out.strip() == (
        "Campaign siege created (warhammer-larp, manual clock, 2026-06-13 09:00:00)"
    )
    assert "siege" in ok(run("campaign", "list"))
    shown = ok(run("campaign", "show"))
    assert "warhammer-larp" in shown and "2026-06-13T09:00:00" in shown


def test_campaign_commands_give_json_with_the_clock_and_counts(run: Run) -> None:
    created = ok_json(run("campaign", "create", "siege", "--start", START, "--json"))
    assert created == {
        "id": "siege",
        "ruleset": "warhammer-larp",
        "clock": "manual",
        "paused": False,
        "now": "2026-06-13T09:00:00",
        "characters": 0,
        "pending_timers": 0,
        "events": 1,
    }
    ok(run("campaign", "create", "other", "--start", START))
    listed = ok_json(run("campaign", "list", "--json"))
    assert [c["id"] for c in listed] == ["other", "siege"]
    shown = ok_json(run("campaign", "show", "siege", "--json"))
    assert shown["id"] == "siege"
    assert shown["params"]["light_to_heavy_unbandaged_minutes"] == 30  # W-WND-08


def test_a_campaign_parameter_override_shows_in_campaign_show(run: Run) -> None:
    ok(
        run(
            "campaign",
            "create",
            "siege",
            "--start",
            START,
            "--param",
            "light_to_heavy_unbandaged_minutes=20",
        )
    )
    assert (
        ok_json(run("campaign", "show", "--json"))["params"]["light_to_heavy_unbandaged_minutes"]
        == 20
    )


def test_creating_a_campaign_twice_is_a_one_line_conflict(run: Run) -> None:
    ok(run("campaign", "create", "siege", "--start", START))
    line = refused(run("campaign", "create", "siege", "--start", START), Conflict.exit_code)
    assert line == "error: Campaign 'siege' already exists"


def test_a_bad_campaign_name_is_a_one_line_invalid_input(run: Run) -> None:
    line = refused(run("campaign", "create", "bad name"), InvalidInput.exit_code)
    assert "'bad name'" in line


def test_a_command_before_any_campaign_exists_says_how_to_create_one(run: Run) -> None:
    line = refused(run("timers"), NotFound.exit_code)
    assert "lazaretto campaign create" in line


def test_with_several_campaigns_the_campaign_must_be_chosen(game: Run) -> None:
    ok(game("campaign", "create", "other", "--start", START))
    line = refused(game("character", "list"), InvalidInput.exit_code)
    assert "--campaign" in line
    assert ok_json(game("--campaign", "other", "character", "list", "--json")) == []


# --- characters ------------------------------------------------------------------------------


def test_character_add_list_and_show(run: Run) -> None:
    ok(run("campaign", "create", "siege", "--start", START))
    out = ok(run("character", "add", "c1", "--name", "Rustam"))
    assert out.strip() == "Added Rustam (c1), 3 hits"
    added = ok_json(run("character", "add", "c2", "--name", "Boris", "--hits", "4", "--json"))
    assert (added["id"], added["name"], added["hits"], added["hits_max"]) == ("c2", "Boris", 4, 4)
    assert "Rustam" in ok(run("character", "list"))
    cards = ok_json(run("character", "list", "--json"))
    assert [(c["id"], c["name"], c["hits"]) for c in cards] == [
        ("c1", "Rustam", 3),
        ("c2", "Boris", 4),
    ]
    assert "Rustam (c1)" in ok(run("character", "show", "c1"))
    card = ok_json(run("character", "show", "c1", "--json"))
    assert (card["id"], card["name"], card["hits"], card["hits_max"]) == ("c1", "Rustam", 3, 3)


def test_an_unknown_character_or_a_duplicate_is_a_one_line_error(game: Run) -> None:
    assert "'ghost'" in refused(game("character", "show", "ghost"), NotFound.exit_code)
    assert "'c1' already exists" in refused(game("character", "add", "c1"), Conflict.exit_code)


# --- actions -----------------------------------------------------------------------------------


def test_act_lose_hits_records_the_wound_at_the_given_time(game: Run) -> None:
    """W-DEF-02, W-WND-08: hits lost, a light wound and its 30-minute countdown."""
    result = ok_json(
        game(
            "act",
            "lose-hits",
            "--character",
            "c1",
            "--hits",
            "2",
            "--location",
            "left arm",
            "--at",
            "12:00",
            "--move-clock",
            "--json",
        )
    )
    assert result["action"] == "lose-hits"
    events = result["events"]
    [lost] = [e for e in events if e["kind"] == "wound.hits_lost"]
    assert lost["payload"] == {"character": "c1", "lost": 2, "hits": 1, "location": "left arm"}
    assert lost["at"] == "2026-06-13T12:00:00"
    [scheduled] = [e for e in events if e["kind"] == "timer.scheduled"]
    assert scheduled["payload"]["timer"]["deadline"] == "2026-06-13T12:30:00"  # W-WND-08
    assert ok_json(game("character", "show", "c1", "--json"))["hits"] == 1


def test_act_prints_one_line_per_event_for_people(game: Run) -> None:
    out = ok(game("act", "lose-hits", "--character", "c1", "--hits", "2",
                  "--at", "12:00", "--move-clock"))
    assert "12:00:00  Rustam lost 2 hit(s), 1 left" in out
    assert "12:30:00" in out


def test_act_takes_the_whole_input_as_json(game: Run) -> None:
    ok(game("act", "lose-hits", "--input", '{"character": "c2", "hits": 1}'))
    assert ok_json(game("character", "show", "c2", "--json"))["hits"] == 2


def test_an_unknown_action_is_a_one_line_error_without_a_traceback(game: Run) -> None:
    result = game("act", "teleport", "--character", "c1")
    assert result.exit_code != 0
    assert "Traceback" not in result.stdout + result.stderr
    assert "'teleport'" in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines  # app.py: "errors are one line"


def test_a_missing_required_field_is_a_one_line_error_naming_it(game: Run) -> None:
    line = refused(game("act", "lose-hits", "--hits", "2"), InvalidInput.exit_code)
    assert line == "error: lose-hits: character: Field required"


def test_a_field_out_of_range_is_a_one_line_error_naming_it(game: Run) -> None:
    line = refused(
        game("act", "lose-hits", "--character", "c1", "--hits", "0"), InvalidInput.exit_code
    )
    assert line.startswith("error: lose-hits: hits:")


def test_bad_input_json_is_a_one_line_error(game: Run) -> None:
    line = refused(game("act", "lose-hits", "--input", "{bad"), InvalidInput.exit_code)
    assert line.startswith("error: --input is not valid JSON")


def test_an_error_asked_for_as_json_is_json(game: Run) -> None:
    result = game("act", "lose-hits", "--hits", "2", "--json")
    assert result.exit_code == InvalidInput.exit_code
    assert json.loads(result.stdout) == {
        "error": "InvalidInput",
        "message": "lose-hits: character: Field required",
        "rule_ids": [],
    }


def test_a_refusal_by_a_rule_names_the_rule_and_stores_nothing(game: Run) -> None:
    ok(game("act", "kill", "--character", "c2"))
    before = ok_json(game("log", "--json"))
    result = game("act", "lose-hits", "--character", "c2")
    line = refused(result, 3)  # RuleViolation
    assert line.startswith("error: ")
    assert "W-" in line
    assert ok_json(game("log", "--json")) == before


def test_a_player_may_not_perform_a_masters_action(game: Run) -> None:
    line = refused(game("act", "kill", "--character", "c1", "--role", "player"), 6)  # Forbidden
    assert "player may not kill" in line


# --- timers and the clock ----------------------------------------------------------------------


def test_timers_lists_pending_countdowns_soonest_first_with_deadlines(game: Run) -> None:
    ok(game("act", "lose-hits", "--character", "c1", "--hits", "1",
            "--at", "12:00", "--move-clock"))
    ok(game("act", "lose-hits", "--character", "c2", "--hits", "3",
            "--at", "12:05", "--move-clock"))
    data = ok_json(game("timers", "--json"))
    assert data["now"] == "2026-06-13T12:05:00"
    rows = [
        (t["subject"], t["kind"], t["deadline"], t["remaining_seconds"]) for t in data["timers"]
    ]
    assert rows == [
        ("c2", "heavy_wound_death", "2026-06-13T12:20:00", 900),  # W-WND-12: 15 min
        ("c1", "light_wound_worsens", "2026-06-13T12:30:00", 1500),  # W-WND-08: 30 min
    ]
    table = ok(game("timers"))
    assert table.index("12:20:00") < table.index("12:30:00")
    assert "Countdowns at 12:05:00" in table


def test_no_countdowns_is_said_plainly(game: Run) -> None:
    assert ok(game("timers")).strip() == "No pending countdowns (09:00:00)"
    assert ok_json(game("timers", "--json")) == {"now": "2026-06-13T09:00:00", "timers": []}


def test_clock_show_advance_and_set_move_a_manual_clock(game: Run) -> None:
    assert ok(game("clock", "show")).strip() == "2026-06-13 09:00:00 manual"
    assert ok_json(game("clock", "show", "--json")) == {
        "mode": "manual",
        "paused": False,
        "now": "2026-06-13T09:00:00",
    }
    assert ok_json(game("clock", "advance", "1h30m", "--json"))["now"] == "2026-06-13T10:30:00"
    assert "clock: 2026-06-13 11:15:00" in ok(game("clock", "set", "11:15"))
    assert ok_json(game("clock", "show", "--json"))["now"] == "2026-06-13T11:15:00"


def test_advancing_the_clock_fires_the_countdowns_that_come_due(game: Run) -> None:
    ok(game("act", "lose-hits", "--character", "c1", "--at", "10:00", "--move-clock"))
    fired = ok_json(game("clock", "advance", "31m", "--json"))
    assert "timer.fired" in [e["kind"] for e in fired["events"]]
    assert ok_json(game("character", "show", "c1", "--json"))["hits"] == 0  # W-WND-08
    assert [t["kind"] for t in ok_json(game("timers", "--json"))["timers"]] == ["heavy_wound_death"]


def test_setting_the_clock_backwards_is_a_one_line_error(game: Run) -> None:
    ok(game("clock", "set", "12:00"))
    line = refused(game("clock", "set", "10:00"), ClockError.exit_code)
    assert line.startswith("error: Time cannot go backwards")
    assert ok_json(game("clock", "show", "--json"))["now"] == "2026-06-13T12:00:00"


def test_unreadable_times_and_durations_are_one_line_errors(game: Run) -> None:
    assert "'noon'" in refused(game("clock", "set", "noon"), ClockError.exit_code)
    assert "'soon'" in refused(game("clock", "advance", "soon"), ClockError.exit_code)
    refused(game("act", "lose-hits", "--character", "c1",
                 "--at", "25:99", "--move-clock"), ClockError.exit_code)


def test_pausing_a_manual_clock_is_a_clear_error(game: Run) -> None:
    line = refused(game("clock", "pause"), ClockError.exit_code)
    assert line == "error: A manual clock does not run, so it cannot be paused"


def test_a_realtime_clock_pauses_and_resumes(run: Run) -> None:
    ok(run("campaign", "create", "larp", "--clock", "realtime"))
    ok(run("clock", "pause"))
    assert ok_json(run("clock", "show", "--json"))["paused"] is True
    assert "already paused" in refused(run("clock", "pause"), ClockError.exit_code)
    ok(run("clock", "resume"))
    assert ok_json(run("clock", "show", "--json"))["paused"] is False


# --- dice --------------------------------------------------------------------------------------


def test_roll_with_a_seed_is_reproducible_and_shows_every_die(run: Run) -> None:
    first = ok_json(run("roll", "4d6kh3", "--seed", "3", "--json"))
    again = ok_json(run("roll", "4d6kh3", "--seed", "3", "--json"))
    assert first == again
    assert first["expression"] == "4d6kh3"
    [dice] = first["dice"]
    assert len(dice["rolls"]) == 4
    assert sorted(dice["kept"]) == sorted(dice["rolls"])[1:]
    assert first["total"] == sum(dice["kept"])
    assert ok(run("roll", "4d6kh3", "--seed", "3")).startswith(f"4d6kh3 = {first['total']}")


def test_a_bad_dice_expression_is_a_one_line_error(run: Run) -> None:
    line = refused(run("roll", "3d6+"), 2)  # DiceSyntaxError
    assert line.startswith("error: ")


def test_odds_of_3d6_are_exact_and_sum_to_one(run: Run) -> None:
    data = ok_json(run("odds", "3d6", "--json"))
    dist = {row["total"]: Fraction(row["probability"]) for row in data["distribution"]}
    assert sorted(dist) == list(range(3, 19))
    assert sum(dist.values()) == 1
    assert dist[10] == Fraction(27, 216)
    assert data["mean"] == 10.5


# --- rules -------------------------------------------------------------------------------------


def test_rules_show_prints_the_english_rule_and_the_russian_original(run: Run) -> None:
    out = ok(run("rules", "show", "W-WND-08"))
    assert out.startswith("W-WND-08")
    assert "EN: If a light-wounded character is not bandaged" in out
    assert "RU: 2.2.2" in out and "тяжелого ранения" in out


def test_rules_show_of_an_unknown_id_is_a_one_line_error(run: Run) -> None:
    line = refused(run("rules", "show", "X-NOPE-1"), NotFound.exit_code)
    assert "'X-NOPE-1'" in line


# --- Russian ------------------------------------------------------------------------------------


def test_russian_output_for_timers_and_errors(game: Run) -> None:
    ok(game("act", "lose-hits", "--character", "c1", "--at", "12:00", "--move-clock"))
    table = ok(game("--lang", "ru", "timers"))
    assert "Отсчёты на 12:00:00" in table
    assert "лёгкое ранение" in table
    ru_json = ok_json(game("timers", "--json", lang="ru"))
    assert ru_json["timers"][0]["what"] != ok_json(game("timers", "--json"))["timers"][0]["what"]
    line = refused(game("--lang", "ru", "clock", "set", "10:00"), ClockError.exit_code)
    assert line.startswith("ошибка: Время не идёт назад")
    assert refused(game("clock", "pause", lang="ru"), ClockError.exit_code).startswith("ошибка: ")


def test_an_unknown_language_is_refused(run: Run) -> None:
    result = run("--lang", "fr", "campaign", "list")
    assert result.exit_code == 2
    assert "Traceback" not in result.stdout + result.stderr


# --- log and replay ----------------------------------------------------------------------------


def test_log_lists_the_events_in_order_and_replay_matches(game: Run) -> None:
    ok(game("act", "lose-hits", "--character", "c1", "--hits", "2",
            "--at", "12:00", "--move-clock"))
    ok(game("clock", "advance", "45m"))
    log = ok_json(game("log", "--json"))
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert log[0]["kind"] == "campaign.created"
    assert "timer.fired" in [e["kind"] for e in log]
    text = ok(game("log"))
    assert text.splitlines()[0] == "— 2026-06-13 —"  # the day, then its events
    assert text.splitlines()[1].startswith("#1 ")
    assert "Rustam lost 2 hit(s)" in text
    assert ok_json(game("replay", "--json")) == {"replay_matches": True}
    assert ok(game("replay")).strip() == "replay matches the stored state"
