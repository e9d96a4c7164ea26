"""``cli/app.py`` reads a command's plain text and whole-number parameters without
Typer's Pydantic adapters (issue 17: ``roll`` need not import Pydantic). Whatever is
typed, a command sees the same values, and a refused value gets the same message, as
with Typer's own coercion."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.core import TyperCommand
from typer.testing import CliRunner

from lazaretto.cli.app import quicken


class QuickCommand(TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        quicken(self)


def _command(quick: bool) -> typer.Typer:
    app = typer.Typer(add_completion=False)

    @app.command(cls=QuickCommand if quick else TyperCommand)
    def show(
        words: Annotated[list[str], typer.Argument()],
        text: Annotated[str | None, typer.Option()] = None,
        seed: Annotated[int | None, typer.Option()] = None,
        small: Annotated[int, typer.Option(min=0, max=9)] = 0,
        plot: Annotated[Path | None, typer.Option()] = None,
        flag: bool = False,
    ) -> None:
        typer.echo(repr((words, text, seed, small, plot, flag)))

    return app


VALUE = st.one_of(
    st.text(max_size=8),
    st.from_regex(r"-?[0-9_.+ e]{1,22}", fullmatch=True),
    st.sampled_from(["7", "-0", "007", "1.0", "1_000", " 3", "9" * 19, "x", ""]),
)


@settings(max_examples=150, deadline=None)
@given(words=st.lists(VALUE, min_size=1, max_size=3), text=VALUE, seed=VALUE, small=VALUE)
def test_a_command_reads_the_same_values_as_with_typers_adapters(
    words: list[str], text: str, seed: str, small: str
) -> None:
    args = ["--text", text, "--seed", seed, "--small", small, "--plot", "p.png", "--", *words]
    runner = CliRunner()
    typers = runner.invoke(_command(quick=False), args)
    ours = runner.invoke(_command(quick=True), args)
    assert (ours.exit_code, ours.output) == (typers.exit_code, typers.output)


def test_no_value_is_none_as_before() -> None:
    runner = CliRunner()
    got = runner.invoke(_command(quick=True), ["w"])
    assert got.exit_code == 0 and got.output == "(['w'], None, None, 0, None, False)\n"
