"""Ruleset data files (core/datafile.py) and the ruleset registry (core/registry.py):
a broken file is refused naming the file, the line or field and the problem; every
bundled data file loads; rulesets are found through entry points."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from importlib.metadata import EntryPoint, entry_points
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field

from lazaretto.core import registry
from lazaretto.core.datafile import load_file_yaml, load_package_yaml, load_yaml, validate_data
from lazaretto.core.errors import DataFileError, InvalidInput, NotFound
from lazaretto.core.registry import get_ruleset, rulesets
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp.params import WarhammerParams

WARHAMMER_PACKAGE = "lazaretto.rulesets.warhammer_larp"


class Timing(BaseModel):
    model_config = ConfigDict(extra="forbid")

    minutes: int = Field(gt=0)
    label: str = "x"


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    timing: Timing


def bundled_params_text() -> str:
    return resources.files(WARHAMMER_PACKAGE).joinpath("params.yaml").read_text("utf-8")


# --- broken files ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("name: a\n\ttiming: 2\n", 2),  # a tab cannot start a token
        ("name: a\n  timing: 2\nx: 3\n", 2),  # mapping values not allowed here
        ("name: a\ntiming: [1, 2\nx: 3\n", 3),  # unclosed flow sequence
    ],
)
def test_broken_yaml_is_refused_naming_the_file_and_the_line(text: str, line: int) -> None:
    with pytest.raises(DataFileError) as info:
        load_yaml(text, Table, source="rulesets/demo/tables.yaml")
    err = info.value
    assert err.file == "rulesets/demo/tables.yaml"
    assert err.field.startswith(f"line {line}, column ")
    assert err.problem.startswith("not valid YAML")
    assert err.message.startswith("rulesets/demo/tables.yaml: field 'line ")


def test_a_broken_yaml_error_is_one_line_like_every_error_message() -> None:
    """LazarettoError: "message: English text, one line" — the CLI prints it as one line."""
    with pytest.raises(DataFileError) as info:
        load_yaml("name: a\ntiming: [1, 2\nx: 3\n", Table, source="tables.yaml")
    assert "\n" not in info.value.message
    assert "<unicode string>" not in info.value.message


def test_a_wrong_field_type_is_refused_naming_the_file_and_the_field() -> None:
    text = bundled_params_text().replace(
        "light_to_heavy_unbandaged_minutes: 30", "light_to_heavy_unbandaged_minutes: thirty"
    )
    with pytest.raises(DataFileError) as info:
        load_yaml(text, WarhammerParams, source="warhammer_larp/params.yaml")
    err = info.value
    assert err.file == "warhammer_larp/params.yaml"
    assert err.field == "light_to_heavy_unbandaged_minutes"
    assert "integer" in err.problem
    assert err.exit_code == 7


def test_a_wrong_nested_field_is_named_by_its_dotted_path() -> None:
    with pytest.raises(DataFileError) as info:
        load_yaml("name: a\ntiming:\n  minutes: 0\n", Table, source="t.yaml")
    assert info.value.field == "timing.minutes"
    assert "greater than 0" in info.value.problem


def test_a_missing_field_and_an_unknown_field_are_both_named() -> None:
    with pytest.raises(DataFileError) as missing:
        load_yaml("timing: {minutes: 3}\n", Table, source="t.yaml")
    assert (missing.value.field, missing.value.problem) == ("name", "Field required")
    with pytest.raises(DataFileError) as unknown:
        load_yaml("name: a\ntiming: {minutes: 3, colour: red}\n", Table, source="t.yaml")
    assert unknown.value.field == "timing.colour"


def test_a_file_that_is_not_a_mapping_is_refused_at_the_top_level() -> None:
    with pytest.raises(DataFileError) as info:
        load_yaml("- just\n- a list\n", Table, source="t.yaml")
    assert info.value.field == "(top level)"


def test_a_data_file_on_disk_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "overrides.yaml"
    path.write_text("name: a\ntiming:\n  minutes: -5\n", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_file_yaml(path, Table)
    assert (info.value.file, info.value.field) == (str(path), "timing.minutes")
    with pytest.raises(DataFileError) as absent:
        load_file_yaml(tmp_path / "absent.yaml", Table)
    assert absent.value.field == "(file)"
    assert "cannot read" in absent.value.problem


def test_a_valid_data_file_loads_into_its_model(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("name: ward\ntiming: {minutes: 10}\n", encoding="utf-8")
    assert load_file_yaml(path, Table) == Table(name="ward", timing=Timing(minutes=10))


# --- bundled data files ----------------------------------------------------------------


def test_the_bundled_warhammer_params_load_with_the_documented_defaults() -> None:
    p = load_package_yaml(WARHAMMER_PACKAGE, "params.yaml", WarhammerParams)
    assert p.light_to_heavy_unbandaged_minutes == 30  # W-WND-08
    assert p.heavy_death_unbandaged_minutes == 15  # W-WND-12
    assert p.timer_boundary_inclusive is False  # A-W-11
    assert "needle" in p.healer_kit


def _yaml_files(root: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for item in root.iterdir():
        if item.is_dir():
            yield from _yaml_files(item, f"{prefix}{item.name}/")
        elif item.name.endswith((".yaml", ".yml")):
            yield f"{prefix}{item.name}", item


def ruleset_entry_points() -> list[EntryPoint]:
    return list(entry_points(group=registry.GROUP))


@pytest.mark.parametrize("ep", ruleset_entry_points(), ids=lambda ep: ep.name)
def test_every_bundled_data_file_of_every_installed_ruleset_loads(ep: EntryPoint) -> None:
    rs = get_ruleset(ep.name)
    files = dict(_yaml_files(resources.files(ep.module)))
    assert "params.yaml" in files, f"{ep.module} ships no params.yaml"
    params = load_package_yaml(ep.module, "params.yaml", type(rs.params))
    assert params == rs.params
    for name, item in files.items():
        assert yaml.safe_load(item.read_text("utf-8")) is not None, f"{ep.module}/{name} is empty"


@pytest.mark.parametrize("rs", list(rulesets().values()), ids=lambda rs: rs.id)
def test_every_installed_ruleset_accepts_its_own_defaults_as_campaign_parameters(
    rs: Ruleset,
) -> None:
    assert rs.campaign_params({}) == rs.params
    assert rs.campaign_params(rs.params.model_dump()) == rs.params


# --- campaign parameter overrides ---------------------------------------------------------


def test_a_campaign_parameter_override_replaces_the_default() -> None:
    rs = get_ruleset("warhammer-larp")
    p = rs.campaign_params(
        {"light_to_heavy_unbandaged_minutes": 20, "timer_boundary_inclusive": True}
    )
    assert isinstance(p, WarhammerParams)
    assert p.light_to_heavy_unbandaged_minutes == 20
    assert p.timer_boundary_inclusive is True
    assert p.heavy_death_unbandaged_minutes == 15
    assert rs.params.light_to_heavy_unbandaged_minutes == 30  # type: ignore[attr-defined]


def test_an_unknown_campaign_parameter_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput) as info:
        get_ruleset("warhammer-larp").campaign_params({"bleed_minutes": 5})
    assert "'bleed_minutes'" in info.value.message


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"light_to_heavy_unbandaged_minutes": "soon"}, "light_to_heavy_unbandaged_minutes"),
        ({"light_to_heavy_unbandaged_minutes": 0}, "light_to_heavy_unbandaged_minutes"),
        ({"light_timer_anchor": "whenever"}, "light_timer_anchor"),
        ({"healer_kit": []}, "healer_kit"),
        ({"allowed": {"healthy": []}}, "allowed.light"),
    ],
)
def test_a_campaign_parameter_of_the_wrong_type_is_refused_by_name(
    overrides: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInput) as info:  # the user's input, not a broken data file
        get_ruleset("warhammer-larp").campaign_params(overrides)
    assert repr(field) in info.value.message


def test_validate_data_names_the_source_it_is_given() -> None:
    with pytest.raises(DataFileError) as info:
        validate_data({"name": 3, "timing": {"minutes": 1}}, Table, source="campaign x")
    assert (info.value.file, info.value.field) == ("campaign x", "name")


# --- the registry ------------------------------------------------------------------------------


def test_warhammer_larp_is_declared_as_an_entry_point_of_the_rulesets_group() -> None:
    eps = {ep.name: ep for ep in ruleset_entry_points()}
    assert "warhammer-larp" in eps
    assert eps["warhammer-larp"].load() is get_ruleset("warhammer-larp")


def test_the_registry_finds_warhammer_larp_with_its_actions() -> None:
    rs = get_ruleset("warhammer-larp")
    assert rs.id == "warhammer-larp"
    assert rs.documents == ("000",)
    assert "lose-hits" in rs.actions
    assert "warhammer-larp" in rulesets()
    assert list(rulesets()) == sorted(rulesets())


def test_an_unknown_ruleset_is_not_found_and_the_installed_ones_are_listed() -> None:
    with pytest.raises(NotFound) as info:
        get_ruleset("chess")
    assert "'chess'" in info.value.message
    assert "warhammer-larp" in info.value.message
    assert info.value.exit_code == 4


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    rulesets.cache_clear()
    yield
    rulesets.cache_clear()


def test_an_entry_point_that_is_not_a_ruleset_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    bogus = EntryPoint(name="bogus", value="lazaretto.core.errors:NotFound", group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [bogus])
    with pytest.raises(DataFileError) as info:
        rulesets()
    assert info.value.file == "lazaretto.core.errors:NotFound"
