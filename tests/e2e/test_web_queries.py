"""The generic query pages through a real app on a real SQLite file (demo campaign):
the list of queries a role may ask, the GET form generated from the input model, the
answer rendered generically in both languages, the one-line refusals, and a query page
for every query of every installed ruleset."""

from __future__ import annotations

import re

import pytest
from tests.e2e.webtools import C, Login

from lazaretto.core.character import Character
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database


def answer_line(html: str) -> str:
    found = re.search(r'<p class="summary"><b>(.*?)</b>', html, re.S)
    assert found, "no answer"
    return found.group(1)


def error_line(html: str) -> str:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', html, re.S)
    assert found, "no error message"
    return found.group(1)


def test_the_list_shows_the_queries_a_master_may_ask(login: Login) -> None:
    client = login("master")
    page = client.get(f"{C}/queries")
    assert page.status_code == 200
    assert f'href="{C}/query/next-change"' in page.text
    assert "What happens next to a character" in page.text
    assert "W-WND-08" in page.text
    assert f'href="{C}/queries"' in client.get(C).text  # in the navigation
    ru = client.get(f"{C}/queries?lang=ru").text
    assert "Запросы" in ru and "next-change" in ru


def test_a_player_sees_only_the_queries_of_their_role(login: Login) -> None:
    page = login("player").get(f"{C}/queries").text
    rs = get_ruleset("warhammer-larp")
    for spec in rs.queries.values():
        assert (f'/query/{spec.name}"' in page) == (Role.PLAYER in spec.roles), spec.name


def test_next_change_answers_with_the_countdown_in_both_languages(login: Login) -> None:
    client = login("master")
    page = client.get(f"{C}/query/next-change?character=1001")
    assert page.status_code == 200
    line = answer_line(page.text)
    assert "Rustam" in line and re.search(r"\d\d:\d\d", line), line
    assert '<option value="1001" selected>' in page.text  # the form, refilled
    assert 'data-stream="/api/campaigns/demo-larp/stream"' in page.text  # live
    assert "<table" in page.text  # the upcoming changes as a table
    ru = client.get(f"{C}/query/next-change?character=1001&lang=ru")
    assert ru.status_code == 200
    ru_line = answer_line(ru.text)
    assert "Rustam" in ru_line and ru_line != line
    assert "Ответ" in ru.text


def test_a_query_form_is_a_get_form_without_csrf(login: Login) -> None:
    page = login("master").get(f"{C}/query/next-change").text
    assert f'<form method="get" action="{C}/query/next-change"' in page
    assert 'name="csrf"' not in page.split("<main")[1]
    assert 'class="summary"' not in page  # a required field is missing: the form only


def test_a_player_asking_about_another_players_character_is_refused(login: Login) -> None:
    client = login("player")
    page = client.get(f"{C}/query/next-change?character=1001")
    assert page.status_code == 403
    line = error_line(page.text)
    assert "\n" not in line.strip() and line
    assert 'class="summary"' not in page.text
    ru = client.get(f"{C}/query/next-change?character=1001&lang=ru")
    assert ru.status_code == 403 and error_line(ru.text) != line
    own = client.get(f"{C}/query/next-change?character=1002")
    assert own.status_code == 200 and "Boris" in answer_line(own.text)


def test_a_bad_input_is_a_one_line_422(login: Login) -> None:
    page = login("master").get(f"{C}/query/next-change?ask=1&character=")
    assert page.status_code == 422
    assert error_line(page.text)


def test_an_unknown_or_forbidden_query_is_the_error_page(login: Login) -> None:
    assert login("master").get(f"{C}/query/no-such-query").status_code == 404
    rs = get_ruleset("warhammer-larp")
    masters_only = [s.name for s in rs.queries.values() if Role.PLAYER not in s.roles]
    if masters_only:
        assert login("player").get(f"{C}/query/{masters_only[0]}").status_code == 403


def test_answers_are_escaped(login: Login, db: Database) -> None:
    CampaignService(db).add_character(
        CAMPAIGN, Character(id="666", name="<script>x</script>", hits_max=3, hits=3)
    )
    page = login("master").get(f"{C}/query/next-change?character=666").text
    assert "<script>x" not in page


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_every_query_of_every_installed_ruleset_has_a_page(
    db: Database, login: Login, ruleset: str
) -> None:
    campaigns, accounts = CampaignService(db), AccountService(db)
    name = f"q-{ruleset}"
    campaigns.create_campaign(name, ruleset, seed=1)
    campaigns.add_character(name, Character(id="7", name="Vera", hits_max=3, hits=3))
    accounts.add_member(accounts.login("master", "master-demo").user, name, Role.MASTER)
    client = login("master")
    listing = client.get(f"/c/{name}/queries")
    assert listing.status_code == 200
    rs = get_ruleset(ruleset)
    for spec in rs.queries.values():
        if Role.MASTER not in spec.roles:
            continue
        assert f"/query/{spec.name}" in listing.text, spec.name
        required = [n for n, f in spec.input.model_fields.items() if f.is_required()]
        urls = [f"/c/{name}/query/{spec.name}?character=7"]
        if not required:
            urls.append(f"/c/{name}/query/{spec.name}")
        for url in urls:
            for language in ("en", "ru"):
                page = client.get(f"{url}{'&' if '?' in url else '?'}lang={language}")
                assert page.status_code == 200 or 400 <= page.status_code < 500, (url, page.text)
                assert len(page.content) < 100_000, url
                if page.status_code == 200 and not required:
                    assert answer_line(page.text), url
                elif page.status_code != 200:
                    assert error_line(page.text), url
