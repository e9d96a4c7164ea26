"""``lazaretto act ACTION`` and ``query NAME``: commands generated from the declarations
of the campaign's ruleset.

Each action's Pydantic input model becomes the command's options: ``--field VALUE``
(``--flag/--no-flag`` for booleans, repeatable for lists). A list of objects takes
``key=value,key=value`` or JSON per item. ``--input JSON`` passes the whole payload.

Only the campaign's ruleset is loaded, and only the command asked for is built, when it
is asked for: ``act --help`` lists that ruleset's actions, an option another ruleset's
action of the same name has is refused with the list of this one's. With no campaign
chosen (none yet, or several and no ``--campaign``), the help lists every ruleset's
actions, one panel per ruleset.

On SQLite an action in order (at the campaign's present or ahead of it) is recorded
without SQLAlchemy (``cli/fastwrite.py``), writing the rows the service would write;
anything else — PostgreSQL, a record placed in the past, a database to migrate — goes
to the service. Either way the lines printed come from the state the action left. A
query reads the state on SQLite without SQLAlchemy too (``cli/fastread.py``).
"""

from __future__ import annotations

import difflib
import inspect
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from typer import _click
from typer.core import TyperCommand, TyperGroup

from lazaretto.cli.env import get_env, guarded
from lazaretto.cli.labels import FIELDS, field_label, value_label
from lazaretto.cli.render import event_dict, event_line, words
from lazaretto.core.clock import parse_time
from lazaretto.core.errors import InvalidInput, LazarettoError, NotFound
from lazaretto.core.events import Event
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import ActionSpec, QuerySpec, Role, Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.reading.fields import field_help, translations


