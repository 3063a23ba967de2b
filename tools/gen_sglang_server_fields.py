#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_server_fields.json: for every release, the fields
of its `ServerArgs` and each one's declared default, read statically (`ast`, never imported)
from its wheel (`sglang/srt/server_args.py`; 0.5.23: the namespaces of
`sglang/srt/arg_groups/fields/`, as tools/sglang_args.py reads them for the flag schema).

    python tools/gen_sglang_server_fields.py            # every release the flag schema stores
    python tools/gen_sglang_server_fields.py --check    # regenerate and compare, write nothing

Per release, `fields`: {name: default}, the default as JSON where the declaration's value
evaluates to a JSON value (`x: int = 4`, `field(default_factory=list)`), else
{"unread": "<the expression as written>"} (a value computed by a call SGLang makes), and
{"required": true} for a field declared without a default; `assigned`: the fields some
statement of the wheel's `sglang/**` modules may assign (`<any>.name =`, `+=`,
`<any>["name"] =`, `setattr(<any>, "name", ...)`, a dict key `"name": ...` (0.5.15+ handlers
return {field: value}), a keyword `name=...`), sorted: a field none of these names keeps its
declared default through the resolution (an over-approximation: a field named here may keep
it too). `speclint explain` states no field a release does not
have, and a field the release never assigns is stated with its declared default
(tests/test_explain_fields.py compares both with the recordings).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402
from sglang_actions import MISSING  # noqa: E402
from sglang_args import Extractor  # noqa: E402
from sglang_field_influence import read_influencers  # noqa: E402
from sglang_source import Wheel  # noqa: E402
from sglang_static import Unresolved  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_server_fields.json")
_JSON = (str, int, float, bool, type(None))
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _json(value: object) -> bool:
    if isinstance(value, _JSON):
        return True
    if isinstance(value, (list, tuple)):
        return all(_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json(v) for k, v in value.items())
    return False


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def assigned_names(path: str, fields: set[str]) -> set[str]:
    """The `fields` a statement of the wheel's `sglang/` modules may assign (a module naming
    none of those not found yet is not parsed)."""
    names: set[str] = set()
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if not (member.endswith(".py") and member.startswith("sglang/")):
                continue
            text = archive.read(member).decode("utf-8-sig", errors="replace")
            if (fields - names).isdisjoint(_WORD.findall(text)):
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                return set(fields)  # not read: every field may be assigned there
            names.update(_named(tree))
    return names & fields


def _named(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            names.add(node.args[1].value)
        elif isinstance(node, ast.Dict):
            names.update(
                k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
            )
        elif isinstance(node, ast.keyword) and node.arg is not None:
            names.add(node.arg)
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute):
                    names.add(part.attr)
                elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                    names.add(part.value)
    return names


def read_release(path: str) -> list[tuple[str, object]]:
    extractor = Extractor(Wheel(path))
    fields: dict[str, object] = {}
    for name, _annotation, value, _module in extractor.record_fields():
        if value is None:
            fields[name] = {"required": True}
            continue
        try:
            default = extractor.field_default(name)
        except (Unresolved, Exception):  # noqa: BLE001 - anything not evaluable statically
            default = MISSING
        if default is MISSING or not _json(default):
            fields[name] = {"unread": ast.unparse(value)}
        else:
            plain = _plain(default)
            fields[name] = {"value": plain} if isinstance(plain, dict) else plain
    return [
        ("fields", fields),
        ("assigned", sorted(assigned_names(path, set(fields)))),
        ("influencers", influencers(path, set(fields))),
    ]


RESOLUTION_MODULES = ("sglang/srt/server_args.py", "sglang/srt/arg_groups/")


def influencers(path: str, fields: set[str]) -> dict[str, list[str] | None]:
    """For each field speclint states as a constant default (resolve/defaults.py `CONSTANTS`), and
    each it works out beside flags outside its model (resolve/constants_beside.py `WORKED_BESIDE`),
    the fields that may change it, read from server_args.py and arg_groups/
    (tools/sglang_field_influence.py)."""
    from speclint.sglang.resolve.constants_beside import WORKED_BESIDE
    from speclint.sglang.resolve.defaults import CONSTANTS

    with zipfile.ZipFile(path) as archive:
        trees = [
            ast.parse(archive.read(name).decode("utf-8"))
            for name in sorted(archive.namelist())
            if name.endswith(".py")
            and (name == RESOLUTION_MODULES[0] or name.startswith(RESOLUTION_MODULES[1]))
        ]
    return read_influencers(trees, fields, sorted({*CONSTANTS, *WORKED_BESIDE}))


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
