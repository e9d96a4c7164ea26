"""Fuzzing the ruleset data loader (core/datafile.py) and campaign parameters: every
installed ruleset's own params.yaml, mutated (wrong types, missing and unknown keys,
huge numbers, deep nesting, broken text, bytes that are not UTF-8), either loads into
its model or is refused with a DataFileError (an InvalidInput for campaign overrides)
naming the file and the field in one line, never any other exception."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from lazaretto.core.datafile import load_file_yaml, load_yaml, validate_data
from lazaretto.core.errors import DataFileError, InvalidInput
from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import Ruleset

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULESETS = sorted(rulesets().values(), key=lambda rs: rs.id)
SOURCE = "fuzz/params.yaml"


def bundled_text(rs: Ruleset) -> str:
    module = type(rs.params).__module__.rsplit(".", 1)[0]
    return resources.files(module).joinpath("params.yaml").read_text("utf-8")


TEXTS = {rs.id: bundled_text(rs) for rs in RULESETS}
DATA = {rs.id: yaml.safe_load(TEXTS[rs.id]) for rs in RULESETS}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(10**18, 10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def refused_well(err: DataFileError | InvalidInput, source: str | None = None) -> None:
    """A refusal a person can act on: one line, naming the file (and a field)."""
    assert err.message and "\n" not in err.message
    if isinstance(err, DataFileError):
        assert err.file == (source or err.file) and err.field
        assert err.message.startswith(f"{err.file}: field ")


def load(text: str, model: type[BaseModel]) -> None:
    try:
        loaded = load_yaml(text, model, source=SOURCE)
    except DataFileError as err:
        refused_well(err, SOURCE)
    else:
        assert isinstance(loaded, model)


@st.composite
def mutated(draw: st.DrawFn, rs_id: str) -> dict[str, Any]:
    """The ruleset's parameters with one key deleted, replaced or added, at any depth."""
    data = yaml.safe_load(TEXTS[rs_id])  # a fresh copy
    node: Any = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            node = child
            continue
        how = draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "replace":
            node[key] = draw(values)
        elif how == "delete" and isinstance(node, dict):
            del node[key]
        elif isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=12))] = draw(values)
        else:
            node.append(draw(values))
        break
    return data  # type: ignore[no-any-return]


@FUZZ
@given(data=st.data(), rs=st.sampled_from(RULESETS))
def test_mutated_parameters_load_or_are_refused_by_field(data: st.DataObject, rs: Ruleset) -> None:
    params = data.draw(mutated(rs.id))
    model = type(rs.params)
    load(yaml.safe_dump(params, allow_unicode=True), model)
    try:
        validate_data(params, model, source=SOURCE)
    except DataFileError as err:
        refused_well(err, SOURCE)
    if isinstance(params, dict):  # as campaign overrides, the way they are stored: JSON
        stored = json.loads(json.dumps(params, default=str))
        overrides = {k: v for k, v in stored.items() if k in model.model_fields}
        try:
            rs.campaign_params(overrides)
        except InvalidInput as err:
            refused_well(err)


EDITS: list[Callable[[str, int, str], str]] = [
    lambda text, at, junk: text[:at] + junk + text[at:],  # insert
    lambda text, at, junk: text[:at] + text[at + len(junk) :],  # delete
    lambda text, at, junk: text[:at] + junk + text[at + len(junk) :],  # overwrite
    lambda text, at, junk: text[:at],  # truncate
]
junk = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\t", ": ", "- ", "[", "]", "{", "}", "&a ", "*a", "!!python/name:os", "\x00",
                     "\ufeff", "? ", "|\n", "'", '"', "#", "\n  \n"]),
    st.integers(1, 9000).map(lambda n: "9" * n),  # past int()'s 4300-digit limit too
    st.integers(1, 6000).map(lambda n: "[" * n + "]" * n),  # deeper than Python's stack
    st.integers(1, 6000).map(lambda n: "{a: " * n + "1" + "}" * n),
)


@FUZZ
@given(rs=st.sampled_from(RULESETS), edit=st.sampled_from(EDITS), where=st.floats(0, 1),
       piece=junk)
def test_edited_params_text_loads_or_is_refused_naming_where(
    rs: Ruleset, edit: Callable[[str, int, str], str], where: float, piece: str
) -> None:
    text = TEXTS[rs.id]
    load(edit(text, int(where * len(text)), piece), type(rs.params))


@FUZZ
@given(rs=st.sampled_from(RULESETS), where=st.floats(0, 1), raw=st.binary(min_size=1, max_size=8))
def test_a_params_file_with_any_bytes_loads_or_is_refused_naming_the_file(
    rs: Ruleset, where: float, raw: bytes
) -> None:
    body = TEXTS[rs.id].encode()
    at = int(where * len(body))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "params.yaml"
        path.write_bytes(body[:at] + raw + body[at:])
        try:
            loaded = load_file_yaml(path, type(rs.params))
        except DataFileError as err:
            refused_well(err, str(path))
        else:
            assert isinstance(loaded, type(rs.params))


def test_the_loader_names_the_problems_it_used_to_crash_on(tmp_path: Path) -> None:
    """Found by the fuzzers above: each was a ValueError, RecursionError or
    UnicodeDecodeError instead of a DataFileError."""
    model = type(RULESETS[0].params)
    cases = {
        "x: " + "9" * 5000: "integer string conversion",
        "x: " + "[" * 5000 + "]" * 5000: "nested too deeply",
    }
    for text, problem in cases.items():
        try:
            load_yaml(text, model, source=SOURCE)
        except DataFileError as err:
            assert problem in err.problem and err.field == "(syntax)"
        else:
            raise AssertionError(problem)
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: Grüne Pest\n".encode("latin-1"))
    try:
        load_file_yaml(path, model)
    except DataFileError as err:
        assert (err.field, err.problem) == ("(file)", "not UTF-8 text: byte 0xfc at offset 8")
    else:
        raise AssertionError("latin-1 accepted")


def test_campaign_overrides_with_keys_of_mixed_types_are_refused_by_field() -> None:
    """``--param location_map={1: head, x: arms}`` on the command line (YAML) gives a map
    with int and str keys: refused naming the parameter, not a TypeError from sorting."""
    rs = rulesets()["dnd5e-injuries"]
    try:
        rs.campaign_params({"location_map": {1: "head", "x": "arms"}})
    except InvalidInput as err:
        assert "location_map" in err.message
