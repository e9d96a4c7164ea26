"""A roster from JoinRPG's game API (x-game-api): its answers, mapped to roster rows.

Pure mapping, no I/O: :func:`read_document` reads the JSON (``{"metadata":
ProjectFieldsMetadata, "characters": [CharacterInfo, ...]}``, or the two answers as
they come: a list of characters and the metadata apart), and :func:`map_characters`
turns each ``CharacterInfo`` into the columns of :mod:`lazaretto.service.roster`
(``id``, ``name``, ``hits``, ``race``, ``age``, ``skills``) plus the character's data
(its JoinRPG groups and player, and any ``lazaretto:<key>`` field). See docs/joinrpg.md.

Which JoinRPG field holds what is said by the field's ``ProgrammaticValue``
(``lazaretto:hits``...) or, where the masters set none, by a mapping by field name
(``--field hits=Хиты``); the mapping wins where both say something.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from lazaretto.core.errors import InvalidInput

PREFIX = "lazaretto:"
"""The start of a ``ProgrammaticValue`` that names where a field goes."""
COLUMNS = ("hits", "race", "age", "skills")
"""Targets that are the character's own columns; any other ``lazaretto:<key>`` goes to
the character's data under ``<key>``."""
FIELD_TYPES = (
    "String",
    "Text",
    "Dropdown",
    "Checkbox",
    "MultiSelect",
    "Header",
    "Number",
    "Login",
    "ScheduleRoomField",
    "ScheduleTimeSlotField",
    "PinCode",
    "Uri",
    "UserLink",
    "MultiUserLink",
)
"""JoinRPG's ``ProjectFieldType`` names (JoinRpg.DomainTypes.ProjectMetadata)."""
BUSY = ("HasPlayer", "Discussed", "NoClaims", "Npc")
"""JoinRPG's ``CharacterBusyStatus``, in its numeric order (it may come as a number)."""
MAX_CHARACTERS = 5000
MAX_FIELDS = 2000
MAX_VALUE = 10_000
"""Characters of one field value at most (a long biography is far less)."""
MAX_LIST = 500
"""Groups, fields of a character or variants of a field at most."""
CHECKED = ("on", "true", "1", "yes", "да")
STATUS_WORDS: dict[str, tuple[str, str]] = {
    "added": ("added", "добавлен"),
    "unchanged": ("unchanged", "без изменений"),
    "changed": ("changed in JoinRPG, kept", "изменён в JoinRPG, оставлен"),
    "skipped": ("skipped", "пропущен"),
    "error": ("error", "ошибка"),
}
"""What an import does with each character, in English and Russian: the CLI's table
and the web's preview say it in the same words."""


def _t(lang: str, en: str, ru: str) -> str:
    return ru if lang == "ru" else en


def get(obj: dict[str, Any], name: str) -> Any:
    """``obj[name]`` as JoinRPG names it (``CharacterId``) or as ASP.NET serialises it
    by default (``characterId``)."""
    if name in obj:
        return obj[name]
    return obj.get(name[:1].lower() + name[1:])


@dataclass(frozen=True)
class FieldInfo:
    """One JoinRPG project field (``ProjectFieldInfo``) and where it goes."""

    id: int
    name: str
    type: str
    target: str | None
    variants: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Options:
    """What to read: mapping by field name, and which characters to keep."""

    fields: dict[str, str] = field(default_factory=dict)
    include_inactive: bool = False
    include_npc: bool = False
    checked_in: bool = False


@dataclass
class Mapped:
    """One JoinRPG character as read: roster columns, data, a skip reason or an error."""

    index: int
    id: str | None
    name: str
    values: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    skipped: str = ""
    error: str = ""


def _refuse(en: str, ru: str) -> InvalidInput:
    return InvalidInput(
        f"The JoinRPG roster {en}",
        ru=f"Список из JoinRPG {ru}",
        tip="Save the answers of /x-game-api/{project}/characters and "
        "/metadata/fields as one JSON (see docs/joinrpg.md).",
        tip_ru="Сохраните ответы /x-game-api/{проект}/characters и /metadata/fields "
        "одним JSON (см. docs/joinrpg.md).",
    )


def parse_json(text: str, what: str = "roster") -> Any:
    """``text`` as JSON; a clear refusal for anything else (or a nesting bomb)."""
    try:
        return json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        raise _refuse(
            f"({what}) is not valid JSON (line {exc.lineno}: {exc.msg})",
            f"({what}) — не JSON (строка {exc.lineno}: {exc.msg})",
        ) from None
    except RecursionError:
        raise _refuse(
            f"({what}) is nested too deep to be JoinRPG's answer",
            f"({what}) вложен слишком глубоко для ответа JoinRPG",
        ) from None


