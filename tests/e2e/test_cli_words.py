"""Human output reads as words in English too (issue 17): each ruleset's CLI scenario
(``cli_scenarios.py``) prints no Python repr (``{'STR': 10}``, ``['P1', …]``, ``None``),
no raw campaign time (``2026-06-13T08:45:00``) and none of the slips the issue found."""

from __future__ import annotations

import re

import pytest
from tests.e2e.cli_scenarios import SCENARIOS, play
from tests.e2e.clitools import Run, ok

REPR = re.compile(r"[\[{]['\"]|\b(?:None|True|False)\b")
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
# "A explosives does not work", "stickers costs 1", a rule id printed twice
SLIPS = re.compile(r"\b[Aa] [a-z]+s (?:does|is)\b|\b[a-z]+s costs\b|\b([A-Z]-[A-Z0-9-]+), \1\b")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_each_rulesets_cli_scenario_prints_words_not_reprs(
    run: Run, ruleset: str, lang: str
) -> None:
    problems = []
    for command, result in play(run, ruleset, lang):
        for line in (result.stdout + result.stderr).splitlines():
            if REPR.search(line) or ISO.search(line) or SLIPS.search(line):
                problems.append(f"{command}: {line.strip()}")
    assert problems == [], "\n".join(problems)


def test_fantasy_equip_line_and_stats_query_read_in_both_languages(run: Run) -> None:
    """S-STAT-08: +2 STR over base 9 gives 10 and 1 in reserve, in words of each language."""
    played = dict(play(run, "fantasy-server", "ru"))
    equip = played["act equip-item --character c1 --item ring"].stdout
    assert "[боевой] STR 9 → 10 (база 9, +2 очк., запас 1)" in equip
    stats = played["query stats --character c1"].stdout
    assert stats.startswith("STR 10 → 10 (база 9, +2 очк., запас 1)")
    assert "[по шагам, цена по целевой полосе]" in stats
    en = ok(run("query", "stats", "--character", "c1", "--item", "amulet"))
    assert en.startswith("STR 10 → 11 (base 9, +3 pts)") and "[stepwise_target_band]" in en


def test_a_critical_die_and_an_artifact_are_marked_the_same_in_both_languages(run: Run) -> None:
    played = dict(play(run, "fantasy-server", "ru"))
    crit = played["act roll-check --character c1 --stat STR --threshold medium --roll 20"].stdout
    assert "29 [20+9] ✦ против medium (18) -> КРИТИЧЕСКИЙ УСПЕХ" in crit  # S-CRIT-02
    fail = played["act roll-check --character c1 --stat REF --threshold hard --roll 1"].stdout
    assert "13 [1+12] ✖" in fail and "КРИТИЧЕСКИЙ ПРОВАЛ" in fail  # S-CRIT-03
    ring = played['act register-item --item ring --name "Ring of might" --kind accessory '
                  "--owner c1 --stat-bonus STR=2 --crit-created"].stdout  # fmt: skip
    assert "предмет Ring of might (артефакт)" in ring  # not "обычный" (S-ART-01)
    sword = played[
        "act register-item --item sword --name Sword --kind weapon --owner c1 "
        "--resources name=ingot,amount=5 --resources name=leather,amount=3"
    ].stdout
    assert "предмет Sword (обычный)" in sword


def test_warhammer_sticker_steps_and_an_epidemic_start_name_what_happened(run: Run) -> None:
    played = dict(play(run, "warhammer-larp", "ru"))
    start = next(r.stdout for c, r in played.items() if c.startswith("act start-epidemic"))
    assert "эпидемия epi-1 началась" in start  # its id, to name it in epidemic-wave
    assert "передана региональному мастеру → epi-1" in start  # W-EPI-07
    outbreak = next(r.stdout for c, r in played.items() if c.startswith("act start-outbreak"))
    assert "возвращена → Karl" in outbreak and "на улице" in outbreak  # A-W-21
    status = played["query epidemic-status"].stdout
    assert "следующая волна в" in status and "T0" not in status
