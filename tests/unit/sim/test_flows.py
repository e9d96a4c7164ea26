"""What the simulated flows do, checked against the rules they run on."""

from __future__ import annotations

from typing import Any

from lazaretto.sim.kinds import kind_of
from lazaretto.sim.runner import run_scenario
from lazaretto.sim.scenario import Scenario
from lazaretto.sim.summary import summarize
from lazaretto.sim.tally import RunResult
from tests.unit.sim.conftest import scenario, small_battle


def one_run(s: Scenario, seed: int = 1) -> RunResult:
    [run] = run_scenario(s, runs=1, seed=seed)
    return run


# --- battle ---------------------------------------------------------------------------


def test_without_field_healers_every_wounded_bleeds_to_death() -> None:
    """W-WND-08, W-WND-12: light → 30 min → heavy → 15 min → death, unbandaged."""
    run = one_run(small_battle(field={"healers": 0}, horizon_minutes=60))
    m = run.metrics
    assert m["deaths"] == m["wounds"] == 12 and m["deaths_field"] == 12
    assert run.series["dead"][-1] == 12
    assert run.series["dead"][1] == 0  # at 10 min nobody is dead yet: 15 min at the least


def test_with_enough_healers_and_tables_nobody_dies_and_everyone_is_cured() -> None:
    """A bandage stops the countdown (A-W-06); a heavy wound is cured by an operation and
    20 minutes in bed (W-TRT-13), a light one by 10 minutes on a mat (W-TRT-03)."""
    s = small_battle(
        field={"healers": 12},
        hospitals={"count": 2, "tables": 3, "beds": 6, "healers": 3},
        horizon_minutes=240,
    )
    m = one_run(s).metrics
    assert m["deaths"] == 0 and m["still_wounded"] == 0
    assert m["operations"] >= m["heavy_at_once"]  # every heavy wound went under the knife
    assert m["refusals"] == 0  # the policy never asked for what the rules forbid
    assert m["all_treated"] < 240


def test_one_table_makes_the_heavy_wounded_queue_at_the_hospital() -> None:
    crowded = small_battle(wounded=30, field={"healers": 10})
    roomy = small_battle(
        wounded=30, field={"healers": 10}, hospitals={"count": 1, "tables": 4, "healers": 4}
    )
    wait = [one_run(s).metrics["hospital_wait"] for s in (crowded, roomy)]
    assert wait[0] > wait[1]
    assert one_run(crowded).metrics["peak_tables"] == 1  # W-HOSP-13: one patient a table


def test_a_bandage_that_wears_off_kills_in_the_hospital_queue() -> None:
    """A-W-06 alternative: with a 20-minute bandage, waiting for the only table kills."""
    s = small_battle(
        wounded=20,
        field={"healers": 10},
        wounds={"hits_lost": "3"},
        params={"bandage_duration_minutes": 20},
    )
    assert one_run(s).metrics["deaths_hospital"] > 0
    lasting = small_battle(wounded=20, field={"healers": 10}, wounds={"hits_lost": "3"})
    assert one_run(lasting).metrics["deaths"] == 0


# --- epidemic -------------------------------------------------------------------------


def epidemic(**fields: Any) -> Scenario:
    spec: dict[str, Any] = {
        "population": 40,
        "horizon_minutes": 480,
        "sample_minutes": 30,
        "waves": {"interval_minutes": 30, "stickers": 10, "met": "20"},
    }
    spec.update(fields)
    return scenario("epidemic", **spec)


def test_a_full_plague_outfit_keeps_everyone_well_and_quarantine_ends_it() -> None:
    """W-PROT-01: the full outfit blocks an epidemic; W-EPI-10: two quiet waves end it."""
    m = one_run(epidemic(protected_share=1.0)).metrics
    assert m["infected"] == 0 and m["waves"] == 2
    assert m["ended"] == 1 and m["by_quarantine"] == 1
    assert m["end_hours"] == 35 / 60  # the second wave starts at 30 min and lasts 5


def test_an_epidemic_infects_no_more_than_its_thirty_stickers() -> None:
    """W-LAB-16, A-W-22: the certificate's 30 stickers over all the waves."""
    m = one_run(epidemic(population=200, waves={"stickers": 20, "met": "60"})).metrics
    assert m["infected"] == 30
    assert m["ended"] == 1


def test_a_race_the_disease_spares_is_not_counted_as_infected() -> None:
    """W-DIS-04, A-W-25: a dwarf keeps the sticker without effect and does not count."""
    m = one_run(epidemic(races={"dwarf": 1.0}, disease={"races": ["human"]})).metrics
    assert m["infected"] == 0 and m["by_quarantine"] == 1


