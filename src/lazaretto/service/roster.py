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
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lazaretto.core.character import Character
from lazaretto.core.errors import InvalidInput, problem_ru
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role
from lazaretto.core.state import CampaignState
from lazaretto.service import joinrpg
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
    status: str = ""
    """JoinRPG: ``added``, ``unchanged``, ``changed`` (kept as it is) or ``skipped``."""
    note: str = ""
    """Why a row is skipped, or what differs in a changed one, in the caller's language."""
    data: dict[str, Any] = field(default_factory=dict)
    """What the character keeps besides the columns (its JoinRPG groups and player)."""


@dataclass(frozen=True)
class JoinRpgImport:
    """What :func:`import_joinrpg` did: every character as checked, and the record that
    added the new ones (None: a dry run, a row in error, or nobody new)."""

    checked: list[Checked]
    record: int | None

    @property
    def errors(self) -> list[Checked]:
        """The rows in error (any of them refuses the whole import)."""
        return [c for c in self.checked if c.error]

    @property
    def added(self) -> list[Checked]:
        """The rows of new CharacterIds (added, or to be added by the import)."""
        return [c for c in self.checked if c.status == "added" and c.row is not None]


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
    data: dict[str, dict[str, Any]] | None = None,
) -> list[Event]:
    """Add every character of ``rows`` in one change (all or none): one record, so a
    re-run of the history adds them again. The record names who imported, as an
    action's names who acted (``actor``, ``role``, the ``user`` account); ``data``
    gives a character's data by its id (a JoinRPG import: its groups)."""
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
                data=(data or {}).get(row.id, {}),
            )
            out.append(character.model_dump(mode="json"))
        return {"characters": out}

    draft = Draft("character", make_input=characters, actor=actor, role=role, user=user)
    return campaigns.submit(campaign, None, draft=draft).result()


def _differs(row: RosterRow, data: dict[str, Any], ch: Character, hits: int, lang: str) -> str:
    """What a JoinRPG row says otherwise than the character already in the campaign."""
    was = {"name": ch.name, "race": ch.race, "age": ch.age, "skills": ch.skills,
           "hits": ch.hits_max}  # fmt: skip
    now = {"name": row.name, "race": row.race, "age": row.age, "skills": row.skills,
           "hits": hits}  # fmt: skip
    keys = [k for k in was if was[k] != now[k]]
    keys += [k for k in data if ch.data.get(k) != data[k]]
    if not keys:
        return ""
    listed = ", ".join(keys)
    if lang == "ru":
        return f"в JoinRPG иначе: {listed}; в кампании персонаж оставлен как есть"
    return f"differs in JoinRPG: {listed}; the character is kept as the campaign has it"


def read_joinrpg(
    text: str,
    state: CampaignState,
    hits_of: Any,
    lang: str = "en",
    options: joinrpg.Options | None = None,
    metadata: str | None = None,
) -> list[Checked]:
    """Every character of a JoinRPG answer (docs/joinrpg.md), checked and classified:
    ``added`` (new id), ``unchanged`` or ``changed`` (the id is in the campaign: a
    second import never duplicates), ``skipped`` (inactive, NPC, not checked in), or
    with its error. ``hits_of(hits)`` gives a new character's hits (the ruleset's)."""
    options = options or joinrpg.Options()
    meta = joinrpg.parse_json(metadata, "metadata") if metadata is not None else None
    characters, fields_meta = joinrpg.read_document(joinrpg.parse_json(text), meta)
    fields = joinrpg.read_fields(fields_meta, options)
    out: list[Checked] = []
    seen: set[str] = set()
    for m in joinrpg.map_characters(characters, fields, options, lang):
        raw = {"id": m.id, "name": m.name}
        if m.error:
            out.append(Checked(m.index, raw, None, m.error))
            continue
        if m.skipped:
            out.append(Checked(m.index, raw, None, status="skipped", note=m.skipped))
            continue
        try:
            row = RosterRow.model_validate(m.values)
        except ValidationError as exc:
            out.append(Checked(m.index, raw, None, _problem(exc, lang)))
            continue
        if row.id in seen:
            again = "CharacterId повторяется выше" if lang == "ru" else "CharacterId repeats above"
            out.append(Checked(m.index, raw, row, again))
            continue
        seen.add(row.id)
        had = state.characters.get(row.id)
        if had is None:
            out.append(Checked(m.index, raw, row, status="added", data=m.data))
            continue
        note = _differs(row, m.data, had, hits_of(row.hits) if row.hits is not None
                        else had.hits_max, lang)  # fmt: skip
        status = "changed" if note else "unchanged"
        out.append(Checked(m.index, raw, row, status=status, note=note, data=m.data))
    return out


def import_joinrpg(
    campaigns: CampaignService,
    campaign: str,
    text: str,
    *,
    lang: str = "en",
    options: joinrpg.Options | None = None,
    metadata: str | None = None,
    dry_run: bool = False,
    actor: str = "master",
    role: Role = Role.MASTER,
    user: int | None = None,
) -> JoinRpgImport:
    """Check a JoinRPG roster (:func:`read_joinrpg`) and, unless it is a dry run or a
    row has an error, add its new characters as ONE record (:func:`import_roster`),
    with their JoinRPG data. The one path the API, the CLI and the web page import
    through, so "nothing is half imported" holds the same from each; each entry point
    only says the outcome its own way (a 422, a table, a page)."""
    rs, state, _ = campaigns.load(campaign)
    checked = read_joinrpg(
        text, state, lambda h: rs.starting_hits(state.params, h), lang, options, metadata
    )
    if not checked:
        raise InvalidInput("The roster has no characters", ru="В списке нет персонажей")
    outcome = JoinRpgImport(checked, None)
    new = [c.row for c in outcome.added if c.row is not None]
    if dry_run or outcome.errors or not new:
        return outcome
    done = import_roster(
        campaigns,
        campaign,
        new,
        actor=actor,
        role=role,
        user=user,
        data={c.row.id: c.data for c in outcome.added if c.row is not None},
    )
    return JoinRpgImport(checked, getattr(done, "record", None))
