"""Who lies where (occupancy.py): a patient's bed, table and mat are freed from the
patient, without looking at every place of the campaign (W-HOSP-13, W-HEAL-08)."""

from __future__ import annotations

from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.service.state_store import layout
from tests.game import Game
from tests.unit.warhammer.conftest import hospital


def ws(g: Game) -> WarhammerState:
    assert isinstance(g.state, WarhammerState)
    return g.state


def operated(g: Game, cid: str) -> None:
    """``cid`` is heavy-wounded at 12:00, bandaged and on table t1 of h1 at 12:02."""
    g.act("lose-hits", at="12:00", character=cid, hits=3)
    g.act("apply-bandage", at="12:01", healer="H", patient=cid, bandages=3, place="h1")
    g.act("start-operation", at="12:02", healer="H", patient=cid, hospital="h1", table="t1")


def test_a_cured_patient_frees_their_mat_while_the_next_bed_stays_taken(g: Game) -> None:
    g.add("E", hits=3)
    g.act("lose-hits", at="12:00", character="C", hits=1)
    g.act("lose-hits", at="12:00", character="E", hits=1)
    g.act("treat-light-wound", at="12:01", healer="H", patient="C", bandages=1, mat="m1")
    g.act(
        "treat-light-wound", at="12:03", healer="H2", patient="E", bandages=1, place="h1", bed="b1"
    )
    assert ws(g).mats["m1"].occupant == "C" and ws(g).hospitals["h1"].beds["b1"].occupant == "E"
    g.advance("12:11:30")  # W-TRT-03: C's 10 minutes are over, E's are not
    assert g.ch("C").hits == 3 and ws(g).mats["m1"].occupant is None
    assert ws(g).hospitals["h1"].beds["b1"].occupant == "E"
    g.advance("12:13:30")
    assert ws(g).hospitals["h1"].beds["b1"].occupant is None


def test_the_table_is_freed_for_the_bed_after_an_operation(g: Game) -> None:
    operated(g, "C")
    assert ws(g).hospitals["h1"].tables["t1"].occupant == "C"
    g.act("finish-operation", at="12:20", patient="C", stitches=[{"location": "leg"}] * 3, bed="b2")
    h = ws(g).hospitals["h1"]
    assert h.tables["t1"].occupant is None and h.beds["b2"].occupant == "C"  # W-TRT-13


def test_a_state_read_back_from_its_json_still_frees_the_places(g: Game) -> None:
    operated(g, "C")
    g.state = WarhammerState.model_validate_json(g.state.model_dump_json())  # a fresh read
    g.act("finish-operation", at="12:20", patient="C", stitches=[{"location": "leg"}] * 3, bed="b2")
    assert ws(g).hospitals["h1"].tables["t1"].occupant is None
    g.state = ws(g).model_copy(deep=True)  # a copy, as the history's checkpoints make
    g.advance("12:41")  # W-TRT-13: 20 minutes in bed
    assert g.ch("C").hits == 3 and ws(g).hospitals["h1"].beds["b2"].occupant is None


def test_freeing_a_patient_touches_only_their_hospital_not_every_place(g: Game) -> None:
    hospital(g, "h2", number="8")
    for i in range(3, 10):
        g.act("register-mat", id=f"m{i}", healer="H2", length_cm=180, width_cm=60)
    operated(g, "C")
    st = ws(g)
    layout(WarhammerState).track(st)  # as the parts store watches a change
    g.act("finish-operation", at="12:20", patient="C", stitches=[{"location": "leg"}] * 3, bed="b2")
    hospitals, mats = st.__dict__["hospitals"], st.__dict__["mats"]
    assert not hospitals.everything and hospitals.touched == {"h1"}
    assert not mats.everything and mats.touched == set()
