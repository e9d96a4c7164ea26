"""The Russian words of the action and query fields (``fields_ru.yaml``): a label per
field name and a help text per English field description, for the generated web forms
(``web/forms.py``) and the options of ``lazaretto act`` and ``query``
(``cli/actions.py``). A field's own ``json_schema_extra={"description_ru": ...}`` wins
over the catalogue; what neither has keeps its English words.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict
from pydantic.fields import FieldInfo

from lazaretto.core.datafile import load_package_yaml

CATALOGUE = "fields_ru.yaml"
"""The catalogue, next to this module."""

_CYRILLIC = re.compile("[А-Яа-яЁё]")


def _russian(text: str) -> str:
    if not text.strip():
        raise ValueError("empty text")
    if not _CYRILLIC.search(text):
        raise ValueError(f"{text!r} has no Russian letters")
    return text


def _field_name(name: str) -> str:
    if not name.isidentifier():
        raise ValueError(f"{name!r} is not a field name")
    return name


RussianText = Annotated[str, AfterValidator(_russian)]
FieldName = Annotated[str, AfterValidator(_field_name)]


class FieldTranslations(BaseModel):
    """The catalogue ``fields_ru.yaml``.

    Attributes:
        labels: a field's name → its short Russian label (the web's common fields,
            ``web/i18n.FIELDS``, are labelled there).
        help: a field's English ``Field(description=...)`` → its Russian help text.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    labels: dict[FieldName, RussianText]
    help: dict[str, RussianText]


@cache
def translations() -> FieldTranslations:
    """The catalogue, loaded and validated once (a broken file raises DataFileError)."""
    return load_package_yaml("lazaretto.reading", CATALOGUE, FieldTranslations)


def description_help(description: str, lang: str) -> str:
    """An English field description in ``lang`` (English if the catalogue lacks it)."""
    if lang == "ru":
        return translations().help.get(description, description)
    return description


def field_help(info: FieldInfo, lang: str) -> str:
    """A field's help text in ``lang``: its own translation, else the catalogue's."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    localized = extra.get(f"description_{lang}")
    return str(localized) if localized else description_help(info.description or "", lang)
