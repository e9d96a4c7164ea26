"""The state stored as parts (service/state_store.py): a change writes the entities it
touched, readers in other processes catch up from what was written since, and a
database from before the parts (revision 0008) reads the same after the migration."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select
from tests.integration.test_store import downgrade

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.state import CampaignState
from lazaretto.service import roster, state_store
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.recorder import Draft
from lazaretto.store.db import Database
from lazaretto.store.models import StatePartRow

START = datetime(2026, 6, 13, 10, 0)
KIT = ["hourglass_10min", "needle", "thread", "plaster", "bandages", "mask", "gloves",
       "mat_materials"]



def field_campaign(svc: CampaignService, name: str = "field", size: int = 300) -> None:
    """A warhammer-larp campaign: a healer with a kit and a mat, ``size`` characters
    added as one roster record."""
    svc.create_campaign(name, "warhammer-larp", start=START, seed=5)
    svc.add_character(name, Character(id="doc", name="Doc", hits_max=3, hits=3,
                                      skills=["Healer"]))
    svc.act(name, "check-kit", {"healer": "doc", "items": KIT})
    svc.act(name, "register-mat", {"id": "m", "healer": "doc", "length_cm": 180,
                                   "width_cm": 60})
    roster = [Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3).model_dump(mode="json")
              for i in range(size)]
    svc.submit(name, None, draft=Draft("character", input={"characters": roster})).result()


def parts_at(db: Database, name: str, version: int) -> list[tuple[str, str]]:
    with db.transaction(readonly=True) as s:
        rows = s.execute(select(StatePartRow.field, StatePartRow.key).where(
            StatePartRow.campaign_id == name, StatePartRow.version == version))
        return sorted((f, k) for f, k in rows)


def orders(state: CampaignState) -> dict[str, list[str]]:
    """The order of every mapping of ``state`` (equality of dicts ignores it)."""
    lay = state_store.layout(type(state))
    return {f: list(getattr(state, f)) for f in lay.split}


def same(a: CampaignState, b: CampaignState) -> bool:
    return a == b and orders(a) == orders(b)


def wound(cid: str) -> dict[str, object]:
    return {"character": cid, "hits": 1, "location": "arm"}


def test_a_wound_in_a_big_campaign_writes_only_what_it_touched(db: Database) -> None:
    svc = CampaignService(db)
    field_campaign(svc)
    with db.transaction(readonly=True) as s:
        stored = s.scalar(select(func.count()).select_from(StatePartRow))
    assert stored is not None and stored >= 301  # one row per character at least
    svc.act("field", "lose-hits", wound("c7"), at=START + timedelta(minutes=1))
    version = svc.version("field")
    assert version is not None
    written = parts_at(db, "field", version)
    # the campaign's counters, the wounded character and the countdown the wound started
    assert ("", "") in written and ("characters", "c7") in written
    assert [k for f, k in written if f == "characters"] == ["c7"]
    assert [f for f, _ in written if f == "timers"] == ["timers"]
    assert len(written) == 3


def test_a_countdown_that_fires_leaves_a_tombstone_and_readers_drop_it(db: Database) -> None:
    svc, elsewhere = CampaignService(db), CampaignService(db)  # two processes
    field_campaign(svc, size=3)
    svc.act("field", "lose-hits", wound("c1"), at=START + timedelta(minutes=1))
    (timer,) = elsewhere.load("field")[1].timers.values()
    svc.advance_to("field", timer.deadline + timedelta(seconds=1))  # light turns heavy
    version = svc.version("field")
    with db.transaction(readonly=True) as s:
        body = s.scalar(select(StatePartRow.body).where(
            StatePartRow.field == "timers", StatePartRow.key == timer.id))
        kept = s.scalar(select(StatePartRow.version).where(
            StatePartRow.field == "timers", StatePartRow.key == timer.id))
    assert body is None and kept == version  # a tombstone, written by that version
    caught_up = elsewhere.load("field")[1]
    assert timer.id not in caught_up.timers
    assert caught_up.characters["c1"].has("heavy_wound")
    assert caught_up == CampaignService(db).load("field")[1]  # == a fresh full read


def test_a_reader_catches_up_to_exactly_what_a_fresh_read_gives(db: Database) -> None:
    """Wounds, bandages, cures, a late record that re-runs the history and an undo:
    after each, the reader that caught up holds the state a fresh read parses."""
    svc, elsewhere = CampaignService(db), CampaignService(db)
    field_campaign(svc, size=6)
    elsewhere.load("field")
    at = START
    for i in range(6):
        at += timedelta(minutes=3)
        cid = f"c{i}"
        svc.act("field", "lose-hits", wound(cid), at=at)
        if i % 2:
            svc.act("field", "apply-bandage", {"healer": "doc", "patient": cid,
                                               "bandages": 1, "mat": "m"},
                    at=at + timedelta(seconds=30))
        assert same(elsewhere.load("field")[1], CampaignService(db).load("field")[1])
    svc.advance_to("field", at + timedelta(minutes=40))
    late = svc.act("field", "apply-bandage", {"healer": "doc", "patient": "c0",
                                              "bandages": 1, "mat": "m"},
                   at=START + timedelta(minutes=4))
    fresh = CampaignService(db).load("field")[1]
    assert same(elsewhere.load("field")[1], fresh)
    record = getattr(late, "record", None)
    assert record is not None
    svc.void("field", record, reason="mis-tap")
    fresh = CampaignService(db).load("field")[1]
    assert same(elsewhere.load("field")[1], fresh)
    assert orders(engine.replay(svc.ruleset("field"), svc.events("field"))) == orders(fresh)
    assert svc.replay_matches("field")


def test_two_writers_taking_turns_catch_up_without_reading_the_whole_state(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two server processes writing one campaign by turns (PostgreSQL with two
    workers): each brings its working copy up to date from the other's parts."""
    one, two = CampaignService(db), CampaignService(db)
    field_campaign(one, size=20)
    two.act("field", "lose-hits", wound("c0"), at=START + timedelta(minutes=1))
    whole_reads = []
    real = CampaignService._parse_parts

    def counted(self: CampaignService, name: str, session: object) -> object:
        whole_reads.append(self)
        return real(self, name, session)  # type: ignore[arg-type]

    monkeypatch.setattr(CampaignService, "_parse_parts", counted)
    at = START + timedelta(minutes=2)
    for i in range(1, 9):
        writer = one if i % 2 else two
        at += timedelta(minutes=1)
        writer.act("field", "lose-hits", wound(f"c{i}"), at=at)
        writer.act("field", "cure-by-other-means", {"patient": f"c{i - 1}", "means": "potion"},
                   at=at + timedelta(seconds=10))
    assert whole_reads == []
    monkeypatch.undo()
    fresh = CampaignService(db).load("field")[1]
    assert one.load("field")[1] == fresh == two.load("field")[1]
    assert fresh.characters["c8"].hits == 2 and fresh.characters["c7"].hits == 3
    assert one.replay_matches("field")


