"""``lazaretto act ACTION``: commands generated from the rulesets' action declarations.

Each action's Pydantic input model becomes the command's options: ``--field VALUE``
(``--flag/--no-flag`` for booleans, repeatable for lists). A list of objects takes
``key=value,key=value`` or JSON per item. ``--input JSON`` passes the whole payload.
Every installed ruleset's actions are offered; the campaign's ruleset validates them.
"""

from __future__ import annotations

import difflib
import inspect
import json
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from typer.core import TyperGroup

from lazaretto.cli.env import get_env, guarded
from lazaretto.cli.render import event_dict, event_line
from lazaretto.core.clock import parse_time
from lazaretto.core.errors import InvalidInput, NotFound
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import ActionSpec, QuerySpec, Role


def _inner(annotation: Any) -> tuple[Any, bool]:
    """The base type and whether it is a list (Optional is unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _inner(args[0])
    if origin is list:
        return _inner(typing.get_args(annotation)[0])[0], True
    if origin is typing.Literal:  # choices: typed like their values (Literal[800, 1000] -> int)
        return type(typing.get_args(annotation)[0]), False
    return annotation, False


def _item(model: type[BaseModel], text: str) -> Any:
    """One list item of objects: JSON, ``k=v,k=v`` or the first field's value."""
    text = text.strip()
    if text.startswith(("{", "[")):
        return json.loads(text)
    if "=" in text:
        return dict(part.split("=", 1) for part in text.split(",") if part)
    return {next(iter(model.model_fields)): text}


def _param(name: str, info: FieldInfo) -> inspect.Parameter:
    """The Typer option of one input field (every option optional: Pydantic decides)."""
    base, many = _inner(info.annotation)
    flag = "--" + name.replace("_", "-")
    help_text = (info.description or "") + (" (required)" if info.is_required() else "")
    if base is bool and not many:
        option = typer.Option(f"{flag}/--no-{name.replace('_', '-')}", help=help_text)
        annotation: Any = bool | None
    elif isinstance(base, type) and issubclass(base, BaseModel):
        option = typer.Option(flag, help=help_text + " — repeat; each key=value,... or JSON")
        annotation = list[str] | None
    else:
        py = base if base in (int, float) else str
        option = typer.Option(flag, help=help_text)
        annotation = (list[py] if many else py) | None  # type: ignore[valid-type]
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[annotation, option]
    )


def _payload(spec: ActionSpec[Any] | QuerySpec[Any], params: dict[str, Any]) -> dict[str, Any]:
    raw: dict[str, Any] = {}
    if params.get("input_json"):
        try:
            given = json.loads(params["input_json"])
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                f"--input is not valid JSON: {exc.msg}", ru=f"--input — не JSON: {exc.msg}"
            ) from exc
        if not isinstance(given, dict):
            raise InvalidInput(
                "--input must be a JSON object: {\"field\": value, ...}",
                ru="--input должен быть JSON-объектом: {\"поле\": значение, ...}",
            )
        raw.update(given)
    for name, info in spec.input.model_fields.items():
        value = params.get(name)
        if value is None or value == ():
            continue
        base, many = _inner(info.annotation)
        if many and isinstance(base, type) and issubclass(base, BaseModel):
            items: list[Any] = []
            for v in value:
                try:
                    parsed = _item(base, v)
                except (json.JSONDecodeError, ValueError) as exc:
                    raise InvalidInput(
                        f"--{name}: cannot read {v!r}", ru=f"--{name}: не удалось прочитать {v!r}"
                    ) from exc
                items.extend(parsed if isinstance(parsed, list) else [parsed])
            value = items
        elif many:
            value = list(value)
        raw[name] = value
    return raw


EXTRA = [
    inspect.Parameter(
        "x_at",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            str | None, typer.Option("--at", help="campaign time: HH:MM[:SS], ISO or +10m")
        ],
    ),
    inspect.Parameter(
        "x_actor",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            str | None, typer.Option("--as", help="who acts (recorded in the log)")
        ],
    ),
    inspect.Parameter(
        "x_role",
        inspect.Parameter.KEYWORD_ONLY,
        default=Role.MASTER,
        annotation=Annotated[Role, typer.Option("--role", help="the actor's role")],
    ),
    inspect.Parameter(
        "input_json",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            str | None, typer.Option("--input", help="the whole input as a JSON object")
        ],
    ),
    inspect.Parameter(
        "as_json",
        inspect.Parameter.KEYWORD_ONLY,
        default=False,
        annotation=Annotated[bool, typer.Option("--json", help="print events as JSON")],
    ),
]


