"""The master's epidemics screen: an epidemic as waves, infected, cured, the next wave as
a countdown and the stickers left; labs with their points (real app, demo campaign)."""

from __future__ import annotations

from tests.e2e.webtools import C, Login, hidden

from lazaretto.core.character import Character
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database


def _epidemic(db: Database, wave_stickers: int = 3) -> None:
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
            "wave_stickers": wave_stickers,
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
    assert "Stickers left" in text and "epidemics/wave?epidemic=epi-1" in text
    assert "T" not in text.split("data-left>")[1][:5]  # a number, no ISO time
    ru = login("master").get(f"{C}/epidemics?lang=ru").text
    assert "Следующая волна" in ru and "Осталось наклеек" in ru


def test_only_masters_see_the_epidemics_screen(login: Login) -> None:
    assert login("healer").get(f"{C}/epidemics").status_code == 403


FULL = ["hooded_robe", "gloves", "plague_mask"]


def test_a_wave_is_run_by_ticking_the_people_met_in_the_order_met(
    login: Login, db: Database
) -> None:
    """The wave screen: characters by name and passport number, ticked (no typed ids);
    sent in the order ticked (A-W-22: the first met get a short wave's stickers, the
    list's order after what the page's script knew); full protection as the master sees
    it now (W-PROT-01: unticked for Anna, recorded as wearing it, she gets a sticker)."""
    _epidemic(db, wave_stickers=2)
    CampaignService(db).act(CAMPAIGN, "wear", {"character": "1004", "items": FULL})
    master = login("master")
    page = master.get(f"{C}/epidemics/wave", params={"epidemic": "epi-1"})
    assert page.status_code == 200
    assert "<textarea" not in page.text
    assert "Dmitri <small>№&nbsp;1003</small>" in page.text
    assert 'name="full.1004" value="1" aria-label="Full protection" checked' in page.text
    assert 'name="full.1003" value="1" aria-label="Full protection">' in page.text
    form = {
        "csrf": hidden(page.text, "csrf"),
        "idem": hidden(page.text, "idem"),
        "epidemic": "epi-1",
        "minutes": "5",
        "met": ["1001", "1003", "1004"],  # the list's order
        "order": '["1004"]',  # Anna was ticked first; the script lost the others
    }
    too_long = master.post(f"{C}/epidemics/wave", data={**form, "minutes": "6"})
    assert too_long.status_code == 409 and "W-EPI-05" in too_long.text  # refused, ...
    assert 'name="met" value="1003" data-met aria-label="Dmitri" checked' in too_long.text
    done = master.post(f"{C}/epidemics/wave", data=form, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"{C}/epidemics"
    _, state, _ = CampaignService(db).load(CAMPAIGN)
    wave = state.epidemics["epi-1"].waves[0]  # type: ignore[attr-defined]
    assert wave.infected == ["1004", "1001"]  # W-EPI-04: two stickers, to the first two met
    shown = master.get(f"{C}/epidemics").text
    assert "Anna infected: GF-1" in shown and "Rustam infected: GF-1" in shown
    assert "Dmitri infected" not in shown


def test_the_wave_screen_without_an_epidemic_named_opens_the_only_one_going_on(
    login: Login, db: Database
) -> None:
    master = login("master")
    none = master.get(f"{C}/epidemics/wave", follow_redirects=False)
    assert none.status_code == 303 and none.headers["location"] == f"{C}/epidemics"
    _epidemic(db)
    assert "Run the wave № 1" in master.get(f"{C}/epidemics/wave").text
    assert master.get(f"{C}/epidemics/wave", params={"epidemic": "epi-9"}).status_code == 404
    assert login("healer").get(f"{C}/epidemics/wave").status_code == 403
