"""The artifact stat-bonus algorithm (checklist-002 §2.3, A-S-03/04): the worked examples
in every mode, and its invariants as properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazaretto.rulesets.fantasy_server.statbonus import (
    DEFAULT_BANDS,
    MODES,
    apply_stat_bonus,
    band_cost,
    capped_param_bonus,
)

TARGET, BASE_BAND, CURRENT = MODES


def value(base: int, *bonuses: int, mode: str = TARGET) -> tuple[int, int]:
    r = apply_stat_bonus(base, sum(bonuses), mode=mode)
    return r.value, r.reserve


def test_a_stat_point_costs_1_2_3_or_4_points_by_band() -> None:
    # S-STAT-03: 0–10 → 1; 11–14 → 2; 15–21 → 3; 22+ → 4
    assert [band_cost(v) for v in (0, 10, 11, 14, 15, 21, 22, 40)] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_the_source_examples_hold_in_the_default_mode() -> None:
    """S-STAT-10: the three worked examples of the source are normative."""
    assert value(11, 2) == (12, 0)  # S-STAT-10 Example 1
    assert value(11, 2, 2) == (13, 0)  # S-STAT-10 Example 2; S-STAT-04 summed first
    assert value(9, 2) == (10, 1)  # S-STAT-10 Example 3; S-STAT-08 one point in reserve
    assert value(9, 2, 1) == (11, 0)  # S-STAT-08: the reserve combines with a later artifact


def test_crossing_a_band_prices_the_rest_from_the_new_band() -> None:
    r = apply_stat_bonus(9, 3)
    # S-STAT-07: 9→10 costs 1, 10→11 is priced in the 11–14 band (2)
    assert r.steps == ((9, 10, 1), (10, 11, 2))
    assert r.value == 11 and r.reserve == 0


def test_e_s_01_stat_10_with_a_plus_3_artifact_in_each_mode() -> None:
    """E-S-01 (S-STAT-03/07/08, A-S-03)."""
    assert value(10, 3) == (11, 1)  # A-S-03 default stepwise_target_band
    assert value(10, 3, mode=BASE_BAND) == (13, 0)  # divide_by_base_band
    assert value(10, 3, mode=CURRENT) == (12, 0)  # stepwise_current_band


def test_e_s_02_stat_14_with_two_plus_2_artifacts_in_each_mode() -> None:
    """E-S-02 (S-STAT-04..08)."""
    assert value(14, 2, 2) == (15, 1)  # S-STAT-04 summed, S-STAT-08 reserve 1
    assert value(14, 2, 2, mode=BASE_BAND) == (16, 0)  # S-STAT-05: floor(4/2) = 2
    assert value(14, 2, 2, mode=CURRENT) == (15, 2)


@pytest.mark.parametrize("mode", MODES)
def test_points_left_at_exactly_plus_3_are_wasted_in_every_mode(mode: str) -> None:
    """S-STAT-09, A-S-04: STR 11 with 7 points reaches +3 (14) with 1 point over; no
    artifact added later can raise the stat further, so that point is wasted, not kept."""
    r = apply_stat_bonus(11, 7, mode=mode)
    assert (r.value, r.gained) == (14, 3)  # S-STAT-09: the cap, reached exactly
    assert (r.reserve, r.wasted) == (0, 1)  # A-S-04: beyond the cap, not in reserve
    below = apply_stat_bonus(11, 5, mode=mode)  # +2 with 1 point left: that one waits
    assert (below.value, below.reserve, below.wasted) == (13, 1, 0)  # S-STAT-08


def test_e_s_03_stat_21_needs_four_points_for_22() -> None:
    """E-S-03 (S-STAT-03/08)."""
    assert value(21, 3) == (21, 3)  # 22 costs 4 > 3: nothing bought, all in reserve
    assert value(21, 3, 1) == (22, 0)
    assert value(21, 3, mode=BASE_BAND) == (22, 0)  # S-STAT-05: floor(3/3) = 1
    assert value(21, 3, mode=CURRENT) == (22, 0)


def test_the_shortcut_table_divides_by_the_base_band_and_rounds_down() -> None:
    # S-STAT-05: 0–10 sum; 11–14 sum/2; 15–21 sum/3; 22+ sum/4; S-STAT-06: rounded down
    assert value(5, 2, mode=BASE_BAND)[0] == 7
    assert value(12, 3, mode=BASE_BAND)[0] == 13  # 3/2 → 1
    assert value(16, 5, mode=BASE_BAND)[0] == 17  # 5/3 → 1
    assert value(23, 7, mode=BASE_BAND)[0] == 24  # 7/4 → 1


@pytest.mark.parametrize("mode", MODES)
def test_e_s_04_the_plus_3_cap_wastes_the_points_beyond_it(mode: str) -> None:
    """E-S-04: STR 5 with three +2 artifacts → 8 in every mode (S-STAT-09, A-S-04)."""
    r = apply_stat_bonus(5, 6, mode=mode)
    assert r.value == 8 and r.gained == 3  # S-STAT-09: never above +3
    assert r.wasted == 3 and r.reserve == 0  # A-S-04: beyond the cap is wasted, not kept


def test_other_parameter_bonuses_stop_at_plus_3() -> None:
    # S-ART-20: +2 and +1 → +3; a third +1 has no effect
    assert capped_param_bonus([2, 1]) == 3
    assert capped_param_bonus([2, 1, 1]) == 3
    assert capped_param_bonus([2, -1]) == 1


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError):
        apply_stat_bonus(10, 2, mode="guess")


stats = st.integers(min_value=0, max_value=40)
points = st.integers(min_value=0, max_value=30)
modes = st.sampled_from(MODES)


@given(stats, points, modes)
def test_property_the_increase_is_never_above_plus_3(base: int, pts: int, mode: str) -> None:
    r = apply_stat_bonus(base, pts, mode=mode)
    assert 0 <= r.gained <= 3 and r.value == base + r.gained  # S-STAT-09


@given(stats, points, modes)
def test_property_no_bonus_point_is_lost(base: int, pts: int, mode: str) -> None:
    r = apply_stat_bonus(base, pts, mode=mode)
    # S-STAT-08: every point is spent, kept in reserve, or (only past the cap) wasted
    assert r.spent + r.reserve + r.wasted == pts
    assert r.spent == sum(cost for _, _, cost in r.steps)
    assert r.reserve >= 0 and r.wasted >= 0
    assert r.wasted == 0 or r.gained == 3
    assert r.reserve == 0 or r.gained < 3  # A-S-04: at the cap nothing is kept for later
    if mode == TARGET and r.gained < 3:  # the reserve cannot buy the next point
        assert r.reserve < band_cost(r.value + 1, DEFAULT_BANDS)


@given(stats, points, modes)
def test_property_more_bonus_never_gives_a_lower_stat(base: int, pts: int, mode: str) -> None:
    assert (
        apply_stat_bonus(base, pts + 1, mode=mode).value
        >= apply_stat_bonus(base, pts, mode=mode).value
    )  # S-STAT-03: monotone in the bonus


@given(stats, points)
def test_property_each_step_is_priced_by_the_band_of_the_value_bought(base: int, pts: int) -> None:
    for _, to, cost in apply_stat_bonus(base, pts).steps:
        assert cost == band_cost(to)  # S-STAT-07, A-S-03
