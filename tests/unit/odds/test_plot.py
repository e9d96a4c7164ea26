"""Bar charts of odds: a real PNG or SVG file, or one clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from lazaretto.core.errors import InvalidInput
from lazaretto.odds.crime import theft_odds
from lazaretto.odds.dice import dice_odds
from lazaretto.odds.plot import plot


def test_a_png_chart_is_written(tmp_path: Path) -> None:
    path = plot(dice_odds("3d6"), tmp_path / "3d6.png")
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_an_svg_chart_carries_the_russian_labels(tmp_path: Path) -> None:
    path = plot(theft_odds(5, 3), tmp_path / "theft.SVG", lang="ru")
    text = path.read_text(encoding="utf-8")
    assert "<svg" in text
    # matplotlib draws text as glyph paths and keeps each text in a comment beside it
    assert "<!-- украдено -->" in text and "<!-- пойман с поличным -->" in text
    assert "кража: REF +5 против PER +3 +3" in text


def test_a_long_distribution_still_draws(tmp_path: Path) -> None:
    assert plot(dice_odds("10d10"), tmp_path / "10d10.svg").stat().st_size > 0


def test_an_unknown_format_or_an_unwritable_place_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"\.png or \.svg"):
        plot(dice_odds("1d6"), tmp_path / "chart.gif")
    with pytest.raises(InvalidInput, match="Cannot write the chart"):
        plot(dice_odds("1d6"), tmp_path / "missing" / "chart.png")
