"""The fantasy-server ruleset from the ``lazaretto`` command: each thing a GM does at the
table is one command whose output explains the outcome with the rule IDs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.e2e.clitools import Run, ok


@pytest.fixture
def srv(run: Run) -> Run:
    """A fantasy-server campaign with Rurik (c1, a smith) and Vesna (c2)."""
    ok(run("campaign", "create", "srv", "--ruleset", "fantasy-server",
           "--start", "2026-06-13T09:00", "--seed", "3"))  # fmt: skip
    ok(run("character", "add", "c1", "--name", "Rurik", "--hits", "30"))
    ok(run("character", "add", "c2", "--name", "Vesna", "--hits", "30"))
    ok(run("act", "set-sheet", "--character", "c1", "--stats", "STR=9", "--stats", "REF=12",
           "--stats", "MAG=14", "--skills", "Smith"))  # fmt: skip
    ok(run("act", "set-sheet", "--character", "c2", "--stats", "PER=8", "--stats", "WIL=5"))
    return run


def test_a_gm_equips_an_artifact_and_sees_the_resulting_stat(srv: Run) -> None:
    ok(srv("act", "register-item", "--item", "ring", "--name", "Ring of might",
           "--kind", "accessory", "--owner", "c1", "--stat-bonus", "STR=2"))  # fmt: skip
    out = ok(srv("act", "equip-item", "--character", "c1", "--item", "ring"))
    assert "Rurik equips Ring of might (combat): [combat] STR 9 → 10" in out  # S-STAT-10
    assert "reserve 1" in out and "S-STAT-08" in out


def test_a_gm_runs_a_theft(srv: Run) -> None:
    out = ok(srv("act", "attempt-theft", "--actor", "c1", "--victim", "c2",
                 "--thief-roll", "10", "--victim-roll", "15"))  # fmt: skip
    assert "theft by Rurik from Vesna: 22 [10+12] vs 26 [15+11] (+3)" in out  # S-CRIME-02
    assert "caught red-handed" in out and "S-CRIME-05" in out


def test_a_gm_picks_a_lock(srv: Run) -> None:
    out = ok(srv("act", "pick-lock", "--actor", "c1", "--roll", "12"))
    assert "Rurik rolls REF (lockpick): 24 [12+12] vs 24 -> success  [S-CRIME-27]" in out
    assert "opened: yes" in out  # a flag reads as a word, not a Python repr


def test_a_gm_resolves_a_fall(srv: Run) -> None:
    out = ok(srv("act", "resolve-fall", "--character", "c2", "--movement-actions", "4",
                 "--rolls", "10", "--rolls", "9", "--rolls", "8", "--rolls", "7"))  # fmt: skip
    assert "Vesna falls 4 movement actions (2 turns): 34 pure damage (armour ignored)" in out
    assert "S-FALL-01" in out and "S-FALL-02" in out  # E-S-07


def test_a_gm_logs_weapon_criticals_and_sees_it_break_then_prices_the_repair(srv: Run) -> None:
    ok(srv("act", "register-item", "--item", "sword", "--name", "Sword", "--kind", "weapon",
           "--owner", "c1", "--resources", "name=ingot,amount=5",
           "--resources", "name=leather,amount=3"))  # fmt: skip
    ok(srv("act", "equip-item", "--character", "c1", "--item", "sword"))  # A-S-11: in use
    ok(srv("act", "start-combat", "--encounter", "e1", "--participants", "c1",
           "--participants", "c2"))  # fmt: skip
    ok(srv("act", "log-item-critical", "--item", "sword"))
    ok(srv("act", "log-item-critical", "--item", "sword"))
    out = ok(srv("act", "log-item-critical", "--item", "sword"))
    assert "Sword BREAKS after 3 x critical failure on an attack" in out  # S-BRK-01
    assert "penalty -2  [S-BRK-01, A-S-11]" in out
    bill = ok(srv("query", "repair-bill", "--item", "sword"))
    assert bill.startswith("Repairing Sword costs 3 ingot, 2 leather")  # S-REP-03, E-S-06
    assert "S-REP-03" in bill
    data = json.loads(ok(srv("query", "repair-bill", "--item", "sword", "--json")))
    assert [line["repair"] for line in data["bill"]] == [3, 2]


def test_a_gm_runs_a_torture_round(srv: Run) -> None:
    out = ok(srv("act", "torture-round", "--actor", "c1", "--victim", "c2",
                 "--method", "physical", "--actor-roll", "11", "--victim-roll", "10"))  # fmt: skip
    assert "torture round 1 (physical): Rurik 20 [11+9] vs Vesna 15 [10+5]" in out  # E-S-10
    assert "question allowed: yes" in out and "S-TORT-02" in out


def test_a_gm_heals_magically_and_sees_whether_a_mutation_happens(srv: Run) -> None:
    ok(srv("act", "lose-hp", "--character", "c2", "--amount", "20"))
    out = ok(srv("act", "heal-magically", "--patient", "c2", "--healer", "c1", "--amount", "20"))
    assert "Vesna healed by Rurik (spell): 20 HP, HP now 30; mutation: -" in out  # S-MUT-01
    for _ in range(2):
        ok(srv("act", "lose-hp", "--character", "c2", "--amount", "12"))
        out = ok(srv("act", "heal-magically", "--patient", "c2", "--healer", "c1",
                     "--amount", "12", "--healer-roll", "10", "--patient-roll", "5",
                     "--mutation-roll", "2"))  # fmt: skip
    assert "MAGICAL MUTATION for Vesna: d6=2" in out  # S-MUT-03, S-MUTT-02
    assert "6 HP, HP now 24; mutation: half" in out
    risk = ok(srv("query", "mutation-risk", "--patient", "c2"))
    assert "the next one is resisted WIL vs MAG" in risk


def test_the_log_reads_in_russian(srv: Run) -> None:
    out = ok(srv("act", "pick-lock", "--actor", "c1", "--roll", "12", lang="ru"))
    assert "Rurik: бросок REF (взлом): 24 [12+12] против 24 -> успех" in out


def test_a_refusal_is_one_line_with_its_rule(srv: Run) -> None:
    result = srv("act", "pick-lock", "--actor", "c1", "--method", "explosives")
    assert result.exit_code == 3  # RuleViolation
    assert "S-CRIME-25" in result.stderr and "Traceback" not in result.output


def test_the_card_shows_stats_and_equipment(srv: Run) -> None:
    card: dict[str, Any] = json.loads(ok(srv("character", "show", "c1", "--json")))
    assert card["stats"]["STR"]["base"] == 9 and card["state"] == "healthy"
