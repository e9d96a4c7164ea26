"""Intervals, the text report (English and Russian) and the pictures."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.sim.plots import plot_summary, plot_sweep
from lazaretto.sim.report import report
from lazaretto.sim.runner import run_scenario
from lazaretto.sim.stats import mean_ci, proportion_ci, t_quantile
from lazaretto.sim.summary import Summary, summarize
from tests.unit.sim.conftest import scenario, small_battle


@pytest.mark.parametrize(
    ("df", "table"),
    [(1, 12.706), (2, 4.303), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (200, 1.972)],
)
def test_the_t_quantile_matches_the_printed_tables(df: int, table: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(table, abs=2e-3)


def test_a_mean_interval_is_the_t_interval_and_ignores_missing_values() -> None:
    e = mean_ci([1.0, 2.0, 3.0, math.nan], 0.95)
    assert (e.mean, e.n) == (2.0, 3)
    assert e.high - e.mean == pytest.approx(4.303 / math.sqrt(3), abs=1e-3)
    assert mean_ci([5.0, 5.0]).low == 5.0 == mean_ci([5.0, 5.0]).high
    assert math.isnan(mean_ci([]).mean) and math.isnan(mean_ci([1.0]).low)


def test_a_share_interval_is_wilson_and_stays_within_zero_and_one() -> None:
    e = proportion_ci(0, 20, 0.95)
    assert e.low == 0 and e.high == pytest.approx(0.1611, abs=1e-4)
    assert proportion_ci(20, 20).high == 1.0
    w = proportion_ci(50, 100, 0.95)
    assert w.low == pytest.approx(0.4038, abs=1e-4) and w.high == pytest.approx(0.5962, abs=1e-4)


@pytest.fixture(scope="module")
def summary() -> Summary:
    s = small_battle(name="Skirmish at the ford")
    return summarize(s, run_scenario(s, runs=5, seed=3), 3)


def test_the_report_gives_every_metric_its_interval_and_the_policy(summary: Summary) -> None:
    text = report(summary, "en")
    lines = text.splitlines()
    assert lines[0] == "Skirmish at the ford"
    assert "5 runs, master seed 3; 95% intervals." in text
    deaths = next(line for line in lines if line.startswith("deaths "))
    assert "[" in deaths or deaths.split()[-1] == "0"
    share = next(line for line in lines if line.startswith("share of the wounded who died"))
    assert "%" in share
    assert "Decisions the rules leave to players and masters" in text
    assert "triage" in text and "The ruleset refused no action." in text


def test_the_report_speaks_russian(summary: Summary) -> None:
    text = report(summary, "ru")
    assert "Прогонов: 5, главное зерно 3; интервалы 95%." in text
    assert "смертей" in text and "доля умерших" in text
    assert "Правила не отклонили ни одного действия." in text


def test_the_json_summary_is_labelled_and_has_no_nan(summary: Summary) -> None:
    import json

    data = summary.to_dict("ru")
    text = json.dumps(data, allow_nan=False)  # NaN would not be JSON
    assert data["metrics"]["deaths"]["label"] == "смертей"
    assert data["series"]["step_minutes"] == 10
    assert len(data["series"]["beds"]["mean"]) == 150 // 10 + 1
    assert len(data["per_run"]) == 5 and "policy" in text


def test_pictures_are_png_or_svg(summary: Summary, tmp_path: Path) -> None:
    png = plot_summary(summary, tmp_path / "out" / "b.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = plot_summary(summary, tmp_path / "b.svg", "ru")
    assert "<svg" in svg.read_text(encoding="utf-8")
    sweep = plot_sweep(
        ["a=1", "a=2"], [(1.0, 0.5, 1.5), (2.0, math.nan, math.nan)], "deaths", tmp_path / "s.png"
    )
    assert sweep.stat().st_size > 1000
    with pytest.raises(InvalidInput):
        plot_summary(summary, tmp_path / "b.jpg")


def test_an_epidemic_and_a_journey_can_be_drawn(tmp_path: Path) -> None:
    for s in (
        scenario("epidemic", population=20, horizon_minutes=120, sample_minutes=30),
        scenario("travel", party=2, days=2),
    ):
        got = summarize(s, run_scenario(s, runs=2, seed=1), 1)
        assert plot_summary(got, tmp_path / f"{s.kind}.svg").exists()
        assert report(got, "en").splitlines()[0].startswith(s.kind.capitalize())
