"""Rebuilding a stored state from the event log (service/repair.py, DESIGN.md
principle 2): a state that parses but says otherwise than its log is shown field by
field and replaced; a process holding the old state parsed notices the version bump."""

from __future__ import annotations

import json

from sqlalchemy import text

from lazaretto.core.character import Character
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.repair import DamagedCampaign, repair
from lazaretto.store.db import Database


def _campaign(svc: CampaignService) -> None:
    svc.create_campaign("field", "warhammer-larp", seed=3)
    svc.add_character("field", Character(id="R", name="Rustam", hits_max=3, hits=3))
    svc.act("field", "lose-hits", {"character": "R", "hits": 1})


def test_a_state_that_differs_from_its_log_is_shown_and_rebuilt(database_url: str) -> None:
    db = Database(database_url)
    svc = CampaignService(db)
    _campaign(svc)
    with db.transaction() as s:
        part = "FROM state_parts WHERE field = 'characters' AND key = 'R'"
        stored = json.loads(s.execute(text(f"SELECT body {part}")).scalar_one())
        stored["hits"] = 3  # a careless hand edit
        s.execute(text("UPDATE state_parts SET body = :st WHERE field = 'characters' "
                       "AND key = 'R'"), {"st": json.dumps(stored)})
    elsewhere = CampaignService(db)  # another process, holding the edited state parsed
    assert elsewhere.load("field")[1].characters["R"].hits == 3
    before = svc.version("field")
    dry = repair(svc, "field", write=False)
    assert (dry.problem, dry.differences, dry.stored) == ("", ["characters: R"], False)
    assert svc.version("field") == before
    done = repair(svc, "field")
    assert done.stored and done.version == before + 1  # other processes notice
    assert elsewhere.load("field")[1].characters["R"].hits == 2
    assert svc.replay_matches("field")
    assert repair(svc, "field").differences == []
    db.close()


def test_an_unreadable_state_is_listed_as_damaged_until_repaired(database_url: str) -> None:
    db = Database(database_url)
    _campaign(CampaignService(db))
    with db.transaction() as s:
        s.execute(text("UPDATE state_parts SET body = 'not json' WHERE field = ''"))
    svc = CampaignService(db)
    (listed,) = svc.campaigns()
    assert isinstance(listed, DamagedCampaign) and listed.to_dict()["damaged"] is True
    assert "lazaretto repair field" in listed.listed("en")
    assert "lazaretto repair field" in listed.listed("ru") and "повреждена" in listed.listed("ru")
    assert repair(svc, "field").problem.startswith("Invalid JSON")
    (listed,) = svc.campaigns()
    assert not isinstance(listed, DamagedCampaign) and listed.characters == 1
    db.close()
