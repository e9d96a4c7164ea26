"""A mistyped command line as one line in the GM's language, like every other error.

Click (inside Typer) reports a missing argument, an unknown option or a value it cannot
read in a five-line English box, whatever ``--lang`` says, and not as JSON with
``--json``. :func:`usage_error` turns its exceptions into an :class:`InvalidInput`
(exit code 2, as Click's) that ``Env.fail`` prints: ``error: Missing argument 'id'.
Help: lazaretto character show --help`` / ``ошибка: Не указан аргумент 'id'. Справка:
…``. Typer checks option values through Pydantic, so the few messages a value can
get (a bound, a number, a choice) are translated here too; any other keeps its
English words inside the Russian line.
"""

from __future__ import annotations

import difflib
import re

from typer import _click
from typer.core import TyperGroup

from lazaretto.core.errors import InvalidInput, problem_ru

#: Typer gives Pydantic's message about a value as text alone: the kind of problem it
#: names and its bound, for ``problem_ru`` to say in Russian as it does for any input.
_KINDS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"Input should be less than or equal to (\S+)"), "less_than_equal", "le"),
    (re.compile(r"Input should be greater than or equal to (\S+)"), "greater_than_equal", "ge"),
    (re.compile(r"Input should be less than (\S+)"), "less_than", "lt"),
    (re.compile(r"Input should be greater than (\S+)"), "greater_than", "gt"),
    (re.compile(r"Input should be a valid integer.*"), "int_parsing", ""),
    (re.compile(r"Input should be a valid number.*"), "float_parsing", ""),
]
#: Click's and our own messages about a value, and the Russian of each.
_VALUE_RU: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"'(.*)' is not one of (.*?)\.?$"), r"«\1» — такого нет; можно: \2"),
    (re.compile(r"use en or ru"), "укажите en или ru"),
]

_NO_COMMAND = re.compile(r"No such command '([^']+)'")
_EXTRA = re.compile(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)")
_NEEDS_VALUE = re.compile(r"Option '(.+)' requires an argument\.?")


def _value(message: str) -> tuple[str, str]:
    """A value's problem in English (Pydantic's "Value error, " prefix dropped) and
    Russian."""
    en = message.removeprefix("Value error, ").strip()
    for pattern, kind, bound in _KINDS:
        found = pattern.fullmatch(en)
        if found:
            ctx = {bound: found.group(1)} if bound else {}
            return en, problem_ru({"type": kind, "ctx": ctx, "msg": en})
    for pattern, ru in _VALUE_RU:
        if pattern.fullmatch(en):
            return en, pattern.sub(ru, en)
    return en, en


def _hint(exc: _click.exceptions.BadParameter) -> str:
    """The parameter a value was for, as Click names it (``'--hits'``, ``'id'``)."""
    if exc.param_hint is not None:
        hint = exc.param_hint
        return hint if isinstance(hint, str) else " / ".join(repr(h) for h in hint)
    if exc.param is not None:
        named = exc.param.get_error_hint()
        return named if isinstance(named, str) else " / ".join(repr(h) for h in named)
    return ""


def _texts(exc: _click.exceptions.ClickException) -> tuple[str, str]:
    """The English and Russian of what was wrong with the command line."""
    x = _click.exceptions
    if isinstance(exc, x.MissingParameter):
        hint = _hint(exc)
        if exc.param is not None and exc.param.param_type_name == "argument":
            return f"Missing argument {hint}", f"Не указан аргумент {hint}"
        return f"Missing option {hint}", f"Не указан параметр {hint}"
    if isinstance(exc, x.BadParameter):
        hint = _hint(exc)
        en, ru = _value(exc.message)
        if not hint:
            return f"Invalid value: {en}", f"Неверное значение: {ru}"
        return f"Invalid value for {hint}: {en}", f"Неверное значение {hint}: {ru}"
    if isinstance(exc, x.NoSuchOption):
        en, ru = f"No such option: {exc.option_name}", f"Нет параметра {exc.option_name}"
        if exc.possibilities:
            maybe = ", ".join(sorted(exc.possibilities))
            en, ru = f"{en} (did you mean {maybe}?)", f"{ru} (может быть, {maybe}?)"
        return en, ru
    message = exc.format_message()
    unknown = _NO_COMMAND.match(message)
    if unknown:
        return _no_command(exc, unknown.group(1))
    extra = _EXTRA.fullmatch(message)
    if extra:
        return (
            f"Unexpected extra argument(s): {extra.group(1)}",
            f"Лишние аргументы: {extra.group(1)}",
        )
    needs = _NEEDS_VALUE.fullmatch(message)
    if needs:
        option = needs.group(1)
        return f"Option '{option}' needs a value", f"Параметру '{option}' нужно значение"
    return message, message


def _no_command(exc: _click.exceptions.ClickException, name: str) -> tuple[str, str]:
    """An unknown command, with the nearest known one (the main group lists its
    commands without importing them, so Typer's own suggestion found none)."""
    en, ru = f"No such command {name!r}", f"Нет команды {name!r}"
    ctx = getattr(exc, "ctx", None)
    group = getattr(ctx, "command", None)
    if ctx is not None and isinstance(group, TyperGroup):
        near = difflib.get_close_matches(name, group.list_commands(ctx), n=1)
        if near:
            en, ru = f"{en} (did you mean {near[0]!r}?)", f"{ru} (может быть, {near[0]!r}?)"
    return en, ru


def chosen_lang(exc: _click.exceptions.ClickException, args: list[str]) -> str | None:
    """The ``--lang`` of the command line Click refused: as Click read it, or (a
    mistake Click reports without its context) as typed (no command has a ``--lang``
    of its own)."""
    ctx = getattr(exc, "ctx", None)
    lang = ctx.find_root().params.get("lang") if ctx is not None else None
    for i, arg in enumerate(args if lang is None else ()):
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2]
    return lang.lower() if isinstance(lang, str) and lang.lower() in ("en", "ru") else None


def usage_error(exc: _click.exceptions.ClickException) -> InvalidInput:
    """Click's complaint about a command line as our one-line error, with where to
    find the command's help."""
    try:
        en, ru = _texts(exc)
    except Exception:  # a message of a shape not met before: Click's own words
        en = ru = exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return InvalidInput(en, ru=ru)
    path = ctx.command_path
    return InvalidInput(
        en, ru=ru, tip=f"Help: {path} --help", tip_ru=f"Справка: {path} --help"
    )