def test_a_reader_older_than_the_kept_tombstones_reads_the_whole_state(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state_store, "TOMBSTONES_KEPT", 2)
    monkeypatch.setattr("lazaretto.service.group_commit.TOMBSTONE_SWEEP", 1)
    svc, elsewhere = CampaignService(db), CampaignService(db)
    field_campaign(svc, size=3)
    old = elsewhere.load("field")[2]
    svc.act("field", "lose-hits", wound("c1"), at=START + timedelta(minutes=1))
    svc.advance_to("field", START + timedelta(minutes=40))  # its countdown fired: tombstone
    for i in range(4):
        svc.act("field", "lose-hits", wound("c2"), at=START + timedelta(minutes=41 + 2 * i))
        svc.act("field", "cure-by-other-means", {"patient": "c2", "means": "potion"},
                at=START + timedelta(minutes=42 + 2 * i))
    with db.transaction(readonly=True) as s:
        floor = s.scalar(select(func.min(StatePartRow.version)).where(
            StatePartRow.body.is_(None)))
    assert floor is None or floor > old  # the tombstones the old reader needs are gone
    assert elsewhere.load("field")[1] == CampaignService(db).load("field")[1]


def test_an_imported_roster_is_one_record_and_survives_a_re_run(db: Database) -> None:
    """A roster import is a record of its own: a late record placed before it re-runs
    the history, and the imported characters are there after it as before."""
    svc = CampaignService(db)
    field_campaign(svc, size=2)
    svc.act("field", "lose-hits", wound("c0"), at=START + timedelta(minutes=5))
    text = "id,name,hits\n" + "".join(f"r{i},Rider {i},3\n" for i in range(50))
    rows = [c.row for c in roster.read_roster(text, set())]
    assert all(r is not None for r in rows)
    records = len(svc.records("field"))
    roster.import_roster(svc, "field", [r for r in rows if r is not None])
    assert len(svc.records("field")) == records + 1
    svc.act("field", "lose-hits", wound("r3"), at=START + timedelta(minutes=10))
    svc.act("field", "apply-bandage", {"healer": "doc", "patient": "c0", "bandages": 1,
                                       "mat": "m"}, at=START + timedelta(minutes=6))  # late
    state = svc.load("field")[1]
    assert {f"r{i}" for i in range(50)} <= set(state.characters)
    assert state.characters["r3"].hits == 2 and state.characters["r49"].name == "Rider 49"
    assert svc.replay_matches("field")


