"""What `ModelConfig._verify_quantization` (sglang/srt/configs/model_config.py) of an SGLang
release accepts besides its override hooks (tools/sglang_quant_hooks.py), read statically
(`ast`, never imported): its `compatible_quantization_methods`, `REQUANTIZATION_METHODS`, the
message it raises for a mismatch, the checkpoint methods `_parse_quant_hf_config` rewrites,
and the config classes (sglang/srt/configs/) that lift `text_config.quantization_config`.
Used by tools/gen_sglang_model_config.py."""

from __future__ import annotations

import ast


def verify_constants(source: str) -> tuple[dict[str, list[str]] | None, list[str] | None]:
    """`_verify_quantization`'s `compatible_quantization_methods` and the module's
    `REQUANTIZATION_METHODS` ([] when the module has none; None: not a literal)."""
    tree = ast.parse(source)
    requant: list[str] | None = []
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == "REQUANTIZATION_METHODS"
        ):
            requant = _strings(stmt.value)
    compatible: dict[str, list[str]] | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "_verify_quantization":
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Assign)
                    and isinstance(inner.targets[0], ast.Name)
                    and inner.targets[0].id == "compatible_quantization_methods"
                    and isinstance(inner.value, ast.Dict)
                ):
                    compatible = {}
                    for key, value in zip(inner.value.keys, inner.value.values):
                        items = _strings(value)
                        if (
                            not (isinstance(key, ast.Constant) and isinstance(key.value, str))
                            or items is None
                        ):
                            compatible = None
                            break
                        compatible[key.value] = items
    return compatible, requant


def _strings(node: ast.expr) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [str(e.value) for e in node.elts if isinstance(e, ast.Constant)]
    return None


def mismatch_message(source: str) -> str | None:
    """The f-string `_verify_quantization` raises for a mismatch ("... does not match ..."),
    its fields written `{method}` (the checkpoint's) and `{asked}` (--quantization)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "_verify_quantization":
            for inner in ast.walk(node):
                if not (isinstance(inner, ast.Raise) and isinstance(inner.exc, ast.Call) and inner.exc.args):
                    continue
                text = _template(inner.exc.args[0])
                if text is not None and "does not match" in text:
                    return text
    return None


def _template(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                name = ast.unparse(value.value)
                field = {"quant_method": "method", "self.quantization": "asked"}.get(name)
                if field is None or value.format_spec is not None or value.conversion != -1:
                    return None
                parts.append("{" + field + "}")
            else:
                text = _template(value)
                if text is None:
                    return None
                parts.append(text)
        return "".join(parts)
    return None


def parsed_methods(source: str) -> list[str]:
    """`quant_method`s `_parse_quant_hf_config` rewrites from other keys (`modelopt`): the
    strings it compares with an expression naming `quant_method`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "_parse_quant_hf_config":
            for inner in ast.walk(node):
                if isinstance(inner, ast.Compare) and "quant_method" in ast.unparse(inner.left):
                    found |= {
                        c.value
                        for c in inner.comparators
                        if isinstance(c, ast.Constant) and isinstance(c.value, str)
                    }
    return sorted(found)


def lifted_model_types(sources: dict[str, str]) -> list[str]:
    """The `model_type`s of SGLang's own config classes (sglang/srt/configs/) that take the
    checkpoint's `quantization_config` from `text_config` (`self.quantization_config =
    self.text_config.quantization_config`): the target's quantization is read there."""
    found: set[str] = set()
    for source in sources.values():
        if "text_config.quantization_config" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.ClassDef):
                continue
            model_type = None
            lifts = False
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Assign)
                    and isinstance(inner.targets[0], ast.Name)
                    and inner.targets[0].id == "model_type"
                    and isinstance(inner.value, ast.Constant)
                ):
                    model_type = inner.value.value
                if (
                    isinstance(inner, ast.Assign)
                    and ast.unparse(inner.targets[0]) == "self.quantization_config"
                    and ast.unparse(inner.value) == "self.text_config.quantization_config"
                ):
                    lifts = True
            if lifts and isinstance(model_type, str):
                found.add(model_type)
    return sorted(found)


HF_UTILS = ("sglang/srt/utils/hf_transformers_utils.py", "sglang/srt/hf_transformers_utils.py")


def text_config_copied(source: str | None) -> dict[str, str] | None:
    """`get_config` (hf_transformers_utils.py, 0.4.6.post3-0.5.10) copying every attribute of
    `get_hf_text_config(config)` the loaded config lacks onto it (`for key, val in ...:
    if not hasattr(config, key) ...: setattr(config, key, val)`): a `text_config`'s
    `quantization_config` then reaches `_verify_quantization` for any model type. Returns
    {"prefix": P, "suffix": S} of the architectures `get_hf_text_config` answers with the
    config itself (`class_name.startswith(P) and class_name.endswith(S)`: nothing is copied
    for them; "" when not read), or None when the release has no such copy."""
    if source is None or "get_hf_text_config" not in source:
        return None
    tree = ast.parse(source)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    config, text = functions.get("get_config"), functions.get("get_hf_text_config")
    if config is None or not any(_copies_missing(loop) for loop in ast.walk(config)):
        return None
    found = {"prefix": "", "suffix": ""}
    for node in ast.walk(text) if text is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            value = node.args[0]
            if node.func.attr in ("startswith", "endswith") and isinstance(value, ast.Constant):
                found["prefix" if node.func.attr == "startswith" else "suffix"] = str(value.value)
    return found


def _copies_missing(loop: ast.AST) -> bool:
    if not isinstance(loop, ast.For):
        return False
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.If)
            and "not hasattr(config, key)" in ast.unparse(node.test)
            and any("setattr(config, key" in ast.unparse(s) for s in node.body)
        ):
            return True
    return False


def unquant_unset_reading(sources: list[str]) -> bool:
    """Whether an `if <x>.quantization == "unquant":` of the resolution sets the quantization to
    None (`<x>.quantization = None`, or 0.5.19+'s `declare_resolution(..., quantization=None)`)
    and records `<y>._quantization_explicitly_unset = True` (0.5.11+)."""
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if not (
                isinstance(node, ast.If)
                and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Attribute)
                and node.test.left.attr == "quantization"
                and isinstance(node.test.ops[0], ast.Eq)
                and any(isinstance(c, ast.Constant) and c.value == "unquant" for c in node.test.comparators)
            ):
                continue
            body = [n for stmt in node.body for n in ast.walk(stmt)]
            to_none = any(
                isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Attribute) and t.attr == "quantization" for t in n.targets)
                and isinstance(n.value, ast.Constant)
                and n.value.value is None
                for n in body
            ) or any(
                isinstance(n, ast.Call)
                and any(
                    k.arg == "quantization" and isinstance(k.value, ast.Constant) and k.value.value is None
                    for k in n.keywords
                )
                for n in body
            )
            unset = any(
                isinstance(n, ast.Assign)
                and any(
                    isinstance(t, ast.Attribute) and t.attr == "_quantization_explicitly_unset"
                    for t in n.targets
                )
                and isinstance(n.value, ast.Constant)
                and n.value.value is True
                for n in body
            )
            if to_none and unset:
                return True
    return False
