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