def read_document(data: Any, metadata: Any = None) -> tuple[list[Any], dict[str, Any]]:
    """The characters and the metadata of a parsed document (or of the two answers)."""
    if isinstance(data, dict) and metadata is None:
        metadata = get(data, "Metadata")
        data = get(data, "Characters")
    if not isinstance(data, list):
        raise _refuse(
            'has no list of characters: give {"metadata": {...}, "characters": [...]}',
            'без списка персонажей: нужен {"metadata": {...}, "characters": [...]}',
        )
    if not isinstance(metadata, dict) or not isinstance(get(metadata, "Fields"), list):
        raise _refuse(
            "has no field metadata (ProjectFieldsMetadata with its Fields)",
            "без описания полей (ProjectFieldsMetadata с Fields)",
        )
    if len(data) > MAX_CHARACTERS:
        raise _refuse(
            f"has {len(data)} characters: import at most {MAX_CHARACTERS} at a time",
            f"содержит {len(data)} персонажей: за раз можно не больше {MAX_CHARACTERS}",
        )
    return data, metadata


def _target(programmatic: Any) -> str | None:
    if isinstance(programmatic, str) and programmatic.strip().lower().startswith(PREFIX):
        key = programmatic.strip()[len(PREFIX) :].strip()
        return key or None
    return None


def read_fields(metadata: dict[str, Any], options: Options) -> dict[int, FieldInfo]:
    """The project's fields by id, each with the target it maps to (if any)."""
    raw = get(metadata, "Fields")
    if len(raw) > MAX_FIELDS:
        raise _refuse(
            f"has {len(raw)} fields (at most {MAX_FIELDS})",
            f"содержит {len(raw)} полей (не больше {MAX_FIELDS})",
        )
    fields: dict[int, FieldInfo] = {}
    for f in raw:
        fid, name, kind = (
            get(f, k) if isinstance(f, dict) else None
            for k in ("ProjectFieldId", "FieldName", "FieldType")
        )
        if not isinstance(fid, int) or isinstance(fid, bool) or not isinstance(name, str):
            raise _refuse(
                "has a field without a whole ProjectFieldId and a FieldName",
                "содержит поле без целого ProjectFieldId и FieldName",
            )
        variants = get(f, "ValueList") or []
        labels = (
            {
                str(get(v, "ProjectFieldVariantId")): str(get(v, "Label"))
                for v in variants[:MAX_LIST]
                if isinstance(v, dict)
            }
            if isinstance(variants, list)
            else {}
        )
        kind = kind if isinstance(kind, str) else "String"
        fields[fid] = FieldInfo(fid, name, kind, _target(get(f, "ProgrammaticValue")), labels)
    for target, wanted in options.fields.items():
        key = wanted.strip().casefold()
        match = [f for f in fields.values() if key in (f.name.strip().casefold(), str(f.id))]
        if not match:
            known = ", ".join(sorted(f.name for f in fields.values()))[:500]
            raise _refuse(
                f"has no field {wanted!r} for {target} (fields: {known})",
                f"не содержит поля {wanted!r} для {target} (поля: {known})",
            )
        for f in fields.values():  # the mapping wins: nothing else goes to that target
            if f.target == target:
                fields[f.id] = FieldInfo(f.id, f.name, f.type, None, f.variants)
        m = match[0]
        fields[m.id] = FieldInfo(m.id, m.name, m.type, target, m.variants)
    return fields


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise ValueError("not text")
    text = str(value)
    if len(text) > MAX_VALUE:
        raise ValueError(f"over {MAX_VALUE} characters")
    return text.strip()


def field_value(info: FieldInfo, value: Any, display: Any, lang: str = "en") -> Any:
    """A JoinRPG field value as Lazaretto keeps it: a dropdown its label, a
    multi-select a list of labels, a number an int, a checkbox a bool, other text as is.
    Raises ValueError with a message in ``lang``."""
    try:
        raw, shown = _text(value), _text(display)
    except ValueError as exc:
        en, ru = f"the value is {exc}", "значение — не текст или длиннее 10 000 знаков"
        raise ValueError(_t(lang, en, ru)) from None
    if info.type == "Checkbox":
        return (raw or shown or "").casefold() in CHECKED
    if info.type == "Number":
        number = raw if raw not in (None, "") else shown
        if number in (None, ""):
            return None
        try:
            return int(str(number).strip())
        except ValueError:
            raise ValueError(
                _t(lang, f"{number!r} is not a whole number", f"{number!r} — не целое число")
            ) from None
    if info.type == "MultiSelect":
        ids = [v.strip() for v in (raw or "").split(",") if v.strip()]
        if ids and all(i in info.variants for i in ids):
            return [info.variants[i] for i in ids][:MAX_LIST]
        return [s.strip() for s in (shown or "").split(",") if s.strip()][:MAX_LIST]
    if info.type == "Dropdown":
        return shown or info.variants.get(raw or "", raw or "")
    if info.type in ("String", "Text", "Login", "PinCode", "Uri"):
        return raw if raw is not None else (shown or "")
    return shown if shown else (raw or "")  # schedule slots, rooms, user links: the label


