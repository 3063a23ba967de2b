#!/usr/bin/env python3
"""Generate src/speclint/sglang/traits_deterministic.py: the attention backend each modelled
SGLang release falls back to for --enable-deterministic-inference when none is given, read
statically (`ast`, never imported) from its wheel.

    python tools/gen_deterministic_facts.py            # every modelled release
    python tools/gen_deterministic_facts.py --check    # regenerate and compare, write nothing
    python tools/gen_deterministic_facts.py 0.5.23 --out /tmp/facts.py   # one release, elsewhere

What is read, per release (`.cache/sglang-wheels/`, fetched as gen_sglang_schema.py does):

- the fallback: in `_deterministic_attention_backend` (arg_groups/overrides.py, 0.5.15+) or
  `_handle_deterministic_inference` (server_args.py), the branch `if <x>.attention_backend is
  None:` and the three names it assigns, in source order: Blackwell (`is_sm100`/`is_sm120`)
  DeepSeek-family models, other Blackwell models, every other GPU;
- whether the fallback can happen while resolving: `ServerArgs.__post_init__` calls
  `_handle_deterministic_inference` before `_handle_attention_backend_compatibility` (which
  picks the GPU's default backend; when it runs first the backend is never None there).
  0.5.19+ resolve in `resolve_once`: the fallback is a post-process registered in
  overrides.py before `_attention_backend_default` (its order, read the same way).
- whether `_handle_multi_item_scoring` runs after it (then --enable-mis sees the fallback);
- what --rl-on-policy-target sets: the branch `if <x>.rl_on_policy_target is not None:` of
  `_handle_deterministic_inference` (server_args.py, or arg_groups/*.py 0.5.19+), its
  assignments `self.<field> = <constant>` / `declare_resolution(server_args, "<handler>",
  <field>=<constant>)` and the warning it logs.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_sglang_schema import CACHE, release_key, wheel_path  # noqa: E402
from line_array import generator_main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "traits_deterministic.py")
SERVER_ARGS = "sglang/srt/server_args.py"
OVERRIDES = "sglang/srt/arg_groups/overrides.py"


def _modelled() -> list[str]:
    sys.path.insert(0, os.path.join(ROOT, "src"))
    from speclint.sglang.traits import TRAITS

    return sorted(TRAITS, key=release_key)


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def _is_backend_none(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "attention_backend"
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _assigned(nodes: list[ast.stmt]) -> list[str]:
    """String constants assigned to `backend` / `<x>.attention_backend`, in source order."""
    names: list[str] = []
    for stmt in nodes:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                target = node.targets[0]
                named = (isinstance(target, ast.Name) and target.id == "backend") or (
                    isinstance(target, ast.Attribute) and target.attr == "attention_backend"
                )
                if named and isinstance(node.value.value, str):
                    names.append(node.value.value)
    return names


def _fallback(function: ast.FunctionDef) -> tuple[str, ...]:
    """(Blackwell DeepSeek, Blackwell other, other GPUs), or () when there is none."""
    for node in ast.walk(function):
        if isinstance(node, ast.If) and _is_backend_none(node.test):
            inner = node.body
            branch = next((n for n in inner if isinstance(n, ast.If)), None)
            if branch is None:
                return ()
            text = ast.unparse(branch.test)
            if "sm100" not in text and "sm120" not in text:
                return ()
            blackwell, other = _assigned(branch.body), _assigned(branch.orelse)
            if len(blackwell) != 2 or len(other) != 1:
                return ()
            return (blackwell[0], blackwell[1], other[0])
    return ()


def _call_order(tree: ast.Module) -> list[str]:
    """The `self._handle_*()` calls of `ServerArgs.__post_init__`, in order."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "ServerArgs":
            init = next(
                (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__post_init__"),
                None,
            )
            if init is None:
                return []
            calls: list[str] = []
            for sub in ast.walk(init):
                if (
                    isinstance(sub, ast.Call)
                    and isinstance(sub.func, ast.Attribute)
                    and isinstance(sub.func.value, ast.Name)
                    and sub.func.value.id == "self"
                    and sub.func.attr.startswith("_handle_")
                ):
                    calls.append(sub.func.attr)
            calls.sort(key=lambda name: _first_line(init, name))
            return calls
    return []


def _first_line(init: ast.FunctionDef, name: str) -> int:
    lines = [
        n.lineno
        for n in ast.walk(init)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == name
    ]
    return min(lines)


def _registered_order(tree: ast.Module) -> list[str]:
    """overrides.py's post-processes, in registration (source) order."""
    return [
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef)
        and any(ast.unparse(d) == "register_post_process" for d in n.decorator_list)
    ]


