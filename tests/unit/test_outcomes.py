"""The medical outcome per character (issue 26, item 2) from the events the bundled
rulesets emit: diseases had and cured, hospital days (zone-larp's arrive/discharge,
warhammer-larp's journal admission/outcome), death time and cause; and its CSV."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from typing import Any

from lazaretto.core.character import Character
from lazaretto.core.events import Event
from lazaretto.service.exports import outcomes_csv
from lazaretto.service.outcomes import outcomes

T0 = datetime(2026, 6, 13, 9)


def ev(kind: str, hours: float, **payload: Any) -> Event:
    return Event(kind=kind, payload=payload, at=T0 + timedelta(hours=hours))


def people(**alive: bool) -> dict[str, Character]:
    return {cid: Character(id=cid, name=cid.title(), alive=a) for cid, a in alive.items()}


def test_diseases_had_and_cured_are_listed_once_each_in_order() -> None:
    events = [
        ev("disease.infected", 1, character="vera", code="GF-1"),
        ev("infection.exposed", 2, character="vera", infection="чума"),
        ev("disease.infected", 3, character="vera", code="GF-1"),
        ev("disease.cured", 4, character="vera", code="GF-1"),
        ev("case.sick", 5, character="boris", disease="flu"),
        ev("case.cured", 6, character="boris", disease="flu"),
        ev("infection.cured", 7, character="ghost", infection="x"),  # not a character
    ]
    rows = {r["id"]: r for r in outcomes(people(vera=True, boris=True), events, T0)}
    assert rows["vera"]["diseases"] == ["GF-1", "чума"] and rows["vera"]["cured"] == ["GF-1"]
    assert rows["boris"]["diseases"] == ["flu"] and rows["boris"]["cured"] == ["flu"]


def test_hospital_days_add_up_every_stay_and_an_open_one_counts_to_now() -> None:
    events = [
        ev("hospital.arrived", 0, character="vera"),
        ev("hospital.discharged", 12, character="vera"),
        ev("journal.entry_added", 24, type="admission", patient="vera"),
        ev("journal.entry_added", 30, type="diagnosis", patient="vera"),
        ev("journal.entry_added", 36, type="outcome", patient="vera"),
        ev("hospital.arrived", 40, character="boris"),  # still there
    ]
    now = T0 + timedelta(hours=52)
    rows = {r["id"]: r for r in outcomes(people(vera=True, boris=True), events, now)}
    assert rows["vera"]["hospital_days"] == 1.0  # 12 h + 12 h
    assert rows["boris"]["hospital_days"] == 0.5


def test_a_death_gives_its_campaign_time_and_cause_and_ends_the_stay() -> None:
    events = [
        ev("hospital.arrived", 0, character="vera"),
        ev("character.died", 6, character="vera", cause="bled out"),
    ]
    [row] = outcomes(people(vera=False), events, T0 + timedelta(days=3))
    assert (row["alive"], row["died_at"], row["cause"]) == (False, "2026-06-13T15:00", "bled out")
    assert row["hospital_days"] == 0.25 and row["state"] == "dead"


def test_a_death_taken_back_leaves_the_character_alive() -> None:
    """The state says alive (the record was undone): no death time is shown."""
    [row] = outcomes(people(vera=True), [ev("character.died", 1, character="vera")], T0)
    assert row["alive"] is True and row["died_at"] == "" and row["cause"] == ""


def test_the_group_comes_from_the_joinrpg_import_and_the_state_from_the_ruleset() -> None:
    vera = Character(id="v", name="Вера", data={"joinrpg": {"groups": ["Госпиталь", "Город"]}})
    [row] = outcomes({"v": vera}, [], T0, {"v": "лёгкое ранение"})
    assert row["group"] == "Госпиталь; Город" and row["state"] == "лёгкое ранение"


def test_the_csv_neutralises_text_but_keeps_numbers() -> None:
    bad = Character(id="x", name="=1+1", race="", data={"joinrpg": {"groups": ["@SUM(A1)"]}})
    text = outcomes_csv(outcomes({"x": bad}, [], T0), "ru")
    header, row = list(csv.reader(io.StringIO(text)))
    assert header[1] == "имя" and row[1] == "'=1+1" and row[2] == "'@SUM(A1)"
    assert row[4] == "да" and row[9] == "0.0"
