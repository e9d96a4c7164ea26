"""``lazaretto odds``: exact odds of dice expressions and of the rulesets' rolls.

``lazaretto odds 3d6`` is short for ``lazaretto odds dice 3d6``; the other subcommands
ask a ruleset (``check``, ``injury``, ``sleep``, ``interrupted-sleep``, ``theft``,
``lockpick``, ``torture``). Each prints a table of fractions and percentages, or
``--json``, and ``--plot FILE.png|FILE.svg`` draws a bar chart. The calculations live
in :mod:`lazaretto.odds`; this module only reads options and prints, and imports the
calculations lazily so the command line starts quickly.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from typer.core import TyperGroup

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import get_env, guarded, require_sim
from lazaretto.core.errors import InvalidInput

if TYPE_CHECKING:
    from lazaretto.odds.result import Odds


class OddsGroup(TyperGroup):
    """A group whose first argument may be a dice expression instead of a subcommand:
    ``odds 3d6`` runs ``odds dice 3d6``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # ctx: Typer's Click context
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["dice", *args]
        return super().parse_args(ctx, args)


odds_app = typer.Typer(
    cls=OddsGroup,
    no_args_is_help=True,
    help="Exact odds: `odds EXPRESSION` (e.g. `odds 4d6kh3`) or a ruleset's roll below. "
    "/ Точные шансы: `odds ВЫРАЖЕНИЕ` или бросок набора правил.",
)

PlotOpt = Annotated[
    Path | None,
    typer.Option("--plot", help="also draw a bar chart to this .png or .svg file"),
]
ParamOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param", help="override a ruleset parameter as a campaign would: NAME=VALUE (repeatable)"
    ),
]


def overrides(pairs: list[str] | None) -> dict[str, Any]:
    """``NAME=VALUE`` pairs as parameter overrides (values read as YAML: 3, true, [19, 20])."""
    import yaml

    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidInput(
                f"--param {pair!r}: use NAME=VALUE", ru=f"--param {pair!r}: формат ИМЯ=ЗНАЧЕНИЕ"
            )
        out[name.strip()] = yaml.safe_load(value)
    return out


def show(
    odds: Odds, *, as_json: bool, plot: Path | None, extra: dict[str, Any] | None = None
) -> None:
    """Print ``odds`` as a table (or JSON) and draw the chart if asked."""
    from lazaretto.cli.render import plain_table
    from lazaretto.odds.result import percent

    env = get_env()
    data = {**odds.to_dict(env.lang), **(extra or {})}
    if plot is not None:  # drawn first: a refused file leaves one error line, no table
        from lazaretto.odds.plot import plot as draw

        require_sim("matplotlib")
        draw(odds, plot, env.lang)
        data["plot"] = str(plot)
    if as_json:
        env.emit_json(data)
        return
    env.say(odds.question.pick(env.lang))
    peak = max((o.probability for o in odds.outcomes), default=0) or 1
    rows = [
        [
            o.label.pick(env.lang),
            str(o.probability),
            f"{percent(o.probability):.2f}",
            "█" * round(30 * o.probability / peak),
        ]
        for o in odds.outcomes
    ]
    headers = [odds.axis.label.pick(env.lang), env.tr("probability", "вероятность"), "%", ""]
    env.say(plain_table(headers, rows))
    for e in odds.events:
        env.say(f"{e.label.pick(env.lang)}: {e.probability} = {percent(e.probability):.2f}%")
    if odds.mean is not None:
        env.say(env.tr("mean", "среднее") + f" {float(odds.mean):.3f}")
    for note in odds.notes:
        env.say(f"* {note.pick(env.lang)}")
    if odds.rule_ids:
        env.say(env.tr("rules: ", "правила: ") + ", ".join(dict.fromkeys(odds.rule_ids)))
    if plot is not None:
        env.say(env.tr(f"chart: {plot}", f"график: {plot}"))


@odds_app.command("dice")
@guarded
def dice_cmd(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="EXPRESSION",
            help="e.g. 3d6, 4d6kh3, 1d20 + 5 (quote a comparison: '2d20kh1 + 3 >= 15')",
        ),
    ],
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """Every total of a dice expression (and the chance of success, for a comparison)."""
    from lazaretto.odds.dice import dice_odds

    expression = " ".join(words)
    odds = dice_odds(expression)
    extra: dict[str, Any] = {"expression": expression}
    success = [e for e in odds.events if e.key == "success"]
    if success:
        extra["success"] = {"probability": str(success[0].probability),
                            "percent": float(success[0].probability * 100)}  # fmt: skip
    show(odds, as_json=as_json, plot=plot, extra=extra)


