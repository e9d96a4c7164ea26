"""gc_paused (core/gcpause.py): the cycle collector is off while any thread parses a
state, and comes back as it was when the last one leaves."""

from __future__ import annotations

import gc
import threading

from lazaretto.core.gcpause import gc_paused


def test_the_collector_is_off_inside_and_back_on_after_overlapping_threads() -> None:
    assert gc.isenabled()
    inside = threading.Event()
    leave = threading.Event()

    def parser() -> None:
        with gc_paused():
            inside.set()
            leave.wait(10)

    other = threading.Thread(target=parser)
    other.start()
    inside.wait(10)
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled(), "the other thread is still parsing"
    leave.set()
    other.join(10)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
