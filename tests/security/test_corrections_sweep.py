"""The sweep of issue 28: no correction tells a player or a healer more than their cards.

In the demo LARP campaign and in each other ruleset's showcase campaign
(``service/showcase.py``), the clock is moved on three hours (countdowns fire), every
action recorded is sent again as a late record a minute after its time, and then every
action record is undone, newest first: every correction those can make is made. Then,
for every player and healer and every character they may look at, the corrections
they are given (``play.corrections``, what the API and the card page show) are held
against their cards (``play.card``) in both languages:

* each correction is about characters they know;
* every word of it naming what the cards keep hidden (a disease, a sticker, a lab, an
  epidemic, an outbreak, a case, an incubation: ``core/visibility.HIDDEN_MATTERS``) is
  on one of their cards too;
* a master's record behind it is only "corrected by the master" (or, an undo, the
  record it undid), never the master's action or its time.

The master's own view of the same corrections must hold hidden words, or the sweep
proved nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import suppress
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from lazaretto.core.errors import LazarettoError
from lazaretto.core.ruleset import Role
from lazaretto.core.visibility import HIDDEN_MATTERS
from lazaretto.service.accounts import AccountService, User
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.play import PlayService
from lazaretto.service.showcase import TABLES, seed_tables
from lazaretto.store.db import Database

WORD = re.compile(r"[A-Za-zА-Яа-яЁё_][\wЁё-]+")


def _provoke(campaigns: CampaignService, name: str) -> None:
    """Every correction late records and undos can make in ``name``."""
    campaigns.advance_to(name, campaigns.clock(name).now() + timedelta(hours=3))
    acts = [r for r in campaigns.records(name) if r["kind"] == "act"]
    for r in acts:
        at = datetime.fromisoformat(str(r["at"]))
        with suppress(LazarettoError):  # the history may no longer allow it there
            campaigns.act(name, r["action"], r["input"], at=at + timedelta(minutes=1))
    for r in reversed(campaigns.records(name)):
        if r["kind"] != "act" or r["status"] == "undone":
            continue
        with suppress(LazarettoError):
            campaigns.void(name, r["record"])


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PlayService, list[Any]]]:
    db = Database(f"sqlite:///{Path(tmp_path_factory.mktemp('sweep')) / 'sweep.db'}")
    campaigns, accounts = CampaignService(db), AccountService(db)
    seed(campaigns, accounts)
    master = accounts.login("master", "master-demo").user
    seed_tables(campaigns, accounts, master)
    viewers: list[tuple[User, str]] = [
        (accounts.login("player", "player-demo").user, CAMPAIGN),
        (accounts.login("healer", "healer-demo").user, CAMPAIGN),
    ]
    for name, people, _ in TABLES.values():
        player = accounts.create_user(f"p-{name}", "sweep-password-1")
        healer = accounts.create_user(f"h-{name}", "sweep-password-1")
        accounts.add_member(player, name, Role.PLAYER, (people[0][0],))
        accounts.add_member(healer, name, Role.HEALER, ())
        viewers += [(player, name), (healer, name)]
    for name in [CAMPAIGN, *(t[0] for t in TABLES.values())]:
        _provoke(campaigns, name)
    play = PlayService(campaigns, accounts)
    yield play, [(master, n) for n in [CAMPAIGN, *(t[0] for t in TABLES.values())]] + viewers
    db.close()


def _hidden_words(value: Any) -> set[str]:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return {w for w in WORD.findall(text) if any(h in w.lower() for h in HIDDEN_MATTERS)}


def test_no_correction_says_more_to_a_player_or_healer_than_their_cards(
    swept: tuple[PlayService, list[Any]],
) -> None:
    play, pairs = swept
    told_total = 0
    master_hidden: set[str] = set()
    failures: list[str] = []
    for user, campaign in pairs:
        m = play.member(user, campaign)
        _, state, _ = play.campaigns.load(campaign)
        if m.role is Role.MASTER:
            master_hidden |= _hidden_words(play.corrections(user, campaign))
            continue
        looked = [c["id"] for c in play.cards(user, campaign, "en")]
        cards = {lang: play.cards(user, campaign, lang) for lang in ("en", "ru")}
        on_cards = _hidden_words(cards)
        for character in looked:
            for c in play.corrections(user, campaign, about=character):
                told_total += 1
                where = f"{user.username} in {campaign} about {character}: {c}"[:400]
                unknown = [s for s in c["subjects"] if s in state.characters and s not in looked]
                if unknown:
                    failures.append(f"names {unknown}: {where}")
                extra = _hidden_words(c) - on_cards
                if extra:
                    failures.append(f"tells {sorted(extra)}: {where}")
                cause = c["cause"]
                if "actor" in cause or "user" in cause:
                    failures.append(f"names the record's maker's account: {where}")
                if cause.get("by") == "master" and not cause.get("hidden") and (
                    cause.get("kind") != "void" or "action" in cause
                ):
                    failures.append(f"tells the master's record: {where}")
    assert not failures, "\n".join(failures[:20])
    assert told_total > 0, "the sweep made no correction a player or healer may see"
    assert master_hidden, "the sweep made no correction of a hidden matter to hold back"
