"""Camp and sleep: 3d10, interrupted sleep, normal and bad camp, sleep deprivation and the
energy limit, experience (checklist-004 §2.6)."""

from __future__ import annotations

import pytest

from lazaretto.core.errors import InvalidInput, RuleViolation
from tests.unit.ide4_survival.conftest import Ide


def bed(
    g: Ide, cid: str, rolled: list[int], hours: int, camp: str = "normal", at: str = "22:00"
) -> None:
    g.do("make-camp", at=at, characters=[cid], camp=camp)
    g.do("plan-sleep", at=at, characters=[cid], rolled=rolled)
    g.do("go-to-sleep", at=at, characters=[cid], hours=hours)


def test_sleep_removes_fatigue_and_banks_the_days_experience(q: Ide) -> None:
    q.do("end-fight", at="18:00", characters=["a"], heavy=True)
    q.do("gain-xp", at="18:00", characters=["a"], points=5)
    bed(q, "a", [4, 8, 9], 9)
    assert q.sv("a").xp_banked == 5 and q.sv("a").xp_pending == 0  # I-SLEEP-01: experience
    q.to("2/07:00")
    assert not q.has("a", "tired")  # I-SLEEP-01: sleep removes fatigue


def test_the_player_rolls_3d10_and_picks_one_die(q: Ide) -> None:
    evs = q.do("plan-sleep", at="22:00", characters=["a"])
    planned = next(e for e in evs if e.kind == "sleep.planned")
    assert len(planned.payload["options"]) == 3  # I-SLEEP-02: 3d10
    assert planned.dice and planned.dice[0]["expression"] == "3d10"  # I-SLEEP-02: recorded roll
    q.do("plan-sleep", at="22:00", characters=["b"], rolled=[4, 8, 9])
    with pytest.raises(RuleViolation) as err:
        q.do("go-to-sleep", at="22:01", characters=["b"], hours=7, camp="normal")
    assert "I-SLEEP-02" in err.value.rule_ids  # I-SLEEP-02: only a rolled value
    with pytest.raises(InvalidInput):
        q.do("plan-sleep", at="22:05", characters=["a"], rolled=[4, 11, 9])


def test_the_gm_sets_the_camp_normal_or_bad(q: Ide) -> None:
    q.do("plan-sleep", at="22:00", characters=["a"], rolled=[4, 8, 9])
    with pytest.raises(RuleViolation) as err:
        q.do("go-to-sleep", at="22:00", characters=["a"], hours=9)
    assert "I-SLEEP-03" in err.value.rule_ids  # I-SLEEP-03: the GM decides the camp first
    q.do("make-camp", at="22:00", characters=["a"], camp="bad")
    q.do("go-to-sleep", at="22:00", characters=["a"], hours=9)
    assert q.sv("a").sleep_camp == "bad"  # I-SLEEP-03


def test_interrupted_sleep_takes_the_highest_of_2d10_never_more_than_planned(q: Ide) -> None:
    bed(q, "a", [4, 8, 9], 9)
    bed(q, "b", [5, 2, 1], 5)
    evs = q.do("interrupt-sleep", at="2/01:00", characters=["a"], reason="thief")
    woke = next(e for e in evs if e.kind == "sleep.interrupted")
    rolled = woke.dice[0]["dice"][0]["rolls"] if woke.dice else []
    assert woke.dice[0]["expression"] == "2d10" and len(rolled) == 2  # I-SLEEP-04: 2d10
    assert woke.payload["hours"] == min(max(rolled), 9)  # I-SLEEP-04
    q.do("interrupt-sleep", at="2/01:00", characters=["b"], rolled=[9, 9])
    q.to("2/09:00")
    last = q.sv("b").last_sleep
    assert last is not None and last.hours == 5  # I-SLEEP-04


