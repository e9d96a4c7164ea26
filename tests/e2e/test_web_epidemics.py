"""The master's epidemics screen: an epidemic as waves, infected, cured, the next wave as
a countdown and the stickers left; labs with their points (real app, demo campaign)."""

from __future__ import annotations

from tests.e2e.webtools import C, Login

from lazaretto.core.character import Character
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database


def _epidemic(db: Database) -> None:
    svc = CampaignService(db)
    svc.add_character(
        CAMPAIGN, Character(id="1100", name="Vlad", hits_max=3, hits=3, skills=["Carrier"])
    )
    svc.act(CAMPAIGN, "register-location", {"id": "mill", "name": "Старая мельница"})
    svc.act(
        CAMPAIGN, "issue-certificate", {"kind": "epidemic", "disease": "GF-1", "holder": "1100"}
    )
    svc.act(CAMPAIGN, "attach-stickers", {"certificate": "epi-1", "count": 30, "source": "master"})
    svc.act(
        CAMPAIGN,
        "start-epidemic",
        {
            "carrier": "1100",
            "certificate": "epi-1",
            "location": "mill",
            "regional_master": "1004",
            "interval_minutes": 30,
            "wave_stickers": 3,
        },
    )


def test_an_epidemic_reads_as_a_task_with_its_next_wave_counting_down(
    login: Login, db: Database
) -> None:
    _epidemic(db)
    page = login("master").get(f"{C}/epidemics")
    assert page.status_code == 200
    text = page.text
    assert "Grey fever" in text and "Старая мельница" in text  # names, not ids
    assert 'class="cd" data-deadline=' in text  # the next wave counts down
    assert "Stickers left" in text and "epidemic-wave?epidemic=epi-1" in text
    assert "T" not in text.split("data-left>")[1][:5]  # a number, no ISO time
    ru = login("master").get(f"{C}/epidemics?lang=ru").text
    assert "Следующая волна" in ru and "Осталось наклеек" in ru


def test_only_masters_see_the_epidemics_screen(login: Login) -> None:
    assert login("healer").get(f"{C}/epidemics").status_code == 403
