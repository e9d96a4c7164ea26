"""A codebase test of the generated forms: every form of every ruleset, submitted as a
browser would without touching it, sends exactly what the API gets when those fields
are omitted — nothing the user did not choose is recorded (issue #16: an optional select
without an empty choice used to send its first option, so every ide4 d100 check made
from the web recorded "Triumph").

The forms are read from the real pages' HTML and serialised the way a browser does
(a select sends its selected option, else its first one; an unchecked box sends only
its hidden twin), then parsed by the same code the POST path uses."""

from __future__ import annotations

import pytest
from starlette.datastructures import FormData
from tests.e2e.webtools import BrowserForm, Login, submitted

from lazaretto.core.character import Character
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import Role
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
from lazaretto.web import forms, prefill
from lazaretto.web.errtext import for_web


def _campaign(db: Database, ruleset: str) -> str:
    campaigns, accounts = CampaignService(db), AccountService(db)
    name = f"forms-{ruleset}"
    campaigns.create_campaign(name, ruleset, seed=1)
    for cid, who in (("7", "Vera"), ("8", "Oleg")):
        campaigns.add_character(name, Character(id=cid, name=who, hits_max=3, hits=3))
    accounts.add_member(accounts.login("master", "master-demo").user, name, Role.MASTER)
    return name


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_every_form_submitted_untouched_sends_what_omitting_its_fields_sends(
    db: Database, login: Login, ruleset: str
) -> None:
    name = _campaign(db, ruleset)
    client = login("master")
    rs = get_ruleset(ruleset)
    checked = 0
    for action, spec in rs.actions.items():
        page = client.get(f"/c/{name}/act/{action}")
        assert page.status_code == 200, action
        raw = forms.parse(spec.input, FormData(submitted(page.text)))
        assert raw == {}, f"{ruleset} {action}: an untouched form sends {raw}"
        checked += 1
    assert checked == len(rs.actions)


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_a_form_opened_from_a_card_sends_only_the_character_and_its_suggestions(
    db: Database, login: Login, ruleset: str
) -> None:
    name = _campaign(db, ruleset)
    client = login("master")
    rs = get_ruleset(ruleset)
    for action, spec in rs.actions.items():
        subject = forms.subject_field(spec.input)
        if subject is None:
            continue
        page = client.get(f"/c/{name}/act/{action}?character=7")
        raw = forms.parse(spec.input, FormData(submitted(page.text)))
        assert raw.get(subject) == "7", action
        _, state, _ = CampaignService(db).load(name)
        from lazaretto.service.accounts import Membership

        guessed = prefill.defaults(
            spec.input,
            Membership(name, Role.MASTER, ()),
            {"character": "7"},
            prefill.directory(state),
            None,
        )
        assert set(raw) <= set(guessed), f"{action}: sends {set(raw) - set(guessed)} unasked"


def test_a_characters_field_is_a_select_of_names_with_an_empty_first_choice(
    db: Database, login: Login
) -> None:
    name = _campaign(db, "dnd5e-injuries")
    page = login("master").get(f"/c/{name}/act/roll-injury").text
    assert '<select name="character" required><option value="">— choose —</option>' in page
    assert '<option value="7">Vera · 7</option>' in page
    parser = BrowserForm()
    parser.feed(page)
    assert "trigger" in parser.selects and parser.required["character"]


def test_a_refusal_on_the_web_names_fields_not_cli_options() -> None:
    rs = get_ruleset("warhammer-larp")
    text = for_web("No interval (W-EPI-03). Give --interval-minutes and --wave-stickers.", rs, "en")
    assert "--" not in text and "«Interval minutes»" in text
    ru = for_web("Укажите --interval-minutes.", rs, "ru")
    assert "--" not in ru
    cmd = for_web("Start one with `apply-bandage --place field`.", rs, "en")
    assert "`" not in cmd and "--" not in cmd
