#!/usr/bin/env python3
"""Generate src/speclint/frontends/shell/torchrun_options.py: the options `torchrun` (and
`python -m torch.distributed.run`) reads before the script or module it starts, read
statically (`ast`, never imported) from torch's own `torch/distributed/run.py`, and those the
deprecated `python -m torch.distributed.launch` adds (`torch/distributed/launch.py`).

    python tools/gen_torchrun.py                  # torch of the oracle venv (.cache/oracle)
    python tools/gen_torchrun.py --torch DIR      # another installed torch (its package folder)
    python tools/gen_torchrun.py --check          # regenerate and compare, write nothing

`get_args_parser()` builds one argparse parser: each `parser.add_argument(...)` with option
strings gives an option; its action says how many words it takes: torch's `env` action (in
`torch/distributed/argparse_util.py`: an `Action` with argparse's default nargs, one value),
`check_env` (nargs=0: a switch), none (argparse's `store`: one value), `store_true` /
`store_false` (a switch). Any other action, an `nargs`, or an option string that is not a
literal stops the generator: no option is guessed. The torch release is `torch/version.py`'s
`__version__`.

launch.py's `parse_args()` takes run.py's parser (`from torch.distributed.run import
get_args_parser`) and adds its own options (`--use-env`), read the same way. Without
`--use-env` run.py's `config_from_args` adds one argument before the script's own ones, under
`if not use_env:` (`cmd_args.append(f"--local-rank={...}")`): its literal start is read from
there. Any other shape stops the generator.
"""

from __future__ import annotations

import ast
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import generator_main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "frontends", "shell", "torchrun_options.py")
_ONE_VALUE = {"env", "store"}
_SWITCH = {"check_env", "store_true", "store_false"}


class Unread(Exception):
    """Source the generator does not follow (it stops rather than guess)."""


def default_torch() -> str:
    found = sorted(
        glob.glob(os.path.join(ROOT, ".cache", "oracle", "*", "lib", "python*", "site-packages", "torch"))
    )
    if not found:
        raise SystemExit("no torch under .cache/oracle: pass --torch DIR")
    return found[-1]


def torch_version(torch_dir: str) -> str:
    with open(os.path.join(torch_dir, "version.py"), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == "__version__" for t in targets) and isinstance(
            value, ast.Constant
        ):
            return str(value.value)
    raise Unread("torch/version.py has no literal __version__")


def _function(tree: ast.Module, name: str, where: str) -> ast.FunctionDef:
    function = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if function is None:
        raise Unread(f"{where} has no {name}()")
    return function


def read_options(
    source: str, name: str = "get_args_parser", where: str = "run.py"
) -> tuple[list[str], list[str]]:
    """(option strings taking one value, switches) of the `add_argument` calls in function
    `name` (run.py's `get_args_parser()`), in source order."""
    function = _function(ast.parse(source), name, where)
    valued: list[str] = []
    switches: list[str] = []
    for call in ast.walk(function):
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "add_argument"
        ):
            continue
        names = []
        for arg in call.args:
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                raise Unread(f"line {call.lineno}: an option string that is not a literal")
            names.append(arg.value)
        if not any(name.startswith("-") for name in names):
            continue  # the positional script and its arguments
        keywords = {k.arg: k.value for k in call.keywords}
        if "nargs" in keywords:
            raise Unread(f"line {call.lineno}: nargs given for {names}")
        action_node = keywords.get("action")
        if action_node is None:
            action = "store"
        elif isinstance(action_node, ast.Name):
            action = action_node.id
        elif isinstance(action_node, ast.Constant) and isinstance(action_node.value, str):
            action = action_node.value
        else:
            raise Unread(f"line {call.lineno}: an action the generator does not read")
        if action in _ONE_VALUE:
            valued += names
        elif action in _SWITCH:
            switches += names
        else:
            raise Unread(f"line {call.lineno}: action {action} for {names}")
    return valued, switches


