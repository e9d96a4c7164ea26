"""Boundaries of warhammer-larp rules that a one-step change of their data or code would
move unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.core.ruleset import Role
from tests.game import Game
from tests.unit.warhammer.diseases_kit import define, game, held_codes, ill


def epidemic(g: Game, stickers: int = 30) -> str:
    """Carrier K hands an epidemic certificate of Grey fever to master Olga in 'town'."""
    g.act("issue-certificate", kind="epidemic", disease="GF", holder="K")
    cid = next(reversed(g.state.certificates))
    g.act("attach-stickers", certificate=cid, count=stickers, source="master")
    g.act(
        "start-epidemic",
        at="08:00",
        carrier="K",
        certificate=cid,
        location="town",
        regional_master="Olga",
        interval_minutes=30,
        wave_stickers=10,
    )
    return next(reversed(g.state.epidemics))


def wave(g: Game, eid: str, at: str, who: list[str]) -> dict[str, Any]:
    evs = g.act("epidemic-wave", at=at, epidemic=eid, present=[{"character": c} for c in who])
    return dict(next(e for e in evs if e.kind == "epidemic.wave_started").payload)


def test_two_touches_of_the_same_pair_in_the_same_second_both_pass_by_default() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=2)
    g.act("carrier-touch", at="10:00:00", carrier="K", victim="p0", disease="GF")
    g.act("carrier-touch", at="10:00:00", carrier="K", victim="p0", disease="GF")
    assert ill(g, "p0")  # W-CARR-01
    assert len(held_codes(g, "p0")) == 1  # A-W-28: no pause, the second touch counted too
    assert held_codes(g, "K") == []


def test_an_epidemic_takes_at_most_30_stickers_from_a_larger_certificate() -> None:
    g = game(epidemic_required_stickers=31)  # a campaign whose certificates carry 31
    define(g)
    eid = epidemic(g, stickers=31)
    assert len(g.state.epidemics[eid].stickers) == 30  # A-W-22: at most 30 over all waves


def test_quarantine_needs_at_most_three_infected_in_two_waves_four_is_too_many() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    assert wave(g, eid, "08:00", ["p0", "p1", "p2"])["infected"] == ["p0", "p1", "p2"]
    assert wave(g, eid, "08:30", ["p3"])["infected"] == ["p3"]
    g.advance("08:35")
    assert g.state.epidemics[eid].status == "active"  # W-EPI-10, A-W-23: 3 + 1 = 4 > 3
    assert len(wave(g, eid, "09:00", ["p4", "p5"])["infected"]) == 2
    g.advance("09:05")
    epi = g.state.epidemics[eid]
    assert (epi.status, epi.end_reason) == ("ended", "quarantine")  # W-EPI-10: 1 + 2 = 3


# --- code mutants -------------------------------------------------------------------------


def test_taking_a_book_back_from_one_healer_leaves_it_lent_to_the_other() -> None:
    g = game()
    define(g)
    g.healer("H3")
    g.act("add-to-book", healer="H", code="GF", description="cough; course...")
    g.act("lend-book", healer="H", to="H2")
    g.act("lend-book", healer="H", to="H3")
    g.act("take-back-book", healer="H", to="H2")
    assert g.ch("H").data["book_lent_to"] == ["H3"]  # A-W-34: only H2's loan ended
    g.act("copy-description", role=Role.HEALER, healer="H3", source="H", code="GF")
    assert g.ch("H3").data["book"]["GF"] == "cough; course..."  # A-W-34: still lent
    with pytest.raises(RuleViolation) as err:
        g.act("copy-description", role=Role.HEALER, healer="H2", source="H", code="GF")
    assert "A-W-34" in err.value.rule_ids  # A-W-34: taken back


@pytest.mark.parametrize(("kind", "rule"), [("outbreak", "W-LAB-14"), ("epidemic", "W-LAB-16")])
def test_too_few_stickers_in_hand_for_a_certificate_cite_its_kinds_rule(
    kind: str, rule: str
) -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=2)
    g.act("issue-certificate", kind=kind, disease="GF", holder="K")
    cid = next(reversed(g.state.certificates))
    evs = g.act("attach-stickers", certificate=cid, count=1, source="holder")
    changed = next(e for e in evs if e.kind == "certificate.changed")
    assert rule in changed.rule_ids  # W-LAB-14 (outbreak) / W-LAB-16 (epidemic)
    other = "W-LAB-16" if rule == "W-LAB-14" else "W-LAB-14"
    assert other not in changed.rule_ids  # not the other kind's rule
    with pytest.raises(RuleViolation) as err:
        g.act("attach-stickers", certificate=cid, count=2, source="holder")
    assert err.value.rule_ids == (rule,)  # W-LAB-14 (outbreak) / W-LAB-16 (epidemic)


def test_residents_may_harm_the_looters_from_the_minute_the_army_leaves() -> None:
    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, regional_master="Olga",
          residents=["p0", "p1"])  # fmt: skip
    g.act("start-assault", at="14:30", location="mill", army="Reds")
    g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=True,
          units=["p10", "p11"])  # fmt: skip
    g.act("army-leaves", at="15:45", location="mill")
    g.act("lose-hits", at="15:45", character="p11", hits=1, attacker="p1")
    assert g.ch("p11").hits == 2  # W-LOOT-06, A-W-04: until the army leaves, not at it


def test_residents_may_not_harm_the_looters_a_minute_before_the_army_leaves() -> None:
    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, regional_master="Olga",
          residents=["p0", "p1"])  # fmt: skip
    g.act("start-assault", at="14:30", location="mill", army="Reds")
    g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=True,
          units=["p10", "p11"])  # fmt: skip
    with pytest.raises(RuleViolation) as err:
        g.act("lose-hits", at="15:44", character="p11", hits=1, attacker="p1")
    assert err.value.rule_ids == ("W-LOOT-06", "A-W-04")  # W-LOOT-06


def test_the_first_wave_of_an_epidemic_is_wave_1() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    assert wave(g, eid, "08:00", ["p0"])["no"] == 1  # W-EPI-02: waves counted from 1
    due = next(e for e in g.advance("08:30") if e.kind == "epidemic.wave_due")
    assert due.payload["no"] == 2  # W-EPI-02: the masters are told the second wave is due
    assert wave(g, eid, "08:30", ["p1"])["no"] == 2  # W-EPI-02


def _cure_rules(evs: list[Any]) -> tuple[str, ...]:
    return next(e.rule_ids for e in evs if e.kind == "character.cured")


def test_a_light_wound_cure_cites_w_trt_04_and_a_heavy_one_w_trt_14(g: Game) -> None:
    g.act("lose-hits", at="12:00", character="C", hits=2)
    g.act("treat-light-wound", at="12:29", healer="H", patient="C", bandages=2, mat="m1")
    rules = _cure_rules(g.advance("12:39"))
    assert "W-TRT-04" in rules and "W-TRT-14" not in rules  # W-TRT-04
    g.act("lose-hits", at="13:00", character="C", hits=3)
    g.act("apply-bandage", at="13:10", healer="H", patient="C", bandages=3, mat="m1")
    g.act("start-operation", at="13:20", healer="H2", patient="C", hospital="h1", table="t1")
    g.act("finish-operation", at="13:40", patient="C", bed="b1",
          stitches=[{"location": "chest"}, {"location": "arm"}, {"location": "leg"}])  # fmt: skip
    rules = _cure_rules(g.advance("14:00"))
    assert "W-TRT-14" in rules and "W-TRT-04" not in rules  # W-TRT-14


QUEST_REWARDS = {  # the bundled lab quest list (W-LAB-05: 1 or 2 points each)
    "Bring a sample from a plague pit": 1,
    "Steal a page of a rival lab's notes": 2,
    "Feed the rats of the lab for an hour": 1,
    "Test a tincture on a volunteer": 1,
    "Deliver a sealed flask across the river": 2,
    "Copy a forbidden treatise": 2,
}


def test_each_quest_of_the_list_gives_its_own_points_when_done() -> None:
    g = game()
    g.act("register-lab", id="L1", name="Rat lab", owner="K")
    seen: set[str] = set()
    for _ in range(30):  # rounds of three quests until every title has come up (W-LAB-06)
        g.act("draw-lab-quests", lab="L1")
        for quest in list(g.state.labs["L1"].quests):
            before = g.state.labs["L1"].points
            g.act("complete-lab-quest", lab="L1", quest=quest.no)
            gained = g.state.labs["L1"].points - before
            assert gained == QUEST_REWARDS[quest.title], quest.title  # W-LAB-05, W-LAB-08
            seen.add(quest.title)
        if seen == set(QUEST_REWARDS):
            break
    assert seen == set(QUEST_REWARDS)


def test_an_experimental_course_may_use_every_item_the_campaign_lists() -> None:
    from tests.unit.warhammer.diseases_kit import COURSE

    g = game(medical_actions=COURSE[:5], medications=COURSE[5:])  # exactly the six items
    define(g)
    g.act("infect", at="09:00", character="p0", disease="GF")
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    g.act("write-treatise", author="H", topic="Grey fever", question="its course", pages=2)
    g.act("start-study", hospital="h1", patient="p0", healer="H", bed="b1", disease="GF",
          treatise="tr-1", course=COURSE, master_present=True)  # fmt: skip
    assert ill(g, "p0")  # W-DTRT-08, W-DTRT-09: six items, all from the campaign's lists
    assert "study.started" in g.kinds()


def test_quarantine_can_end_an_epidemic_after_its_first_two_waves() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    wave(g, eid, "08:00", ["p0", "p1"])
    g.advance("08:05")
    assert g.state.epidemics[eid].status == "active"  # W-EPI-10: one wave is not two
    wave(g, eid, "08:30", ["p2"])
    g.advance("08:35")
    epi = g.state.epidemics[eid]
    assert (epi.status, epi.end_reason) == ("ended", "quarantine")  # W-EPI-10: 2 + 1 ≤ 3


def test_a_protection_for_30_minutes_is_over_at_the_30th_minute() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=2)
    for who in ("p0", "p1"):
        g.act("grant-protection", at="10:00", character=who, kind="magic", routes=["touch"],
              minutes=30)  # fmt: skip
    g.act("carrier-touch", at="10:29", carrier="K", victim="p0", disease="GF")
    assert not ill(g, "p0")  # W-PROT-04: still protected at 10:29
    g.act("carrier-touch", at="10:30", carrier="K", victim="p1", disease="GF")
    assert ill(g, "p1")  # W-PROT-04: 10:00 + 30 minutes, over


# --- survivors of the seed-21 code sample (issue 19) -----------------------------------------


def test_a_location_shows_its_protection_until_the_instant_it_ends() -> None:
    from tests.unit.warhammer.diseases_kit import q

    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, regional_master="Olga",
          residents=["p0"])  # fmt: skip
    g.act("start-assault", at="14:30", location="mill", army="Reds")
    g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=True,
          units=["p10"])  # fmt: skip
    g.act("army-leaves", at="15:45", location="mill")  # W-LOOT-10/11: 4 hours of protection
    g.advance("19:44:59")
    status = q(g, "location-status", location="mill")
    assert status["protected_until"] is not None and "protected until 19:45" in status["summary"]
    g.advance("19:45")
    status = q(g, "location-status", location="mill")
    assert status["protected_until"] is None  # W-LOOT-11: over at 19:45, as assaults are
    assert "protected" not in status["summary"]


def test_outbreaks_are_numbered_from_1() -> None:
    g = game()
    define(g)
    for n, holder in ((1, "K"), (2, "K")):
        g.act("issue-certificate", kind="outbreak", disease="GF", holder=holder)
        cid = next(reversed(g.state.certificates))
        g.act("attach-stickers", certificate=cid, count=2, source="master")
        evs = g.act("start-outbreak", at=f"1{n}:00", carrier="K", certificate=cid,
                    place="building", building="tavern", distance_from_entrance_m=2,
                    people=[{"character": f"p{n}", "distance_m": 1.0}])  # fmt: skip
        released = next(e for e in evs if e.kind == "outbreak.released").payload
        assert released["id"] == f"ob-{n}"  # the GM's outbreak list reads ob-1, ob-2


def test_a_sticker_code_is_two_groups_of_four_crockford_characters() -> None:
    import re

    from lazaretto.rulesets.warhammer_larp.stickers import sticker_code

    codes = {sticker_code(7, serial) for serial in range(200)}
    assert all(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", c) for c in codes)
    assert len(codes) == 200  # 40 bits: no two of the campaign's first 200 alike


def test_ruling_a_running_or_already_ruled_study_says_which() -> None:
    from tests.unit.warhammer.test_study import HALF, studying

    g = studying(HALF)
    with pytest.raises(RuleViolation) as err:
        g.act("rule-study", study="study-1", outcome="stays_ill")
    assert "still running" in str(err.value) and err.value.rule_ids == ("W-STUDY-05",)
    g.advance("10:40")
    g.act("rule-study", study="study-1", outcome="stays_ill")
    with pytest.raises(RuleViolation) as err:
        g.act("rule-study", study="study-1", outcome="dies")
    assert "is ruled" in str(err.value)  # W-STUDY-05: the master rules once


def test_the_log_tells_self_bandaging_from_a_healers_bandage(g: Game) -> None:
    g.act("lose-hits", at="10:00", character="H", hits=1)
    g.act("lose-hits", at="10:00", character="C", hits=1)
    own = g.act("treat-light-wound", at="10:05", healer="H", patient="H", bandages=1, mat="m1")
    other = g.act("treat-light-wound", at="10:05", healer="H2", patient="C", bandages=1,
                  mat="m2")  # fmt: skip
    bandaged = [e.payload for e in (*own, *other) if e.kind == "wound.bandaged"]
    pairs = [(b["character"], b["self"]) for b in bandaged]
    assert pairs == [("H", True), ("C", False)]  # W-HEAL-09: a healer's own wound


def test_a_cure_at_the_epidemics_first_minute_counts_for_intensive_treatment() -> None:
    g = game(intensive_counts_nonhospital_cures=True)
    define(g)
    eid = epidemic(g)  # started at 08:00
    wave(g, eid, "08:00", ["p0"])
    g.act("cure-disease-by-other-means", at="08:00", patient="p0", disease="GF", means="potion")
    epi = g.state.epidemics[eid]
    assert (epi.status, epi.end_reason) == ("ended", "intensive_treatment")  # W-EPI-08/09


def test_a_resident_at_1_hit_playing_a_heavy_wound_loses_it() -> None:
    from lazaretto.rulesets.warhammer_larp.checks import wound_state

    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, regional_master="Olga",
          residents=["p0", "p1"])  # fmt: skip
    g.act("start-assault", at="14:30", location="mill", army="Reds")
    g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=True,
          units=["p10"])  # fmt: skip
    g.act("lose-hits", at="15:01", character="p0", hits=2)  # 1 hit left, lightly wounded
    g.act("resident-acts", at="15:05", location="mill", resident="p0", choice="heavy_wound")
    assert g.ch("p0").hits == 0 and wound_state(g.ch("p0")) == "heavy_unbandaged"  # W-LOOT-07


def test_a_resident_already_heavy_playing_a_heavy_wound_keeps_their_death_time() -> None:
    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, regional_master="Olga",
          residents=["p0", "p1"])  # fmt: skip
    g.act("start-assault", at="14:30", location="mill", army="Reds")
    g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=True,
          units=["p10"])  # fmt: skip
    g.act("lose-hits", at="15:00", character="p0", hits=3)  # heavy at 15:00: dies at 15:15
    evs = g.act("resident-acts", at="15:05", location="mill", resident="p0", choice="heavy_wound")
    kinds = g.kinds(evs)
    assert "wound.hits_lost" not in kinds and "wound.became_heavy" not in kinds  # no new wound
    g.advance("15:15")
    assert not g.ch("p0").alive  # W-WND-12, A-W-10: the 15 minutes still run from 15:00


def test_the_death_of_a_former_patient_does_not_free_one_supporting_another() -> None:
    g = game()
    for who in ("p0", "p1"):
        g.act("lose-hits", at="10:00", character=who, hits=3)  # heavy, unbandaged
    g.act("support", at="10:01", supporter="p2", patient="p0")
    g.act("support", at="10:02", supporter="p2", patient="p1")  # now holds up p1
    g.act("kill", at="10:03", character="p0")
    held = g.ch("p2").condition("supporting")
    assert held is not None and held.data["patient"] == "p1"  # W-WND-10/11: still supporting


def test_the_sticker_list_filters_by_disease_and_by_status() -> None:
    from tests.unit.warhammer.diseases_kit import q

    g = game()
    define(g)
    define(g, code="MILD", course=[], recipe=[])
    g.act("hand-stickers", to="K", disease="GF", count=2)
    g.act("hand-stickers", to="K", disease="MILD", count=1)
    g.act("carrier-touch", at="10:00", carrier="K", victim="p0", disease="GF")
    rows = q(g, "stickers", holder="K", disease="MILD")["stickers"]
    assert [r["disease"] for r in rows] == ["MILD"]  # W-DIS-01: only that disease
    gf = q(g, "stickers", disease="GF")["stickers"]
    stuck = q(g, "stickers", disease="GF", status="stuck")["stickers"]
    assert len(gf) == 2 and [r["status"] for r in stuck] == ["stuck"]  # only that status


def test_a_character_may_hand_on_exactly_the_stickers_they_hold_and_no_more() -> None:
    g = game()
    define(g)
    g.act("hand-stickers", to="K", disease="GF", count=2)
    g.act("hand-stickers", to="p0", disease="GF", count=2, source="K")  # all of them
    assert held_codes(g, "p0") and not held_codes(g, "K")
    with pytest.raises(RuleViolation):
        g.act("hand-stickers", to="K", disease="GF", count=3, source="p0")  # holds 2


def test_ruling_a_running_or_already_ruled_study_says_which_in_russian() -> None:
    from tests.unit.warhammer.test_study import HALF, studying

    g = studying(HALF)
    with pytest.raises(RuleViolation) as err:
        g.act("rule-study", study="study-1", outcome="stays_ill")
    assert "ещё идёт" in str(err.value.ru)  # W-STUDY-05
    g.advance("10:40")
    g.act("rule-study", study="study-1", outcome="stays_ill")
    with pytest.raises(RuleViolation) as err:
        g.act("rule-study", study="study-1", outcome="dies")
    assert "решено" in str(err.value.ru)  # W-STUDY-05: ruled once


def test_after_an_operation_the_patient_rests_on_a_free_bed_only(g: Game) -> None:
    g.act("lose-hits", at="13:00", character="H", hits=1)
    g.act("lose-hits", at="13:00", character="C", hits=3)
    g.act("apply-bandage", at="13:05", healer="H", patient="H", bandages=1, lying=False)
    g.act("apply-bandage", at="13:10", healer="H2", patient="C", bandages=3, mat="m2")
    g.act("start-operation", at="13:20", healer="H2", patient="C", hospital="h1", table="t1")
    # H rests on b1 until 13:45
    g.act("treat-light-wound", at="13:35", healer="H2", patient="H", bandages=1, place="h1",
          bed="b1")  # fmt: skip
    with pytest.raises(RuleViolation) as err:
        g.act("finish-operation", at="13:40", patient="C", bed="b1", stitches=[{}] * 3)
    assert "W-HOSP-13" in err.value.rule_ids  # W-TRT-12: b1 is taken by H


def test_a_lab_lists_only_its_own_certificates() -> None:
    from tests.unit.warhammer.diseases_kit import q
    from tests.unit.warhammer.test_labs import lab

    g = lab()
    g.act("register-lab", id="L2", name="Cellar", owner="K")
    g.act("make-certificate", at="09:00", lab="L1", kind="epidemic", disease="GF")
    mine = q(g, "lab-status", lab="L1")["certificates"]
    assert [c["kind"] for c in mine] == ["epidemic"]  # W-LAB-01: L1 made it
    assert q(g, "lab-status", lab="L2")["certificates"] == []  # not L2