def test_a_lethal_disease_kills_those_who_are_not_cured_in_time() -> None:
    """W-DIS-09: death on the timer from the sticker; a hospital cure stops it."""
    untreated = one_run(
        epidemic(
            disease={"lethal": True, "minutes_to_death": 60},
            treatment={"seek_share": 0.0},
        )
    ).metrics
    assert untreated["deaths"] == untreated["infected"] > 0
    treated = one_run(
        epidemic(
            disease={"lethal": True, "minutes_to_death": 600},
            treatment={"seek_share": 1.0, "seek_minutes": "5"},
            hospitals={"count": 2, "beds": 20, "healers": 10},
        )
    ).metrics
    assert treated["deaths"] == 0 and treated["cured"] == treated["infected"] > 0


def test_quick_hospital_cures_end_an_epidemic_by_intensive_treatment() -> None:
    """W-EPI-08/09: more than half of the infected cured, counted from the journals."""
    s = epidemic(
        waves={"interval_minutes": 120, "stickers": 10, "met": "20"},
        treatment={"seek_share": 1.0, "seek_minutes": "1"},
        hospitals={"count": 1, "beds": 12, "healers": 12},
    )
    m = one_run(s).metrics
    assert m["by_intensive"] == 1 and m["waves"] == 1
    assert m["end_hours"] < 1.5


def test_healers_without_the_disease_in_their_book_cure_nobody() -> None:
    """W-DTRT-05: no diagnosis without the description in the healer's book."""
    m = one_run(epidemic(treatment={"healers_know": False})).metrics
    assert m["cured"] == 0 and m["refusals"] == 0


# --- travel ---------------------------------------------------------------------------


def travel(**fields: Any) -> Scenario:
    spec: dict[str, Any] = {"party": 3, "days": 3}
    spec.update(fields)
    return scenario("travel", **spec)


def test_a_well_supplied_cautious_party_ends_the_trip_fed_and_watered() -> None:
    s = travel(
        pace="cautious",
        meal_chance=1.0,
        water_chance=1.0,
        normal_camp_chance=1.0,
        damp_chance=0.0,
        disease={"chance": 0.0},
        dirty_water={"chance": 0.0},
    )
    m = one_run(s).metrics
    assert m["survival"] == 1 and m["end_hungry"] == 0 and m["end_dehydrated"] == 0
    assert m["end_sick"] == 0 and m["refusals"] == 0


def test_a_party_without_food_or_water_ends_hungry_and_dehydrated() -> None:
    """I-MEAL-14/15, I-COND-03: skipped meals make hungry, no water dehydrated."""
    run = one_run(travel(meal_chance=0.0, water_chance=0.0, disease={"chance": 0.0}))
    m = run.metrics
    assert m["end_hungry"] == 1 and m["end_dehydrated"] == 1 and m["end_exhausted"] == 1
    assert len(run.series["alive"]) == 3 + 1  # the start and every day
    assert m["refusals"] == 0


# --- weekend --------------------------------------------------------------------------


def test_a_weekend_is_one_part_per_location_and_has_its_wounds_and_epidemics() -> None:
    s = scenario(
        "weekend",
        characters=50,
        location_size=20,
        days=1,
        wounds_per_character=3,
        epidemics=5,
        field={"healers": 3},
    )
    assert kind_of("weekend").parts(s) == 3  # 20 + 20 + 10
    m = one_run(s).metrics
    assert m["characters"] == 50 and m["epidemics"] == 3  # one epidemic per location at most
    assert m["wounds"] + m["wounds_missed"] == 150  # missed: nobody left able to fight
    assert m["wounds"] > 100 and m["refusals"] == 0


def test_a_weekend_in_one_campaign_is_one_part_holding_every_location() -> None:
    """A big LARP's one medical system: the locations' people, healers, hospitals and
    epidemics apart in one campaign (W-EPI-01: an epidemic infects its location)."""
    s = scenario(
        "weekend",
        characters=60,
        location_size=20,
        days=1,
        wounds_per_character=3,
        epidemics=3,
        field={"healers": 3},
        waves={"interval_minutes": 60, "stickers": 8, "met": "10"},
        one_campaign=True,
    )
    assert kind_of("weekend").parts(s) == 1
    assert "all in one campaign" in kind_of("weekend").describe(s, "en")
    assert "все в одной кампании" in kind_of("weekend").describe(s, "ru")
    m = one_run(s).metrics
    assert m["characters"] == 60 and m["epidemics"] == 3  # three epidemics in one campaign
    assert m["wounds"] + m["wounds_missed"] == 180 and m["refusals"] == 0
    # each epidemic counts the cures of its own infected, not the other locations'
    assert 0 < m["cured"] <= m["infected"]


def test_a_summary_pools_shares_over_all_runs() -> None:
    s = small_battle(field={"healers": 0}, horizon_minutes=60)
    summary = summarize(s, run_scenario(s, runs=3, seed=4), 4)
    assert summary.shares["death_share"].mean == 1.0
    assert summary.shares["death_share"].n == 36
    assert summary.metrics["deaths"].mean == 12 and summary.metrics["deaths"].low == 12
