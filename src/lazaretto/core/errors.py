"""Every error Lazaretto raises on purpose, under one root.

::

    LazarettoError                 root: anything we raise on purpose
    ├── RuleViolation              a game rule refuses the action (carries rule IDs)
    ├── DiceError                  a dice expression cannot be used
    │   ├── DiceSyntaxError        the text does not parse (carries the position)
    │   └── DiceBudgetError        it parses but exceeds the dice/sides budget
    ├── ClockError                 time cannot move that way (e.g. backwards)
    ├── NotFound                   a campaign, character, hospital... does not exist
    ├── Conflict                   the thing already exists / is in another state
    ├── Forbidden                  the actor's role may not do this
    ├── TooBusy                    one caller sends more at once than is fair to the others
    ├── InvalidInput               an action's input does not validate
    └── DataFileError              a ruleset data file is broken (file, field, problem)

Every error carries a message in English and, where given, in Russian; entry points
choose by the user's language. A refusal names the rule IDs that produced it and,
in ``tip``, what to do instead.
"""

from __future__ import annotations

from collections.abc import Sequence


class LazarettoError(Exception):
    """Root of all errors Lazaretto raises on purpose.

    Args:
        message: English text, one line, naming the offending value.
        ru: the same in Russian (defaults to the English text).
        rule_ids: the rule IDs that produced the error, e.g. ``("W-TRT-06",)``.
        tip: what to do instead (English); ``tip_ru`` in Russian.
    """

    exit_code = 1
    http_status = 400

    def __init__(
        self,
        message: str,
        *,
        ru: str | None = None,
        rule_ids: Sequence[str] = (),
        tip: str | None = None,
        tip_ru: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.ru = ru or message
        self.rule_ids = tuple(rule_ids)
        self.tip = tip
        self.tip_ru = tip_ru or tip

    def kept(self) -> LazarettoError:
        """This refusal, to be kept as an answer (a queued change's, a re-run's), without
        its traceback and its causes' tracebacks: their frames would keep alive all they
        held (for a refusal met in a re-run, whole campaign states) until the cycle
        collector came for them, and on a 3,000-character campaign that collector then
        paused the server for most of a second every few seconds (issue 25)."""
        seen: set[int] = set()
        exc: BaseException | None = self
        while exc is not None and id(exc) not in seen:
            seen.add(id(exc))
            exc.__traceback__ = None
            exc = exc.__cause__ or exc.__context__
        return self

    def text(self, lang: str = "en") -> str:
        """The full one-line message in ``lang`` ("en" or "ru"), with rule IDs and tip."""
        msg = self.ru if lang == "ru" else self.message
        if self.rule_ids:
            msg = f"{msg} ({', '.join(self.rule_ids)})"
        tip = self.tip_ru if lang == "ru" else self.tip
        if tip:
            msg = f"{msg}. {tip}" if not msg.endswith(".") else f"{msg} {tip}"
        return msg

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        """A JSON-able description, for ``--json`` output and API error bodies."""
        return {
            "error": type(self).__name__,
            "message": self.text(lang),
            "rule_ids": list(self.rule_ids),
        }


class RuleViolation(LazarettoError):
    """Raised when a game rule refuses an action; always names the rule IDs."""

    exit_code = 3
    http_status = 409


class DiceError(LazarettoError):
    """Raised when a dice expression cannot be parsed, rolled or enumerated."""

    exit_code = 2
    http_status = 422


class DiceSyntaxError(DiceError):
    """Raised when a dice expression does not parse; ``position`` is the 0-based offset."""

    def __init__(
        self,
        message: str,
        *,
        expression: str,
        position: int,
        ru: str | None = None,
        tip: str | None = None,
        tip_ru: str | None = None,
    ) -> None:
        pointer = f"{expression}\n{' ' * position}^"
        super().__init__(
            f"{message} at position {position}: {expression!r}",
            ru=f"{ru or message} (позиция {position}): {expression!r}",
            tip=tip,
            tip_ru=tip_ru,
        )
        self.expression = expression
        self.position = position
        self.pointer = pointer


class DiceBudgetError(DiceError):
    """Raised when an expression parses but asks for too many dice, sides or outcomes."""


class ClockError(LazarettoError):
    """Raised when the campaign clock cannot move as asked (backwards, while paused...)."""

    exit_code = 2
    http_status = 409


class NotFound(LazarettoError):
    """Raised when a named campaign, character, hospital, timer... does not exist."""

    exit_code = 4
    http_status = 404


class Conflict(LazarettoError):
    """Raised when something already exists, or is in a state that prevents the request."""

    exit_code = 5
    http_status = 409


class TooBusy(LazarettoError):
    """Raised when one user has more changes waiting than a phone ever needs: the rest
    are refused (429) so that one client cannot hold up every other campaign."""

    exit_code = 6
    http_status = 429


class Forbidden(LazarettoError):
    """Raised when the actor's role may not perform the action or see the data."""

    exit_code = 6
    http_status = 403


class InvalidInput(LazarettoError):
    """Raised when an action's input does not validate (names the field)."""

    exit_code = 2
    http_status = 422


class DataFileError(LazarettoError):
    """Raised when a ruleset data file is broken; names the file, the field and the problem."""

    exit_code = 7
    http_status = 500

    def __init__(self, file: str, field: str, problem: str) -> None:
        super().__init__(
            f"{file}: field {field!r}: {problem}", ru=f"{file}: поле {field!r}: {problem}"
        )
        self.file = file
        self.field = field
        self.problem = problem


_PROBLEM_RU: dict[str, str] = {
    "missing": "не указано",
    "int_parsing": "нужно целое число",
    "int_type": "нужно целое число",
    "int_from_float": "нужно целое число",
    "float_parsing": "нужно число",
    "float_type": "нужно число",
    "bool_parsing": "нужно да или нет (true или false)",
    "bool_type": "нужно да или нет (true или false)",
    "string_type": "нужен текст",
    "list_type": "нужен список",
    "model_type": "нужен набор полей (ключ=значение)",
    "dict_type": "нужен набор полей (ключ=значение)",
    "greater_than_equal": "должно быть не меньше {ge}",
    "less_than_equal": "должно быть не больше {le}",
    "greater_than": "должно быть больше {gt}",
    "less_than": "должно быть меньше {lt}",
    "string_too_short": "слишком коротко: нужно не меньше {min_length} симв.",
    "string_too_long": "слишком длинно: можно не больше {max_length} симв.",
    "too_short": "слишком мало: нужно не меньше {min_length}",
    "too_long": "слишком много: можно не больше {max_length}",
    "literal_error": "допустимо: {expected}",
    "enum": "допустимо: {expected}",
    "string_pattern_mismatch": "не подходит под образец {pattern}",
    "extra_forbidden": "такого поля нет",
}


def problem_ru(error: dict[str, object]) -> str:
    """The Russian of one Pydantic validation error (an item of ``exc.errors()``): its
    kind in words, with the bound or the choices it names; a kind not listed here (a
    ruleset's own check) keeps Pydantic's English message."""
    template = _PROBLEM_RU.get(str(error.get("type", "")))
    given = error.get("ctx")
    context: dict[str, object] = dict(given) if isinstance(given, dict) else {}
    if "expected" in context:  # Pydantic lists choices as "'a', 'b' or 'c'"
        context["expected"] = str(context["expected"]).replace("' or '", "' или '")
    for key, value in context.items():  # a bound of a float field: 1, as Pydantic says it
        if isinstance(value, float) and value.is_integer():
            context[key] = int(value)
    try:
        if template is not None:
            return template.format(**context)
    except (KeyError, IndexError, ValueError):
        pass
    return str(error.get("msg", ""))


class CampaignDamaged(LazarettoError):
    """Raised when a campaign's stored state cannot be read (it no longer parses):
    ``lazaretto repair NAME`` rebuilds it from the event log. ``problem`` says why, in
    the parser's words (for the log and the repair, not for the page)."""

    exit_code = 8
    http_status = 409

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(
            f"Campaign {name!r} is damaged: repair it with `lazaretto repair {name}`",
            ru=f"Кампания {name!r} повреждена: почините командой `lazaretto repair {name}`",
        )
        self.name = name
        self.problem = problem
