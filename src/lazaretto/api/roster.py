"""``POST /api/campaigns/{campaign}/characters/import``: a roster in one change.

The API side of :mod:`lazaretto.service.roster`, as the web's roster page and
``lazaretto character import`` use it: every row is checked first; a roster with any
row in error is refused whole (422, each row's number and problem in the caller's
language); one without is added as ONE record (all the characters or none).
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Response
from pydantic import BaseModel, Field

from lazaretto.api.context import LangDep, ServicesDep
from lazaretto.api.routes import ChangerDep
from lazaretto.core.errors import InvalidInput
from lazaretto.core.ruleset import Role
from lazaretto.service import joinrpg, roster

router = APIRouter(prefix="/api/campaigns/{campaign}", tags=["characters"])

MAX_TEXT = 1_000_000
"""Characters of a roster's text at most (the app refuses bodies over 1 MB anyway)."""


class RosterImport(BaseModel):
    """A roster to import: its text and which format it is."""

    format: Literal["csv", "json", "joinrpg"] = Field(
        description="`csv`: a header line (id,name,hits,race,age,skills), then one "
        "character a line, skills separated by `;`. `json`: a list of objects with "
        "those keys, skills a list of strings. `joinrpg`: JoinRPG's game API answers, "
        '`{"metadata": ProjectFieldsMetadata, "characters": [CharacterInfo]}` '
        "(docs/joinrpg.md)."
    )
    text: str = Field(max_length=MAX_TEXT, description="the file's content (UTF-8 text)")
    dry_run: bool = Field(False, description="check every row and import nothing")
    metadata: str | None = Field(
        None, max_length=MAX_TEXT, description="joinrpg: the fields metadata answer, if apart"
    )
    fields: dict[str, str] = Field(
        default_factory=dict,
        max_length=50,
        description="joinrpg: target → JoinRPG field name, where no ProgrammaticValue says "
        'it (`{"hits": "Хиты"}`)',
    )
    include_inactive: bool = Field(False, description="joinrpg: import inactive characters")
    include_npc: bool = Field(False, description="joinrpg: import NPCs and unclaimed ones")
    checked_in: bool = Field(False, description="joinrpg: only characters checked in")


class RosterRowReport(BaseModel):
    """What a JoinRPG import does with one character."""

    line: int = Field(description="the character's number in the answer: 1 is the first")
    id: str | None = Field(description="its CharacterId")
    name: str | None
    status: Literal["added", "unchanged", "changed", "skipped"]
    message: str = Field(description="why skipped, or what differs, in the caller's language")


class RosterImported(BaseModel):
    """What an import (or a dry run) did."""

    imported: int = Field(description="characters added (0 in a dry run)")
    record: int | None = Field(description="the one record that added them (null in a dry run)")
    checked: int = Field(description="rows read and checked")
    dry_run: bool


class JoinRpgImported(RosterImported):
    """What a JoinRPG import (or its dry run) did, character by character."""

    added: int = Field(description="new CharacterIds")
    unchanged: int = Field(description="already in the campaign, same")
    changed: int = Field(description="already in the campaign, different there: kept as is")
    skipped: int = Field(description="inactive, NPC, not checked in")
    rows: list[RosterRowReport] = Field(description="every character, in the answer's order")


class RosterRowError(BaseModel):
    """A row that cannot be imported."""

    line: int = Field(description="the row's number: 1 is the first character")
    id: str | None = Field(description="the row's id, if it has one")
    name: str | None = Field(None, description="joinrpg: the character's name")
    message: str = Field(description="what is wrong, in the caller's language")


class RosterRejectedPublic(BaseModel):
    """The answer to a roster refused whole (422)."""

    error: str
    message: str
    rule_ids: list[str]
    imported: int = 0
    record: int | None = None
    errors: list[RosterRowError] = Field(default_factory=list, description="every row in error")


class RosterRejected(InvalidInput):
    """Raised when rows of a roster have errors: nothing is imported; the answer lists
    each row's number and problem."""

    def __init__(self, errors: list[dict[str, Any]], total: int) -> None:
        n = len(errors)
        super().__init__(
            f"{n} of {total} rows {'has an error' if n == 1 else 'have errors'}: "
            "nothing was imported",
            ru=f"Строк с ошибками: {n} из {total} — ничего не добавлено",
            tip="Fix the rows and send the roster again.",
            tip_ru="Исправьте строки и отправьте список снова.",
        )
        self.errors = errors

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        """The error's shape (named ``InvalidInput``, as the CLI's is) with every row."""
        body = {**super().to_dict(lang), "error": InvalidInput.__name__}
        return {**body, "imported": 0, "record": None, "errors": self.errors}


def _check_format(body: RosterImport) -> None:
    """Refuse a text that is not the format it is said to be (the roster is read as JSON
    when it starts with ``[`` or ``{``, as CSV otherwise)."""
    looks_json = body.text.lstrip("\ufeff").strip().startswith(("[", "{"))
    if body.format in ("json", "joinrpg") and not looks_json:
        raise InvalidInput(
            "format is json but the text is not a JSON list or object (it must start with [)",
            ru="format — json, но текст не список или объект JSON (начало — [)",
        )
    if body.format == "csv" and looks_json:
        raise InvalidInput(
            "format is csv but the text holds JSON: send format json",
            ru="format — csv, но в тексте JSON: укажите format json",
        )


