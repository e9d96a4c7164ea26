"""Tests about the codebase: every action and query is reachable from the CLI and the
API (the pages' forms are checked in tests/e2e/test_web_pages.py); rulesets sharing an
action or query name agree on its fields; every declaration has help in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from lazaretto.api.app import create_app
from lazaretto.core.registry import rulesets
from lazaretto.store.db import Database

RULESETS = list(rulesets().values())


def _shared(kind: str) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for rs in RULESETS:
        for name, spec in (rs.actions if kind == "actions" else rs.queries).items():
            found.setdefault(name, []).append(spec)
    return found


@pytest.mark.parametrize("kind", ["actions", "queries"])
def test_rulesets_that_share_a_name_agree_on_every_shared_field(kind: str) -> None:
    for name, specs in _shared(kind).items():
        fields: dict[str, Any] = {}
        for spec in specs:
            for field, info in spec.input.model_fields.items():
                seen = fields.setdefault(field, info.annotation)
                assert seen == info.annotation, (kind, name, field, seen, info.annotation)


@pytest.mark.parametrize("rs", RULESETS, ids=lambda r: r.id)
def test_every_action_and_query_has_a_cli_command(rs: Any) -> None:
    from lazaretto.cli import actions

    for kind, specs in (("act", rs.actions), ("query", rs.queries)):
        offered = actions._offered([rs], kind)
        assert set(offered) == set(specs), kind
        for name, same in offered.items():
            command = actions._build(kind, name, same)
            options = {o for p in command.params for o in p.opts}
            fields = {"--" + f.replace("_", "-") for f in specs[name].input.model_fields}
            assert fields <= options, (kind, name, fields - options)


def test_every_top_level_command_is_registered_by_its_module() -> None:
    from lazaretto.cli.app import COMMANDS, load_command

    for name in COMMANDS:
        assert load_command(name).name == name


_IMPORTS = """
import sys
from lazaretto.cli.app import main
sys.argv = ["lazaretto", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print("MODULES", " ".join(sorted(sys.modules)))
"""


def _imported(tmp_path: Any, *args: str) -> set[str]:
    """The modules a fresh ``lazaretto ARGS`` process imported."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "LAZARETTO_DB": str(tmp_path / "i.db"), "LAZARETTO_LANG": "en"}
    env.pop("LAZARETTO_CAMPAIGN", None)
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS, *args], env=env, capture_output=True, text=True
    )
    line = [x for x in done.stdout.splitlines() if x.startswith("MODULES ")][-1]
    return set(line.split()[1:])


def _has(modules: set[str], package: str) -> bool:
    return any(m == package or m.startswith(package + ".") for m in modules)


def test_roll_and_help_start_without_the_database_web_or_plotting(tmp_path: Any) -> None:
    """Issue 17: a roll or the help imports no SQLAlchemy, FastAPI, Matplotlib, NumPy,
    service layer or ruleset; the help imports no command module either."""
    heavy = [
        "sqlalchemy",
        "fastapi",
        "matplotlib",
        "numpy",
        "dask",
        "lazaretto.service",
        "lazaretto.rulesets",
        "lazaretto.store",
    ]
    roll = _imported(tmp_path, "roll", "4d6kh3", "--seed", "1")
    assert "lazaretto.core.dice" in roll
    assert [p for p in heavy if _has(roll, p)] == []
    helped = _imported(tmp_path, "--help")
    assert [p for p in heavy if _has(helped, p)] == []
    assert not any(m.startswith("lazaretto.cli.cmd_") for m in helped)


def test_a_campaign_command_imports_only_the_campaigns_ruleset(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys

    db = tmp_path / "i.db"
    env = {**os.environ, "LAZARETTO_DB": str(db)}
    subprocess.run(
        [sys.executable, "-c", _IMPORTS, "campaign", "create", "z", "--ruleset", "zone-larp"],
        env=env,
        check=True,
        capture_output=True,
    )
    for args in (["timers"], ["act", "--help"], ["act", "apply-kit", "--help"]):
        modules = _imported(tmp_path, *args)
        loaded = {m.split(".")[2] for m in modules if m.startswith("lazaretto.rulesets.")}
        assert loaded == {"zone_larp"}, (args, loaded)
        assert not _has(modules, "fastapi") and not _has(modules, "matplotlib"), args


def test_every_action_and_query_has_an_api_endpoint(tmp_path: Any) -> None:
    app = create_app(Database(f"sqlite:///{tmp_path / 'c.db'}"), ticker=False)
    paths = set(app.openapi()["paths"])
    for name in _shared("actions"):
        assert f"/api/campaigns/{{campaign}}/actions/{name}" in paths, name
    for name in _shared("queries"):
        assert f"/api/campaigns/{{campaign}}/queries/{name}" in paths, name


@pytest.mark.parametrize("rs", RULESETS, ids=lambda r: r.id)
def test_every_ruleset_describes_its_actions_in_both_languages(rs: Any) -> None:
    for spec in [*rs.actions.values(), *rs.queries.values()]:
        assert spec.summary_en and spec.summary_ru, spec.name
        assert spec.summary_en != spec.summary_ru or not spec.summary_en.isascii(), spec.name
