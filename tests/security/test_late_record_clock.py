"""A record never moves the campaign clock behind a master's back (issue 28, H1, M3, L8).

A record ahead of the clock is refused for a player or a healer, on the API, the web
outbox (``x_at``) and the CLI alike: on a manual clock it would have moved the clock
(the player who gets 403 on the clock itself could otherwise move it by recording in
the future), on a running clock it fired every countdown up to it while the clock read
the present. A master moves a manual clock that way only by confirming it
(``move_clock``, ``--move-clock``), and is told what the move fires; nobody records
ahead of a running clock. A tap time with a timezone offset is read the same on the
web as on the API.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from httpx import Response

from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode
from lazaretto.core.ruleset import Role
from lazaretto.service.demo import CAMPAIGN
from tests.e2e.clitools import cli_runner, ok
from tests.security.calls import Viewer, send
from tests.security.world import World

NINE = datetime(2026, 6, 13, 9, 0)


OTHER_RULESETS = False
"""The ``world`` fixture's demo campaign is enough: these tests make their own."""


def table(world: World) -> str:
    """A fresh warhammer campaign on a manual clock at 09:00: Pavel (pc, the player's),
    Petra (pc2, player2's), Darya (doc, the healer's); Petra wounded at 09:00, so a
    countdown of hers falls due at 09:15 (W-WND-08)."""
    name = world.unique("clock-")
    world.campaigns.create_campaign(
        name, "warhammer-larp", clock=ClockMode.MANUAL, start=NINE, seed=1
    )
    for cid, who, skills in (("pc", "Pavel", []), ("pc2", "Petra", []), ("doc",
                             "Darya", ["Healer"])):
        world.campaigns.add_character(
            name, Character(id=cid, name=who, hits_max=3, hits=3, age=30, skills=skills)
        )
    for user, role, chars in (
        ("master", Role.MASTER, ()),
        ("player", Role.PLAYER, ("pc",)),
        ("player2", Role.PLAYER, ("pc2",)),
        ("healer", Role.HEALER, ("doc",)),
    ):
        world.accounts.add_member(world.users[user], name, role, chars)
    world.campaigns.act(name, "lose-hits", {"character": "pc2", "hits": 3})
    return name


def api(world: World, user: str, campaign: str, action: str, **body: Any) -> Response:
    r: Response = world.client.post(
        f"/api/campaigns/{campaign}/actions/{action}", json=body, headers=world.bearer(user)
    )
    return r


def clock_reads(world: World, campaign: str) -> datetime:
    return world.campaigns.clock(campaign).now()


def records(world: World, campaign: str) -> list[dict[str, Any]]:
    return world.campaigns.records(campaign)


@pytest.mark.parametrize("user", ["player", "healer"])
def test_a_player_or_healer_recording_ahead_of_a_manual_clock_is_refused_and_moves_nothing(
    world: World, user: str
) -> None:
    """The probe's H1: P1's player records lose-hits at +3h on a manual clock at 09:00.
    Before: 200, the clock read 12:00 and Petra was dead since 09:45. Now: 403, the clock
    still reads 09:00, nothing is recorded, Petra is alive."""
    campaign = table(world)
    before = len(records(world, campaign))
    own = "pc" if user == "player" else "doc"
    r = api(world, user, campaign, "lose-hits", character=own, hits=1, at="+3h")
    assert r.status_code == 403, r.text
    assert "only a master moves campaign time" in r.json()["message"]
    assert clock_reads(world, campaign) == NINE
    assert len(records(world, campaign)) == before
    _, state, _ = world.campaigns.load(campaign)
    assert state.characters["pc2"].alive and state.characters["pc"].hits == 3


def test_the_same_tap_from_the_web_outbox_is_refused_in_the_callers_language(
    world: World,
) -> None:
    """The phone's outbox says the tap time in ``x_at``: a forged one ahead of the clock
    is refused as the API refuses it (403), in Russian for a Russian page."""
    campaign = table(world)
    for lang, words in (("en", "only a master moves campaign time"),
                        ("ru", "время кампании переводит только мастер")):
        result = send(
            world,
            Viewer.PLAYER_OWN,
            "POST",
            f"/c/{campaign}/act/lose-hits",
            page=True,
            form={"character": "pc", "hits": "1", "idem": f"k-{lang}",
                  "x_at": "2026-06-13T12:00:00.000"},
            params={"lang": lang},
        )
        assert result.status == 403, result.text[:300]
        assert words in result.text
    assert clock_reads(world, campaign) == NINE


