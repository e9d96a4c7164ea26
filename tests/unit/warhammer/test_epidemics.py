"""Epidemics: certificate, waves, quarantine and intensive treatment (checklist-000 §4.5.5,
§5.5; A-W-22..25)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.warhammer.diseases_kit import cure_in_hospital, define, game, ill, q

BEDS = [{"id": f"b{i}"} for i in range(1, 13)]


def epidemic(g: Game, stickers: int = 30, **kw: Any) -> str:
    """Carrier K hands an epidemic certificate of Grey fever to master Olga in 'town'."""
    g.act("issue-certificate", kind="epidemic", disease="GF", holder="K")
    cid = next(reversed(g.state.certificates))
    g.act("attach-stickers", certificate=cid, count=stickers, source="master")
    spec = {"interval_minutes": 30, "wave_stickers": 10, **kw}
    g.act(
        "start-epidemic",
        at="08:00",
        carrier="K",
        certificate=cid,
        location="town",
        regional_master="Olga",
        **spec,
    )
    return next(reversed(g.state.epidemics))


def wave(g: Game, eid: str, at: str, who: list[str], **kw: Any) -> dict[str, Any]:
    evs = g.act("epidemic-wave", at=at, epidemic=eid, present=[{"character": c} for c in who], **kw)
    return next(e for e in evs if e.kind == "epidemic.wave_started").payload


def test_the_certificate_goes_to_the_regional_master_with_its_thirty_stickers() -> None:
    g = game()
    define(g)
    g.act("register-location", id="town", name="Town", regional_master="Olga")
    eid = epidemic(g)
    epi = g.state.epidemics[eid]
    assert epi.regional_master == "Olga" and epi.carrier == "K"  # W-EPI-06, W-EPI-07
    assert {g.state.stickers[c].status for c in epi.stickers} == {"epidemic"}  # W-EPI-07
    assert g.state.certificates[epi.certificate]["used"]
    g.act("issue-certificate", kind="epidemic", disease="GF", holder="K")
    cid = next(reversed(g.state.certificates))
    g.act("attach-stickers", certificate=cid, count=30, source="master")
    with pytest.raises(RuleViolation) as err:
        g.act(
            "start-epidemic",
            carrier="K",
            certificate=cid,
            location="town",
            regional_master="Ivan",
            interval_minutes=30,
            wave_stickers=5,
        )
    assert err.value.rule_ids == ("W-EPI-07",)  # W-EPI-07: the location's regional master
    with pytest.raises(RuleViolation) as err:
        g.act(
            "start-epidemic",
            carrier="p0",
            certificate=cid,
            location="town",
            regional_master="Olga",
            interval_minutes=30,
            wave_stickers=5,
        )
    assert "W-EPI-06" in err.value.rule_ids  # W-EPI-06: a carrier activates it


def test_the_certificate_needs_exactly_thirty_stickers() -> None:
    g = game()
    define(g)
    with pytest.raises(RuleViolation) as err:
        epidemic(g, stickers=29)
    assert "W-LAB-16" in err.value.rule_ids and "A-W-31" in err.value.rule_ids


def test_the_master_sets_the_interval_and_the_stickers_per_wave() -> None:
    g = game()
    define(g)
    with pytest.raises(RuleViolation) as err:
        epidemic(g, interval_minutes=None, wave_stickers=None)
    assert "A-W-22" in err.value.rule_ids  # A-W-22: required input
    preset = game(epidemic_wave_interval_minutes=20, epidemic_wave_stickers=4)
    define(preset)
    eid = epidemic(preset, interval_minutes=None, wave_stickers=None)
    epi = preset.state.epidemics[eid]
    assert (epi.interval_minutes, epi.wave_stickers) == (20, 4)  # A-W-22: or campaign-wide


def test_a_wave_gives_a_sticker_to_every_unprotected_character_met_in_the_location() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    g.act("wear", character="p1", items=["hooded_robe", "gloves", "plague_mask"])
    g.act("wear", character="p2", items=["cloth_mask", "gloves"])
    out = wave(g, eid, "08:00", ["p0", "p1", "p2", "p3"])
    assert g.state.epidemics[eid].location == "town"  # W-EPI-01: the whole location
    assert out["infected"] == ["p0", "p2", "p3"]  # W-EPI-03; W-PROT-03: mask is not enough
    why = {d["character"]: d["why"] for d in out["decisions"]}
    assert why["p1"] == "protected (outfit:full)"  # W-PROT-01


def test_each_wave_has_a_limited_number_of_stickers() -> None:
    g = game()
    define(g)
    eid = epidemic(g, wave_stickers=3)
    out = wave(g, eid, "08:00", [f"p{i}" for i in range(5)])
    assert out["infected"] == ["p0", "p1", "p2"]  # W-EPI-04; A-W-22: in the order met
    assert not ill(g, "p3") and not ill(g, "p4")


def test_a_wave_lasts_at_most_five_minutes_and_waves_come_at_the_interval() -> None:
    g = game()
    define(g)
    eid = epidemic(g, interval_minutes=30)
    with pytest.raises(RuleViolation) as err:
        wave(g, eid, "08:00", ["p0"], minutes=6)
    assert err.value.rule_ids == ("W-EPI-05",)  # W-EPI-05
    wave(g, eid, "08:00", ["p0"])
    with pytest.raises(RuleViolation) as err:
        wave(g, eid, "08:03", ["p1"])
    assert err.value.rule_ids == ("W-EPI-05",)  # still running until 08:05
    assert g.state.epidemics[eid].waves[0].ends.strftime("%H:%M") == "08:05"
    with pytest.raises(RuleViolation) as err:
        wave(g, eid, "08:20", ["p1"])
    assert err.value.rule_ids == ("W-EPI-02",)  # W-EPI-02: the next at 08:30
    evs = g.advance("08:30")
    assert "epidemic.wave_due" in g.kinds(evs)  # W-EPI-02: the masters are reminded
    wave(g, eid, "08:30", ["p1"])


def test_quarantine_ends_it_when_two_waves_in_a_row_infect_at_most_three() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    wave(g, eid, "08:00", ["p0", "p1", "p2", "p3"])
    wave(g, eid, "08:30", ["p4", "p5"])
    g.advance("08:35")
    assert g.state.epidemics[eid].status == "active"  # 4 + 2 = 6 > 3
    wave(g, eid, "09:00", ["p6"])
    g.advance("09:05")
    epi = g.state.epidemics[eid]
    assert (epi.status, epi.end_reason) == ("ended", "quarantine")  # W-EPI-10: 2 + 1 <= 3
    assert "W-EPI-10" in epi.end_rule_ids
    with pytest.raises(RuleViolation):
        wave(g, eid, "09:30", ["p7"])
    assert {g.state.stickers[c].status for c in epi.stickers} == {"stock"}  # back to masters


def test_intensive_treatment_counts_cures_from_the_locations_journals() -> None:
    g = game()
    define(g)
    g.act(
        "register-hospital",
        id="far",
        name="Far",
        number="9",
        tables=[{"id": "t1"}],
        beds=BEDS,
        location="elsewhere",
    )
    eid = epidemic(g, wave_stickers=3)
    wave(g, eid, "08:00", ["p0", "p1", "p2"])
    g.advance("08:05")
    cure_in_hospital(g, "p0", ["GF"], at="08:10")
    g.advance("08:50")
    assert g.state.epidemics[eid].status == "active"  # 1 of 3 cured
    g.act("admit", hospital="far", patient="p1", healer="H2")
    g.act("record-anamnesis", hospital="far", patient="p1", healer="H2")
    g.act("add-to-book", healer="H2", code="GF")
    g.act("diagnose", hospital="far", patient="p1", healer="H2", disease="GF")
    g.act(
        "start-disease-course", hospital="far", patient="p1", healer="H2", bed="b1", diseases=["GF"]
    )
    for item in g.state.diseases["GF"]["course"]:
        g.act("course-item", patient="p1", disease="GF", item=item, minutes=5)
    g.advance("09:30")
    status = q(g, "epidemic-status", epidemic=eid)["epidemics"][0]
    assert status["cured"] == 1  # W-EPI-09: only the location's hospitals count
    cure_in_hospital(g, "p2", ["GF"], at="09:30")
    g.advance("10:10")
    epi = g.state.epidemics[eid]
    # W-EPI-08: 2 of 3 cured is more than half — checked at the journal cure (A-W-24)
    assert (epi.status, epi.end_reason) == ("ended", "intensive_treatment")
    assert epi.ended_at is not None and epi.ended_at.strftime("%H:%M") == "10:10"


def test_only_hospital_cures_count_unless_configured() -> None:
    for flag, expected in ((False, "active"), (True, "ended")):
        g = game(intensive_counts_nonhospital_cures=flag)
        define(g)
        eid = epidemic(g, wave_stickers=1)
        wave(g, eid, "08:00", ["p0"])
        g.act("cure-disease-by-other-means", at="08:10", patient="p0", disease="GF", means="potion")
        assert g.state.epidemics[eid].status == expected  # A-W-24


def test_a_race_the_disease_spares_is_not_counted_as_infected() -> None:
    for flag, expected in ((False, 0), (True, 1)):
        g = game(count_nonsusceptible_as_infected=flag)
        g.add("E", race="elf")
        define(g, races=["human"])
        eid = epidemic(g)
        out = wave(g, eid, "08:00", ["E"])
        assert out["handed"] and len(out["infected"]) == expected  # A-W-25


def test_when_the_stickers_run_out_quarantine_ends_it() -> None:
    g = game()
    define(g)
    eid = epidemic(g, wave_stickers=10)
    wave(g, eid, "08:00", [f"p{i}" for i in range(10)])
    wave(g, eid, "08:30", [f"p{i}" for i in range(10, 15)] + ["H", "H2"] + ["K"])
    wave(g, eid, "09:00", ["p0"])
    out = wave(g, eid, "09:30", ["p1"])
    assert out["infected"] == []  # every sticker is gone (A-W-22)
    g.advance("09:35")
    assert g.state.epidemics[eid].end_reason == "quarantine"  # A-W-22: 0 + 0 <= 3


def test_the_status_tells_waves_infected_cures_and_what_comes_next() -> None:
    g = game()
    define(g)
    eid = epidemic(g)
    wave(g, eid, "08:00", ["p0", "p1"])
    g.advance("08:05")
    st = q(g, "epidemic-status")
    row = st["epidemics"][0]
    assert row["status"] == "active" and row["infected"] == 2 and row["stickers_left"] == 28
    assert row["waves"][0]["closed"] and row["next_wave_at"].endswith("08:30:00")
    assert "next wave 08:30:00" in st["summary"]


def test_right_after_a_wave_the_next_one_is_the_interval_ahead_of_its_start() -> None:
    """W-EPI-02 (A-W-22: the master's interval, from a wave's start): the moment a wave is
    run, the next one is due an interval later, not at the deadline that just passed."""
    g = game()
    define(g)
    eid = epidemic(g, interval_minutes=30)
    assert g.state.epidemics[eid].next_wave_at.strftime("%H:%M") == "08:00"  # the first: now
    wave(g, eid, "08:00", ["p0", "p1", "p2", "p3"])  # 4 + 4: no quarantine (W-EPI-10)
    row = q(g, "epidemic-status", epidemic=eid)["epidemics"][0]
    assert row["next_wave_at"].endswith("08:30:00")  # W-EPI-02: during the wave already
    g.advance("08:05")
    assert g.state.epidemics[eid].next_wave_at.strftime("%H:%M") == "08:30"  # unchanged
    g.advance("08:47")
    wave(g, eid, "08:47", ["p4", "p5", "p6", "p7"])  # run late: the interval counts from this wave
    assert g.state.epidemics[eid].next_wave_at.strftime("%H:%M") == "09:17"  # W-EPI-02
    g.advance("09:16")
    with pytest.raises(RuleViolation) as err:
        wave(g, eid, "09:16", ["p8"])
    assert err.value.rule_ids == ("W-EPI-02",)  # a minute early
    assert g.state.epidemics[eid].status == "active"
    assert wave(g, eid, "09:17", ["p8"])["no"] == 3


def test_an_interval_shorter_than_the_wave_puts_the_next_one_at_its_end() -> None:
    """W-EPI-05 with W-EPI-02: a 3-minute interval and a 5-minute wave — the next wave may
    start when this one ends, not while it runs."""
    g = game()
    define(g)
    eid = epidemic(g, interval_minutes=3)
    wave(g, eid, "08:00", ["p0"])
    assert g.state.epidemics[eid].next_wave_at.strftime("%H:%M") == "08:05"  # W-EPI-05
    g.advance("08:05")
    assert g.state.epidemics[eid].next_wave_at.strftime("%H:%M") == "08:05"
    wave(g, eid, "08:05", ["p1"])
