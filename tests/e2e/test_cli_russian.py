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
from tests.e2e.clitools import Run, ok, ok_json

from lazaretto.cli.labels import FIELDS
from lazaretto.cli.render import CORE_TEXTS, reread
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
# per ruleset so the scan fails on anything new; empty since each such text got its
# Russian form (issue 17)
KNOWN_GAPS: dict[str, set[str]] = {}
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


def test_a_rule_written_text_is_reread_in_russian_and_a_typed_one_kept() -> None:
    """W-DTRT-06: the journal keeps a course's "until 09:20:00"; a Russian reader reads it
    with the same time, and a text the template does not match stays as written."""
    rs = rulesets()["warhammer-larp"]
    assert reread(rs, "journal:course", "until 09:20:00", "ru") == "до 09:20:00"
    assert reread(rs, "journal:course", "until 09:20:00", "en") == "until 09:20:00"
    assert reread(rs, "journal:course", "wound was on the arm", "ru") == "wound was on the arm"
    assert reread(rs, "journal:correction", "until 09:20:00", "ru") == "until 09:20:00"


def test_warhammer_quests_and_a_course_entry_read_in_both_languages(run: Run) -> None:
    """W-LAB-06: a drawn quest's title in the reader's language (params' title_ru); the
    course entry (W-DTRT-06) stays stored in English and reads "до" in Russian."""
    played = dict(play(run, "warhammer-larp", "ru"))
    quests = played["query lab-status --lab L1"].stdout
    assert "(№ 1; название Принести образец из чумной ямы; награда 1; сделано да)" in quests
    en = ok(run("query", "lab-status", "--lab", "L1"))
    assert "(no. 1; title Bring a sample from a plague pit; reward 1; done yes)" in en
    stored = [e for e in ok_json(run("journal", "--json")) if e["type"] == "course"]
    assert [e["text"] for e in stored] == ["until 09:20:00"]
    assert re.search(r"│ курс +│ Petr .*│ до +│", played["journal"].stdout)
    assert re.search(r"│ course +│ Petr .*│ until +│", ok(run("journal")))
    made = next(r.stdout for c, r in played.items() if c.startswith("act hand-stickers --to K"))
    assert "создано наклеек GF: 3 (мастер)" in made


def test_warhammer_course_items_read_by_the_rules_names(run: Run) -> None:
    """W-DTRT-09, W-DTRT-16: a course's medical actions and medications by the names the
    rules give them (Капельница, Отпаивание травами, успокоительное), in the disease's
    course, an item done and the items missing when its time is over; codes in --json."""
    played = dict(play(run, "warhammer-larp", "ru"))
    info = played["query disease-info --code GF --healer H"].stdout
    assert ("курс: капельница, клизма, отпаивание травами, ингаляция, психотерапия, "
            "успокоительное") in info  # fmt: skip
    assert "Petr: капельница (GF)" in played["act course-item --patient p2 --disease GF "
                                             "--item drip --minutes 5"].stdout  # fmt: skip
    assert ("не сделано GF: клизма, отпаивание травами, ингаляция, психотерапия, "
            "успокоительное") in played["clock advance 2h"].stdout  # fmt: skip
    assert "herbal drinking, inhalation" in ok(run("query", "disease-info", "--code", "GF",
                                                   "--healer", "H"))  # fmt: skip
    raw = ok_json(run("query", "disease-info", "--code", "GF", "--healer", "H", "--json"))
    assert "herbal_drink" in raw["course"]


def test_ide4_checks_sheets_and_the_catalogue_name_things_in_russian(run: Run) -> None:
    """A check names its skill (I-TRAVEL-05: Выносливость), a sheet its fields (A-I-07),
    a countdown of the whole party says so (I-MEAL-02); the catalogue shows a disease by
    its name, its code kept in --json (I-DIS-02)."""
    played = dict(play(run, "ide4-survival", "ru"))
    march = played["act end-march --pace fast --check --at 2026-06-13T18:00 --move-clock"].stdout
    assert re.search(r"Gleb: проверка «Выносливость» \[\d\] → [А-Я]", march)
    sheet = played["act survival-sheet --character vera --sex female --body-food-norm 800"]
    assert "лист Vera: норма еды тела 800; пол женский" in sheet.stdout
    assert "откроется следующее окно еды — отряд в 13:00:00" in played["log"].stdout
    cured = played["act treat-poisoning --character boris --method vomiting --outcome success"]
    assert "больше не отравлен — вылечено: рвота" in cured.stdout
    catalogue = played["query diseases"].stdout.splitlines()
    assert any(
        line.startswith("  Железная Лихорадка [I-CAT-02]: ржавая вода") for line in catalogue
    )
    assert "iron_fever" in ok_json(run("query", "diseases", "--json"))
    log = ok(run("log"))
    assert re.search(r"Gleb: Endurance check \[\d\] → [A-Z]", log)
    assert "Vera's sheet: body food norm 800; sex female" in log
