"""``lazaretto sim run|sweep`` through the real CLI runner: reports, JSON, pictures, errors."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.clitools import Run, ok, ok_json, refused

BATTLE = """\
kind: battle
name: Skirmish at the ford
runs: 3
seed: 5
wounded: 10
window_minutes: 10
horizon_minutes: 120
field: {healers: 2}
hospitals: {count: 1, tables: 1, beds: 2, healers: 1}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_sim_run_prints_the_report_and_draws_a_png(run: Run, tmp_path: Path) -> None:
    scenario = write(tmp_path, "b.yaml", BATTLE)
    picture = tmp_path / "b.png"
    out = ok(run("sim", "run", scenario, "--runs", "4", "--seed", "1", "--plot", str(picture)))
    assert out.splitlines()[0] == "Skirmish at the ford"
    assert "4 runs, master seed 1; 95% intervals." in out
    assert "deaths" in out and "minutes until a healer came" in out
    assert f"Picture: {picture}" in out
    assert picture.read_bytes()[:4] == b"\x89PNG"


def test_sim_run_json_with_an_svg_is_the_same_in_a_process_pool(run: Run, tmp_path: Path) -> None:
    scenario = write(tmp_path, "b.yaml", BATTLE)
    svg = tmp_path / "b.svg"
    serial = ok_json(run("sim", "run", scenario, "--json", "--backend", "serial"))
    pooled = ok_json(run("sim", "run", scenario, "--json", "--workers", "2", "--plot", str(svg)))
    assert serial["runs"] == 3 and serial["seed"] == 5  # the file's defaults
    assert serial["metrics"] == pooled["metrics"] and serial["per_run"] == pooled["per_run"]
    assert pooled["backend"] == {"backend": "processes", "workers": 2}
    assert pooled["plot"] == str(svg) and "<svg" in svg.read_text(encoding="utf-8")
    deaths = serial["metrics"]["deaths"]
    assert set(deaths) == {"label", "mean", "low", "high", "n"} and deaths["n"] == 3
    assert serial["shares"]["death_share"]["n"] == 30


def test_sim_run_speaks_russian(run: Run, tmp_path: Path) -> None:
    scenario = write(tmp_path, "b.yaml", BATTLE)
    out = ok(run("sim", "run", scenario, "--runs", "2", "--backend", "serial", lang="ru"))
    assert "Прогонов: 2" in out and "смертей" in out
    assert "Решения, которые правила оставляют игрокам и мастерам" in out


def test_a_broken_scenario_is_one_line_and_no_traceback(run: Run, tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", BATTLE.replace("healers: 2}", "heelers: 2}"))
    line = refused(run("sim", "run", bad), 7)
    assert line.startswith("error: ") and "field.heelers" in line and bad in line
    missing = refused(run("sim", "run", str(tmp_path / "none.yaml")), 7)
    assert "cannot read" in missing
    ru = refused(run("sim", "run", bad, lang="ru"), 7)
    assert ru.startswith("ошибка: ")
    as_json = run("sim", "run", bad, "--json")
    assert as_json.exit_code == 7
    assert json.loads(as_json.stdout)["error"] == "DataFileError"


def test_a_picture_in_an_unknown_format_is_refused_before_running(run: Run, tmp_path: Path) -> None:
    scenario = write(tmp_path, "b.yaml", BATTLE)
    line = refused(run("sim", "run", scenario, "--plot", str(tmp_path / "b.gif")), 2)
    assert ".png or .svg" in line


def test_sim_sweep_runs_on_a_local_dask_cluster_like_it_runs_serially(
    run: Run, tmp_path: Path
) -> None:
    write(tmp_path, "b.yaml", BATTLE)
    sweep = write(
        tmp_path,
        "sweep.yaml",
        "name: Healers\nscenario: b.yaml\nruns: 3\nseed: 8\n"
        "vary:\n  field.healers: [1, 4]\nmetrics: [deaths, field_wait]\n",
    )
    picture = tmp_path / "sweep.png"
    on_dask = ok_json(
        run("sim", "sweep", sweep, "--workers", "2", "--json", "--plot", str(picture))
    )
    serial = ok_json(run("sim", "sweep", sweep, "--backend", "serial", "--json"))
    assert on_dask["backend"] == {"backend": "dask", "scheduler": "local"}
    assert on_dask["points"] == serial["points"]
    assert [p["values"] for p in serial["points"]] == [
        {"field.healers": 1},
        {"field.healers": 4},
    ]
    few, many = (p["metrics"]["field_wait"]["mean"] for p in serial["points"])
    assert many < few
    assert picture.read_bytes()[:4] == b"\x89PNG"
    table = ok(run("sim", "sweep", sweep, "--backend", "serial"))
    assert "Healers: 3 runs per point, seed 8" in table and "field.healers" in table
    assert [line.split()[1] for line in table.splitlines() if line.startswith("│ ")][::2] == [
        "1",
        "4",
    ]  # a row per point, its mean over the interval
