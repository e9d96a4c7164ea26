"""The ruleset protocol.

A ruleset declares each action once — a typed input model, who may perform it, and a
handler that checks the rules and emits events (DESIGN.md, principle 1). The CLI, the
HTTP API and the web forms are generated from these declarations.

It speaks in the words below it — who acts (:class:`Role`, from
:mod:`lazaretto.core.roles`, importable from here too), the contexts its handlers take
(:mod:`lazaretto.core.contexts`) and the history's settings it validates with a
campaign's parameters (:mod:`lazaretto.core.history_params`) — and imports neither the
engine, nor the history, nor the visibility filter, which stand on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from lazaretto.core.events import Event, ReducerRegistry
from lazaretto.core.roles import ALL_ROLES as ALL_ROLES
from lazaretto.core.roles import Role as Role
from lazaretto.core.state import CORE_REDUCERS, CampaignState

if TYPE_CHECKING:
    from lazaretto.core.contexts import ActionContext, QueryContext
    from lazaretto.core.roles import Viewer
    from lazaretto.core.timers import Timer

InputT = TypeVar("InputT", bound=BaseModel)
V = TypeVar("V")
Handler = Callable[["ActionContext", Any], None]
TimerHandler = Callable[["ActionContext", "Timer"], None]
QueryHandler = Callable[["QueryContext", Any], dict[str, Any]]


@dataclass(frozen=True)
class ActionSpec(Generic[InputT]):
    """One action of a ruleset, declared once.

    Attributes:
        name: the command name, kebab-case (``"apply-bandage"``).
        input: the Pydantic model of its parameters; field descriptions are help text.
        handler: checks the rules and emits events through the context.
        roles: who may perform it.
        summary: one line of help, English and Russian.
        rule_ids: the rules it implements.
    """

    name: str
    input: type[InputT]
    handler: Handler
    roles: frozenset[Role]
    summary_en: str
    summary_ru: str
    rule_ids: tuple[str, ...] = ()

    def summary(self, lang: str) -> str:
        """The one-line help in ``lang``."""
        return self.summary_ru if lang == "ru" else self.summary_en


@dataclass(frozen=True)
class QuerySpec(Generic[InputT]):
    """A read-only question a ruleset answers ("what are the odds", "what would this
    cost"): it sees the state and parameters, changes nothing and records nothing.

    The handler returns a JSON-able dict with at least ``summary`` (one line in the
    asked language) and ``rule_ids``.
    """

    name: str
    input: type[InputT]
    handler: QueryHandler
    roles: frozenset[Role]
    summary_en: str
    summary_ru: str
    rule_ids: tuple[str, ...] = ()

    def summary(self, lang: str) -> str:
        """The one-line help in ``lang``."""
        return self.summary_ru if lang == "ru" else self.summary_en


class Declared(Mapping[str, V]):
    """A ruleset's actions, queries or timer handlers by name, declared when first asked
    for (see :meth:`Ruleset.declare_later`).

    Reading one name runs the ruleset's pending declaring functions, in their order,
    until that name is declared; listing them all, or asking for a name no one
    declares, runs every one. A function runs once. The order of the names is the order
    of declaration, as when every function ran up front.
    """

    def __init__(self, ruleset: Ruleset, what: str) -> None:
        self._ruleset = ruleset
        self._what = what
        self._items: dict[str, V] = {}

    def put(self, name: str, item: V) -> None:
        """Declare ``name``; a second declaration of one name is a ruleset's mistake."""
        if name in self._items:
            raise ValueError(f"{self._ruleset.id}: {self._what} {name!r} is declared twice")
        self._items[name] = item

    def __getitem__(self, name: str) -> V:
        if name not in self._items:
            self._ruleset.run_declarations(until=lambda: name in self._items)
        return self._items[name]

    def __contains__(self, name: object) -> bool:
        if name not in self._items:
            self._ruleset.run_declarations(until=lambda: name in self._items)
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        self._ruleset.run_declarations()
        return iter(self._items)

    def __len__(self) -> int:
        self._ruleset.run_declarations()
        return len(self._items)

    def __repr__(self) -> str:  # what is declared so far: a repr runs nothing
        return f"Declared({self._what}: {', '.join(self._items) or 'none yet'})"


@dataclass
class Ruleset:
    """A game's rules: state, parameters, actions, timer handlers and reducers.

    Attributes:
        id: the ruleset id, e.g. ``"warhammer-larp"``.
        documents: the rule documents it implements (``"000"``...).
        state_model: its :class:`CampaignState` subclass.
        params: the default parameters (validated data file).
    """

    id: str
    title_en: str
    title_ru: str
    documents: tuple[str, ...]
    state_model: type[CampaignState]
    params: BaseModel
    actions: Declared[ActionSpec[Any]] = field(init=False, compare=False)
    timer_handlers: Declared[TimerHandler] = field(init=False, compare=False)
    queries: Declared[QuerySpec[Any]] = field(init=False, compare=False)
    reducers: ReducerRegistry = field(default_factory=lambda: ReducerRegistry(CORE_REDUCERS))
    describe: Callable[[CampaignState, str, str], dict[str, Any]] | None = None
    redact: Callable[[CampaignState, str, Viewer], CampaignState] | None = None
    """Narrows a viewer's view of the state beyond the conditions they may not see
    (see :func:`lazaretto.core.visibility.view_for`); returns a copy, never changes it."""
    _params_cache: dict[str, BaseModel] = field(default_factory=dict, repr=False)
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Human templates, (English, Russian): ``"event:<kind>"`` and ``"timer:<kind>"``."""
    kept_after_undo: Callable[[list[Event]], dict[str, Any] | None] | None = None
    """What an undone record leaves behind, from the events it would produce at its
    time: a payload for an ``undo.kept`` event (the ruleset reduces it), or None. The
    hospital journal is a book: a struck entry keeps its number (warhammer-larp)."""
    new_character_hits: Callable[[BaseModel], int] | None = None
    """The hits a new character starts with when whoever adds it gives none, from the
    campaign's parameters (zone-larp: ``base_hits``, A-Z-03); None: no ruleset default."""
    _pending: list[Callable[[Ruleset], None]] = field(default_factory=list, repr=False)
    _declaring: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.actions = Declared(self, "action")
        self.timer_handlers = Declared(self, "timer handler")
        self.queries = Declared(self, "query")

    def declare_later(self, *declarers: Callable[[Ruleset], None]) -> None:
        """Run these declaring functions (each a module's ``register(rs)``: its
        :meth:`action`, :meth:`query` and :meth:`on_timer` declarations, nothing else)
        when one of their names is first asked for, not now.

        A ruleset declares about a hundred input models, and making them was the
        largest part of what a command paid before doing anything; a command uses one
        action at most, and reading a character uses none (issue 17). The state, the
        parameters, the reducers and the texts stay declared up front: a declaring
        function must not set them (tests/unit/test_declarations.py checks).
        """
        with self._declaring:
            self._pending.extend(declarers)

    def run_declarations(self, until: Callable[[], bool] | None = None) -> None:
        """Run the pending declaring functions in order, until ``until()`` holds (all of
        them when None). Their models are built on first use, as the bundled rulesets'
        other models are."""
        with self._declaring:
            while self._pending and not (until is not None and until()):
                declare = self._pending.pop(0)
                with models_built_on_first_use():
                    declare(self)

    def starting_hits(self, overrides: dict[str, Any], given: int | None = None) -> int:
        """The hits (and maximum) of a character added to a campaign with parameter
        ``overrides``: ``given`` when stated, else the ruleset's default, else
        :data:`DEFAULT_HITS`."""
        if given is not None:
            return given
        hook = self.new_character_hits
        return DEFAULT_HITS if hook is None else hook(self.campaign_params(overrides))

    def text(self, key: str, lang: str) -> str | None:
        """The template ``key`` in ``lang``, if the ruleset has one."""
        pair = self.texts.get(key)
        return None if pair is None else (pair[1] if lang == "ru" else pair[0])

    def action(
        self,
        name: str,
        input: type[InputT],
        *,
        roles: frozenset[Role] = ALL_ROLES,
        summary: tuple[str, str],
        rule_ids: tuple[str, ...] = (),
    ) -> Callable[[Handler], Handler]:
        """Decorator declaring an action; ``summary`` is (English, Russian)."""

        def register(fn: Handler) -> Handler:
            _refuse_unknown_fields(input)
            self.actions.put(
                name, ActionSpec(name, input, fn, roles, summary[0], summary[1], rule_ids)
            )
            return fn

        return register

    def query(
        self,
        name: str,
        input: type[InputT],
        *,
        roles: frozenset[Role] = ALL_ROLES,
        summary: tuple[str, str],
        rule_ids: tuple[str, ...] = (),
    ) -> Callable[[QueryHandler], QueryHandler]:
        """Decorator declaring a read-only query; ``summary`` is (English, Russian)."""

        def register(fn: QueryHandler) -> QueryHandler:
            _refuse_unknown_fields(input)
            self.queries.put(
                name, QuerySpec(name, input, fn, roles, summary[0], summary[1], rule_ids)
            )
            return fn

        return register

    def on_timer(self, kind: str) -> Callable[[TimerHandler], TimerHandler]:
        """Decorator registering the handler of timers of ``kind``."""

        def register(fn: TimerHandler) -> TimerHandler:
            self.timer_handlers.put(kind, fn)
            return fn

        return register

    def campaign_params(self, overrides: dict[str, Any]) -> BaseModel:
        """The parameters of a campaign: defaults with ``overrides`` applied, validated."""
        import json

        from lazaretto.core.datafile import validate_data
        from lazaretto.core.errors import DataFileError, InvalidInput

        try:
            key = json.dumps(overrides, sort_keys=True, default=str) if overrides else ""
        except TypeError:  # a map with keys of mixed types (1 and "x") cannot be sorted
            key = repr(overrides)
        cached = self._params_cache.get(key)
        if cached is not None:
            return cached
        from lazaretto.core.history_params import HISTORY_PARAMS, history_params

        unknown = sorted(
            set(map(str, overrides)) - set(type(self.params).model_fields) - HISTORY_PARAMS
        )
        if unknown:
            raise InvalidInput(
                f"{self.id} has no parameter {unknown[0]!r}",
                ru=f"В {self.id} нет параметра {unknown[0]!r}",
            )
        for name, value in overrides.items():
            _within_any_game(name, value)
        try:
            history_params(overrides)
        except ValueError as exc:  # pydantic's ValidationError
            first = str(exc).splitlines()[1:3]
            raise InvalidInput(
                f"History parameter {' '.join(first)}", ru=f"Параметр истории {' '.join(first)}"
            ) from exc
        own = {k: v for k, v in overrides.items() if k not in HISTORY_PARAMS}
        merged = {**self.params.model_dump(), **own}
        try:
            params = validate_data(merged, type(self.params), source=f"{self.id} parameters")
        except DataFileError as exc:
            raise InvalidInput(
                f"Parameter {exc.field!r}: {exc.problem}",
                ru=f"Параметр {exc.field!r}: {exc.problem}",
            ) from exc
        self._params_cache[key] = params
        return params


def _refuse_unknown_fields(model: type[BaseModel]) -> None:
    """Make an action's or query's input refuse fields it does not declare (and its
    nested models too), in every interface: an unknown field is a mistake to report,
    and one the handler ignores must never steer a check made on the raw input (a
    player naming their own character in a field the action does not read)."""
    if model.model_config.get("extra") == "forbid":
        return
    model.model_config["extra"] = "forbid"
    for info in model.model_fields.values():
        for inner in _models_in(info.annotation):
            _refuse_unknown_fields(inner)
    _rebuild_on_first_use(model)


def _rebuild_on_first_use(model: type[BaseModel]) -> None:
    """Drop ``model``'s validator and serializer, built without its new configuration,
    so that the first validation (or dump, or JSON schema) builds them again with it.

    Rebuilding every input model at once built its schema a second time when a ruleset
    was imported, and a command uses one action at most (issue 17). This is what
    Pydantic itself does to a model it is told to rebuild (``model_rebuild(force=True)``
    first puts these placeholders back) and to a model with ``defer_build``: the
    placeholder rebuilds the model from its configuration, now with ``extra="forbid"``,
    when first touched (a model holding this one, built later, builds it from its
    configuration too). A Pydantic without that machinery gets the eager rebuild.
    """
    if not model.__pydantic_complete__:  # not built yet: it will be, with the new config
        return
    try:
        from pydantic._internal._mock_val_ser import set_model_mocks
    except ImportError:  # pragma: no cover - another Pydantic
        model.model_rebuild(force=True)
        return
    model.__pydantic_complete__ = False
    set_model_mocks(model)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The Pydantic models an annotation holds (``X``, ``list[X]``, ``X | None``)."""
    from typing import get_args

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


@contextmanager
def models_built_on_first_use() -> Iterator[None]:
    """Pydantic models declared inside are built when first used, not when declared
    (Pydantic's ``defer_build``; they validate, refuse and dump exactly the same).

    A ruleset declares a hundred models (the input of every action and query, its
    state, its tables), and building them all cost more than Python's start-up and any
    command's own work: a command uses its campaign's state and one action at most
    (issue 17). The setting is the default a model takes from ``BaseModel``'s
    configuration while inside; on leaving it is restored, and taken off the models
    declared inside (no bundled model declares it): they stay unbuilt until first
    used, but behave from then on as any model, so a ``TypeAdapter`` of one (FastAPI
    makes one per request body) is built when made, as before, and a model declared
    later from one of them is built when declared.
    """
    with _DEFERRING:  # one thread at a time changes the default
        config = BaseModel.model_config
        before = config.get("defer_build")
        known = _models(BaseModel)
        config["defer_build"] = True
        try:
            yield
        finally:
            if before is None:
                config.pop("defer_build", None)
            else:
                config["defer_build"] = before
            for model in _models(BaseModel) - known:
                model.model_config.pop("defer_build", None)


_DEFERRING = threading.RLock()


def _models(root: type[BaseModel]) -> set[type[BaseModel]]:
    """Every class derived from ``root``."""
    found: set[type[BaseModel]] = set()
    todo = [root]
    while todo:
        sub: type[BaseModel]
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


DEFAULT_HITS = 3
"""A new character's hits in a ruleset that sets none (what `character add` always gave)."""

PARAM_LIMIT = 10_000_000
"""No game needs a parameter beyond this (ten million minutes is nineteen years); a
larger one would overflow the countdowns it starts, so it is refused up front."""


def _within_any_game(name: str, value: Any, depth: int = 0) -> None:
    """Refuse an override holding a number beyond :data:`PARAM_LIMIT` (or nested absurdly)."""
    from lazaretto.core.errors import InvalidInput

    if depth > 20:
        raise InvalidInput(
            f"Parameter {name!r} is nested too deeply",
            ru=f"Параметр {name!r}: слишком глубокая вложенность",
        )
    if isinstance(value, bool):
        return
    if isinstance(value, int | float) and not abs(value) <= PARAM_LIMIT:
        raise InvalidInput(
            f"Parameter {name!r}: {value!r} is beyond any game (at most {PARAM_LIMIT:,})",
            ru=f"Параметр {name!r}: {value!r} — больше, чем нужно любой игре "
            f"(не больше {PARAM_LIMIT:,})",
        )
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        _within_any_game(name, item, depth + 1)
