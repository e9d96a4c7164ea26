"""``roll``: the dice engine from the command line (``odds`` lives in ``cmd_odds``)."""

from __future__ import annotations

import random
from typing import Annotated

import typer

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
    env.say(f"{data['expression']} = {data['total']}")
    for p in parts:
        env.say(f"  {p}")
    if data.get("success") is not None:
        env.say(
            env.tr(
                "  success" if data["success"] else "  failure",
                "  успех" if data["success"] else "  провал",
            )
        )


def register(app: typer.Typer) -> None:
    """Attach ``roll`` to the main app (``odds`` is :mod:`lazaretto.cli.cmd_odds`)."""
    app.command("roll")(guarded(roll_cmd))
