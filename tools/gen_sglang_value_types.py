#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_value_types.json: the flags whose argparse `type` is
one of SGLang's own functions that speclint converts (`human_readable_int`), per release.

    python tools/gen_sglang_value_types.py              # every release the flag schema stores
    python tools/gen_sglang_value_types.py --check      # regenerate and compare, write nothing

Per release, NAME -> the dests of the flags whose type is the function NAME (from the flag
schema, which tools/gen_sglang_schema.py read from the release's parser), when the release's
own function, taken from its source (`def NAME` in a module under sglang/srt/, run on its own
with only the module-level names it uses: `re`, `argparse`, `Decimal`), converts every value of
BATTERY to what `speclint.sglang.flags.value_types` gives: the same value, or an
`ArgumentTypeError` with the same message. Otherwise `unverified:NAME` -> the dests (speclint
does not convert those values). A release without such flags has no entry.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import zipfile
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_value_types.json")
sys.path.insert(0, os.path.join(ROOT, "src"))

from speclint.sglang.flags import schema, value_types  # noqa: E402

BATTERY = (
    "0", "1", "8", "32768", "007", " 4096 ", "\t128\n", "-1", "+5", "1_000", "1e3", "1.5", "", " ",
    "4k", "4K", "32k", "25.6k", "0.5k", "1.0001k", "1M", "1.5M", "2G", "1T", "1.25T", "4kk", "k",
    "1Ki", "1Mi", "64Gi", "2Ti", "1.5Ki", "1.0Mi", "1ki", "1KI", "1mi", "1 k", "1k ", " 1Mi",
    "-1k", "+1k", "1e3k", ".5k", "5.k", "many", "lots", "32768tokens", "0x10", "١٢٣", "１２", "١٫٥k",
    "None", "inf", "nan", "4k\n", "9" * 30, "1" * 20 + "T",
)  # fmt: skip
"""Values each release's function is run on: digits, suffixes of both kinds in and out of case,
decimals, signs, spaces, underscores, exponents, other scripts' digits, words."""

_GIVEN = {"re": re, "argparse": argparse, "Decimal": Decimal}
"""The module-level names the function may use (taken from the standard library, as the module
imports them); a function using another is not run: unverified."""


def _function_source(archive: zipfile.ZipFile, name: str) -> str | None:
    """The source of `def name` at the top level of a module under sglang/srt/ (the first)."""
    needle = f"def {name}(".encode()
    for member in sorted(archive.namelist()):
        if not (member.startswith("sglang/srt/") and member.endswith(".py")):
            continue
        data = archive.read(member)
        if needle not in data:
            continue
        text = data.decode("utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return ast.get_source_segment(text, node)
    return None


def _runs_alike(source: str, name: str) -> bool:
    """The release's function, run alone, converts each value of BATTERY as speclint does."""
    free = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    module_level = free - {n for n in free if n in dir(__builtins__)} - {name}
    namespace: dict[str, object] = {key: _GIVEN[key] for key in module_level if key in _GIVEN}
    try:
        exec(compile(source, f"<sglang {name}>", "exec"), namespace)  # noqa: S102 (SGLang's own code)
    except Exception:
        return False
    theirs = namespace[name]
    for value in BATTERY:
        try:
            read: tuple[object, str | None] = (theirs(value), None)  # type: ignore[operator]
        except argparse.ArgumentTypeError as error:
            read = (None, str(error))
        except Exception:  # (a name it needs and was not given, or another error: not alike)
            return False
        if read != value_types.convert_with(name, value):
            return False
    return True


def read_release(path: str) -> list[tuple[str, object]]:
    version = re.match(r"sglang-([^-]+)-", os.path.basename(path))
    assert version is not None, path
    dests: dict[str, list[str]] = {}
    for index in schema._order(version.group(1)):
        entry = schema.raw_entry(index)
        if entry.get("type") == "other" and entry.get("type_name") in value_types.CONVERTED:
            dests.setdefault(entry["type_name"], []).append(entry["dest"])
    readings: list[tuple[str, object]] = []
    with zipfile.ZipFile(path) as archive:
        for name in sorted(dests):
            source = _function_source(archive, name)
            verified = source is not None and _runs_alike(source, name)
            readings.append((name if verified else f"unverified:{name}", sorted(set(dests[name]))))
    return readings


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
