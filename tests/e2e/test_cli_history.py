"""The CLI of the history: a paper log typed in after the battle, in any order; undo;
corrections — in English and Russian (issue 14)."""

from __future__ import annotations

import pytest
from tests.e2e.clitools import Run, ok, ok_json, refused

KIT = ["hourglass_10min", "needle", "thread", "plaster", "bandages", "mask", "gloves",
       "mat_materials"]


def field_day(run: Run) -> None:
    ok(run("campaign", "create", "field-day", "--ruleset", "warhammer-larp", "--clock",
           "manual", "--start", "2026-06-13T11:50"))
    ok(run("character", "add", "B", "--name", "Boris", "--hits", "3"))
    ok(run("character", "add", "A", "--name", "Anna", "--hits", "2", "--skill", "Healer"))
    ok(run("act", "check-kit", "--healer", "A", *[x for i in KIT for x in ("--items", i)]))
    ok(run("act", "register-mat", "--id", "mat-A", "--healer", "A", "--length-cm", "180",
           "--width-cm", "60"))


def test_a_paper_log_typed_in_out_of_order_ends_as_the_field_saw_it(run: Run) -> None:
    """W-WND-08: the wound, then the clock to 12:35, then the 12:29 bandage."""
    field_day(run)
    wound = ok_json(run("act", "lose-hits", "--character", "B", "--hits", "2", "--location",
                        "leg", "--at", "12:00", "--move-clock", "--json"))
    assert isinstance(wound["record"], int)
    ok(run("clock", "set", "12:35"))
    out = ok(run("act", "apply-bandage", "--healer", "A", "--patient", "B", "--bandages", "2",
                 "--mat", "mat-A", "--at", "12:29"))
    assert "Boris bandaged by Anna" in out and "lazaretto undo" in out
    listed = ok_json(run("character", "list", "--json"))
    boris = next(c for c in listed if c["id"] == "B")
    assert "light" in str(boris).lower() and "heavy" not in str(boris).lower()
    corrections = ok(run("log", "--corrections"))
    assert corrections.startswith("UNDONE: 12:30:00  Boris: heavy wound")
    assert "apply-bandage at 12:29:00" in corrections
    ru = ok(run("log", "--corrections", lang="ru"))
    assert ru.startswith("ОТМЕНЕНО: 12:30:00  Boris: тяжёлое ранение")
    assert "из-за: apply-bandage в 12:29:00" in ru


def test_undo_takes_a_record_back_and_says_what_it_changed(run: Run) -> None:
    field_day(run)
    wound = ok_json(run("act", "lose-hits", "--character", "B", "--hits", "1", "--location",
                        "arm", "--json"))
    out = ok(run("undo", str(wound["record"]), "--reason", "wrong card"))
    assert out.startswith(f"record {wound['record']} undone")
    assert "UNDONE:" in out and "Boris lost 1 hit" in out
    again = refused(run("undo", str(wound["record"])), 5)
    assert "already undone" in again
    assert "Нет записи 999" in refused(run("undo", "999", lang="ru"), 4)
    records = ok_json(run("records", "--json"))
    assert next(r for r in records if r["record"] == wound["record"])["status"] == "undone"
    assert "отменена" in ok(run("records", lang="ru"))


def test_the_journal_shows_an_undone_entry_struck_out_and_why(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """W-HOSP-04, DESIGN 2: an admission entered by mistake and undone stays in the
    journal, marked struck out with the record that undid it, beside the entry made
    again — in the table in both languages and in --json."""
    field_day(run)
    ok(run("act", "register-hospital", "--id", "h1", "--name", "Shallya", "--number", "7",
           "--tables", "id=t1", "--beds", "id=b1", "--beds", "id=b2",
           "--location", "town"))  # fmt: skip
    # a paper log typed in on a manual clock: each entry ahead of it moves it (confirmed)
    ok(run("act", "lose-hits", "--character", "B", "--hits", "1", "--at", "12:00",
           "--move-clock"))
    admitted = ok_json(run("act", "admit", "--hospital", "h1", "--patient", "B", "--healer",
                           "A", "--at", "12:01", "--move-clock", "--json"))  # fmt: skip
    ok(run("undo", str(admitted["record"])))
    ok(run("act", "admit", "--hospital", "h1", "--patient", "B", "--healer", "A", "--at",
           "12:02", "--move-clock"))  # fmt: skip
    rows = ok_json(run("journal", "--json"))
    assert [(r["name"], r.get("correction")) for r in rows] == [("Boris", "struck"),
                                                               ("Boris", None)]  # fmt: skip
    assert rows[0]["corrected_by"]["voids"] == admitted["record"]
    monkeypatch.setenv("COLUMNS", "200")  # the mark on one line of the table
    en = ok(run("journal"))
    assert f"struck out — because of: record {admitted['record']} undone (master" in en
    ru = ok(run("journal", lang="ru"))
    assert f"зачёркнуто — из-за: запись {admitted['record']} отменена (мастер" in ru


@pytest.mark.parametrize(("lang", "words"), [("en", "refused on re-run — "),
                                             ("ru", "отказ при пересчёте — ")])
def test_a_record_refused_on_re_run_reads_so_in_the_records_list(
    run: Run, lang: str, words: str
) -> None:
    """Issue 27: the English list said "refused — …" where the Russian and
    docs/late-records.md say "refused on re-run": one wording, in both languages. Boris
    bandaged at 12:10, then his death at 12:05 typed in late: the bandage is refused
    when the history runs again."""
    field_day(run)
    ok(run("act", "lose-hits", "--character", "B", "--hits", "2", "--location", "leg",
           "--at", "12:00", "--move-clock"))
    bandage = ok_json(run("act", "apply-bandage", "--healer", "A", "--patient", "B",
                          "--bandages", "2", "--mat", "mat-A", "--at", "12:10",
                          "--move-clock", "--json"))
    ok(run("act", "kill", "--character", "B", "--at", "12:05"))
    line = next(ln for ln in ok(run("records", lang=lang)).splitlines()
                if ln.startswith(f"r{bandage['record']} "))
    assert words in line, line
