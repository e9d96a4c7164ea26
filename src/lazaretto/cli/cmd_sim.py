"""``sim run|sweep``: Monte Carlo simulation of whole scenarios over the real rulesets."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import Env, get_env, guarded, require_sim

if TYPE_CHECKING:  # the simulator is imported only when a sim command runs
    from lazaretto.sim.runner import Backend, Progress

sim_app = typer.Typer(
    no_args_is_help=True,
    help="Monte Carlo simulation of whole scenarios (battle, epidemic, travel, weekend) on "
    "the real rulesets. / Моделирование сценариев методом Монте-Карло.",
)


class BackendName(StrEnum):
    """Where the runs are computed."""

    PROCESSES = "processes"
    DASK = "dask"
    SERIAL = "serial"


RunsOpt = Annotated[
    int | None,
    typer.Option("--runs", "-n", min=1, help="replicate runs (default: the file's 'runs')"),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        min=0, help="master seed (default: the file's 'seed'); the same seed, the same results"
    ),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        min=0,
        help="worker processes (or Dask local-cluster workers); 0 = every core here",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(help="address of an existing Dask scheduler, e.g. tcp://10.0.0.5:8786"),
]
PlotOpt = Annotated[Path | None, typer.Option(help="draw the results into this .png or .svg file")]
LevelOpt = Annotated[
    float, typer.Option(min=0.5, max=0.999, help="confidence level of the intervals")
]


def _backend(name: BackendName, workers: int, scheduler: str | None) -> Backend:
    from lazaretto.sim.runner import Backend, machine_cores

    count = workers or machine_cores()
    if scheduler is not None or name is BackendName.DASK:
        require_sim("distributed")
        return Backend(workers=count, dask=True, scheduler=scheduler)
    if name is BackendName.SERIAL:
        return Backend(workers=1)
    return Backend(workers=count)


@contextmanager
def _progress(env: Env, total: int, quiet: bool) -> Iterator[Progress]:
    """A progress bar on stderr (none with --json or when stderr is not a terminal).

    It is redrawn on each tick rather than by a background thread, so that the process
    pool forks its workers from a process with a single thread.
    """
    if quiet or not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    label = env.tr("simulating", "моделирование")
    with Progress(
        f"[bold]{label}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task(label, total=total)

        def tick(n: int) -> None:
            bar.advance(task, n)
            bar.refresh()

        bar.refresh()
        yield tick


def _tell_picture(env: Env, plot: Path | None) -> None:
    """Say where the picture was drawn (nothing without ``--plot``)."""
    if plot is not None:
        env.console.print(env.tr(f"Picture: {plot}", f"Рисунок: {plot}"), markup=False)


@sim_app.command("run")
@guarded
def sim_run(
    scenario: Annotated[Path, typer.Argument(help="scenario YAML file (see scenarios/)")],
    runs: RunsOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = 0,
    backend: Annotated[
        BackendName, typer.Option(help="processes (default), dask or serial")
    ] = BackendName.PROCESSES,
    scheduler: SchedulerOpt = None,
    plot: PlotOpt = None,
    level: LevelOpt = 0.95,
    as_json: JsonOpt = False,
) -> None:
    """Run a scenario many times: estimates with confidence intervals, a report, a plot."""
    from lazaretto.sim.files import load_scenario
    from lazaretto.sim.kinds import kind_of
    from lazaretto.sim.plots import check_path, plot_summary
    from lazaretto.sim.report import report
    from lazaretto.sim.runner import describe_backend, run_scenario
    from lazaretto.sim.summary import summarize

    env = get_env()
    s = load_scenario(scenario)
    if plot is not None:
        require_sim("matplotlib")
        check_path(plot)
    chosen = _backend(backend, workers, scheduler)
    n = s.runs if runs is None else runs
    master = s.seed if seed is None else seed
    total = n * kind_of(s.kind).parts(s)
    with _progress(env, total, as_json) as tick:
        results = run_scenario(s, runs=n, seed=master, backend=chosen, progress=tick)
    summary = summarize(s, results, master, level)
    if plot is not None:
        plot_summary(summary, plot, env.lang)
    if as_json:
        data = summary.to_dict(env.lang)
        data["plot"] = str(plot) if plot else None
        data["backend"] = describe_backend(chosen)
        env.emit_json(data)
        return
    env.console.print(report(summary, env.lang), markup=False)
    _tell_picture(env, plot)


@sim_app.command("sweep")
@guarded
def sim_sweep(
    sweep: Annotated[Path, typer.Argument(help="sweep YAML file (see scenarios/sweep.yaml)")],
    runs: RunsOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = 0,
    backend: Annotated[
        BackendName, typer.Option(help="dask (default), processes or serial")
    ] = BackendName.DASK,
    scheduler: SchedulerOpt = None,
    plot: PlotOpt = None,
    level: LevelOpt = 0.95,
    as_json: JsonOpt = False,
) -> None:
    """Run a scenario over a grid of parameters (on Dask: a local cluster or --scheduler)."""
    from lazaretto.sim.plots import check_path, plot_sweep
    from lazaretto.sim.runner import describe_backend
    from lazaretto.sim.sweep import count_parts, load_sweep, run_sweep

    env = get_env()
    sw = load_sweep(sweep)
    if plot is not None:
        require_sim("matplotlib")
        check_path(plot)
    chosen = _backend(backend, workers, scheduler)
    n = sw.runs if runs is None else runs
    master = sw.seed if seed is None else seed
    with _progress(env, count_parts(sw, n), as_json) as tick:
        summaries = run_sweep(sw, runs=n, seed=master, backend=chosen, progress=tick, level=level)
    metrics = sw.metrics
    rows: list[dict[str, Any]] = []
    for point, summary in zip(sw.points, summaries, strict=True):
        values = {m: summary.metrics[m].to_dict() for m in metrics}  # intervals over runs
        rows.append({"point": point.index, "values": point.values, "metrics": values})
    if plot is not None:
        first = metrics[0]
        estimates = [
            (s.metrics[first].mean, s.metrics[first].low, s.metrics[first].high) for s in summaries
        ]
        plot_sweep([p.label for p in sw.points], estimates, first, plot, sw.spec.name)
    if as_json:
        env.emit_json(
            {
                "sweep": sw.spec.name,
                "runs": n,
                "seed": master,
                "level": level,
                "points": rows,
                "plot": str(plot) if plot else None,
                "backend": describe_backend(chosen),
            }
        )
        return
    shares = {m for m in metrics if summaries and m in summaries[0].shares}
    _print_sweep(env, sw.spec.name, rows, metrics, shares, n, master, level)
    _tell_picture(env, plot)


def _print_sweep(
    env: Env,
    name: str,
    rows: list[dict[str, Any]],
    metrics: list[str],
    shares: set[str],
    runs: int,
    seed: int,
    level: float,
) -> None:
    def number(metric: str, x: float) -> str:
        return f"{x * 100:.1f}%" if metric in shares else f"{x:.3g}"

    def cell(metric: str, e: dict[str, Any]) -> str:
        if e["mean"] is None:
            return "-"
        mean = number(metric, e["mean"])
        if e["low"] is None:
            return mean
        return f"{mean}\n{number(metric, e['low'])}–{number(metric, e['high'])}"

    title = env.tr(
        f"{name or 'Sweep'}: {runs} runs per point, seed {seed}, mean ({level:.0%} interval)",
        f"{name or 'Перебор'}: {runs} прогонов на точку, зерно {seed}, среднее "
        f"(интервал {level:.0%})",
    )
    keys = list(rows[0]["values"]) if rows else []
    table = Table(title=title)
    table.add_column("\n".join(keys), no_wrap=True)
    for m in metrics:
        table.add_column(m, no_wrap=True)
    for row in rows:
        label = " / ".join(str(v) for v in row["values"].values())
        table.add_row(label, *(cell(m, row["metrics"][m]) for m in metrics))
    env.console.print(table)


def register(app: typer.Typer) -> None:
    """Attach these commands to the main app."""
    app.add_typer(sim_app, name="sim")
