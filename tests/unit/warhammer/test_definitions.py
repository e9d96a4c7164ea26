"""Basic concepts of checklist-000 §1 not covered elsewhere: diseases and poisons as
conditions, treatises, eugenics."""

from __future__ import annotations

import pytest

from lazaretto.core.character import Visibility
from lazaretto.core.errors import RuleViolation
from tests.game import Game, t


def test_a_disease_is_a_hidden_penalty_with_symptoms_to_roleplay(g: Game) -> None:
    g.act(
        "define-disease",
        code="X1",
        name="Grey fever",
        symptoms="cough loudly",
        penalties="cannot run",
        contagious=True,
    )
    g.act("infect", at="12:00", character="C", disease="X1")
    cond = g.ch("C").condition("disease")
    # W-DEF-09: a disease restricts the character; its penalties are the owner's only
    assert cond is not None and cond.data["code"] == "X1"
    assert cond.visibility is Visibility.OWNER
    assert g.state.diseases["X1"]["symptoms"] == "cough loudly"
    assert g.state.diseases["X1"]["contagious"] is True  # W-DEF-10: can be passed on


def test_a_poisoning_is_handled_like_a_disease(g: Game) -> None:
    g.act(
        "define-disease",
        code="P1",
        name="Nightshade",
        kind="poison",
        lethal=True,
        minutes_to_death=30,
    )
    g.act("infect", at="12:00", character="C", disease="P1")
    assert g.ch("C").condition("disease").data["code"] == "P1"  # W-DEF-13
    g.advance("12:30")
    assert not g.ch("C").alive


def test_curing_restores_hits_and_lifts_wound_restrictions(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=3)
    g.act("cure-by-other-means", at="12:01", patient="C", means="spell")
    c = g.ch("C")
    # W-DEF-14 treatment restores hits and abilities; W-DEF-15 cure: original hits back
    assert c.hits == c.hits_max == 3 and not c.has("heavy_wound")
    assert "fight" in g.rs.describe(g.state, "C", "en")["allowed"]  # type: ignore[misc]


def test_a_treatise_must_be_at_least_a_notebook_page(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("write-treatise", author="H", topic="Grey fever", question="Grey fever", pages=0.5)
    assert err.value.rule_ids == ("W-DEF-20",)  # W-DEF-20
    evs = g.act("write-treatise", author="H", topic="Grey fever", question="Grey fever", pages=2)
    assert evs[-1].kind == "treatise.written"  # W-DEF-19


def test_eugenics_is_recorded_without_a_built_in_effect(g: Game) -> None:
    before = g.ch("C").model_copy(deep=True)
    evs = g.act("record-eugenics", at="12:00", patient="C", change="a troll's arm", donor="H2")
    assert evs[-1].kind == "eugenics.recorded"  # W-DEF-17 (A-W-33: an extension hook)
    assert g.ch("C") == before


def test_lethal_disease_kills_on_its_timer_from_infection(g: Game) -> None:
    g.act("define-disease", code="L", name="Red plague", lethal=True, minutes_to_death=60)
    g.act("infect", at="10:00", character="C", disease="L")
    assert g.ch("C").condition("disease").deadline == t("11:00")
    g.advance("11:00")
    assert not g.ch("C").alive


def test_only_a_carrier_spreads_diseases_by_touch(g: Game) -> None:
    g.add("K", skills=("Carrier",))
    g.act("define-disease", code="X1", name="Grey fever")
    with pytest.raises(RuleViolation) as err:
        g.act("carrier-touch", carrier="H", victim="C", disease="X1")
    assert err.value.rule_ids == ("W-DEF-12",)  # W-DEF-12: spreading needs the skill
    g.act("hand-stickers", to="K", disease="X1")  # part 2: the sticker comes from K's hand
    g.act("carrier-touch", carrier="K", victim="C", disease="X1")
    assert g.ch("C").condition("disease").source == "carrier:K"


def test_outbreak_and_epidemic_certificates_are_mass_infection_markers(g: Game) -> None:
    g.add("K", skills=("Carrier",))
    g.act("define-disease", code="X1", name="Grey fever")
    g.act("issue-certificate", kind="outbreak", disease="X1", holder="K")
    g.act("issue-certificate", kind="epidemic", disease="X1", holder="K")
    kinds = sorted(c["kind"] for c in g.state.certificates.values())
    assert kinds == ["epidemic", "outbreak"]  # W-DEF-11: markers held by a carrier
    assert all(c["holder"] == "K" and not c["used"] for c in g.state.certificates.values())
