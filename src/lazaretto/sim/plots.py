"""Pictures of a simulation: PNG or SVG drawn by Matplotlib without a display.

Matplotlib is imported only when a picture is asked for; no pyplot, no global state: a
:class:`~matplotlib.figure.Figure` is drawn and saved by itself.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from lazaretto.core.errors import InvalidInput
from lazaretto.sim.summary import Summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")


def check_path(path: Path) -> str:
    """The picture format named by ``path``'s suffix; InvalidInput for anything else."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InvalidInput(
            f"Cannot draw {path.name!r}: name a .png or .svg file",
            ru=f"Не могу нарисовать {path.name!r}: укажите файл .png или .svg",
        )
    return fmt


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure  # lazy: only when a picture is asked for

    return Figure(figsize=(width, height), layout="constrained")


def plot_summary(summary: Summary, path: Path, lang: str = "en") -> Path:
    """A histogram of the headline metric over runs and the curves with their bands."""
    fmt = check_path(path)
    fig = _figure(11, 4.4)
    left, right = fig.subplots(1, 2)
    kind, ru = summary.kind, lang == "ru"
    head = kind.metric(kind.headline)
    _histogram(left, summary.values(head.name), head.ru if ru else head.en, ru)
    _curves(right, summary, ru)
    fig.suptitle(summary.scenario.name or kind.describe(summary.scenario, lang), wrap=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format=fmt, dpi=110)
    return path


def _histogram(ax: Axes, values: list[float], label: str, ru: bool) -> None:
    xs = [v for v in values if not math.isnan(v)]
    if xs and all(x == int(x) for x in xs):
        lo, hi = int(min(xs)), int(max(xs))
        from matplotlib.ticker import MaxNLocator

        ax.hist(xs, bins=[b - 0.5 for b in range(lo, hi + 2)], color="#7a4b8f", rwidth=0.9)
        if hi - lo <= 12:
            ax.set_xticks(range(lo, hi + 1))
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.hist(xs, bins=min(30, max(5, len(xs) // 5)), color="#7a4b8f")
    ax.set_xlabel(label)
    ax.set_ylabel("прогонов" if ru else "runs")
    ax.set_title(("Распределение по прогонам: " if ru else "Over the runs: ") + label)


def _curves(ax: Axes, summary: Summary, ru: bool) -> None:
    kind = summary.kind
    days = summary.step >= 24 * 60
    scale = summary.step / (24 * 60) if days else summary.step / 60
    for name in kind.curves:
        band = summary.series.get(name)
        if band is None:
            continue
        xs = [i * scale for i in range(len(band.mean))]
        (line,) = ax.plot(xs, band.mean, label=kind.series[name][1 if ru else 0])
        low = [m if math.isnan(v) else v for v, m in zip(band.low, band.mean, strict=True)]
        high = [m if math.isnan(v) else v for v, m in zip(band.high, band.mean, strict=True)]
        ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    if days:
        ax.set_xlabel("дни" if ru else "days")
    else:
        ax.set_xlabel("часы" if ru else "hours")
    ax.set_ylabel("персонажей / мест (среднее, ДИ)" if ru else "characters / places (mean, CI)")
    ax.set_title("Во времени" if ru else "Over time")
    ax.legend(loc="best", fontsize="small")


def plot_sweep(
    labels: list[str],
    estimates: list[tuple[float, float, float]],
    metric: str,
    path: Path,
    title: str = "",
) -> Path:
    """One metric per sweep point, with its interval."""
    fmt = check_path(path)
    fig = _figure(max(6.0, 0.7 * len(labels) + 2), 4.4)
    ax = fig.subplots()
    xs = list(range(len(labels)))
    means = [e[0] for e in estimates]
    below = [0.0 if math.isnan(e[1]) else e[0] - e[1] for e in estimates]
    above = [0.0 if math.isnan(e[2]) else e[2] - e[0] for e in estimates]
    ax.errorbar(xs, means, yerr=[below, above], fmt="o", capsize=4, color="#7a4b8f")
    ax.set_xticks(xs, labels, rotation=30, ha="right", fontsize="small")
    ax.set_ylabel(metric)
    if title:
        ax.set_title(title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format=fmt, dpi=110)
    return path
