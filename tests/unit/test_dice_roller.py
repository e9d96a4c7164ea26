"""Rolling: reproducible from a seed, every die recorded, keep/drop picks the right dice."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from fractions import Fraction

import pytest

from lazaretto.core.dice import DieRoll, RollResult, parse, roll


class ScriptedRandom(random.Random):
    """A Random whose ``random()`` shows the given faces of the given die, in order."""

    def __init__(self, faces: Iterable[int], sides: int) -> None:
        super().__init__(0)
        self._draws = iter([(face - 0.5) / sides for face in faces])

    def random(self) -> float:
        return next(self._draws)


def test_same_seed_gives_the_same_rolls() -> None:
    expression = parse("4d6kh3 + 2d8 - 1d4 >= 10")
    first = [expression.roll(random.Random(42)) for _ in range(3)]
    again = [expression.roll(random.Random(42)) for _ in range(3)]
    assert first == again
    stream, replay = random.Random(7), random.Random(7)
    assert [expression.roll(stream) for _ in range(50)] == [
        expression.roll(replay) for _ in range(50)
    ]


def test_different_seeds_give_different_rolls() -> None:
    expression = parse("10d10")
    assert expression.roll(random.Random(1)) != expression.roll(random.Random(2))


def test_roll_many_gives_the_totals_that_roll_gives_on_the_same_stream() -> None:
    for text in ("4d6kh3", "1d20 + 5 >= 15", "1d20 > 1d20", "3d6 * 2 - 1d4", "4d6kh0"):
        expression = parse(text)
        stream = random.Random(3)
        rolled = [expression.roll(stream).total for _ in range(200)]
        assert expression.roll_many(random.Random(3), 200) == rolled, text


def test_every_die_is_recorded_one_entry_per_dice_term() -> None:
    result = roll("4d6kh3 + 2d20kl1 - 3d4 + 1d8 * 2", random.Random(11))
    assert [(die.notation, die.sides, len(die.rolls), len(die.kept)) for die in result.dice] == [
        ("4d6kh3", 6, 4, 3),
        ("2d20kl1", 20, 2, 1),
        ("3d4", 4, 3, 3),
        ("1d8", 8, 1, 1),
    ]
    for die in result.dice:
        assert all(1 <= face <= die.sides for face in die.rolls)
        assert die.total == sum(die.kept)
    totals = [die.total for die in result.dice]
    assert result.total == totals[0] + totals[1] - totals[2] + totals[3] * 2


def test_keep_highest_keeps_the_highest_dice_in_the_order_rolled() -> None:
    result = parse("4d6kh3").roll(ScriptedRandom([3, 5, 1, 6], sides=6))
    assert result.dice == (DieRoll("4d6kh3", 6, (3, 5, 1, 6), (3, 5, 6), 14),)
    assert result.total == 14


@pytest.mark.parametrize(
    ("text", "faces", "kept"),
    [
        ("4d6dl1", [3, 5, 1, 6], (3, 5, 6)),
        ("4d6kl2", [3, 5, 1, 6], (3, 1)),
        ("4d6dh1", [3, 5, 1, 6], (3, 5, 1)),
        ("2d6kh1", [2, 4], (4,)),
        ("2d6kl1", [2, 4], (2,)),
        ("3d6kh2", [3, 5, 3], (3, 5)),  # a tie keeps the earlier die
        ("3d6kl2", [3, 1, 3], (3, 1)),
        ("3d6kh0", [3, 1, 3], ()),
        ("3d6kh3", [3, 1, 3], (3, 1, 3)),
    ],
)
def test_keep_and_drop_choose_the_right_dice(text: str, faces: list[int], kept: tuple[int]) -> None:
    (die,) = parse(text).roll(ScriptedRandom(faces, sides=6)).dice
    assert die.rolls == tuple(faces)
    assert die.kept == kept
    assert die.total == sum(kept)


def test_percentile_die_rolls_one_to_a_hundred() -> None:
    result = roll("d%", ScriptedRandom([100], sides=100))
    assert result.dice[0].notation == "1d100"
    assert result.total == 100


def test_comparison_sets_success_and_keeps_the_left_total() -> None:
    expression = parse("1d20 + 5 >= 15")
    hit = expression.roll(ScriptedRandom([10], sides=20))
    miss = expression.roll(ScriptedRandom([9], sides=20))
    assert (hit.total, hit.success) == (15, True)
    assert (miss.total, miss.success) == (14, False)
    assert parse("1d20").roll(random.Random(1)).success is None


def test_comparison_with_dice_on_both_sides_records_both() -> None:
    result = parse("1d6 > 1d6").roll(ScriptedRandom([4, 4], sides=6))
    assert [die.total for die in result.dice] == [4, 4]
    assert (result.total, result.success) == (4, False)


def test_a_zero_factor_still_rolls_and_records_its_dice() -> None:
    result = roll("0 * 3d6", random.Random(5))
    assert result.total == 0
    assert len(result.dice[0].rolls) == 3


def test_result_is_immutable_and_serialises_to_json() -> None:
    result = roll("4d6kh3 + 1 >= 10", random.Random(9))
    with pytest.raises(AttributeError):
        result.total = 0  # type: ignore[misc]
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {
        "expression": "4d6kh3 + 1 >= 10",
        "dice": [
            {
                "notation": "4d6kh3",
                "sides": 6,
                "rolls": list(result.dice[0].rolls),
                "kept": list(result.dice[0].kept),
                "total": result.dice[0].total,
            }
        ],
        "total": result.total,
        "success": result.success,
    }
    assert isinstance(result, RollResult)


def test_many_rolls_average_to_the_exact_mean() -> None:
    expression = parse("4d6kh3")
    exact_mean = sum(total * p for total, p in expression.distribution().items())
    totals = expression.roll_many(random.Random(2024), 40_000)
    assert abs(Fraction(sum(totals), len(totals)) - exact_mean) < Fraction(5, 100)


def test_every_face_of_a_die_comes_up_about_equally_often() -> None:
    totals = parse("1d20").roll_many(random.Random(99), 40_000)
    counts = [totals.count(face) for face in range(1, 21)]
    assert min(counts) > 1_800 and max(counts) < 2_200
