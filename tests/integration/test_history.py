"""Late, out-of-order and mistaken records (DESIGN.md, principle 2; issue 14).

Records are the source: a record arriving late is placed at its campaign time and
what follows is run again; an undo is a record; what changes of what was shown is a
correction. Run on SQLite and PostgreSQL through the real service.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lazaretto.core import engine, history
from lazaretto.core.character import Character
from lazaretto.core.clock import ClockMode, wall_now
from lazaretto.core.errors import Conflict, Forbidden, LazarettoError, NotFound
from lazaretto.core.history import Checkpoint, Record
from lazaretto.core.ruleset import Role
from lazaretto.core.state import CampaignState
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database

START = datetime(2026, 6, 13, 11, 50)
KIT = ["hourglass_10min", "needle", "thread", "plaster", "bandages", "mask", "gloves",
       "mat_materials"]


def at(hhmm: str) -> datetime:
    h, m = map(int, hhmm.split(":"))
    return START.replace(hour=h, minute=m)


@pytest.fixture
def svc(database_url: str) -> Iterator[CampaignService]:
    db = Database(database_url)
    yield CampaignService(db)
    db.close()


def field_day(svc: CampaignService, name: str = "field", **params: Any) -> str:
    """The README's walkthrough: Rustam and Boris, Anna the healer with a full kit."""
    svc.create_campaign(name, "warhammer-larp", start=START, seed=1, params=params)
    for cid, who, hits in (("R", "Rustam", 3), ("B", "Boris", 3), ("A", "Anna", 2)):
        skills = ["Healer"] if cid == "A" else []
        svc.add_character(name, Character(id=cid, name=who, hits_max=hits, hits=hits,
                                          skills=skills))
    svc.act(name, "check-kit", {"healer": "A", "items": KIT})
    svc.act(name, "register-mat", {"id": "mat-A", "healer": "A", "length_cm": 180,
                                   "width_cm": 60})
    return name


def kinds(svc: CampaignService, name: str, cid: str) -> list[str]:
    return [c.kind for c in svc.load(name)[1].characters[cid].conditions]


BANDAGE = {"healer": "A", "patient": "B", "bandages": 2, "mat": "mat-A"}


def test_a_bandage_typed_in_late_undoes_the_heavy_wound_it_prevented(
    svc: CampaignService,
) -> None:
    """W-WND-08: bandaged at 12:29, the light wound never turned heavy at 12:30 —
    though the bandage was entered at 12:35, after the countdown had fired."""
    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "B", "hits": 2, "location": "leg"}, at=at("12:00"))
    svc.advance_to(name, at("12:35"))
    assert "heavy_wound" in kinds(svc, name, "B")
    answer = svc.act(name, "apply-bandage", BANDAGE, at=at("12:29"))
    assert getattr(answer, "record", None) is not None
    assert kinds(svc, name, "B") == ["light_wound"]
    assert not svc.load(name)[1].timers_for("B"), "no countdown to death"
    (correction,) = svc.corrections(name)
    assert correction["change"] == "undone"
    assert correction["event"]["kind"] == "wound.became_heavy"
    assert correction["event"]["at"] == "2026-06-13T12:30:00"
    assert correction["cause"]["record"] == answer.record  # type: ignore[attr-defined]
    assert svc.replay_matches(name)
    svc.advance_to(name, at("13:30"))
    assert svc.load(name)[1].characters["B"].alive, "Boris lives, as on the field"


def test_a_late_record_after_a_clock_move_undoes_none_of_the_countdowns_that_still_happen(
    svc: CampaignService,
) -> None:
    """The clock moved past Boris's 12:30 countdown; a wound of Rustam's typed in at
    12:35 fires that countdown again on the re-run, now as the late record's first
    events. It still happens: no correction says it was undone, and it is not told
    again as the late record's news."""
    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "B", "hits": 2, "location": "leg"}, at=at("12:00"))
    svc.advance_to(name, at("12:40"))
    assert "heavy_wound" in kinds(svc, name, "B")  # W-WND-08: heavy at 12:30
    answer = svc.act(name, "lose-hits", {"character": "R", "hits": 1, "location": "arm"},
                     at=at("12:35"))  # fmt: skip
    assert getattr(answer, "record", None) is not None
    assert svc.corrections(name) == []
    assert "heavy_wound" in kinds(svc, name, "B")
    told = [(e.kind, e.payload.get("character")) for e in answer]
    assert ("wound.became_heavy", "B") not in told
    assert ("wound.hits_lost", "R") in told
    assert svc.replay_matches(name)


