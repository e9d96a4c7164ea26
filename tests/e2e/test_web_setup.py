"""A GM starts from the web alone: a new campaign with parameter overrides, characters
added one by one and imported from CSV or JSON (a preview with an error per row, then
one change), through the real app on a real SQLite file."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from tests.e2e.webtools import Login, hidden

from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

PARTY = """id,name,hits,race,age,skills
t1,Thorin,12,dwarf,150,smithing;axes
t2,Lia,,elf,90,
t3,Bram,8,human,30,medicine
t4,Wren,9,halfling,25,
"""


def _new(client: TestClient, name: str, ruleset: str = "dnd5e-injuries", **params: str) -> str:
    page = client.get(f"/new?ruleset={ruleset}")
    assert page.status_code == 200
    data = {
        "csrf": hidden(page.text, "csrf"),
        "ruleset": ruleset,
        "name": name,
        "clock": "manual",
        "start": "2026-06-13T18:00",
        **{f"p.{k}": v for k, v in params.items()},
    }
    r = client.post("/new", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.headers["location"])


def test_a_master_creates_a_campaign_with_a_parameter_override(
    login: Login, db: Database
) -> None:
    client = login("master")
    page = client.get("/new?ruleset=dnd5e-injuries").text
    assert "caution_level_divisor" in page and "D-SEV-01: + level / 2" in page  # its doc
    assert _new(client, "table-1", caution_level_divisor="3") == "/c/table-1/roster"
    info = CampaignService(db).info("table-1")
    assert info.ruleset == "dnd5e-injuries" and info.now.isoformat() == "2026-06-13T18:00:00"
    _, state, _ = CampaignService(db).load("table-1")
    assert state.params == {"caution_level_divisor": 3}  # only what was filled in
    assert "table-1" in client.get("/").text


def test_a_bad_campaign_name_shows_the_form_again_with_the_reason(login: Login) -> None:
    client = login("master")
    page = client.get("/new?ruleset=ide4-survival")
    r = client.post(
        "/new",
        data={"csrf": hidden(page.text, "csrf"), "ruleset": "ide4-survival", "name": "no spaces"},
    )
    assert r.status_code == 422 and "Campaign name" in r.text
    assert 'value="no spaces"' in r.text  # what was typed comes back


def test_a_csv_roster_is_previewed_then_imported_in_one_change(
    login: Login, db: Database
) -> None:
    client = login("master")
    _new(client, "table-2")
    roster = client.get("/c/table-2/roster")
    csrf = hidden(roster.text, "csrf")
    before = CampaignService(db).version("table-2")
    preview = client.post(
        "/c/table-2/roster/import",
        data={"csrf": csrf, "step": "preview"},
        files={"file": ("party.csv", PARTY.encode(), "text/csv")},
    )
    assert preview.status_code == 200 and "Import all: 4" in preview.text
    assert CampaignService(db).version("table-2") == before  # a preview changes nothing
    done = client.post(
        "/c/table-2/roster/import", data={"csrf": csrf, "step": "import", "text": PARTY}
    )
    assert done.status_code == 201 and "Characters imported: 4" in done.text
    assert CampaignService(db).version("table-2") == (before or 0) + 1  # ONE change
    _, state, _ = CampaignService(db).load("table-2")
    assert state.characters["t1"].skills == ["smithing", "axes"]
    assert state.characters["t1"].hits_max == 12 and state.characters["t2"].race == "elf"


def test_a_roster_with_bad_rows_names_each_and_imports_nothing(login: Login, db: Database) -> None:
    client = login("master")
    _new(client, "table-3")
    csrf = hidden(client.get("/c/table-3/roster").text, "csrf")
    rows = [{"id": "a", "name": "Ann"}, {"id": "a", "name": "Again"}, {"id": "b c", "name": "X"}]
    r = client.post(
        "/c/table-3/roster/import", data={"csrf": csrf, "step": "import", "text": json.dumps(rows)}
    )
    assert r.status_code == 422
    assert "is taken by a row above" in r.text and "String should match pattern" in r.text
    assert "rows_with_errors" not in r.text and "with errors" in r.text
    assert CampaignService(db).load("table-3")[1].characters == {}


def test_a_csv_without_its_header_is_one_clear_error(login: Login) -> None:
    client = login("master")
    _new(client, "table-4")
    csrf = hidden(client.get("/c/table-4/roster").text, "csrf")
    r = client.post("/c/table-4/roster/import", data={"csrf": csrf, "text": "1,Vera\n2,Oleg"})
    assert r.status_code == 422 and "header line with at least the columns id and name" in r.text


def test_a_character_is_added_from_the_roster_page(login: Login, db: Database) -> None:
    client = login("master")
    _new(client, "table-5", ruleset="ide4-survival")
    csrf = hidden(client.get("/c/table-5/roster").text, "csrf")
    r = client.post(
        "/c/table-5/roster/add",
        data={"csrf": csrf, "id": "v1", "name": "Vera", "hits": "", "skills": "cooking; first aid"},
    )
    assert r.status_code == 201 and "Added: Vera (v1)" in r.text
    vera = CampaignService(db).load("table-5")[1].characters["v1"]
    assert vera.skills == ["cooking", "first aid"]
    again = client.post("/c/table-5/roster/add", data={"csrf": csrf, "id": "v1", "name": "V"})
    assert again.status_code == 409 and "already exists" in again.text


def test_only_a_master_sees_the_roster(login: Login) -> None:
    r = login("healer").get("/c/demo-larp/roster")
    assert r.status_code == 403
