"""argparse's value handling for argv.py: which actions take no value, how many words a flag's
`nargs` takes, and `_get_value`'s typed conversion (with the error argparse prints)."""

from __future__ import annotations

from speclint.core import json_read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.flags.schema import FlagSpec

NO_VALUE_ACTIONS = frozenset(
    "store_true store_false store_const append_const count help version boolean_optional".split()
)


def convert_value(spec: FlagSpec, raw: str) -> tuple[object, str | None]:
    """argparse's `_get_value`: the typed value, or the error argparse prints."""
    kind = spec.type
    try:
        if kind == "int":
            return int(raw), None
        if kind == "float":
            return float(raw), None
        if kind == "json":
            return json_read.loads(raw), None
    except ValueError:  # (json.JSONDecodeError is one)
        name = "loads" if kind == "json" else kind
        return None, f"invalid {name} value: {raw!r}"
    return raw, None


def nargs_range(spec: FlagSpec) -> tuple[int, int | None]:
    if spec.action in NO_VALUE_ACTIONS:
        return 0, 0
    nargs = spec.nargs
    if isinstance(nargs, int):
        return nargs, nargs
    return _NARGS.get(nargs, (1, 1))  # (argparse.REMAINDER and friends do not occur in SGLang)


_NARGS: dict[object, tuple[int, int | None]] = {None: (1, 1), "?": (0, 1), "*": (0, None), "+": (1, None)}
