"""Coverage-guided fuzzing of the ruleset data loader (atheris / libFuzzer).

Any bytes, as a ruleset's params.yaml, load into its parameter model or are refused
with a one-line DataFileError naming the file; anything else is a crash. The fuzzer
starts from the bundled files when given no corpus. Run by hand::

    .venv/bin/python fuzz/atheris_datafile.py -atheris_runs=100000 [corpus-folder]

tests/fuzz/test_atheris_harnesses.py runs it briefly in CI.
"""

from __future__ import annotations

import sys
import tempfile
from importlib import resources
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["lazaretto", "yaml"]):  # yaml: guide into its parser
    from lazaretto.core.datafile import load_file_yaml
    from lazaretto.core.errors import DataFileError
    from lazaretto.core.registry import rulesets

MODELS = [type(rs.params) for rs in sorted(rulesets().values(), key=lambda rs: rs.id)]
FOLDER = Path(tempfile.mkdtemp(prefix="lazaretto-fuzz-"))


def test_one_input(data: bytes) -> None:
    """Write the bytes as a data file and load it as one ruleset's parameters."""
    if not data:
        return
    model = MODELS[data[0] % len(MODELS)]
    path = FOLDER / "params.yaml"
    path.write_bytes(data[1:])
    try:
        loaded = load_file_yaml(path, model)
    except DataFileError as err:
        if err.file != str(path) or "\n" in err.message:
            raise AssertionError(f"badly named refusal: {err.message!r}") from err
        return
    if not isinstance(loaded, model):
        raise AssertionError(f"loaded {type(loaded).__name__}, not {model.__name__}")


def seeds() -> list[bytes]:
    """The bundled params.yaml files, each prefixed with the index of its model."""
    out = []
    for index, rs in enumerate(sorted(rulesets().values(), key=lambda rs: rs.id)):
        module = type(rs.params).__module__.rsplit(".", 1)[0]
        text = resources.files(module).joinpath("params.yaml").read_bytes()
        out.append(bytes([index]) + text)
    return out


def main() -> None:
    args = list(sys.argv)
    if not any(not a.startswith("-") for a in args[1:]):  # no corpus given: seed one
        corpus = FOLDER / "corpus"
        corpus.mkdir()
        for i, seed in enumerate(seeds()):
            (corpus / f"seed-{i}").write_bytes(seed)
        args.append(str(corpus))
    atheris.Setup(args, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
