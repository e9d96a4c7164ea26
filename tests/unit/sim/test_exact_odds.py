"""Monte Carlo against exact odds: what the simulator estimates through the real ruleset
lies within the 99% confidence interval around the probability computed exactly from the
dice engine's distributions and the ruleset's timers (fixed seed)."""

from __future__ import annotations

from fractions import Fraction

from lazaretto.core.dice import parse
from lazaretto.core.registry import get_ruleset
from lazaretto.sim.runner import run_scenario
from lazaretto.sim.summary import summarize
from tests.unit.sim.conftest import scenario

HITS = 3
HITS_LOST = "1d4"
REACH = "1d20+5"
WOUNDED = 300


def at_least(expression: str, value: int) -> Fraction:
    """P(total ≥ value), exactly."""
    return sum(
        (p for total, p in parse(expression).distribution().items() if total >= value),
        Fraction(0),
    )


def exact_death_chance() -> Fraction:
    """A wound kills when the healer comes too late for its countdown.

    Losing all ``HITS`` at once is a heavy wound that kills in 15 minutes (W-DEF-02,
    W-WND-12); a lighter one turns heavy after 30 and kills 15 later (W-WND-08). A bandage
    at the deadline's very second is too late (A-W-11). Each wounded has a healer of their
    own who arrives after ``REACH`` minutes.
    """
    p = get_ruleset("warhammer-larp").params
    heavy_min = p.heavy_death_unbandaged_minutes  # type: ignore[attr-defined]
    light_min = p.light_to_heavy_unbandaged_minutes + heavy_min  # type: ignore[attr-defined]
    heavy = at_least(HITS_LOST, HITS)
    return heavy * at_least(REACH, heavy_min) + (1 - heavy) * at_least(REACH, light_min)


def test_the_chance_a_wound_kills_matches_the_exact_odds_of_its_countdown() -> None:
    """W-WND-08, W-WND-12, A-W-11: simulated deaths / wounds ≈ the exact probability."""
    s = scenario(
        "battle",
        wounded=WOUNDED,
        window_minutes=0,
        horizon_minutes=60,
        wounds={"hits": HITS, "hits_lost": HITS_LOST},
        field={"healers": WOUNDED, "mats": 1, "reach_minutes": REACH},
        hospitals={"count": 0},
        sample_minutes=60,
    )
    runs = run_scenario(s, runs=4, seed=2026)
    summary = summarize(s, runs, 2026, level=0.99)
    exact = exact_death_chance()
    assert exact == Fraction(11, 40)  # the dice engine: 1/2 heavy x 11/20 too late
    deaths = summary.shares["death_share"]
    assert deaths.n == 4 * WOUNDED
    assert deaths.contains(float(exact)), (deaths, float(exact))
    heavy = summary.shares["heavy_share"]
    assert heavy.contains(float(at_least(HITS_LOST, HITS))), heavy  # W-DEF-02: all hits lost
    assert summary.refused == {}