def _runner(name: str) -> Callable[..., None]:
    def run(**params: Any) -> None:
        env = get_env()
        as_json = bool(params.pop("as_json", False))
        campaign = env.campaign_name()
        rs, state, _ = env.service.load(campaign)
        spec = rs.actions.get(name)
        if spec is None:
            raise InvalidInput(
                f"The campaign's ruleset {rs.id} has no action {name!r}",
                ru=f"В правилах кампании ({rs.id}) нет действия {name!r}",
            )
        assert state.clock is not None
        when = params.pop("x_at")
        at = parse_time(when, reference=state.clock.now()) if when else None
        role = Role(params.pop("x_role") or Role.MASTER)
        actor = params.pop("x_actor") or role.value
        events = env.service.act(
            campaign, name, _payload(spec, params), actor=actor, role=role, at=at
        )
        if as_json:
            env.emit_json({"action": name, "events": [event_dict(e) for e in events]})
            return
        _, state, _ = env.service.load(campaign)
        timers: dict[str, dict[str, Any]] = {}
        for ev in events:
            line = event_line(rs, state, ev, env.lang, timers)
            if line:
                env.console.print(line, markup=False)

    return run


class ActGroup(TyperGroup):
    """The ``act`` group: an unknown action is a one-line error like every other."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            known = ", ".join(sorted(self.commands))
            hint = difflib.get_close_matches(args[0], list(self.commands), n=1)
            get_env().fail(
                NotFound(
                    f"No action {args[0]!r}"
                    + (f" (did you mean {hint[0]!r}?)" if hint else "")
                    + f"; actions: {known}",
                    ru=f"Нет действия {args[0]!r}"
                    + (f" (может быть, {hint[0]!r}?)" if hint else "")
                    + f"; действия: {known}",
                ),
                "--json" in args,
            )
        return super().resolve_command(ctx, args)


def _query_runner(name: str) -> Callable[..., None]:
    def run(**params: Any) -> None:
        env = get_env()
        as_json = bool(params.pop("as_json", False))
        campaign = env.campaign_name()
        rs, _, _ = env.service.load(campaign)
        spec = rs.queries.get(name)
        if spec is None:
            raise InvalidInput(
                f"The campaign's ruleset {rs.id} has no query {name!r}",
                ru=f"В правилах кампании ({rs.id}) нет запроса {name!r}",
            )
        result = env.service.query(campaign, name, _payload(spec, params), lang=env.lang)
        if as_json:
            env.emit_json({"query": name, **result})
            return
        env.console.print(str(result.get("summary", "")), markup=False)
        for key, value in result.items():
            if key not in ("summary", "rule_ids"):
                shown = (
                    value
                    if isinstance(value, str)
                    else json.dumps(value, ensure_ascii=False, default=str)
                )
                env.console.print(f"  {key}: {shown}", markup=False)
        if result.get("rule_ids"):
            env.console.print(f"  [{', '.join(result['rule_ids'])}]", markup=False)

    return run


QUERY_EXTRA = [EXTRA[-1], EXTRA[-2]]  # --json, --input


def _attach(group: typer.Typer, kind: str) -> None:
    specs: dict[str, list[Any]] = {}
    for rs in rulesets().values():
        for name, spec in (rs.actions if kind == "act" else rs.queries).items():
            specs.setdefault(name, []).append(spec)
    for name, same in sorted(specs.items()):
        fields: dict[str, FieldInfo] = {}
        for spec in same:
            for fname, info in spec.input.model_fields.items():
                fields.setdefault(fname, info)
        fn = _runner(name) if kind == "act" else _query_runner(name)
        fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [_param(n, f) for n, f in fields.items()] + (EXTRA if kind == "act" else QUERY_EXTRA)
        )
        fn.__name__ = name.replace("-", "_")
        first = same[0]
        rules = f" [{', '.join(first.rule_ids)}]" if first.rule_ids else ""
        group.command(
            name,
            help=f"{first.summary_en} / {first.summary_ru}{rules}",
            short_help=first.summary_en,
        )(guarded(fn))


def register(app: typer.Typer, *, populate: bool = True) -> None:
    """Attach ``act NAME`` and ``query NAME`` for every action and query of every
    installed ruleset (only the empty groups unless ``populate``)."""
    act = typer.Typer(
        cls=ActGroup,
        no_args_is_help=True,
        help="Run an action of the campaign's ruleset. / Действия правил кампании.",
    )
    query = typer.Typer(
        cls=ActGroup,
        no_args_is_help=True,
        help="Ask the campaign's ruleset a question (changes nothing). / Запросы к правилам.",
    )
    if populate:
        _attach(act, "act")
        _attach(query, "query")
    app.add_typer(act, name="act")
    app.add_typer(query, name="query")
