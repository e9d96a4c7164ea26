"""zone-larp from the ``lazaretto`` command: the Hospital stay of a character with two
damaged zones and one infected zone, by the documented default and by each alternative
reading chosen with ``campaign create --param`` (params.yaml, A-Z-11, A-Z-12)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from click.testing import Result
from typer.testing import CliRunner

from lazaretto.cli.app import build
from lazaretto.core.errors import RuleViolation

START = "2026-06-13T09:00"


class Cli:
    """The CLI on one database file, in one language."""

    def __init__(self, app: typer.Typer, db: Path, lang: str = "en") -> None:
        self.app = app
        self.runner = CliRunner()
        self.env: dict[str, str | None] = {
            "LAZARETTO_DB": str(db),
            "LAZARETTO_LANG": lang,
            "LAZARETTO_CAMPAIGN": None,
        }

    prefix = ""

    def __call__(self, *args: str) -> Result:
        return self.runner.invoke(self.app, list(args), env=self.env)

    def name(self, campaign: str) -> str:
        """A campaign name unique to the running test."""
        return self.prefix + campaign

    def ok(self, *args: str) -> str:
        result = self(*args)
        assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
        return result.stdout

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))


def patient(cli: Cli, campaign: str, *params: str, identified: bool = False) -> str:
    """Campaign ``campaign`` with c1: head and left arm damaged, torso infected."""
    campaign = cli.name(campaign)
    extra = [x for p in params for x in ("--param", p)]
    cli.ok("campaign", "create", campaign, "--ruleset", "zone-larp", "--start", START, *extra)
    c = ("--campaign", campaign)
    cli.ok(*c, "character", "add", "c1", "--name", "Vasya", "--hits", "2")
    zones = ("head", "damaged"), ("left_arm", "damaged"), ("torso", "infected")
    marks = [x for z, s in zones for x in ("--zones", f"zone={z},state={s}")]
    cli.ok(*c, "act", "issue-charsheet", "--character", "c1", *marks)
    if identified:
        cli.ok(
            *c,
            "act",
            "expose-infection",
            "--character",
            "c1",
            "--infection",
            "V1",
            "--source",
            "canister",
        )
        cli.ok(*c, "act", "identify-infection", "--patient", "c1")
    return campaign


def stay(cli: Cli, campaign: str) -> int:
    answer = cli.json("--campaign", campaign, "query", "rehab-time", "--character", "c1")
    assert answer["query"] == "rehab-time"
    return int(answer["minutes"])


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    return build()  # once: building the command tree is the slow part


@pytest.fixture(scope="module")
def shared(app: typer.Typer, tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(app, tmp_path_factory.mktemp("zone") / "z.db")


@pytest.fixture
def cli(shared: Cli, request: pytest.FixtureRequest) -> Cli:
    """The shared database; each test makes its own campaigns (named after the test)."""
    shared.prefix = f"t{abs(hash(request.node.name)) % 10**8}-"
    return shared


def test_the_default_stay_for_two_damaged_zones_and_one_infected_zone_is_40(cli: Cli) -> None:
    z = patient(cli, "z")
    answer = cli.json("--campaign", z, "query", "rehab-time", "--character", "c1")
    # A-Z-11 default sum_nonintact: damaged 10 + damaged 10 + infected 20 (Z-ZONE-05/06)
    assert (answer["mode"], answer["minutes"]) == ("sum_nonintact", 40)
    assert {"Z-REHAB-12", "A-Z-11"} <= set(answer["rule_ids"])
    shown = cli.json("--campaign", z, "campaign", "show")
    assert shown["params"]["rehab_mode"] == "sum_nonintact"


@pytest.mark.parametrize(
    ("mode", "minutes"),
    [("all_zones_L60", 90), ("additive_L77", 70)],
)
def test_switching_the_rehab_mode_changes_the_stay_as_documented(
    cli: Cli, mode: str, minutes: int
) -> None:
    z = patient(cli, "z", f"rehab_mode={mode}")  # params.yaml: 40 / 90 / 70
    assert stay(cli, z) == minutes


@pytest.mark.parametrize(
    ("params", "minutes"),
    [
        ((), 60),  # A-Z-12 multiply: (10 + 10 + 10) x 2, the infected zone not twice
        (("infection_rule=zone_20",), 60),  # every damaged zone 20
        (("rehab_mode=all_zones_L60",), 180),
    ],
)
def test_an_identified_infection_changes_the_stay_as_documented(
    cli: Cli, params: tuple[str, ...], minutes: int
) -> None:
    z = patient(cli, "z", *params, identified=True)  # Z-INF-05
    assert stay(cli, z) == minutes


def test_the_hospital_releases_at_arrival_plus_the_stay(cli: Cli) -> None:
    c = ("--campaign", patient(cli, "z"))
    cli.ok(*c, "act", "strike", "--character", "c1", "--weapon", "red_ribbon",
           "--at", "10:00", "--move-clock")
    early = cli(*c, "act", "arrive-hospital", "--patient", "c1", "--at", "10:03", "--move-clock")
    assert early.exit_code == RuleViolation.exit_code and "Z-HW-04" in early.stderr
    cli.ok(*c, "clock", "advance", "5m")
    cli.ok(*c, "act", "arrive-hospital", "--patient", "c1", "--at", "10:07", "--move-clock")
    out = cli.ok(
        *c, "act", "examine", "--patient", "c1", "--prescriptions", "lie down",
"--at", "10:08", "--move-clock"
    )
    assert "examined: 40 min, until 10:47:00" in out  # Z-REHAB-04, A-Z-31
    board = cli.json(*c, "query", "hospital-board")
    assert board["patients"][0]["release_at"] == "2026-06-13T10:47:00"
    refused = cli(*c, "act", "discharge", "--patient", "c1", "--payment", "work",
                  "--at", "10:46", "--move-clock")
    assert refused.exit_code == RuleViolation.exit_code and "Z-HOSP-05" in refused.stderr
    out = cli.ok(*c, "act", "discharge", "--patient", "c1", "--payment", "work",
                 "--at", "10:47", "--move-clock")
    assert "left the Hospital (rehabilitation)" in out  # Z-REHAB-11
    card = cli.json(*c, "character", "show", "c1")
    assert card["state"] == "healthy" and card["hits"] == 2


def test_the_stay_is_explained_in_russian(cli: Cli) -> None:
    z = patient(cli, "z")
    ru = Cli(cli.app, Path(str(cli.env["LAZARETTO_DB"])), lang="ru")
    out = ru.ok("--campaign", z, "query", "rehab-time", "--character", "c1")
    assert out.splitlines()[0] == "Vasya: 40 мин в Госпитале (сумма повреждённых зон)"
