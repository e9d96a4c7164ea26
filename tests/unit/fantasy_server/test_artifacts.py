"""Equipment and artifacts: properties, crafting, GM approval, perfect items, slots,
active and passive artifacts, and the resulting stats (checklist-002 §2.1–§2.3)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.engine import run_query
from lazaretto.core.errors import RuleViolation
from tests.game import t
from tests.unit.fantasy_server.conftest import FGame


def item(g: FGame, iid: str, kind: str = "accessory", owner: str = "A", **kw: Any) -> None:
    g.act("register-item", item=iid, name=kw.pop("name", iid), kind=kind, owner=owner, **kw)


def refused(g: FGame, action: str, **kw: Any) -> tuple[str, ...]:
    with pytest.raises(RuleViolation) as err:
        g.act(action, **kw)
    return err.value.rule_ids


@pytest.fixture
def smith(g: FGame) -> FGame:
    g.pc("A", STR=11, END=10, REF=10, INT=10, skills=("Smith",))
    g.pc("M", INT=10, skills=("Enchanter",))
    return g


def craft(g: FGame, who: str, iid: str, roll: int, kind: str = "weapon", **kw: Any) -> None:
    g.act("craft-item", crafter=who, item=iid, name=iid, kind=kind, roll=roll, **kw)


def test_equipment_items_have_technological_magical_or_techno_magical_properties(
    smith: FGame,
) -> None:
    g = smith
    item(g, "gun", kind="weapon", technological=["scope: aimed shots"])
    item(g, "ring", magical=["runes: +2 STR"], stat_bonus=["STR=2"])
    item(g, "glove", kind="clothing", magical=["frost"], technological=["gears"])
    item(g, "mail", kind="armor")
    items = g.state.items
    # S-ART-01: clothing/armour, weapon, shield, accessories; properties by origin
    assert items["gun"].nature == "technological" and items["ring"].nature == "magical"
    assert items["mail"].nature == "mundane" and not items["mail"].is_artifact
    assert items["glove"].nature == "techno_magical"  # S-ART-03


def test_only_the_right_craftsmen_give_technological_or_magical_properties(smith: FGame) -> None:
    g = smith
    rules = refused(g, "craft-item", crafter="A", item="r", name="r", kind="accessory",
                    magical=["glow"], roll=10)  # fmt: skip
    assert rules == ("S-ART-02",)  # S-ART-02: a smith is not an enchanter
    rules = refused(g, "craft-item", crafter="M", item="g", name="g", kind="weapon",
                    technological=["scope"], roll=10)  # fmt: skip
    assert rules == ("S-ART-02",)  # S-ART-02: an enchanter is not a craftsman
    craft(g, "M", "r", 10, kind="accessory", magical=["glow"])
    craft(g, "A", "g", 10, technological=["scope"])
    assert {"r", "g"} <= set(g.state.items)


def test_a_crafted_artifact_waits_for_a_gm_before_it_can_be_worn(smith: FGame) -> None:
    g = smith
    craft(g, "M", "ring", 10, kind="accessory", magical=["runes"], stat_bonus=["STR=2"])
    assert g.state.items["ring"].approval == "pending"  # S-ART-04
    g.act("set-sheet", character="M", stats=["STR=9"])
    assert refused(g, "equip-item", character="M", item="ring") == ("S-ART-04",)
    g.act("approve-item", item="ring")
    g.act("equip-item", character="M", item="ring")
    assert g.card("M")["stats"]["STR"]["combat"] == 10
    craft(g, "A", "plain", 10)  # a mundane item needs no approval
    assert g.state.items["plain"].approval == "not_needed"


def test_a_gm_may_reject_an_artifact() -> None:
    g = FGame()
    g.pc("M", INT=10, skills=("Enchanter",))
    craft(g, "M", "ring", 10, kind="accessory", magical=["hex"])
    g.act("approve-item", item="ring", approve=False)
    assert g.state.items["ring"].approval == "rejected"  # S-ART-04
    assert "S-ART-04" in refused(g, "equip-item", character="M", item="ring")


def test_the_number_of_properties_is_limited_only_when_the_server_sets_it() -> None:
    g = FGame()
    g.pc("A", INT=10, skills=("Enchanter",))
    craft(g, "A", "two", 10, kind="accessory", magical=["a", "b", "c"])  # A-S-06: no limit
    g2 = FGame(params={"max_properties_per_artifact": 1})
    g2.pc("A", INT=10, skills=("Enchanter",))
    rules = refused(g2, "craft-item", crafter="A", item="x", name="x", kind="accessory",
                    magical=["a", "b"], roll=10)  # fmt: skip
    assert rules == ("S-ART-05", "A-S-06")  # S-ART-05: a limited number of properties


def test_property_origins_material_needs_a_rare_resource_and_critical_a_crit(smith: FGame) -> None:
    g = smith
    steel = [{"name": "steel", "amount": 2}]
    rules = refused(g, "craft-item", crafter="A", item="b", name="b", kind="weapon",
                    material=["frost damage"], resources=steel, roll=10)  # fmt: skip
    assert rules == ("S-ART-06",)  # S-ART-06 (c): rare materials
    craft(g, "A", "b", 10, material=["frost damage"],
          resources=[{"name": "elsim steel", "amount": 1, "unique": True}])  # fmt: skip
    assert g.state.items["b"].properties[0].origin == "material"
    rules = refused(g, "craft-item", crafter="A", item="c", name="c", kind="weapon",
                    critical=["+1 damage"], roll=15)  # fmt: skip
    assert rules == ("S-ART-06",)  # S-ART-06 (d): only on a critical success
    craft(g, "A", "c", 20, critical=["+1 damage"])
    assert g.state.items["c"].crit_created


def test_a_critical_success_can_make_a_weapon_armour_or_tool_perfect(smith: FGame) -> None:
    g = smith
    craft(g, "A", "axe", 20, perfect=True, curator="GM Olga")
    axe = g.state.items["axe"]
    # S-ART-07: a perfect item is an artifact; S-ART-08: the curating GM decides it
    assert axe.perfect and axe.is_artifact and axe.approval == "pending"
    assert axe.curator == "GM Olga"
    rules = refused(g, "craft-item", crafter="M", item="amulet", name="a", kind="accessory",
                    perfect=True, curator="GM", roll=20)  # fmt: skip
    assert rules == ("S-ART-07",)  # S-ART-07: weapons, armour and tools only


def test_a_perfect_item_needs_a_crit_and_it_is_optional() -> None:
    g = FGame()
    g.pc("A", INT=10, skills=("Smith",))
    craft(g, "A", "blade", 15, perfect=True, curator="GM")  # no crit: an ordinary blade
    assert not g.state.items["blade"].perfect  # S-ART-07
    craft(g, "A", "blade2", 20)  # a crit, but perfection not wanted ("по желанию")
    assert not g.state.items["blade2"].perfect
    assert g.last("item.crafted")["perfect_offered"] is True  # S-ART-07


def test_a_perfect_items_characteristics_are_chosen_by_the_curating_gm(smith: FGame) -> None:
    g = smith
    rules = refused(g, "craft-item", crafter="A", item="gl", name="gl", kind="armor",
                    perfect=True, curator="GM", param_bonus=["damage=1"], roll=20)  # fmt: skip
    assert rules == ("S-ART-08",)  # S-ART-08: not the player
    assert refused(g, "craft-item", crafter="A", item="gl", name="gl", kind="armor",
                   perfect=True, roll=20) == ("S-ART-08",)  # fmt: skip
    craft(g, "A", "sword", 20, perfect=True, curator="GM")
    g.act("approve-item", item="sword", param_bonus=["damage=2", "accuracy=-1"])
    sword = g.state.items["sword"]
    # S-ART-08: the source's "Rough bastard sword" +2 damage, -1 accuracy
    assert sword.param_bonus == {"damage": 2, "accuracy": -1} and sword.approval == "approved"
    assert "S-ART-08" in g.rules("item.approved")


def test_creating_a_perfect_item_locks_artifact_creation_for_a_week(smith: FGame) -> None:
    g = smith
    craft(g, "A", "axe", 20, perfect=True, curator="GM", at="10:00")
    lock = g.ch("A").condition("artifact_lockout")
    assert lock is not None and lock.deadline == t("10:00").replace(day=20)  # S-ART-09
    rules = refused(g, "craft-item", crafter="A", item="g", name="g", kind="weapon",
                    technological=["scope"], roll=10)  # fmt: skip
    assert rules == ("S-ART-09", "A-S-07")
    craft(g, "A", "nail", 10)  # A-S-07: ordinary items are still allowed
    g.advance_at(t("09:59").replace(day=20))
    assert g.ch("A").has("artifact_lockout")
    g.advance_at(t("10:00").replace(day=20))
    assert not g.ch("A").has("artifact_lockout")
    craft(g, "A", "g", 10, technological=["scope"])
    assert g.replayed() == g.state


def test_the_all_artifacts_lockout_reading_locks_after_any_artifact() -> None:
    g = FGame(params={"artifact_lockout_scope": "all_artifacts"})  # A-S-07 alternative
    g.pc("A", INT=10, skills=("Smith",))
    craft(g, "A", "gun", 10, technological=["scope"])
    assert g.ch("A").has("artifact_lockout")  # S-ART-09 read as any artifact


def test_combat_slots_are_three_accessories_one_armour_one_weapon_one_shield() -> None:
    g = FGame()
    g.pc("A", STR=10)
    for i in range(4):
        item(g, f"acc{i}")
    for kind in ("weapon", "shield", "armor"):
        item(g, f"{kind}1", kind=kind)
        item(g, f"{kind}2", kind=kind)
    for iid in ("acc0", "acc1", "acc2", "weapon1", "shield1", "armor1"):
        g.act("equip-item", character="A", item=iid)
    for extra in ("acc3", "weapon2", "shield2", "armor2"):
        assert "S-ART-10" in refused(g, "equip-item", character="A", item=extra)  # S-ART-10


def test_a_bulky_accessory_takes_two_or_more_slots() -> None:
    g = FGame()
    g.pc("A")
    item(g, "cloak", slot_size=2)
    item(g, "a1")
    item(g, "a2")
    g.act("equip-item", character="A", item="cloak")
    g.act("equip-item", character="A", item="a1")
    assert "S-ART-11" in refused(g, "equip-item", character="A", item="a2")  # S-ART-11


def test_combat_accessories_are_chosen_before_a_fight_and_not_changed_during_it() -> None:
    g = FGame()
    g.pc("A", STR=5)
    g.pc("B")
    for i in range(4):
        item(g, f"acc{i}", stat_bonus=["STR=1"])
    for i in range(3):  # S-ART-14: of four accessories, three are chosen beforehand
        g.act("equip-item", character="A", item=f"acc{i}")
    g.act("start-combat", encounter="e1", participants=["A", "B"])
    rules = refused(g, "equip-item", character="A", item="acc3")
    assert {"S-ART-12", "S-ART-13", "S-ART-14"} <= set(rules)  # no equipping in a fight
    assert "S-ART-13" in refused(g, "unequip-item", character="A", item="acc0")  # no swapping
    # S-ART-12: they act until the end of the fight
    assert g.card("A")["stats"]["STR"]["combat"] == 8
    g.act("end-combat", encounter="e1")
    g.act("unequip-item", character="A", item="acc0")
    g.act("equip-item", character="A", item="acc3")


def test_an_active_artifact_is_used_by_its_mechanic_a_passive_one_acts_by_itself() -> None:
    g = FGame()
    g.pc("A", STR=5, MAG=5)
    item(g, "wand", activation="active", mechanic="fire bolt 2d6", stat_bonus=["STR=2"],
         magical=["fire"], slot_roles="both")  # fmt: skip
    item(g, "belt", stat_bonus=["STR=1"], slot_roles="both")
    g.act("equip-item", character="A", item="wand")
    g.act("equip-item", character="A", item="belt")
    # S-ART-16: only the passive belt adds to STR; the active wand's bonus is not passive
    assert g.card("A")["stats"]["STR"]["combat"] == 6
    g.act("use-artifact", character="A", item="wand")
    assert g.last("item.used")["mechanic"] == "fire bolt 2d6"  # S-ART-15
    assert refused(g, "use-artifact", character="A", item="belt") == ("S-ART-16",)  # S-ART-16


def test_role_play_slots_are_two_accessories_clothing_and_a_tool() -> None:
    g = FGame()
    g.pc("A")
    for i in range(3):
        item(g, f"rp{i}", slot_roles="rp")
    item(g, "robe", kind="clothing", slot_roles="rp")
    item(g, "robe2", kind="clothing", slot_roles="rp")
    item(g, "pick", kind="tool", slot_roles="rp")
    item(g, "saw", kind="tool", slot_roles="rp")
    for iid in ("rp0", "rp1", "robe", "pick"):
        g.act("equip-item", character="A", item=iid)
    for extra in ("rp2", "robe2", "saw"):
        assert "S-ART-17" in refused(g, "equip-item", character="A", item=extra)  # S-ART-17
    item(g, "axe", kind="weapon", slot_roles="both")
    assert "S-ART-17" in refused(g, "equip-item", character="A", item="axe", slots="rp")


def test_a_stat_accessory_may_take_a_combat_and_a_role_play_slot_at_once() -> None:
    g = FGame()
    g.pc("A", PER=6)
    item(g, "eye", stat_bonus=["PER=2"], slot_roles="both")
    g.act("equip-item", character="A", item="eye")
    assert g.last("item.equipped")["slots"] == "combat, rp"  # S-ART-18
    stats = g.card("A")["stats"]["PER"]
    assert stats["combat"] == 8 and stats["rp"] == 8


def test_a_combat_only_artifact_does_nothing_in_role_play() -> None:
    g = FGame()
    g.pc("A", REF=7)
    item(g, "gauntlet", stat_bonus=["REF=2"], activation="passive")  # combat slots only
    item(g, "orb", activation="active", mechanic="shield", magical=["ward"])
    assert "S-ART-19" in refused(g, "equip-item", character="A", item="gauntlet", slots="rp")
    g.act("equip-item", character="A", item="gauntlet")
    g.act("equip-item", character="A", item="orb")
    stats = g.card("A")["stats"]["REF"]
    assert stats["combat"] == 9 and stats["rp"] == 7  # S-ART-19
    assert refused(g, "use-artifact", character="A", item="orb") == ("S-ART-19",)  # S-ART-19


def test_e_s_05_bonuses_to_one_named_parameter_stop_at_plus_3() -> None:
    """E-S-05 (S-ART-20)."""
    g = FGame()
    g.pc("A")
    item(g, "r1", param_bonus=["melee_accuracy=2"])
    item(g, "r2", param_bonus=["melee_accuracy=1"])
    item(g, "r3", param_bonus=["melee_accuracy=1"])
    item(g, "blade", kind="weapon", param_bonus=["damage=1"])
    for iid in ("r1", "r2", "r3", "blade"):
        g.act("equip-item", character="A", item=iid)
    assert "melee_accuracy +3 (capped from +4)" in g.last("item.equipped", g.events[:-1])["effects"]
    answer = run_query(g.rs, g.state, "stats", {"character": "A"})
    assert answer["param_bonus"]["melee_accuracy"] == {"bonus": 3, "raw": 4}  # S-ART-20
    assert answer["param_bonus"]["damage"] == {"bonus": 1, "raw": 1}  # another parameter


def test_one_artifact_gives_plus_2_or_plus_3_on_a_gm_approved_critical(smith: FGame) -> None:
    """E-S-04: S-STAT-01 (A-S-05)."""
    g = smith
    rules = refused(g, "register-item", item="x", name="x", kind="accessory",
                    stat_bonus=["STR=3"])  # fmt: skip
    assert rules == ("S-STAT-01", "A-S-05")  # S-STAT-01: +3 needs a critical success
    rules = refused(g, "craft-item", crafter="M", item="y", name="y", kind="accessory",
                    magical=["runes"], stat_bonus=["STR=3"], roll=15)  # fmt: skip
    assert rules == ("S-STAT-01", "A-S-05")
    rules = refused(g, "register-item", item="z", name="z", kind="accessory",
                    stat_bonus=["STR=2", "END=2"], crit_created=True)  # fmt: skip
    assert rules == ("S-STAT-01", "A-S-05")  # never more than +3
    craft(g, "M", "tri", 20, kind="accessory", magical=["runes"],
          stat_bonus=["STR=1", "END=1", "REF=1"])  # fmt: skip
    assert g.state.items["tri"].approval == "pending"  # S-STAT-01: and the GM approves it
    g.act("approve-item", item="tri")
    assert g.state.items["tri"].stat_bonus == {"STR": 1, "END": 1, "REF": 1}


def test_a_gm_raises_a_critical_artifact_to_plus_3_on_approval(smith: FGame) -> None:
    g = smith
    craft(g, "M", "ring", 20, kind="accessory", magical=["runes"], stat_bonus=["STR=2"])
    g.act("approve-item", item="ring", stat_bonus=["STR=1"])
    assert g.state.items["ring"].stat_bonus == {"STR": 3}  # S-STAT-01
    assert g.rules("item.approved") == ("S-ART-04", "S-ART-08", "S-STAT-01")
    craft(g, "M", "ring3", 12, kind="accessory", magical=["runes"], stat_bonus=["STR=2"])
    g.act("approve-item", item="ring3")  # a plain approval sets no characteristics
    assert g.rules("item.approved") == ("S-ART-04",)
    craft(g, "M", "ring2", 12, kind="accessory", magical=["runes"], stat_bonus=["STR=2"])
    assert refused(g, "approve-item", item="ring2", stat_bonus=["STR=1"]) == ("S-ART-08",)


def test_an_artifact_bonus_may_be_split_over_several_stats() -> None:
    g = FGame()
    g.pc("A", STR=8, END=8)
    item(g, "torc", stat_bonus=["STR=1", "END=1"])
    g.act("equip-item", character="A", item="torc")
    stats = g.last("item.equipped")["stats"]["combat"]
    assert stats["STR"] == 9 and stats["END"] == 9  # S-STAT-02: total +2 over two stats


def test_equipping_shows_the_resulting_stat_with_the_reserve() -> None:
    """S-STAT-10 Example 3 through the action (S-STAT-03/04/07/08)."""
    g = FGame()
    g.pc("A", STR=9)
    item(g, "r2", stat_bonus=["STR=2"])
    item(g, "r1", stat_bonus=["STR=1"])
    g.act("equip-item", character="A", item="r2")
    eq = g.last("item.equipped")
    assert eq["stats"]["combat"]["STR"] == 10 and eq["reserve"]["combat"] == {"STR": 1}
    assert "STR 9 → 10" in eq["effects"] and "reserve 1" in eq["effects"]
    g.act("equip-item", character="A", item="r1")
    assert g.last("item.equipped")["stats"]["combat"]["STR"] == 11  # S-STAT-08
    assert {"S-STAT-03", "S-STAT-08", "S-STAT-09"} <= set(g.rules("item.equipped"))


def test_the_stats_query_tries_an_item_on_without_equipping_it() -> None:
    g = FGame()
    g.pc("A", STR=11)
    item(g, "r", stat_bonus=["STR=2"])
    before = g.state.model_copy(deep=True)
    answer = run_query(g.rs, g.state, "stats", {"character": "A", "item": "r"})
    assert answer["stats"]["STR"]["value"] == 12  # S-STAT-10 Example 1
    assert "STR 11 → 12" in answer["summary"] and "stepwise_target_band" in answer["summary"]
    assert g.state == before


def test_the_divide_by_base_band_reading_is_a_campaign_parameter() -> None:
    g = FGame(params={"stat_bonus_mode": "divide_by_base_band"})  # A-S-03 alternative
    g.pc("A", STR=10)
    item(g, "r", stat_bonus=["STR=2"], crit_created=True)
    g.act("equip-item", character="A", item="r")
    assert g.last("item.equipped")["stats"]["combat"]["STR"] == 12  # S-STAT-05


def test_a_tool_goes_into_the_role_play_tool_slot_by_default() -> None:
    g = FGame()
    g.pc("A")
    item(g, "pick", kind="tool")
    g.act("equip-item", character="A", item="pick")
    assert g.last("item.equipped")["slots"] == "rp"  # S-ART-17


@pytest.mark.parametrize(
    ("base", "bonuses", "combat"),
    [
        (9, [2], 10),  # S-STAT-03: 0–10, 1 point per +1 (10 → 11 would cost 2)
        (12, [2, 2], 14),  # S-STAT-03: 11–14, 2 points per +1
        (15, [2, 2, 2], 17),  # S-STAT-03: 15–21, 3 points per +1
        (22, [2, 2], 23),  # S-STAT-03: 22 and up, 4 points per +1
        (5, [2, 2], 8),  # S-STAT-09: never more than +3
    ],
)
def test_a_worn_artifacts_stat_bonus_costs_the_bands_points(
    base: int, bonuses: list[int], combat: int
) -> None:
    g = FGame()
    g.pc("A", STR=base)
    for i, bonus in enumerate(bonuses):
        item(g, f"acc{i}", stat_bonus=[f"STR={bonus}"])
        g.act("equip-item", character="A", item=f"acc{i}", slots="combat")
    assert g.card("A")["stats"]["STR"]["combat"] == combat  # S-STAT-03 / S-STAT-09
