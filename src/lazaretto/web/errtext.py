"""Refusals worded for a web page rather than a terminal.

The rulesets' tips speak the CLI's language ("Give --interval-minutes and
--wave-stickers.", "Start one with `start-combat`"), which is right in a terminal and
puzzling on a phone. At the web boundary an option becomes the form field's label in
quotes and a command becomes the action's name on the page, so one error text serves
both interfaces and no ruleset needs to know which one asked.
"""

from __future__ import annotations

import re

from lazaretto.core.ruleset import Ruleset
from lazaretto.web import i18n

_COMMAND = re.compile(r"`(?:lazaretto\s+)?(?:act\s+)?([a-z][a-z0-9-]*)((?:\s+[^`]*)?)`")
_OPTION = re.compile(r"(?<![\w-])--(?:no-)?([a-z][a-z0-9-]*)(?:[ =]([\w.|,=-]+))?")


def _field(match: re.Match[str], lang: str) -> str:
    name = match.group(1).replace("-", "_")
    if name == "param":
        label = "параметр кампании" if lang == "ru" else "campaign parameter"
    else:
        label = i18n.field_label(name, lang)
    value = match.group(2)
    return f"«{label}»" + (f" = {value}" if value else "")


def for_web(message: str, rs: Ruleset | None, lang: str) -> str:
    """``message`` with CLI options as field labels and commands as action names."""

    def command(match: re.Match[str]) -> str:
        name, rest = match.group(1), match.group(2).strip()
        spec = rs.actions.get(name) if rs is not None else None
        if spec is None:
            return f"«{_OPTION.sub(lambda m: _field(m, lang), match.group(0).strip('`'))}»"
        what = f"«{spec.summary(lang)}»"
        return f"{what} ({_OPTION.sub(lambda m: _field(m, lang), rest)})" if rest else what

    return _OPTION.sub(lambda m: _field(m, lang), _COMMAND.sub(command, message))
