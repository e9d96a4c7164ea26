"""Russian everywhere (issue 17): each ruleset's CLI scenario (``cli_scenarios.py``),
played under ``--lang ru``, prints no English word and no Python repr.

Every line a person reads is scanned: the answers of actions and queries, refusals, the
log, the roster, every card, the countdowns, the journal and the records. A Latin word
is allowed only when the scenario typed it (names, item names, ids), when it is a rule
ID, an option or a quoted command, or one of the few words the Russian rules themselves
write in Latin letters (the fantasy-server stats STR, REF…; dice such as 1d20).
"""

from __future__ import annotations

import re

import pytest
from tests.e2e.cli_scenarios import SCENARIOS, play, typed
from tests.e2e.clitools import Run

from lazaretto.cli.labels import FIELDS
from lazaretto.cli.render import CORE_TEXTS
from lazaretto.core.registry import rulesets

WORD = re.compile(r"[A-Za-z][A-Za-z_!']+")
# a Python value printed as is: {'STR': 10}, ['P1', 'P2'], None / True / False
REPR = re.compile(r"[\[{]['\"]|\b(?:None|True|False)\b")
# what is not a word of the language: rule ids, options, quoted commands, generated ids
# (epi-1, ob-1, L1-B1, sticker codes), the undo hint's command, dice, a word a narrow
# table cut (herbal_…)
NOT_WORDS = re.compile(
    r"\[[A-Z][A-Z0-9-]*(?:, [A-Z][A-Z0-9-]*)*\]|\b[A-Z]-[A-Z0-9]+-[0-9]+\b|--[a-z-]+|`[^`]*`"
    r"|\b[a-z]+-\d+\b|\b[A-Z0-9]{4}-[A-Z0-9]{4}\b|lazaretto [a-z]+|\b\d+d\d+\w*|\w+…"
)
# Latin in the Russian rules themselves: fantasy-server's stats, HP/GM, the clock modes'
# names as typed on the command line
LATIN_IN_RULES = {"STR", "REF", "PER", "MAG", "WIL", "INT", "DET", "END", "GM", "HP", "id"}
# English still built inside rule modules or data files (not a label catalogue), named
# here so the scan fails on anything new and shrinks as they are fixed: warhammer's lab
# quest titles (params.yaml) and the journal's course text "until …"; zone-larp's
# rehab summary mode and operation options; dnd5e's stat sheet line; fantasy-server's
# repair skills, item-status/treatment-plan summaries and check-odds "vs"; ide4's
# disease catalogue codes, skill names of checks, survival sheet fields, the rerolls'
# "party" and the run-through's words
KNOWN_GAPS: dict[str, set[str]] = {
    "warhammer-larp": {"Bring", "Deliver", "across", "flask", "from", "pit", "plague",
                       "river", "sample", "sealed", "until"},
    "zone-larp": {"healthy", "radical", "sum_nonintact"},
    "dnd5e-injuries": {"ac", "cr", "level", "proficiency"},
    "fantasy-server": {"Gunsmith", "intact", "magical", "none", "vs"},
    "ide4-survival": {"Endurance", "Immunity", "Medicine", "black", "blood", "body_food_norm",
                      "character_state", "consumption", "crimson", "dance", "debauchery",
                      "fever", "flower", "iron", "kiss", "mode", "of", "optional", "party",
                      "putrid", "sex", "simplified", "succubus", "throat", "tired", "torpor",
                      "widows", "worm"},
}  # fmt: skip
# the English words Russian must replace: every label and template of every catalogue
RAW_VALUES = {"returned", "building", "broken", "quarantine", "pending", "mundane",
              "crit!", "medium"}  # fmt: skip


def catalogue() -> set[str]:
    """Every English word of the label and template catalogues that Russian replaces."""
    words = set(RAW_VALUES)
    pairs = [p for rs in rulesets().values() for p in rs.texts.values()]
    for en, ru in [*pairs, *CORE_TEXTS.values(), *FIELDS.values()]:
        if en != ru:
            words |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", en))}
    return {w for w in words if len(w) >= 3}


def identifiers() -> set[str]:
    """What a user types as is: the rulesets' ids and their action and query names (the
    records table lists the action of each record)."""
    names = set(rulesets())
    for rs in rulesets().values():
        names |= set(rs.actions) | set(rs.queries)
    return names


IDS = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(sorted((re.escape(n) for n in identifiers()), key=len, reverse=True))
    + r")(?![\w-])"
)


def english_left(text: str, data: set[str]) -> list[str]:
    """The English words of ``text`` that are not data the scenario typed."""
    bare = IDS.sub(" ", NOT_WORDS.sub(" ", text))
    return sorted(
        {w for w in WORD.findall(bare) if w.lower() not in data and w not in LATIN_IN_RULES}
    )


def test_the_scan_catches_a_label_left_in_english_and_a_repr() -> None:
    data = {"boris"}
    assert english_left("12:00  Boris теряет хитов: 1  [W-DEF-02]", data) == []
    assert english_left("наклейки 2W8H-WWY3…: returned → Boris", data) == ["returned"]
    assert english_left("эпидемия epi-1 началась; `lazaretto undo 5`", data) == []
    assert REPR.search("лист: {'STR': 10}") and REPR.search("['P1', 'P2']")
    assert not REPR.search("лист: STR 10; REF 12")
    assert {"returned", "mundane", "quarantine"} <= catalogue()


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_each_rulesets_cli_scenario_reads_in_russian(run: Run, ruleset: str) -> None:
    data = typed(ruleset) | {w.lower() for w in KNOWN_GAPS.get(ruleset, set())}
    problems = []
    for command, result in play(run, ruleset, "ru"):
        for line in (result.stdout + result.stderr).splitlines():
            left = english_left(line, data)
            if left or REPR.search(line):
                problems.append(f"{command}: {line.strip()}  <- {left or 'repr'}")
    assert problems == [], f"{len(problems)} lines:\n" + "\n".join(problems)
