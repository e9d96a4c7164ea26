"""The hospital journal (журнал госпиталя): every entry is an event, none is rewritten.

Entries: ``admission`` (name, race, age, time, wound locations: W-HOSP-05), ``outcome``
(recovered or died: W-HOSP-07), ``signature`` (W-HOSP-10), ``correction`` (a new entry
pointing at the one it corrects), ``penalty`` (W-HOSP-11); for diseases and poisons
``anamnesis``, ``diagnosis``, ``course`` and ``study`` (W-HOSP-06, W-DTRT-02..05).
"""

from __future__ import annotations

from typing import Any

from lazaretto.core.engine import ActionContext
from lazaretto.core.events import Event
from lazaretto.rulesets.warhammer_larp.checks import state


def add_entry(
    ctx: ActionContext,
    hospital: str,
    journal: str,
    entry_type: str,
    rule_ids: tuple[str, ...],
    **fields: Any,
) -> int:
    """Append an entry to a journal; returns its number."""
    h = state(ctx).hospitals[hospital]
    no = h.journals[journal].entries + 1
    ctx.emit(
        "journal.entry_added",
        {"hospital": hospital, "journal": journal, "no": no, "type": entry_type, **fields},
        rule_ids,
    )
    return no


def kept_after_undo(events: list[Event]) -> dict[str, Any] | None:
    """A paper hospital book: an entry an undo took back is struck, not torn out, so
    it keeps its number, the entries after it keep theirs, and the entry made again
    gets the next number. The numbers an undone record's entries had stay used
    (``Ruleset.kept_after_undo``; the ``undo.kept`` reducer in ``state.py``)."""
    numbers = [
        {k: ev.payload[k] for k in ("hospital", "journal", "no")}
        for ev in events
        if ev.kind == "journal.entry_added"
    ]
    return {"journal_numbers": numbers} if numbers else None


def record_outcome(
    ctx: ActionContext, patient: str, outcome: str, rule_ids: tuple[str, ...], **fields: Any
) -> None:
    """If ``patient`` is admitted, write their recovery or death (W-HOSP-07); ``fields``
    add e.g. the cured diseases (W-EPI-09 counts them)."""
    adm = state(ctx).admissions.get(patient)
    if adm is None:
        return
    add_entry(
        ctx,
        adm.hospital,
        adm.journal,
        "outcome",
        ("W-HOSP-07", *rule_ids),
        patient=patient,
        outcome=outcome,
        admission=adm.entry,
        **fields,
    )