def test_a_late_record_is_placed_in_time_and_the_same_dice_are_rolled(
    svc: CampaignService,
) -> None:
    """Inserting a record before others changes none of their dice: a record's dice
    are named by the record, not by how many came before it."""
    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "R", "hits": 1, "location": "arm"}, at=at("12:10"))
    svc.advance_to(name, at("12:20"))
    before = [(e.kind, e.at, e.dice, e.payload) for e in svc.events(name) if e.dice]
    svc.act(name, "lose-hits", {"character": "B", "hits": 1, "location": "arm"}, at=at("12:05"))
    after = [(e.kind, e.at, e.dice, e.payload) for e in svc.events(name) if e.dice]
    assert all(x in after for x in before)


def test_a_healer_places_a_record_at_most_late_record_minutes_back(
    svc: CampaignService,
) -> None:
    """A realtime campaign: 120 minutes by default, a campaign parameter."""
    name = "rt"
    svc.create_campaign(name, "warhammer-larp", clock=ClockMode.REALTIME, start=START,
                        seed=1, params={"late_record_minutes": 30})
    svc.add_character(name, Character(id="B", name="Boris", hits_max=3, hits=3))
    svc.set_clock(name, lambda c: c.model_copy(  # two hours into the game
        update={"anchor": c.now() + timedelta(hours=2), "anchor_wall": wall_now()}))
    now = svc.clock(name).now()
    wound = {"character": "B", "hits": 1, "location": "arm"}
    ok = svc.act(name, "lose-hits", wound, role=Role.HEALER, at=now - timedelta(minutes=20))
    assert ok
    with pytest.raises(Forbidden, match="more than 30 minutes back"):
        svc.act(name, "lose-hits", wound, role=Role.HEALER, at=now - timedelta(minutes=31))
    # a master has no limit (down to the campaign's start)
    assert svc.act(name, "lose-hits", wound, at=now - timedelta(minutes=31))


def test_an_undo_re_runs_the_history_without_the_record_and_says_what_changed(
    svc: CampaignService,
) -> None:
    name = field_day(svc)
    wound = svc.act(name, "lose-hits", {"character": "R", "hits": 2, "location": "arm"},
                    at=at("12:00"))
    svc.advance_to(name, at("12:40"))
    assert "heavy_wound" in kinds(svc, name, "R")
    no = wound.record  # type: ignore[attr-defined]
    svc.void(name, no, reason="wrong character")
    state = svc.load(name)[1]
    assert state.characters["R"].hits == 3 and kinds(svc, name, "R") == []
    assert not state.timers_for("R")
    undone = {c["event"]["kind"] for c in svc.corrections(name) if c["change"] == "undone"}
    assert {"wound.hits_lost", "wound.became_heavy"} <= undone
    listed = {r["record"]: r for r in svc.records(name)}
    assert listed[no]["status"] == "undone" and listed[no]["undone_by"] is not None
    with pytest.raises(Conflict, match="already undone"):
        svc.void(name, no)
    with pytest.raises(Conflict, match="itself an undo"):
        svc.void(name, listed[no]["undone_by"])
    with pytest.raises(NotFound):
        svc.void(name, 9999)
    assert svc.replay_matches(name)


def test_an_undo_by_its_maker_within_the_window_and_never_of_anothers(
    svc: CampaignService,
) -> None:
    name = field_day(svc, undo_minutes=10)
    wound = {"character": "R", "hits": 1, "location": "arm"}
    mine = svc.act(name, "lose-hits", wound, role=Role.HEALER, user=7, actor="healer:A")
    theirs = svc.act(name, "lose-hits", wound, role=Role.HEALER, user=8, actor="healer:B")
    # another's record is answered as a missing one (issue 28 L5)
    with pytest.raises(NotFound, match=f"No record {theirs.record} in "):  # type: ignore[attr-defined]
        svc.void(name, theirs.record, role=Role.HEALER, user=7)  # type: ignore[attr-defined]
    svc.void(name, mine.record, role=Role.HEALER, user=7)  # type: ignore[attr-defined]
    assert svc.load(name)[1].characters["R"].hits == 2


def test_an_undo_after_the_window_is_left_to_a_master(svc: CampaignService) -> None:
    name = field_day(svc, undo_minutes=0)
    wound = svc.act(name, "lose-hits", {"character": "R", "hits": 1, "location": "arm"},
                    role=Role.HEALER, user=7)
    with pytest.raises(Forbidden, match="more than 0 minutes old"):
        svc.void(name, wound.record, role=Role.HEALER, user=7)  # type: ignore[attr-defined]
    svc.void(name, wound.record)  # type: ignore[attr-defined]


