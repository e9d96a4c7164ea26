"""Worked examples 5–10 of checklist-000 §5, as scenarios on a manual clock."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.rulesets.warhammer_larp.checks import wound_state
from tests.game import Game, t
from tests.unit.warhammer.diseases_kit import (
    COURSE,
    COURSE_N,
    LETHAL_RECIPE,
    MINUTES,
    RECIPE,
    cure_in_hospital,
    define,
    game,
    held_codes,
    ill,
)

FULL = ["hooded_robe", "gloves", "plague_mask"]
BEDS = [{"id": f"b{i}"} for i in range(1, 13)]


# --- example 5: outbreaks ---------------------------------------------------------------


def lab_certificate(g: Game, at: str) -> str:
    """A lab makes an outbreak certificate with 10 stickers of X for carrier K."""
    g.act("make-stickers", at=at, lab="L1", disease="X", components=RECIPE)
    g.act(
        "make-certificate", at=at, lab="L1", kind="outbreak", disease="X", holder="K", stickers=10
    )
    return next(reversed(g.state.certificates))


def tavern(stickers: int = 10) -> tuple[Game, str, list[dict[str, Any]]]:
    g = game()
    define(g, code="X")
    g.act("register-lab", id="L1", name="Rat lab")
    cid = lab_certificate(g, "17:00")
    if stickers < 10:  # keep only ``stickers`` on the certificate
        cert = g.state.certificates[cid]
        g.state.certificates[cid] = {**cert, "stickers": cert["stickers"][:stickers]}
    g.act("wear", character="p0", items=["cloth_mask", "gloves"])
    g.act("wear", character="p1", items=FULL)
    g.act("wear", character="p2", items=FULL)
    who = [{"character": "p0", "distance_m": 1.0}]
    who += [{"character": f"p{i}", "distance_m": 1.0 + i * 0.5} for i in (1, 2)]
    who += [{"character": f"p{i}", "distance_m": float(i)} for i in range(3, 15)]
    return g, cid, who


def test_example_5_building_outbreak_ten_closest_of_thirteen_eligible() -> None:
    g, cid, who = tavern()
    evs = g.act(
        "start-outbreak",
        at="18:00",
        carrier="K",
        certificate=cid,
        place="building",
        building="tavern",
        distance_from_entrance_m=2,
        people=who,
    )
    out = next(e for e in evs if e.kind == "outbreak.released").payload
    why = {r["character"]: r["why"] for r in out["decisions"]}
    assert ill(g, "p0", "X")  # W-PROT-03, A-W-20: mask and gloves do not stop an outbreak
    assert why["p1"] == why["p2"] == "protected (outfit:full)"  # W-PROT-01
    eligible = [r for r in out["decisions"] if not r["why"].startswith("protected")]
    assert len(eligible) == 13
    # W-OUT-02/03: the 10 closest get one; the 3 farthest none
    assert sorted(out["infected"]) == sorted(["p0", *(f"p{i}" for i in range(3, 12))])
    assert {c: why[c] for c in ("p12", "p13", "p14")} == dict.fromkeys(
        ("p12", "p13", "p14"), "beyond the cap of 10"
    )


def test_example_5_with_eight_stickers_the_eight_closest_get_one() -> None:
    g, cid, who = tavern(stickers=8)
    evs = g.act(
        "start-outbreak",
        at="18:00",
        carrier="K",
        certificate=cid,
        place="building",
        distance_from_entrance_m=2,
        people=who,
    )
    out = next(e for e in evs if e.kind == "outbreak.released").payload
    assert sorted(out["infected"]) == sorted(["p0", *(f"p{i}" for i in range(3, 10))])  # W-OUT-03


def test_example_5_refusals_entrance_and_army_battle() -> None:
    g, cid, who = tavern()
    g.add("S", skills=("Carrier", "Saboteur"))
    kw: dict[str, Any] = {"carrier": "K", "certificate": cid, "place": "building", "people": who}
    with pytest.raises(RuleViolation) as err:
        g.act("start-outbreak", at="18:00", distance_from_entrance_m=0.5, **kw)
    assert err.value.rule_ids == ("W-OUT-04",)  # W-OUT-04
    with pytest.raises(RuleViolation) as err:
        g.act("start-outbreak", at="18:00", distance_from_entrance_m=2, army_phase="battle", **kw)
    assert err.value.rule_ids == ("W-OUT-07",)  # W-OUT-07
    g.act("hand-certificate", certificate=cid, holder="S")
    kw["carrier"] = "S"
    g.act("start-outbreak", at="18:00", distance_from_entrance_m=2, army_phase="rest_halt", **kw)
    assert ill(g, "p3", "X")  # W-OUT-08: the saboteur whose army is at a halt


def test_example_5_outdoor_outbreak_five_closest_rest_stay_with_the_carrier() -> None:
    g = game()
    define(g, code="X")
    g.act("register-lab", id="L1", name="Rat lab")
    cid = lab_certificate(g, "18:30")
    who = [{"character": f"p{i}", "distance_m": 0.4 * (i + 1)} for i in range(7)]
    who += [{"character": "p7", "distance_m": 4.0}, {"character": "p8", "distance_m": 4.0}]
    kw: dict[str, Any] = {"carrier": "K", "certificate": cid, "place": "outdoor", "people": who}
    with pytest.raises(RuleViolation) as err:
        g.act("start-outbreak", at="19:00", **kw)
    assert err.value.rule_ids == ("W-OUT-05",)  # W-OUT-05: no announcement, no outbreak
    g.act("start-outbreak", at="19:00", announced=True, **kw)
    assert [ill(g, f"p{i}", "X") for i in range(9)] == [True] * 5 + [False] * 4  # W-OUT-06
    assert len(held_codes(g, "K", "X")) == 5  # A-W-21: the other 5 stay with the carrier


# --- example 6: looting ---------------------------------------------------------------------


def test_example_6_looting() -> None:
    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, residents=["p0", "p1", "p2"])
    g.act("start-assault", at="14:00", location="mill", army="Reds")
    g.act(
        "start-looting",
        at="15:00",
        location="mill",
        army="Reds",
        commander_orders=True,
        units=["p9"],
    )
    assert g.state.convoys["Reds"] == 5  # W-LOOT-01, W-LOOT-02
    assert g.state.locations["mill"].looting.search_until == t("15:30")  # type: ignore[union-attr]  # W-LOOT-03
    with pytest.raises(RuleViolation):
        g.act("lose-hits", at="15:02", character="p9", hits=1, attacker="p0")  # W-LOOT-06
    g.act("resident-acts", at="15:05", location="mill", resident="p0", choice="fled")
    g.act("resident-acts", at="15:10", location="mill", resident="p1", choice="killed")
    g.act("resident-acts", at="15:20", location="mill", resident="p2", choice="surrender")
    assert g.state.locations["mill"].looting.declared_at == t("15:20")  # type: ignore[union-attr]  # W-LOOT-09
    g.act("army-leaves", at="15:45", location="mill")
    assert g.state.locations["mill"].protected_until == t("19:45")  # W-LOOT-10/11, A-W-03
    with pytest.raises(RuleViolation):
        g.act("form-army", at="19:00", location="mill", army="Guard")  # W-LOOT-10
    with pytest.raises(RuleViolation):
        g.act("start-assault", at="19:44", location="mill", army="Blues")  # W-LOOT-11
    g.act("start-assault", at="19:45", location="mill", army="Blues")


def test_example_6_two_residents_hiding_means_looted_at_1530() -> None:
    g = game()
    g.act("register-location", id="mill", name="Mill", wealth=5, residents=["p0", "p1", "p2"])
    g.act("start-assault", at="14:00", location="mill", army="Reds")
    g.act("start-looting", at="15:00", location="mill", army="Reds", commander_orders=True)
    g.act("resident-acts", at="15:20", location="mill", resident="p2", choice="surrender")
    g.advance("15:29:59")
    assert g.state.locations["mill"].looting.declared_at is None  # type: ignore[union-attr]
    g.advance("15:30")
    assert g.state.locations["mill"].looting.declared_at == t("15:30")  # type: ignore[union-attr]  # W-LOOT-09


# --- example 7: epidemic, quarantine, intensive treatment --------------------------------------


def epidemic(g: Game, per_wave: int = 10) -> str:
    define(g, code="Y")
    g.act("issue-certificate", kind="epidemic", disease="Y", holder="K")
    g.act("attach-stickers", certificate="epi-1", count=30, source="master")
    g.act(
        "start-epidemic",
        at="08:00",
        carrier="K",
        certificate="epi-1",
        location="town",
        regional_master="Olga",
        interval_minutes=30,
        wave_stickers=per_wave,
    )  # W-EPI-07
    return "epi-1"


def run_waves(g: Game, sizes: list[int]) -> list[str]:
    """Waves at 08:00, 08:30, ... infecting ``sizes`` new people; the status after each."""
    people = iter([f"p{i}" for i in range(15)])
    after = []
    for n, size in enumerate(sizes):
        at = f"{8 + n // 2:02d}:{30 * (n % 2):02d}"
        if g.state.epidemics["epi-1"].status != "active":
            break
        g.act(
            "epidemic-wave",
            at=at,
            epidemic="epi-1",
            present=[{"character": next(people)} for _ in range(size)],
        )
        g.advance(f"{8 + n // 2:02d}:{30 * (n % 2) + 5:02d}")  # W-EPI-05: 5 minutes
        after.append(g.state.epidemics["epi-1"].status)
    return after


def test_example_7_quarantine_sum_mode_ends_after_wave_four() -> None:
    g = game()
    epidemic(g)
    # A-W-23 "sum": 6+3, 3+2 = 5 > 3 go on; 2+1 = 3 <= 3 ends (W-EPI-10)
    assert run_waves(g, [6, 3, 2, 1]) == ["active", "active", "active", "ended"]
    epi = g.state.epidemics["epi-1"]
    assert epi.end_reason == "quarantine" and all(
        w.ends - w.started == (t("08:05") - t("08:00")) for w in epi.waves
    )
    handed = sum(len(w.handed) for w in epi.waves)
    assert (handed, 30 - handed) == (12, 18)  # A-W-22: 12 of the 30 handed out


def test_example_7_quarantine_each_mode_ends_after_wave_three() -> None:
    g = game(quarantine_mode="each")
    epidemic(g)
    assert run_waves(g, [6, 3, 2, 1]) == ["active", "active", "ended"]  # A-W-23 "each"


def test_example_7_intensive_treatment_more_than_half_of_the_infected() -> None:
    for infected, cures, ends in ((11, 6, True), (10, 5, False)):
        g = game()
        g.act(
            "register-hospital",
            id="h2",
            name="Big",
            number="8",
            tables=[{"id": "t1"}],
            beds=BEDS,
            location="town",
        )
        epidemic(g, per_wave=infected)
        run_waves(g, [infected])
        for n in range(cures):
            cure_in_hospital(
                g, f"p{n}", ["Y"], healer="H", bed=f"b{n + 1}", at="08:10", hospital="h2"
            )
        g.advance("08:50")
        epi = g.state.epidemics["epi-1"]
        # W-EPI-08/09; A-W-24: 6 > 5.5 ends it; 5 is not more than 5
        assert (epi.status == "ended") is ends, (infected, cures)
        if ends:
            assert epi.end_reason == "intensive_treatment"


# --- example 8: a lab with 10 points ----------------------------------------------------------


def lab(**params: Any) -> Game:
    g = game(**params)
    define(g)
    define(g, code="RP", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    g.act("register-lab", id="L1", name="Rat lab")
    return g


def test_example_8_epidemic_and_thirty_stickers_cost_eleven() -> None:
    g = lab()
    assert g.state.labs["L1"].points == 10  # W-LAB-04
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", batches=3, components=RECIPE)
    with pytest.raises(RuleViolation):
        g.act("make-certificate", at="09:00", lab="L1", kind="epidemic", disease="GF")  # 11 > 10
    g.act("draw-lab-quests", lab="L1")
    g.act("complete-lab-quest", lab="L1", quest=1, reward=1)  # fix A: W-LAB-05/08
    g.act("make-certificate", lab="L1", kind="epidemic", disease="GF", holder="K", stickers=30)
    assert g.state.labs["L1"].points == 0 and len(g.state.certificates["epi-1"]["stickers"]) == 30


def test_example_8_fix_b_stickers_persist_into_the_next_day() -> None:
    from datetime import datetime

    from lazaretto.core.engine import run_action

    g = lab()
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", batches=2, components=RECIPE)
    g.act("make-certificate", lab="L1", kind="epidemic", disease="GF", holder="K", stickers=20)
    assert g.state.labs["L1"].points == 0
    day2 = datetime(2026, 6, 14, 9, 0)
    run_action(
        g.rs,
        g.state,
        "make-stickers",
        {"lab": "L1", "disease": "GF", "components": RECIPE},
        at=day2,
    )
    run_action(g.rs, g.state, "attach-stickers", {"certificate": "epi-1", "count": 10}, at=day2)
    assert len(g.state.certificates["epi-1"]["stickers"]) == 30  # A-W-31: stickers persist
    assert g.state.labs["L1"].points == 9  # W-LAB-09: a full 10 again on day 2


def test_example_8_lethal_and_outbreak_variants() -> None:
    g = lab(lab_start_points=14)
    g.act("make-certificate", at="09:00", lab="L1", kind="epidemic", disease="RP")
    g.act("make-stickers", lab="L1", disease="RP", batches=6, components=LETHAL_RECIPE)
    assert g.state.labs["L1"].points == 0  # 8 + 6 batches of 5 lethal = 14
    o = lab()
    for _ in range(2):  # 4 + 1 (10 non-lethal) = 5, twice = 10
        o.act("make-stickers", at="09:00", lab="L1", disease="GF", components=RECIPE)
        o.act("make-certificate", lab="L1", kind="outbreak", disease="GF", stickers=10)
    assert o.state.labs["L1"].points == 0
    lethal = lab()
    lethal.act(
        "make-stickers", at="09:00", lab="L1", disease="RP", batches=2, components=LETHAL_RECIPE
    )
    lethal.act("make-certificate", lab="L1", kind="outbreak", disease="RP", stickers=10)
    assert lethal.state.labs["L1"].points == 4  # 4 + 2 = 6


def test_example_8_unspent_points_are_lost_and_quests_come_in_threes() -> None:
    from datetime import datetime

    from lazaretto.core.engine import run_action

    g = lab()
    g.act("make-certificate", at="09:00", lab="L1", kind="epidemic", disease="GF")  # 8 spent
    g.act("draw-lab-quests", lab="L1")
    with pytest.raises(RuleViolation) as err:
        g.act("draw-lab-quests", lab="L1")
    assert err.value.rule_ids == ("W-LAB-07",)  # W-LAB-07: not before all three are done
    evs = run_action(
        g.rs,
        g.state,
        "complete-lab-quest",
        {"lab": "L1", "quest": 1, "reward": 1},
        at=datetime(2026, 6, 14, 8),
    )
    restored = next(e for e in evs if e.kind == "lab.points_restored")
    assert restored.payload == {
        "lab": "L1",
        "day": "2026-06-14",
        "points": 10,
        "lost": 2,
    }  # W-LAB-09/10


# --- example 9: a contagious chain and its limits -----------------------------------------------


def test_example_9_contagious_chain_and_limits() -> None:
    g = game()
    define(g, code="X")
    define(g, code="Z", recipe=[])
    g.act("hand-stickers", to="K", disease="X", count=8)
    g.act("hand-stickers", to="K", disease="Z", count=2)
    a, b, e, f = "p0", "p1", "p2", "p3"
    g.act("carrier-touch", at="14:00", carrier="K", victim=a, disease="X", count=3)  # W-CARR-03
    assert ill(g, a, "X") and len(held_codes(g, a, "X")) == 2  # W-CARR-04, W-CARR-05
    g.act("pass-sticker", at="14:05", actor=a, victim=b, disease="X")
    assert ill(g, b, "X") and len(held_codes(g, a, "X")) == 1
    g.act("wear", character=e, items=["cloth_mask", "gloves"])
    g.act("pass-sticker", at="14:06", actor=a, victim=e, disease="X")
    assert not ill(g, e, "X") and len(held_codes(g, a, "X")) == 1  # W-PROT-03, W-CARR-07
    g.act("carrier-touch", at="14:07", carrier="K", victim=f, disease="X", count=3)
    g.act("pass-sticker", at="14:08", actor=a, victim=f, disease="X")
    assert len(held_codes(g, f, "X")) == 2 and len(held_codes(g, a, "X")) == 1  # A-W-27
    g.act("carrier-touch", at="14:09", carrier="K", victim=a, disease="Z", count=2)
    z_code = held_codes(g, a, "Z")[0]
    x_code = held_codes(g, a, "X")[0]
    g.act("pass-sticker", at="14:10", actor=a, victim="p4", stickers=[z_code, x_code])
    assert ill(g, "p4", "Z") and not ill(g, "p4", "X")  # W-CARR-09: one disease per touch
    assert held_codes(g, a, "X") == [x_code]
    cure_in_hospital(g, a, ["X"], at="14:20")
    g.advance("15:00")
    assert not ill(g, a, "X") and held_codes(g, a, "X") == []  # W-CARR-06
    assert g.state.stickers[x_code].status == "vanished"
    for weapon, who in (("ranged_weapon", "p5"), ("spear", "p6")):
        g.act("finish-off", at="15:10", attacker=who, carrier="K", weapon=weapon, kills=False)
        assert not ill(g, who, "X")  # W-INF-04: a bow or a spear does not count
    g.act("finish-off", at="15:11", attacker="p7", carrier="K", weapon="melee")
    assert ill(g, "p7", "X") and not g.ch("K").alive  # W-INF-03: one sticker
    assert g.replayed() == g.state


# --- example 10: disease course rules -----------------------------------------------------------


def test_example_10_two_courses_a_light_wound_and_the_cure() -> None:
    g = game()
    define(g, code="M", reduction_medication="painkiller")
    define(g, code="N", course=COURSE_N)
    g.act("infect", at="09:00", character="p0", disease="M")
    g.act("infect", at="09:00", character="p0", disease="N")
    stickers = {
        c.data["code"]: c.data["sticker"] for c in g.ch("p0").conditions if c.kind == "disease"
    }
    g.act("lose-hits", at="09:55", character="p0", hits=1)
    g.act("admit", at="10:00", hospital="h1", patient="p0", healer="H")
    g.act("record-anamnesis", hospital="h1", patient="p0", healer="H")
    for code in ("M", "N"):
        g.act("add-to-book", healer="H", code=code)
        g.act("diagnose", hospital="h1", patient="p0", healer="H", disease=code)
    types = [e["type"] for e in g.journal()]
    assert types == ["admission", "anamnesis", "diagnosis", "diagnosis"]  # W-DTRT-03/04
    g.act(
        "start-disease-course",
        hospital="h1",
        patient="p0",
        healer="H",
        bed="b1",
        diseases=["M", "N"],
    )
    cond = g.ch("p0").condition("disease_course")
    required = sum(len(c["required"]) for c in cond.data["courses"].values())  # type: ignore[union-attr]
    assert required == 12 and cond.deadline == t("10:40")  # W-DTRT-17/18; A-W-16
    with pytest.raises(RuleViolation):
        g.act(
            "treat-light-wound", healer="H2", patient="p0", bandages=1, place="h1", bed="b2"
        )  # W-DTRT-19
    g.act("apply-bandage", at="10:05", healer="H2", patient="p0", bandages=1, place="h1")  # A-W-17
    with pytest.raises(RuleViolation):
        g.act("course-item", patient="p0", disease="M", item="drip", minutes=2)  # W-DTRT-10
    for code, items in (("M", COURSE), ("N", COURSE_N)):
        for item in items:
            extra = {"table": "t1"} if item == "operation" else {}
            g.act(
                "course-item",
                at="10:10",
                patient="p0",
                disease=code,
                item=item,
                minutes=MINUTES.get(item),
                **extra,
            )
    g.advance("10:40")
    assert not ill(g, "p0", "M") and not ill(g, "p0", "N")
    for code, sticker in stickers.items():
        cure = g.state.stickers[sticker].cure
        assert cure is not None and (cure["hospital_number"], cure["code"], cure["signature"]) == (
            "7",
            code,
            "H",
        )  # W-DTRT-20
    g.act("sign-journal", hospital="h1", patient="p0")
    assert g.journal()[-1]["type"] == "signature"  # W-HOSP-10
    assert wound_state(g.ch("p0")) == "light"  # the wound waits, bandaged


def test_example_10_a_reducing_medication_makes_ms_course_alone_twenty_minutes() -> None:
    g = game()
    define(g, code="M", reduction_medication="painkiller")
    g.act("infect", at="09:00", character="p0", disease="M")
    cure_in_hospital(g, "p0", ["M"], at="10:00")
    g.act("course-item", at="10:05", patient="p0", disease="M", item="painkiller")
    g.advance("10:20")
    assert not ill(g, "p0", "M")  # W-DTRT-15: 20 minutes


@pytest.mark.parametrize(("start", "alive"), [("10:15", True), ("10:30", False)])
def test_example_10_lethal_variant_dies_at_1100_unless_cured_first(start: str, alive: bool) -> None:
    g = game()
    define(g, code="L", lethal=True, minutes_to_death=60, recipe=LETHAL_RECIPE)
    g.act("infect", at="10:00", character="p0", disease="L")
    cure_in_hospital(g, "p0", ["L"], at=start)
    g.advance("11:30")
    assert g.ch("p0").alive is alive  # W-DIS-09; A-W-18
