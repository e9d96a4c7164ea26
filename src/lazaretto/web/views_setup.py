"""A GM starts from the web alone: a new campaign, its characters one by one or by import.

``GET /new`` picks the ruleset, then shows the campaign form with that ruleset's
parameters, each with its documented default (the comment beside it in the ruleset's
``params.yaml``); only the ones filled in are sent as overrides. ``/c/{campaign}/roster``
(masters) adds a character, or imports a CSV or JSON roster or JoinRPG's answers
(docs/joinrpg.md): the rows are shown first, each with its own error (JoinRPG: also
added / unchanged / changed / skipped, and selects to map the project's fields), and a
roster without errors is added in one change (:mod:`lazaretto.service.roster`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import yaml
from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from lazaretto.api import routes
from lazaretto.api.context import Caller, lang, services
from lazaretto.api.schemas import CampaignCreate, CharacterCreate
from lazaretto.core.errors import InvalidInput, LazarettoError
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.service import roster
from lazaretto.web import roster_joinrpg
from lazaretto.web.pages import check_csrf, frame, redirect, render, router, who

ROUTER = router()
MAX_UPLOAD = 512_000
"""Bytes of a roster file read at most."""

_DOC = re.compile(r"^([a-z_][a-z0-9_]*):\s*(.*?)\s+#\s*(.*)$")


@dataclass(frozen=True)
class ParamDoc:
    """A ruleset parameter as the new-campaign form shows it."""

    name: str
    default: str
    doc: str


def param_docs(rs: Ruleset) -> list[ParamDoc]:
    """Every scalar parameter, its default and the comment documenting it."""
    package = "lazaretto.rulesets." + rs.id.replace("-", "_")
    comments: dict[str, str] = {}
    try:
        text = (files(package) / "params.yaml").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        text = ""
    for line in text.splitlines():
        found = _DOC.match(line)
        if found:
            comments[found.group(1)] = found.group(3)
    out = []
    for name, value in rs.params.model_dump(mode="json").items():
        if isinstance(value, (dict, list)):
            continue  # tables: overridden from the CLI or the API
        shown = "" if value is None else str(value).lower() if isinstance(value, bool) else value
        out.append(ParamDoc(name, str(shown), comments.get(name, "")))
    return out


def _overrides(form: FormData, rs: Ruleset) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for doc in param_docs(rs):
        value = form.get(f"p.{doc.name}")
        if isinstance(value, str) and value.strip():
            try:
                out[doc.name] = yaml.safe_load(value.strip())
            except (yaml.YAMLError, ValueError) as exc:
                raise InvalidInput(
                    f"Parameter {doc.name}: {value!r} is not a value",
                    ru=f"Параметр {doc.name}: {value!r} — не значение",
                ) from exc
    return out


def _new_page(
    request: Request,
    caller: Caller,
    ruleset: str,
    status: int = 200,
    error: str = "",
    v: dict[str, str] | None = None,
) -> Response:
    rs = get_ruleset(ruleset) if ruleset in rulesets() else None
    return render(
        request,
        "new_campaign.html",
        caller=caller,
        status=status,
        error=error,
        rulesets=sorted(rulesets().values(), key=lambda r: r.id),
        rs=rs,
        params=param_docs(rs) if rs else [],
        tabletop=rs is not None and not rs.id.endswith("-larp"),
        v=v or {},
    )


@ROUTER.get("/new")
def new_campaign(request: Request, ruleset: str = "") -> Response:
    """The new-campaign form (first the ruleset, then its clock and parameters)."""
    return _new_page(request, who(request), ruleset)


@ROUTER.post("/new")
async def create_campaign(request: Request) -> Response:
    """Create the campaign; the caller becomes its master and lands on its roster."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    ruleset = values.get("ruleset", "")
    try:
        rs = get_ruleset(ruleset)
        body = CampaignCreate(
            name=values.get("name", "").strip(),
            ruleset=rs.id,
            clock=values.get("clock", "manual"),
            start=values.get("start", "").replace("T", " ").strip() or None,
            seed=int(values["seed"]) if values.get("seed", "").strip().isdigit() else None,
            params=_overrides(form, rs),
        )
        svc = services(request)
        made = await run_in_threadpool(routes.create_campaign, body, svc, caller)
    except LazarettoError as err:
        return _new_page(request, caller, ruleset, err.http_status, err.text(lang(request)), values)
    except ValueError as err:  # the schema's own checks (a name too long, ...)
        msg = str(err).splitlines()
        return _new_page(request, caller, ruleset, 422, msg[-1] if msg else str(err), values)
    return redirect(f"/c/{made.id}/roster")


def _roster_page(request: Request, campaign: str, status: int = 200, **extra: Any) -> Response:
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER)
    found = svc.play.cards(caller.user, campaign, lang(request))
    return render(
        request,
        "roster.html",
        caller=caller,
        camp=camp,
        status=status,
        rows=found,
        columns=roster.COLUMNS,
        **extra,
    )


@ROUTER.get("/c/{campaign}/roster")
def roster_page(request: Request, campaign: str) -> Response:
    """The characters, a form to add one and the import (masters)."""
    return _roster_page(request, campaign)


