"""An input that does not validate is refused in Russian too (``core/errors.problem_ru``):
a Russian GM or healer reads "не указано", "должно быть не больше 30", not Pydantic's
English, in the CLI, the web and a roster import; a check of a ruleset's own keeps its
words."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from lazaretto.core.engine import input_error
from lazaretto.core.errors import problem_ru


class Wound(BaseModel):
    character: str = Field(min_length=1, max_length=8)
    hits: int = Field(1, ge=0, le=30)
    share: float = Field(0.5, gt=0, lt=1)
    arm: Literal["left", "right", "any"] = "any"
    aimed: bool = False
    places: list[str] = Field(default_factory=list, max_length=2)
    code: str = Field("A1", pattern=r"^[A-Z]\d$")

    @field_validator("code")
    @classmethod
    def _not_z(cls, value: str) -> str:
        if value.startswith("Z"):
            raise ValueError("Z codes are retired")
        return value


CASES = [
    ({}, "не указано"),
    ({"character": ""}, "слишком коротко: нужно не меньше 1 симв."),
    ({"character": "x" * 9}, "слишком длинно: можно не больше 8 симв."),
    ({"character": "R", "hits": 31}, "должно быть не больше 30"),
    ({"character": "R", "hits": -1}, "должно быть не меньше 0"),
    ({"character": "R", "hits": "many"}, "нужно целое число"),
    ({"character": "R", "hits": 1.5}, "нужно целое число"),
    ({"character": "R", "share": 1}, "должно быть меньше 1"),
    ({"character": "R", "share": 0}, "должно быть больше 0"),
    ({"character": "R", "share": "half"}, "нужно число"),
    ({"character": "R", "arm": "middle"}, "допустимо: 'left', 'right' или 'any'"),
    ({"character": "R", "aimed": "perhaps"}, "нужно да или нет (true или false)"),
    ({"character": "R", "places": ["a", "b", "c"]}, "слишком много: можно не больше 2"),
    ({"character": "R", "places": "arm"}, "нужен список"),
    ({"character": "R", "code": "a1"}, "не подходит под образец ^[A-Z]\\d$"),
    ({"character": "R", "code": "Z1"}, "Value error, Z codes are retired"),  # its own words
]


@pytest.mark.parametrize(("given", "russian"), CASES, ids=[str(c[0])[:40] for c in CASES])
def test_a_pydantic_problem_reads_in_russian(given: dict[str, object], russian: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Wound.model_validate(given)
    assert problem_ru(dict(caught.value.errors()[0])) == russian


def test_an_actions_refusal_names_the_field_in_both_languages() -> None:
    with pytest.raises(ValidationError) as caught:
        Wound.model_validate({"character": "R", "hits": 99})
    err = input_error("lose-hits", Wound, caught.value)
    assert err.text("en") == "lose-hits: hits: Input should be less than or equal to 30"
    assert err.text("ru") == "lose-hits: hits: должно быть не больше 30"
