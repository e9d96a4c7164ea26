"""Monte Carlo simulation of whole scenarios over the real rulesets.

::

    from lazaretto.sim import load_scenario, run_scenario, summarize, report

    s = load_scenario(Path("scenarios/battle.yaml"))       # DataFileError names the field
    runs = run_scenario(s, runs=200, seed=7, backend=Backend(workers=2))
    summary = summarize(s, runs, seed=7)                    # means, 95% intervals, bands
    print(report(summary, "en"))

Layers, inside out:

* ``world`` — a campaign on a manual clock driven through the engine (the ruleset's own
  actions, countdowns and refusals), the agenda of the players' and masters' decisions,
  and curves sampled on a time grid;
* ``hospital``, ``wounds``, ``epidemic`` — the flows of patients, each with its
  documented policy for the decisions the rules leave to people;
* ``kinds`` — the scenario kinds (battle, epidemic, travel, weekend): one part's
  simulation, the metrics and their labels (what several share: ``kinds.common``);
* ``seeds``, ``runner``, ``sweep`` — seeds from one master seed, execution serially, in
  a process pool or on Dask, with identical results;
* ``stats``, ``summary``, ``report``, ``plots`` — intervals, the text report, pictures.
"""

from lazaretto.sim.files import load_scenario, validate_scenario
from lazaretto.sim.report import report
from lazaretto.sim.runner import Backend, run_scenario
from lazaretto.sim.scenario import Scenario
from lazaretto.sim.summary import Summary, summarize
from lazaretto.sim.sweep import load_sweep, run_sweep

__all__ = [
    "Backend",
    "Scenario",
    "Summary",
    "load_scenario",
    "load_sweep",
    "report",
    "run_scenario",
    "run_sweep",
    "summarize",
    "validate_scenario",
]
