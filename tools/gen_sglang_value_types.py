#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_value_types.json: the flags whose argparse `type` is
one of SGLang's own functions that speclint converts (`human_readable_int`, `json_list_type`,
`nullable_str`, `parse_cuda_graph_backend_arg`, `parse_cuda_graph_config_arg`), per release.

    python tools/gen_sglang_value_types.py              # every release the flag schema stores
    python tools/gen_sglang_value_types.py --check      # regenerate and compare, write nothing

Per release, NAME -> the dests of the flags whose type is the function NAME (from the flag
schema, which tools/gen_sglang_schema.py read from the release's parser), when the release's
own function, taken from its source (`def NAME` in a module under sglang/srt/, run on its own
with only the module-level names it uses: `re`, `argparse`, `Decimal`, `json`, `orjson`), converts
every value of its battery to what `speclint.sglang.flags.value_types` gives: the same value, or an
`ArgumentTypeError` with the same message. Otherwise `unverified:NAME` -> the dests (speclint
does not convert those values). A release without such flags has no entry.

`json_list_type` reads with `orjson.loads` from 0.5.3.post1 (`value_types.ORJSON`), which speclint
does not depend on: run with orjson importable (`pip install --target /tmp/orjson orjson`,
`PYTHONPATH=/tmp/orjson`) to read or check those releases; without it their stored reading is
kept and stderr says it was not run.
"""

from __future__ import annotations

import argparse
import ast
import json
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
    "None", "inf", "nan", "4k\n", "9" * 30, "1" * 20 + "T", "none", "NONE", "null", "/a/b.json",
    "tc_piecewise", "full", "breakable", "disabled", "Tc_piecewise", "tc_piecewise ",
)  # fmt: skip
"""Values each release's function is run on: digits, suffixes of both kinds in and out of case,
decimals, signs, spaces, underscores, exponents, other scripts' digits, words."""

CONFIG_BATTERY = (
    "{}", '{"decode": {}}', '{"decode": {"backend": "full", "max_bs": 256}}',
    '{"prefill": {"backend": "breakable"}}', '{"decode": {"bs": [1, 2, 4]}, "prefill": {"max_bs": 8}}',
    '{"prefill": {"max_context_size": 4096, "full_prefill_max_req": 4}}', '{"decode": {"max_context_size": 1}}',
    '{"decode": {"backend": "tc_piecewise"}}', '{"prefill": {"bs": [1], "backend": "tc_piecewise"}}',
    '{"decode": {"backend": 3}}', '{"decode": {"nope": 1}}', '{"Decode": {}}', '{"both": {}}',
    '{"decode": 1}', '{"decode": []}', '{"decode": null}', '{"decode": "full"}', "[]", "1", "1.5",
    '"full"', "null", "true", "", " ", "full", "{decode: {}}", "{'decode': {}}", '{"decode": {},}',
    '{"decode": {"max_bs": NaN}}', '{"decode": {"bs": 1}, "decode": {"max_bs": 2}}', ' {"decode":{}}\n',
    '{"decode": {}} x', '{"decode": {"max_bs": 8}, "prefill": {"nope": 1}}', '{"": {}}',
)  # fmt: skip
"""Values `parse_cuda_graph_config_arg` is run on: objects of each phase and key, phases, keys and
backends a release refuses, other JSON, text that is not JSON."""

JSON_BATTERY = (
    "[1, 2, 4]", "[]", "[8192]", '["a", "b"]', "{}", '{"a": 1, "a": 2}', "1", "1.5", '"x"', "null",
    "true", "", " ", "[1,]", "[1] x", "'[1]'", "[01]", " [1] ", "[1]\n", "\t[1]", "\ufeff[1]",
    "NaN", "[NaN]", "Infinity", "[-Infinity]", "[1e400]", "1e400", "[5e-324]", "[1e-400]",
    "[18446744073709551615]", "[18446744073709551616]", "[-9223372036854775808]",
    "[-9223372036854775809]", "99999999999999999999999", '["\\ud800"]', '{"\\udc00": 1}',
    '["\\ud83d\\ude00"]', "[1E2, -0, -0.0]", "[true, false, null]",
)  # fmt: skip
"""Values `json_list_type` is run on: lists, other JSON, text that is not JSON, and where
`json.loads` and `orjson.loads` differ (NaN and Infinity, floats beyond the double's range,
integers beyond 64 bits, lone surrogates)."""

_GIVEN: dict[str, object] = {"re": re, "argparse": argparse, "Decimal": Decimal, "json": json}
"""The module-level names the function may use (taken from the standard library, as the module
imports them, and `orjson` where it is installed: `_orjson`); a function using another is not
run: unverified."""


def _orjson() -> object | None:
    """The `orjson` module when installed here (SGLang's `json_list_type` runs `orjson.loads`
    from 0.5.3.post1; speclint does not depend on it: `pip install --target DIR orjson` and
    DIR on PYTHONPATH to read those releases), else None."""
    try:
        import orjson  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return orjson


def _defining_module(
    archive: zipfile.ZipFile, name: str
) -> tuple[str, ast.FunctionDef, list[ast.stmt]] | None:
    """(text, the function, the module's statements) of the first module under sglang/srt/ that
    defines `def name` at its top level."""
    needle = f"def {name}(".encode()
    for member in sorted(archive.namelist()):
        if not (member.startswith("sglang/srt/") and member.endswith(".py")):
            continue
        data = archive.read(member)
        if needle not in data:
            continue
        text = data.decode("utf-8")
        body = ast.parse(text).body
        for node in body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return text, node, body
    return None


def _function_source(archive: zipfile.ZipFile, name: str) -> str | None:
    """The source of `def name` at the top level of a module under sglang/srt/ (the first)."""
    found = _defining_module(archive, name)
    return None if found is None else ast.get_source_segment(found[0], found[1])


def _module_context(archive: zipfile.ZipFile, name: str) -> str | None:
    """`def name`'s module without its sglang imports and without the functions `name` does not
    call: its standard-library imports, classes, assignments, the functions it calls and itself."""
    found = _defining_module(archive, name)
    if found is None:
        return None
    text, function, body = found
    functions = {n.name for n in body if isinstance(n, ast.FunctionDef)}
    called = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)} & functions
    kept = [
        node
        for node in body
        if (isinstance(node, ast.Import) and not any(a.name.startswith("sglang") for a in node.names))
        or (
            isinstance(node, ast.ImportFrom)
            and not (node.module or "").startswith("sglang")
            and node.level == 0
        )
        or isinstance(node, (ast.ClassDef, ast.Assign, ast.AnnAssign))
        or (isinstance(node, ast.FunctionDef) and (node.name == name or node.name in called))
    ]
    return "\n\n".join(str(ast.get_source_segment(text, node)) for node in kept)


