"""``campaign`` and ``character`` commands."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import typer

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import get_env, guarded
from lazaretto.cli.render import hhmm
from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode, parse_time
from lazaretto.core.errors import InvalidInput
from lazaretto.core.registry import rulesets

campaign_app = typer.Typer(no_args_is_help=True, help="Create, list and show campaigns.")
character_app = typer.Typer(no_args_is_help=True, help="Add, list and show characters.")

#: The clock modes in Russian (``--clock`` takes the English names).
CLOCK_RU = {"manual": "ручные", "realtime": "реального времени"}


def _params(pairs: list[str]) -> dict[str, Any]:
    import yaml

    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise InvalidInput(
                f"--param {pair!r}: use NAME=VALUE", ru=f"--param {pair!r}: формат ИМЯ=ЗНАЧЕНИЕ"
            )
        key, value = pair.split("=", 1)
        try:
            out[key.strip()] = yaml.safe_load(value)
        except (yaml.YAMLError, ValueError) as exc:  # ValueError: an int of 5,000 digits
            problem = str(getattr(exc, "problem", None) or exc).splitlines()[0]
            raise InvalidInput(
                f"--param {key.strip()}: not a value ({problem})",
                ru=f"--param {key.strip()}: не значение ({problem})",
            ) from exc
    return out


@campaign_app.command("create")
@guarded
def campaign_create(
    name: Annotated[str, typer.Argument(help="campaign name (letters, digits, - _ .)")],
    ruleset: Annotated[
        str, typer.Option(help="ruleset id (see `campaign rulesets`)")
    ] = "warhammer-larp",
    clock: Annotated[
        ClockMode, typer.Option(help="manual (tabletop, tests) or realtime (LARP)")
    ] = ClockMode.MANUAL,
    start: Annotated[
        str | None, typer.Option(help="campaign start time, ISO or HH:MM (default: now)")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="dice seed (default: random)")] = None,
    param: Annotated[
        list[str] | None, typer.Option(help="override a ruleset parameter: NAME=VALUE (repeatable)")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a campaign."""
    env = get_env()
    now = datetime.now().replace(microsecond=0)
    begin = parse_time(start, reference=now) if start else now
    info = env.service.create_campaign(
        name, ruleset, clock=clock, start=begin, seed=seed, params=_params(param or [])
    )
    if as_json:
        env.emit_json(info.to_dict())
    else:
        env.show(
            env.tr(
                f"Campaign {name} created ({info.ruleset}, {clock.value} clock, "
                f"{info.now:%Y-%m-%d %H:%M:%S})",
                f"Кампания {name} создана ({info.ruleset}, часы {CLOCK_RU[clock.value]}, "
                f"{info.now:%Y-%m-%d %H:%M:%S})",
            )
        )


@campaign_app.command("list")
@guarded
def campaign_list(as_json: JsonOpt = False) -> None:
    """List campaigns."""
    from lazaretto.service.repair import DamagedCampaign

    env = get_env()
    infos = env.service.campaigns()
    if as_json:
        env.emit_json([i.to_dict() for i in infos])
        return
    rows = []
    for i in infos:
        if isinstance(i, DamagedCampaign):  # its state cannot be read: said below the table
            rows.append([i.id, i.ruleset, env.tr("damaged", "повреждена"), "", "", ""])
            continue
        rows.append(
            [
                i.id,
                i.ruleset,
                (CLOCK_RU[i.clock.mode.value] if env.lang == "ru" else i.clock.mode.value)
                + (" ⏸" if i.clock.paused else ""),
                f"{i.now:%Y-%m-%d %H:%M:%S}",
                str(i.characters),
                str(i.pending_timers),
            ]
        )
    headers = [env.tr("campaign", "кампания"), env.tr("ruleset", "правила")]
    headers += [env.tr("clock", "часы"), env.tr("now", "время")]
    env.table([*headers, env.tr("characters", "персонажи"), env.tr("timers", "отсчёты")], rows)
    for i in infos:
        if isinstance(i, DamagedCampaign):
            env.show(f"{i.id}: {i.listed(env.lang)}")


@campaign_app.command("show")
@guarded
def campaign_show(
    name: Annotated[str | None, typer.Argument()] = None, as_json: JsonOpt = False
) -> None:
    """Show a campaign: clock, characters, parameters."""
    env = get_env()
    info = env.service.info(name or env.campaign_name())
    rs, state, _ = env.service.load(info.id)
    data = {**info.to_dict(), "params": rs.campaign_params(state.params).model_dump()}
    if as_json:
        env.emit_json(data)
        return
    for key in (
        "id",
        "ruleset",
        "clock",
        "paused",
        "now",
        "characters",
        "pending_timers",
        "events",
    ):
        env.show(f"{key:15} {data[key]}")
    overrides = state.params or {}
    env.show(f"{'overrides':15} {overrides or '-'}")


@campaign_app.command("rulesets")
@guarded
def campaign_rulesets(as_json: JsonOpt = False) -> None:
    """List installed rulesets."""
    env = get_env()
    rows = [
        {
            "id": r.id,
            "title": env.tr(r.title_en, r.title_ru),
            "documents": list(r.documents),
            "actions": len(r.actions),
        }
        for r in rulesets().values()
    ]
    if as_json:
        env.emit_json(rows)
        return
    for r in rows:
        env.show(f"{r['id']:20} {r['title']}")


