"""Reading scenario files: YAML parsed, validated, refused with the file and the field.

A scenario is validated at the edge, like a ruleset's data file: an unknown key, a bad
dice expression, a ruleset parameter the ruleset does not have, is a
:class:`~lazaretto.core.errors.DataFileError` naming the file and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from lazaretto.core.errors import DataFileError, LazarettoError
from lazaretto.sim.scenario import (
    RULESETS,
    DiseaseSpec,
    EpidemicScenario,
    Scenario,
    WeekendScenario,
    ruleset_id,
)

KINDS = tuple(RULESETS)
_ADAPTER: TypeAdapter[Scenario] = TypeAdapter(Scenario)


def validate_scenario(data: Any, *, source: str) -> Scenario:
    """Validate parsed YAML as a scenario; DataFileError names ``source`` and the field."""
    if not isinstance(data, dict):
        raise DataFileError(source, "(top level)", "a scenario is a mapping with a 'kind'")
    if "kind" not in data:
        raise DataFileError(source, "kind", f"missing: one of {', '.join(KINDS)}")
    try:
        scenario = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(p) for p in err["loc"]]
        if loc and loc[0] in KINDS:  # the union's tag is not part of the user's path
            loc = loc[1:]
        if err["type"] == "union_tag_invalid":
            loc = ["kind"]
        raise DataFileError(source, ".".join(loc) or "(top level)", err["msg"]) from exc
    _check_params(scenario, source)
    if isinstance(scenario, EpidemicScenario | WeekendScenario):
        _check_disease(scenario.disease, source)
    return scenario


def _check_params(scenario: Scenario, source: str) -> None:
    from lazaretto.core.registry import get_ruleset

    if scenario.kind == "travel" and scenario.params.get("check_resolver", "band_table") != (
        "band_table"
    ):
        raise DataFileError(
            source,
            "params.check_resolver",
            "a simulation rolls every check: only band_table can be used",
        )
    try:
        get_ruleset(ruleset_id(scenario)).campaign_params(scenario.params)
    except LazarettoError as exc:
        raise DataFileError(source, "params", exc.message) from exc


def _check_disease(d: DiseaseSpec, source: str) -> None:
    if d.lethal and d.minutes_to_death is None:
        raise DataFileError(source, "disease.minutes_to_death", "a lethal disease needs it")
    if len(d.course) != 6:
        raise DataFileError(source, "disease.course", f"six items, not {len(d.course)}")


def load_yaml_text(text: str, *, source: str) -> Any:
    """Parse YAML; a syntax error names the line and column."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(syntax)"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataFileError(source, where, f"not valid YAML: {problem}") from exc


def read_yaml(path: Path) -> Any:
    """Read and parse a YAML file; DataFileError if it cannot be read or parsed."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(str(path), "(file)", f"cannot read: {exc.strerror}") from exc
    return load_yaml_text(text, source=str(path))


def load_scenario(path: Path) -> Scenario:
    """Load and validate a scenario file."""
    return validate_scenario(read_yaml(path), source=str(path))
