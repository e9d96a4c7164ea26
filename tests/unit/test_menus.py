"""The declared action groups and GM-screen actions cover every ruleset's actions."""

from __future__ import annotations

import pytest

from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.service import menus


@pytest.mark.parametrize("ruleset", sorted(rulesets()))
def test_every_action_of_every_ruleset_is_in_a_declared_group(ruleset: str) -> None:
    actions = set(get_ruleset(ruleset).actions)
    declared = menus.GROUPS[ruleset]
    assert sorted(actions - set(declared)) == [], "ungrouped: add them to service/menus.py"
    assert sorted(set(declared) - actions) == [], "no longer actions of the ruleset"
    assert set(declared.values()) <= set(menus.GROUP_NAMES)


def test_the_gm_screens_actions_exist_in_their_rulesets() -> None:
    for ruleset, names in {**menus.COMMON, **menus.PARTY_WIDE}.items():
        assert set(names) <= set(get_ruleset(ruleset).actions), ruleset


def test_groups_come_in_declared_order_with_other_last() -> None:
    got = menus.grouped("warhammer-larp", ["make-stickers", "no-such", "lose-hits", "admit"])
    assert [g for g, _ in got] == ["wounds", "hospital", "labs", "other"]
    assert menus.group_name("labs", "ru") == "Лаборатории и наклейки"


def test_every_gm_screen_action_has_a_short_button_word() -> None:
    for names in (*menus.COMMON.values(), *menus.PARTY_WIDE.values()):
        for name in names:
            assert name in menus.SHORT, name
