#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_shell_cmd.json: how each release's
`sglang.utils.execute_shell_command` turns a command text into argv, and what
`launch_server_cmd` (`sglang.utils`, and `sglang.test.doc_patch` where the release has it)
adds to the text first, read statically (`ast`, never imported) from each release's wheel.

    python tools/gen_sglang_shell_cmd.py              # every release the flag schema stores
    python tools/gen_sglang_shell_cmd.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading (a name the release lacks is absent):

- `execute_shell_command`: `{"param": p, "replace": [[old, new], ...], "split": s,
  "shell": b, "leading_assignments": [source, ...]}`: the `.replace(old, new)` calls made
  on the text before it is split, in order; `split`: `"str.split"` (`text.split()`: runs of
  whitespace, newlines included), `"shlex.split"`, or the source of another call; `shell`:
  the `shell=` keyword of the `subprocess.Popen` that runs the parts (False when not
  written); `leading_assignments`: the `if` tests of a loop that takes leading `KEY=VALUE`
  parts off the argv into the environment (empty: no such loop, the parts are the argv);
- `launch_server_cmd` and `doc_patch.launch_server_cmd`: `{"params": [...], "defaults":
  {name: source}, "calls": name, "text": [part, ...]}`: the f-string handed to `calls`,
  each part `{"text": t}` (a literal, module-level string constants and local f-strings of
  them resolved) or `{"param": p}`.
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_shell_cmd.json")
UTILS = "sglang/utils.py"
DOC_PATCH = "sglang/test/doc_patch.py"
EXECUTE = "execute_shell_command"
LAUNCH = "launch_server_cmd"


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _replaces(node: ast.expr, name: str) -> list[list[str]] | None:
    """`name.replace(a, b).replace(c, d)` -> [[a, b], [c, d]]; None for another form."""
    chain: list[list[str]] = []
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace":
        args = node.args
        if len(args) != 2 or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            return None
        chain.append([args[0].value, args[1].value])  # type: ignore[attr-defined]
        node = node.func.value
    if isinstance(node, ast.Name) and node.id == name:
        return list(reversed(chain))
    return None


def _split(node: ast.expr, name: str) -> str | None:
    """How `parts = ...` splits `name`, or None when it is not a split of `name`."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "split"
        and isinstance(func.value, ast.Name)
        and func.value.id == name
    ):
        return "str.split" if not node.args and not node.keywords else ast.unparse(node)
    if ast.unparse(func) == "shlex.split" and node.args and ast.unparse(node.args[0]) == name:
        return "shlex.split"
    return None


def read_execute(function: ast.FunctionDef) -> dict[str, object] | None:
    params = [a.arg for a in function.args.args]
    if not params:
        return None
    text = params[0]
    replace: list[list[str]] = []
    split: str | None = None
    parts: str | None = None
    shell = False
    leading: list[str] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            chain = _replaces(node.value, text) if target == text else None
            if chain:
                replace += chain
            how = _split(node.value, text)
            if how is not None:
                split, parts = how, target
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "subprocess.Popen":
            for keyword in node.keywords:
                if keyword.arg == "shell" and isinstance(keyword.value, ast.Constant):
                    shell = bool(keyword.value.value)
        if isinstance(node, ast.While) and parts is not None and _takes_assignments(node):
            leading = [ast.unparse(n.test) for n in ast.walk(node) if isinstance(n, ast.If)]
    if split is None:
        return None
    return {"param": text, "replace": replace, "split": split, "shell": shell, "leading_assignments": leading}


def _takes_assignments(loop: ast.While) -> bool:
    """A loop over the parts that splits one at `=` (`part.partition("=")`) and stores it
    in a mapping (`env[key] = value`)."""
    partitions = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "partition"
        and [ast.unparse(a) for a in n.args] == ["'='"]
        for n in ast.walk(loop)
    )
    stores = any(
        isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) for t in n.targets)
        for n in ast.walk(loop)
    )
    return partitions and stores


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level `NAME = <int or str literal>` as text."""
    out: dict[str, str] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, (int, str))
            and not isinstance(node.value.value, bool)
        ):
            out[node.targets[0].id] = str(node.value.value)
    return out


def _parts(node: ast.expr, params: list[str], known: dict[str, object]) -> list[dict[str, str]] | None:
    """An f-string (or a plain string) as parts; None when a field is neither a parameter
    nor a known constant or local."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [{"text": node.value}]
    if not isinstance(node, ast.JoinedStr):
        return None
    out: list[dict[str, str]] = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            out.append({"text": value.value})
        elif (
            isinstance(value, ast.FormattedValue)
            and isinstance(value.value, ast.Name)
            and not value.format_spec
        ):
            name = value.value.id
            if name in params:
                out.append({"param": name})
            elif isinstance(known.get(name), str):
                out.append({"text": known[name]})  # type: ignore[dict-item]
            elif isinstance(known.get(name), list):
                out += known[name]  # type: ignore[arg-type]
            else:
                return None
        else:
            return None
    merged: list[dict[str, str]] = []
    for part in out:
        if merged and "text" in part and "text" in merged[-1]:
            merged[-1] = {"text": merged[-1]["text"] + part["text"]}
        else:
            merged.append(part)
    return merged


def read_launch(function: ast.FunctionDef, constants: dict[str, str]) -> dict[str, object] | None:
    args = function.args
    params = [a.arg for a in args.args]
    defaults = {
        a.arg: ast.unparse(d) for a, d in zip(args.args[len(args.args) - len(args.defaults) :], args.defaults)
    }
    known: dict[str, object] = dict(constants)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            parts = _parts(node.value, params, known)
            if parts is not None and all("text" in p for p in parts):
                known[node.targets[0].id] = "".join(p["text"] for p in parts)
            elif parts is not None:
                known[node.targets[0].id] = parts
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == EXECUTE:
            if len(node.args) != 1:
                return None
            arg = node.args[0]
            parts = known.get(arg.id) if isinstance(arg, ast.Name) else _parts(arg, params, known)
            if isinstance(parts, str):
                parts = [{"text": parts}]
            if not isinstance(parts, list):
                return None
            return {"params": params, "defaults": defaults, "calls": EXECUTE, "text": parts}
    return None


def read_release(path: str) -> list[tuple[str, dict[str, object]]]:
    out: list[tuple[str, dict[str, object]]] = []
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        for module, prefix in ((UTILS, ""), (DOC_PATCH, "doc_patch.")):
            if module not in names:
                continue
            tree = ast.parse(archive.read(module).decode("utf-8"))
            functions = _functions(tree)
            if not prefix and EXECUTE in functions:
                reading = read_execute(functions[EXECUTE])
                if reading is not None:
                    out.append((EXECUTE, reading))
            if LAUNCH in functions:
                launch = read_launch(functions[LAUNCH], _constants(tree))
                if launch is not None:
                    out.append((prefix + LAUNCH, launch))
    return out


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
