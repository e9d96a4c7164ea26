"""A bar chart of an :class:`~lazaretto.odds.result.Odds`, written to PNG or SVG.

matplotlib is imported only here and only when a chart is drawn (with the
non-interactive Agg backend), so the command line starts quickly and works on a
machine without a display.
"""

from __future__ import annotations

from pathlib import Path

from lazaretto.core.errors import InvalidInput
from lazaretto.odds.result import Odds

FORMATS = (".png", ".svg")
"""The file types a chart may be written as, by suffix."""
MAX_LABELLED_BARS = 24
"""Up to this many bars each carry its percentage; longer charts would be unreadable."""
COLOUR = "#4c72b0"


def plot(odds: Odds, path: Path, lang: str = "en") -> Path:
    """Draw the outcomes of ``odds`` as bars of percent and write them to ``path``.

    Raises:
        InvalidInput: the suffix is not ``.png`` or ``.svg``, or the file cannot be written.
    """
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise InvalidInput(
            f"Cannot draw a chart as {path.name!r}: name a .png or .svg file",
            ru=f"Нельзя сохранить график как {path.name!r}: укажите файл .png или .svg",
        )
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    percents = [float(o.probability * 100) for o in odds.outcomes]
    few = len(percents) <= MAX_LABELLED_BARS
    figure = Figure(figsize=(max(6.0, min(0.45 * len(percents), 12.0)), 4.5), layout="constrained")
    axes = figure.add_subplot()
    if odds.axis.numeric:  # bars at their values; matplotlib thins the ticks of long axes
        xs = [int(o.key) for o in odds.outcomes]
        bars = axes.bar(xs, percents, color=COLOUR)
        if few:
            axes.set_xticks(xs, [str(x) for x in xs])
    else:
        xs = list(range(len(percents)))
        bars = axes.bar(xs, percents, color=COLOUR)
        axes.set_xticks(xs, [o.label.pick(lang) for o in odds.outcomes], fontsize=8)
    if few:
        axes.bar_label(bars, labels=[f"{p:.3g}%" for p in percents], fontsize=8)
    axes.set_xlabel(odds.axis.label.pick(lang))
    axes.set_ylabel("%")
    axes.set_title(odds.question.pick(lang), fontsize=10)
    axes.set_ylim(0, max(percents, default=0) * 1.15 or 1)
    try:
        figure.savefig(path, format=suffix[1:])
    except OSError as exc:
        raise InvalidInput(
            f"Cannot write the chart to {str(path)!r}: {exc.strerror or exc}",
            ru=f"Не удалось записать график в {str(path)!r}: {exc.strerror or exc}",
        ) from exc
    return path
