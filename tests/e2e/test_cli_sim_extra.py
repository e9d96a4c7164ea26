"""Simulation and plotting are the ``lazaretto[sim]`` extra (issue 17): without Dask or
Matplotlib, the commands that need them refuse at once in one line that says what to
install, and everything else works."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tests.e2e.clitools import Run, ok, refused

BATTLE = """\
kind: battle
runs: 2
seed: 5
wounded: 4
window_minutes: 10
horizon_minutes: 60
field: {healers: 2}
hospitals: {count: 1, tables: 1, beds: 2, healers: 1}
"""


@pytest.fixture
def without_sim_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a field server: importing matplotlib, dask or distributed fails."""
    for name in list(sys.modules):
        if name.split(".")[0] in ("matplotlib", "dask", "distributed"):
            monkeypatch.delitem(sys.modules, name)
    for name in ("matplotlib", "dask", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # type: ignore[arg-type]


@pytest.mark.usefixtures("without_sim_extra")
def test_plots_and_dask_without_the_sim_extra_say_what_to_install(run: Run, tmp_path: Path) -> None:
    scenario = tmp_path / "b.yaml"
    scenario.write_text(BATTLE, encoding="utf-8")
    picture = tmp_path / "o.png"
    line = refused(run("odds", "3d6", "--plot", str(picture)), 1)
    assert "matplotlib" in line and "pip install 'lazaretto[sim]'" in line
    assert not picture.exists()
    line = refused(run("sim", "run", str(scenario), "--plot", str(tmp_path / "s.png")), 1)
    assert "matplotlib" in line and "lazaretto[sim]" in line
    line = refused(run("sim", "run", str(scenario), "--backend", "dask"), 1)
    assert "distributed" in line and "lazaretto[sim]" in line
    ru = refused(run("odds", "3d6", "--plot", str(picture), lang="ru"), 1)
    assert "Установите: pip install 'lazaretto[sim]'" in ru
    # what needs neither still works
    assert "1/216" in ok(run("odds", "3d6"))
    assert ok(run("sim", "run", str(scenario), "--backend", "serial"))
