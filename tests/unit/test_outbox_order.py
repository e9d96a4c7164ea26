"""An outbox's taps are queued in the order they were made (issue 25): a refused tap
is refused alone, a tap that finds no turn holds back every tap after it."""

from __future__ import annotations

from collections.abc import Callable

from lazaretto.core.errors import InvalidInput, LazarettoError, TooBusy
from lazaretto.service.play import OUTBOX_MAX, PlayService, queue_in_order


def _tap(name: str, queued: list[str], refusal: LazarettoError | None = None) -> Callable[[], str]:
    def submit() -> str:
        if refusal is not None:
            raise refusal
        queued.append(name)
        return name

    return submit


def test_a_refused_tap_is_refused_alone_and_those_after_it_are_queued() -> None:
    queued: list[str] = []
    bad = InvalidInput("no such character", ru="нет такого персонажа")
    sent = queue_in_order([_tap("a", queued), _tap("b", queued, bad), _tap("c", queued)])
    assert sent == ["a", bad, "c"]
    assert queued == ["a", "c"]


def test_a_tap_without_a_turn_holds_back_itself_and_every_tap_after_it() -> None:
    queued: list[str] = []
    busy = TooBusy("8 of your changes are still being recorded", ru="8 ваших изменений")
    sent = queue_in_order([_tap("a", queued), _tap("b", queued, busy), _tap("c", queued)])
    assert sent == ["a", busy, busy]
    assert queued == ["a"]  # "c" was never offered a turn: the outbox keeps it, in order


def test_an_outbox_request_is_as_long_as_one_user_may_have_waiting() -> None:
    # a phone that lost the Wi-Fi for a battle's 20 minutes holds about ten taps (the
    # rehearsal): they go in one request, so a storm is one round of re-runs, not two
    assert OUTBOX_MAX == PlayService.IN_FLIGHT == 16
