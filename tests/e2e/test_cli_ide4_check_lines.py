"""ide4-survival's d100 checks in the log read by name (A-I-01): every line about a check
names whose check it is and of which skill — "Olga: Attention check rerolled →
Success" — never the check's id ("k1") in its place; the one line that gives the id is
the pending check's, as the resolve-check it needs. English and Russian, through the
real CLI on SQLite."""

from __future__ import annotations

import re

import pytest
from tests.e2e.clitools import Run, ok, refused

SESSION = [
    ("campaign", "create", "trek", "--ruleset", "ide4-survival", "--start", "2026-06-13T06:00"),
    ("character", "add", "olga", "--name", "Olga", "--hits", "10"),
    ("act", "survival-sheet", "--character", "olga", "--sex", "female"),
    ("act", "d100-check", "--character", "olga", "--skill", "Attention", "--difficulty", "0"),
    ("act", "resolve-check", "--check", "k1", "--roll", "100"),  # a Tragedy
    ("act", "use-reroll", "--character", "olga", "--kind", "pacified", "--roll", "30"),
    ("act", "d100-check", "--character", "olga", "--skill", "Attention", "--roll", "70"),
    ("act", "spend-energy", "--character", "olga", "--dice", "1", "--die", "6",
     "--outcome", "success"),
    ("act", "poison-risk", "--characters", "olga", "--source", "dirty_water",
     "--difficulty", "3", "--outcome", "failure"),
]  # fmt: skip
CHECK_ID = re.compile(r"(?<![\w-])k\d+(?![\w-])")

EXPECTED = {
    "en": [
        "Olga: Attention check [0] awaits its outcome (k1: resolve-check)",
        "Olga: Attention check → Tragedy",
        "Olga uses a pacified reroll",
        "Olga: Attention check rerolled → Success",
        "Olga: Attention check [0] → Medium",
        "Olga: energy on the Attention check → Success",
        "Olga: poisoned — dirty water: Immunity failure  [",  # I-POIS-03
    ],
    "ru": [
        "Olga: проверка «Внимательность» [0] ждёт исхода (k1: resolve-check)",
        "Olga: проверка «Внимательность» → Трагедия",
        "Olga: переброс (умиротворение)",
        "Olga: проверка «Внимательность» переброшена → Успех",
        "Olga: проверка «Внимательность» [0] → Средне",
        "Olga: энергия на проверку «Внимательность» → Успех",
        "Olga: отравлен — грязная вода: Иммунитет — Провал  [",  # I-POIS-03
    ],
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_check_lines_name_the_check_by_character_and_skill_not_by_id(run: Run, lang: str) -> None:
    for command in SESSION:
        ok(run(*command))
    log = ok(run("log", lang=lang))
    lines = [ln for ln in log.splitlines() if "Olga" in ln and "[" in ln]
    for want in EXPECTED[lang]:
        assert any(want in ln for ln in lines), (want, log)
    for ln in lines:
        if "resolve-check" not in ln:  # the pending check's line names the id to resolve
            assert not CHECK_ID.search(ln), ln
    card = ok(run("character", "show", "olga", lang=lang))  # the poisoning's reason
    assert "dirty water" in card or "грязная вода" in card
    assert not CHECK_ID.search(card), card


@pytest.mark.parametrize(
    ("lang", "pending", "awaits", "no_reroll", "no_tragedy"),
    [
        ("en", "Olga's Attention check at 06:00 has no outcome yet",
         "Olga has no check with an outcome yet: Olga's Attention check at 06:00 awaits one",
         "Olga holds no hot reroll",
         "Olga's Attention check at 06:00 is not a Tragedy"),
        ("ru", "Проверка «Внимательность» (Olga, 06:00): ещё нет исхода",
         "У Olga ещё нет проверки с исходом: проверка «Внимательность» (Olga, 06:00) ждёт исхода",
         "У Olga нет переброса (горячий)",
         "Проверка «Внимательность» (Olga, 06:00) — не Трагедия"),
    ],
)  # fmt: skip
def test_a_refused_reroll_names_the_check_and_the_reroll_in_the_readers_words(
    run: Run, lang: str, pending: str, awaits: str, no_reroll: str, no_tragedy: str
) -> None:
    """A-I-01, I-CALM-25: a reroll on a check still waiting for its outcome, a reroll not
    held and a replacement of what is no Tragedy are refused naming the check as the
    table knows it (whose, which skill, when) and the reroll's kind in the reader's
    language, not by the check's id."""
    for command in SESSION[:4]:
        ok(run(*command))
    said = refused(run("act", "use-reroll", "--character", "olga", "--kind", "pacified",
                       "--check", "k1", "--roll", "30", lang=lang), 3)  # fmt: skip
    assert pending in said and not CHECK_ID.search(said), said
    said = refused(run("act", "use-reroll", "--character", "olga", "--kind", "pacified",
                       lang=lang), 4)  # fmt: skip: no check given, and none has an outcome
    assert awaits in said, said
    ok(run("act", "resolve-check", "--check", "k1", "--roll", "50"))
    said = refused(run("act", "use-reroll", "--character", "olga", "--kind", "hot", lang=lang), 3)
    assert no_reroll in said, said
    for turn in ("t1", "t2"):  # two monsters: 0 calm, a replacement to use
        ok(run("act", "calm-event", "--characters", "olga", "--events", "monster",
               "--turn", turn))  # fmt: skip
    said = refused(run("act", "replace-tragedy", "--character", "olga", lang=lang), 3)
    assert no_tragedy in said and not CHECK_ID.search(said), said