def _column(target: str, value: Any, lang: str) -> Any:
    """``value`` as the roster column ``target`` takes it (skills: a list)."""
    if target == "skills":
        if isinstance(value, list):
            return value
        if isinstance(value, str):
            sep = ";" if ";" in value else ","
            return [s.strip() for s in value.split(sep) if s.strip()]
        raise ValueError(_t(lang, "skills need a text or a list", "навыки — текст или список"))
    if target in ("hits", "age") and isinstance(value, str):
        if not value:
            return None
        try:
            return int(value)
        except ValueError:
            raise ValueError(
                _t(lang, f"{value!r} is not a whole number", f"{value!r} — не целое число")
            ) from None
    if target == "race" and isinstance(value, list):
        return ", ".join(value)
    return value


def _skip(ch: dict[str, Any], options: Options, lang: str) -> str:
    """Why a character is left out ("" if it is kept)."""
    if get(ch, "IsActive") is False and not options.include_inactive:
        return _t(lang, "inactive (deleted in JoinRPG)", "неактивен (удалён в JoinRPG)")
    busy = get(ch, "BusyStatus")
    if isinstance(busy, int) and not isinstance(busy, bool) and 0 <= busy < len(BUSY):
        busy = BUSY[busy]
    if busy == "Npc" and not options.include_npc:
        return _t(lang, "an NPC", "NPC (игротехнический персонаж)")
    if busy in ("Discussed", "NoClaims") and not options.include_npc:
        return _t(lang, "no player (no approved claim)", "нет игрока (нет принятой заявки)")
    if options.checked_in and get(ch, "InGame") is not True:
        return _t(lang, "not checked in (InGame is false)", "не прошёл регистрацию (InGame — нет)")
    return ""


def _groups(ch: dict[str, Any]) -> list[str]:
    groups = get(ch, "Groups")
    if not isinstance(groups, list):
        return []
    names = (get(g, "CharacterGroupName") for g in groups[:MAX_LIST] if isinstance(g, dict))
    return [n.strip() for n in names if isinstance(n, str) and n.strip()]


def _one(
    ch: dict[str, Any], n: int, fields: dict[int, FieldInfo], options: Options, lang: str
) -> Mapped:
    cid, name = get(ch, "CharacterId"), get(ch, "CharacterName")
    if not isinstance(cid, int) or isinstance(cid, bool) or cid < 0:
        error = _t(lang, "CharacterId is not a whole number", "CharacterId — не целое число")
        return Mapped(n, None, name if isinstance(name, str) else "", error=error)
    out = Mapped(n, str(cid), name.strip() if isinstance(name, str) else "")
    out.skipped = _skip(ch, options, lang)
    if out.skipped:
        return out
    out.values = {"id": out.id, "name": out.name}
    player = get(ch, "PlayerInfo")
    joinrpg: dict[str, Any] = {"groups": _groups(ch)}
    if isinstance(player, dict) and isinstance(get(player, "PlayerDisplayName"), str):
        joinrpg["player"] = get(player, "PlayerDisplayName")[:200]
    out.data["joinrpg"] = joinrpg
    values = get(ch, "Fields") or []
    if not isinstance(values, list) or len(values) > MAX_LIST:
        out.error = _t(lang, "Fields is not a list of field values", "Fields — не список значений")
        return out
    for v in values:
        info = fields.get(get(v, "ProjectFieldId")) if isinstance(v, dict) else None
        if info is None or info.target is None or info.type == "Header":
            continue
        try:
            value = field_value(info, get(v, "Value"), get(v, "DisplayString"), lang)
            if info.target in COLUMNS:
                out.values[info.target] = _column(info.target, value, lang)
            else:
                out.data[info.target] = value
        except ValueError as exc:
            out.error = f"{info.name} ({PREFIX}{info.target}): {exc}"
            return out
    return out


def map_characters(
    characters: list[Any], fields: dict[int, FieldInfo], options: Options, lang: str = "en"
) -> list[Mapped]:
    """Every character of the answer, numbered from 1, mapped or with its error."""
    out = []
    for n, ch in enumerate(characters, start=1):
        if not isinstance(ch, dict):
            out.append(
                Mapped(
                    n,
                    None,
                    "",
                    error=_t(lang, "not a CharacterInfo object", "не объект CharacterInfo"),
                )
            )
            continue
        out.append(_one(ch, n, fields, options, lang))
    return out