def test_a_record_the_corrected_history_no_longer_allows_is_kept_refused_on_re_run(
    svc: CampaignService,
) -> None:
    """An operation-free case: bandaging a wound that, the undo shows, never was. The
    bandage stays in the history, marked refused with the rule's reason."""
    name = field_day(svc)
    wound = svc.act(name, "lose-hits", {"character": "B", "hits": 1, "location": "leg"},
                    at=at("12:00"))
    bandage = svc.act(name, "apply-bandage", BANDAGE, at=at("12:10"))
    svc.void(name, wound.record)  # type: ignore[attr-defined]
    listed = {r["record"]: r for r in svc.records(name)}
    row = listed[bandage.record]  # type: ignore[attr-defined]
    assert row["status"] == "refused"
    assert row["refusal"]["en"] and row["refusal"]["ru"]
    assert svc.load(name)[1].characters["B"].hits == 3


def test_a_late_record_the_history_refuses_is_refused_and_stores_nothing(
    svc: CampaignService,
) -> None:
    name = field_day(svc)
    svc.advance_to(name, at("12:30"))
    records, events = svc.records(name), svc.events(name)
    with pytest.raises(LazarettoError):  # Boris was not wounded at 12:10
        svc.act(name, "apply-bandage", BANDAGE, at=at("12:10"))
    assert svc.records(name) == records and svc.events(name) == events


# --- the property: arrival order does not matter ---------------------------------------
@st.composite
def histories(draw: st.DrawFn) -> tuple[list[tuple[int, str]], list[int]]:
    """A time-ordered history of wounds and bandages of Rustam and Boris, and an
    arrival order in which each bandage still comes after the wound it treats (one
    arriving before it is refused at arrival, as a healer's phone would be told)."""
    steps: list[tuple[int, str]] = []
    minutes = iter(draw(st.lists(st.integers(1, 40), min_size=6, max_size=6, unique=True)))
    for who in ("R", "B"):
        first = next(minutes)
        steps.append((first, f"wound-{who}"))
        if draw(st.booleans()):
            steps.append((max(first, next(minutes)), f"wound-{who}"))
        if draw(st.booleans()):
            steps.append((first + draw(st.integers(1, 50)), f"bandage-{who}"))
    steps = sorted(set(steps))
    order = draw(st.permutations(range(len(steps))))
    for who in ("R", "B"):  # the first wound of each arrives before their bandage
        wound = min(i for i, s in enumerate(steps) if s[1] == f"wound-{who}")
        for i, s in enumerate(steps):
            if s[1] == f"bandage-{who}" and order.index(i) < order.index(wound):
                order.remove(wound)
                order.insert(order.index(i), wound)
    return steps, order


def _request(kind: str) -> tuple[str, dict[str, Any]]:
    who = kind.rsplit("-", 1)[-1]
    if kind.startswith("wound"):
        return "lose-hits", {"character": who, "hits": 1, "location": "arm"}
    return "apply-bandage", {**BANDAGE, "patient": who, "bandages": 1}


def _play(svc: CampaignService, name: str, steps: list[tuple[int, str]],
          order: list[int]) -> bool:
    field_day(svc, name)
    everyone_accepted = True
    for i in order:
        minute, kind = steps[i]
        action, raw = _request(kind)
        try:
            svc.act(name, action, raw, at=START + timedelta(minutes=minute))
        except LazarettoError:
            everyone_accepted = False
    svc.advance_to(name, START + timedelta(hours=3))
    return everyone_accepted


def _picture(svc: CampaignService, name: str) -> dict[str, Any]:
    """The state (countdowns included) and the journal as it reads now: a book keeps
    the entries a late record struck, and marks the ones it added; those marks are how
    it got there, not what it says."""
    state = svc.load(name)[1].model_dump(mode="json")
    state.pop("campaign")
    journal = [
        {k: v for k, v in entry.items() if k not in ("correction", "corrected_by")}
        for entry in svc.journal(name)
        if entry.get("correction") != "struck"
    ]
    return {"state": state, "journal": journal}


def from_scratch(svc: CampaignService, name: str) -> history.Outcome:
    """Every stored record of ``name`` run again from the campaign's first state, in
    campaign-time order (core/history.py), with nothing the service kept."""
    rs, _, _ = svc.load(name)
    first = engine.replay(rs, svc.events(name)[:1])  # campaign.created
    assert first.clock is not None
    start = Checkpoint(0, first.clock.now(), first.last_seq, first.model_dump_json())
    records = [
        Record(
            no=r["record"], kind=r["kind"], at=datetime.fromisoformat(r["at"]),
            wall=datetime.fromisoformat(r["wall"]), actor=r["actor"], role=Role(r["role"]),
            action=r["action"], input=r["input"], voids=r["voids"], reason=r["reason"],
        )
        for r in svc.records(name, limit=100_000)
    ]
    return history.rerun(rs, start, records, wall_now())