def _inner(annotation: Any) -> tuple[Any, bool]:
    """The base type and whether it is a list (Optional is unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        kinds = {_inner(a) for a in args}
        if len(kinds) > 1:  # a number or a word (int | Literal["medium", ...]): Pydantic decides
            return str, any(many for _, many in kinds)
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


def _help(name: str, info: FieldInfo, lang: str) -> str:
    """The help of one input field's option in ``lang`` (the Russian from the forms'
    catalogue, ``reading/fields.py``); a field with no description is named by its
    label."""
    text = field_help(info, "ru") if lang == "ru" else info.description or ""
    if not text:
        pair = FIELDS.get(name) or (name.replace("_", " "), translations().labels.get(name))
        text = (pair[1] or pair[0]) if lang == "ru" else pair[0]
    if info.is_required():
        text += " (обязательно)" if lang == "ru" else " (required)"
    base, _ = _inner(info.annotation)
    if isinstance(base, type) and issubclass(base, BaseModel):
        text += (
            " — можно несколько раз; каждое key=value,... или JSON"
            if lang == "ru"
            else " — repeat; each key=value,... or JSON"
        )
    return text


def _param(name: str, info: FieldInfo) -> inspect.Parameter:
    """The Typer option of one input field (every option optional: Pydantic decides)."""
    base, many = _inner(info.annotation)
    flag = "--" + name.replace("_", "-")
    help_text = _help(name, info, "en")
    if base is bool and not many:
        option = typer.Option(f"{flag}/--no-{name.replace('_', '-')}", help=help_text)
        annotation: Any = bool | None
    elif isinstance(base, type) and issubclass(base, BaseModel):
        option = typer.Option(flag, help=help_text)
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
                '--input must be a JSON object: {"field": value, ...}',
                ru='--input должен быть JSON-объектом: {"поле": значение, ...}',
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
        "x_move_clock",
        inspect.Parameter.KEYWORD_ONLY,
        default=False,
        annotation=Annotated[
            bool,
            typer.Option(
                "--move-clock",
                help="a master's --at ahead of a manual clock moves the clock there",
            ),
        ],
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


@dataclass
class _Acted:
    """What an action did, for printing: the ruleset, the state after it, its events,
    its record and the corrections it caused (a record placed in the past)."""

    rs: Ruleset
    state: CampaignState
    events: list[Event]
    record: int | None
    corrections: list[dict[str, Any]] = field(default_factory=list)


def _asked(
    rs: Ruleset, state: CampaignState, name: str, params: dict[str, Any]
) -> tuple[dict[str, Any], str, Role, datetime | None, bool]:
    """The action's input, actor, role, campaign time (None: now) and whether the
    master confirmed that the time moves a manual clock (``--move-clock``), as typed."""
    spec = rs.actions.get(name)
    if spec is None:
        raise InvalidInput(
            f"The campaign's ruleset {rs.id} has no action {name!r}",
            ru=f"В правилах кампании ({rs.id}) нет действия {name!r}",
        )
    assert state.clock is not None
    params = dict(params)
    when = params.pop("x_at")
    at = parse_time(when, reference=state.clock.now()) if when else None
    role = Role(params.pop("x_role") or Role.MASTER)
    actor = params.pop("x_actor") or role.value
    moves_clock = bool(params.pop("x_move_clock", False))
    return _payload(spec, params), actor, role, at, moves_clock


def _act_fast(name: str, campaign: str, params: dict[str, Any]) -> _Acted | None:
    """The action recorded in SQLite without SQLAlchemy (``cli/fastwrite.py``), or None
    when the service must record it (not SQLite at the newest schema, a record placed
    in the past, anything unexpected: nothing is written then). The rules' refusals
    are raised as the service raises them."""
    from lazaretto.cli import fastwrite
    from lazaretto.service.placing import Draft

    env = get_env()
    if env.has_service:  # it migrated the database, or the read path could not answer:
        return None  # the service writes, as it always did
    change = fastwrite.open_change(env.db, campaign)
    if change is None:
        return None
    with change:
        raw, actor, role, at, moves = _asked(change.rs, change.state, name, params)
        draft = Draft("act", name, raw, actor=actor, role=role, at=at, moves_clock=moves)
        try:
            done = change.record(draft)
            if done is None:
                return None
            change.commit()
        except LazarettoError:
            raise
        except Exception:  # whatever it is, rolled back: the service's answer stands
            return None
    return _Acted(change.rs, done.state, done.events, done.no)


def _act_by_service(name: str, campaign: str, params: dict[str, Any]) -> _Acted:
    env = get_env()
    rs, state, _ = env.service.load(campaign)
    raw, actor, role, at, moves = _asked(rs, state, name, params)
    events = env.service.act(
        campaign, name, raw, actor=actor, role=role, at=at, moves_clock=moves
    )
    record = getattr(events, "record", None)
    _, state, _ = env.service.load(campaign)
    corrections = []
    if at is not None and record is not None:  # placed in the past: what it changed
        corrections = [
            c for c in env.service.corrections(campaign) if c["cause"]["record"] == record
        ]
    return _Acted(rs, state, list(events), record, corrections)


def _runner(name: str) -> Callable[..., None]:
    def run(**params: Any) -> None:
        env = get_env()
        as_json = bool(params.pop("as_json", False))
        campaign = env.campaign_name()
        done = _act_fast(name, campaign, params) or _act_by_service(name, campaign, params)
        if as_json:
            env.emit_json(
                {
                    "action": name,
                    "record": done.record,
                    "events": [event_dict(e) for e in done.events],
                }
            )
            return
        timers: dict[str, dict[str, Any]] = {}
        for ev in done.events:
            line = event_line(done.rs, done.state, ev, env.lang, timers)
            if line:
                env.say(line, one_line=True)
        if done.record is not None:
            record = done.record
            env.say(
                env.tr(
                    f"record {record} (undo: lazaretto undo {record})",
                    f"запись {record} (отменить: lazaretto undo {record})",
                ),
                one_line=True,
            )
        if done.corrections:
            from lazaretto.cli.cmd_history import correction_text

            for c in done.corrections:
                env.say(correction_text(done.rs, done.state, c, env.lang), one_line=True)

    return run


def _query_runner(name: str) -> Callable[..., None]:
    def run(**params: Any) -> None:
        env = get_env()
        as_json = bool(params.pop("as_json", False))
        campaign = env.campaign_name()
        from lazaretto.core import engine

        # read-only: on SQLite the state is read without SQLAlchemy (cli/fastread.py),
        # and answered as CampaignService.query answers
        rs, state, _ = env.load(campaign)
        spec = rs.queries.get(name)
        if spec is None:
            raise InvalidInput(
                f"The campaign's ruleset {rs.id} has no query {name!r}",
                ru=f"В правилах кампании ({rs.id}) нет запроса {name!r}",
            )
        result = engine.run_query(rs, state, name, _payload(spec, params), lang=env.lang)
        if as_json:
            env.emit_json({"query": name, **result})
            return
        env.say(str(result.get("summary", "")))
        label = value_label(rs, env.lang)
        for key, value in result.items():
            if key not in ("summary", "rule_ids"):
                shown = words(value, env.lang, label)
                # a key the ruleset names (a disease code: the disease's name) whose value
                # starts with that name is shown by the value alone, not named twice
                named = label(key)
                if named and shown.startswith(f"{named} "):
                    env.say(f"  {shown}", one_line=True)
                else:
                    env.say(f"  {field_label(rs, key, env.lang)}: {shown}", one_line=True)
        if result.get("rule_ids"):
            env.say(f"  [{', '.join(dict.fromkeys(result['rule_ids']))}]", one_line=True)

    return run


QUERY_EXTRA = [EXTRA[-1], EXTRA[-2]]  # --json, --input

EXTRA_RU = {
    "x_at": "время кампании: ЧЧ:ММ[:СС], ISO или +10m",
    "x_actor": "кто действует (записывается в журнал событий)",
    "x_role": "роль действующего",
    "x_move_clock": "--at позже ручных часов переводит часы туда (только мастер)",
    "input_json": "весь ввод одним JSON-объектом",
    "as_json": "вывести в JSON",
}
"""The Russian help of the options every action and query has."""


class ActionCommand(TyperCommand):
    """One action or query: an option its ruleset does not have is refused in one line
    that lists the options it does have."""

    ruleset_id = ""
    fields: dict[str, FieldInfo] = {}  # noqa: RUF012 - set per command, never changed

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help, its options described in Russian under ``--lang ru`` (read only
        when the help is asked for: an action that runs needs none of it)."""
        if get_env().lang == "ru":
            for param in self.params:
                name = param.name or ""
                ru = (
                    _help(name, self.fields[name], "ru")
                    if name in self.fields
                    else EXTRA_RU.get(name)
                )
                if ru is not None and hasattr(param, "help"):
                    param.help = ru
        super().format_help(ctx, formatter)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except _click.exceptions.NoSuchOption as exc:
            known = sorted(
                {o for p in self.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")}
            )
            where = self.ruleset_id or "?"
            get_env().fail(
                InvalidInput(
                    f"{self.name} in {where} has no option {exc.option_name}; "
                    f"its options: {', '.join(known)}",
                    ru=f"У {self.name} в {where} нет параметра {exc.option_name}; "
                    f"параметры: {', '.join(known)}",
                ),
                "--json" in args,
            )
            raise  # unreachable: fail exits


def _offered(env_campaign_rulesets: list[Ruleset], kind: str) -> dict[str, list[Any]]:
    """Each command name with its declarations (one per ruleset that has it)."""
    specs: dict[str, list[Any]] = {}
    for rs in env_campaign_rulesets:
        for name, spec in (rs.actions if kind == "act" else rs.queries).items():
            specs.setdefault(name, []).append((rs, spec))
    return dict(sorted(specs.items()))


def _build(kind: str, name: str, same: list[tuple[Ruleset, Any]]) -> _click.Command:
    """The command ``name`` from its declarations (several only when no campaign is
    chosen: the options are then the union, and the campaign's ruleset validates)."""
    fields: dict[str, FieldInfo] = {}
    for _, spec in same:
        for fname, info in spec.input.model_fields.items():
            fields.setdefault(fname, info)
    fn = _runner(name) if kind == "act" else _query_runner(name)
    fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [_param(n, f) for n, f in fields.items()] + (EXTRA if kind == "act" else QUERY_EXTRA)
    )
    fn.__name__ = name.replace("-", "_")
    first = same[0][1]
    rules = f" [{', '.join(first.rule_ids)}]" if first.rule_ids else ""
    where = ", ".join(rs.id for rs, _ in same)
    one = typer.Typer(add_completion=False)
    one.command(
        name,
        cls=ActionCommand,
        help=f"{first.summary_en} / {first.summary_ru}{rules} ({where})",
        short_help=first.summary_en,
    )(guarded(fn))
    command = typer.main.get_command(one)
    if isinstance(command, ActionCommand):
        command.ruleset_id = where
        command.fields = fields
    return command


