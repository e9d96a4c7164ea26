"""Rehabilitation time from the six body zones, infections and implants (rehab.py).
Checklist-001 Z-ZONE, Z-INF, Z-IMPL; A-Z-11, A-Z-12, A-Z-27, A-Z-28."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from lazaretto.rulesets.zone_larp import RULESET
from lazaretto.rulesets.zone_larp.params import ZONES, ImplantSpec, ZoneParams
from lazaretto.rulesets.zone_larp.rehab import Implant, rehab_minutes
from tests.game import Game
from tests.unit.zone_larp.conftest import ask, card, event, zone_game


def p(**overrides: object) -> ZoneParams:
    params = RULESET.campaign_params(dict(overrides))
    assert isinstance(params, ZoneParams)
    return params


def minutes(zones: dict[str, str], infection: bool = False, **overrides: object) -> int:
    return rehab_minutes(zones, infection, [], p(**overrides)).minutes


LEFT_ARM = {"left_arm": "damaged"}
TWO_AND_ONE = {"head": "damaged", "left_arm": "damaged", "torso": "infected"}


def test_there_are_six_body_zones_on_every_sheet(g: Game) -> None:
    assert ZONES == ("head", "torso", "right_arm", "left_arm", "right_leg", "left_leg")
    assert list(g.ch("C").zones) == list(ZONES)  # Z-ZONE-01
    assert [z["label"] for z in card(g, "C", "ru")["zones"]] == [
        "голова",
        "туловище",
        "правая рука",
        "левая рука",
        "правая нога",
        "левая нога",
    ]


def test_the_default_counts_only_non_intact_zones_with_a_five_minute_base() -> None:
    assert minutes(LEFT_ARM) == 10  # Z-ZONE-07: a left-arm wound gives 10 minutes (A-Z-11)
    assert minutes({}) == 5  # Z-ZONE-03/04: the 5-minute base when all work normally
    assert minutes({"head": "damaged", "torso": "damaged"}) == 20  # Z-ZONE-05: +10 a zone
    assert minutes({"torso": "infected"}) == 20  # Z-ZONE-06: infected or worsening, 20
    assert minutes(TWO_AND_ONE) == 40


def test_the_l60_reading_counts_every_zone_ten_intact_twenty_damaged() -> None:
    assert minutes(LEFT_ARM, rehab_mode="all_zones_L60") == 70  # Z-ZONE-02 (A-Z-11)
    assert minutes({}, rehab_mode="all_zones_L60") == 60
    assert minutes(TWO_AND_ONE, rehab_mode="all_zones_L60") == 90


def test_the_additive_l77_reading_gives_every_zone_five_plus_ten_or_twenty() -> None:
    assert minutes(LEFT_ARM, rehab_mode="additive_L77") == 40  # Z-ZONE-03/04/05 (A-Z-11)
    assert minutes({}, rehab_mode="additive_L77") == 30  # Z-ZONE-04: 5 a zone
    assert minutes({"torso": "infected"}, rehab_mode="additive_L77") == 50  # Z-ZONE-06: +20
    assert minutes(TWO_AND_ONE, rehab_mode="additive_L77") == 70


def test_an_identified_infection_doubles_the_stay_once() -> None:
    assert minutes({"head": "damaged", "left_arm": "damaged"}, True) == 40  # Z-INF-05
    assert minutes({}, True) == 10  # A-Z-11 floor doubled
    # A-Z-12: an infected zone counts as damaged before doubling: 20, never 40
    assert minutes({"torso": "infected"}, True) == 20
    assert minutes(TWO_AND_ONE, True) == 60


def test_the_zone_20_infection_rule_makes_every_damaged_zone_twenty() -> None:
    rule = {"infection_rule": "zone_20"}  # A-Z-12 alternative
    assert minutes({"head": "damaged", "left_arm": "damaged"}, True, **rule) == 40  # Z-ZONE-08
    assert minutes({}, True, **rule) == 5  # no doubling of the base
    assert minutes(TWO_AND_ONE, True, **rule) == 60


def test_the_infection_multiplier_is_a_parameter() -> None:
    assert minutes(LEFT_ARM, True, infection_multiplier=3) == 30  # A-Z-12


def test_infections_spread_by_contact_and_show_on_the_sheet(g: Game) -> None:
    evs = g.act("expose-infection", character="C", infection="V1", source="a rusty can")
    exposed = event(evs, "infection.exposed")
    assert "Z-INF-03" in exposed.rule_ids and "Z-INF-01" in exposed.rule_ids  # Z-INF-01/03
    cond = next(c for c in card(g, "C")["conditions"] if c["kind"] == "infection")
    assert cond["visibility"] == "owner"  # Z-INF-04: on the player's own sheet
    assert cond["data"] == {"code": "V1", "identified": False}


def test_an_infection_must_be_identified_to_count(g: Game) -> None:
    g.act("mark-zone", character="C", zone="left_arm", state="damaged")
    g.act("expose-infection", character="C", infection="V1", source="door handle")
    assert ask(g, "rehab-time", character="C")["minutes"] == 10  # Z-INF-02, A-Z-12
    evs = g.act("identify-infection", patient="C")
    assert "Z-INF-02" in event(evs, "infection.identified").rule_ids
    assert ask(g, "rehab-time", character="C")["minutes"] == 20  # Z-INF-05


def test_any_infection_counting_is_a_parameter() -> None:
    g = zone_game({"infection_requires_identification": False})  # A-Z-12 alternative
    g.act("mark-zone", character="C", zone="left_arm", state="damaged")
    g.act("expose-infection", character="C", infection="V1", source="door handle")
    assert ask(g, "rehab-time", character="C")["minutes"] == 20


def test_worsening_health_counts_like_an_identified_infection(g: Game) -> None:
    g.act("mark-zone", character="C", zone="left_arm", state="damaged")
    assert ask(g, "rehab-time", character="C", worsening=True)["minutes"] == 20  # A-Z-12


def test_an_infection_identified_during_the_stay_lengthens_it(g: Game) -> None:
    g.act("expose-infection", character="C", infection="V1", source="door handle")
    g.act("strike", at="16:00", character="C", weapon="red_ribbon", zone="head")
    g.act("arrive-hospital", at="16:05", patient="C")
    g.act("examine", at="16:06", patient="C")
    evs = g.act("identify-infection", at="16:10", patient="C", staff="medic")
    assert event(evs, "hospital.stay_recomputed").payload["minutes"] == 20  # Z-INF-05
    g.advance("16:15")
    assert not g.ch("C").condition("in_hospital").data["done"]
    g.advance("16:25")
    assert g.ch("C").condition("in_hospital").data["done"]


def test_curing_an_infection_needs_identification_and_medical_resources(g: Game) -> None:
    g.act("expose-infection", character="C", infection="V1", source="door handle")
    with pytest.raises(RuleViolation) as unknown:
        g.act("cure-infection", patient="C", infection="V1", resources=5)
    assert "Z-INF-02" in unknown.value.rule_ids
    g.act("identify-infection", patient="C")
    with pytest.raises(RuleViolation) as poor:
        g.act("cure-infection", patient="C", infection="V1", resources=0)
    assert "Z-INF-06" in poor.value.rule_ids  # Z-INF-06; A-Z-27: resource cost
    g.act("cure-infection", patient="C", infection="V1", resources=1)
    assert not g.ch("C").has("infection")


def test_an_implant_shortens_its_zone_never_below_zero() -> None:
    regen = Implant("r", ImplantSpec(zone="torso", mechanism="regeneration", minutes=5))
    est = rehab_minutes({"torso": "damaged"}, False, [regen], p())
    assert est.minutes == 5 and "Z-IMPL-01" in est.rule_ids  # Z-IMPL-01, A-Z-28
    big = Implant("b", ImplantSpec(zone="torso", mechanism="regeneration", minutes=50))
    est = rehab_minutes({"torso": "damaged", "head": "damaged"}, False, [big], p())
    assert est.minutes == 10  # A-Z-28: the torso goes to 0, not below
    half = Implant("h", ImplantSpec(zone="all", mechanism="regeneration", factor=0.5))
    assert rehab_minutes(LEFT_ARM, False, [half], p(rehab_mode="all_zones_L60")).minutes == 35


def test_containment_makes_a_damaged_organ_count_milder() -> None:
    block = Implant("a", ImplantSpec(zone="left_arm", mechanism="containment"))
    est = rehab_minutes({"left_arm": "infected"}, False, [block], p())
    line = next(ln for ln in est.lines if ln.zone == "left_arm")
    assert line.counted_as == "damaged" and est.minutes == 10  # Z-IMPL-02: the organ's state
    assert "Z-IMPL-03" in est.rule_ids  # Z-IMPL-03: by containment or regeneration


def test_without_implants_the_standard_times_apply() -> None:
    est = rehab_minutes(LEFT_ARM, False, [], p())
    assert est.minutes == 10 and "Z-IMPL-04" in est.rule_ids  # Z-IMPL-04


def test_implants_are_installed_from_the_catalogue_or_described(g: Game) -> None:
    g.act("mark-zone", character="C", zone="torso", state="damaged")
    g.act("install-implant", character="C", name="torso_regenerator")
    assert ask(g, "rehab-time", character="C")["minutes"] == 5  # Z-IMPL-01
    g.act("mark-zone", character="D", zone="head", state="damaged")
    g.act(
        "install-implant",
        character="D",
        name="skull plate",
        zone="head",
        mechanism="regeneration",
        minutes=3,
    )
    assert ask(g, "rehab-time", character="D")["minutes"] == 7
    with pytest.raises(InvalidInput):
        g.act("install-implant", character="D", name="mystery")  # not in the catalogue


def test_a_damaged_implant_works_again_only_after_the_manufacturer_repairs_it(g: Game) -> None:
    g.act("mark-zone", character="C", zone="torso", state="damaged")
    g.act("install-implant", character="C", name="torso_regenerator")
    evs = g.act("damage-implant", character="C", name="torso_regenerator")
    assert "Z-IMPL-05" in event(evs, "implant.damaged").rule_ids
    assert ask(g, "rehab-time", character="C")["minutes"] == 10  # Z-IMPL-05: out of order
    with pytest.raises(InvalidInput):
        g.act("repair-implant", character="C", name="torso_regenerator", manufacturer="")
    g.act("repair-implant", character="C", name="torso_regenerator", manufacturer="BioCorp")
    assert ask(g, "rehab-time", character="C")["minutes"] == 5  # Z-IMPL-05


def test_the_rehab_query_explains_every_zone(g: Game) -> None:
    g.act("issue-charsheet", character="C", zones=[{"zone": "left_arm", "state": "damaged"}])
    answer = ask(g, "rehab-time", character="C", lang="ru")
    assert answer["summary"] == "C: 10 мин в Госпитале (сумма повреждённых зон)"
    arm = next(z for z in answer["zones"] if z["zone"] == "left_arm")
    assert arm == {
        "zone": "left_arm",
        "state": "damaged",
        "counted_as": "damaged",
        "minutes": 10.0,
        "implants": [],
    }


def test_only_the_owner_and_masters_see_an_infection_on_the_card(g: Game) -> None:
    from lazaretto.core.errors import NotFound
    from lazaretto.core.ruleset import Role
    from lazaretto.service.accounts import Membership
    from lazaretto.service.play import card_for

    g.act("expose-infection", character="C", infection="V1", source="door handle")

    def kinds_seen(member: Membership) -> list[str]:
        return [c["kind"] for c in card_for(g.rs, g.state, "C", member, "en")["conditions"]]

    assert kinds_seen(Membership("test", Role.PLAYER, ("C",))) == ["infection"]  # Z-INF-04
    assert kinds_seen(Membership("test", Role.MASTER)) == ["infection"]
    with pytest.raises(NotFound):  # the LARP's default sight: another's card is not there
        kinds_seen(Membership("test", Role.PLAYER, ("D",)))
    g.state.params["player_sight"] = "party"  # a campaign whose players see each other
    assert kinds_seen(Membership("test", Role.PLAYER, ("D",))) == []  # Z-INF-04: not others
