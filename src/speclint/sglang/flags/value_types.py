"""Values of flags whose argparse `type` is one of SGLang's own functions, converted as that
function converts them (`human_readable_int`: `--context-length 32k`, `--max-total-tokens 1Mi`;
`nullable_str`: `--quantization-param-path None`; `parse_cuda_graph_backend_arg`: 0.5.22+
`--cuda-graph-backend-decode tc_piecewise`; `parse_cuda_graph_config_arg`: 0.5.14+
`--cuda-graph-config '{"decode": {...}}'`, whose phases and keys are the release's own).

Which flags of which release use it, and that the release's function converts every value of a
battery (digits, SI and IEC suffixes, decimals, signs, spaces, other scripts' digits, words) to
the value or the error message this module gives, is read from each release's own source by
tools/gen_sglang_value_types.py (`data/sglang_value_types.json`; the function is run there, on
its own, never here). A release whose function was not verified so is not converted here: its
values stay as written, neither accepted as numbers nor refused.
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing imports `re`, which the shell lint path does not load)
    from typing import Any

_FILE = LineData(
    os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "sglang_value_types.json"
    )
)

CONVERTED = (
    "human_readable_int",
    "json_list_type",
    "nullable_str",
    "parse_cuda_graph_backend_arg",
    "parse_cuda_graph_config_arg",
)
"""The functions converted here (the generator records others as `unverified:NAME`)."""

ORJSON = "json_list_type:orjson"
"""The row key of `json_list_type` where the release's reads JSON with `orjson.loads` (0.5.3.post1+),
not `json.loads` (0.5.3): both convert as `json_list` does, each with its own reader."""

_SI = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
_IEC = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}


@lru_cache(maxsize=32)
def converted_dests(version: str) -> dict[str, str]:
    """dest -> the name of SGLang's function that converts it, for the functions of `version`
    verified by the generator (empty for a release without such flags, or not read)."""
    row = _FILE.row(version)
    if not isinstance(row, dict):
        return {}
    return {
        str(dest): name
        for name, index in row.items()
        if name in CONVERTED or name == ORJSON
        for dest in _FILE.shared(index)
    }


def convert(version: str, dest: str, raw: str) -> tuple[object, str | None] | None:
    """(value, None) or (None, the error argparse prints) for a flag of `version` whose type is a
    verified function of SGLang's; None for any other flag (its value is not converted here)."""
    name = converted_dests(version).get(dest)
    return None if name is None else convert_with(name, raw, config_schema(version))


@lru_cache(maxsize=32)  # (asked by every launch's resolution: `resolve.checks`)
def config_schema(version: str) -> dict[str, Any] | None:
    """`version`'s `--cuda-graph-config` phases and keys as the generator read them (`phases`:
    `Phase.ALL`; `keys`: `ALLOWED_KEYS_PER_PHASE`; `backend`: whether a phase's `backend` is
    checked by `parse_cuda_graph_backend_arg`), None where not verified."""
    row = _FILE.row(version)
    index = row.get(SCHEMA_KEY) if isinstance(row, dict) else None
    found = _FILE.shared(index) if index is not None else None
    return found if isinstance(found, dict) else None


SCHEMA_KEY = "parse_cuda_graph_config_arg:schema"
"""The row key of the release's `--cuda-graph-config` phases and keys."""


def convert_with(name: str, raw: str, schema: dict[str, Any] | None = None) -> tuple[object, str | None]:
    """`raw` converted as SGLang's function `name` (one of CONVERTED) converts it (`schema`: the
    release's `config_schema`, for `parse_cuda_graph_config_arg`)."""
    if name == "nullable_str":  # (`not val or val == "None"`: None; else the text itself)
        return (None if not raw or raw == "None" else raw), None
    if name == "parse_cuda_graph_backend_arg":
        return backend_arg(raw)
    if name == "parse_cuda_graph_config_arg":
        assert schema is not None, name
        return cuda_graph_config(raw, schema)
    if name in ("json_list_type", ORJSON):
        return json_list(raw, name == ORJSON)
    assert name == "human_readable_int", name
    return human_readable_int(raw)


def backend_arg(raw: object) -> tuple[object, str | None]:
    """SGLang's `parse_cuda_graph_backend_arg` (0.5.22+): the retired `tc_piecewise` refused
    (before argparse checks the choices), any other value as written."""
    if raw == "tc_piecewise":
        return None, "tc_piecewise was removed; select breakable, full, or disabled"
    return raw, None


