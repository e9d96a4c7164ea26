"""Evidence search: visible and invisible traces, thresholds, the one-chance rule,
collecting and studying (checklist-002 §2.10)."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.core.errors import RuleViolation
from tests.unit.fantasy_server.conftest import FGame


@pytest.fixture
def scene(g: FGame) -> FGame:
    g.pc("D", PER=5, INT=8, skills=("Trace finding",))  # a detective
    g.pc("N", PER=5)  # no trace-finding ability
    g.act("leave-trace", scene="mill", trace="hair", visibility="visible",
          description="a red hair", info_on_discovery="the thief has red hair")  # fmt: skip
    g.act("leave-trace", scene="mill", trace="prints", visibility="invisible", threshold=22,
          description="fingerprints on the glass", info_after_study="they are Boris's",
          needs_lab=True)  # fmt: skip
    return g


def search(g: FGame, who: str = "D", **kw: Any) -> dict[str, Any]:
    g.act("search-evidence", actor=who, scene="mill", **kw)
    return g.last("evidence.searched")


def found(g: FGame) -> list[str]:
    return [f["trace"] for f in g.last("evidence.searched")["found"]]


def test_a_search_is_a_per_or_int_roll(scene: FGame) -> None:
    search(scene, stat="INT", roll=10)
    assert scene.checks()[-1]["stat"] == "INT"  # S-CRIME-15
    assert found(scene) == ["hair"]  # 18 ≥ medium (A-S-16)
    assert scene.rules("evidence.searched")[0] == "S-CRIME-15"


def test_traces_are_visible_or_invisible(scene: FGame) -> None:
    traces = scene.state.scenes["mill"].traces
    assert {t.visibility for t in traces.values()} == {"visible", "invisible"}  # S-CRIME-16
    assert traces["hair"].threshold == 18  # A-S-16: visible traces use the medium threshold


def test_visible_traces_need_no_tools_and_give_some_information_at_once(scene: FGame) -> None:
    out = search(scene, who="N", roll=13)  # PER 5 + 13 = 18, no equipment, no ability
    assert [f["trace"] for f in out["found"]] == ["hair"]  # S-CRIME-17
    assert out["found"][0]["info"] == "the thief has red hair"  # S-CRIME-24
    assert {"S-CRIME-17", "S-CRIME-24"} <= set(scene.rules("evidence.searched"))


def test_invisible_traces_need_equipment_or_magic_and_their_gm_threshold(scene: FGame) -> None:
    search(scene, equipment=True, roll=16)  # 21 < 22
    assert found(scene) == ["hair"]
    search(scene, equipment=True, roll=17)  # 22 ≥ 22
    assert found(scene) == ["prints"]  # S-CRIME-18, S-CRIME-19
    assert {"S-CRIME-18", "S-CRIME-19"} <= set(scene.rules("evidence.searched"))


def test_an_invisible_traces_threshold_must_be_above_18(scene: FGame) -> None:
    with pytest.raises(RuleViolation) as err:
        scene.act("leave-trace", scene="mill", trace="fibre", visibility="invisible", threshold=18)
    assert err.value.rule_ids == ("S-CRIME-19", "A-S-16")  # S-CRIME-19
    with pytest.raises(RuleViolation):
        scene.act("leave-trace", scene="mill", trace="fibre", visibility="invisible")
    scene.act("leave-trace", scene="mill", trace="fibre", visibility="invisible", threshold=19)
    assert scene.state.scenes["mill"].traces["fibre"].threshold == 19  # S-CRIME-19: above 18


def test_invisible_traces_need_the_ability_to_find_them(scene: FGame) -> None:
    search(scene, who="N", equipment=True, roll=20)
    assert found(scene) == ["hair"]  # S-CRIME-20: even a natural 20 without the ability
    assert "S-CRIME-20" in scene.rules("evidence.searched")


def test_without_equipment_only_a_critical_success_finds_them_with_no_reroll(
    scene: FGame,
) -> None:
    search(scene, roll=19)
    assert found(scene) == ["hair"]  # S-CRIME-21: 24 ≥ 22 is not enough bare-handed
    with pytest.raises(RuleViolation) as err:
        search(scene, reroll=True, roll=20)
    assert err.value.rule_ids[0] == "S-CRIME-21"  # no reroll
    g = FGame()
    g.pc("D", PER=5, skills=("Trace finding",))
    g.act("leave-trace", scene="s", trace="blood", visibility="invisible", threshold=25)
    g.act("search-evidence", actor="D", scene="s", roll=20)
    assert [f["trace"] for f in g.last("evidence.searched")["found"]] == ["blood"]  # S-CRIME-21


def test_a_failed_bare_handed_attempt_loses_those_traces_for_good(scene: FGame) -> None:
    search(scene, roll=12)
    assert "D" in scene.state.scenes["mill"].traces["prints"].locked_out  # S-CRIME-22
    search(scene, equipment=True, roll=20)
    assert "prints" not in found(scene)  # S-CRIME-22: not even with equipment
    assert "S-CRIME-22" in scene.rules("evidence.searched")


def test_collecting_needs_tools_and_some_traces_only_a_laboratory_can_read(scene: FGame) -> None:
    search(scene, equipment=True, roll=18)
    with pytest.raises(RuleViolation) as err:
        scene.act("collect-trace", actor="D", scene="mill", trace="prints")
    assert err.value.rule_ids == ("S-CRIME-23",)  # S-CRIME-23
    scene.act("collect-trace", actor="D", scene="mill", trace="prints", tools=True)
    with pytest.raises(RuleViolation) as err:
        scene.act("study-trace", actor="D", scene="mill", trace="prints")
    assert err.value.rule_ids == ("S-CRIME-24",)  # S-CRIME-24: not on site
    scene.act("study-trace", actor="D", scene="mill", trace="prints", laboratory=True)
    assert scene.last("trace.studied")["info"] == "they are Boris's"  # S-CRIME-24
    assert scene.replayed() == scene.state
