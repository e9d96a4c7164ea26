"""Coverage-guided fuzzing of the dice engine (atheris / libFuzzer).

Any text, under any budget, parses and rolls or is refused with a DiceError; anything
else is a crash that libFuzzer reports with the input that caused it. The fuzzer starts
from a few expressions of the grammar when given no corpus. Run by hand::

    .venv/bin/python fuzz/atheris_dice.py -atheris_runs=200000 [corpus-folder]

tests/fuzz/test_atheris_harnesses.py runs it briefly in CI.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["lazaretto"]):
    from lazaretto.core.dice import DiceBudget, parse
    from lazaretto.core.errors import DiceError

BUDGETS = [
    DiceBudget(max_outcomes=5_000, max_exact_work=50_000),
    DiceBudget(max_dice=3, max_sides=6, max_length=20, max_nesting=2),
    DiceBudget(max_length=5_000, max_nesting=5_000, max_outcomes=5_000, max_exact_work=50_000),
]
SEEDS = ["4d6kh3", "1d20 + 5 >= 15", "(2d6+3)*2", "-d%", "3d6dl1 - 2 != 10", "((1))"]


def test_one_input(data: bytes) -> None:
    """Parse, roll and enumerate one fuzzer-made text (the first byte picks a budget)."""
    if not data:
        return
    budget = BUDGETS[data[0] % len(BUDGETS)]
    text = data[1:].decode("utf-8", errors="replace")
    try:
        expression = parse(text, budget)
        result = expression.roll(random.Random(0))
        if not expression.min() <= result.total <= expression.max():
            raise AssertionError(f"{text!r} rolled {result.total} outside its bounds")
        expression.distribution()
    except DiceError as err:
        if not err.message or "\n" in err.message:
            raise AssertionError(f"not a one-line message: {err.message!r}") from err


def main() -> None:
    args = list(sys.argv)
    if not any(not a.startswith("-") for a in args[1:]):  # no corpus given: seed one
        corpus = Path(tempfile.mkdtemp(prefix="lazaretto-dice-fuzz-"))
        for i, seed in enumerate(SEEDS):
            (corpus / f"seed-{i}").write_bytes(bytes([i]) + seed.encode())
        args.append(str(corpus))
    atheris.Setup(args, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
