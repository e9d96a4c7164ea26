"""The Russian words of the generated forms and of the CLI's options
(``reading/fields_ru.yaml``): every input field of every installed ruleset's actions
and queries, nested item models included, has a Russian label and, when it has an
English description, a Russian help text; the texts
are Russian with only codes left in Latin letters; and the catalogue holds nothing no
field uses any more. A failure lists the missing or stale entries ready to paste."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest
import yaml
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from lazaretto.core.datafile import load_yaml
from lazaretto.core.errors import DataFileError
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import ActionSpec, QuerySpec
from lazaretto.reading import fields
from lazaretto.web import forms, i18n

CATALOGUE = "src/lazaretto/reading/fields_ru.yaml"
LATIN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9_]*")
DICE = re.compile(r"d\d+")
QUOTED_CODE = re.compile(r"'[a-z_]+'")
GLOSSED = re.compile(r"(?<![A-Za-z0-9])([a-z]+)(?= \()|\(([a-z]+)\)|'([a-z_]+)'")
"""A lower-case word explained in Russian right after it, alone in brackets, or quoted."""
SETTING = re.compile(r"\b[A-Z](?:-[A-Z]+)+-\d+\w* ([a-z_]+)")
"""A setting value after its ambiguity ID, as in "A-D-08 gm"."""
CYRILLIC = re.compile("[А-Яа-яЁё]")


def _walk(model: type[BaseModel], where: str, out: list[tuple[str, str, FieldInfo]]) -> None:
    for name, info in model.model_fields.items():
        out.append((f"{where}.{name}", name, info))
        base, _ = forms.shape(info.annotation)
        if isinstance(base, type) and issubclass(base, BaseModel):
            _walk(base, f"{where}.{name}[{base.__name__}]", out)


def _inputs() -> list[tuple[str, str, FieldInfo]]:
    """(where, field name, field info) of every action and query input field, nested too."""
    out: list[tuple[str, str, FieldInfo]] = []
    for rs in rulesets().values():
        specs: list[ActionSpec[Any] | QuerySpec[Any]] = [*rs.actions.values()]
        specs += rs.queries.values()
        for spec in specs:
            _walk(spec.input, f"{rs.id}:{spec.name}", out)
    return out


INPUTS = _inputs()
NAMES = {name for _, name, _ in INPUTS}
DESCRIPTIONS = {info.description: where for where, _, info in INPUTS if info.description}


def _fallback(name: str) -> str:
    """The label a field without a translation gets (its name in words)."""
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


def _codes() -> set[str]:
    """Words that are codes: field names, choice values, action and query names."""
    found = set(NAMES)
    for _, _, info in INPUTS:
        found.update(forms.choices(forms.shape(info.annotation)[0]))
    for rs in rulesets().values():
        for name in [*rs.actions, *rs.queries]:
            found.update(name.split("-"))
    return found


CODES = _codes()


def _latin_leftovers(russian: str, english: str) -> list[str]:
    """Latin words of ``russian`` that are not codes carried over from ``english``.

    Dice (d20) are always fine. Another word counts as a code if the English text has it
    too and it looks like one (a rule ID, a name with a capital, a digit or an
    underscore), is a field name, choice value or action name, or the Russian text
    explains it in brackets or quotes it.
    """
    source = set(LATIN.findall(english))
    explained = {w for m in GLOSSED.finditer(russian) for w in m.groups() if w}
    explained |= set(SETTING.findall(russian))
    return [
        w
        for w in LATIN.findall(russian)
        if not DICE.fullmatch(w)
        and (
            w not in source
            or not (w != w.lower() or not w.isalpha() or w in CODES or w in explained)
        )
    ]


def test_every_form_field_of_every_ruleset_has_a_russian_label() -> None:
    missing = sorted(n for n in NAMES if i18n.field_label(n, "ru") == _fallback(n))
    assert not missing, f"add to labels: in {CATALOGUE}:\n" + "\n".join(
        f"  {n}: …" for n in missing
    )


def test_every_field_description_has_a_russian_help_text() -> None:
    help_ru = fields.translations().help
    missing = sorted(d for d in DESCRIPTIONS if d not in help_ru)
    assert not missing, f"add to help: in {CATALOGUE}:\n" + "\n".join(
        f"  {yaml.safe_dump(d, allow_unicode=True, width=1000).splitlines()[0]}: …  "
        f"# {DESCRIPTIONS[d]}"
        for d in missing
    )


def test_the_catalogue_holds_no_label_or_help_text_that_no_field_uses() -> None:
    catalogue = fields.translations()
    stale_labels = sorted(n for n in catalogue.labels if n not in NAMES)
    shadowed = sorted(n for n in catalogue.labels if n in i18n.FIELDS)
    stale_help = sorted(d for d in catalogue.help if d not in DESCRIPTIONS)
    assert not stale_labels, f"remove from labels: in {CATALOGUE}: {stale_labels}"
    assert not shadowed, f"labelled in i18n.FIELDS already, remove from {CATALOGUE}: {shadowed}"
    assert not stale_help, f"remove from help: in {CATALOGUE} (no field says it): {stale_help}"


def test_the_catalogue_file_has_no_repeated_key() -> None:
    text = resources.files("lazaretto.reading").joinpath(fields.CATALOGUE).read_text("utf-8")
    root = yaml.compose(text)
    assert isinstance(root, yaml.MappingNode)
    for section, mapping in root.value:
        keys = [k.value for k, _ in mapping.value]
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        assert not repeated, f"{section.value}: repeated keys {repeated} (YAML keeps the last)"


def test_russian_help_texts_are_russian_with_only_codes_left_in_latin() -> None:
    wrong = {}
    for english, russian in fields.translations().help.items():
        if not CYRILLIC.search(russian) or _latin_leftovers(russian, english):
            wrong[english] = (russian, _latin_leftovers(russian, english))
    assert not wrong, wrong


def test_russian_labels_are_short_russian_words_with_only_abbreviations_in_latin() -> None:
    for name in sorted(NAMES):
        label = i18n.field_label(name, "ru")
        assert CYRILLIC.search(label) and len(label) <= 40, (name, label)
        words = LATIN.findall(QUOTED_CODE.sub("", label))
        latin = [w for w in words if not (w.isupper() or DICE.fullmatch(w))]
        assert not latin, (name, label, latin)


def test_english_labels_and_help_texts_stay_as_they_were() -> None:
    for name in NAMES:
        pair = i18n.FIELDS.get(name)
        assert i18n.field_label(name, "en") == (pair[0] if pair else _fallback(name))
    for description in DESCRIPTIONS:
        assert i18n.field_help(description, "en") == description
    assert i18n.field_help("a text nobody wrote", "ru") == "a text nobody wrote"


def test_a_form_shows_the_russian_help_and_a_fields_own_translation_wins() -> None:
    class Strike(BaseModel):
        character: str = Field(description="who was hit")
        hits: int = Field(1, description="hits lost", json_schema_extra={"description_ru": "свой"})
        attacker: str | None = Field(None, description="who struck (checked during a looting)")

    ru = {f.name: f for f in forms.fields(Strike, {}, "ru")}
    en = {f.name: f for f in forms.fields(Strike, {}, "en")}
    assert ru["character"].help == "кого ранили" and en["character"].help == "who was hit"
    assert ru["hits"].help == "свой" and en["hits"].help == "hits lost"
    assert ru["attacker"].label == "Нападавший" and en["attacker"].label == "Attacker"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("labels: {hp: hit points}\nhelp: {}\n", "labels.hp"),
        ("labels: {'not a name': Имя}\nhelp: {}\n", "labels.not a name.[key]"),
        ("labels: {}\nhelp: {who: ''}\n", "help.who"),
        ("labels: {}\n", "help"),
    ],
)
def test_a_broken_catalogue_is_refused_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(DataFileError) as caught:
        load_yaml(text, fields.FieldTranslations, source="lazaretto/reading/fields_ru.yaml")
    assert caught.value.file == "lazaretto/reading/fields_ru.yaml"
    assert caught.value.field == field, caught.value.message


def test_the_catalogue_is_loaded_once() -> None:
    assert fields.translations() is fields.translations()
