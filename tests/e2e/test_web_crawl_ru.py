"""Every page of every ruleset, in Russian (issue 16, "cards that read"): a crawler
follows every link of each campaign from its page, as a master, a healer and a player
would, and fails on what a Russian reader should never see:

* a page word's key instead of the word (``q_operate``, ``due_in``), or any other raw
  ``snake_case`` code (``admitted_at``, ``post_op``, ``iron_fever``);
* an English label of the page catalogue (``i18n.UI``, the form labels, the card's
  detail words) where the Russian one belongs;
* a condition's raw data (``healer: 1004``, ``race: human``) or a character's id where
  their name belongs.

The campaigns are the demo LARP one and a showcase campaign of every other ruleset
(service/showcase.py) with characters in telling states, on a real SQLite file.
"""

from __future__ import annotations

import re
import string
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from fastapi.testclient import TestClient
from tests.e2e.webtools import Login

from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.service.showcase import seed_tables
from lazaretto.store.db import Database
from lazaretto.web import card_words, i18n

SKIPPED_TAGS = {"script", "style", "code", "textarea", "option", "title"}
"""Text a reader does not read as page words (codes are shown as codes on purpose)."""
SNAKE = re.compile(r"(?<![\w./=&?-])[a-z]+(?:_[a-z0-9]+)+(?![\w/.-])")
RAW_DATA = re.compile(
    r"\b(healer|hospital|bed|table|mat|race|kind|admitted_at|bandaged|deadline)\s*:\s*\S",
    re.IGNORECASE,
)