@character_app.command("add")
@guarded
def character_add(
    id: Annotated[str, typer.Argument(help="short id, e.g. a passport number")],
    name: Annotated[str | None, typer.Option(help="character name")] = None,
    hits: Annotated[
        int | None,
        typer.Option(min=0, max=1000, help="hits (хиты); default: the ruleset's starting hits"),
    ] = None,
    race: Annotated[str, typer.Option()] = "",
    age: Annotated[int | None, typer.Option(min=0, max=100000)] = None,
    skill: Annotated[
        list[str] | None, typer.Option(help="a skill, e.g. Healer (repeatable)")
    ] = None,
    player: Annotated[str | None, typer.Option(help="the player's name or account")] = None,
    stat: Annotated[
        list[str] | None, typer.Option(help="a ruleset stat: NAME=NUMBER (repeatable)")
    ] = None,
    actor: Annotated[
        str | None, typer.Option("--as", help="who adds it (recorded in the log)")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Add a character to the campaign."""
    env = get_env()
    if not id or len(id) > 40:
        raise InvalidInput("Character id must be 1-40 characters", ru="Id персонажа: 1-40 символов")
    stats: dict[str, int] = {}
    for pair in stat or []:
        key, _, value = pair.partition("=")
        try:
            stats[key.strip()] = int(value)
        except ValueError:
            raise InvalidInput(
                f"--stat {pair!r}: use NAME=NUMBER", ru=f"--stat {pair!r}: формат ИМЯ=ЧИСЛО"
            ) from None
    campaign = env.campaign_name()
    hits = env.service.ruleset(campaign).starting_hits(
        env.service.load(campaign)[1].params, hits
    )
    ch = Character(
        id=id,
        name=name or id,
        hits_max=hits,
        hits=hits,
        race=race,
        age=age,
        skills=list(skill or []),
        player=player,
        stats=stats,
    )
    # the record names who added it, as an action's names who acted (``act --as``)
    env.service.add_character(campaign, ch, actor=actor or "master")
    if as_json:
        env.emit_json(ch.model_dump(mode="json"))
    else:
        env.show(
            env.tr(
                f"Added {ch.name} ({id}), {hits} hits", f"Добавлен {ch.name} ({id}), хитов: {hits}"
            )
        )


def _cards(env: Any) -> tuple[list[dict[str, Any]], datetime | None]:
    """Every character's card, and the campaign's time they were read at."""
    rs, state, _ = env.service.load(env.campaign_name())
    now = state.clock.now() if state.clock is not None else None
    if rs.describe is None:
        return [c.model_dump(mode="json") for c in state.characters.values()], now
    return [rs.describe(state, cid, env.lang) for cid in state.characters], now


@character_app.command("list")
@guarded
def character_list(as_json: JsonOpt = False) -> None:
    """List characters with their state."""
    env = get_env()
    env.catch_up(env.campaign_name())
    cards, now = _cards(env)
    if as_json:
        env.emit_json(cards)
        return
    rows = []
    for c in cards:
        deadlines = [x["deadline"] for x in c.get("conditions", []) if x.get("deadline")]
        rows.append(
            [
                c["id"],
                c["name"],
                f"{c['hits']}/{c['hits_max']}",
                c.get("state_label", ""),
                hhmm(min(deadlines), now) if deadlines else "",
            ]
        )
    headers = ["id", env.tr("name", "имя"), env.tr("hits", "хиты"), env.tr("state", "состояние")]
    env.table([*headers, env.tr("next change", "след. изменение")], rows)


@character_app.command("show")
@guarded
def character_show(id: Annotated[str, typer.Argument()], as_json: JsonOpt = False) -> None:
    """Show a character's card: hits, conditions, countdowns, what they may do."""
    env = get_env()
    env.catch_up(env.campaign_name())
    rs, state, _ = env.load(env.campaign_name())  # on SQLite without SQLAlchemy
    from lazaretto.core.engine import find_character

    find_character(state, id)
    card = (
        rs.describe(state, id, env.lang)
        if rs.describe
        else state.characters[id].model_dump(mode="json")
    )
    if as_json:
        env.emit_json(card)
        return
    env.show(  # as Rich's console prints it, without importing Rich (issue 17)
        f"{card['name']} ({card['id']}) — {card.get('state_label', '')}, "
        f"{env.tr('hits', 'хиты')} {card['hits']}/{card['hits_max']}"
    )
    for c in card.get("conditions", []):
        now = state.clock.now() if state.clock is not None else None
        until = f" → {hhmm(c['deadline'], now)}" if c.get("deadline") else ""
        env.show(f"  • {c['label']} {env.tr('since', 'с')} {hhmm(c['started'], now)}{until}")
    if "allowed" in card:
        env.show(f"  {env.tr('may', 'может')}: {', '.join(card['allowed']) or '—'}")


def register(app: typer.Typer) -> None:
    """Attach these commands to the main app."""
    from lazaretto.cli.cmd_roster import attach  # `character import` (its own module)

    attach(character_app)
    app.add_typer(campaign_app, name="campaign")
    app.add_typer(character_app, name="character")
