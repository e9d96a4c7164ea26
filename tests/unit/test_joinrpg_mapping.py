"""The pure JoinRPG mapping (issue 26, item 1): every field type, ProgrammaticValue and
mapping by name, which characters are skipped, and hostile or wrong input refused in
the caller's language, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.service import joinrpg
from lazaretto.service.joinrpg import FieldInfo, Options

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "joinrpg-roster.json"


def example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


NONE = Options()


def mapped(doc: dict[str, Any], options: Options = NONE, lang: str = "en") -> list[Any]:
    characters, meta = joinrpg.read_document(doc)
    return joinrpg.map_characters(characters, joinrpg.read_fields(meta, options), options, lang)


def test_the_example_covers_every_field_type_joinrpg_has() -> None:
    types = {f["FieldType"] for f in example()["metadata"]["Fields"]}
    assert set(joinrpg.FIELD_TYPES) - types <= {"MultiUserLink"}


def test_each_field_type_maps_to_its_value() -> None:
    vera = mapped(example(), Options(fields={"age": "Возраст"}))[0]
    assert vera.values == {
        "id": "1001",
        "name": "Вера Травница",
        "hits": 12,  # Number -> int (lazaretto:hits)
        "race": "человек",  # Dropdown -> its DisplayString
        "age": 34,  # no ProgrammaticValue: --field age=Возраст
        "skills": ["медицина", "травничество"],  # MultiSelect -> a list of labels
    }
    assert vera.data["healer"] is True  # Checkbox -> bool
    assert vera.data["nickname"] == "Травница"  # String
    assert vera.data["arrival"] == "Пятница, 18:00"  # ScheduleTimeSlotField: its label
    assert vera.data["camp"] == "Лагерь у реки"  # ScheduleRoomField
    assert vera.data["page"] == "https://example.org/vera"  # Uri
    assert vera.data["master"] == "Мастер Ольга"  # UserLink: the name, not the id
    assert vera.data["joinrpg"] == {"groups": ["Госпиталь Ордена"], "player": "Анна К."}
    assert "Легенда" not in json.dumps(vera.data, ensure_ascii=False)  # unmapped: left out


def test_an_unchecked_checkbox_is_false_and_a_missing_number_is_absent() -> None:
    boris = mapped(example())[1]
    assert boris.data["healer"] is False
    assert "hits" not in boris.values and "age" not in boris.values


@pytest.mark.parametrize(
    ("kind", "value", "display", "expected"),
    [
        ("String", " текст ", None, "текст"),
        ("Text", "raw", "<p>raw</p>", "raw"),
        ("Number", "7", "7", 7),
        ("Number", None, None, None),
        ("Checkbox", "on", None, True),
        ("Checkbox", None, None, False),
        ("Dropdown", "31", "человек", "человек"),
        ("Dropdown", "31", None, "человек"),  # no DisplayString: the variant's label
        ("MultiSelect", "51,53", "x", ["медицина", "хирургия"]),
        ("MultiSelect", "99", "a, b", ["a", "b"]),  # unknown ids: the DisplayString
        ("Login", "vera", "vera", "vera"),
        ("PinCode", "0042", None, "0042"),
        ("ScheduleTimeSlotField", "71", "Пятница", "Пятница"),
        ("UserLink", "77", "Мастер", "Мастер"),
    ],
)
def test_field_value_by_type(kind: str, value: Any, display: Any, expected: Any) -> None:
    info = FieldInfo(1, "f", kind, "x", {"31": "человек", "51": "медицина", "53": "хирургия"})
    assert joinrpg.field_value(info, value, display) == expected


def test_programmatic_value_is_case_insensitive_and_a_mapping_by_name_wins() -> None:
    doc = example()
    doc["metadata"]["Fields"][1]["ProgrammaticValue"] = "LAZARETTO:hits"
    assert mapped(doc)[0].values["hits"] == 12
    # the master says the hits are in the age field instead: the mapping wins
    out = mapped(doc, Options(fields={"hits": "возраст"}))[0]
    assert out.values["hits"] == 34
    assert mapped(doc, Options(fields={"hits": "4"}))[0].values["hits"] == 34  # by id


def test_a_mapping_to_an_unknown_field_names_the_fields_there_are() -> None:
    with pytest.raises(InvalidInput) as exc:
        mapped(example(), Options(fields={"hits": "Здоровье"}))
    assert "Здоровье" in str(exc.value) and "Хиты" in str(exc.value)


def test_inactive_npcs_and_unclaimed_are_skipped_unless_asked_for() -> None:
    doc = example()
    doc["characters"].append({**doc["characters"][3], "CharacterId": 1005, "IsActive": True})
    skipped = [m.skipped for m in mapped(doc)]
    assert skipped[:2] == ["", ""]
    assert skipped[2] == "an NPC"
    assert skipped[3].startswith("inactive")
    assert skipped[4].startswith("no player")
    assert mapped(doc, lang="ru")[2].skipped.startswith("NPC")
    assert [m.skipped for m in mapped(doc, Options(include_npc=True))][2:] == ["", skipped[3], ""]
    assert all(not m.skipped for m in mapped(doc, Options(include_npc=True, include_inactive=True)))


def test_checked_in_keeps_only_characters_in_game() -> None:
    kept = [m.id for m in mapped(example(), Options(checked_in=True)) if not m.skipped]
    assert kept == ["1001"]  # Boris is not checked in (InGame false)


def test_busy_status_may_come_as_its_number() -> None:
    doc = example()
    doc["characters"][2]["BusyStatus"] = 3  # CharacterBusyStatus.Npc
    assert mapped(doc)[2].skipped == "an NPC"


def test_camel_case_keys_as_asp_net_writes_them_are_read_too() -> None:
    def camel(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {k[:1].lower() + k[1:]: camel(v) for k, v in obj.items()}
        return [camel(v) for v in obj] if isinstance(obj, list) else obj

    assert mapped(camel(example()))[0].values == mapped(example())[0].values


@pytest.mark.parametrize(
    ("change", "en", "ru"),
    [
        ({"CharacterId": "x"}, "CharacterId is not a whole number", "CharacterId — не целое"),
        (
            {"Fields": [{"ProjectFieldId": 2, "Value": "много"}]},
            "'много' is not a whole",
            "'много' — не целое",
        ),
        ({"Fields": [{"ProjectFieldId": 7, "Value": {"a": 1}}]}, "not text", "не текст"),
        ({"Fields": "all"}, "Fields is not a list", "Fields — не список"),
    ],
)
def test_a_bad_character_gets_its_own_error_in_both_languages(
    change: dict[str, Any], en: str, ru: str
) -> None:
    doc = example()
    doc["characters"][0].update(change)
    assert en in mapped(doc)[0].error
    assert ru in mapped(doc, lang="ru")[0].error
    assert not mapped(doc)[1].error  # the others are fine


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,  # a nesting bomb
        "not json",
        json.dumps({"characters": [], "metadata": None}),
        json.dumps({"characters": {}, "metadata": {"Fields": []}}),
        json.dumps({"characters": [], "metadata": {"Fields": [{"FieldName": 1}]}}),
        json.dumps({"characters": [{}] * 5001, "metadata": {"Fields": []}}),
        json.dumps([1, 2, 3]),
    ],
)
def test_hostile_or_wrong_documents_are_refused_clearly(text: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        doc = joinrpg.parse_json(text)
        _, meta = joinrpg.read_document(doc)
        joinrpg.read_fields(meta, Options())
    assert "JoinRPG" in str(exc.value) and "JoinRPG" in exc.value.to_dict("ru")["message"]


def test_the_two_answers_may_come_apart() -> None:
    doc = example()
    characters, meta = joinrpg.read_document(doc["characters"], doc["metadata"])
    assert len(characters) == 4 and meta["ProjectId"] == 4242
