"""Item breakage and repair (checklist-002 §2.6–§2.7; E-S-06, E-S-09)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.fantasy_server.breakage import repair_bill
from lazaretto.rulesets.fantasy_server.state import Item, Resource
from tests.unit.fantasy_server.conftest import FGame


def setup(g: FGame, equip: bool = True) -> FGame:
    g.pc("A", REF=5, MAG=5, skills=("Smith",))
    g.pc("B")
    g.pc("T", skills=("Tailor",))
    g.act("register-item", item="sword", name="Sword", kind="weapon", owner="A",
          magical=["frost"], param_bonus=["damage=1"])  # fmt: skip
    g.act("register-item", item="shield", name="Shield", kind="shield", owner="A",
          defense_bonus=3, magical=["ward"])  # fmt: skip
    g.act("register-item", item="mail", name="Mail", kind="armor", owner="A", armor_value=4)
    g.act("register-item", item="amulet", name="Amulet", kind="accessory", owner="A",
          activation="active", mechanic="blink", magical=["blink"])  # fmt: skip
    g.act("register-item", item="pick", name="Pick", kind="tool", owner="A",
          slot_roles="rp", resources=[{"name": "ingot", "amount": 3}])  # fmt: skip
    for item in ("sword", "shield", "mail", "amulet") if equip else ():
        g.act("equip-item", character="A", item=item, slots="combat")  # A-S-11: in use
    return g


def state_of(g: FGame, item: str) -> str:
    return g.state.items[item].status


def crits(g: FGame, item: str, n: int, encounter: str | None = None) -> None:
    for _ in range(n):
        g.act("log-item-critical", item=item, encounter=encounter)


def status(g: FGame, item: str) -> dict[str, Any]:
    return run_query(g.rs, g.state, "item-status", {"item": item})


@pytest.fixture
def fight(g: FGame) -> FGame:
    setup(g)
    g.act("start-combat", encounter="e1", participants=["A", "B"])
    return g


def test_e_s_09_three_critical_failures_break_a_weapon_and_the_penalty_grows(
    fight: FGame,
) -> None:
    g = fight
    crits(g, "sword", 2)
    assert g.state.items["sword"].status == "intact"
    crits(g, "sword", 1)
    s = status(g, "sword")
    assert s["status"] == "broken" and s["damage_penalty"] == -2  # S-BRK-01
    assert s["properties_work"] is False  # S-BRK-01: artifact properties lost
    assert "S-BRK-01" in g.rules("item.broke")
    crits(g, "sword", 1)
    assert status(g, "sword")["damage_penalty"] == -4  # S-BRK-02: the penalty accumulates


def test_e_s_09_criticals_count_within_one_encounter(g: FGame) -> None:
    setup(g)
    crits(g, "sword", 2, encounter="A")
    crits(g, "sword", 1, encounter="B")
    assert g.state.items["sword"].status == "intact"  # A-S-11: a new encounter restarts
    with pytest.raises(RuleViolation) as err:
        g.act("log-item-critical", item="sword")  # no fight going on
    assert err.value.rule_ids == ("S-BRK-01", "A-S-11")


def test_the_lifetime_counter_reading_is_a_campaign_parameter() -> None:
    g = setup(FGame(params={"break_counter_scope": "lifetime"}))  # A-S-11 alternative
    crits(g, "sword", 2, encounter="A")
    crits(g, "sword", 1, encounter="B")
    assert g.state.items["sword"].status == "broken"  # S-BRK-01


def test_e_s_09_a_broken_shield_loses_2_parry_and_block_but_never_goes_below_0(
    fight: FGame,
) -> None:
    g = fight
    crits(g, "shield", 2)
    assert status(g, "shield")["status"] == "intact"  # S-BRK-03: three, not two
    assert status(g, "shield")["properties_work"] is True
    crits(g, "shield", 1)
    s = status(g, "shield")
    assert s["status"] == "broken" and s["defense_bonus"] == 1  # S-BRK-03: +3 → +1
    assert s["properties_work"] is False  # S-BRK-03: a broken shield loses its properties
    assert "S-BRK-03" in g.rules("item.broke")
    crits(g, "shield", 1)
    assert status(g, "shield")["defense_bonus"] == 0  # S-BRK-04: -4 clamped at 0
    crits(g, "shield", 1)
    assert status(g, "shield")["defense_bonus"] == 0  # S-BRK-04: stays at zero
    assert "S-BRK-04" in g.rules("item.critical_logged")


def test_e_s_09_three_critical_hits_taken_break_armour(fight: FGame) -> None:
    g = fight
    crits(g, "mail", 3)
    s = status(g, "mail")
    assert s["status"] == "broken" and s["armor_value"] == 3  # S-BRK-05: -1 armour
    crits(g, "mail", 1)
    assert status(g, "mail")["armor_value"] == 2  # S-BRK-06


def test_e_s_09_a_combat_artifact_is_partly_broken_by_two_crits_and_then_destroyed(
    fight: FGame,
) -> None:
    g = fight
    crits(g, "amulet", 2)
    assert state_of(g, "amulet") == "partially_broken"  # S-BRK-07
    crits(g, "amulet", 1)
    assert state_of(g, "amulet") == "destroyed"  # S-BRK-08
    with pytest.raises(RuleViolation) as err:
        g.act("repair-item", actor="A", item="amulet")
    assert err.value.rule_ids == ("S-BRK-08", "A-S-12")  # beyond restoration


def test_a_critical_failure_using_an_active_artifact_wears_it() -> None:
    g = setup(FGame(), equip=False)
    g.act("equip-item", character="A", item="amulet")
    g.act("start-combat", encounter="e1", participants=["A", "B"])
    g.act("use-artifact", character="A", item="amulet", stat="MAG", threshold=10, roll=1)
    g.act("use-artifact", character="A", item="amulet", stat="MAG", threshold=10, roll=1)
    assert state_of(g, "amulet") == "partially_broken"  # S-BRK-07


def test_e_s_09_one_critical_failure_partly_breaks_a_tool_and_repair_resets_it(g: FGame) -> None:
    setup(g)
    crits(g, "pick", 1)  # S-BRK-09: any role-play event, e.g. mining; no fight needed
    assert state_of(g, "pick") == "partially_broken"
    g.act("repair-item", actor="A", item="pick")
    pick = g.state.items["pick"]
    assert pick.status == "intact" and pick.crits == 0  # A-S-12
    crits(g, "pick", 1)
    crits(g, "pick", 1)
    assert state_of(g, "pick") == "destroyed"  # S-BRK-10
    assert "S-BRK-10" in g.rules("item.destroyed")


def test_a_lockpick_kit_wears_on_a_critical_failure(g: FGame) -> None:
    setup(g)
    g.act("register-item", item="kit", name="Lockpicks", kind="tool", owner="A", slot_roles="rp")
    g.act("pick-lock", actor="A", method="lockpicks", tool="kit", roll=1)
    assert g.state.items["kit"].status == "partially_broken"  # S-BRK-09


def test_event_items_never_break(fight: FGame) -> None:
    g = fight
    g.act("register-item", item="relic", name="Relic", kind="weapon", owner="A", event_item=True)
    crits(g, "relic", 5)
    assert g.state.items["relic"].status == "intact"  # S-BRK-11
    assert g.rules("item.critical_logged") == ("S-BRK-11",)


def test_repair_restores_the_item_and_needs_the_right_craft(fight: FGame) -> None:
    g = fight
    crits(g, "sword", 3)
    with pytest.raises(RuleViolation) as err:
        g.act("repair-item", actor="T", item="sword")
    assert err.value.rule_ids == ("S-REP-01",)  # S-REP-01: a tailor is no smith
    g.act("repair-item", actor="A", item="sword")
    s = status(g, "sword")
    assert s["status"] == "intact" and s["damage_penalty"] == 0  # A-S-12
    assert s["properties_work"] is True  # A-S-12: artifact properties restored
    with pytest.raises(RuleViolation):
        g.act("repair-item", actor="A", item="sword")  # nothing to repair


def test_an_item_names_its_own_repair_craft(g: FGame) -> None:
    g.pc("S", skills=("Smith",))
    g.pc("G", skills=("Gunsmith",))
    g.pc("E", skills=("Engineer",))
    g.act("register-item", item="rifle", name="Rifle", kind="weapon", repair_skill="Gunsmith")
    g.act("register-item", item="saw", name="Tree saw", kind="tool", repair_skill="Engineer")
    g.act("log-item-critical", item="saw")
    with pytest.raises(RuleViolation):
        g.act("repair-item", actor="S", item="saw")  # S-REP-01: the engineer's invention
    g.act("repair-item", actor="E", item="saw")
    bill = run_query(g.rs, g.state, "repair-bill", {"item": "rifle"})
    assert bill["skills"] == ["Gunsmith"]  # S-REP-01: a gunsmith overhauls a rifle


def test_e_s_06_repair_costs_half_of_each_non_unique_resource_rounded_up() -> None:
    p = FGame().p

    def bill(*resources: Resource) -> list[int]:
        it = Item(id="x", name="x", kind="shield", resources=list(resources))
        return [line["repair"] for line in repair_bill(it, p)]

    # S-REP-03: the source's examples
    assert bill(Resource(name="ingot", amount=4), Resource(name="leather", amount=1)) == [2, 1]
    assert bill(Resource(name="ingot", amount=5), Resource(name="leather", amount=3)) == [3, 2]
    # S-REP-02: unique resources are not needed
    assert bill(
        Resource(name="plank", amount=7),
        Resource(name="rope", amount=1),
        Resource(name="elsim steel", amount=1, unique=True),
    ) == [4, 1, 0]
    assert bill(Resource(name="nail", amount=0)) == [0]


def test_the_repair_bill_query_and_a_skill_made_material(g: FGame) -> None:
    g.act("register-item", item="gs", name="Great shield", kind="shield",
          resources=[{"name": "ingot", "amount": 4}, {"name": "leather", "amount": 1},
                     {"name": "star ingot", "amount": 3, "material": "star ore"}])  # fmt: skip
    answer = run_query(g.rs, g.state, "repair-bill", {"item": "gs"})
    assert answer["summary"].startswith("Repairing Great shield costs 2 ingot, 1 leather")
    # S-REP-04: a skill-made ingot may be replaced by its material
    assert answer["bill"][2] == {"resource": "star ingot", "crafted_with": 3, "repair": 2,
                                 "unique": False, "or_material": "star ore"}  # fmt: skip
    g.act("register-item", item="ev", name="Banner", kind="other", event_item=True)
    note = run_query(g.rs, g.state, "repair-bill", {"item": "ev"})["summary"]
    assert "never breaks" in note  # S-BRK-11


def test_a_repair_check_is_a_campaign_parameter() -> None:
    g = setup(FGame(params={"repair_requires_check": True}))  # A-S-12 alternative
    g.act("log-item-critical", item="pick")
    g.act("set-sheet", character="A", stats=["INT=5"])
    g.act("repair-item", actor="A", item="pick", roll=3)
    assert state_of(g, "pick") == "partially_broken"  # failed: INT 8 < 18
    g.act("repair-item", actor="A", item="pick", roll=15)
    assert state_of(g, "pick") == "intact"


def attack(g: FGame, roll: int, purpose: str = "attack", **kw: Any) -> None:
    g.act("roll-check", character="A", stat="REF", threshold=10, purpose=purpose, roll=roll, **kw)


def test_a_critical_failure_rolled_on_an_attack_wears_the_equipped_weapon(fight: FGame) -> None:
    g = fight
    attack(g, 1)
    attack(g, 1)
    assert g.state.items["sword"].crits == 2  # S-BRK-01: counted by roll-check itself
    attack(g, 5)
    attack(g, 1, purpose="check")  # not an attack: the sword does not wear
    assert g.state.items["sword"].crits == 2
    attack(g, 1)
    s = status(g, "sword")
    assert s["status"] == "broken" and s["damage_penalty"] == -2  # S-BRK-01: third on attacks
    attack(g, 1, purpose="defence")
    assert status(g, "shield")["crits"] == 1  # S-BRK-03: a defence roll wears the shield


def test_an_attack_names_its_weapon_when_several_are_equipped() -> None:
    slots = {"accessory": 3, "armor_clothing": 1, "weapon": 2, "shield": 1}
    g = setup(FGame(params={"combat_slots": slots}))  # a server with two weapon slots
    for dagger in ("d1", "d2"):
        g.act("register-item", item=dagger, name=dagger, kind="weapon", owner="B")
        g.act("equip-item", character="B", item=dagger, slots="combat")
    g.act("start-combat", encounter="e1", participants=["A", "B"])
    roll = {"character": "B", "stat": "REF", "threshold": 10, "purpose": "attack", "roll": 1}
    with pytest.raises(RuleViolation) as err:
        g.act("roll-check", **roll)
    assert err.value.rule_ids == ("S-BRK-01", "A-S-11")  # which weapon wears is not a guess
    g.act("roll-check", **roll, item="d2")
    assert g.state.items["d2"].crits == 1 and g.state.items["d1"].crits == 0  # S-BRK-01
    with pytest.raises(RuleViolation):
        attack(g, 1, item="shield")  # S-BRK-01: a shield is not the weapon of an attack


def test_a_critical_does_not_wear_an_item_nobody_has_equipped(g: FGame) -> None:
    setup(g, equip=False)
    g.act("start-combat", encounter="e1", participants=["A", "B"])
    with pytest.raises(RuleViolation) as err:
        g.act("log-item-critical", item="sword")
    assert err.value.rule_ids == ("S-BRK-01", "A-S-11")  # A-S-11: an item in use wears
    attack(g, 1)
    assert g.state.items["sword"].crits == 0  # S-BRK-01: an unequipped sword is not used
    g.act("log-item-critical", item="pick")  # S-BRK-09: a tool wears in any use
    assert state_of(g, "pick") == "partially_broken"


def test_the_fourth_critical_on_a_weapon_is_counted_as_the_fourth(fight: FGame) -> None:
    g = fight
    crits(g, "sword", 4)
    ev = g.last("item.critical_logged")
    assert ev["counter"] == 4 and g.state.items["sword"].crits == 4  # S-BRK-02
    assert ev["penalty"] == 4 and status(g, "sword")["damage_penalty"] == -4  # S-BRK-02
    text = g.rs.text("event:item.critical_logged", "en")
    assert text is not None and text.format(**ev) == (
        "Sword: critical failure on an attack counted (4)"
    )  # S-BRK-02: the message and the penalty agree
