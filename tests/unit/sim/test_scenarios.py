"""Scenario and sweep files: every bundled file loads; a broken one is refused naming the
file and the field, through the project's DataFileError."""

from __future__ import annotations

from pathlib import Path

import pytest

from lazaretto.core.errors import DataFileError
from lazaretto.sim.files import load_scenario
from lazaretto.sim.scenario import BattleScenario, WeekendScenario
from lazaretto.sim.sweep import load_sweep
from tests.unit.sim.conftest import SCENARIOS


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["battle", "epidemic", "travel", "weekend"])
def test_every_bundled_scenario_file_loads(name: str) -> None:
    s = load_scenario(SCENARIOS / f"{name}.yaml")
    assert s.kind == name and s.runs >= 1


def test_the_bundled_weekend_is_the_benchmark_weekend() -> None:
    s = load_scenario(SCENARIOS / "weekend.yaml")
    assert isinstance(s, WeekendScenario)
    assert (s.characters, s.days, s.epidemics) == (2000, 3, 3)
    assert s.wounds_per_character * s.characters >= 20_000


def test_the_bundled_sweep_has_a_point_per_combination() -> None:
    sw = load_sweep(SCENARIOS / "sweep.yaml")
    assert len(sw.points) == 8
    assert sw.points[0].values == {"field.healers": 3, "field.triage": "heavy_first"}
    first = sw.points[0].scenario
    assert isinstance(first, BattleScenario) and first.field.healers == 3


@pytest.mark.parametrize(
    ("text", "field", "problem"),
    [
        ("kind: battle\nfeild: {}\n", "feild", "Extra inputs are not permitted"),
        ("kind: battle\nfield: {heelers: 3}\n", "field.heelers", "Extra inputs"),
        ("kind: battle\nwounds: {hits_lost: 1d}\n", "wounds.hits_lost", "position"),
        ("kind: battle\nwounds: {hits_lost: 1d3-5}\n", "wounds.hits_lost", "negative"),
        ("kind: battle\nwounded: 0\n", "wounded", "greater than or equal to 1"),
        ("wounded: 3\n", "kind", "missing"),
        ("kind: siege\n", "kind", "does not match"),
        ("kind: battle\nparams: {bleed_minutes: 3}\n", "params", "no parameter 'bleed_minutes'"),
        (
            "kind: travel\nparams: {check_resolver: manual}\n",
            "params.check_resolver",
            "band_table",
        ),
        ("kind: epidemic\ndisease: {lethal: true}\n", "disease.minutes_to_death", "lethal"),
        ("kind: weekend\nday_start: '22:00'\nday_end: '10:00'\n", "(top level)", "day_end"),
        ("- just\n- a list\n", "(top level)", "mapping"),
        ("kind: battle\nwounded: [1\n", "line 3, column 1", "not valid YAML"),
    ],
)
def test_a_broken_scenario_names_the_file_and_the_field(
    tmp_path: Path, text: str, field: str, problem: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DataFileError) as err:
        load_scenario(path)
    assert err.value.file == str(path)
    assert err.value.field == field
    assert problem in err.value.problem


def test_a_missing_scenario_file_is_a_data_file_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError) as err:
        load_scenario(tmp_path / "nope.yaml")
    assert err.value.field == "(file)" and "cannot read" in err.value.problem


def test_a_sweep_point_that_does_not_validate_is_named_with_its_values(tmp_path: Path) -> None:
    write(tmp_path, "kind: battle\nwounded: 5\n", "b.yaml")
    path = write(tmp_path, "scenario: b.yaml\nvary:\n  field.healers: [2, -1]\n", "sweep.yaml")
    with pytest.raises(DataFileError) as err:
        load_sweep(path)
    assert "field.healers=-1" in err.value.file
    assert err.value.field == "field.healers"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("vary: {wounded: [1]}\n", "scenario"),
        ("scenario: b.yaml\nvary: {}\n", "vary"),
        ("scenario: b.yaml\nvary: {wounded.count: [1]}\n", "vary.wounded.count"),
        ("scenario: b.yaml\nvary: {wounded: [1]}\nmetrics: [fun]\n", "metrics"),
    ],
)
def test_a_broken_sweep_is_refused(tmp_path: Path, text: str, field: str) -> None:
    write(tmp_path, "kind: battle\nwounded: 5\n", "b.yaml")
    with pytest.raises(DataFileError) as err:
        load_sweep(write(tmp_path, text, "sweep.yaml"))
    assert err.value.field == field
