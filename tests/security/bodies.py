"""Smallest valid inputs for any action or query, built from its input model's JSON schema.

The authorization tests need a body that the input model accepts (otherwise FastAPI
answers 422 before any role is checked), naming the characters the test chooses: every
field that names who acts or whom it is about gets one of them, every other required
field the smallest value its schema allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from lazaretto.service.play import CHARACTER_FIELDS

ACTING_FIELDS = ("healer", "supporter", "author", "actor", "taker")
"""Fields naming the character who does the action (as opposed to whom it is done to)."""
CHARACTER_LISTS = ("characters",)
"""List fields naming the characters an action is about."""


@dataclass(frozen=True)
class Names:
    """Which character goes where: ``acting`` in :data:`ACTING_FIELDS`, ``subject`` in
    every other character field."""

    subject: str
    acting: str


def body_for(model: type[BaseModel], names: Names) -> dict[str, Any]:
    """A body ``model`` validates, with the character fields filled from ``names``."""
    schema = model.model_json_schema()
    return _object(schema, schema, names)


def named_characters(body: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The characters a body names in acting fields, and in the other character fields."""
    acting = [body[f] for f in ACTING_FIELDS if isinstance(body.get(f), str)]
    others = [body[f] for f in CHARACTER_FIELDS if f not in ACTING_FIELDS and f in body]
    others += [c for f in CHARACTER_LISTS for c in body.get(f, [])]
    return acting, [c for c in others if isinstance(c, str)]


def form_fields(body: dict[str, Any]) -> dict[str, str]:
    """The same input as an HTML form posts it (see lazaretto/web/forms.py)."""
    out: dict[str, str] = {}
    for key, value in body.items():
        if isinstance(value, bool):
            if value:
                out[key] = "on"
        elif isinstance(value, list):
            out[key] = "\n".join(str(v) for v in value)
        else:
            out[key] = str(value)
    return out


def _object(schema: dict[str, Any], node: dict[str, Any], names: Names) -> dict[str, Any]:
    required = set(node.get("required", []))
    wanted = required | set(CHARACTER_FIELDS) | set(CHARACTER_LISTS)
    return {
        field: _value(schema, sub, field, names)
        for field, sub in node.get("properties", {}).items()
        if field in wanted
    }


def _value(schema: dict[str, Any], node: dict[str, Any], name: str, names: Names) -> Any:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            options = [o for o in node[key] if o.get("type") != "null"]
            return _value(schema, options[0], name, names)
    kind = node.get("type")
    if kind == "string":
        if name in CHARACTER_FIELDS:
            return names.acting if name in ACTING_FIELDS else names.subject
        if node.get("format") == "date-time":
            return "2026-06-13T10:00:00"
        return "x" * max(1, node.get("minLength", 1))
    if kind in ("integer", "number"):
        return _number(node, integer=kind == "integer")
    if kind == "boolean":
        return False
    if kind == "array":
        if name in CHARACTER_LISTS:
            return [names.subject]
        items = node.get("items", {})
        return [_value(schema, items, name, names) for _ in range(node.get("minItems", 0))]
    if kind == "object" or "properties" in node:
        return _object(schema, node, names)
    return "x"


def _number(node: dict[str, Any], *, integer: bool) -> int | float:
    """1 if the bounds allow it, else the bound nearest to 1."""
    low = node.get("minimum", node["exclusiveMinimum"] + 1 if "exclusiveMinimum" in node else 1)
    high = node.get("maximum", node["exclusiveMaximum"] - 1 if "exclusiveMaximum" in node else 1)
    value = max(low, min(1, high)) if low <= high else low
    return int(value) if integer else float(value)