def _run(theirs: object, value: str) -> tuple[object, str | None] | None:
    """What the release's function gives for `value`: (value, None), (None, its
    ArgumentTypeError's message), or None for any other error (not alike)."""
    try:
        return theirs(value), None  # type: ignore[operator]
    except argparse.ArgumentTypeError as error:
        return None, str(error)
    except Exception:  # (a name it needs and was not given, or another error: not alike)
        return None


def _runs_alike(source: str, name: str, as_name: str | None = None) -> bool:
    """The release's function, run alone, converts each value of its battery (BATTERY,
    JSON_BATTERY for `json_list_type`) as speclint's `as_name` (default: `name`) does."""
    free = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    module_level = free - {n for n in free if n in dir(__builtins__)} - {name}
    given = {**_GIVEN, "orjson": _orjson()}
    namespace: dict[str, object] = {key: given[key] for key in module_level if given.get(key) is not None}
    try:
        exec(compile(source, f"<sglang {name}>", "exec"), namespace)  # noqa: S102 (SGLang's own code)
    except Exception:
        return False
    theirs = namespace[name]
    battery = JSON_BATTERY if name == "json_list_type" else BATTERY
    return all(
        (read := _run(theirs, value)) is not None
        and repr(read) == repr(value_types.convert_with(as_name or name, value))
        for value in battery
    )


def _json_list_reading(source: str | None, version: str, dests: list[str]) -> str:
    """The row key of `json_list_type`: `json_list_type` where the release's function converts
    JSON_BATTERY as `value_types.json_list` with `json.loads`, `value_types.ORJSON` where as with
    `orjson.loads`, else `unverified:json_list_type`. A function that reads with `orjson`, where it
    is not installed, cannot be run here: its stored key is kept, and stderr says so."""
    name = "json_list_type"
    if source is None:
        return f"unverified:{name}"
    uses_orjson = any(isinstance(n, ast.Name) and n.id == "orjson" for n in ast.walk(ast.parse(source)))
    if uses_orjson and _orjson() is None:
        stored = {value_types.converted_dests(version).get(dest) for dest in dests} - {None}
        kept = stored.pop() if len(stored) == 1 else f"unverified:{name}"
        print(
            f"{version}: json_list_type runs orjson.loads, and orjson is not installed here: not run, "
            f"the stored reading kept ({kept}); install orjson to check it",
            file=sys.stderr,
        )
        return str(kept)
    as_name = value_types.ORJSON if uses_orjson else name
    return as_name if _runs_alike(source, name, as_name) else f"unverified:{name}"