class Visible(HTMLParser):
    """The text nodes a reader sees (rule ids aside) and the links to follow."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.links: list[str] = []
        self._skip: list[str] = []
        self.help: list[bool] = []  # per text: inside a form field's help (it names codes)
        self._label = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href") and "download" not in a:
            self.links.append(str(a["href"]))
        if tag == "label":
            self._label += 1
        cls = a.get("class") or ""
        if tag in SKIPPED_TAGS or "rules" in cls.split() or "code" in cls.split():
            self._skip.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self._label = max(0, self._label - 1)
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))
            self.help.append(self._label > 0)


def _english_labels() -> set[str]:
    """The English words of the catalogue that differ from their Russian ones."""
    pairs = [
        *i18n.UI.values(),
        *i18n.FIELDS.values(),
        *card_words.DETAILS.values(),
        *card_words.VALUES.values(),
    ]
    return {en for en, ru in pairs if en != ru and re.search("[A-Za-z]{3}", en)}


ENGLISH = _english_labels()
KEYS = {k for k in i18n.UI if "_" in k}


def _rule_written() -> list[re.Pattern[str]]:
    """What rules write into a journal in English (a course's ``until {until}``), as
    patterns: a Russian page reads such text from the Russian template instead."""
    out = []
    for rs_id in rulesets():
        for key, (en, ru) in get_ruleset(rs_id).texts.items():
            if not key.startswith("journal:") or en == ru:
                continue
            literals = [lit for lit, _, _, _ in string.Formatter().parse(en)]
            if any(re.search("[A-Za-z]{3}", lit) for lit in literals):
                out.append(re.compile("(?:.*?)".join(map(re.escape, literals))))
    return out


RULE_WRITTEN = _rule_written()


def problems(html: str, ids: set[str]) -> list[str]:
    """What a Russian reader should not see on this page."""
    page = Visible()
    page.feed(html)
    found = []
    for text, help_text in zip(page.texts, page.help, strict=True):
        if text in ENGLISH:
            found.append(f"English label {text!r}")
        for pattern in RULE_WRITTEN:
            if pattern.search(text):
                found.append(f"English rule text {text!r}")
        # a field's help names the codes to type, each with its Russian words beside it
        for word in [] if help_text else SNAKE.findall(text):
            found.append(
                f"{'untranslated key' if word in KEYS else 'raw code'} {word!r} in {text!r}"
            )
        if RAW_DATA.search(text):
            found.append(f"raw data {text!r}")
        for cid in ids:
            if re.search(rf"(?:лекарь|кто|healer):\s*{re.escape(cid)}(?!\w)", text, re.I):
                found.append(f"an id instead of a name: {text!r}")
    return found


def crawl(
    client: TestClient, campaign: str, ids: set[str], limit: int = 500
) -> dict[str, list[str]]:
    """Every page of ``campaign`` reachable by links from its page (each action's form
    once), in Russian; the problems found, by page."""
    root = f"/c/{campaign}"
    todo, seen, forms = deque([root]), {root}, set()
    out: dict[str, list[str]] = {}
    while todo and len(seen) <= limit:
        url = todo.popleft()
        r = client.get(url)
        # a query page may answer its form with a refusal (nothing to print yet): still a page
        assert r.status_code in (200, 409, 422), f"{url}: {r.status_code}"
        if not r.headers.get("content-type", "").startswith("text/html"):
            continue
        if found := problems(r.text, ids):
            out[url] = found
        page = Visible()
        page.feed(r.text)
        for href in page.links:
            link = urldefrag(href.replace("&amp;", "&"))[0]
            parts = urlsplit(link)
            if parts.netloc or not parts.path.startswith(root + "/") or link in seen:
                continue
            if "/act/" in parts.path or "/query/" in parts.path:
                if parts.path in forms:  # one form per action: the others differ by subject
                    continue
                forms.add(parts.path)
            if parts.path.endswith((".pdf", ".csv", "/passport")) or "/print/" in parts.path:
                continue  # downloads and printouts are checked by the print tests
            seen.add(link)
            todo.append(link)
    assert len(seen) > 5, f"{campaign}: only {sorted(seen)}"
    return out


@pytest.fixture
def everywhere(db: Database) -> list[str]:
    campaigns, accounts = CampaignService(db), AccountService(db)
    master = accounts.login("master", "master-demo").user
    return [CAMPAIGN, *seed_tables(campaigns, accounts, master)]


def test_the_showcase_has_a_campaign_of_every_ruleset(everywhere: list[str], db: Database) -> None:
    shown = {CampaignService(db).info(c).ruleset for c in everywhere}
    assert shown == set(rulesets())


@pytest.mark.parametrize("user", ["master", "healer", "player"])
def test_every_page_reads_in_russian(
    everywhere: list[str], db: Database, login: Login, user: str
) -> None:
    client = login(user)
    client.cookies.set("lang", "ru")
    mine = AccountService(db).memberships(AccountService(db).login(user, f"{user}-demo").user)
    bad: dict[str, list[str]] = {}
    for m in mine:
        _, state, _ = CampaignService(db).load(m.campaign)
        bad |= crawl(client, m.campaign, set(state.characters))
    assert not bad, "\n".join(f"{url}: {'; '.join(p)}" for url, p in sorted(bad.items()))


def test_the_crawler_sees_what_it_looks_for() -> None:
    """The checks themselves fail on the things the issue names."""
    assert problems("<p>human, 34</p><p>Hits</p>", set()) == ["English label 'Hits'"]
    assert problems("<span>текст: until 12:40:00</span>", set()) == [
        "English rule text 'текст: until 12:40:00'"
    ]
    assert not problems("<span>текст: до 12:40:00</span>", set())
    assert problems("<small>healer: 1004</small>", {"1004"})
    assert problems("<small>лекарь: 1004</small>", {"1004"})
    assert problems("<p>admitted_at 12:00</p>", set())
    assert problems("<p>q_operate</p>", set()) == ["untranslated key 'q_operate' in 'q_operate'"]
    assert not problems("<p>лекарь: Sigrun</p><small class='rules'>W-HOSP-04</small>", {"1005"})
    assert not problems("<code>admitted_at</code><a href='/c/x/act/a_b'>Далее</a>", set())