def assert_replays(svc: CampaignService, name: str) -> None:
    """The live state is what the event log rebuilds and what the records rebuild
    from scratch; no record stands refused."""
    assert svc.replay_matches(name)
    again = from_scratch(svc, name)
    live = svc.load(name)[1]
    assert again.state.model_dump(mode="json") == live.model_dump(mode="json")
    assert [(e.kind, e.at, e.payload) for e in again.events] == [
        (e.kind, e.at, e.payload) for e in svc.events(name)[1:]
    ]
    assert not again.refused
    assert {r["status"] for r in svc.records(name)} <= {"ok", "undone"}


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(history=histories())
def test_records_delivered_in_any_order_give_the_in_order_history(
    tmp_path_factory: pytest.TempPathFactory, history: tuple[list[tuple[int, str]], list[int]]
) -> None:
    """Whenever every record is accepted both ways, delivering a time-ordered history
    in another arrival order gives exactly the state (countdowns included) and the
    journal of in-order delivery; replaying the stored log reproduces the state; an
    undo followed by recording the same record again restores it."""
    steps, order = history
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('order') / 'h.db'}")
    try:
        svc = CampaignService(db)
        assume(_play(svc, "in-order", steps, list(range(len(steps)))))
        assume(_play(svc, "shuffled", steps, order))
        expected = _picture(svc, "in-order")
        assert _picture(svc, "shuffled") == expected
        assert_replays(svc, "shuffled")
        minute, kind = steps[0]
        first = next(r for r in svc.records("shuffled")
                     if r["at"] == (START + timedelta(minutes=minute)).isoformat()
                     and r["kind"] == "act")
        svc.void("shuffled", first["record"])
        action, raw = _request(kind)
        svc.act("shuffled", action, raw, at=START + timedelta(minutes=minute))
        again = _picture(svc, "shuffled")
        assert again["state"]["characters"] == expected["state"]["characters"]
    finally:
        db.close()


def test_the_journal_keeps_an_entry_a_late_record_struck_and_marks_the_one_it_added(
    svc: CampaignService,
) -> None:
    """W-HOSP-07 in a book: Boris died in hospital at 12:45 (the journal said so); the
    bandage of 12:29, typed in at 12:50, means he did not. The death entry stays,
    struck, with the record that struck it; no live entry says he died."""
    name = field_day(svc)
    svc.act(name, "register-hospital", {"id": "h1", "name": "Shallya", "number": "7",
                                        "tables": [{"id": "t1"}],
                                        "beds": [{"id": "b1"}, {"id": "b2"}]})
    svc.act(name, "lose-hits", {"character": "B", "hits": 2, "location": "leg"}, at=at("12:00"))
    svc.act(name, "admit", {"hospital": "h1", "patient": "B", "healer": "A"}, at=at("12:01"))
    svc.advance_to(name, at("12:50"))
    died = [e for e in svc.journal(name) if e.get("outcome") == "died"]
    assert died and not svc.load(name)[1].characters["B"].alive
    svc.act(name, "apply-bandage", BANDAGE, at=at("12:29"))
    journal = svc.journal(name)
    struck = [e for e in journal if e.get("correction") == "struck"]
    assert [e.get("outcome") for e in struck] == ["died"]
    assert struck[0]["corrected_by"]["action"] == "apply-bandage"
    assert svc.load(name)[1].characters["B"].alive
    assert all(e.get("outcome") != "died" for e in journal if "correction" not in e)


def _book(svc: CampaignService, name: str) -> list[tuple[int, str, str]]:
    return [(e["no"], e["patient"], e.get("correction", "")) for e in svc.journal(name)]