class ActGroup(TyperGroup):
    """The ``act`` / ``query`` group: its commands are the campaign's ruleset's, built
    when asked for; an unknown one is a one-line error like every other."""

    kind = "act"
    _listing = False

    def _rulesets(self) -> tuple[list[Ruleset], bool]:
        """The campaign's ruleset (and True), or every ruleset when none is chosen."""
        cached = getattr(self, "_found", None)
        if cached is None:
            env = get_env()
            try:
                ruleset_id = env.campaign_ruleset_id()
            except LazarettoError:
                ruleset_id = None
            if ruleset_id is None:
                cached = (list(rulesets().values()), False)
            else:
                cached = ([get_ruleset(ruleset_id)], True)
            self._found = cached
        return cached

    def _specs(self) -> tuple[dict[str, list[Any]], bool]:
        cached = getattr(self, "_cached", None)
        if cached is None:
            found, scoped = self._rulesets()
            cached = self._cached = (_offered(found, self.kind), scoped)
        return cached

    def _named(self, cmd_name: str) -> tuple[list[tuple[Ruleset, Any]] | None, bool]:
        """The declarations of ``cmd_name`` (None: no such command) and whether they are
        the campaign's ruleset's. A campaign's action is looked up by its name, which
        declares that ruleset's actions only as far as it (``Ruleset.declare_later``)."""
        found, scoped = self._rulesets()
        if not scoped:
            return self._specs()[0].get(cmd_name), False
        rs = found[0]
        spec = (rs.actions if self.kind == "act" else rs.queries).get(cmd_name)
        return (None if spec is None else [(rs, spec)]), True

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self._specs()[0])

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        same, scoped = self._named(cmd_name)
        if same is None:
            return None
        if self._listing:  # the help lists names and summaries: nothing to build
            rs = same[0][0]
            panel = None if scoped else f"{rs.id} — {rs.title_en} / {rs.title_ru}"
            if not scoped and len(same) > 1:
                panel = "several rulesets / несколько наборов правил"
            return TyperCommand(
                cmd_name,
                help=same[0][1].summary_en,
                short_help=f"{same[0][1].summary_en} / {same[0][1].summary_ru}",
                rich_help_panel=panel,
            )
        built: dict[str, Any] = self.__dict__.setdefault("_built", {})
        if cmd_name not in built:
            built[cmd_name] = _build(self.kind, cmd_name, same)
        return built[cmd_name]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and self._named(args[0])[0] is None:
            names = self.list_commands(ctx)
            word, words_en, word_ru, words_ru = (
                ("action", "actions", "действия", "действия")
                if self.kind == "act"
                else ("query", "queries", "запроса", "запросы")
            )
            known = ", ".join(names)
            hint = difflib.get_close_matches(args[0], names, n=1)
            get_env().fail(
                NotFound(
                    f"No {word} {args[0]!r}"
                    + (f" (did you mean {hint[0]!r}?)" if hint else "")
                    + f"; {words_en}: {known}",
                    ru=f"Нет {word_ru} {args[0]!r}"
                    + (f" (может быть, {hint[0]!r}?)" if hint else "")
                    + f"; {words_ru}: {known}",
                ),
                "--json" in args,
            )
        return super().resolve_command(ctx, args)


class QueryGroup(ActGroup):
    kind = "query"


def register(app: typer.Typer) -> None:
    """Attach ``act NAME`` and ``query NAME`` (their commands are made on demand)."""
    act = typer.Typer(
        cls=ActGroup,
        no_args_is_help=True,
        help="Run an action of the campaign's ruleset. / Действия правил кампании.",
    )
    query = typer.Typer(
        cls=QueryGroup,
        no_args_is_help=True,
        help="Ask the campaign's ruleset a question (changes nothing). / Запросы к правилам.",
    )
    app.add_typer(act, name="act")
    app.add_typer(query, name="query")