def test_entries_keep_the_order_they_were_added_in_across_a_restart() -> None:
    """An entry taken out and set again in one change goes to the end, in the store
    and for a reader catching up, as it does in the live mapping."""
    lay = state_store.layout(CampaignState)
    state = CampaignState(characters={k: Character(id=k, name=k) for k in "abc"})
    written = lay.split_state(state)
    lay.track(state)
    a = state.characters.pop("a")
    state.characters["d"] = Character(id="d", name="d")
    state.characters["a"] = a
    change = lay.changes(state, written)
    assert {k: anew for (f, k), (_, anew) in change.items() if f == "characters"} == {
        "d": True, "a": True}
    assert list(written["characters"]) == list(state.characters) == ["b", "c", "d", "a"]
    assert list(lay.assemble(written).characters) == ["b", "c", "d", "a"]
    old = CampaignState(characters={k: Character(id=k, name=k) for k in "abc"})
    scale = state_store.ORDER_SCALE
    rows = [("characters", "a", a.model_dump_json(), 2 * scale + 1),
            ("characters", "d", state.characters["d"].model_dump_json(), 2 * scale)]
    assert list(lay.apply(old, 1, rows).characters) == ["b", "c", "d", "a"]
    assert list(old.characters) == ["a", "b", "c"]  # the reader's old state is untouched
    updated = [("characters", "b", old.characters["b"].model_dump_json(), 1 * scale + 1)]
    assert list(lay.apply(old, 1, updated).characters) == ["a", "b", "c"]  # stays put


def test_a_roster_reads_back_in_its_own_order(db: Database) -> None:
    svc = CampaignService(db)
    field_campaign(svc, size=12)
    for cid in ("zed", "al"):
        svc.add_character("field", Character(id=cid, name=cid, hits_max=3, hits=3))
    expected = ["doc"] + [f"c{i}" for i in range(12)] + ["zed", "al"]
    assert list(svc.load("field")[1].characters) == expected
    assert list(CampaignService(db).load("field")[1].characters) == expected


def test_the_tracked_mappings_note_lookups_and_scans() -> None:
    chars = state_store.Tracked({"a": 1, "b": 2})
    assert "a" in chars and len(chars) == 2 and list(chars) == ["a", "b"]
    assert chars.touched == set() and not chars.everything  # keys alone touch nothing
    chars["a"], _ = 5, chars.get("b")
    assert chars.touched == {"a", "b"} and not chars.everything
    assert dict(chars) == {"a": 5, "b": 2} and type(chars.copy()) is dict
    sum(chars.values())
    assert chars.everything


def test_a_database_from_before_the_parts_reads_the_same_after_the_migration(
    database_url: str,
) -> None:
    """Every ruleset's campaign, downgraded to revision 0008 (the state one JSON
    document) and opened again: the migration splits it and every campaign reads
    exactly as before; replaying the log still rebuilds it."""
    db = Database(database_url)
    svc = CampaignService(db)
    field_campaign(svc, "warhammer", size=4)
    svc.act("warhammer", "lose-hits", wound("c1"), at=START + timedelta(minutes=1))
    for ruleset in ("zone-larp", "dnd5e-injuries", "ide4-survival", "fantasy-server"):
        svc.create_campaign(ruleset, ruleset, start=START, seed=2)
        for cid in ("a", "b"):
            svc.add_character(ruleset, Character(id=cid, name=cid.upper(), hits_max=3, hits=3))
    before = {c.id: svc.load(c.id)[1] for c in svc.campaigns()}
    downgrade(db, "0008")
    with db.engine.connect() as conn:
        documents = conn.exec_driver_sql("SELECT state FROM campaigns").scalars().all()
    assert all(doc.startswith("{") for doc in documents) and len(documents) == 5
    db.close()
    upgraded = Database(database_url)  # migrates on open
    try:
        again = CampaignService(upgraded)
        assert {c.id: again.load(c.id)[1] for c in again.campaigns()} == before
        assert all(again.replay_matches(name) for name in before)
        again.act("warhammer", "lose-hits", wound("c2"), at=START + timedelta(minutes=2))
        assert again.load("warhammer")[1].characters["c2"].hits == 2
    finally:
        upgraded.close()