def test_there_is_no_sleep_table_only_the_explicit_rules(q: Ide) -> None:
    q.do("end-day", at="21:00")  # did not sleep: sleep-deprived
    bed(q, "a", [7, 2, 3], 7)
    evs = q.to("2/05:00")
    done = next(e for e in evs if e.kind == "sleep.finished")
    assert "I-SLEEP-05" in done.rule_ids  # I-SLEEP-05: no table, the explicit rules only
    assert q.has("a", "sleep_deprived")  # A-I-10: 7 h in a normal camp neither gives nor removes


def test_not_in_bed_by_noon_burns_the_days_experience(q: Ide) -> None:
    q.do("gain-xp", at="10:00", characters=["a", "b"], points=3)
    bed(q, "b", [8, 8, 8], 8, at="2/11:00")
    evs = q.to("2/12:00")
    burned = [e.payload["character"] for e in evs if e.kind == "xp.burned"]
    assert burned == ["a"]  # I-SLEEP-06: Anna did not go to bed by ~12:00 of the next day
    assert q.sv("a").xp_pending == 0 and q.sv("b").xp_banked == 3  # I-SLEEP-06


def test_lady_luck_counts_experience_by_the_planned_sleep(q: Ide) -> None:
    bed(q, "a", [9, 1, 1], 9)
    bed(q, "b", [9, 1, 1], 9)
    q.do("interrupt-sleep", at="2/00:00", characters=["a"], lady_luck=True, rolled=[2, 1])
    last = q.sv("a").last_sleep
    assert last is not None and last.hours == 2
    assert last.xp_hours == 9  # I-SLEEP-07: by the time before sleep, not the sleep they got
    q.do("interrupt-sleep", at="2/00:00", characters=["b"], rolled=[2, 1])
    other = q.sv("b").last_sleep
    assert other is not None and other.xp_hours == 2


def test_normal_sleep_is_about_eight_hours_in_a_normal_camp(q: Ide) -> None:
    assert q.rs.params.normal_sleep_hours == 8  # type: ignore[attr-defined]  # I-SLEEP-08
    bed(q, "a", [8, 2, 3], 8)
    q.to("2/07:00")
    last = q.sv("a").last_sleep
    assert last is not None and (last.hours, last.camp) == (8, "normal")  # I-SLEEP-08
    assert "sleeps normally" in q.ask("recovery", character="a")["better"]  # I-SLEEP-08


def test_eight_hours_in_a_normal_camp_remove_sleep_deprivation(q: Ide) -> None:
    q.do("end-day", at="21:00")
    assert q.has("a", "sleep_deprived")
    bed(q, "a", [8, 2, 3], 8)
    q.to("2/07:00")
    assert not q.has("a", "sleep_deprived")  # I-SLEEP-09


def test_after_normal_sleep_light_states_go_and_stress_eases(q: Ide) -> None:
    q.do("end-fight", at="18:00", characters=["a"], heavy=True)
    q.do("calm-event", at="18:30", characters=["a"], events=["monster"])
    bed(q, "a", [9, 2, 3], 9)
    q.to("2/08:00")
    assert not q.has("a", "tired")  # I-SLEEP-10: some light states are removed
    assert q.sv("a").calm == 3  # I-SLEEP-10: stress may decrease (I-CALM-16)


def test_bad_sleep_damp_camp_forced_march_or_sickness_uses_the_bad_camp_row(q: Ide) -> None:
    q.do("make-camp", at="21:00", characters=["a"], camp="normal", damp=True)
    assert q.sv("a").camp == "bad"  # I-SLEEP-11: damp
    q.do("end-march", at="21:00", characters=["b"], pace="forced")
    bed(q, "b", [9, 9, 9], 9)
    q.to("2/07:00")
    last = q.sv("b").last_sleep
    assert last is not None and last.camp == "bad"  # I-SLEEP-11: after a forced march
    assert q.has("b", "sleep_deprived")  # I-SLEEP-11, I-COND-07