def config_schema(source: str) -> dict[str, object] | None:
    """The phases and keys `parse_cuda_graph_config_arg`'s module (`_module_context`) defines,
    when the function, run there, converts each value of CONFIG_BATTERY as speclint does with
    them; else None."""
    name = "parse_cuda_graph_config_arg"
    namespace: dict[str, object] = {"__name__": "sglang_cuda_graph_config"}
    try:
        exec(compile(source, f"<sglang {name}>", "exec"), namespace)  # noqa: S102 (SGLang's own code)
        phases = [str(p) for p in namespace["Phase"].ALL]  # type: ignore[attr-defined]
        keys = {str(p): [str(k) for k in ks] for p, ks in namespace["ALLOWED_KEYS_PER_PHASE"].items()}  # type: ignore[attr-defined]
    except Exception:
        return None
    function = namespace[name]
    called = any(
        isinstance(n, ast.Name) and n.id == "parse_cuda_graph_backend_arg"
        for n in ast.walk(_def(source, name))
    )
    schema: dict[str, object] = {"phases": phases, "keys": keys, "backend": called}
    allowed = namespace.get("ALLOWED_BACKENDS_PER_PHASE")
    if isinstance(allowed, dict):  # (kept by read_release where the release validates with it)
        schema["backends"] = {str(p): [str(b) for b in bs] for p, bs in allowed.items()}
    for value in CONFIG_BATTERY:
        read = _run(function, value)
        if read is None or repr(read) != repr(value_types.convert_with(name, value, schema)):
            return None
    return schema


VALIDATION = '.backend={backend!r} not allowed; "'
"""The words of the ValueError SGLang raises after resolution for a phase's backend outside
`ALLOWED_BACKENDS_PER_PHASE` (`_validate_cuda_graph_config`, 0.5.14+)."""


def _validates_backends(archive: zipfile.ZipFile) -> bool:
    """Whether a module of the release's argument handling (server_args.py, arg_groups/)
    raises that ValueError, over `ALLOWED_BACKENDS_PER_PHASE[phase]`."""
    for member in archive.namelist():
        if member == "sglang/srt/server_args.py" or (
            member.startswith("sglang/srt/arg_groups/") and member.endswith(".py")
        ):
            text = archive.read(member).decode("utf-8")
            if VALIDATION in text and "allowed: {ALLOWED_BACKENDS_PER_PHASE[phase]}" in text:
                return True
    return False


HOOKS = ("_parse_cuda_graph_config", "parse_cuda_graph_config")
"""SGLang's function that makes `cuda_graph_config` from the JSON and the per-phase flags (a
ServerArgs method to 0.5.19, arg_groups' function from 0.5.20)."""


def _json_over_flags(archive: zipfile.ZipFile) -> bool:
    """Whether the release's hook (HOOKS) sets the JSON's (phase, key) pairs after every flag
    it reads, `--cuda-graph-backend-prefill` among them: the JSON's prefill backend is then the
    one resolution starts from, as the flag's would be (`resolve.hardware_flags.json_graph_views`)."""
    for member in sorted(archive.namelist()):
        if not (member.startswith("sglang/srt/") and member.endswith(".py")):
            continue
        data = archive.read(member)
        if not any(f"def {hook}(".encode() in data for hook in HOOKS):
            continue
        text = data.decode("utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name in HOOKS:
                loops = [
                    n.lineno
                    for n in ast.walk(node)
                    if isinstance(n, ast.For)
                    and isinstance(n.iter, ast.Call)
                    and ast.unparse(n.iter) == "explicit_input.items()"
                ]
                flags = [
                    n.lineno
                    for n in ast.walk(node)
                    if isinstance(n, ast.Attribute) and n.attr.startswith("cuda_graph_backend_prefill")
                ]
                return len(loops) == 1 and bool(flags) and loops[0] > max(flags)
    return False


def _def(source: str, name: str) -> ast.FunctionDef:
    (node,) = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name]
    return node


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
            if name == "parse_cuda_graph_config_arg":
                context = _module_context(archive, name)
                phases_keys = config_schema(context) if context is not None else None
                verified = phases_keys is not None
            elif name == "json_list_type":
                key = _json_list_reading(_function_source(archive, name), version.group(1), dests[name])
                readings.append((key, sorted(set(dests[name]))))
                continue
            else:
                source = _function_source(archive, name)
                verified = source is not None and _runs_alike(source, name)
            readings.append((name if verified else f"unverified:{name}", sorted(set(dests[name]))))
            if name == "parse_cuda_graph_config_arg" and phases_keys is not None:
                if not _validates_backends(archive):
                    phases_keys.pop("backends", None)
                if _json_over_flags(archive):
                    phases_keys["json_over_flags"] = True
                readings.append((value_types.SCHEMA_KEY, phases_keys))
    return readings


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
