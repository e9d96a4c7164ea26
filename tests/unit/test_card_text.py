"""How a card reads (web/card_text.py): penalties folded into may / may not, the
countdown's phrase, and times with the day when it is not today's."""

from __future__ import annotations

from datetime import datetime

from lazaretto.web.card_text import due_phrase, fold_penalties, when

GREY_FEVER = {"kind": "disease", "disease": {"name": "Grey fever", "code": "GF-1"}}
WORDS = [("fight", "сражаться"), ("run", "бегать"), ("walk", "ходить")]


def _sick(penalties: str) -> list[dict[str, object]]:
    return [{**GREY_FEVER, "disease": {**GREY_FEVER["disease"], "penalties": penalties}}]  # type: ignore[dict-item]


def test_a_penalty_that_forbids_running_moves_run_to_may_not() -> None:
    """W-DIS-05: the player reads their penalties; the card must not say "may run"."""
    folded = fold_penalties(
        _sick("cannot run; -1 hit in combat"), ["fight", "run", "walk"], [], WORDS, "en"
    )
    assert folded.allowed == ["fight", "walk"]
    assert folded.forbidden == ["run (because of Grey fever)"]
    assert folded.penalties == {0: "-1 hit in combat"}  # what forbids nothing stays


def test_a_russian_penalty_folds_a_russian_card_and_an_english_one() -> None:
    ru = fold_penalties(
        _sick("не может бегать"), ["сражаться", "бегать", "ходить"], [], WORDS, "ru"
    )
    assert ru.allowed == ["сражаться", "ходить"] and ru.forbidden == ["бегать (из-за Grey fever)"]
    en = fold_penalties(_sick("нельзя бегать"), ["fight", "run", "walk"], [], WORDS, "en")
    assert en.allowed == ["fight", "walk"] and en.penalties == {0: ""}


def test_a_penalty_without_a_negation_forbids_nothing() -> None:
    folded = fold_penalties(_sick("runs a fever"), ["fight", "run", "walk"], ["talk"], WORDS, "en")
    assert folded.allowed == ["fight", "run", "walk"] and folded.forbidden == ["talk"]
    assert folded.penalties == {0: "runs a fever"}


def test_a_card_without_visible_penalties_is_left_as_it_is() -> None:
    """A healer never gets a disease's penalties (W-DIS-03): nothing to fold."""
    folded = fold_penalties([GREY_FEVER], ["fight", "run"], [], WORDS, "en")
    assert folded.allowed == ["fight", "run"] and folded.forbidden == [] and not folded.penalties


def test_the_countdown_phrase_drops_the_condition_name_it_is_shown_under() -> None:
    assert due_phrase("light wound turns heavy", "light wound") == "turns heavy"
    assert due_phrase("лёгкое ранение станет тяжёлым", "лёгкое ранение") == "станет тяжёлым"
    assert due_phrase("death from heavy wound", "heavy wound") == "death from heavy wound"
    assert due_phrase("comes round", "") == "comes round"


def test_a_time_says_its_day_only_when_it_is_not_today() -> None:
    now = datetime(2026, 6, 13, 23, 40)
    assert when("2026-06-13T23:59:56", now) == "23:59"
    assert when("2026-06-14T00:10:41", now) == "14.06 00:10"
    assert when(datetime(2026, 6, 20, 9, 0), now) == "20.06 09:00"


def test_a_course_and_a_diagnosis_entry_name_the_course_items_in_the_readers_words() -> None:
    """W-DTRT-04, W-DTRT-06, W-DTRT-09: the journal keeps what the rule wrote ("GF: drip,
    herbal_drink"); a Russian reader reads the items by the names the rules give them,
    an English one in words, and a text of another shape is left as written."""
    from lazaretto.core.registry import get_ruleset
    from lazaretto.web.card_text import Names, entry_details

    rs = get_ruleset("warhammer-larp")
    names = Names({}, {})
    course = {"type": "course", "time": "2026-06-13T08:00:00",
              "course": ["GF: drip, herbal_drink, sedative"]}  # fmt: skip
    diagnosis = {"type": "diagnosis", "time": "2026-06-13T08:00:00",
                 "text": "GF: enema, psychotherapy"}  # fmt: skip
    assert entry_details(rs, course, ("type", "time"), names, "ru") == [
        ("курс", "GF: капельница, отпаивание травами, успокоительное")
    ]
    assert entry_details(rs, diagnosis, ("type", "time"), names, "ru") == [
        ("текст", "GF: клизма, психотерапия")
    ]
    assert entry_details(rs, course, ("type", "time"), names, "en") == [
        ("course", "GF: drip, herbal drinking, sedative")
    ]
    typed = {"type": "diagnosis", "time": "2026-06-13T08:00:00", "text": "cough, fever"}
    assert entry_details(rs, typed, ("type", "time"), names, "ru") == [("текст", "cough, fever")]