@ROUTER.post("/c/{campaign}/roster/add")
async def add_character(request: Request, campaign: str) -> Response:
    """Add one character (masters), then the roster again to add the next."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    v = {k: str(val).strip() for k, val in form.items() if isinstance(val, str)}
    svc = services(request)
    try:
        await run_in_threadpool(svc.play.require, caller.user, campaign, Role.MASTER)
        rs, state, _ = await run_in_threadpool(svc.campaigns.load, campaign)
        hits = int(v["hits"]) if v.get("hits", "").isdigit() else None
        body = CharacterCreate(
            id=v.get("id", ""),
            name=v.get("name", ""),
            hits=rs.starting_hits(state.params, hits),
            race=v.get("race", ""),
            age=int(v["age"]) if v.get("age", "").isdigit() else None,
            skills=[s.strip() for s in v.get("skills", "").split(";") if s.strip()],
        )
        await run_in_threadpool(routes.add_character, campaign, body, svc, caller, lang(request))
    except LazarettoError as err:
        return await run_in_threadpool(
            _roster_page, request, campaign, err.http_status, error=err.text(lang(request)), v=v
        )
    except ValueError as err:
        first = str(err).splitlines()
        msg = f"{first[1] if len(first) > 1 else ''}: {first[-1]}".strip(": ")
        return await run_in_threadpool(_roster_page, request, campaign, 422, error=msg, v=v)
    return await run_in_threadpool(
        _roster_page, request, campaign, 201, added=f"{body.name} ({body.id})"
    )


async def _roster_text(form: FormData) -> str:
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read(MAX_UPLOAD + 1)
        if len(data) > MAX_UPLOAD:
            raise InvalidInput(
                f"The roster file is over {MAX_UPLOAD // 1000} KB",
                ru=f"Файл списка больше {MAX_UPLOAD // 1000} КБ",
            )
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                "The roster file is not UTF-8 text: save it as CSV (UTF-8) or JSON",
                ru="Файл списка — не текст UTF-8: сохраните его как CSV (UTF-8) или JSON",
            ) from exc
    text = form.get("text")
    return text if isinstance(text, str) else ""


@ROUTER.post("/c/{campaign}/roster/import")
async def import_roster(request: Request, campaign: str) -> Response:
    """Check a roster (the preview); with ``step=import`` and no errors, add it all."""
    caller = who(request)
    form = await request.form()
    check_csrf(form, caller)
    language = lang(request)
    svc = services(request)
    text = ""
    from_joinrpg = form.get("format") == roster_joinrpg.FORMAT
    try:
        text = await _roster_text(form)
        await run_in_threadpool(svc.play.require, caller.user, campaign, Role.MASTER)
        if from_joinrpg:
            return await run_in_threadpool(_import_joinrpg, request, caller, campaign, form, text)
        _, state, _ = await run_in_threadpool(svc.campaigns.load, campaign)
        checked = roster.read_roster(text, set(state.characters), language)
        bad = [c for c in checked if c.error]
        if form.get("step") == "import" and not bad:
            rows = [c.row for c in checked if c.row is not None]
            signed = roster.by_master(caller.user)
            await run_in_threadpool(
                lambda: roster.import_roster(svc.campaigns, campaign, rows, **signed)
            )
            return await run_in_threadpool(_roster_page, request, campaign, 201, imported=len(rows))
    except LazarettoError as err:
        kept: dict[str, Any] = {"text": text, "fmt": form.get("format")}
        if from_joinrpg:
            kept["flags"] = {f: form.get(f) == "on" for f in roster_joinrpg.FLAGS}
        return await run_in_threadpool(
            _roster_page, request, campaign, err.http_status, error=err.text(language), **kept
        )
    return await run_in_threadpool(
        _roster_page, request, campaign, 422 if bad else 200, preview=checked, text=text
    )


def _import_joinrpg(
    request: Request, caller: Caller, campaign: str, form: FormData, text: str
) -> Response:
    """JoinRPG's answers: check them (the preview, with the mapping selects), or with
    ``step=import`` import the new characters, through the service path the API and the
    CLI take (:func:`roster.import_joinrpg`: nothing if any row has an error). An
    import whose selects or checkboxes are not those of the preview shown is a check."""
    options = roster_joinrpg.options_of(form)
    previewed = form.get("previewed") == roster_joinrpg.key_of(options, text)
    importing = form.get("step") == "import"
    done = roster.import_joinrpg(
        services(request).campaigns,
        campaign,
        text,
        lang=lang(request),
        options=options,
        dry_run=not (importing and previewed),
        **roster.by_master(caller.user),
    )
    shown = roster_joinrpg.preview(done.checked, text, options, lang(request))
    if done.record is not None:
        return _roster_page(request, campaign, 201, imported=len(done.added), joinrpg_done=shown)
    return _roster_page(
        request,
        campaign,
        422 if done.errors else 200,
        joinrpg=shown,
        text=text,
        stale=importing and not previewed,
        nothing_new=importing and previewed and not done.errors,
    )
