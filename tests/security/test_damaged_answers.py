"""A damaged campaign says how to repair it, everywhere (issue 28 L7).

A campaign whose stored state no longer parses was listed as "damaged: repair it with
`lazaretto repair NAME`", but its card and its pages answered 500, and
``lazaretto replay`` printed pydantic's ValidationError. Each now says it is damaged
and names the repair, in the caller's language, and the repair makes it whole.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from lazaretto.core.errors import CampaignDamaged
from lazaretto.core.ruleset import Role
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
from tests.e2e.clitools import cli_runner, ok
from tests.security.calls import Viewer, send
from tests.security.world import World

REPAIR = "repair it with `lazaretto repair {}`"
REPAIR_RU = "почините командой `lazaretto repair {}`"


def _damage(db: Database, campaign: str) -> None:
    with db.transaction() as s:
        s.execute(
            text("UPDATE state_parts SET body = 'not json' WHERE campaign_id = :c AND field = ''"),
            {"c": campaign},
        )


def test_the_api_and_the_pages_of_a_damaged_campaign_name_the_repair(world: World) -> None:
    name = world.unique("broken-")
    world.campaigns.create_campaign(name, "warhammer-larp")
    world.accounts.add_member(world.users["master"], name, Role.MASTER)
    _damage(world.db, name)
    fresh = CampaignService(world.db)
    try:
        fresh.load(name)
    except CampaignDamaged as exc:
        assert REPAIR.format(name) in exc.text("en")
    else:
        raise AssertionError("a damaged state parsed")
    for url in (f"/api/campaigns/{name}/characters", f"/api/campaigns/{name}/timers"):
        r = world.client.get(url, headers=world.bearer("master"))
        assert r.status_code == 409, (url, r.status_code, r.text[:200])
        assert REPAIR.format(name) in r.json()["message"]
    for lang, words in (("en", REPAIR), ("ru", REPAIR_RU)):
        page = send(world, Viewer.MASTER, "GET", f"/c/{name}", page=True, params={"lang": lang})
        assert page.status == 409, page.text[:300]
        shown = page.text.replace("«", "").replace("»", "")  # the page quotes a command so
        assert words.format(name).replace("`", "") in shown


def test_the_cli_replay_and_card_of_a_damaged_campaign_point_to_repair(tmp_path: Path) -> None:
    db_file = tmp_path / "c.db"
    run = cli_runner(db_file)
    env = {"LAZARETTO_CAMPAIGN": "t"}
    ok(run("campaign", "create", "t", "--start", "2026-06-13T09:00"))
    ok(run("character", "add", "c1", "--name", "Rustam", env=env))
    db = Database(f"sqlite:///{db_file}")
    _damage(db, "t")
    db.close()
    for command in (("replay",), ("character", "show", "c1"), ("timers",)):
        for lang, words in (("en", REPAIR), ("ru", REPAIR_RU)):
            result = run(*command, lang=lang, env=env)
            assert result.exit_code == CampaignDamaged.exit_code, (command, result.output)
            assert words.format("t") in result.output, (command, result.output)
            assert "ValidationError" not in result.output and "Traceback" not in result.output
    ok(run("repair", "t", env=env))
    assert "match" in ok(run("replay", env=env))
