"""Every action's and query's input refuses a field it does not declare, nested models'
too, although a bundled ruleset's models are built on first use rather than when
declared (issue 17: ``core/registry.py``, ``core/ruleset.py``). Checked in a fresh
interpreter, where nothing has been built before: first each nested model through the
input holding it, then every model on its own. A ``TypeAdapter`` of an input (FastAPI's
request body) and a model declared after loading are built when made, as before."""

from __future__ import annotations

import subprocess
import sys

_CHECK = """
from pydantic import BaseModel, TypeAdapter, ValidationError

from lazaretto.core.registry import rulesets
from lazaretto.core.ruleset import _models_in

def refusals(model, data):
    try:
        model.model_validate(data)
    except ValidationError as exc:
        return [e["loc"] for e in exc.errors() if e["type"] == "extra_forbidden"]
    return []

first = next(iter(next(iter(rulesets().values())).actions.values())).input
adapted = TypeAdapter(first).pydantic_complete  # FastAPI's body: built when made

checked, wrong = 0, []
models = {}
for rs in rulesets().values():
    for spec in [*rs.actions.values(), *rs.queries.values()]:
        models[spec.input] = f"{rs.id} {spec.name}"
        for name, info in spec.input.model_fields.items():
            for inner in _models_in(info.annotation):
                models[inner] = f"{rs.id} {spec.name} {name}"
                data = {name: [{"no_such_field": 1}] if "list" in str(info.annotation)
                        else {"no_such_field": 1}}
                if not any(loc[0] == name and loc[-1] == "no_such_field"
                           for loc in refusals(spec.input, data)):
                    wrong.append(f"{rs.id} {spec.name}.{name}")
                checked += 1
for model, where in models.items():
    if ("no_such_field",) not in refusals(model, {"no_such_field": 1}):
        wrong.append(where)
    checked += 1

class Later(BaseModel):
    x: int

print("CHECKED", checked, "WRONG", wrong, "BUILT", adapted, Later.__pydantic_complete__)
"""


def test_every_input_refuses_an_unknown_field_nested_ones_too() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHECK], capture_output=True, text=True, check=True
    )
    line = [x for x in done.stdout.splitlines() if x.startswith("CHECKED")][-1]
    assert line.endswith("WRONG [] BUILT True True"), line
    assert int(line.split()[1]) > 200  # every ruleset's inputs and the nested models
