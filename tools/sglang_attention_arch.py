"""Read, statically (`ast`, never imported), which architectures a release's `ModelConfig`
(sglang/srt/configs/model_config.py) gives MLA attention; used by
tools/gen_sglang_model_config.py (`mla_architectures`).

`use_mla_backend()` is `model_config.attention_arch == AttentionArch.MLA`. The config sets it
in an `if`/`elif` chain on `"A" in self.hf_config.architectures` tests. Each branch whose body
assigns `self.attention_arch = AttentionArch.MLA` gives its names: under `"mla"` where the name
alone decides, under `"mla_if"` where the test ANDs it with something else (0.5.23's Pixtral
with `kv_lora_rank`, DeepseekVL2 with `use_mla`). An architecture neither names is MHA. The
reading is None where an MLA assignment sits under a test that names no architecture, or
outside any such `if`.
"""

from __future__ import annotations

import ast


def _sets_mla(body: list[ast.stmt]) -> bool:
    return any(
        isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == "attention_arch" for t in stmt.targets)
        and ast.unparse(stmt.value) == "AttentionArch.MLA"
        for stmt in body
    )


def _names(test: ast.expr, alone: bool, out: dict[str, set[str]]) -> None:
    """`"A" in X.architectures` terms of `test`: alone (an `or` of them) or under an `and`."""
    if isinstance(test, ast.BoolOp):
        for value in test.values:
            _names(value, alone and isinstance(test.op, ast.Or), out)
        return
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.left, ast.Constant)
        and isinstance(test.left.value, str)
        and ast.unparse(test.comparators[0]).endswith(".architectures")
    ):
        out["mla" if alone else "mla_if"].add(test.left.value)


def read_mla_architectures(source: str | None) -> dict[str, list[str]] | None:
    if source is None:
        return None
    tree = ast.parse(source)
    found: dict[str, set[str]] = {"mla": set(), "mla_if": set()}
    branches = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _sets_mla(node.body):
            named: dict[str, set[str]] = {"mla": set(), "mla_if": set()}
            _names(node.test, True, named)
            if not named["mla"] and not named["mla_if"]:
                return None
            for key in found:
                found[key] |= named[key]
            branches += 1
    assigned = sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, (ast.If, ast.FunctionDef, ast.Module)) and _sets_mla(node.body)
    )
    if not branches or assigned != branches:
        return None
    found["mla_if"] -= found["mla"]
    return {key: sorted(values) for key, values in found.items()}


def read_generic_pick(resolution: list[str]) -> dict[str, list[str]] | None:
    """`generic_attention_pick`: whether the attention backend a release picks when none is
    given can depend on the target's architecture beyond its MLA/MHA kind. `resolution`: the
    sources of server_args.py and arg_groups/*.py. None where they call
    `is_fa3_default_architecture` (0.5.6-0.5.7 pick fa3 on Hopper only for the architectures it
    lists) or have no `_handle_attention_backend_compatibility`/`_attention_backend_default`;
    else {"tested": the strings a comparison or a `startswith`/`endswith` of those files tests
    (an architecture or model type a model-specific adjustment names)}: an architecture none of
    them names gets the pick of its attention kind alone."""
    if not resolution or any("is_fa3_default_architecture" in source for source in resolution):
        return None
    if not any(
        "def _handle_attention_backend_compatibility" in source or "def _attention_backend_default" in source
        for source in resolution
    ):
        return None
    tested: set[str] = set()
    for source in resolution:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Compare):
                parts: list[ast.expr] = [node.left, *node.comparators]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith")
            ):
                parts = list(node.args)
            else:
                continue
            for part in parts:
                for leaf in ast.walk(part):
                    if (
                        isinstance(leaf, ast.Constant)
                        and isinstance(leaf.value, str)
                        and len(leaf.value) >= 4
                    ):
                        tested.add(leaf.value)
    return {"tested": sorted(tested)}


def read_fa3_default(resolution: list[str], utils: str | None) -> list[str] | None:
    """`fa3_default_architectures`: where the resolution (`resolution`: server_args.py and
    arg_groups/*.py) calls `is_fa3_default_architecture`, the architectures that function of
    `utils` (sglang/srt/utils/common.py) lists: the set or list literal it tests
    `architectures[0] in` (directly or through the name it is assigned to); None elsewhere."""
    if utils is None or not any("is_fa3_default_architecture(" in source for source in resolution):
        return None
    for node in ast.walk(ast.parse(utils)):
        if not (isinstance(node, ast.FunctionDef) and node.name == "is_fa3_default_architecture"):
            continue
        named: dict[str, list[str]] = {}
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Assign)
                and len(inner.targets) == 1
                and isinstance(inner.targets[0], ast.Name)
                and isinstance(inner.value, (ast.Set, ast.List, ast.Tuple))
            ):
                named[inner.targets[0].id] = [
                    e.value
                    for e in inner.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
        for inner in ast.walk(node):
            if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.ops[0], ast.In):
                right = inner.comparators[0]
                if isinstance(right, ast.Name) and right.id in named:
                    return sorted(named[right.id])
                if isinstance(right, (ast.Set, ast.List, ast.Tuple)):
                    return sorted(
                        e.value
                        for e in right.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    )
    return None
