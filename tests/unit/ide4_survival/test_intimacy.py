"""Intimacy, partnership and the hot reroll (checklist-004 §2.13)."""

from __future__ import annotations

from tests.unit.ide4_survival.conftest import Ide, when


def hot(g: Ide, cid: str) -> list[object]:
    return [r for r in g.sv(cid).rerolls if r.kind == "hot"]


def test_intimacy_is_standard_mechanics(q: Ide) -> None:
    assert "intimate-act" in q.rs.actions  # I-HOT-01: part of the standard game, always on
    assert not [f for f in type(q.rs.params).model_fields if "hot" in f and "enabled" in f]


def test_any_act_with_a_sapient_being_gives_one_hot_reroll(q: Ide) -> None:
    q.do("survival-sheet", character="a", sex="male")
    q.do("intimate-act", at="22:00", character="a", partner="Mira")
    assert len(hot(q, "a")) == 1  # I-HOT-02
    q.do("d100-check", at="22:30", character="a", skill="Attention", outcome="failure")
    q.do("use-reroll", at="22:31", character="a", kind="hot", outcome="success")
    assert q.last_check("a").outcome == "success" and not hot(q, "a")  # I-HOT-02: any check


def test_a_hot_reroll_keeps_two_game_days(q: Ide) -> None:
    q.do("intimate-act", at="22:00", character="a", partner="Mira")
    assert hot(q, "a")[0].expires == when("3/22:00")  # type: ignore[attr-defined]  # I-HOT-03
    q.to("3/21:59")
    assert len(hot(q, "a")) == 1
    q.to("3/22:00")
    assert not hot(q, "a")  # I-HOT-03


def test_the_cooldown_is_30_minutes_for_men_and_4_hours_for_women(q: Ide) -> None:
    q.do("survival-sheet", character="a", sex="male")
    q.do("survival-sheet", character="b", sex="female")
    q.do("intimate-act", at="22:00", character="a", partner="Mira")
    q.do("d100-check", at="22:05", character="a", skill="Insight", outcome="failure")
    q.do("use-reroll", at="22:06", character="a", kind="hot", outcome="success")
    evs = q.do("intimate-act", at="22:20", character="a", partner="Mira")
    assert not next(e for e in evs if e.kind == "intimacy.recorded").payload["counted"]  # I-HOT-04
    evs = q.do("intimate-act", at="22:31", character="a", partner="Mira")
    assert next(e for e in evs if e.kind == "intimacy.recorded").payload["gained"] == 1  # I-HOT-04
    q.do("intimate-act", at="22:40", character="b", partner="Oleg")
    q.do("d100-check", at="22:45", character="b", skill="Insight", outcome="failure")
    q.do("use-reroll", at="22:46", character="b", kind="hot", outcome="success")
    q.do("intimate-act", at="2/01:00", character="b", partner="Oleg")
    assert not hot(q, "b")  # I-HOT-04: 4 hours for a female character
    q.do("intimate-act", at="2/02:40", character="b", partner="Oleg")
    assert len(hot(q, "b")) == 1  # I-HOT-04: counted from the last act that gave one


def test_at_most_one_hot_reroll_is_held(q: Ide) -> None:
    q.do("survival-sheet", character="a", sex="male")
    q.do("intimate-act", at="22:00", character="a", partner="Mira")
    evs = q.do("intimate-act", at="23:00", character="a", partner="Mira")
    assert len(hot(q, "a")) == 1  # I-HOT-05
    assert next(e for e in evs if e.kind == "intimacy.recorded").payload["refreshed"] == 1
    assert hot(q, "a")[0].expires == when("3/23:00")  # type: ignore[attr-defined]  # A-I-24


def test_the_love_of_a_lifetime_raises_the_limit_and_doubles_the_night(q: Ide) -> None:
    q.do("survival-sheet", character="a", life_partner="b", sex="male")
    q.do("survival-sheet", character="b", life_partner="a", sex="female")
    q.do("intimate-act", at="22:00", character="a", partner="b")
    assert len(hot(q, "a")) == 2  # I-HOT-06: limit 2; I-HOT-07: doubled
    assert len(hot(q, "b")) == 2  # I-HOT-07: for both partners


def test_sleeping_with_someone_else_ends_the_double(q: Ide) -> None:
    q.do("survival-sheet", character="a", life_partner="b", sex="male")
    evs = q.do("intimate-act", at="20:00", character="a", partner="Mira")
    assert q.sv("a").love_lost  # I-HOT-08
    assert next(e for e in evs if e.kind == "intimacy.recorded").payload["limit"] == 1
    q.do("intimate-act", at="23:00", character="a", partner="b")
    assert len(hot(q, "a")) == 1  # I-HOT-08: the partner no longer gives 2, the limit is 1
    q.do("survival-sheet", character="a", love_lost=False)  # the GM resets it (A-I-24)
    q.do("d100-check", at="23:10", character="a", skill="Insight", outcome="failure")
    q.do("use-reroll", at="23:11", character="a", kind="hot", outcome="success")
    q.do("intimate-act", at="2/00:00", character="a", partner="b")
    assert len(hot(q, "a")) == 2


def test_a_pregnancy_check_for_the_female_partner_is_a_recorded_gm_roll(q: Ide) -> None:
    q.do("survival-sheet", character="b", sex="female")
    evs = q.do("intimate-act", at="22:00", character="a", partner="b")
    checks = [e for e in evs if e.kind == "pregnancy.checked"]
    assert [e.payload["character"] for e in checks] == ["b"]  # I-HOT-09
    assert checks[0].dice and checks[0].dice[0]["expression"] == "1d100"  # I-HOT-09: recorded
    evs = q.do("intimate-act", at="2/22:00", character="a", partner="Mira", partner_female=True)
    assert [e.payload["character"] for e in evs if e.kind == "pregnancy.checked"] == ["Mira"]


def test_a_sick_partner_or_a_prostitute_means_an_immunity_check(q: Ide) -> None:
    q.do(
        "expose",
        at="08:00",
        characters=["b"],
        disease="blood_flower",
        difficulty=2,
        outcome="failure",
    )
    q.do("intimate-act", at="22:00", character="a", partner="b", outcome="failure")
    assert q.last_check("a").skill == "Immunity"  # I-HOT-10: the partner is sick
    assert any(
        c.character == "a" and c.disease == "blood_flower" and c.status == "sick"
        for c in q.st.cases.values()
    )  # I-HOT-10
    q.do(
        "intimate-act",
        at="2/22:00",
        character="b",
        partner="Lola",
        partner_prostitute=True,
        disease="worm_of_debauchery",
        outcome="success",
    )
    assert q.last_check("b").skill == "Immunity"  # I-HOT-10: a prostitute
    checks = len(q.checks())
    q.do("intimate-act", at="3/22:00", character="a", partner="Mira")
    assert len(q.checks()) == checks  # I-HOT-10: no check otherwise
