"""The rule-text catalogue (lazaretto.rules_text): every checklist rule, its English text
and its Russian original, read from the copies bundled as package data (never from
../shared)."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from lazaretto.core.errors import NotFound
from lazaretto.rules_text import Ambiguity, Rule, catalogue
from lazaretto.rules_text.checklist import RuleDraft, parse_checklist
from lazaretto.rules_text.citation import parse_citation
from lazaretto.rules_text.locate import Locator
from lazaretto.rules_text.paragraphs import Layout
from lazaretto.rules_text.source import SourceText
from lazaretto.rules_text.text import fold, quote_pieces

# Verbatim from tools/rule_coverage.py: what a checklist "defines" (a bold ID opening a
# list item, or an ID opening a table row).
DEFINES = re.compile(
    r"^\s*[-*]\s+\*\*([WZSDI]-[A-Z0-9]+-\d+[a-z]?)\*\*|^\|\s*\**([WZSDI]-[A-Z0-9]+-\d+[a-z]?)"
)
DOCUMENTS = ["000", "001", "002", "003", "004"]


def rid(prefix: str, number: int) -> str:
    """A rule ID built from parts.

    These tests check the catalogue's *text*, not the game rules, so the IDs are not
    written out: rule_coverage.py counts a written ID as a test of that rule.
    """
    return f"{prefix}-{number:02}"


def bundled(name: str) -> str:
    return resources.files("lazaretto.rules_text").joinpath("docs", name).read_text("utf-8")


def defined_ids(document: str) -> list[str]:
    seen: dict[str, None] = {}
    for line in bundled(f"checklist-{document}.md").splitlines():
        m = DEFINES.match(line)
        if m:
            seen.setdefault(m.group(1) or m.group(2), None)
    return list(seen)


# -- every rule is there ----------------------------------------------------------------


def test_all_five_documents_are_bundled_with_their_checklists() -> None:
    docs = catalogue().documents()
    assert [d.id for d in docs] == DOCUMENTS
    for d in docs:
        assert d.source_file.startswith(f"{d.id}_") and d.checklist_file == f"checklist-{d.id}.md"
        assert bundled(d.source_file) and d.title


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_id_rule_coverage_counts_is_in_the_catalogue_with_english_text(
    document: str,
) -> None:
    ids = defined_ids(document)
    assert ids
    rules = {r.id: r for r in catalogue().rules(document=document)}
    missing = [i for i in ids if i not in rules]
    assert not missing, f"checklist-{document}.md IDs not in the catalogue: {missing}"
    assert [i for i in ids if not rules[i].text_en.strip()] == []
    assert list(rules) == ids  # nothing extra, checklist order kept


@pytest.mark.parametrize("document", DOCUMENTS)
def test_at_least_90_percent_of_rules_per_document_have_a_real_russian_paragraph(
    document: str,
) -> None:
    rules = catalogue().rules(document=document)
    fallback = [r.id for r in rules if not r.original_located]
    located = 1 - len(fallback) / len(rules)
    assert located >= 0.9, f"{document}: {located:.0%} located; only the quote for {fallback}"
    assert all(r.original_ru for r in rules if r.original_located)


@pytest.mark.parametrize("document", ["002", "003", "004"])
def test_a_quote_located_original_holds_the_quote(document: str) -> None:
    """Checklists 002–004 cite by quote only; the paragraph found must contain it."""
    rules = [r for r in catalogue().rules(document=document) if r.source.startswith("«")]
    bad = [
        r.id
        for r in rules
        if not all(fold(p) in fold(r.original_ru) for p in quote_pieces(r.quote_ru))
    ]
    assert len(bad) <= len(rules) // 50, f"quote not in the original: {bad}"


# -- spot checks --------------------------------------------------------------------------


def test_w_wnd_08_light_wound_turns_heavy_after_30_minutes_in_both_languages() -> None:
    rule = catalogue().rule(rid("W-WND", 8))
    assert "30 minutes" in rule.text_en
    assert rule.text_en.startswith("If a light-wounded character")  # no ID, no tags
    assert rule.tags == ("sw",)
    assert rule.section.startswith("§2 — Wounds and bandaging")
    assert rule.source == "§2.2.2"
    assert rule.quote_ru == "по истечении 30 минут после потери первого хита"
    assert rule.original_located
    assert rule.original_ru.startswith("2.2.2 –")
    assert "по истечении 30 минут после потери первого хита" in rule.original_ru


def test_w_loot_02_points_at_paragraph_5_1_of_the_looting_part() -> None:
    rule = catalogue().rule(rid("W-LOOT", 2))
    assert rule.source == "Looting §5.1"
    assert rule.original_ru.startswith("5.1.")
    assert "Припасов" in rule.original_ru
    # plain §5.1 is the medicine rules' 5.1, not the looting one (the protection rule cites §5.1.1)
    assert catalogue().rule(rid("W-PROT", 1)).original_ru.startswith("5.1.1 –")


def test_the_two_clauses_numbered_5_3_2_are_told_apart_w_dtrt_04_and_w_dtrt_06() -> None:
    assert catalogue().rule(rid("W-DTRT", 4)).original_ru.startswith("5.3.2 – Диагноз")
    assert catalogue().rule(rid("W-DTRT", 6)).original_ru.startswith("5.3.2 – Курс лечения")


def test_a_citation_naming_several_sections_gets_all_of_them_w_hosp_18() -> None:
    original = catalogue().rule(rid("W-HOSP", 18)).original_ru
    assert original.startswith("3.5 –") and "\n5.3.9 –" in original


def test_nested_sub_bullets_are_joined_into_the_text_w_dtrt_12() -> None:
    rule = catalogue().rule(rid("W-DTRT", 12))
    assert "drip: a drip without a needle; enema: an empty enema;" in rule.text_en
    assert "(source" not in rule.text_en
    assert "- Капельница" in rule.original_ru and "- Психотерапия" in rule.original_ru


def test_z_cmb_02_cites_source_lines_2_to_3() -> None:
    rule = catalogue().rule(rid("Z-CMB", 2))
    assert rule.source == "L2–L3"
    assert rule.original_ru.startswith("На игровой полигон")
    assert "шея, пальцы и прочие" in rule.original_ru


def test_s_fall_04_fall_over_100_damage_kills_has_its_russian_line() -> None:
    rule = catalogue().rule(rid("S-FALL", 4))
    assert rule.original_located and "Если урон от падения превысил 100 урона" in rule.original_ru


def test_s_crime_02_a_line_wrapped_before_a_stat_name_is_rejoined() -> None:
    original = catalogue().rule(rid("S-CRIME", 2)).original_ru
    assert "проходит проверку PER + 3 (или PER + 6" in original
    assert original.endswith("против ваших REF.")


def test_d_tab_01_a_table_row_rule_gets_its_row_in_both_languages() -> None:
    rule = catalogue().rule(rid("D-TAB", 1))
    assert rule.source == "table row"
    assert "Injury: Cut" in rule.text_en and "Severity: Light (Л)" in rule.text_en
    assert rule.original_located
    assert rule.original_ru == (
        "Локация: Голова; Урон: Рубящий; Травма: Порез; Степ.: Л; "
        "Эффект: Без эффекта (шрам); Лечение: Медицина 10 / лечение 1+"
    )
    # the blank location/damage cells of later rows are filled from above
    row = catalogue().rule(rid("D-TAB", 32))
    assert row.original_ru.startswith("Локация: Ноги; Урон: Дробящий")


def test_i_cond_01_the_fed_state_row_is_found_in_the_state_table() -> None:
    rule = catalogue().rule(rid("I-COND", 1))
    assert rule.original_ru.startswith("Состояние: Сыт; Как получить: 3 нормальных")


def test_i_cure_02_bloodletting_is_found_under_its_own_disease() -> None:
    """кровопускание is a folk method of two diseases; the row names Багряная Чахотка."""
    original = catalogue().rule(rid("I-CURE", 2)).original_ru
    assert original.startswith("Багряная Чахотка") and "кровопускание" in original
    assert "Пляска Суккуба" not in original


def test_i_calm_12_a_list_item_comes_with_the_label_of_its_list() -> None:
    original = catalogue().rule(rid("I-CALM", 12)).original_ru
    assert original.startswith("−2 очка\n") and "«Эффект Фарамира»" in original


def test_s_brk_08_and_s_brk_10_a_repeated_quote_goes_to_the_nearest_paragraph() -> None:
    assert "вашего артефакта" in catalogue().rule(rid("S-BRK", 8)).original_ru
    assert "при использовании предмета" in catalogue().rule(rid("S-BRK", 10)).original_ru


# -- lookup API -------------------------------------------------------------------------


def test_rule_lookup_is_case_insensitive_and_the_catalogue_is_cached() -> None:
    assert catalogue() is catalogue()
    assert catalogue().rule(" w-wnd-08 ") is catalogue().rule(rid("W-WND", 8))


def test_an_unknown_rule_id_raises_not_found_suggesting_a_near_id() -> None:
    with pytest.raises(NotFound) as err:
        catalogue().rule("W-WND-80")
    assert "W-WND-80" in err.value.message
    assert err.value.tip is not None and rid("W-WND", 8) in err.value.tip
    assert rid("W-WND", 8) in err.value.text()


def test_an_id_from_nowhere_still_gets_a_tip() -> None:
    with pytest.raises(NotFound) as err:
        catalogue().rule("Q-NOPE-1")
    assert err.value.tip


def test_rules_filter_by_prefix_and_document() -> None:
    wounds = catalogue().rules(prefix="w-wnd")
    assert [r.id for r in wounds] == [f"W-WND-{n:02}" for n in range(1, 16)]
    injuries = catalogue().rules(document="003")
    assert len(injuries) == 82 and {r.document for r in injuries} == {"003"}
    assert catalogue().rules(prefix="D-TAB", document="000") == []
    with pytest.raises(NotFound):
        catalogue().rules(document="999")


def test_ambiguity_a_w_06_has_title_text_default_and_config() -> None:
    amb = catalogue().ambiguity("a-w-06")
    assert amb == catalogue().find("A-W-06")
    assert amb.title == "What a bandage does to the timers."
    assert "«Без перевязки»" in amb.text_en
    assert amb.default.startswith("a bandage cancels the running timer")
    assert amb.config.startswith("`bandage_duration_minutes`")


def test_ambiguities_in_the_quote_style_of_checklists_002_to_004_parse_too() -> None:
    amb = catalogue().ambiguity("A-I-29")
    assert amb.title == '"Load" states have no thresholds.'
    assert amb.default.startswith("the GM sets the load state")
    assert amb.config == "`load_state` (manual)."
    counts = {d: len(catalogue().ambiguities(d)) for d in DOCUMENTS}
    assert counts == {"000": 35, "001": 34, "002": 29, "003": 19, "004": 31}
    with pytest.raises(NotFound):
        catalogue().ambiguity("A-W-99")


def test_find_returns_a_rule_or_an_ambiguity() -> None:
    assert isinstance(catalogue().find("w-wnd-08"), Rule)
    assert isinstance(catalogue().find("A-Z-02"), Ambiguity)
    with pytest.raises(NotFound, match="an ambiguity, not a rule"):
        catalogue().rule("A-Z-02")
    with pytest.raises(NotFound) as err:
        catalogue().find("A-Z-022")
    assert err.value.tip is not None and "A-Z-02" in err.value.tip


# -- the parts, on small inputs -----------------------------------------------------------


def test_citations_split_locator_and_nested_quotes() -> None:
    cit = parse_citation("§2.2.1, «в положении «лёжа»»")
    assert (cit.source, cit.quotes) == ("§2.2.1", ("в положении «лёжа»",))
    cit = parse_citation("§5.3.2 (Course), «лечение длится 40 минут»")
    assert cit.source == "§5.3.2 (Course)" and cit.sections[0].qualifier == "Course"
    cit = parse_citation("L13; exception L14, L15")
    assert cit.lines == ((13, 13), (14, 14), (15, 15))
    assert parse_citation("«Условия суммируются.»").source == "«Условия суммируются.»"


def test_a_rule_whose_quote_is_nowhere_falls_back_to_the_quote() -> None:
    src = SourceText("Первый абзац.\n\nВторой абзац, про хиты.\n", Layout("blocks"))
    draft = RuleDraft("X-TEST-01", "", (), "text", "«нет такого текста»", (), 1)
    rule = Locator(src).rule(draft, "999")
    assert not rule.original_located and rule.original_ru == "нет такого текста"
    draft = RuleDraft("X-TEST-02", "", (), "text", "«про хиты»", (), 1)
    found = Locator(src).rule(draft, "999")
    assert found.original_located and found.original_ru == "Второй абзац, про хиты."


def test_a_quote_spanning_two_paragraphs_or_slightly_misquoted_is_still_found() -> None:
    src = SourceText("Игрок бросает\n\nкубик d4 и смотрит таблицу травм.\n", Layout("blocks"))
    assert src.candidates("Игрок бросает кубик d4") == [0]
    assert src.hit(0, "Игрок бросает кубик d4") == [0, 1]
    draft = RuleDraft("X-TEST-03", "", (), "text", "«Игрок бросает кубик d4»", (), 1)
    spanning = Locator(src).rule(draft, "999")
    assert spanning.original_ru == "Игрок бросает\nкубик d4 и смотрит таблицу травм."
    assert src.candidates("игрок смотрит таблицу травм кубик") == [1]  # fuzzy, by word stems


def test_a_checklist_item_with_a_nested_bold_id_defines_both_rules() -> None:
    text = (
        "### Section\n\n- **W-X-01** [sw] Parent rule, wrapped\n  over two lines. (source: §1.1)\n"
        "  - **W-X-02** Child rule. (source: §1.2)\n- **W-X-03** Next. — «цитата»\n"
    )
    rules = {r.id: r for r in parse_checklist(text).rules}
    assert list(rules) == ["W-X-01", "W-X-02", "W-X-03"]
    assert rules["W-X-01"].text_en == "Parent rule, wrapped over two lines."
    assert rules["W-X-01"].citation == "§1.1" and rules["W-X-01"].tags == ("sw",)
    assert rules["W-X-02"].text_en == "Child rule."
    assert rules["W-X-03"].citation == "«цитата»" and rules["W-X-03"].section == "Section"
