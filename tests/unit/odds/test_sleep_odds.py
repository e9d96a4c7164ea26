"""ide4-survival sleep odds (I-SLEEP-02, I-SLEEP-04): the hours of a night and what it
does, checked against every face of the sleep dice."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.odds.sleep import interrupted_sleep_odds, sleep_odds
from tests.unit.odds.oracle import enumerate_dice, odds_of


def effects(hours: int, camp: str) -> dict[str, bool]:
    """checklist-004 with its defaults: under 6 h or a bad camp gives sleep-deprived
    (I-COND-07, A-I-10, table reading); 8 h in a normal camp removes it (I-SLEEP-09);
    a normal camp and 6 h end very tired (I-COND-06); 8 h restore calm (I-CALM-16)."""
    return {
        "deprived": hours < 6 or camp == "bad",
        "rested": hours >= 8 and camp == "normal",
        "very_tired_cured": hours >= 6 and camp == "normal",
        "calm_restored": hours >= 8,
    }


def events_of(hours: dict[int, Fraction], camp: str) -> dict[str, Fraction]:
    out = dict.fromkeys(("deprived", "rested", "very_tired_cured", "calm_restored"), Fraction(0))
    for h, chance in hours.items():
        for key, holds in effects(h, camp).items():
            if holds:
                out[key] += chance
    return out


@pytest.mark.parametrize("pick", ["highest", "lowest"])
@pytest.mark.parametrize("camp", ["normal", "bad"])
def test_the_planned_night_is_the_picked_die_of_3d10_i_sleep_02(
    pick: Literal["highest", "lowest"], camp: Literal["normal", "bad"]
) -> None:
    odds = sleep_odds(pick=pick, camp=camp)
    choose = max if pick == "highest" else min
    hours = odds_of(enumerate_dice(10, 10, 10), lambda f: choose(f))
    assert odds.as_dict() == dict(sorted(hours.items()))
    assert {e.key: e.probability for e in odds.events} == events_of(hours, camp)
    assert odds.mean == sum(h * p for h, p in hours.items())


def test_with_the_highest_die_two_nights_in_three_are_restful() -> None:
    odds = sleep_odds()
    assert odds.event("rested") == Fraction(657, 1000)  # 1 - (7/10) ** 3
    assert odds.event("deprived") == Fraction(1, 8)  # (5/10) ** 3


@pytest.mark.parametrize("planned", [1, 5, 8, 10])
def test_an_interrupted_night_is_the_highest_of_2d10_never_above_the_plan_i_sleep_04(
    planned: int,
) -> None:
    odds = interrupted_sleep_odds(planned)
    hours = odds_of(enumerate_dice(10, 10), lambda f: min(max(f), planned))
    assert odds.as_dict() == dict(sorted(hours.items()))
    assert {e.key: e.probability for e in odds.events} == events_of(hours, "normal")
    assert "costs 2 calm points" in odds.notes[0].en  # I-CALM-11


def test_an_interrupted_night_may_count_as_a_bad_camp_a_i_11() -> None:
    odds = interrupted_sleep_odds(8, overrides={"interrupted_sleep_is_bad_camp": True})
    assert odds.event("deprived") == 1 and odds.event("rested") == 0
    assert any("bad camp" in n.en for n in odds.notes)


def test_the_eight_hour_reading_of_sleep_deprivation_a_i_10() -> None:
    odds = sleep_odds(overrides={"sleep_deprived_rule": "eight_hour"})
    assert odds.event("deprived") == 1 - odds.event("rested") == Fraction(343, 1000)


def test_an_impossible_plan_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Planned hours 11"):
        interrupted_sleep_odds(11)
    with pytest.raises(InvalidInput, match="plain NdS"):
        sleep_odds(overrides={"sleep_plan_dice": "3d10kh1"})
