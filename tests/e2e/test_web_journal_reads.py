"""The hospital journal on the web reads in the page's language (W-HOSP-06): what a rule
wrote into an entry in English — a course's "until 12:40:00" (W-DTRT-06), the
anamnesis's "wounds: …; diseases: …" (W-DTRT-03) — reads in Russian on a Russian page,
and an entry an undo struck out says so in words, not as the record's raw data."""

from __future__ import annotations

import re

from tests.e2e.test_web_crawl_ru import Visible, problems
from tests.e2e.webtools import C, Login, hidden

from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database

COURSE = ["drip", "enema", "inhalation", "psychotherapy", "sedative", "operation"]


def _course(db: Database) -> int:
    """Karl admitted with iron fever, anamnesis, diagnosis and a course; the course's
    record number."""
    cs = CampaignService(db)
    cs.act(
        CAMPAIGN,
        "define-disease",
        {"code": "IF-1", "name": "Iron fever", "symptoms": "cough", "course": COURSE},
    )
    cs.act(CAMPAIGN, "add-to-book", {"healer": "1005", "code": "IF-1", "description": "cough"})
    cs.act(CAMPAIGN, "infect", {"character": "1006", "disease": "IF-1"})
    staff = {"hospital": "h1", "patient": "1006", "healer": "1005"}
    cs.act(CAMPAIGN, "admit", staff)
    cs.act(CAMPAIGN, "record-anamnesis", staff)
    cs.act(CAMPAIGN, "diagnose", {**staff, "disease": "IF-1"})
    cs.act(CAMPAIGN, "start-disease-course", {**staff, "bed": "b2", "diseases": ["IF-1"]})
    return int(cs.records(CAMPAIGN)[-1]["record"])


def _rows(html: str) -> dict[str, str]:
    """The journal's rows as text, by entry type (the last of each)."""
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        page = Visible()
        page.feed(row)
        cells = " ".join(page.texts)
        out[cells.split(" ")[3] if len(cells.split(" ")) > 3 else cells] = cells
    return out


def _undo(login: Login, record: int) -> None:
    master = login("master")
    card = master.get(f"{C}/ch/1006")
    r = master.post(
        f"{C}/records/{record}/undo",
        data={"csrf": hidden(card.text, "csrf")},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text


def test_a_course_entry_reads_until_in_russian_and_the_anamnesis_in_russian_words(
    db: Database, login: Login
) -> None:
    _course(db)
    healer = login("healer")
    ru = healer.get(f"{C}/journal", params={"lang": "ru"})
    assert ru.status_code == 200
    rows = _rows(ru.text)
    course = rows["курс"]
    assert re.search(r"текст: до \d\d:\d\d:\d\d", course), course  # W-DTRT-06
    assert "ранения: -; болезни: IF-1" in rows["анамнез"], rows["анамнез"]  # W-DTRT-03
    assert "until" not in ru.text and "wounds:" not in ru.text
    assert not [p for p in problems(ru.text, set()) if "English" in p], problems(ru.text, set())
    en = healer.get(f"{C}/journal", params={"lang": "en"})
    assert re.search(r"text: until \d\d:\d\d:\d\d", en.text), en.text
    assert "wounds: -; diseases: IF-1" in en.text


def test_an_entry_struck_by_an_undo_says_so_in_words_in_both_languages(
    db: Database, login: Login
) -> None:
    """The journal keeps the course's entry after its record is undone, struck out and
    marked with the undo (who, when), never the undo's raw data."""
    record = _course(db)
    _undo(login, record)
    healer = login("healer")
    ru = healer.get(f"{C}/journal", params={"lang": "ru"}).text
    course = _rows(ru)["курс"]
    assert re.search(
        rf"зачёркнуто — из-за: запись {record} отменена \(мастер, в \d\d:\d\d\)", course
    )
    assert '<tr class="struck">' in ru
    en = healer.get(f"{C}/journal", params={"lang": "en"}).text
    assert re.search(
        rf"struck out — because of: record {record} undone \(master, at \d\d:\d\d\)", en
    )
    for page in (ru, en):
        assert "{&#39;record&#39;" not in page and "{'record'" not in page
        assert "corrected by" not in page and "correction:" not in page
    pdf = healer.get(f"{C}/journal.pdf", params={"lang": "ru"})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
