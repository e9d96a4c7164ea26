"""The canonical disease catalogue (I-CAT-01..08) and every treatment (I-CURE-01..31)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.ide4_survival.tables import catalogue
from tests.unit.ide4_survival.conftest import Ide, day_of, make_sick


@pytest.fixture
def q2() -> Ide:
    """A quick-food campaign with four characters."""
    g = Ide(params={"meal_mode": "quick"})
    for cid in ("a", "b", "c", "d"):
        g.add(cid)
    return g


def disease_shift(
    g: Ide, cid: str, skill: str, code: str, *tags: str, group: str | None = None
) -> int:
    g.do("d100-check", character=cid, skill=skill, tags=list(tags), group=group, outcome="success")
    return sum(s.amount for s in g.last_check(cid).shifts if s.source == f"disease:{code}")


def case_of(g: Ide, cid: str) -> object:
    return next(c for c in g.st.cases.values() if c.character == cid)


def treat(g: Ide, cid: str, code: str, rule: str, **kw: Any) -> None:
    g.do("treat-disease", character=cid, disease=code, treatment=rule, **kw)


# --- the catalogue ---------------------------------------------------------------------


def test_crimson_consumption(q2: Ide) -> None:
    d = catalogue().diseases["crimson_consumption"]
    assert (d.latin, d.incubation_days) == ("Hæmophthisis Pulmonum", (4, 5))  # I-CAT-01
    assert "sputum" in d.transmission.en and "cough" in d.symptoms.en  # I-CAT-01
    make_sick(q2, "a", "crimson_consumption")
    assert disease_shift(q2, "a", "Athletics", "crimson_consumption") == 2  # I-CAT-01: +2 Body
    assert disease_shift(q2, "a", "Insight", "crimson_consumption") == 2  # I-CAT-01: +2 Intellect
    poisoned = q2.ch("a").condition("poisoned")
    assert poisoned is not None and poisoned.data["points"] == 2  # I-CAT-01: 2 units, permanent
    q2.to("9/08:00")
    assert q2.has("a", "poisoned")  # I-CAT-01: it does not wear off


def test_iron_fever(q2: Ide) -> None:
    d = catalogue().diseases["iron_fever"]
    assert d.incubation_days == (1, 2) and "rusty water" in d.transmission.en  # I-CAT-02
    make_sick(q2, "a", "iron_fever")
    assert disease_shift(q2, "a", "Athletics", "iron_fever") == 2  # I-CAT-02: +2 Body
    assert disease_shift(q2, "a", "Insight", "iron_fever") == 1  # I-CAT-02: +1 Intellect
    assert disease_shift(q2, "a", "Negotiations", "iron_fever") == 1  # I-CAT-02: +1 Sociality


def test_putrid_throat(q2: Ide) -> None:
    d = catalogue().diseases["putrid_throat"]
    assert d.incubation_days == (3, 4) and "barracks" in d.transmission.en  # I-CAT-03
    make_sick(q2, "a", "putrid_throat")
    assert disease_shift(q2, "a", "Negotiations", "putrid_throat") == 1  # I-CAT-03
    assert disease_shift(q2, "a", "Insight", "putrid_throat") == 1  # I-CAT-03
    assert disease_shift(q2, "a", "Athletics", "putrid_throat") == 0  # I-CAT-03


def test_blood_flower(q2: Ide) -> None:
    d = catalogue().diseases["blood_flower"]
    assert d.sexual and d.incubation_days is None and d.category == "venereal"  # I-CAT-04
    q2.do(
        "expose",
        at="08:00",
        characters=["a"],
        disease="blood_flower",
        difficulty=2,
        outcome="failure",
    )
    assert q2.has("a", "sick")  # I-CAT-04, A-I-20: no incubation given → at once
    assert disease_shift(q2, "a", "Negotiations", "blood_flower") == 1  # I-CAT-04


def test_worm_of_debauchery(q2: Ide) -> None:
    d = catalogue().diseases["worm_of_debauchery"]
    assert "infected meat" in d.transmission.en  # I-CAT-05
    make_sick(q2, "a", "worm_of_debauchery")
    assert disease_shift(q2, "a", "Seduction", "worm_of_debauchery") == -2  # I-CAT-05: easier
    assert disease_shift(q2, "a", "Melee", "worm_of_debauchery") == 2  # I-CAT-05: +2 Combat
    assert disease_shift(q2, "a", "Athletics", "worm_of_debauchery") == 2  # I-CAT-05: +2 Body


def test_black_torpor(q2: Ide) -> None:
    d = catalogue().diseases["black_torpor"]
    assert d.incubation_days == (2, 3) and "rats" in d.transmission.en  # I-CAT-06
    case = make_sick(q2, "a", "black_torpor")
    assert disease_shift(q2, "a", "Strength", "black_torpor", "strength") == 2  # I-CAT-06
    assert disease_shift(q2, "a", "Insight", "black_torpor") == 0  # I-CAT-06
    assert case.sick_since is not None and case.death_at is not None
    days = (case.death_at - case.sick_since).days
    assert 3 <= days <= 8  # I-CAT-06: death after 2 + d6 days
    rage = 0
    first = day_of(q2)
    for day in range(first, first + 6):
        evs = q2.do("end-day", at=f"{day}/23:00")
        if not q2.ch("a").alive:
            break
        will = next(e for e in evs if e.dice and e.dice[-1]["expression"].startswith("1d100"))
        roll = will.dice[-1]["total"]
        rage += sum(1 for e in evs if e.kind == "disease.rage")
        assert (roll <= 30) == any(e.kind == "disease.rage" for e in evs)  # I-CAT-06: > 30
        assert q2.last_check("a").skill == "Will"  # I-CAT-06: a Will check, recorded
        pending = next(k for k in q2.checks("a") if k.pending)
        q2.do("resolve-check", at=f"{day}/23:01", check=pending.id, outcome="medium")
    q2.to_time(case.death_at)
    assert not q2.ch("a").alive  # I-CAT-06: death after 2+d6 days


def test_widows_kiss(q2: Ide) -> None:
    d = catalogue().diseases["widows_kiss"]
    assert d.sexual and "kisses" in d.transmission.en  # I-CAT-07
    case = make_sick(q2, "a", "widows_kiss")
    assert disease_shift(q2, "a", "Negotiations", "widows_kiss") == 3  # I-CAT-07: +3 Sociality
    assert disease_shift(q2, "a", "Melee", "widows_kiss") == 1  # I-CAT-07: +1 Combat
    assert disease_shift(q2, "a", "Athletics", "widows_kiss") == 1  # I-CAT-07: +1 Body
    weeks = (case.death_at - case.sick_since).days / 7
    assert weeks in (1, 2, 3, 4)  # I-CAT-07: death after d4 weeks


def test_succubus_dance(q2: Ide) -> None:
    d = catalogue().diseases["succubus_dance"]
    assert "infected" in d.transmission.en  # I-CAT-08
    case = make_sick(q2, "a", "succubus_dance")
    assert disease_shift(q2, "a", "Insight", "succubus_dance") == 2  # I-CAT-08: +2 Intellect
    assert 1 <= (case.death_at - case.sick_since).days <= 8  # I-CAT-08: death after d8 days


# --- the treatments ----------------------------------------------------------------------------


def test_crimson_consumption_treatments(q2: Ide) -> None:
    code = "crimson_consumption"
    make_sick(q2, ["a", "b"], code)
    treat(q2, "a", code, "I-CURE-01")
    treat(q2, "a", code, "I-CURE-02")
    assert q2.has("a", "sick") and case_of(q2, "a").treatments == [  # type: ignore[attr-defined]
        "I-CURE-01",
        "I-CURE-02",
    ]  # I-CURE-01, I-CURE-02: recorded, effect not stated
    treat(q2, "a", code, "I-CURE-03")
    assert case_of(q2, "a").relieved == ["I-CURE-03"]  # type: ignore[attr-defined]  # I-CURE-03
    assert q2.has("a", "sick")  # I-CURE-03: reduces the cough but does not cure
    treat(q2, "b", code, "I-CURE-04")
    assert not q2.has("b", "sick") and not q2.has("b", "poisoned")  # I-CURE-04: transfusion


def test_iron_fever_treatments(q2: Ide) -> None:
    code = "iron_fever"
    make_sick(q2, ["a", "b", "c", "d"], code)
    treat(q2, "a", code, "I-CURE-05")
    assert q2.has("a", "sick")  # I-CURE-05: effect not stated, recorded
    treat(q2, "b", code, "I-CURE-06")
    cure_at = case_of(q2, "b").cure_at  # type: ignore[attr-defined]
    assert cure_at is not None and case_of(q2, "b").no_worsening  # type: ignore[attr-defined]
    q2.to_time(cure_at - timedelta(minutes=1))
    assert q2.has("b", "sick")
    q2.to_time(cure_at)
    assert not q2.has("b", "sick")  # I-CURE-06: recovery in about 3 days
    treat(q2, "c", code, "I-CURE-07")
    assert q2.has("c", "sick")  # I-CURE-07: doubtful — nothing unless the GM rules
    treat(q2, "c", code, "I-CURE-08")
    assert q2.has("c", "sick")  # I-CURE-08: no effect stated …
    treat(q2, "c", code, "I-CURE-08", effect="cure")
    assert not q2.has("c", "sick")  # I-CURE-08: … the GM rules it cures (implied)
    treat(q2, "d", code, "I-CURE-09")
    t = next(x for x in catalogue().diseases[code].treatments if x.rule == "I-CURE-09")
    assert not q2.has("d", "sick") and t.rare and t.kind == "alchemy"  # I-CURE-09


def test_putrid_throat_treatments(q2: Ide) -> None:
    code = "putrid_throat"
    make_sick(q2, ["a", "b", "c", "d"], code)
    now = q2.state.clock.now()  # type: ignore[union-attr]
    treat(q2, "a", code, "I-CURE-10")
    assert case_of(q2, "a").cure_at == now + timedelta(days=5)  # type: ignore[attr-defined]  # I-CURE-10
    treat(q2, "b", code, "I-CURE-11")
    assert q2.has("b", "sick") and "I-CURE-11" in case_of(q2, "b").treatments  # type: ignore[attr-defined]  # I-CURE-11
    treat(q2, "c", code, "I-CURE-12")
    assert case_of(q2, "c").stage == 2  # type: ignore[attr-defined]  # I-CURE-12: worsening
    treat(q2, "d", code, "I-CURE-13")
    q2.to_time(now + timedelta(days=1))
    assert not q2.has("d", "sick")  # I-CURE-13: cured the next day


def test_blood_flower_treatments(q2: Ide) -> None:
    code = "blood_flower"
    make_sick(q2, ["a", "b", "c"], code)
    treat(q2, "a", code, "I-CURE-14")
    assert disease_shift(q2, "a", "Negotiations", code) == 0  # I-CURE-14: suppressed 2 h
    q2.to("10:01")
    assert disease_shift(q2, "a", "Negotiations", code) == 1  # I-CURE-14: back after 2 h
    treat(q2, "b", code, "I-CURE-15")
    assert disease_shift(q2, "b", "Negotiations", code) == 1  # I-CURE-15: does not help
    treat(q2, "b", code, "I-CURE-16")
    assert case_of(q2, "b").stage == 1  # type: ignore[attr-defined]  # I-CURE-16: only the bleeding
    treat(q2, "c", code, "I-CURE-17")
    now = q2.state.clock.now()  # type: ignore[union-attr]
    assert case_of(q2, "c").cure_at == now + timedelta(days=10)  # type: ignore[attr-defined]  # I-CURE-17


def test_worm_of_debauchery_treatments(q2: Ide) -> None:
    code = "worm_of_debauchery"
    make_sick(q2, ["a", "b", "c", "d"], code)
    treat(q2, "a", code, "I-CURE-18")
    treat(q2, "a", code, "I-CURE-18")
    assert disease_shift(q2, "a", "Melee", code) == 1  # I-CURE-18: −1 Combat (once)
    assert disease_shift(q2, "a", "Athletics", code) == 1  # I-CURE-18: −1 Body
    treat(q2, "b", code, "I-CURE-19")
    assert disease_shift(q2, "b", "Melee", code) == 0  # I-CURE-19: penalties off for 4 h
    q2.to("12:01")
    assert disease_shift(q2, "b", "Melee", code) == 2  # I-CURE-19
    treat(q2, "c", code, "I-CURE-20")
    assert q2.has("c", "sick")  # I-CURE-20: does not help
    treat(q2, "d", code, "I-CURE-21", risk=True, host="a slave")
    assert not q2.has("d", "sick")  # I-CURE-21: the parasites move into another body
    assert q2.sv("d").calm == 0  # I-CURE-21: −3 calm
    q2.do("calm-recover", characters=["d"], reason="medicine", points=3)
    assert q2.sv("d").calm == 0  # I-CURE-21, A-I-20: not above 0 for 7 days


def test_black_torpor_treatments(q2: Ide) -> None:
    code = "black_torpor"
    make_sick(q2, ["a", "b", "c", "d"], code)
    death = case_of(q2, "a").death_at  # type: ignore[attr-defined]
    treat(q2, "a", code, "I-CURE-22")
    treat(q2, "a", code, "I-CURE-22")
    assert case_of(q2, "a").death_at == death + timedelta(days=2)  # type: ignore[attr-defined]  # I-CURE-22
    assert q2.sv("a").burns == 1.0  # I-CURE-22: 0.5 burn each
    treat(q2, "b", code, "I-CURE-23")
    assert disease_shift(q2, "b", "Strength", code, "strength") == 1  # I-CURE-23
    treat(q2, "c", code, "I-CURE-24")
    assert q2.has("c", "sick")  # I-CURE-24: exorcism does not help
    treat(q2, "d", code, "I-CURE-25", risk=True)
    assert not q2.has("d", "sick") and q2.has("d", "nerve_damage")  # I-CURE-25


def test_widows_kiss_treatments(q2: Ide) -> None:
    code = "widows_kiss"
    make_sick(q2, ["a", "b", "c"], code)
    death = case_of(q2, "a").death_at  # type: ignore[attr-defined]
    treat(q2, "a", code, "I-CURE-26")
    assert case_of(q2, "a").death_at == death + timedelta(days=1)  # type: ignore[attr-defined]  # I-CURE-26
    assert q2.sv("a").burns == 0.5  # I-CURE-26
    treat(q2, "b", code, "I-CURE-27")
    assert q2.has("b", "sick")  # I-CURE-27: no effect stated
    stage, death = case_of(q2, "c").stage, case_of(q2, "c").death_at  # type: ignore[attr-defined]
    treat(q2, "c", code, "I-CURE-28")  # no effect stated: nothing happens by itself (A-I-20)
    assert q2.has("c", "sick") and case_of(q2, "c").stage == stage  # type: ignore[attr-defined]  # I-CURE-28
    assert case_of(q2, "c").death_at == death  # type: ignore[attr-defined]  # I-CURE-28
    treated = [e.payload for e in q2.events if e.kind == "case.treated"][-1]
    assert (treated["treatment"], treated["effect"], treated["kind"]) == (
        "I-CURE-28",
        "unspecified",
        "magic",
    )  # I-CURE-28: a magic treatment with no stated effect
    assert treated["implied"] == "cure"  # I-CURE-28: the GM is told the implied cure
    treat(q2, "c", code, "I-CURE-28", effect="cure")
    assert not q2.has("c", "sick")  # I-CURE-28: the GM rules it cures


def test_i_cure_28_is_magic_so_a_setting_without_magic_cannot_cure_with_it() -> None:
    g = Ide(params={"meal_mode": "quick", "full_cure_available": ["medicine"]})  # I-DIS-13
    g.add("c")
    make_sick(g, "c", "widows_kiss")
    with pytest.raises(RuleViolation) as err:
        treat(g, "c", "widows_kiss", "I-CURE-28", effect="cure")
    assert err.value.rule_ids == ("I-DIS-13",) and g.has("c", "sick")  # I-CURE-28: magic


def test_succubus_dance_treatments(q2: Ide) -> None:
    code = "succubus_dance"
    make_sick(q2, ["a", "b", "c"], code)
    treat(q2, "a", code, "I-CURE-29")
    assert q2.has("a", "sick")  # I-CURE-29: does not help
    treat(q2, "b", code, "I-CURE-30")
    assert disease_shift(q2, "b", "Insight", code) == 1  # I-CURE-30: −1 to the difficulty
    treat(q2, "c", code, "I-CURE-31", effect="cure")
    assert not q2.has("c", "sick")  # I-CURE-31: the ritual, as the GM rules


def test_every_treatment_record_is_in_the_catalogue() -> None:
    rules = [t.rule for d in catalogue().diseases.values() for t in d.treatments]
    assert rules == [f"I-CURE-{i:02d}" for i in range(1, 32)]
    assert [d.rule for d in catalogue().diseases.values() if d.canonical] == [
        f"I-CAT-{i:02d}" for i in range(1, 9)
    ]


def test_i_cure_06_cures_in_3_days(q2: Ide) -> None:
    make_sick(q2, "b", "iron_fever")
    now = q2.state.clock.now()  # type: ignore[union-attr]
    treat(q2, "b", "iron_fever", "I-CURE-06")
    assert case_of(q2, "b").cure_at == now + timedelta(days=3)  # type: ignore[attr-defined]  # I-CURE-06


@pytest.mark.parametrize(
    ("code", "rule", "skill", "hours", "back"),
    [
        ("blood_flower", "I-CURE-14", "Negotiations", 2, 1),
        ("worm_of_debauchery", "I-CURE-19", "Melee", 4, 2),
    ],
)
def test_a_suppressing_treatment_lasts_its_hours_exactly(
    q2: Ide, code: str, rule: str, skill: str, hours: int, back: int
) -> None:
    make_sick(q2, "a", code)
    now = q2.state.clock.now()  # type: ignore[union-attr]
    treat(q2, "a", code, rule)
    q2.to_time(now + timedelta(hours=hours, minutes=-1))
    assert disease_shift(q2, "a", skill, code) == 0  # rule: still suppressed
    q2.to_time(now + timedelta(hours=hours))
    assert disease_shift(q2, "a", skill, code) == back  # rule: over after exactly its hours


def test_black_torpors_will_target_in_the_catalogue_is_the_parameters() -> None:
    d = catalogue().diseases["black_torpor"]
    g = Ide(params={"meal_mode": "quick"})
    assert d.daily_will_target == g.rs.params.black_torpor_will_target == 30  # type: ignore[attr-defined]  # I-CAT-06, A-I-20: > 30


def test_expulsion_of_the_living_costs_3_calm_and_caps_it_for_exactly_7_days() -> None:
    g = Ide(params={"meal_mode": "quick", "calm_points_max": 5})  # room to see the loss
    g.add("d")
    make_sick(g, "d", "worm_of_debauchery")
    g.do("calm-recover", characters=["d"], reason="medicine", points=2)
    now = g.state.clock.now()  # type: ignore[union-attr]
    calm = g.sv("d").calm
    assert calm == 5
    treat(g, "d", "worm_of_debauchery", "I-CURE-21", risk=True, host="a slave")
    assert g.sv("d").calm == 2  # I-CURE-21, A-I-20: −3 calm
    capped = g.ch("d").condition("calm_capped")
    assert capped is not None and capped.deadline == now + timedelta(days=7)  # I-CURE-21: 7 days
