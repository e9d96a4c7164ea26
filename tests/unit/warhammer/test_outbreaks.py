"""Outbreaks in a building and outdoors (checklist-000 §4.5.4; A-W-20, A-W-21)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.game import Game
from tests.unit.warhammer.diseases_kit import define, game, held_codes, ill


def certificate(g: Game, stickers: int = 10, holder: str = "K") -> str:
    """An outbreak certificate of Grey fever in ``holder``'s hands with its stickers."""
    g.act("issue-certificate", kind="outbreak", disease="GF", holder=holder)
    cid = next(reversed(g.state.certificates))
    g.act("attach-stickers", certificate=cid, count=stickers, source="master")
    return cid


def people(n: int, start: float = 1.0, **kw: Any) -> list[dict[str, Any]]:
    return [{"character": f"p{i}", "distance_m": start + i, **kw} for i in range(n)]


def building(g: Game, cid: str, who: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    evs = g.act(
        "start-outbreak",
        at=kw.pop("at", "18:00"),
        carrier="K",
        certificate=cid,
        place="building",
        building="tavern",
        distance_from_entrance_m=kw.pop("entrance", 2),
        people=who,
        **kw,
    )
    return next(e for e in evs if e.kind == "outbreak.released").payload


def test_an_outbreak_is_a_one_off_release() -> None:
    g = game()
    define(g)
    cid = certificate(g)
    building(g, cid, people(3))
    with pytest.raises(RuleViolation) as err:
        building(g, cid, people(3), at="18:10")
    assert err.value.rule_ids == ("W-OUT-01",)  # W-OUT-01: once


def test_only_those_inside_and_unprotected_get_stickers_and_at_most_ten() -> None:
    g = game()
    define(g)
    cid = certificate(g)
    who = people(12)
    who[11]["inside"] = False
    g.act("wear", character="p10", items=["hooded_robe", "gloves", "plague_mask"])
    out = building(g, cid, who)
    rows = {r["character"]: r for r in out["decisions"]}
    assert rows["p11"]["why"] == "not inside the building"  # W-OUT-02: inside only
    assert rows["p10"]["why"] == "protected (outfit:full)"  # W-OUT-02, W-PROT-01
    assert len(out["infected"]) == 10  # W-OUT-02: at most 10 characters
    assert all(ill(g, f"p{i}") for i in range(10))


def test_the_nearest_get_the_stickers_when_there_are_not_enough() -> None:
    g = game()
    define(g)
    cid = certificate(g, stickers=4)
    who = people(6)
    who.reverse()  # the order of the list does not matter, the distance does
    out = building(g, cid, who)
    assert sorted(out["infected"]) == ["p0", "p1", "p2", "p3"]  # W-OUT-03
    far = {r["character"]: r["why"] for r in out["decisions"] if not r["sticker"]}
    assert far == {"p4": "no stickers left", "p5": "no stickers left"}


def test_a_building_outbreak_starts_at_least_a_metre_inside() -> None:
    g = game()
    define(g)
    cid = certificate(g)
    with pytest.raises(RuleViolation) as err:
        building(g, cid, people(3), entrance=0.5)
    assert err.value.rule_ids == ("W-OUT-04",)  # W-OUT-04
    building(g, cid, people(3), entrance=1)
    assert ill(g, "p0")


def test_an_outdoor_outbreak_must_be_announced() -> None:
    g = game()
    define(g)
    cid = certificate(g)
    kw: dict[str, Any] = {
        "carrier": "K",
        "certificate": cid,
        "place": "outdoor",
        "people": people(3),
    }
    with pytest.raises(RuleViolation) as err:
        g.act("start-outbreak", at="19:00", **kw)
    assert err.value.rule_ids == ("W-OUT-05",)  # W-OUT-05: «Вспышка заражения» aloud
    g.act("start-outbreak", at="19:00", announced=True, **kw)
    assert ill(g, "p0")


def test_outdoors_within_three_metres_and_at_most_five() -> None:
    g = game()
    define(g)
    cid = certificate(g)
    who = [{"character": f"p{i}", "distance_m": 0.5 + i * 0.3} for i in range(7)]
    who += [{"character": "p7", "distance_m": 3.0}, {"character": "p8", "distance_m": 3.5}]
    evs = g.act(
        "start-outbreak",
        at="19:00",
        carrier="K",
        certificate=cid,
        place="outdoor",
        announced=True,
        people=who,
    )
    out = next(e for e in evs if e.kind == "outbreak.released").payload
    assert sorted(out["infected"]) == [f"p{i}" for i in range(5)]  # W-OUT-06: 5, nearest
    why = {r["character"]: r["why"] for r in out["decisions"]}
    assert why["p8"] == "beyond 3 m"  # W-OUT-06: radius 3 m
    assert why["p7"] == "beyond the cap of 5"
    assert len(held_codes(g, "K")) == 5  # A-W-21: the rest stay with the carrier


def test_no_outbreak_during_army_combat_except_a_saboteur_at_a_halt() -> None:
    g = game()
    define(g)
    g.add("S", skills=("Carrier", "Saboteur"))
    cid = certificate(g)
    with pytest.raises(RuleViolation) as err:
        building(g, cid, people(2), army_phase="battle")
    assert err.value.rule_ids == ("W-OUT-07",)  # W-OUT-07
    with pytest.raises(RuleViolation) as err:
        building(g, cid, people(2), army_phase="rest_halt")
    assert "W-OUT-08" in err.value.rule_ids  # W-OUT-08: only a saboteur
    sab = certificate(g, holder="S")
    evs = g.act(
        "start-outbreak",
        at="18:00",
        carrier="S",
        certificate=sab,
        place="building",
        distance_from_entrance_m=3,
        army_phase="rest_halt",
        people=people(2),
    )
    assert any(e.kind == "outbreak.released" for e in evs)  # W-OUT-08: the saboteur may


def test_unused_stickers_can_be_discarded_instead() -> None:
    g = game(outbreak_unused_stickers="discarded")
    define(g)
    cid = certificate(g)
    out = building(g, cid, people(2))
    assert {g.state.stickers[c].status for c in out["unused"]} == {"discarded"}  # A-W-21
    assert held_codes(g, "K") == []


def test_without_the_certificate_rule_a_carrier_uses_the_stickers_in_hand() -> None:
    g = game()
    define(g)
    with pytest.raises(RuleViolation) as err:
        building(g, None, people(2))  # type: ignore[arg-type]
    assert "A-W-21" in err.value.rule_ids  # A-W-21: a certificate is needed by default
    free = game(outbreak_requires_certificate=False)
    define(free)
    free.act("hand-stickers", to="K", disease="GF", count=2)
    out = building(free, None, people(3), disease="GF")  # type: ignore[arg-type]
    assert sorted(out["infected"]) == ["p0", "p1"]  # A-W-21 alternative


def test_which_outfit_blocks_an_outbreak_is_a_parameter() -> None:
    default = game()
    define(default)
    default.act("wear", character="p0", items=["cloth_mask", "gloves"])
    building(default, certificate(default), people(1))
    assert ill(default, "p0")  # A-W-20, W-PROT-03: mask and gloves do not stop an outbreak
    strict = game(
        protection_matrix={
            "touch": ["full", "mask_gloves"],
            "combat": ["full", "mask_gloves"],
            "outbreak": ["full", "mask_gloves"],
            "epidemic": ["full"],
        }
    )
    define(strict)
    strict.act("wear", character="p0", items=["cloth_mask", "gloves"])
    building(strict, certificate(strict), people(1))
    assert not ill(strict, "p0")  # A-W-20: the matrix decides
