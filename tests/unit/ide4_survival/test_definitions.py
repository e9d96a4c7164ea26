"""The ruleset's declarations: registered with its document, every event and countdown
reads in both languages, every action and query is documented, nothing clashes with
another ruleset's command of the same name."""

from __future__ import annotations

from typing import Any

from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import ActionSpec, QuerySpec
from lazaretto.core.state import CORE_REDUCERS
from lazaretto.rulesets.ide4_survival import RULESET, load_params
from lazaretto.rulesets.ide4_survival.tables import condition_table


def test_the_ruleset_is_registered_with_its_document() -> None:
    rs = get_ruleset("ide4-survival")
    assert rs is RULESET and rs.documents == ("004",)
    assert load_params() == rs.params


def test_every_event_and_timer_has_an_english_and_a_russian_text() -> None:
    own = RULESET.reducers.kinds() - CORE_REDUCERS.kinds()
    for kind in sorted(own):
        en, ru = RULESET.texts[f"event:{kind}"]
        assert en and ru and en != ru, kind
    for kind in RULESET.timer_handlers:
        en, ru = RULESET.texts[f"timer:{kind}"]
        assert en and ru and en != ru, kind


def test_every_action_and_query_is_documented_in_both_languages() -> None:
    specs: list[ActionSpec[Any] | QuerySpec[Any]] = [
        *RULESET.actions.values(),
        *RULESET.queries.values(),
    ]
    for spec in specs:
        assert spec.summary_en and spec.summary_ru and spec.summary_en != spec.summary_ru
        assert spec.rule_ids, spec.name
        assert all(r.startswith(("I-", "A-I-")) for r in spec.rule_ids), spec.name


def test_no_action_or_query_name_is_shared_with_another_ruleset() -> None:
    """The CLI and the API offer one command per name across rulesets."""
    for other in rulesets().values():
        if other is not RULESET:
            assert not set(other.actions) & set(RULESET.actions), other.id
            assert not set(other.queries) & set(RULESET.queries), other.id


def test_the_fatigue_degrees_of_the_table_follow_the_fatigue_scale() -> None:
    scale = list(RULESET.params.fatigue_scale)  # type: ignore[attr-defined]
    assert scale == ["tired", "very_tired", "exhausted"]  # A-I-30: mildest first
    rows = condition_table().states
    assert [rows[k].fatigue_degree for k in scale] == [1, 2, 3]  # I-COND-04..06, A-I-30