def test_an_undone_entry_keeps_its_number_and_the_one_made_again_gets_the_next(
    svc: CampaignService,
) -> None:
    """A hospital book (W-HOSP-05, W-HOSP-04): Boris's admission, a mis-tap, is undone;
    its entry stays struck under its number 2, Anna's entry keeps 3 (the undo does not
    renumber, so nothing after it reads as struck and added again), and Boris admitted
    again gets 4; a correction can still point at entry 3 as the healer reads it."""
    name = field_day(svc)
    svc.act(name, "register-hospital", {"id": "h1", "name": "Shallya", "number": "7",
                                        "tables": [{"id": "t1"}],
                                        "beds": [{"id": "b1"}, {"id": "b2"}, {"id": "b3"}]})
    for cid, when in (("R", "12:00"), ("B", "12:01"), ("A", "12:02")):
        svc.act(name, "lose-hits", {"character": cid, "hits": 1, "location": "leg"},
                at=at(when))
    for cid, when in (("R", "12:06"), ("B", "12:07"), ("A", "12:08")):
        svc.act(name, "admit", {"hospital": "h1", "patient": cid, "healer": "A"}, at=at(when))
    mis_tap = [r for r in svc.records(name) if r["action"] == "admit"][1]
    svc.void(name, mis_tap["record"])
    assert _book(svc, name) == [(1, "R", ""), (2, "B", "struck"), (3, "A", "")]
    svc.act(name, "admit", {"hospital": "h1", "patient": "B", "healer": "A"}, at=at("12:10"))
    assert _book(svc, name) == [(1, "R", ""), (2, "B", "struck"), (3, "A", ""), (4, "B", "")]
    assert svc.load(name)[1].admissions["B"].entry == 4
    svc.act(name, "correct-journal", {"hospital": "h1", "entry": 3, "text": "age 30"},
            at=at("12:11"))
    assert svc.journal(name)[-1]["corrects"] == 3 and svc.journal(name)[-1]["no"] == 5
    assert_replays(svc, name)


def test_an_undo_that_struck_no_entry_leaves_nothing_behind(svc: CampaignService) -> None:
    """Only a book's numbers are kept: an undone wound leaves no trace in the events."""
    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "R", "hits": 1, "location": "leg"}, at=at("12:00"))
    wound = next(r for r in svc.records(name) if r["action"] == "lose-hits")
    svc.void(name, wound["record"])
    assert "undo.kept" not in [e.kind for e in svc.events(name)]
    assert svc.load(name)[1].characters["R"].hits == 3
    assert_replays(svc, name)


# --- the property on whole days: treatments, operations, diseases, deaths ------------
Step = tuple[datetime, str, dict[str, Any]]
Story = tuple[int, str, dict[str, Any]]  # (minutes from the character's first record, ...)


