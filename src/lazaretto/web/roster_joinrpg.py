"""The roster page's JoinRPG import: what the form says, and the preview it shows.

The page is a form over :func:`lazaretto.service.roster.import_joinrpg`, the one path
the API and the CLI import through too; this module only turns the form into
:class:`~lazaretto.service.joinrpg.Options` (the CLI's ``--field hits=Хиты``,
``--include-npc``, ``--include-inactive``, ``--checked-in``) and the checked rows into
what the template shows.

A mapping select offers the project's own fields (from the document's
``ProjectFieldsMetadata``), so the master picks the field rather than typing its name;
its value is the field's ``ProjectFieldId``, which :func:`joinrpg.read_fields` accepts
as well as a name, and which stays unambiguous when two fields share a name.

The import step carries a digest of the roster and the options the preview was made
with (``previewed``): when the master changed a select or a checkbox and pressed Import
without checking again, the page shows the rows as they now read instead of importing
what was never shown.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import FormData

from lazaretto.service import joinrpg
from lazaretto.service.roster import Checked

FORMAT = "joinrpg"
"""The value of the import form's ``format`` choice that reads JoinRPG's answers."""
TARGETS = joinrpg.COLUMNS
"""What a select maps a field to: hits, race, age, skills."""
FLAGS = ("include_npc", "include_inactive", "checked_in")
"""The form's checkboxes, named as the Options' fields they set."""
SHOWN = ("hits", "race", "age", "skills")
"""What the preview shows of a character as it would be imported."""
TYPE_WORDS_RU = {
    "String": "строка",
    "Text": "текст",
    "Dropdown": "выпадающий список",
    "Checkbox": "чекбокс",
    "MultiSelect": "мультивыбор",
    "Number": "число",
    "Login": "логин",
    "ScheduleRoomField": "помещение",
    "ScheduleTimeSlotField": "слот расписания",
    "PinCode": "пин-код",
    "Uri": "ссылка",
    "UserLink": "пользователь",
    "MultiUserLink": "пользователи",
}
"""JoinRPG's field types (``ProjectFieldType``) as a Russian master reads them beside
the field's name; an English page shows JoinRPG's own names."""


@dataclass(frozen=True)
class FieldChoice:
    """One project field a select offers: its id (the value sent), name and type (in
    the page's language)."""

    id: str
    name: str
    type: str

    def means(self, wanted: str) -> bool:
        """Whether ``wanted`` (an id, or a name as the CLI's ``--field`` takes) is it."""
        return wanted.strip().casefold() in (self.id, self.name.strip().casefold())


@dataclass(frozen=True)
class Mapping:
    """One select: its target, the field its ``ProgrammaticValue`` picks (the default,
    shown in the empty choice) and the field chosen instead, if any."""

    target: str
    default: str
    chosen: str


@dataclass(frozen=True)
class Row:
    """A preview row: the character, its status (or ``error``), why, and its values."""

    line: int
    id: str
    name: str
    status: str
    note: str
    values: list[tuple[str, str]]


@dataclass(frozen=True)
class Preview:
    """Everything the JoinRPG part of the page shows after a check."""

    rows: list[Row]
    counts: dict[str, int]
    choices: list[FieldChoice]
    mappings: list[Mapping]
    flags: dict[str, bool]
    previewed: str

    @property
    def errors(self) -> int:
        """Rows in error: while any is, the page offers no Import."""
        return self.counts.get("error", 0)

    @property
    def to_add(self) -> int:
        """Characters the import would add."""
        return self.counts.get("added", 0)


def options_of(form: FormData) -> joinrpg.Options:
    """The form's mapping selects (``field_hits``…) and checkboxes as Options."""
    fields = {}
    for target in TARGETS:
        chosen = form.get(f"field_{target}")
        if isinstance(chosen, str) and chosen.strip():
            fields[target] = chosen.strip()[:200]
    on = {flag: form.get(flag) == "on" for flag in FLAGS}
    return joinrpg.Options(fields, **on)


def key_of(options: joinrpg.Options, text: str) -> str:
    """The roster and its options as one short text (a hidden field's value, no quotes
    to escape), to tell whether an import is what the preview showed."""
    said = [text, sorted(options.fields.items()), [getattr(options, flag) for flag in FLAGS]]
    return hashlib.sha256(json.dumps(said, ensure_ascii=False).encode()).hexdigest()[:16]


def field_choices(text: str, lang: str = "en") -> tuple[list[FieldChoice], dict[str, str]]:
    """The project's fields a select may offer (a Header holds no value), and which
    field each target's ``ProgrammaticValue`` already picks (by name)."""
    meta = joinrpg.read_document(joinrpg.parse_json(text))[1]
    fields = joinrpg.read_fields(meta, joinrpg.Options())
    words = TYPE_WORDS_RU if lang == "ru" else {}
    choices = [
        FieldChoice(str(f.id), f.name, words.get(f.type, f.type))
        for f in fields.values()
        if f.type != "Header"
    ]
    by_value = {f.target: f.name for f in fields.values() if f.target in TARGETS}
    return choices, by_value


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return "; ".join(map(str, value))
    return "" if value is None else str(value)


def _row(c: Checked) -> Row:
    values: list[tuple[str, str]] = []
    if c.row is not None:
        row = c.row.model_dump()
        values = [(k, _shown(row[k])) for k in SHOWN if _shown(row[k])]
    return Row(
        c.line,
        str(c.raw.get("id") or ""),
        str(c.raw.get("name") or ""),
        "error" if c.error else c.status,
        c.error or c.note,
        values,
    )


def _chosen(choices: list[FieldChoice], wanted: str) -> str:
    """The id of the field ``wanted`` names, so its select shows it chosen."""
    found = [c.id for c in choices if wanted and c.means(wanted)]
    return found[0] if found else ""


def preview(
    checked: list[Checked], text: str, options: joinrpg.Options, lang: str = "en"
) -> Preview:
    """The page's preview of a checked JoinRPG roster with the selects to map again."""
    choices, by_value = field_choices(text, lang)
    rows = [_row(c) for c in checked]
    mappings = [
        Mapping(t, by_value.get(t, ""), _chosen(choices, options.fields.get(t, "")))
        for t in TARGETS
    ]
    return Preview(
        rows,
        dict(Counter(r.status for r in rows)),
        choices,
        mappings,
        {flag: bool(getattr(options, flag)) for flag in FLAGS},
        key_of(options, text),
    )
