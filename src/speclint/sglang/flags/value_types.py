"""Values of flags whose argparse `type` is one of SGLang's own functions, converted as that
function converts them (`human_readable_int`: `--context-length 32k`, `--max-total-tokens 1Mi`).

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

_FILE = LineData(
    os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "sglang_value_types.json"
    )
)

CONVERTED = ("human_readable_int",)
"""The functions converted here (the generator records others as `unverified:NAME`)."""

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
        str(dest): name for name, index in row.items() if name in CONVERTED for dest in _FILE.shared(index)
    }


def convert(version: str, dest: str, raw: str) -> tuple[object, str | None] | None:
    """(value, None) or (None, the error argparse prints) for a flag of `version` whose type is a
    verified function of SGLang's; None for any other flag (its value is not converted here)."""
    name = converted_dests(version).get(dest)
    return None if name is None else convert_with(name, raw)


def convert_with(name: str, raw: str) -> tuple[object, str | None]:
    """`raw` converted as SGLang's function `name` (one of CONVERTED) converts it."""
    assert name == "human_readable_int", name
    return human_readable_int(raw)


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
