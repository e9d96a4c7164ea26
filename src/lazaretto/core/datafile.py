"""Loading ruleset data files (YAML) into validated Pydantic models.

A broken file is refused at start-up naming the file, the field and the problem.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from lazaretto.core.errors import DataFileError

M = TypeVar("M", bound=BaseModel)


def validate_data(data: Any, model: type[M], *, source: str) -> M:
    """Validate already-parsed data against ``model``; errors name ``source`` and the field."""
    try:
        return model.model_validate(data)
    except RecursionError as exc:
        raise DataFileError(source, "(top level)", "nested too deeply") from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise DataFileError(source, field, err["msg"]) from exc


def load_yaml(text: str, model: type[M], *, source: str) -> M:
    """Parse YAML ``text`` and validate it as ``model``."""
    try:
        data = yaml.safe_load(text)
    except RecursionError as exc:
        raise DataFileError(source, "(syntax)", "not valid YAML: nested too deeply") from exc
    except ValueError as exc:  # an integer of thousands of digits: int() refuses it
        problem = str(exc).split(":", 1)[0]
        raise DataFileError(source, "(syntax)", f"not valid YAML: {problem}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = (
            f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "(syntax)"
        )
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataFileError(source, where, f"not valid YAML: {problem}") from exc
    return validate_data(data, model, source=source)


def load_package_yaml(package: str, name: str, model: type[M]) -> M:
    """Load a YAML data file shipped inside ``package``.

    Our own files are parsed with libyaml when PyYAML has it (several times faster, and
    every command that opens a campaign pays for its ruleset's tables); files from
    outside keep the pure-Python parser, which refuses runaway nesting cleanly.
    """
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    source = f"{package.replace('.', '/')}/{name}"
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is None:
        return load_yaml(text, model, source=source)
    try:
        data = yaml.load(text, Loader=fast)
    except yaml.YAMLError:
        return load_yaml(text, model, source=source)  # the same error, told the usual way
    return validate_data(data, model, source=source)


def load_file_yaml(path: Path, model: type[M]) -> M:
    """Load a YAML data file from disk (e.g. a campaign's parameter overrides)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(str(path), "(file)", f"cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        problem = f"not UTF-8 text: byte {exc.object[exc.start]:#04x} at offset {exc.start}"
        raise DataFileError(str(path), "(file)", problem) from exc
    return load_yaml(text, model, source=str(path))
