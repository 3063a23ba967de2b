#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/dynamo_sglang.json: what `python -m dynamo.sglang` (NVIDIA
Dynamo's SGLang worker) does with its command line before SGLang's parser sees it, per
ai-dynamo release, read statically (`ast`, never imported) from each release's wheel.

    python tools/gen_dynamo_sglang.py              # every release the data file stores
    python tools/gen_dynamo_sglang.py 1.6.1 ...    # these releases
    python tools/gen_dynamo_sglang.py --check      # regenerate and compare, write nothing

Wheels are fetched with `pip download --no-deps ai-dynamo==V` into `.cache/dynamo-wheels`.
`dynamo/sglang/args.py`'s `parse_args(args)` (1.0 on) builds Dynamo's own parser from its
argument groups (`X = Cls()` then `X.add_arguments(parser)`), reads the command line with
`parser.parse_known_args(args)` (its options, abbreviations included, are taken out), from
1.5 hands the rest to `parse_worker_router_config(unknown)` (a second parser's
`parse_known_args`: the router advertisement options taken out too), and parses what is
left with `sglang_only_parser.parse_args(unknown)`: SGLang's `ServerArgs.add_cli_args` plus
what Dynamo adds to that parser (`add_sglang_cli_compat`'s options, an option's choices
widened by `action.choices = list(action.choices) + [...]`). Options are read from the
`add_argument(...)` calls of those functions: argparse's (`parser.add_argument("--x", ...)`,
literal strings) and Dynamo's helpers `add_argument(g, flag_name=..., obsolete_flag=...)` /
`add_negatable_bool_argument(...)` (BooleanOptionalAction: `--no-X` too), following a call
of another function of the wheel that is handed the parser or group. Anything else (an option
string that is not a literal, a call handing the parser to a function the generator cannot
find, another parse order) stops the generator: no option is guessed.

