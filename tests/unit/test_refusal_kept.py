"""A refusal kept as an answer holds no frames (issue 25): neither its own traceback
nor those of the errors it was raised from."""

from __future__ import annotations

from lazaretto.core.errors import LazarettoError, RuleViolation


def _raised() -> LazarettoError:
    try:
        try:
            {}["bandage"]
        except KeyError as inner:
            raise RuleViolation("no wound to bandage", ru="нечего перевязывать") from inner
    except LazarettoError as exc:
        return exc
    raise AssertionError("not raised")


def test_a_kept_refusal_and_its_causes_lose_their_tracebacks_and_keep_their_words() -> None:
    refusal = _raised()
    assert refusal.__traceback__ is not None and refusal.__cause__ is not None
    assert refusal.__cause__.__traceback__ is not None
    kept = refusal.kept()
    assert kept is refusal
    assert refusal.__traceback__ is None and refusal.__cause__.__traceback__ is None
    assert refusal.text("ru") == "нечего перевязывать" and refusal.http_status == 409