def test_a_masters_record_ahead_of_a_manual_clock_needs_the_move_confirmed(
    world: World,
) -> None:
    """A master at 09:00 recording at 12:00 is told that it moves the clock and which
    countdowns it fires (Petra's); confirmed (``move_clock``), the clock reads 12:00."""
    campaign = table(world)
    r = api(world, "master", campaign, "lose-hits", character="pc", hits=1, at="12:00")
    assert r.status_code == 409, r.text
    message = r.json()["message"]
    assert "moves the clock there" in message and "countdown(s) fire (pc2)" in message
    assert clock_reads(world, campaign) == NINE
    r = api(world, "master", campaign, "lose-hits", character="pc", hits=1, at="12:00",
            move_clock=True)
    assert r.status_code == 200, r.text
    assert clock_reads(world, campaign) == datetime(2026, 6, 13, 12, 0)


def test_nobody_records_ahead_of_a_running_clock(world: World) -> None:
    """The probe's M3: on the demo's running clock a master's record at +1d fired every
    countdown up to then while the clock read the present. Refused, confirmed or not,
    and the refusal says how to mean yesterday evening."""
    before = world.campaigns.load(CAMPAIGN)[1].model_dump_json()
    for confirm in (False, True):
        r = api(world, "master", CAMPAIGN, "lose-hits", character="1002", hits=1, at="+1d",
                move_clock=confirm)
        assert r.status_code == 409, r.text
        assert "ahead of the running campaign clock" in r.json()["message"]
        assert "for the day before, give the date" in r.json()["message"]
    after = world.campaigns.load(CAMPAIGN)[1]
    assert after.model_dump_json() == before
    r = api(world, "player", CAMPAIGN, "lose-hits", character="1002", hits=1, at="+1h")
    assert r.status_code == 403
    # a tap a moment ahead (the page's clock a little fast) is in order
    r = api(world, "player", CAMPAIGN, "lose-hits", character="1002", hits=1, at="+2s")
    assert r.status_code == 200, r.text


def test_the_cli_refuses_a_player_ahead_and_a_master_without_move_clock(
    tmp_path: Path,
) -> None:
    """The same on the command line: ``--role player --at +3h`` is refused; a master's
    ``--at +3h`` names the move and needs ``--move-clock``; in Russian too."""
    base = cli_runner(tmp_path / "c.db")

    def run(*args: str, lang: str = "en") -> Result:
        return base(*args, lang=lang, env={"LAZARETTO_CAMPAIGN": "t"})

    ok(run("campaign", "create", "t", "--start", "2026-06-13T09:00", "--seed", "1"))
    ok(run("character", "add", "pc", "--name", "Pavel"))
    player = run("act", "lose-hits", "--character", "pc", "--hits", "1", "--at", "+3h",
                 "--role", "player", "--as", "pc")
    assert player.exit_code != 0 and "only a master moves campaign time" in player.output
    master = run("act", "lose-hits", "--character", "pc", "--hits", "1", "--at", "+3h")
    assert master.exit_code != 0 and "--move-clock" in master.output
    ru = run("act", "lose-hits", "--character", "pc", "--hits", "1", "--at", "+3h", lang="ru")
    assert ru.exit_code != 0 and "запись переведёт часы туда" in ru.output
    assert "09:00:00" in ok(run("clock", "show"))
    moved = ok(run("act", "lose-hits", "--character", "pc", "--hits", "1", "--at", "+3h",
                   "--move-clock"))
    assert moved.startswith("12:00:00")


def test_a_web_tap_time_with_an_offset_is_read_as_the_api_reads_it(world: World) -> None:
    """The probe's L8: the web dropped a tap time's offset (08:50 local sent as
    +02:00 read as two hours off), the API converted it. Both convert now: with the
    clock at 09:30, the healer's tap made at 09:20 local is placed at 09:20."""
    campaign = table(world)
    world.campaigns.advance_to(campaign, NINE + timedelta(minutes=30))
    tapped = NINE + timedelta(minutes=20)
    offset = tapped.astimezone().astimezone(timezone(timedelta(hours=2))).isoformat()
    result = send(
        world,
        Viewer.HEALER_OWN,
        "POST",
        f"/c/{campaign}/act/lose-hits",
        page=True,
        form={"character": "doc", "hits": "1", "idem": "tz-1", "x_at": offset},
    )
    assert result.status in (200, 303), result.text[:300]
    assert records(world, campaign)[-1]["at"] == tapped.isoformat()
    r = api(world, "healer", campaign, "lose-hits", character="doc", hits=1, at=offset)
    assert r.status_code == 200, r.text
    assert records(world, campaign)[-1]["at"] == tapped.isoformat()