@odds_app.command("check")
@guarded
def check_cmd(
    ruleset: Annotated[
        Literal["fantasy-server", "ide4-survival"],
        typer.Option(
            help="whose check and criticals: fantasy-server (d20) or ide4-survival (d100)"
        ),
    ],
    bonus: Annotated[
        int | None,
        typer.Option(help="fantasy-server: all added to the d20 (stat, artifacts, modifiers)"),
    ] = None,
    threshold: Annotated[
        str | None,
        typer.Option(help="fantasy-server: a number, or medium, hard, heavy (A-S-02)"),
    ] = None,
    against: Annotated[
        int | None,
        typer.Option(help="fantasy-server: an opposed roll against this defender's bonus"),
    ] = None,
    reroll: Annotated[
        bool, typer.Option(help="fantasy-server: a repeated attempt (S-CRIT-06)")
    ] = False,
    difficulty: Annotated[
        int | None, typer.Option(help="ide4-survival: the difficulty [N] after every shift")
    ] = None,
    triumph_as_success: Annotated[
        bool,
        typer.Option(help="ide4-survival: a Triumph declared to count as a Success (I-TRAVEL-09)"),
    ] = False,
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """A check with the ruleset's criticals: against a threshold, or opposed."""
    from lazaretto.odds import checks

    given = overrides(param)
    if ruleset == "ide4-survival":
        if bonus is not None or threshold is not None or against is not None or reroll:
            raise _wrong_options("ide4-survival", "--difficulty [--triumph-as-success]")
        if difficulty is None:
            raise _wrong_options("ide4-survival", "--difficulty")
        odds = checks.ide4_check_odds(
            difficulty, triumph_counts_as_success=triumph_as_success, overrides=given
        )
    else:
        if difficulty is not None or triumph_as_success:
            raise _wrong_options("fantasy-server", "--bonus with --threshold or --against")
        if (threshold is None) == (against is None):
            raise _wrong_options("fantasy-server", "--bonus with --threshold or --against")
        if against is not None:
            odds = checks.fantasy_contest_odds(bonus or 0, against, overrides=given)
        else:
            assert threshold is not None
            odds = checks.fantasy_check_odds(bonus or 0, threshold, reroll=reroll, overrides=given)
    show(odds, as_json=as_json, plot=plot)


def _wrong_options(ruleset: str, wanted: str) -> InvalidInput:
    return InvalidInput(
        f"{ruleset} checks take {wanted}",
        ru=f"Проверки {ruleset} задаются так: {wanted}",
        tip="See `lazaretto odds check --help`.",
        tip_ru="Смотрите `lazaretto odds check --help`.",
    )


@odds_app.command("injury")
@guarded
def injury_cmd(
    damage: Annotated[str, typer.Option(help="the damage expression, e.g. 2d6+3")],
    con: Annotated[int, typer.Option(help="Constitution score (combat caution, D-SEV-01)")],
    proficiency: Annotated[int, typer.Option(help="proficiency bonus")],
    level: Annotated[
        int | None, typer.Option("--level", "--character-level", help="character level")
    ] = None,
    cr: Annotated[int | None, typer.Option(help="a monster's challenge rating, for level")] = None,
    hit_dice: Annotated[int | None, typer.Option(help="a monster's hit dice, for level")] = None,
    hp: Annotated[
        int | None, typer.Option(help="hit points before the hit (unknown: every hit counts)")
    ] = None,
    hp_max: Annotated[int | None, typer.Option(help="maximum hit points (default: --hp)")] = None,
    critical: Annotated[bool, typer.Option(help="a critical hit (D-COND-01)")] = False,
    enemy: Annotated[
        bool, typer.Option(help="an enemy: only an injury attempt at half HP (D-INF-02)")
    ] = False,
    equal_exchange: Annotated[
        bool, typer.Option(help="the defender uses Equal Exchange (D-DEF-03)")
    ] = False,
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """dnd5e-injuries: no injury, light, medium or heavy for a damage roll."""
    from lazaretto.odds.injury import injury_odds

    odds = injury_odds(
        damage,
        con=con,
        proficiency=proficiency,
        level=level,
        cr=cr,
        hit_dice=hit_dice,
        hp=hp,
        hp_max=hp_max,
        critical=critical,
        enemy=enemy,
        equal_exchange=equal_exchange,
        overrides=overrides(param),
    )
    show(odds, as_json=as_json, plot=plot)


CampOpt = Annotated[Literal["normal", "bad"], typer.Option(help="the camp the GM set (I-SLEEP-03)")]


@odds_app.command("sleep")
@guarded
def sleep_cmd(
    pick: Annotated[
        Literal["highest", "lowest"], typer.Option(help="which die of the 3d10 is picked")
    ] = "highest",
    camp: CampOpt = "normal",
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """ide4-survival: the hours of a planned night (3d10, one die picked) and its effects."""
    from lazaretto.odds.sleep import sleep_odds

    show(sleep_odds(pick=pick, camp=camp, overrides=overrides(param)), as_json=as_json, plot=plot)


@odds_app.command("interrupted-sleep")
@guarded
def interrupted_sleep_cmd(
    planned: Annotated[int, typer.Option(help="the hours planned (the die picked)")],
    camp: CampOpt = "normal",
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """ide4-survival: the hours of an interrupted night (2d10, highest die, at most planned)."""
    from lazaretto.odds.sleep import interrupted_sleep_odds

    odds = interrupted_sleep_odds(planned, camp=camp, overrides=overrides(param))
    show(odds, as_json=as_json, plot=plot)


@odds_app.command("theft")
@guarded
def theft_cmd(
    thief: Annotated[int, typer.Option(help="the thief's REF bonus (artifacts, withdrawal)")],
    victim: Annotated[int, typer.Option(help="the victim's PER bonus (before the +3)")],
    victim_sees: Annotated[bool, typer.Option(help="the victim sees the thief: +6")] = False,
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """fantasy-server: a theft — stolen, caught red-handed, or caught and fallen."""
    from lazaretto.odds.crime import theft_odds

    odds = theft_odds(thief, victim, victim_sees=victim_sees, overrides=overrides(param))
    show(odds, as_json=as_json, plot=plot)


@odds_app.command("lockpick")
@guarded
def lockpick_cmd(
    stat: Annotated[
        int, typer.Option(help="the REF (lockpicks) or STR (force) bonus added to the d20")
    ] = 0,
    method: Annotated[
        Literal["lockpicks", "strength_unarmed", "strength_tool", "firearm", "explosives", "acid"],
        typer.Option(help="how the door is broken open"),
    ] = "lockpicks",
    threshold: Annotated[
        int | None, typer.Option(help="the door's own threshold (default: the ruleset's)")
    ] = None,
    reinforced: Annotated[bool, typer.Option(help="a reinforced door (S-CRIME-30)")] = False,
    reroll: Annotated[bool, typer.Option(help="a repeated attempt (S-CRIT-06)")] = False,
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """fantasy-server: breaking a door or lock open."""
    from lazaretto.odds.crime import lockpick_odds

    odds = lockpick_odds(
        stat,
        method=method,
        threshold=threshold,
        reinforced=reinforced,
        reroll=reroll,
        overrides=overrides(param),
    )
    show(odds, as_json=as_json, plot=plot)


@odds_app.command("torture")
@guarded
def torture_cmd(
    torturer: Annotated[int, typer.Option(help="the torturer's STR or DET bonus")],
    victim: Annotated[int, typer.Option(help="the victim's WIL or DET bonus")],
    rounds: Annotated[
        int | None, typer.Option(help="rounds run (default: the most allowed, S-TORT-05)")
    ] = None,
    param: ParamOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
) -> None:
    """fantasy-server: a torture session — how many questions are won."""
    from lazaretto.odds.crime import torture_odds

    odds = torture_odds(torturer, victim, rounds=rounds, overrides=overrides(param))
    show(odds, as_json=as_json, plot=plot)


def register(app: typer.Typer) -> None:
    """Attach ``odds`` and its subcommands to the main app."""
    app.add_typer(odds_app, name="odds")
