#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_deprecated_choices.json: the values of a server
flag each release still accepts but calls deprecated and replaces, read statically (`ast`,
never imported) from its wheel.

    python tools/gen_sglang_deprecated_choices.py              # every release the flag schema stores
    python tools/gen_sglang_deprecated_choices.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading:

- `deprecated_choices`: field -> {deprecated value: the value SGLang uses instead}, read from
  this form in any function of `sglang/srt/server_args.py` or `sglang/srt/arg_groups/*.py`
  (0.5.x: `ServerArgs._handle_deprecated_args`; 0.5.23: `serving_hook.handle_deprecated_args`):

      deprecated_tool_call_parsers = {"qwen25": "qwen", "glm45": "glm"}
      if self.tool_call_parser in deprecated_tool_call_parsers:   # (or `cfg.`)
          logger.warning(f"... is deprecated ...")
          self.tool_call_parser = deprecated_tool_call_parsers[self.tool_call_parser]
          # (or declare_resolution(..., tool_call_parser=deprecated_tool_call_parsers[...]))

  A dict of string constants, a test `<obj>.<field> in <that dict>`, and in its body a
  `.warning(...)` call whose text says "deprecated" and a write of `<field>` from the dict
  (an assignment to `<obj>.<field>` or a `<field>=` keyword); or a loop over field names
  that reads each with `getattr` and tests it `in` the dict the same way (`_looped`: 0.5.23's
  attention-backend aliases, whose warning says "--attention-backend=compressed is
  deprecated; use 'dsv4' instead"; 0.5.21-0.5.22 test `getattr(obj, attr, None) ==
  "compressed"` and store `"dsv4"`). `{}` when the release has none. The value is the one
  SGLang's warning names; the setting SGLang ends with may differ (0.5.23 makes a prefill
  backend `cutedsl_mla` `trtllm_mla`), so a rule says only what the warning says.
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_deprecated_choices.json")


def _sources(names: list[str]) -> list[str]:
    return sorted(
        n
        for n in names
        if n == "sglang/srt/server_args.py" or (n.startswith("sglang/srt/arg_groups/") and n.endswith(".py"))
    )


def _string_map(node: ast.expr) -> dict[str, str] | None:
    if not isinstance(node, ast.Dict) or not node.keys:
        return None
    found: dict[str, str] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            return None
        found[key.value] = value.value
    return found


def _tested_field(test: ast.expr, mapping: str) -> str | None:
    """`<obj>.<field> in <mapping>`: the field."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.left, ast.Attribute)
        and isinstance(test.comparators[0], ast.Name)
        and test.comparators[0].id == mapping
    ):
        return test.left.attr
    return None


def _warns_deprecated(body: list[ast.stmt]) -> bool:
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "warning"
        ):
            texts = [
                c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            ]
            if any("deprecated" in text.lower() for text in texts):
                return True
    return False


def _reads_mapping(value: ast.expr, mapping: str) -> bool:
    return (
        isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == mapping
    )


def _writes_field(body: list[ast.stmt], field: str, mapping: str) -> bool:
    """`<obj>.<field> = <mapping>[...]`, or a call with `<field>=<mapping>[...]`."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Assign) and _reads_mapping(node.value, mapping):
            if any(isinstance(t, ast.Attribute) and t.attr == field for t in node.targets):
                return True
        if isinstance(node, ast.Call) and any(
            k.arg == field and _reads_mapping(k.value, mapping) for k in node.keywords
        ):
            return True
    return False


def _looped(loop: ast.For, maps: dict[str, dict[str, str]]) -> list[tuple[str, dict[str, str]]]:
    """`for attr in ("attention_backend", ...): old = getattr(obj, attr, None); if old in
    aliases: logger.warning("... deprecated ..."); renamed[attr] = aliases[old]` (0.5.23's
    attention-backend aliases): each field named by the loop, with the mapping."""
    if not isinstance(loop.target, ast.Name) or not isinstance(loop.iter, (ast.Tuple, ast.List)):
        return []
    fields = [e.value for e in loop.iter.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if len(fields) != len(loop.iter.elts):
        return []
    name = loop.target.id
    read = {  # `old = getattr(obj, attr, ...)`
        node.targets[0].id
        for node in loop.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and _getattr_of(node.value, name)
    }
    found = []
    for node in loop.body:
        if not isinstance(node, ast.If) or not _warns_deprecated(node.body):
            continue
        test = node.test
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            continue
        left, right = test.left, test.comparators[0]
        if (
            isinstance(test.ops[0], ast.In)
            and isinstance(left, ast.Name)
            and left.id in read
            and isinstance(right, ast.Name)
            and right.id in maps
        ):
            found += [(field, maps[right.id]) for field in fields]
        elif (  # 0.5.21-0.5.22: `if getattr(obj, attr, None) == "compressed": ... renamed[attr] = "dsv4"`
            isinstance(test.ops[0], ast.Eq)
            and ((isinstance(left, ast.Name) and left.id in read) or _getattr_of(left, name))
            and isinstance(right, ast.Constant)
            and isinstance(right.value, str)
        ):
            new = _stored_constant(node.body, name)
            found += [(field, {right.value: new}) for field in fields] if new is not None else []
    return found


def _getattr_of(value: ast.expr, name: str) -> bool:
    """`getattr(obj, <name>, ...)`."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "getattr"
        and len(value.args) >= 2
        and isinstance(value.args[1], ast.Name)
        and value.args[1].id == name
    )


def _stored_constant(body: list[ast.stmt], name: str) -> str | None:
    """`<dict>[<name>] = "<value>"` in the body: the value."""
    for node in body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Subscript)
            and isinstance(node.targets[0].slice, ast.Name)
            and node.targets[0].slice.id == name
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return None


def deprecated_choices(sources: list[str]) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for source in sources:
        for function in ast.walk(ast.parse(source)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            maps: dict[str, dict[str, str]] = {}
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                ):
                    mapping = _string_map(node.value)
                    if mapping is not None:
                        maps[node.targets[0].id] = mapping
            for node in ast.walk(function):
                if isinstance(node, ast.For):
                    for field, mapping in _looped(node, maps):
                        found.setdefault(field, {}).update(mapping)
                if not isinstance(node, ast.If):
                    continue
                for name, mapping in maps.items():
                    field = _tested_field(node.test, name)
                    if field and _warns_deprecated(node.body) and _writes_field(node.body, field, name):
                        found.setdefault(field, {}).update(mapping)
    return {field: dict(sorted(values.items())) for field, values in sorted(found.items())}


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        sources = [archive.read(name).decode("utf-8") for name in _sources(archive.namelist())]
    return [("deprecated_choices", deprecated_choices(sources))]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
