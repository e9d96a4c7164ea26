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


def _imported(tmp_path: Any, *args: str, **extra_env: str) -> set[str]:
    """The modules a fresh ``lazaretto ARGS`` process imported."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "LAZARETTO_DB": str(tmp_path / "i.db"), "LAZARETTO_LANG": "en"}
    env.pop("LAZARETTO_CAMPAIGN", None)
    env.update(extra_env)
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


def test_timers_on_sqlite_start_without_the_database_library_or_the_web(tmp_path: Any) -> None:
    """Issue 17: ``timers`` and ``character show`` on an SQLite campaign (a realtime
    one, its countdown not yet due) read the database with the standard library: no
    SQLAlchemy, Alembic, FastAPI or Matplotlib, no service layer but the layout of the
    state's parts (shared, ``service/state_layout.py``), and the campaign's ruleset
    only; turned off (``LAZARETTO_FASTREAD=0``) they go through the service.
    An action is recorded likewise (``cli/fastwrite.py``): no SQLAlchemy, no service
    but its pure modules, no Rich (it prints lines); turned off
    (``LAZARETTO_FASTWRITE=0``) it needs the service and SQLAlchemy, but not Alembic
    (the schema is at the newest migration), Rich, the web or another ruleset."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "LAZARETTO_DB": str(tmp_path / "i.db"), "LAZARETTO_LANG": "en"}
    env.pop("LAZARETTO_CAMPAIGN", None)
    for args in (
        ["campaign", "create", "z", "--ruleset", "warhammer-larp", "--clock", "realtime"],
        ["character", "add", "R", "--name", "Rustam"],
        ["act", "lose-hits", "--character", "R", "--hits", "1", "--location", "arm"],
    ):
        subprocess.run([sys.executable, "-c", _IMPORTS, *args], env=env, check=True,
                       capture_output=True)
    heavy = ["sqlalchemy", "alembic", "fastapi", "matplotlib", "lazaretto.service",
             "lazaretto.store"]
    for args in (["timers"], ["character", "show", "R"]):
        fast = _imported(tmp_path, *args)
        assert "lazaretto.cli.fastread" in fast, args
        assert [p for p in heavy if _has(fast, p)] == ["lazaretto.service"], args
        assert {m for m in fast if m.startswith("lazaretto.service")} == {
            "lazaretto.service", "lazaretto.service.state_layout"  # the parts' layout only
        }, args
        loaded = {m.split(".")[2] for m in fast if m.startswith("lazaretto.rulesets.")}
        assert loaded == {"warhammer_larp"}, args
        slow = _imported(tmp_path, *args, LAZARETTO_FASTREAD="0")
        assert _has(slow, "sqlalchemy") and _has(slow, "lazaretto.service"), args
    acted = _imported(tmp_path, "act", "lose-hits", "--character", "R", "--hits", "1")
    assert "lazaretto.cli.fastwrite" in acted  # recorded without SQLAlchemy (cli/fastwrite.py)
    assert [p for p in [*heavy, "rich"] if _has(acted, p)] == [
        "lazaretto.service"  # its pure modules only: the rows and the layout
    ]
    assert {m for m in acted if m.startswith("lazaretto.service")} == {
        "lazaretto.service", "lazaretto.service.placing", "lazaretto.service.rows",
        "lazaretto.service.state_layout",
    }
    slow = _imported(tmp_path, "act", "lose-hits", "--character", "R", "--hits", "1",
                     LAZARETTO_FASTWRITE="0")
    assert "lazaretto.service.campaigns" in slow and _has(slow, "sqlalchemy")
    assert [p for p in ("alembic", "rich", "fastapi", "matplotlib") if _has(slow, p)] == []
    assert {m.split(".")[2] for m in acted if m.startswith("lazaretto.rulesets.")} == {
        "warhammer_larp"
    }


def test_the_read_paths_copies_agree_with_the_service(tmp_path: Any, monkeypatch: Any) -> None:
    """``cli/fastread.py`` cannot import the service's modules (they import SQLAlchemy),
    so it keeps its own copies of what it needs from them; they must agree: the newest
    migration, the database file a ``--db`` or ``LAZARETTO_DB`` value names (and None
    for what is not an SQLite file)."""
    from lazaretto.cli import fastread
    from lazaretto.service import state_layout
    from lazaretto.store.db import HEAD_REVISION, database_url

    assert fastread.GLOBAL == state_layout.GLOBAL
    for rs in RULESETS:
        assert "characters" in state_layout.split_fields(rs.state_model), rs.id
    assert fastread.head_revision() == HEAD_REVISION
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    for xdg in (None, str(tmp_path / "xdg")):
        if xdg is None:
            monkeypatch.delenv("XDG_DATA_HOME", raising=False)
        else:
            monkeypatch.setenv("XDG_DATA_HOME", xdg)
        monkeypatch.delenv("LAZARETTO_DB", raising=False)
        for db in (None, "plain.db", "~/games/l.db", str(tmp_path / "abs.db"),
                   "sqlite:///rel.db", f"sqlite:///{tmp_path}/url.db"):
            expected = database_url(db).removeprefix("sqlite:///")
            assert fastread.sqlite_path(db) == expected, db
        monkeypatch.setenv("LAZARETTO_DB", "from-env.db")
        assert fastread.sqlite_path(None) == database_url(None).removeprefix("sqlite:///")
    for other in ("postgresql://u@localhost/lazaretto", "sqlite://", "sqlite:///a.db?mode=ro",
                  "sqlite:///a%20b.db", "sqlite+pysqlite:///a.db"):
        assert fastread.sqlite_path(other) is None, other
        assert fastread.open_reader(other) is None, other


def test_the_bundled_rulesets_are_found_by_module_as_by_entry_point() -> None:
    """The registry finds a bundled ruleset by module (no scan of every package's
    metadata); the entry points of pyproject.toml name the same modules, and both ways
    give the same ruleset."""
    from importlib.metadata import entry_points

    from lazaretto.core import registry

    ours = {ep.name: ep for ep in entry_points(group=registry.GROUP)
            if ep.module.startswith("lazaretto.rulesets.")}
    assert {name: (ep.module, ep.attr) for name, ep in ours.items()} == {
        name: (module, "RULESET") for name, module in registry.BUILTIN.items()
    }
    for name, ep in ours.items():
        assert registry.get_ruleset(name) is ep.load() is registry.rulesets()[name]
        assert registry.get_ruleset(name).id == name


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