def test_a_day_without_normal_sleep_lowers_the_energy_limit_by_one(q: Ide) -> None:
    q.do("end-day", at="23:00")
    assert q.has("a", "sleep_deprived")  # I-SLEEP-12: "not slept"
    assert q.card("a")["energy_limit"] == 2  # I-SLEEP-12: 3 → 2
    q.do("end-day", at="2/23:00")
    assert q.card("a")["energy_limit"] == 2  # I-SLEEP-12, A-I-10: the state does not deepen
    s = Ide(params={"meal_mode": "quick", "sleep_deprivation_stacks": True})
    s.add("a")
    for d in (1, 2, 3):
        s.do("end-day", at=f"{d}/23:00")
    assert s.card("a")["energy_limit"] == 1  # I-SLEEP-12: minimum 1


def test_extended_mode_lowers_the_energy_limit_by_two() -> None:
    g = Ide(params={"mode": "extended", "meal_mode": "quick"})
    g.add("a")
    g.do("end-day", at="23:00", no_water=[])
    assert g.card("a")["energy_limit"] == 1  # I-SLEEP-13: 3 → 1, minimum 1
    g.do("d100-check", at="23:10", character="a", skill="Melee", outcome="failure")
    with pytest.raises(RuleViolation) as err:
        g.do("spend-energy", at="23:11", character="a", dice=2, die=6, outcome="success")
    assert "I-SLEEP-13" in err.value.rule_ids  # I-SLEEP-13


def test_the_eight_hour_reading_of_sleep_deprivation(q: Ide) -> None:
    g = Ide(params={"meal_mode": "quick", "sleep_deprived_rule": "eight_hour"})
    g.add("a")
    bed(g, "a", [7, 1, 1], 7)
    g.to("2/06:00")
    assert g.has("a", "sleep_deprived")  # A-I-10 alternative: 7 h is a day without normal sleep
    bed(q, "a", [7, 1, 1], 7)
    q.to("2/06:00")
    assert not q.has("a", "sleep_deprived")  # A-I-10 default (table): 6–7 h changes nothing


@pytest.mark.parametrize(
    ("mode", "limit", "rule", "en", "ru"),
    [
        ("basic", 2, "I-SLEEP-12", "−1 to the after-roll energy-dice limit (3 → 2", "−1 к"),
        ("extended", 1, "I-SLEEP-13", "−2 to the after-roll energy-dice limit (3 → 1", "−2 к"),
    ],
)
def test_the_card_states_the_energy_cut_and_rule_of_the_mode(
    mode: str, limit: int, rule: str, en: str, ru: str
) -> None:
    g = Ide(params={"mode": mode, "meal_mode": "quick"})
    g.add("a")
    bed(g, "a", [5, 1, 1], 5)
    g.to("2/06:00")
    card, card_ru = g.card("a"), g.card("a", "ru")
    assert card["energy_limit"] == limit  # I-SLEEP-12 (basic 3 → 2) / I-SLEEP-13 (extended 3 → 1)
    label = next(c["label"] for c in card["conditions"] if c["kind"] == "sleep_deprived")
    label_ru = next(c["label"] for c in card_ru["conditions"] if c["kind"] == "sleep_deprived")
    assert en in label and ru in label_ru  # I-SLEEP-12 / I-SLEEP-13: the card's numbers
    assert f"с 3 до {limit}" in label_ru
    rules = next(c["rules"] for c in card["conditions"] if c["kind"] == "sleep_deprived")
    assert rule in rules and ({"I-SLEEP-12", "I-SLEEP-13"} - {rule}).isdisjoint(rules)


def test_six_hours_in_a_normal_camp_is_not_sleep_deprivation(q: Ide) -> None:
    bed(q, "a", [6, 1, 1], 6)
    q.to("2/06:00")
    assert not q.has("a", "sleep_deprived")  # I-COND-07, A-I-10: under 6 h gives it, 6 does not

