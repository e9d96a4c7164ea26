"""A JoinRPG roster into a campaign, on each database (issue 26, item 1): the new
characters added in ONE record with their groups, a second import adding nothing
twice (unchanged, or changed and kept), and the ruleset's starting hits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from lazaretto.service import roster
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.joinrpg import Options
from lazaretto.store.db import Database

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "joinrpg-roster.json"
OPTIONS = Options(fields={"age": "Возраст"})


@pytest.fixture
def svc(database_url: str) -> Iterator[CampaignService]:
    db = Database(database_url)
    service = CampaignService(db)
    service.create_campaign("g", "warhammer-larp", start=datetime(2026, 6, 13, 9), seed=1)
    yield service
    db.close()


def check(
    svc: CampaignService, doc: dict[str, Any], lang: str = "en", options: Options = OPTIONS
) -> list[roster.Checked]:
    rs, state, _ = svc.load("g")
    text = json.dumps(doc, ensure_ascii=False)
    return roster.read_joinrpg(
        text, state, lambda h: rs.starting_hits(state.params, h), lang, options
    )


def load(svc: CampaignService, doc: dict[str, Any]) -> list[roster.Checked]:
    checked = check(svc, doc)
    added = [c for c in checked if c.status == "added" and c.row]
    if added:
        roster.import_roster(
            svc,
            "g",
            [c.row for c in added if c.row],
            data={c.row.id: c.data for c in added if c.row},
        )
    return checked


def example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def test_the_new_characters_are_added_in_one_record_with_their_groups(
    svc: CampaignService,
) -> None:
    before = svc.version("g")
    checked = load(svc, example())
    assert [c.status for c in checked] == ["added", "added", "skipped", "skipped"]
    _, state, _ = svc.load("g")
    vera, boris = state.characters["1001"], state.characters["1002"]
    assert (vera.name, vera.race, vera.age, vera.hits_max) == ("Вера Травница", "человек", 34, 12)
    assert vera.skills == ["медицина", "травничество"]
    assert vera.data["joinrpg"]["groups"] == ["Госпиталь Ордена"]
    assert vera.data["healer"] is True
    rs = svc.ruleset("g")
    assert boris.hits_max == rs.starting_hits(state.params, None)  # no hits: the default
    assert "1003" not in state.characters and "1004" not in state.characters
    assert svc.version("g") == (before or 0) + 1  # one record


def test_a_second_import_adds_nothing_twice(svc: CampaignService) -> None:
    load(svc, example())
    version = svc.version("g")
    again = load(svc, example())
    assert [c.status for c in again] == ["unchanged", "unchanged", "skipped", "skipped"]
    assert svc.version("g") == version  # nothing recorded


def test_a_character_changed_in_joinrpg_is_reported_and_kept(svc: CampaignService) -> None:
    load(svc, example())
    doc = example()
    doc["characters"][0]["CharacterName"] = "Вера Целительница"
    doc["characters"].append(
        {**doc["characters"][1], "CharacterId": 1010, "CharacterName": "Новенький"}
    )
    checked = load(svc, doc)
    assert [c.status for c in checked] == ["changed", "unchanged", "skipped", "skipped", "added"]
    assert "name" in checked[0].note
    assert "иначе: name" in check(svc, doc, "ru")[0].note
    _, state, _ = svc.load("g")
    assert state.characters["1001"].name == "Вера Травница"  # kept
    assert state.characters["1010"].name == "Новенький"


def test_an_npc_may_be_imported_when_asked_for(svc: CampaignService) -> None:
    checked = check(svc, example(), options=Options(include_npc=True, include_inactive=True))
    assert [c.status for c in checked] == ["added"] * 4


def test_a_repeated_character_id_is_an_error_of_its_row(svc: CampaignService) -> None:
    doc = example()
    doc["characters"].append(doc["characters"][0])
    checked = check(svc, doc)
    assert checked[-1].error == "CharacterId repeats above"
    assert check(svc, doc, "ru")[-1].error == "CharacterId повторяется выше"


def test_a_name_too_long_is_an_error_in_both_languages(svc: CampaignService) -> None:
    doc = example()
    doc["characters"][1]["CharacterName"] = "Б" * 101
    assert checked_error(svc, doc, "en").startswith("name: String should have at most")
    assert checked_error(svc, doc, "ru").startswith("name: ")
    assert checked_error(svc, doc, "ru") != checked_error(svc, doc, "en")


def checked_error(svc: CampaignService, doc: dict[str, Any], lang: str) -> str:
    return check(svc, doc, lang)[1].error