Each release's row: `{"sglang": the `sglang==X` pin of its `sglang` extra (METADATA
Requires-Dist; null when none), "dynamo": [[option_strings, takes_value], ...] (both parsers
before SGLang's), "sglang_adds": [[option_strings, takes_value], ...], "choices_added":
{dest: [values]}}`; `takes_value` is false for store_true/store_false/store_const/
BooleanOptionalAction/version/help/count, else the literal `nargs` (null: one value).
"""

from __future__ import annotations

import ast
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dynamo_arg_reader import ARGS, Reader, Unread, Wheel, action_name, definition, literal, method_of, option  # noqa: E402
from line_array import generator_main, line_array  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "dynamo_sglang.json")
CACHE = os.path.join(ROOT, ".cache", "dynamo-wheels")


def release_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else -1 for p in re.split(r"[.]|post", version) if p)


def wheel_path(version: str, cache: str = CACHE) -> str:
    found = glob.glob(os.path.join(cache, f"ai_dynamo-{version}-*.whl"))
    if not found:
        os.makedirs(cache, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-q",
                "-d",
                cache,
                f"ai-dynamo=={version}",
            ],
            check=True,
        )
        found = glob.glob(os.path.join(cache, f"ai_dynamo-{version}-*.whl"))
    if not found:
        raise SystemExit(f"no wheel for ai-dynamo {version}")
    return found[0]


def _parse_args(wheel: Wheel) -> ast.AsyncFunctionDef | ast.FunctionDef:
    for node in wheel.tree(ARGS).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "parse_args":
            return node
    raise Unread("no parse_args in dynamo/sglang/args.py")


def _group_methods(wheel: Wheel, reader: Reader, body: list[ast.stmt]) -> list:
    """`X = Cls()` then `X.add_arguments(parser)`: Cls.add_arguments's options, in call order."""
    classes: dict[str, str] = {}
    found: list = []
    for stmt in body:
        if (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name)
        ):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    classes[target.id] = stmt.value.func.id
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call):
            continue
        text = ast.unparse(call)
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "add_arguments" and text.endswith("(parser)"):
            owner = func.value.id if isinstance(func.value, ast.Name) else ""
            if owner not in classes:
                raise Unread(f"add_arguments on {owner!r}, not an argument group made here")
            where, cls = definition(wheel, ARGS, classes[owner])
            method = method_of(cls, "add_arguments")
            found.extend(reader.function(where, method, {method.args.args[1].arg}))
        elif (
            isinstance(func, ast.Name)
            and text.endswith("(parser)")
            and func.id != "register_worker_router_help"
        ):
            raise Unread(f"parse_args hands the parser to {func.id}")
    return found


def _router_stage(wheel: Wheel, reader: Reader, text: str) -> list:
    """1.5 on: `parse_worker_router_config(unknown)` takes its options out of the rest."""
    if "parse_worker_router_config(unknown)" not in text:
        return []
    where, func = definition(wheel, ARGS, "parse_worker_router_config")
    body = ast.unparse(func)
    match = re.search(r"(\w+) = argparse\.ArgumentParser\(add_help=False\)\s+(\w+)\(\1\)", body)
    if match is None or f"{match.group(1)}.parse_known_args(" not in body:
        raise Unread(f"{where}: parse_worker_router_config is not one parse_known_args of a parser made here")
    helper_where, helper = definition(wheel, where, match.group(2))
    if not isinstance(helper, ast.FunctionDef):
        raise Unread(f"{match.group(2)} is not a function")
    return reader.function(helper_where, helper, {helper.args.args[0].arg})


def _sglang_adds(wheel: Wheel, reader: Reader, body: list[ast.stmt]) -> tuple[list, dict[str, list[object]]]:
    """What parse_args adds to `sglang_only_parser` besides ServerArgs.add_cli_args."""
    adds: list = []
    choices: dict[str, list[object]] = {}
    for stmt in body:
        text = ast.unparse(stmt)
        if "sglang_only_parser" not in text or text.strip() == "ServerArgs.add_cli_args(sglang_only_parser)":
            continue
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name)
        ):
            where, func = definition(wheel, ARGS, stmt.value.func.id)
            if not isinstance(func, ast.FunctionDef):
                raise Unread(f"{stmt.value.func.id} is not a function")
            adds.extend(reader.function(where, func, {func.args.args[0].arg}))
        elif isinstance(stmt, ast.For) and "action.choices = list(action.choices) + " in text:
            dest = re.search(r"getattr\(action, 'dest', None\) == '(\w+)'", text)
            added = re.search(r"action\.choices = list\(action\.choices\) \+ (\[[^\]]*\])", text)
            if dest is None or added is None:
                raise Unread(f"args.py:{stmt.lineno}: choices widened in a form not read")
            choices[dest.group(1)] = list(ast.literal_eval(added.group(1)))
        elif isinstance(stmt, ast.For) and "sg._group_actions.append(action)" in text:
            continue  # help only: Dynamo's parser does not register these
        elif isinstance(stmt, ast.Assign) and text.startswith(
            "sglang_only_parser = argparse.ArgumentParser("
        ):
            continue
        elif (
            "sglang_only_parser.parse_args(unknown)" in text
            or "ConfigArgumentMerger(parser=sglang_only_parser)" in text
        ):
            continue
        else:
            raise Unread(f"args.py:{stmt.lineno}: sglang_only_parser used in a form not read")
    return adds, choices


def sglang_pin(metadata: str) -> str | None:
    """The `sglang==X` pin of the `sglang` extra."""
    for line in metadata.splitlines():
        match = re.match(
            r"Requires-Dist: sglang(?:\[[^\]]*\])?\s*==\s*([\w.]+)\s*;\s*extra == 'sglang'\s*$", line
        )
        if match:
            return match.group(1)
    return None


def _single_parser(wheel: Wheel, node: ast.AsyncFunctionDef | ast.FunctionDef) -> list:
    """Before 1.0: one parser, Dynamo's options (literal `parser.add_argument(...)` calls and
    the `DYNAMO_ARGS` table's `flags`, `action` and `nargs` where the loop passes them) added
    before `ServerArgs.add_cli_args(parser)`, then `parser.parse_args(args)`."""
    found: list = [[["-h", "--help"], False]]
    table: dict[str, ast.expr] = {}
    for stmt in wheel.tree(ARGS).body:
        target = (
            stmt.target
            if isinstance(stmt, ast.AnnAssign)
            else (stmt.targets[0] if isinstance(stmt, ast.Assign) else None)
        )
        if isinstance(target, ast.Name) and target.id == "DYNAMO_ARGS" and isinstance(stmt.value, ast.Dict):  # type: ignore[union-attr]
            table = {str(literal(k)): v for k, v in zip(stmt.value.keys, stmt.value.values)}  # type: ignore[union-attr, arg-type]
    for stmt in node.body:
        text = ast.unparse(stmt)
        if text == "ServerArgs.add_cli_args(parser)":
            return found
        if isinstance(stmt, ast.For) and text.startswith("for info in DYNAMO_ARGS.values():"):
            if "*info['flags']" not in text:
                raise Unread(f"args.py:{stmt.lineno}: DYNAMO_ARGS loop does not pass *info['flags']")
            passes = {key: f"info['{key}']" in text for key in ("action", "nargs")}
            for name, entry in table.items():
                if not isinstance(entry, ast.Dict):
                    raise Unread(f"DYNAMO_ARGS[{name!r}] is not a dict literal")
                fields = {str(literal(k)): v for k, v in zip(entry.keys, entry.values)}  # type: ignore[arg-type]
                strings = literal(fields.get("flags"))
                if not isinstance(strings, list) or not all(isinstance(s, str) for s in strings):
                    raise Unread(f"DYNAMO_ARGS[{name!r}]['flags'] is not a literal list")
                action = action_name(fields.get("action")) if passes["action"] else "store"
                nargs = literal(fields.get("nargs")) if passes["nargs"] else None
                found.append(option(strings, action, nargs))
        elif isinstance(stmt, ast.Expr) and text.startswith("parser.add_argument("):
            call = stmt.value
            assert isinstance(call, ast.Call)
            strings = [literal(a) for a in call.args]
            if not all(isinstance(s, str) for s in strings):
                raise Unread(f"args.py:{stmt.lineno}: option strings not literal")
            keywords = {k.arg: k.value for k in call.keywords}
            found.append(option(strings, action_name(keywords.get("action")), literal(keywords.get("nargs"))))  # type: ignore[arg-type]
        elif text == "parser = argparse.ArgumentParser()":
            continue
        elif "parser" in re.findall(r"\w+", text):
            raise Unread(f"args.py:{stmt.lineno}: the parser is used in a form not read")
    raise Unread("parse_args never calls ServerArgs.add_cli_args(parser)")


def read_release(path: str) -> dict[str, object]:
    wheel = Wheel(path)
    node = _parse_args(wheel)
    text = ast.unparse(node)
    if "ServerArgs.add_cli_args(parser)" in text and "parsed_args = parser.parse_args(args)" in text:
        row = {
            "sglang": sglang_pin(wheel.metadata()),
            "dynamo": _single_parser(wheel, node),
            "sglang_adds": [],
        }
        row["choices_added"] = {}
        row["changes_sglang"] = _changing(wheel, node)
        return row
    for needed in ("parser.parse_known_args(args)", "sglang_only_parser.parse_args(unknown)"):
        if needed not in text:
            raise Unread(f"parse_args does not call {needed}")
    if text.index("parser.parse_known_args(args)") > text.index("sglang_only_parser.parse_args(unknown)"):
        raise Unread("parse_args parses SGLang's flags first")
    if "allow_abbrev=False" in text:
        raise Unread("allow_abbrev=False: abbreviations would not be taken")
    reader = Reader(wheel)
    dynamo = [[["-h", "--help"], False], *_group_methods(wheel, reader, node.body)]
    dynamo.extend(_router_stage(wheel, reader, text))
    adds, choices = _sglang_adds(wheel, reader, node.body)
    row = {
        "sglang": sglang_pin(wheel.metadata()),
        "dynamo": dynamo,
        "sglang_adds": adds,
        "choices_added": choices,
    }
    row["changes_sglang"] = _changing(wheel, node)
    return row


def _reads(wheel: Wheel, call: ast.Call) -> set[str]:
    """What the function `call` calls reads of the `dynamo_config` it is handed (`getattr(X,
    "NAME", ...)` or `X.NAME`), following a `return other(..., X)` once more."""
    names = [ast.unparse(a) for a in call.args]
    where, func = definition(wheel, ARGS, call.func.id)  # type: ignore[attr-defined]
    if not isinstance(func, ast.FunctionDef):
        raise Unread(f"{where}: {call.func.id} is not a function")  # type: ignore[attr-defined]
    param = func.args.args[names.index("dynamo_config")].arg
    text = ast.unparse(func)
    found = set(re.findall(rf"getattr\({param}, '(\w+)'", text)) | set(re.findall(rf"\b{param}\.(\w+)", text))
    return found


def _changing(wheel: Wheel, node: ast.AsyncFunctionDef | ast.FunctionDef) -> list[str]:
    """Dynamo's own settings that change what SGLang gets, sorted: `dynamo_config.NAME` in the
    test of an `if` of parse_args whose body assigns `parsed_args.FIELD` or the argv, and in
    every function parse_args hands `unknown` (the argv left for SGLang) with `dynamo_config`."""
    found: set[str] = set()
    made: dict[str, ast.Call] = {}  # `gateway_count = effective_gateway_workers(parsed_args, dynamo_config)`
    for stmt in ast.walk(node):
        if (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name)
        ):
            if "dynamo_config" in [ast.unparse(a) for a in stmt.value.args]:
                made.update((t.id, stmt.value) for t in stmt.targets if isinstance(t, ast.Name))
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.If):
            body = "\n".join(ast.unparse(s) for s in stmt.body)
            if re.search(r"^\s*(?:parsed_args\.\w+|unknown|args_dict\[[^\]]*\]) =", body, re.M):
                test = ast.unparse(stmt.test)
                found.update(re.findall(r"(?:dynamo_config|parsed_args)\.(\w+)", test))
                for name in re.findall(r"\w+", test):
                    if name in made:
                        found.update(_reads(wheel, made[name]))
        if isinstance(stmt, ast.Call) and isinstance(stmt.func, ast.Name):
            names = [ast.unparse(a) for a in stmt.args]
            if "unknown" in names and "dynamo_config" in names:
                where, func = definition(wheel, ARGS, stmt.func.id)
                config = func.args.args[names.index("dynamo_config")].arg  # type: ignore[union-attr]
                found.update(re.findall(rf"\b{config}\.(\w+)", ast.unparse(func)))
    text = ast.unparse(node)
    if "dynamo_config.disagg_config" in text and "unknown.append('--config')" in text:
        found.add("disagg_config")
    if "'--config-key' in args" in text:  # before 1.0: the key picks a section of `--config`
        found.add("config_key")
    return sorted(found - {"validate_multimodal_topology"})


def stored_versions(path: str = OUT) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    header: dict[str, list[str]] = json.loads(lines[1].rstrip(","))
    return header["versions"]


def build(versions: list[str], cache: str = CACHE) -> tuple[dict[str, object], list[object]]:
    versions = sorted(versions, key=release_key)
    rows = []
    for version in versions:
        try:
            rows.append(read_release(wheel_path(version, cache)))
        except Unread as problem:
            raise SystemExit(f"ai-dynamo {version}: {problem}") from None
    return {"format": 1, "package": "ai-dynamo", "module": "dynamo.sglang", "versions": versions}, rows


def dump(data: tuple[dict[str, object], list[object]]) -> str:
    return line_array(data[0], data[1], [])


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv,
        (__doc__ or "").splitlines()[0],
        OUT,
        lambda given, out: given or stored_versions(out),
        build,
        dump,
        lambda data, text: f"{len(data[1])} releases, {len(text)} bytes",
        {"cache": CACHE},
    )


if __name__ == "__main__":
    sys.exit(main())