class Steps:
    """A character's story being drawn: each step some minutes after the one before."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw, self.minute, self.steps = draw, 0, list[Story]()

    def add(self, action: str, raw: dict[str, Any], after: tuple[int, int] = (0, 0)) -> None:
        self.minute += self.draw(st.integers(*after))
        self.steps.append((self.minute, action, raw))

    def maybe(self) -> bool:
        return self.draw(st.booleans())


@st.composite
def zone_story(draw: st.DrawFn, who: str) -> list[Story]:
    """One zone-larp fighter's day. Each story runs into the ruleset's countdowns: the
    kit's 10 minutes (Z-LW-10), the heavy wound's 15 (Z-STATE-10), the rest after a
    treatment (Z-TRT-04) or an operation (Z-TRT-10)."""
    healer = {"C": "H", "D": "H2"}[who]
    day = Steps(draw)
    story = draw(st.sampled_from(["light", "heavy", "infection", "death"]))
    if story == "light":
        day.add("strike", {"character": who})
        if day.maybe():
            day.add("apply-kit", {"character": who}, (1, 12))
        if day.maybe():
            day.add("treat-wounds", {"healer": healer, "patient": who}, (1, 20))
    elif story == "heavy":
        day.add("strike", {"character": who})
        day.add("strike", {"character": who}, (1, 9))
        if day.maybe():
            measure = draw(st.sampled_from(["ordinary", "radical"]))
            day.add("start-operation", {"healer": healer, "patient": who, "measure": measure},
                    (1, 14))
            if day.maybe():
                day.add("finish-operation", {"healer": healer, "patient": who}, (1, 30))
    elif story == "infection":
        day.add("expose-infection", {"character": who, "infection": "V1", "source": "canister"})
        if day.maybe():
            day.add("identify-infection", {"patient": who}, (1, 30))
            if day.maybe():
                day.add("cure-infection", {"patient": who, "infection": "V1", "resources": 3},
                        (1, 30))
        if day.maybe():
            day.add("strike", {"character": who}, (1, 30))
    else:
        day.add("kill", {"character": who})
        if day.maybe():
            day.add("arrive-hospital", {"patient": who}, (1, 30))
    return day.steps


@st.composite
def warhammer_story(draw: st.DrawFn, who: str) -> list[Story]:
    """One warhammer-larp patient's day: a wound bandaged or not (W-WND-08: heavy after
    30 minutes unbandaged, death 15 later), in the field or admitted to the hospital
    (the journal, W-HOSP-07), cured by other means; a lethal disease and its cure; or a
    death."""
    day = Steps(draw)
    story = draw(st.sampled_from(["field", "hospital", "hospital", "disease", "death"]))
    bandage = {"healer": "A", "patient": who, "bandages": 1, "mat": "mat-A"}
    if story in ("field", "hospital"):
        day.add("lose-hits", {"character": who, "hits": draw(st.integers(1, 2)),
                              "location": "leg"})
        if story == "hospital":
            day.add("admit", {"hospital": "h1", "patient": who, "healer": "A"}, (1, 10))
        if day.maybe():
            day.add("apply-bandage", bandage, (1, 40))
        if day.maybe():
            day.add("cure-by-other-means", {"patient": who, "means": "potion"}, (1, 60))
    elif story == "disease":
        day.add("infect", {"character": who, "disease": "RP"})
        if day.maybe():
            day.add("cure-disease-by-other-means",
                    {"patient": who, "disease": "RP", "means": "potion"}, (1, 90))
    else:
        day.add("kill", {"character": who})
    return day.steps


@st.composite
def days(draw: st.DrawFn, story: Any, people: tuple[str, str]) -> tuple[list[Step], list[int]]:
    """Two characters' days in time order (no two records at one moment: the first's
    on the minute, the second's at :30), and an arrival order in which each character's
    records come in their own order, interleaved at random with the other's. On a
    manual clock a record moves the clock to its time, so one arriving after a later
    one of the other character is late: placed before countdowns that have fired."""
    first = START + timedelta(minutes=draw(st.integers(10, 40)))
    second = first + timedelta(minutes=draw(st.integers(-5, 25)), seconds=30)
    lanes = [
        [(begin + timedelta(minutes=m), action, raw) for m, action, raw in draw(story(who))]
        for who, begin in zip(people, (first, second), strict=True)
    ]
    steps = sorted((s for lane in lanes for s in lane), key=lambda s: s[0])
    index = {id(s): i for i, s in enumerate(steps)}
    queues = [[index[id(s)] for s in lane] for lane in lanes]
    order: list[int] = []
    while any(queues):
        lane = draw(st.sampled_from([q for q in queues if q]))
        order.append(lane.pop(0))
    return steps, order


def zone_day(svc: CampaignService, name: str) -> None:
    """Fighters C and D (2 hits, A-Z-03) and healers H and H2 on a manual clock."""
    svc.create_campaign(name, "zone-larp", start=START, seed=1)
    for cid, skills in (("C", []), ("D", []), ("H", ["Healer"]), ("H2", ["Healer"])):
        svc.add_character(name, Character(id=cid, name=cid, hits_max=2, hits=2,
                                          skills=skills))


def warhammer_day(svc: CampaignService, name: str) -> None:
    """The field day with a hospital (its journal) and a lethal disease."""
    field_day(svc, name)
    svc.act(name, "register-hospital", {"id": "h1", "name": "Shallya", "number": "7",
                                        "tables": [{"id": "t1"}],
                                        "beds": [{"id": "b1"}, {"id": "b2"}]})
    svc.act(name, "define-disease", {"code": "RP", "name": "Red pox", "symptoms": "spots",
                                     "penalties": "weak", "lethal": True,
                                     "minutes_to_death": 60})


DAYS = {
    "zone-larp": (zone_day, zone_story, ("C", "D")),
    "warhammer-larp": (warhammer_day, warhammer_story, ("R", "B")),
}


def _play_day(svc: CampaignService, ruleset: str, name: str, steps: list[Step],
              order: list[int]) -> bool:
    DAYS[ruleset][0](svc, name)
    everyone_accepted = True
    for i in order:
        when, action, raw = steps[i]
        try:
            svc.act(name, action, raw, at=when)
        except LazarettoError:
            everyone_accepted = False
    svc.advance_to(name, START + timedelta(hours=4))
    return everyone_accepted


def _pending(svc: CampaignService, name: str) -> list[tuple[str, str, datetime]]:
    return sorted((t.kind, t.subject, t.deadline) for t in svc.load(name)[1].pending_timers())


@pytest.mark.parametrize("ruleset", sorted(DAYS))
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_whole_days_delivered_in_any_order_give_the_in_order_history(
    tmp_path_factory: pytest.TempPathFactory, ruleset: str, data: st.DataObject
) -> None:
    """On every ruleset with countdowns: whenever every record is accepted both ways,
    the state (countdowns included) and the journal are those of in-order delivery;
    the records replayed from scratch and the event log both rebuild the live state;
    undoing a record and recording it again restores the characters and their
    countdowns."""
    _, story, people = DAYS[ruleset]
    steps, order = data.draw(days(story, people), label="history")
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('day') / 'h.db'}")
    try:
        svc = CampaignService(db)
        assume(_play_day(svc, ruleset, "in-order", steps, list(range(len(steps)))))
        assume(_play_day(svc, ruleset, "shuffled", steps, order))
        expected = _picture(svc, "in-order")
        assert _picture(svc, "shuffled") == expected
        assert_replays(svc, "shuffled")
        event(f"late records changed outcomes: {bool(svc.corrections('shuffled'))}")
        event(f"journal entries: {bool(expected['journal'])}")
        when, action, raw = steps[0]
        (first,) = [r for r in svc.records("shuffled")
                    if r["at"] == when.isoformat() and r["kind"] == "act"]
        svc.void("shuffled", first["record"])
        svc.act("shuffled", action, raw, at=when)
        assert _picture(svc, "shuffled")["state"]["characters"] == (
            expected["state"]["characters"]
        )
        assert _pending(svc, "shuffled") == _pending(svc, "in-order")
        assert_replays(svc, "shuffled")
    finally:
        db.close()


# --- late records arriving together (issue 25) ------------------------------------------
def _send_together(svc: CampaignService, name: str, steps: list[Step],
                   arrivals: list[int]) -> list[Any]:
    """``arrivals`` sent at once, as phones reconnecting after a Wi-Fi outage: all are
    queued before the writer takes any (it waits for the write lock), so the group
    commit takes them as one batch. Each tap's answer, or its refusal."""
    with svc.db.write_lock:
        futures = [svc.submit_act(name, steps[i][1], steps[i][2], at=steps[i][0])
                   for i in arrivals]
    answers: list[Any] = []
    for future in futures:
        try:
            answers.append(future.result())
        except LazarettoError as exc:
            answers.append(exc)
    return answers


