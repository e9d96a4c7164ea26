"""A campaign's roster from a file: characters imported from CSV or JSON in one change.

A GM who prepared the party in a spreadsheet pastes or uploads it; every row is
checked first (:func:`read_roster`) and shown with its own error, and only a roster
without errors is imported, as ONE change of the campaign (:func:`import_roster`):
either every character is added or none is, and the log shows them added together.

Columns (CSV header, or keys of each JSON object; only ``id`` and ``name`` required):

========  ==========================================================================
id        passport number / short id: letters, digits, ``_ . -`` (up to 40)
name      the character's name (up to 100)
hits      hits (and maximum); empty: the ruleset's default for a new character
race      race or kind, free text (up to 60)
age       whole years
skills    skill names separated by ``;`` (JSON: a list of strings)
========  ==========================================================================
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lazaretto.core.character import Character
from lazaretto.core.errors import InvalidInput, problem_ru
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role
from lazaretto.core.state import CampaignState
from lazaretto.service.accounts import User
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.recorder import Draft

COLUMNS = ("id", "name", "hits", "race", "age", "skills")
MAX_ROWS = 5000
"""Characters one import adds at most (a big LARP's roster is up to 3,000)."""


class RosterRow(BaseModel):
    """One character of an imported roster."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")
    name: str = Field(min_length=1, max_length=100)
    hits: int | None = Field(None, ge=0, le=1000)
    race: str = Field("", max_length=60)
    age: int | None = Field(None, ge=0, le=100000)
    skills: list[str] = Field(default_factory=list, max_length=20)


@dataclass(frozen=True)
class Checked:
    """A row as read: its number (1 = the first character), what it says, its problem."""

    line: int
    raw: dict[str, Any]
    row: RosterRow | None
    error: str = ""


def _records(text: str) -> list[dict[str, Any]]:
    stripped = text.lstrip("\ufeff").strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                f"The JSON roster is not valid JSON (line {exc.lineno}: {exc.msg})",
                ru=f"Список в JSON — не JSON (строка {exc.lineno}: {exc.msg})",
            ) from exc
        except RecursionError:  # a JSON bomb: arrays in arrays 100,000 deep
            raise InvalidInput(
                "The JSON roster is nested too deep to be a roster (a list of characters)",
                ru="Список в JSON вложен слишком глубоко: список персонажей так не выглядит",
            ) from None
        items = data if isinstance(data, list) else [data]
        return [i if isinstance(i, dict) else {"?": i} for i in items]
    return _csv_records(stripped)


def _csv_records(stripped: str) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(stripped), skipinitialspace=True)
    try:
        return _csv_rows(reader)
    except csv.Error:  # e.g. a cell longer than the csv module's field limit
        limit, line = csv.field_size_limit(), reader.line_num + 1  # the line being read
        raise InvalidInput(
            f"The CSV roster cannot be read at line {line}: a cell over "
            f"{limit:,} characters, or a quote that is never closed",
            ru=f"CSV-список не читается в строке {line}: ячейка длиннее "
            f"{limit:,} знаков или незакрытая кавычка",
        ) from None


def _csv_rows(reader: csv.DictReader[str]) -> list[dict[str, Any]]:
    header = [h.strip().lower() for h in reader.fieldnames or []]
    if "id" not in header or "name" not in header:
        raise InvalidInput(
            "The CSV roster needs a header line with at least the columns id and name "
            f"(columns: {', '.join(COLUMNS)})",
            ru="Первой строкой CSV нужны названия столбцов, хотя бы id и name "
            f"(столбцы: {', '.join(COLUMNS)})",
        )
    rows = []
    for record in reader:
        row = {(k or "").strip().lower(): v for k, v in record.items()}
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue  # an empty line
        skills = row.get("skills")
        row["skills"] = [s.strip() for s in (skills or "").split(";") if s.strip()]
        rows.append({k: v for k, v in row.items() if v not in ("", None) or k == "skills"})
    return rows


def _problem(exc: ValidationError, lang: str) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "?"
    if first.get("type") == "extra_forbidden":
        known = ", ".join(COLUMNS)
        return (
            f"{where}: неизвестный столбец (столбцы: {known})"
            if lang == "ru"
            else f"{where}: unknown column (columns: {known})"
        )
    return f"{where}: {problem_ru(dict(first)) if lang == 'ru' else first.get('msg', 'invalid')}"


def read_roster(text: str, existing: set[str], lang: str = "en") -> list[Checked]:
    """Every row of a CSV or JSON roster, checked (an id taken or repeated is an error)."""
    records = _records(text)
    if len(records) > MAX_ROWS:
        raise InvalidInput(
            f"A roster of {len(records)} rows: import at most {MAX_ROWS} at a time",
            ru=f"В списке {len(records)} строк: за раз можно не больше {MAX_ROWS}",
        )
    out: list[Checked] = []
    seen: set[str] = set()
    for n, raw in enumerate(records, start=1):
        try:
            row = RosterRow.model_validate(raw)
        except ValidationError as exc:
            out.append(Checked(n, raw, None, _problem(exc, lang)))
            continue
        if row.id in existing or row.id in seen:
            where = "в кампании" if row.id in existing else "выше в списке"
            error = (
                f"id {row.id!r} уже есть {where}"
                if lang == "ru"
                else f"id {row.id!r} is taken "
                + ("in the campaign" if row.id in existing else "by a row above")
            )
            out.append(Checked(n, raw, row, error))
            continue
        seen.add(row.id)
        out.append(Checked(n, raw, row))
    return out


def by_master(user: User) -> dict[str, Any]:
    """Who a master's change names (``actor``, ``role``, ``user``), as
    :meth:`PlayService.act` names who acted: ``username:master`` and the account."""
    return {"actor": f"{user.username}:{Role.MASTER.value}", "role": Role.MASTER, "user": user.id}


def import_roster(
    campaigns: CampaignService,
    campaign: str,
    rows: list[RosterRow],
    *,
    actor: str = "master",
    role: Role = Role.MASTER,
    user: int | None = None,
) -> list[Event]:
    """Add every character of ``rows`` in one change (all or none): one record, so a
    re-run of the history adds them again. The record names who imported, as an
    action's names who acted (``actor``, ``role``, the ``user`` account)."""
    if not rows:
        raise InvalidInput("The roster has no characters", ru="В списке нет персонажей")

    rs = campaigns.ruleset(campaign)

    def characters(st: CampaignState) -> dict[str, Any]:
        out = []
        for row in rows:
            hits = rs.starting_hits(st.params, row.hits)
            character = Character(
                id=row.id,
                name=row.name,
                hits_max=hits,
                hits=hits,
                race=row.race,
                age=row.age,
                skills=row.skills,
            )
            out.append(character.model_dump(mode="json"))
        return {"characters": out}

    draft = Draft("character", make_input=characters, actor=actor, role=role, user=user)
    return campaigns.submit(campaign, None, draft=draft).result()
