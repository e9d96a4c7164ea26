"""The zone-larp declarations themselves: texts in both languages, documented inputs,
the data file, and every ambiguity of checklist-001 accounted for."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from lazaretto.core.errors import RuleViolation
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.state import CORE_REDUCERS
from lazaretto.rulesets.zone_larp import RULESET, load_params
from tests.game import Game

CHECKLIST = Path(__file__).parents[3] / "src/lazaretto/rules_text/docs/checklist-001.md"


def test_the_ruleset_is_registered_with_its_document() -> None:
    rs = get_ruleset("zone-larp")
    assert rs is RULESET and rs.documents == ("001",)
    assert load_params() == rs.params


def test_every_event_and_timer_has_an_english_and_a_russian_text() -> None:
    own = RULESET.reducers.kinds() - CORE_REDUCERS.kinds()
    for kind in sorted(own):
        en, ru = RULESET.texts[f"event:{kind}"]
        assert en and ru and en != ru, kind
    for kind in RULESET.timer_handlers:
        en, ru = RULESET.texts[f"timer:{kind}"]
        assert en != ru, kind


def test_every_action_and_query_is_documented_in_both_languages() -> None:
    for spec in [*RULESET.actions.values(), *RULESET.queries.values()]:
        assert spec.summary_en and spec.summary_ru and spec.summary_en != spec.summary_ru
        assert spec.rule_ids, spec.name
        for name, field in spec.input.model_fields.items():
            assert field.description, f"{spec.name}.{name}"


def test_actions_shared_by_name_with_other_rulesets_agree_on_field_types() -> None:
    """The CLI offers one command per action name across rulesets."""
    for other in rulesets().values():
        if other is RULESET:
            continue
        for name, spec in RULESET.actions.items():
            theirs = other.actions.get(name) or other.queries.get(name)
            if theirs is None:
                continue
            for field, info in spec.input.model_fields.items():
                if field in theirs.input.model_fields:
                    assert theirs.input.model_fields[field].annotation == info.annotation, (
                        other.id,
                        name,
                        field,
                    )


def test_refusals_are_in_english_and_russian_with_rule_ids_and_a_tip(g: Game) -> None:
    with pytest.raises(RuleViolation) as err:
        g.act("strike", at="12:00", character="C", zone="neck")
    e = err.value
    assert e.rule_ids and e.tip and e.tip_ru and e.ru != e.message
    assert "(Z-CMB-01" in e.text("ru") and "Ответственный взрослый" in e.text("ru")


def test_the_data_file_names_every_ambiguity_of_the_checklist() -> None:
    text = CHECKLIST.read_text(encoding="utf-8")
    ambiguities = sorted(set(re.findall(r"\*\*(A-Z-\d+)", text)))
    assert len(ambiguities) == 34
    package = resources.files("lazaretto.rulesets.zone_larp")
    sources = "".join(
        f.read_text("utf-8") for f in package.iterdir() if f.name.endswith((".py", ".yaml"))
    )
    assert [a for a in ambiguities if a not in sources] == []


def test_the_card_is_translated(g: Game) -> None:
    g.act("strike", at="12:00", character="C")
    assert g.rs.describe is not None
    ru = g.rs.describe(g.state, "C", "ru")
    assert ru["state_label"] == "Ранен (лёгкое ранение)"
    assert "холодное оружие" in ru["allowed"] and "бегать" in ru["forbidden"]
    assert ru["conditions"][0]["label"] == "лёгкое ранение"