def read_launch(source: str) -> tuple[list[str], list[str]]:
    """(options taking one value, switches) launch.py's `parse_args()` adds to run.py's parser."""
    tree = ast.parse(source)
    if not any(
        isinstance(n, ast.ImportFrom)
        and n.module == "torch.distributed.run"
        and any(alias.name == "get_args_parser" for alias in n.names)
        for n in tree.body
    ):
        raise Unread("launch.py does not take get_args_parser from torch.distributed.run")
    return read_options(source, "parse_args", "launch.py")


def read_local_rank(source: str) -> str:
    """The literal start of the argument run.py's `config_from_args` appends under `if not
    use_env:` (`--local-rank=`)."""
    function = _function(ast.parse(source), "config_from_args", "run.py")
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "not use_env"):
            continue
        (statement,) = node.body if len(node.body) == 1 else (None,)
        call = statement.value if isinstance(statement, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "append"
            and len(call.args) == 1
            and isinstance(call.args[0], ast.JoinedStr)
            and call.args[0].values
            and isinstance(call.args[0].values[0], ast.Constant)
        ):
            return str(call.args[0].values[0].value)
        raise Unread(f"line {node.lineno}: `if not use_env:` does not append one f-string")
    raise Unread("run.py's config_from_args has no `if not use_env:`")


def render(
    version: str,
    valued: list[str],
    switches: list[str],
    launch: tuple[list[str], list[str]],
    local_rank: str,
) -> str:
    def names(items: list[str]) -> str:
        if not items:
            return "frozenset[str]()"
        return (
            "frozenset(\n    {\n" + "".join(f"        {json.dumps(item)},\n" for item in items) + "    }\n)"
        )

    return (
        '"""torchrun\'s options, generated by tools/gen_torchrun.py from torch '
        f"{version}'s\ntorch/distributed/run.py (`get_args_parser`, `config_from_args`) and\nlaunch.py "
        '(`parse_args`). Do not edit."""\n\n'
        f"TORCH_VERSION = {json.dumps(version)}\n"
        f"# options followed by one value (`--nproc-per-node 8`, `--nproc-per-node=8`)\n"
        f"VALUE = {names(valued)}\n"
        f"# switches (no value)\n"
        f"SWITCH = {names(switches)}\n"
        f"# options `python -m torch.distributed.launch` adds (launch.py `parse_args`): taking a value\n"
        f"LAUNCH_VALUE = {names(launch[0])}\n"
        f"# ... and switches\n"
        f"LAUNCH_SWITCH = {names(launch[1])}\n"
        f"# what run.py `config_from_args` puts before the script's arguments without `--use-env`\n"
        f"LOCAL_RANK_ARG = {json.dumps(local_rank)}\n"
    )


def build(torch: str | None = None) -> tuple[str, list[str], list[str], tuple[list[str], list[str]], str]:
    """What `render` writes, read from torch's package folder `torch` (default: the oracle
    venv's): its version, run.py's options taking a value and switches, launch.py's, and
    run.py's local-rank argument."""
    torch_dir = torch or default_torch()
    with open(os.path.join(torch_dir, "distributed", "run.py"), encoding="utf-8") as handle:
        run_source = handle.read()
    with open(os.path.join(torch_dir, "distributed", "launch.py"), encoding="utf-8") as handle:
        launch = read_launch(handle.read())
    valued, switches = read_options(run_source)
    return torch_version(torch_dir), valued, switches, launch, read_local_rank(run_source)


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv,
        (__doc__ or "").splitlines()[0],
        OUT,
        None,
        build,
        lambda read: render(*read),
        lambda read, text: f"torch {read[0]}: {len(read[1])} options taking a value, {len(read[2])} switches",
        {"torch": (None, "torch's package folder (default: the oracle venv's)")},
        source="torch's run.py and launch.py",
    )


if __name__ == "__main__":
    sys.exit(main())