_EXAMPLES: dict[str, Any] = {
    "csv": {
        "summary": "CSV",
        "value": {
            "format": "csv",
            "text": "id,name,hits,race,age,skills\n"
            "1001,Vera,12,human,30,medicine;herbs\n1002,Boris,,dwarf,,\n",
        },
    },
    "json": {
        "summary": "JSON",
        "value": {
            "format": "json",
            "text": '[{"id": "1001", "name": "Vera", "hits": 12, "skills": ["medicine"]}, '
            '{"id": "1002", "name": "Boris"}]',
        },
    },
    "dry_run": {
        "summary": "Check only",
        "value": {"format": "csv", "text": "id,name\n1001,Vera\n", "dry_run": True},
    },
}

_REJECTED_EXAMPLE = {
    "error": "InvalidInput",
    "message": "1 of 2 rows has an error: nothing was imported. "
    "Fix the rows and send the roster again.",
    "rule_ids": [],
    "imported": 0,
    "record": None,
    "errors": [
        {
            "line": 2,
            "id": "1002",
            "message": "hits: Input should be a valid integer, "
            "unable to parse string as an integer",
        }
    ],
}


@router.post(
    "/characters/import",
    response_model=RosterImported | JoinRpgImported,
    status_code=201,
    summary="Import a roster of characters (CSV or JSON) in one change",
    responses={
        200: {
            "model": RosterImported | JoinRpgImported,
            "description": "a dry run: every row is fine (joinrpg: also nothing new to add)",
        },
        403: {"description": "only the campaign's masters import rosters"},
        422: {
            "model": RosterRejectedPublic,
            "description": "rows with errors, each listed in `errors`; or a text that "
            "cannot be read as its format (then only `error` and `message`). Nothing was "
            "imported.",
            "content": {"application/json": {"example": _REJECTED_EXAMPLE}},
        },
    },
)
def import_roster(
    campaign: str,
    body: Annotated[RosterImport, Body(openapi_examples=_EXAMPLES)],
    response: Response,
    svc: ServicesDep,
    who: ChangerDep,
    lang: LangDep,
) -> RosterImported | JoinRpgImported:
    """Add every character of a roster as ONE record (masters): all of them or none.

    Up to 5,000 rows; columns `id` and `name` required, `hits` (empty: the ruleset's
    default), `race`, `age`, `skills`. An id already in the campaign or repeated in
    the roster is an error of its row. With `dry_run` the rows are only checked (200).

    `format: joinrpg` (docs/joinrpg.md): each character is `added` (a new
    CharacterId), `unchanged` or `changed` (already in the campaign: never added
    twice; a changed one is kept as the campaign has it) or `skipped` (inactive, NPC,
    without a player, not checked in — unless `include_…`); the answer lists them all.
    """
    svc.play.require(who.user, campaign, Role.MASTER)
    _check_format(body)
    if body.format == "joinrpg":
        return _import_joinrpg(campaign, body, response, svc, who, lang)
    _, state, _ = svc.campaigns.load(campaign)
    checked = roster.read_roster(body.text, set(state.characters), lang)
    if not checked:
        raise InvalidInput("The roster has no characters", ru="В списке нет персонажей")
    errors = [{"line": c.line, "id": _id(c.raw), "message": c.error} for c in checked if c.error]
    if errors:
        raise RosterRejected(errors, len(checked))
    if body.dry_run:
        response.status_code = 200
        return RosterImported(imported=0, record=None, checked=len(checked), dry_run=True)
    rows = [c.row for c in checked if c.row is not None]
    done = roster.import_roster(svc.campaigns, campaign, rows, **roster.by_master(who.user))
    return RosterImported(
        imported=len(rows),
        record=getattr(done, "record", None),
        checked=len(checked),
        dry_run=False,
    )


def _id(raw: dict[str, Any]) -> str | None:
    value = raw.get("id")
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def _import_joinrpg(
    campaign: str,
    body: RosterImport,
    response: Response,
    svc: ServicesDep,
    who: ChangerDep,
    lang: str,
) -> JoinRpgImported:
    """``format: joinrpg``: classify every character, refuse on any error, add the new
    (:func:`lazaretto.service.roster.import_joinrpg`, as the CLI and the web page)."""
    options = joinrpg.Options(
        {k.removeprefix("lazaretto:"): v for k, v in body.fields.items()},
        body.include_inactive,
        body.include_npc,
        body.checked_in,
    )
    done = roster.import_joinrpg(
        svc.campaigns,
        campaign,
        body.text,
        lang=lang,
        options=options,
        metadata=body.metadata,
        dry_run=body.dry_run,
        **roster.by_master(who.user),
    )
    checked, record = done.checked, done.record
    errors = [
        {"line": c.line, "id": c.raw.get("id"), "name": c.raw.get("name"), "message": c.error}
        for c in done.errors
    ]
    if errors:
        raise RosterRejected(errors, len(checked))
    if record is None:
        response.status_code = 200
    counts = Counter(c.status for c in checked)
    rows = [
        RosterRowReport(
            line=c.line, id=c.raw.get("id"), name=c.raw.get("name"), status=c.status, message=c.note
        )
        for c in checked
    ]
    return JoinRpgImported(
        imported=0 if record is None else len(done.added),
        record=record,
        checked=len(checked),
        dry_run=body.dry_run,
        added=counts["added"],
        unchanged=counts["unchanged"],
        changed=counts["changed"],
        skipped=counts["skipped"],
        rows=rows,
    )
