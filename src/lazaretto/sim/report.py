"""The short text report of a simulation, in English or Russian.

Every interval in the report is over runs (runs are independent, so it is always
valid); the pooled share intervals, which assume independent trials inside a run too,
are in the JSON output only.
"""

from __future__ import annotations

import math

from lazaretto.sim.stats import Estimate
from lazaretto.sim.summary import Summary


def _num(x: float) -> str:
    if math.isnan(x):
        return "-"
    if abs(x) >= 100 or x == int(x):
        return f"{x:.0f}" if abs(x) >= 100 else f"{x:g}"
    return f"{x:.2f}"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x * 100:.1f}%"


def _interval(e: Estimate, fmt: str) -> str:
    f = _pct if fmt == "pct" else _num
    if math.isnan(e.low):
        return ""
    return f"[{f(e.low)}, {f(e.high)}]"


def report(summary: Summary, lang: str = "en") -> str:
    """A few lines: what was simulated, the estimates, the policy, refusals."""
    ru = lang == "ru"
    kind, s = summary.kind, summary.scenario
    level = f"{summary.level:.0%}"
    title = s.name or kind.describe(s, lang)
    lines = [title]
    if s.name:
        lines.append(kind.describe(s, lang))
    lines.append(
        f"Прогонов: {len(summary.runs)}, главное зерно {summary.seed}; интервалы {level}."
        if ru
        else f"{len(summary.runs)} runs, master seed {summary.seed}; {level} intervals."
    )
    width = max(len(m.ru if ru else m.en) for m in kind.table) + 2
    head = ("показатель", "среднее", f"ДИ {level}") if ru else ("", "mean", f"{level} CI")
    lines += ["", f"{head[0]:<{width}}{head[1]:>10}  {head[2]}"]
    for m in kind.table:
        e = summary.metrics[m.name]
        label = m.ru if ru else m.en
        fmt = "pct" if m.share is not None else "num"
        value = _pct(e.mean) if fmt == "pct" else _num(e.mean)
        lines.append(f"{label:<{width}}{value:>10}  {_interval(e, fmt)}".rstrip())
    lines += [
        "",
        "Решения, которые правила оставляют игрокам и мастерам, принимает симуляция:"
        if ru
        else "Decisions the rules leave to players and masters, made by the simulation:",
    ]
    lines += [f"  - {p[1] if ru else p[0]}" for p in kind.policy]
    if summary.refused:
        listed = ", ".join(f"{a} ×{n}" for a, n in sorted(summary.refused.items()))
        lines.append(
            f"Правила отклонили действия политики: {listed}."
            if ru
            else f"The ruleset refused some of the policy's actions: {listed}."
        )
    else:
        lines.append(
            "Правила не отклонили ни одного действия." if ru else "The ruleset refused no action."
        )
    return "\n".join(lines)