def _is_rl_target_set(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "rl_on_policy_target"
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _rl_on_policy(trees: list[ast.Module]) -> list[object] | None:
    """[handler, [[field, value], ...], logged] of the `rl_on_policy_target is not None`
    branch; None when no release file has one, or one of its statements is not read here."""
    for tree in trees:
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            branch = next(
                (n for n in ast.walk(function) if isinstance(n, ast.If) and _is_rl_target_set(n.test)), None
            )
            if branch is None:
                continue
            handler, sets, logged = function.name, [], None
            for stmt in branch.body:
                call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
                if (
                    isinstance(stmt, ast.Assign)
                    and isinstance(stmt.targets[0], ast.Attribute)
                    and ast.unparse(stmt.targets[0].value) == "self"
                    and isinstance(stmt.value, ast.Constant)
                ):
                    sets.append([stmt.targets[0].attr, stmt.value.value])
                elif call is not None and ast.unparse(call.func) == "declare_resolution":
                    if len(call.args) != 2 or not isinstance(call.args[1], ast.Constant):
                        return None
                    handler = str(call.args[1].value)
                    for keyword in call.keywords:
                        if keyword.arg is None or not isinstance(keyword.value, ast.Constant):
                            return None
                        sets.append([keyword.arg, keyword.value.value])
                elif call is not None and ast.unparse(call.func) == "logger.warning" and call.args:
                    if isinstance(call.args[0], ast.Constant):
                        logged = call.args[0].value
                elif not (isinstance(stmt, ast.Expr) or _environment_only(stmt)):
                    return None  # (environment variables it exports are not launch fields)
            return [handler, sets, logged]
    return None


def _environment_only(stmt: ast.stmt) -> bool:
    """`os.environ[...] = ...`: what resolution exports, not a field."""
    return isinstance(stmt, ast.Assign) and "environ" in ast.unparse(stmt.targets[0])


def read(version: str, cache: str = CACHE) -> dict[str, object]:
    with zipfile.ZipFile(wheel_path(version, cache)) as wheel:
        files = set(wheel.namelist())
        server_args = ast.parse(wheel.read(SERVER_ARGS))
        overrides = ast.parse(wheel.read(OVERRIDES)) if OVERRIDES in files else None
        groups = [
            ast.parse(wheel.read(name))
            for name in sorted(files)
            if name.startswith("sglang/srt/arg_groups/") and name.endswith(".py")
        ]
    rl_on_policy = _rl_on_policy([server_args, *groups])
    functions = _functions(server_args)
    fallback: tuple[str, ...] = ()
    if overrides is not None and "_deterministic_attention_backend" in _functions(overrides):
        fallback = _fallback(_functions(overrides)["_deterministic_attention_backend"])
    elif "_handle_deterministic_inference" in functions:
        fallback = _fallback(functions["_handle_deterministic_inference"])
    calls = _call_order(server_args)
    if "_handle_deterministic_inference" in calls and "_handle_attention_backend_compatibility" in calls:
        before_pick = calls.index("_handle_deterministic_inference") < calls.index(
            "_handle_attention_backend_compatibility"
        )
        mis_after = "_handle_multi_item_scoring" not in calls or calls.index(
            "_handle_multi_item_scoring"
        ) > calls.index("_handle_deterministic_inference")
    elif overrides is not None and not calls:  # resolve_once: the post-process order
        order = _registered_order(overrides)
        before_pick = (
            "_deterministic_attention_backend" in order
            and "_attention_backend_default" in order
            and order.index("_deterministic_attention_backend") < order.index("_attention_backend_default")
        )
        mis_after = before_pick  # attention_hook.py's MIS check reads the resolved view
    else:
        before_pick = mis_after = False
    fallback = fallback if before_pick else ()
    return {
        "fallback": fallback,
        "mis_sees_fallback": bool(fallback) and mis_after,
        "rl_on_policy": rl_on_policy,
    }


def _q(text: object) -> str:
    return json.dumps(text)  # the double quotes ruff format keeps


def render(facts: dict[str, dict[str, object]]) -> str:
    lines = [
        '"""The attention backend --enable-deterministic-inference falls back to when none is given,',
        "per modelled SGLang release: (Blackwell DeepSeek-family models, other Blackwell models, every",
        "other GPU), empty where the release has no fallback or picks the GPU's default backend",
        "first; whether `_handle_multi_item_scoring` (--enable-mis) runs after it; and what",
        "--rl-on-policy-target sets (handler, (field, value) pairs, the warning it logs). Generated",
        'by tools/gen_deterministic_facts.py from each release\'s wheel; do not edit."""',
        "",
        "from __future__ import annotations",
        "",
        "DETERMINISTIC_FALLBACK: dict[str, tuple[str, ...]] = {",
    ]
    lines += [f"    {_q(v)}: ({', '.join(map(_q, f['fallback']))})," for v, f in facts.items()]
    lines += ["}", "", "MIS_SEES_FALLBACK: frozenset[str] = frozenset(", "    ("]
    lines += [f"        {_q(v)}," for v, f in facts.items() if f["mis_sees_fallback"]]
    lines += ["    )", ")", ""]
    lines += ["RL_ON_POLICY: dict[str, tuple[str, tuple[tuple[str, object], ...], str | None]] = {"]
    for v, f in facts.items():
        rl = f["rl_on_policy"]
        if isinstance(rl, list):
            handler, sets, logged = rl
            pairs = "".join(f"({_q(k)}, {value!r})," for k, value in sets)
            lines += [f"    {_q(v)}: (", f"        {_q(handler)},", f"        ({pairs}),"]
            lines += [f"        {_q(logged) if logged is not None else 'None'},", "    ),"]
    lines += ["}", ""]
    return "\n".join(lines)


def build(versions: list[str], cache: str = CACHE) -> dict[str, dict[str, object]]:
    """Each release's facts (`read`), in release order."""
    return {v: read(v, cache) for v in sorted(versions, key=release_key)}


def _said(facts: dict[str, dict[str, object]], text: str) -> str:
    """Each release's fallback, one a line."""
    return "\n".join(
        [f"{len(facts)} releases"]
        + [
            f"{v:14} fallback={f['fallback']} mis_sees_fallback={f['mis_sees_fallback']}"
            for v, f in facts.items()
        ]
    )


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv,
        (__doc__ or "").splitlines()[0],
        OUT,
        lambda given, _out: given or _modelled(),
        build,
        render,
        _said,
        {"cache": CACHE},
    )


if __name__ == "__main__":
    raise SystemExit(main())
