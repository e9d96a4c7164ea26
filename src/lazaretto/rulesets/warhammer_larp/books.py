"""Healers' books (книга лекаря): lending one, and copying a description from it (A-W-34).

A healer's book is personal (W-HEAL-03), and copying is allowed only "in game, by hand"
(A-W-34): a healer copies from a book they hold — their own, or one its owner lent
them. Lending is the owner's record (``lend-book``; ``take-back-book`` ends it), so a
healer cannot copy from, nor learn anything about, a book nobody gave them: the refusal
says the book was not lent and nothing about what is in it. Masters oversee the game and
may record any copy.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.warhammer_larp.checks import params, refuse
from lazaretto.rulesets.warhammer_larp.courses import knows
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.wounds import STAFF

LENT_TO = "book_lent_to"
"""Character data: the healers the owner lent their book to."""

TEXTS: dict[str, tuple[str, str]] = {
    "event:healer.book_lent": (
        "{character} lent their healer's book to {to}",
        "{character} дал свою книгу лекаря {to}",
    ),
    "event:healer.book_taken_back": (
        "{character} took their healer's book back from {to}",
        "{character} забрал свою книгу лекаря у {to}",
    ),
}


@REDUCERS.on("healer.book_lent")
def _lent(state: WarhammerState, ev: Event) -> None:
    lent = state.characters[ev.payload["character"]].data.setdefault(LENT_TO, [])
    if ev.payload["to"] not in lent:
        lent.append(ev.payload["to"])


@REDUCERS.on("healer.book_taken_back")
def _taken_back(state: WarhammerState, ev: Event) -> None:
    data = state.characters[ev.payload["character"]].data
    data[LENT_TO] = [c for c in data.get(LENT_TO, []) if c != ev.payload["to"]]


def may_read(ctx: ActionContext, reader: Character, book_of: Character) -> bool:
    """Whether ``reader`` holds ``book_of``'s book: their own, or lent to them; a
    master records what happens in game and may name any book."""
    return (
        ctx.role is Role.MASTER
        or reader.id == book_of.id
        or reader.id in book_of.data.get(LENT_TO, [])
    )


def register(rs: Ruleset) -> None:
    """Declare ``lend-book``, ``take-back-book`` and ``copy-description``."""

    class LendBook(BaseModel):
        healer: str = Field(description="the healer whose book is lent")
        to: str = Field(description="the healer who may copy from it")

    @rs.action(
        "lend-book",
        LendBook,
        roles=STAFF,
        summary=(
            "Lend your healer's book to another healer, to copy descriptions from",
            "Дать свою книгу лекаря другому лекарю, чтобы переписать описания",
        ),
        rule_ids=("W-HEAL-03", "A-W-34"),
    )
    def lend(ctx: ActionContext, a: LendBook) -> None:
        owner, to = _healers(ctx, a.healer, a.to)
        ctx.emit("healer.book_lent", {"character": owner.id, "to": to.id}, ("A-W-34",))

    @rs.action(
        "take-back-book",
        LendBook,
        roles=STAFF,
        summary=(
            "Take your healer's book back: no more copying from it",
            "Забрать свою книгу лекаря: переписывать из неё больше нельзя",
        ),
        rule_ids=("W-HEAL-03", "A-W-34"),
    )
    def take_back(ctx: ActionContext, a: LendBook) -> None:
        owner, to = ctx.character(a.healer), ctx.character(a.to)
        if to.id not in owner.data.get(LENT_TO, []):
            refuse(
                f"{owner.name}'s book is not lent to {to.name}",
                f"Книга {owner.name} не у {to.name}",
                "A-W-34",
            )
        ctx.emit("healer.book_taken_back", {"character": owner.id, "to": to.id}, ("A-W-34",))

    class CopyDescription(BaseModel):
        healer: str = Field(description="whose book receives the copy")
        source: str = Field(description="the healer whose book holds the description")
        code: str

    @rs.action(
        "copy-description",
        CopyDescription,
        roles=STAFF,
        summary=(
            "Copy a disease description by hand from one healer's book into another's",
            "Переписать описание болезни из книги одного лекаря в книгу другого",
        ),
        rule_ids=("W-HEAL-03", "A-W-34"),
    )
    def copy(ctx: ActionContext, a: CopyDescription) -> None:
        to, src = ctx.character(a.healer), ctx.character(a.source)
        if not params(ctx).allow_description_copy:
            refuse(
                "Descriptions cannot be copied between healers in this campaign",
                "В этой кампании описания болезней переписывать нельзя",
                "A-W-34",
            )
        if not to.has_skill(params(ctx).healer_skill):
            refuse(f"{to.name} is not a healer", f"{to.name} не лекарь", "W-HEAL-03")
        # before anything about the book's contents: who may not read it learns nothing
        if not may_read(ctx, to, src):
            refuse(
                f"{to.name} can copy only from a book they hold: "
                f"{src.name} has not lent their book to {to.name}",
                f"{to.name} может переписывать только из книги, что у него в руках: "
                f"{src.name} не давал свою книгу {to.name}",
                "W-HEAL-03",
                "A-W-34",
                tip=f"{src.name}'s player lends it with `lend-book`.",
                tip_ru=f"Игрок {src.name} даёт её действием `lend-book`.",
            )
        if not knows(src, a.code):
            refuse(
                f"{src.name}'s book has no description of {a.code}",
                f"В книге {src.name} нет описания {a.code}",
                "W-HEAL-03",
            )
        ctx.emit(
            "healer.book_entry_added",
            {"character": to.id, "code": a.code, "description": src.data["book"][a.code]},
            ("W-HEAL-03", "A-W-34"),
        )


def _healers(ctx: ActionContext, owner_id: str, to_id: str) -> tuple[Character, Character]:
    """The book's owner and the healer it goes to; both healers, not the same one."""
    owner, to = ctx.character(owner_id), ctx.character(to_id)
    for ch in (owner, to):
        if not ch.has_skill(params(ctx).healer_skill):
            refuse(
                f"{ch.name} is not a healer and keeps no healer's book",
                f"{ch.name} не лекарь, у него нет книги лекаря",
                "W-HEAL-03",
            )
    if owner.id == to.id:
        refuse(
            f"{owner.name} already holds their own book",
            f"Книга {owner.name} и так у него",
            "A-W-34",
        )
    return owner, to