def cuda_graph_config(raw: str, schema: dict[str, Any]) -> tuple[object, str | None]:
    """SGLang's `parse_cuda_graph_config_arg` (0.5.14+): a JSON object of phase -> settings
    object, each phase one of the release's and each key one it allows there; else the
    `ArgumentTypeError` message it raises (reading JSON is not running the launch's content)."""
    import json

    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as error:
        return None, f"--cuda-graph-config must be JSON: {error}"
    if not isinstance(parsed, dict):
        return None, f"--cuda-graph-config must be a JSON object, got {type(parsed).__name__}"
    phases = tuple(schema["phases"])
    result: dict[str, dict[str, object]] = {}
    for phase, settings in parsed.items():
        if phase not in phases:
            return None, f"--cuda-graph-config: unknown phase '{phase}', expected one of {phases}"
        if not isinstance(settings, dict):
            return None, (
                f"--cuda-graph-config['{phase}'] must be a JSON object, got {type(settings).__name__}"
            )
        if schema.get("backend") and "backend" in settings:
            refused = backend_arg(settings["backend"])[1]
            if refused:
                return None, refused
        allowed = tuple(schema["keys"][phase])
        result[phase] = {}
        for key, value in settings.items():
            if key not in allowed:
                return None, (
                    f"--cuda-graph-config['{phase}']: unknown key '{key}', expected one of {allowed}"
                )
            result[phase][key] = value
    return result, None


def json_list(raw: str, orjson: bool) -> tuple[object, str | None]:
    """SGLang's `json_list_type` (0.5.3-0.5.4: `--piecewise-cuda-graph-tokens`,
    `--remote-instance-weight-loader-send-weights-group-ports`): any JSON value (a list is
    meant, none is asked for), else the `ArgumentTypeError` it raises. `orjson`: the release
    reads it with `orjson.loads`, which refuses NaN, Infinity, a float beyond the double's range
    and a lone surrogate, and reads an integer outside [-2**63, 2**64) as a float (what
    `json.loads` differs in on the generator's battery). Reading JSON is not running the
    launch's content."""
    import json

    refused = f"Invalid JSON list: {raw}. Please provide a valid JSON list."

    def constant(name: str) -> object:
        raise ValueError(name)

    def number(text: str) -> float:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise ValueError(text)
        return value

    def integer(text: str) -> int | float:
        value = int(text)
        return value if -(2**63) <= value < 2**64 else float(value)

    try:
        if not orjson:
            return json.loads(raw), None
        value = json.loads(raw, parse_constant=constant, parse_float=number, parse_int=integer)
    except json.JSONDecodeError:
        return None, refused
    except ValueError:  # (orjson's refusals above: a JSONDecodeError there)
        return None, refused
    return (None, refused) if _surrogate(value) else (value, None)


def _surrogate(value: object) -> bool:
    """Whether a string of `value` (a key, an item) holds a lone surrogate (`"\\ud800"`)."""
    if isinstance(value, str):
        return any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, list):
        return any(_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(_surrogate(key) or _surrogate(item) for key, item in value.items())
    return False


def human_readable_int(written: str) -> tuple[int | None, str | None]:
    """SGLang's `human_readable_int` (sglang/srt/utils/common.py, 0.5.10+): an integer, or a
    number with an SI (`k`, `M`, `G`, `T`; decimals allowed) or IEC (`Ki`...`Ti`) suffix,
    case-sensitive; else the `ArgumentTypeError` message it raises."""
    from decimal import Decimal

    import speclint.core.patterns as patterns

    value = written.strip()
    match = patterns.compile(r"(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)").fullmatch(value)
    if match:
        number, suffix = match.groups()
        if suffix in _IEC:
            if "." in number:
                return None, (
                    f"Decimals are not allowed with IEC suffixes like '{suffix}'. "
                    f"Use an integer IEC value such as '{int(Decimal(number))}{suffix}', "
                    f"or an SI value such as '{number}{suffix[0]}'."
                )
            return int(number) * _IEC[suffix], None
        return int(Decimal(number) * _SI[suffix]), None
    try:
        return int(value), None
    except ValueError:
        return None, (
            f"Invalid integer value: '{value}'. "
            "Use a plain integer, SI suffixes (1k, 1M), or IEC suffixes (1Ki, 1Mi). "
            "Suffixes are case-sensitive."
        )


def hint(name: str, flag: str, version: str) -> str:
    """How to write a value of `flag`, converted by SGLang's function `name` (not
    `human_readable_int`, whose hint the rule words), in `version`."""
    if name == "parse_cuda_graph_config_arg":
        schema = config_schema(version) or {"phases": [], "keys": {}}
        keys = "; ".join(f"`{phase}`: {', '.join(schema['keys'][phase])}" for phase in schema["phases"])
        return (
            f"`{flag}` takes a JSON object of phase to settings object, double-quoted, "
            f'e.g. \'{{"decode": {{"max_bs": 256}}}}\'; the keys SGLang {version} allows: {keys}'
        )
    if name in ("json_list_type", ORJSON):
        strict = " (no NaN or Infinity)" if name == ORJSON else ""
        return f"`{flag}` takes a JSON list, e.g. `[1, 2, 4]`, strings double-quoted{strict}"
    return f"`{flag}` takes `breakable`, `full` or `disabled` (`tc_piecewise` was removed)"