def _told(events: Any) -> list[tuple[str, Any]]:
    """A tap's own outcome: its events less the countdowns that fired on the way to its
    time (which of them were told before depends on what the tapper's re-run found
    stored, and they are told as they fire either way)."""
    return [(e.kind, e.payload) for e in events
            if not (e.kind.startswith(history.MECHANICS) or e.action.startswith("timer:"))]


def _stored(svc: CampaignService, name: str) -> dict[str, Any]:
    records = [{k: r[k] for k in ("record", "kind", "action", "input", "at", "status")}
               for r in svc.records(name, limit=100_000)]
    events = [(e.kind, e.at, e.payload) for e in svc.events(name)[1:]]
    return {"records": records, "events": events, **_picture(svc, name)}


@pytest.mark.parametrize("ruleset", sorted(DAYS))
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_late_records_arriving_together_make_what_one_at_a_time_delivery_makes(
    tmp_path_factory: pytest.TempPathFactory, ruleset: str, data: st.DataObject
) -> None:
    """A day's first records arrive one at a time, the rest together (an outbox
    storm): the writer places the late ones of the batch by one re-run, yet the stored
    records (numbers, statuses), the events, the state, the countdowns and the journal
    are exactly those of delivering the same records one at a time in the order the
    writer numbered them, and each tap's answer is its own record's events there."""
    _, story, people = DAYS[ruleset]
    steps, order = data.draw(days(story, people), label="history")
    split = data.draw(st.integers(0, len(order) - 1), label="sent one at a time")
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('batch') / 'h.db'}")
    try:
        svc = CampaignService(db)
        DAYS[ruleset][0](svc, "together")
        made = len(svc.records("together", limit=100_000))  # the day's setting up
        for i in order[:split]:
            with contextlib.suppress(LazarettoError):
                svc.act("together", steps[i][1], steps[i][2], at=steps[i][0])
        reruns = 0
        real = history.rerun

        def counted(*args: Any, **kwargs: Any) -> history.Outcome:
            nonlocal reruns
            reruns += 1
            return real(*args, **kwargs)

        with mock.patch.object(history, "rerun", counted):
            answers = _send_together(svc, "together", steps, order[split:])
        refused = sum(isinstance(a, LazarettoError) for a in answers)
        assert reruns <= 1  # one re-run, however many of them the rules refuse
        # the reference: the same records one at a time, in the writer's numbering
        DAYS[ruleset][0](svc, "one-by-one")
        alone: dict[int, Any] = {}
        for r in svc.records("together", limit=100_000)[made:]:
            assert r["kind"] == "act"
            answer = svc.act("one-by-one", r["action"], r["input"],
                             at=datetime.fromisoformat(r["at"]))
            alone[r["record"]] = answer
        assert _stored(svc, "together") == _stored(svc, "one-by-one")
        for answer in answers:
            if not isinstance(answer, LazarettoError):
                assert _told(answer) == _told(alone[answer.record])
        assert_replays(svc, "together")
        event(f"taps refused in the batch: {refused > 0}")
        event(f"re-runs: {reruns}")
    finally:
        db.close()


