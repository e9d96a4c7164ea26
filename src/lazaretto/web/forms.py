"""Action forms generated from an action's input model, and form data parsed back.

One widget per field of the Pydantic model (DESIGN.md, principle 1: the form is not
written by hand): text, number (with the model's bounds), a checkbox for a bool, a
select for a ``Literal``, an enum or a field naming something of the campaign
(web/picks.py), and a text area with one item per line for a list.
A list of objects (stitches, tables, beds) takes ``key=value, key=value`` per line, the
first field's value alone, or a JSON object. The parsed dict is the action's raw input:
empty optional fields (and a checkbox left at its default) are left out so the
model's defaults apply, and the model
itself validates (the engine turns its complaint into an ``InvalidInput``).
"""

from __future__ import annotations

import enum
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from starlette.datastructures import FormData

from lazaretto.core.errors import InvalidInput
from lazaretto.reading.fields import field_help
from lazaretto.service.play import CHARACTER_FIELDS, HEALER_FIELDS
from lazaretto.web import i18n

SUBJECT_FIELDS = tuple(f for f in CHARACTER_FIELDS if f not in HEALER_FIELDS) + HEALER_FIELDS
"""Fields naming a character, the one an action is *about* first (patient before healer)."""


@dataclass(frozen=True)
class FormField:
    """One input of an action form, ready for the template."""

    name: str
    widget: str  # text | number | checkbox | select | lines
    label: str
    help: str
    required: bool
    value: str
    options: tuple[tuple[str, str], ...] = ()
    attrs: tuple[tuple[str, str], ...] = ()
    placeholder: str = ""  # the model's default, shown, never sent


def shape(annotation: Any) -> tuple[Any, bool]:
    """The base type of a field and whether it is a list (``X | None`` is unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return shape(args[0]) if len(args) == 1 else (str, False)
    if origin is list:
        return typing.get_args(annotation)[0], True
    return annotation, False


def _is_model(base: Any) -> bool:
    return isinstance(base, type) and issubclass(base, BaseModel)


def choices(base: Any) -> tuple[str, ...]:
    """The values a select offers for a ``Literal`` or an enum type (none for others)."""
    if typing.get_origin(base) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(base))
    if isinstance(base, type) and issubclass(base, enum.Enum):
        return tuple(str(m.value) for m in base)
    return ()


def subject_field(model: type[BaseModel]) -> str | None:
    """The field naming the character the action is about (``?character=`` fills it)."""
    return next((f for f in SUBJECT_FIELDS if f in model.model_fields), None)


def _show(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, dict):
        return ", ".join(f"{k}={'' if v is None else v}" for k, v in value.items())
    if isinstance(value, list):
        return "\n".join(_show(v) for v in value)
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


def _attrs(info: FieldInfo, base: Any) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for m in info.metadata:
        for key, attr in (("ge", "min"), ("gt", "min"), ("le", "max"), ("lt", "max")):
            if base in (int, float) and getattr(m, key, None) is not None:
                out.append((attr, str(getattr(m, key))))
        if base is str and getattr(m, "max_length", None) is not None:
            out.append(("maxlength", str(m.max_length)))
    if base is int:
        out += [("step", "1"), ("inputmode", "numeric")]
    elif base is float:
        out += [("step", "any"), ("inputmode", "decimal")]
    return tuple(out)


def _help(info: FieldInfo, base: Any, many: bool, lang: str) -> str:
    text = field_help(info, lang)  # a field's own translation, else the catalogue's
    if many:
        keys = ", ".join(f"{k}=…" for k in base.model_fields) if _is_model(base) else ""
        hint = i18n.text("one_per_line", lang) + (f": {keys}" if keys else "")
        text = f"{text} ({hint})" if text else hint
    return text


def fields(
    model: type[BaseModel],
    values: Mapping[str, str],
    lang: str,
    picks: Mapping[str, list[tuple[str, str]]] | None = None,
) -> list[FormField]:
    """The form's inputs, filled from ``values`` only.

    An optional field the user did not fill is sent empty, so the action gets what it
    would get with the field omitted (the model's default is shown as a placeholder);
    a select always starts with an empty choice. ``picks`` are the choices of fields
    that name something of the campaign (web/picks.py): those fields are selects too.
    """
    out = []
    for name, info in model.model_fields.items():
        base, many = shape(info.annotation)
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        if base is bool and not many:
            value = values.get(name, _show(bool(default)))
        else:
            value = values.get(name, "")
        named = tuple((picks or {}).get(name, ())) if not many else ()
        offered = () if many else tuple((c, c) for c in choices(base)) or named
        if offered and value and value not in {v for v, _ in offered}:
            offered = ((value, value), *offered)  # a prefilled id the list lacks
        if base is bool and not many:
            widget = "checkbox"
        elif many:
            widget = "lines"
        elif offered:
            widget = "select"
        elif base in (int, float):
            widget = "number"
        else:
            widget = "text"
        out.append(
            FormField(
                name=name,
                widget=widget,
                # a select of the campaign's locations names a place, not a body part
                label=i18n.text("game_location", lang)
                if name == "location" and named
                else i18n.field_label(name, lang),
                help=_help(info, base, many, lang),
                required=info.is_required() and widget not in ("checkbox", "lines"),
                value=value,
                options=offered,
                attrs=() if many else _attrs(info, base),
                placeholder="" if widget == "checkbox" else _show(default),
            )
        )
    return out


def _item(base: type[BaseModel], name: str, line: str) -> Any:
    if line.startswith("{"):
        try:
            return json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                f"{name}: {line!r} is not a JSON object ({exc.msg})",
                ru=f"{name}: {line!r} — не объект JSON ({exc.msg})",
            ) from exc
    if "=" in line:
        pairs = (part.split("=", 1) for part in line.split(",") if part.strip())
        return {k.strip(): v.strip() for k, v in pairs if v.strip()}
    return {next(iter(base.model_fields)): line}


def parse(model: type[BaseModel], form: FormData) -> dict[str, Any]:
    """The action's raw input from submitted form data (empty optional fields left out)."""
    raw: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        base, many = shape(info.annotation)
        if base is bool and not many:
            sent = form.getlist(name)
            default = not info.is_required() and info.get_default(call_default_factory=True)
            if sent and ("1" in sent) != bool(default):  # the default is left to the model
                raw[name] = "1" in sent
            continue
        text = form.get(name)
        if not isinstance(text, str) or not text.strip():
            continue
        if many:
            lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
            raw[name] = [_item(base, name, ln) for ln in lines] if _is_model(base) else lines
        else:
            raw[name] = text.strip()
    return raw


def submitted(model: type[BaseModel], form: FormData) -> dict[str, str]:
    """What the user typed, to fill the form again after a refusal."""
    values: dict[str, str] = {}
    for name, info in model.model_fields.items():
        base, many = shape(info.annotation)
        if base is bool and not many:
            values[name] = "1" if "1" in form.getlist(name) else "0"
        elif isinstance(form.get(name), str):
            values[name] = str(form.get(name))
    return values
