"""Traumas (травмы): checklist-001 Z-TRAUMA; A-Z-15, A-Z-34."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import InvalidInput, NotFound, RuleViolation
from lazaretto.core.ruleset import Role
from tests.game import Game
from tests.unit.zone_larp.conftest import ask, card, event, params, state_of, zone_game


def traumas(g: Game, cid: str) -> list[dict[str, object]]:
    return [c.data for c in g.ch(cid).conditions if c.kind == "trauma"]


def give(g: Game, cid: str, n: int, at: str = "10:00") -> None:
    for _ in range(n):
        g.act("inflict-trauma", at=at, character=cid, type="physical", source="monster")


def test_a_character_has_at_most_five_traumas(g: Game) -> None:
    give(g, "C", 5)
    assert params(g).max_traumas == 5
    assert [t["slot"] for t in traumas(g, "C")] == [1, 2, 3, 4, 5]  # Z-TRAUMA-01
    with pytest.raises(RuleViolation) as err:
        give(g, "C", 1)
    assert "Z-TRAUMA-01" in err.value.rule_ids and "A-Z-15" in err.value.rule_ids
    assert "master" in (err.value.tip or "")  # A-Z-15: a master decides a 6th
    with pytest.raises(RuleViolation):
        g.act("strike", at="10:01", character="C", source="monster", trauma="mental")
    assert g.ch("C").hits == 2  # refused before any hit was recorded
    assert card(g, "C")["trauma_fields_left"] == 0


def test_a_sixth_trauma_killing_is_a_parameter() -> None:
    g = zone_game({"trauma_over_cap": "clinical_death"})  # A-Z-15 alternative
    give(g, "C", 5)
    give(g, "C", 1)
    assert state_of(g, "C") == "clinical_death" and len(traumas(g, "C")) == 5


def test_an_untreated_trauma_lasts(g: Game) -> None:
    give(g, "C", 1)
    g.advance("23:00")
    g.act("strike", at="23:00", character="C")
    g.act("treat-wounds", at="23:01", healer="H", patient="C")
    g.advance("23:30")
    assert len(traumas(g, "C")) == 1  # Z-TRAUMA-02: only its own treatment removes it


def test_treating_an_identified_trauma_removes_it(g: Game) -> None:
    give(g, "C", 2)
    g.act(
        "identify-trauma",
        at="10:05",
        healer="H",
        patient="C",
        slot=2,
        type="mental",
        consequences="fear of the dark",
    )
    g.act("treat-trauma", at="10:10", healer="H", patient="C", slot=2, minutes=20)
    g.advance("10:29")
    assert len(traumas(g, "C")) == 2
    evs = g.advance("10:30")
    assert "Z-TRAUMA-02" in event(evs, "trauma.healed").rule_ids
    assert [t["slot"] for t in traumas(g, "C")] == [1]  # Z-TRAUMA-02: healed


def test_traumas_come_from_magical_weapons_and_monsters(g: Game) -> None:
    for source in ("magic_weapon", "monster"):
        evs = g.act("inflict-trauma", character="C", type="physical", source=source)
        assert "Z-TRAUMA-03" in event(evs, "trauma.received").rule_ids  # Z-TRAUMA-03
    with pytest.raises(RuleViolation) as err:
        g.act("inflict-trauma", character="C", type="physical", source="master", role=Role.PLAYER)
    assert err.value.rule_ids == ("Z-TRAUMA-03",)
    with pytest.raises(RuleViolation) as ordinary:
        g.act("strike", character="D", source="melee", trauma="physical")
    assert ordinary.value.rule_ids == ("Z-TRAUMA-03",)


def test_a_magic_weapon_removes_hits_and_gives_a_trauma(g: Game) -> None:
    evs = g.act("strike", at="12:00", character="C", source="magic_weapon", trauma="mental")
    assert g.ch("C").hits == 1  # A-Z-34: hits as usual
    assert "A-Z-34" in event(evs, "trauma.received").rule_ids
    assert traumas(g, "C")[0]["type"] == "mental"


def test_a_trauma_strike_without_hit_loss_is_a_parameter() -> None:
    g = zone_game({"trauma_strike_removes_hits": False})  # A-Z-34 alternative
    g.act("strike", at="12:00", character="C", source="monster", trauma="physical")
    assert g.ch("C").hits == 2 and len(traumas(g, "C")) == 1


def test_each_trauma_peels_off_a_card_field(g: Game) -> None:
    evs = g.act("inflict-trauma", character="C", type="physical", source="monster")
    assert "Z-TRAUMA-04" in event(evs, "trauma.received").rule_ids
    assert traumas(g, "C")[0]["slot"] == 1  # Z-TRAUMA-04: the field is marked used
    assert card(g, "C")["trauma_fields_left"] == 4
    rules = [i.rule for i in params(g).props_checklists["inflict-trauma"]]
    assert rules == ["Z-TRAUMA-04"]


def test_a_trauma_is_physical_or_mental(g: Game) -> None:
    g.act("inflict-trauma", character="C", type="mental", source="monster")
    assert traumas(g, "C")[0]["type"] == "mental"  # Z-TRAUMA-05
    with pytest.raises(InvalidInput):
        g.act("inflict-trauma", character="C", type="spiritual", source="monster")


def test_a_healer_identifies_a_trauma_by_type_and_consequences(g: Game) -> None:
    give(g, "C", 1)
    with pytest.raises(RuleViolation) as err:
        g.act("treat-trauma", at="10:01", healer="H", patient="C", slot=1, minutes=10)
    assert err.value.rule_ids == ("Z-TRAUMA-06",)  # identify first
    with pytest.raises(RuleViolation):
        g.act(
            "identify-trauma", healer="D", patient="C", slot=1, type="physical", consequences="limp"
        )  # not a healer
    g.act("identify-trauma", healer="H", patient="C", slot=1, type="physical", consequences="limps")
    data = traumas(g, "C")[0]
    assert data["identified"] and data["consequences"] == "limps"  # Z-TRAUMA-06
    with pytest.raises(NotFound):
        g.act("identify-trauma", healer="H", patient="C", slot=3, type="physical", consequences="x")


def test_a_trauma_that_cannot_be_healed_stays(g: Game) -> None:
    give(g, "C", 1)
    g.act(
        "identify-trauma",
        at="10:01",
        healer="H",
        patient="C",
        slot=1,
        type="physical",
        consequences="lost eye",
        curable=False,
    )
    g.act("treat-trauma", at="10:02", healer="H", patient="C", slot=1, minutes=30)
    evs = g.advance("10:32")
    assert "Z-TRAUMA-07" in event(evs, "trauma.treatment_failed").rule_ids
    assert len(traumas(g, "C")) == 1  # Z-TRAUMA-07: stays for good


def test_the_radical_measure_is_not_offered_at_five_traumas(g: Game) -> None:
    give(g, "C", 5)
    g.act("strike", at="15:00", character="C", weapon="red_ribbon")
    assert ask(g, "operation-options", patient="C")["offered"] == ["ordinary"]  # A-Z-15
    with pytest.raises(RuleViolation) as err:
        g.act("start-operation", at="15:01", healer="H", patient="C", measure="radical")
    assert "A-Z-15" in err.value.rule_ids
    g.act("start-operation", at="15:01", healer="H", patient="C", measure="ordinary")


def test_traumas_are_on_the_owners_card(g: Game) -> None:
    give(g, "C", 1)
    cond = next(c for c in card(g, "C")["conditions"] if c["kind"] == "trauma")
    assert cond["visibility"] == "owner" and cond["label"] == "trauma"
    assert g.replayed() == g.state