def test_the_late_records_waiting_to_be_placed_are_counted_with_how_far_back_they_reach(
    svc: CampaignService, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: during a storm the master sees how many late records wait and the
    campaign time the oldest reaches back to; a re-run slower than SLOW_RERUN says
    so in the server's log with how many late records it placed."""
    from lazaretto.service import recorder

    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "R", "hits": 1, "location": "arm"},
            at=at("12:30"))
    now = svc.load(name)[1].clock.now()  # type: ignore[union-attr]
    assert svc.late_waiting(name, now) == (0, None)
    monkeypatch.setattr(recorder, "SLOW_RERUN", 0.0)  # every re-run counts as slow here
    with caplog.at_level("WARNING", logger="lazaretto.history"), svc.db.write_lock:
        futures = [
            svc.submit_act(name, "lose-hits", {"character": who, "hits": 1, "location": "arm"},
                           at=at(hhmm))
            for who, hhmm in (("B", "12:10"), ("B", "12:05"), ("R", "12:20"))
        ]
        assert svc.late_waiting(name, now) == (3, at("12:05"))
    for future in futures:
        future.result()
    assert svc.late_waiting(name, now) == (0, None)
    (line,) = [r.getMessage() for r in caplog.records if "re-ran" in r.getMessage()]
    assert "to place 3 late record(s)" in line and name in line


def test_an_in_order_tap_is_answered_before_the_late_ones_of_its_batch_are_placed(
    svc: CampaignService,
) -> None:
    """Issue 25: in-order taps that share a group commit with late records (a healer
    who never lost the Wi-Fi, during a storm) are committed and answered first; the
    late ones are placed right after by their own re-run, numbered after them as
    before, and nobody's answer is lost or doubled."""
    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "R", "hits": 1, "location": "arm"},
            at=at("12:30"))
    seen: list[bool] = []
    real = history.rerun

    def watched(*args: Any, **kwargs: Any) -> history.Outcome:
        seen.append(online.done())
        return real(*args, **kwargs)

    with mock.patch.object(history, "rerun", watched):
        with svc.db.write_lock:  # all three queued before the writer takes any
            late = [svc.submit_act(name, "lose-hits", {"character": who, "hits": 1,
                                                       "location": "leg"}, at=at(hhmm))
                    for who, hhmm in (("B", "12:10"), ("B", "12:05"))]
            online = svc.submit_act(name, "lose-hits", {"character": "A", "hits": 1,
                                                        "location": "arm"}, at=at("12:40"))
        answers = [f.result() for f in late]
    assert seen == [True]  # one re-run, and the online tap had its answer before it
    first = online.result().record
    assert sorted(a.record for a in answers) == [first + 1, first + 2]
    records = {r["record"]: r for r in svc.records(name, limit=1000)}
    assert records[first]["input"]["character"] == "A"
    assert [records[first + k]["at"][11:16] for k in (1, 2)] == ["12:05", "12:10"]
    assert svc.load(name)[1].characters["B"].data["wound_locations"] == ["leg", "leg"]
    assert_replays(svc, name)


def test_a_refused_tap_leaves_no_campaign_state_for_the_cycle_collector(
    svc: CampaignService,
) -> None:
    """A refusal is an answer, kept without its traceback: its frames held whole
    campaign states, and until the cycle collector came for them a 3,000-character
    server paused for most of a second every few seconds (issue 25). Refused in order
    and refused in a re-run (a late bandage for a wound that came after it)."""
    name = field_day(svc)
    svc.act(name, "lose-hits", {"character": "B", "hits": 1, "location": "leg"},
            at=at("12:20"))
    svc.advance_to(name, at("12:30"))
    was = gc.isenabled()
    gc.disable()
    gc.collect()
    try:
        in_order = svc.submit_act(name, "apply-bandage", {**BANDAGE, "patient": "R"})
        late = svc.submit_act(name, "apply-bandage", BANDAGE, at=at("12:10"))
        refusals = [in_order.exception(timeout=30), late.exception(timeout=30)]
        assert all(isinstance(e, LazarettoError) for e in refusals)
        assert [e.__traceback__ for e in refusals if e is not None] == [None, None]
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, CampaignState)]
        assert left == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
