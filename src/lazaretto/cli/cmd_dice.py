"""``roll`` and ``odds``: the dice engine from the command line."""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.table import Table

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import get_env, guarded


def roll_cmd(
    expression: Annotated[str, typer.Argument(help="e.g. 4d6kh3, 1d20+5 >= 15")],
    seed: Annotated[int | None, typer.Option(help="seed for a reproducible roll")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll dice: every die is shown."""
    from lazaretto.core.dice import roll

    env = get_env()
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    result = roll(expression, rng)
    data = result.to_dict()
    if as_json:
        env.emit_json(data)
        return
    parts = []
    for d in data["dice"]:
        kept = d.get("kept")
        parts.append(
            f"{d['notation']}: {d['rolls']}"
            + (f" → {kept}" if kept is not None and kept != d["rolls"] else "")
        )
    env.console.print(f"{data['expression']} = {data['total']}", markup=False)
    for p in parts:
        env.console.print(f"  {p}", markup=False)
    if data.get("success") is not None:
        env.console.print(
            env.tr(
                "  success" if data["success"] else "  failure",
                "  успех" if data["success"] else "  провал",
            ),
            markup=False,
        )


def odds_cmd(
    expression: Annotated[str, typer.Argument(help="e.g. 3d6, 2d20kh1 >= 15")],
    as_json: JsonOpt = False,
) -> None:
    """Exact odds of every total (and of success, for a comparison)."""
    from lazaretto.core.dice import parse

    env = get_env()
    expr = parse(expression)
    dist = expr.distribution()
    data: dict[str, object] = {
        "expression": expression,
        "distribution": [
            {"total": k, "probability": str(v), "percent": float(v) * 100} for k, v in dist.items()
        ],
        "mean": float(sum(k * v for k, v in dist.items())),
    }
    success = None
    if any(op in expression for op in ("<", ">", "=")):
        success = expr.probability_of_success()
        data["success"] = {"probability": str(success), "percent": float(success) * 100}
    if as_json:
        env.emit_json(data)
        return
    table = Table(env.tr("total", "сумма"), env.tr("probability", "вероятность"), "%", "")
    peak = max(dist.values())
    for k, v in dist.items():
        table.add_row(str(k), str(v), f"{float(v) * 100:.2f}", "█" * round(30 * v / peak))
    env.console.print(table)
    env.console.print(
        env.tr(f"mean {data['mean']:.3f}", f"среднее {data['mean']:.3f}"), markup=False
    )
    if success is not None:
        env.console.print(
            env.tr(
                f"success: {success} = {float(success) * 100:.2f}%",
                f"успех: {success} = {float(success) * 100:.2f}%",
            ),
            markup=False,
        )


def register(app: typer.Typer) -> None:
    """Attach these commands to the main app."""
    app.command("roll")(guarded(roll_cmd))
    app.command("odds")(guarded(odds_cmd))
