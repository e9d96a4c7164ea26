"""Recovery factors (восстановление), checklist-004 §2.12.

Recovery depends on sleep, food, water, safety, treatment, disease, stress and the
severity of wounds (I-REC-01). rules/004 names what makes it better or worse but no
amounts: those belong to the Health chapter, so the factors are reported for it (or for
the GM's ruling) and change nothing by themselves (A-I-25).
"""

from __future__ import annotations

from lazaretto.rulesets.ide4_survival.state import Ide4State, survivor

BETTER = {
    "safe": ("in safety", "в безопасности"),
    "sleeps_normally": ("sleeps normally", "нормально спит"),
    "food_and_water": ("gets food and water", "получает еду и воду"),
    "wounds_treated": ("wounds treated", "раны обработаны"),
    "no_active_stress": ("no active stress", "нет активного стресса"),
    "cared_for": ("cared for", "за ним есть уход"),
}
WORSE = {
    "hungry": ("hungry", "голоден"),
    "dehydrated": ("dehydrated", "обезвожен"),
    "not_sleeping": ("not sleeping", "не спит"),
    "cold_or_heat": ("in cold or heat", "в холоде или жаре"),
    "travelling": ("still travelling", "продолжает путь"),
    "disease_active": ("an active disease", "болезнь активна"),
    "dirty_wound": ("a dirty wound", "рана грязная"),
    "exhausted": ("exhausted: healing is worse", "истощён: лечение хуже"),
}


def factors(
    st: Ide4State,
    char_id: str,
    safe: bool = False,
    cold_or_heat: bool = False,
    cared_for: bool = False,
    wounds_treated: bool = False,
    dirty_wound: bool = False,
) -> tuple[list[str], list[str]]:
    """The "better" (I-REC-02) and "worse" (I-REC-03) factors of a character now.

    A character asleep now is sleeping, so never "not sleeping" (I-REC-03 «не спит»):
    the day's end comes after its sleep (I-DAY-08, I-DAY-09), and a party that sleeps
    past midnight is asleep when the GM ends the day. Whether that night was normal is
    known when it ends (it may still be interrupted, I-SLEEP-04), so "sleeps normally"
    (I-REC-02) still reads the last finished sleep."""
    ch = st.characters[char_id]
    s = survivor(st, char_id)
    sick = [c for c in st.cases.values() if c.character == char_id and c.status == "sick"]
    normal_sleep = bool(
        s.last_sleep
        and s.last_sleep.camp == "normal"
        and s.last_sleep.hours >= 8
        and not ch.has("sleep_deprived")
    )
    exposed = any(
        e.character == char_id and e.kind.startswith("cold") for e in st.exposures.values()
    )
    better = [
        k
        for k, on in (
            ("safe", safe),
            ("sleeps_normally", normal_sleep),
            ("food_and_water", not ch.has("hungry") and not ch.has("dehydrated")),
            ("wounds_treated", wounds_treated),
            ("no_active_stress", s.calm >= 2),
            ("cared_for", cared_for),
        )
        if on
    ]
    worse = [
        k
        for k, on in (
            ("hungry", ch.has("hungry")),
            ("dehydrated", ch.has("dehydrated")),
            ("not_sleeping", not s.asleep and (ch.has("sleep_deprived") or not s.slept_today)),
            ("cold_or_heat", cold_or_heat or exposed),
            ("travelling", any(m.day == st.day for m in s.marches) or s.pace is not None),
            ("disease_active", bool(sick)),
            ("dirty_wound", dirty_wound),
            ("exhausted", ch.has("exhausted")),
        )
        if on
    ]
    return better, worse
