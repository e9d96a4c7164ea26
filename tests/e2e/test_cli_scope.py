"""The CLI speaks the campaign's ruleset and nothing else (issue 17), and prints nothing
raw that players typed (issue 15, item 13): ``act``/``query`` list and accept only the
campaign's ruleset's declarations; escape sequences in names, locations and journal
corrections reach the terminal as visible escapes."""

from __future__ import annotations

import pytest
from tests.e2e.clitools import Run, ok, ok_json, refused

from lazaretto.core.errors import InvalidInput

START = "2026-06-13T09:00"
NASTY = "Evil\x1b[2J\x1b]0;pwned\x07[blink]Guy\u202e"


def test_act_help_lists_only_the_campaigns_ruleset(run: Run) -> None:
    ok(run("campaign", "create", "siege", "--ruleset", "warhammer-larp", "--start", START))
    listed = ok(run("act", "--help"))
    assert "apply-bandage" in listed and "register-hospital" in listed
    assert "apply-kit" not in listed  # zone-larp's
    assert "meal" not in listed.split()  # ide4-survival's
    queries = ok(run("query", "--help"))
    assert "next-change" in queries and "injury-odds" not in queries


def test_with_no_campaign_act_help_groups_every_ruleset_by_name(run: Run) -> None:
    listed = ok(run("act", "--help"))
    for title in ("warhammer-larp", "zone-larp", "dnd5e-injuries", "ide4-survival"):
        assert title in listed, title
    assert "apply-bandage" in listed and "apply-kit" in listed


def test_a_same_named_action_shows_only_this_rulesets_options(run: Run) -> None:
    """zone-larp's start-operation has --measure and --place; warhammer-larp's has not."""
    ok(run("campaign", "create", "siege", "--ruleset", "warhammer-larp", "--start", START))
    shown = ok(run("act", "start-operation", "--help"))
    assert "--table" in shown and "--measure" not in shown and "--place" not in shown


def test_an_option_of_another_ruleset_is_refused_with_this_ones_options(run: Run) -> None:
    ok(run("campaign", "create", "siege", "--ruleset", "warhammer-larp", "--start", START))
    ok(run("character", "add", "B", "--name", "Boris"))
    line = refused(
        run("act", "start-operation", "--patient", "B", "--healer", "B", "--measure", "splint"),
        InvalidInput.exit_code,
    )
    assert "--measure" in line and "warhammer-larp" in line
    assert "--hospital" in line and "--table" in line  # what it does take
    ru = refused(run("act", "start-operation", "--measure", "x", lang="ru"), InvalidInput.exit_code)
    assert "нет параметра --measure" in ru


def test_control_characters_in_names_and_corrections_are_printed_escaped(run: Run) -> None:
    ok(run("campaign", "create", "siege", "--ruleset", "warhammer-larp", "--start", START))
    ok(run("character", "add", "E", "--name", NASTY, "--hits", "3", "--race", NASTY))
    ok(run("character", "add", "A", "--name", "Anna", "--hits", "2", "--skill", "Healer"))
    ok(run("act", "lose-hits", "--character", "E", "--hits", "1", "--location", NASTY))
    ok(
        run(
            "act",
            "register-hospital",
            "--id",
            "h1",
            "--name",
            "Shallya",
            "--number",
            "7",
            "--tables",
            "t1",
            "--beds",
            "b1",
            "--beds",
            "b2",
        )
    )
    ok(run("act", "admit", "--hospital", "h1", "--patient", "E", "--healer", "A"))
    ok(run("act", "correct-journal", "--hospital", "h1", "--entry", "1", "--text", NASTY))
    for args in (
        ["character", "list"],
        ["character", "show", "E"],
        ["log"],
        ["journal"],
        ["timers"],
        ["act", "lose-hits", "--character", "E", "--hits", "1", "--location", "x"],
    ):
        out = ok(run(*args))
        for raw in ("\x1b", "\x07", "\u202e"):
            assert raw not in out, (args, raw)
        assert "\\x1b" in out or args[0] in ("timers", "act"), (args, out)
    assert "[blink]Guy" in ok(run("character", "show", "E"))  # shown, not read as markup
    # machine output keeps the value, escaped the JSON way
    shown = ok_json(run("character", "show", "E", "--json"))
    assert shown["name"] == NASTY
    assert "\\u001b" in ok(run("character", "show", "E", "--json"))


def test_reading_a_realtime_campaign_still_fires_what_came_due(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI skips the catch-up write for manual clocks only: on a running realtime
    clock, reading a card fires the countdown that came due (W-WND-08)."""
    import sys
    from datetime import timedelta

    from lazaretto.core import clock

    ok(run("campaign", "create", "larp", "--clock", "realtime"))
    ok(run("character", "add", "R", "--name", "Rustam", "--hits", "3"))
    ok(run("act", "lose-hits", "--character", "R", "--hits", "2", "--location", "arm"))
    assert ok_json(run("character", "show", "R", "--json"))["state"] == "light"
    real = clock.wall_now
    later = real() + timedelta(minutes=31)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("lazaretto") and (
            getattr(module, "wall_now", None) is real
        ):
            monkeypatch.setattr(module, "wall_now", lambda: later)
    assert ok_json(run("character", "show", "R", "--json"))["state"] == "heavy_unbandaged"


RULESETS = ["warhammer-larp", "zone-larp", "dnd5e-injuries", "fantasy-server", "ide4-survival"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_an_actions_options_are_described_in_the_chosen_language(
    run: Run, ruleset_id: str
) -> None:
    """``--lang ru act NAME --help`` describes every option in Russian, from the forms'
    catalogue (``reading/fields.py``): the same words a healer reads on the phone."""
    from lazaretto.core.registry import get_ruleset
    from lazaretto.reading.fields import field_help

    ok(run("campaign", "create", "c", "--ruleset", ruleset_id, "--start", START))
    rs = get_ruleset(ruleset_id)
    for kind, specs in (("act", rs.actions), ("query", rs.queries)):
        for name, spec in list(specs.items())[::7]:  # every seventh: all the kinds of field
            wide = {"COLUMNS": "500"}  # one line per option: Rich does not wrap
            ru = ok(run("--lang", "ru", kind, name, "--help", env=wide))
            en = ok(run(kind, name, "--help", env=wide))
            lines = {line.split()[1]: line for line in ru.splitlines() if "│ --" in line}
            for field, info in spec.input.model_fields.items():
                flag = "--" + field.replace("_", "-")
                assert flag in lines, (name, flag)
                if info.description:
                    assert field_help(info, "ru") in lines[flag], (name, lines[flag])
                    assert info.description in en, (name, field)
                assert ("(обязательно)" in lines[flag]) is info.is_required(), lines[flag]
            assert "весь ввод одним JSON-объектом" in ru and "(required)" not in ru, name
