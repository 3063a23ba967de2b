#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_models.json: each release's model registry and
drafter facts, read statically (`ast`, never imported) from its wheel.

    python tools/gen_sglang_facts.py                 # every release the flag schema stores
    python tools/gen_sglang_facts.py 0.5.24          # add (or refresh) releases
    python tools/gen_sglang_facts.py --check         # regenerate and compare, write nothing

Wheels come from `.cache/sglang-wheels/` (`pip download --no-deps sglang==V` when missing,
as tools/gen_sglang_schema.py does). What is read, per release:

- architectures: every class named by an `EntryClass` assignment in
  `sglang/srt/models/**/*.py` (`registry.py::import_model_classes` keys on `__name__`);
  a module-level alias (`Foo = Bar`) is followed to the class it names.
- capture: the target architectures whose module defines `set_eagle3_layers_to_capture`,
  by how the hook turns eagle_config ids into captured layers
  (speclint.sglang.checkpoints.aux_layers):
  `layer_ids[0] == 1` -> deepseek_first_id, `max(layer_ids) == num_layers` -> gpt_oss_max,
  `num_layers // 2 + 1` -> shifted_default, else plus_one. A hook that only passes its ids
  on to `self.<attr>.set_eagle3_layers_to_capture` takes the convention of the module that
  defines the class stored in `self.<attr>`.
- indexes_layers: targets whose hook does `setattr(self.layers[layer_id], ...)`.
- speculative_algorithms: the members of `SpeculativeAlgorithm` (speculative/spec_info.py),
  or the names its registry registers at import (`register("X")`,
  `register_speculative_algorithm("X", aliases=...)`), NONE left out; empty before
  speculative decoding exists.
- eagle3_aux_count_from_config: llama_eagle3.py sizes `fc` from `num_aux_hidden_states`
  (else a fixed 3 aux hidden states).
- eagle3_ignores_token_map: a module under `sglang/srt/speculative/` logs "... EAGLE3 models
  already have this. Ignoring the specified token map."
- context_override_default: the default of SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN
  (`get_bool_env_var(..., default="True")` or `EnvBool(False)`); null when not found.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import zipfile
from functools import cache

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_sglang_schema import CACHE, release_key, wheel_path  # noqa: E402
from gen_sglang_schema import load as load_flags
from line_array import generator_main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_models.json")
MODELS = "sglang/srt/models/"
FAMILIES = ("plus_one", "deepseek_first_id", "gpt_oss_max", "shifted_default")


def _entry_classes(tree: ast.Module) -> list[str]:
    """Class names an `EntryClass = ...` / `EntryClass += ...` names, aliases followed."""
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    aliases = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
        ):
            aliases[node.targets[0].id] = node.value.id
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "EntryClass" for t in targets):
                for n in ast.walk(node.value):
                    if isinstance(n, ast.Name) and n.id != "EntryClass":
                        name = n.id
                        while name in aliases and name not in classes:
                            name = aliases[name]
                        names.append(name)
    return names


def _hooks(tree: ast.Module) -> list[ast.FunctionDef]:
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and n.name == "set_eagle3_layers_to_capture"
    ]


def _delegate(hook: ast.FunctionDef) -> str | None:
    """`attr` when the hook hands its own ids to `self.attr.set_eagle3_layers_to_capture`."""
    params = [a.arg for a in hook.args.args[1:]]
    for node in ast.walk(hook):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "set_eagle3_layers_to_capture"
            and isinstance(node.func.value, ast.Attribute)
            and isinstance(node.func.value.value, ast.Name)
            and node.func.value.value.id == "self"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in params
        ):
            return node.func.value.attr
    return None


def _stored_class(tree: ast.Module, attr: str) -> str | None:
    """The class called in `self.attr = Class(...)`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == attr
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and isinstance(node.value.func, ast.Name)
                ):
                    return node.value.func.id
    return None


def _imported_from(tree: ast.Module, name: str) -> str | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if any((a.asname or a.name) == name for a in node.names):
                return node.module.replace(".", "/") + ".py"
    return None


def _own_family(text: str) -> str:
    if "layer_ids[0] == 1" in text:
        return "deepseek_first_id"
    if "max(layer_ids) == num_layers" in text:
        return "gpt_oss_max"
    if "num_layers // 2 + 1" in text:
        return "shifted_default"
    return "plus_one"


@cache
def _summary(source: str) -> tuple:
    """(EntryClass names, has a capture hook, modules its hook forwards to, own convention,
    indexes self.layers): per distinct file text, so a module unchanged across releases is
    parsed once."""
    if "EntryClass" not in source and "set_eagle3_layers_to_capture" not in source:
        return (), False, (), None, False
    tree = ast.parse(source)
    hooks = _hooks(tree)
    forwards = []
    for hook in hooks:
        attr = _delegate(hook)
        stored = _stored_class(tree, attr) if attr else None
        module = _imported_from(tree, stored) if stored else None
        if module:
            forwards.append(module)
    return (
        tuple(_entry_classes(tree)),
        bool(hooks),
        tuple(forwards),
        _own_family(source),
        "setattr(self.layers[layer_id]" in source,
    )


def read_release(path: str) -> dict:
    """The facts of one wheel (format described in the module docstring)."""
    with zipfile.ZipFile(path) as whl:
        sources = {
            n: whl.read(n).decode("utf-8-sig")
            for n in whl.namelist()
            if n.startswith(MODELS) and n.endswith(".py")
        }
        spec = "sglang/srt/speculative/spec_info.py"
        spec_src = whl.read(spec).decode("utf-8-sig") if spec in whl.namelist() else ""
        speculative = "\n".join(
            whl.read(n).decode("utf-8-sig")
            for n in whl.namelist()
            if n.startswith("sglang/srt/speculative/") and n.endswith(".py")
        )
        context = "\n".join(
            whl.read(n).decode("utf-8-sig")
            for n in whl.namelist()
            if n in ("sglang/srt/configs/model_config.py", "sglang/srt/environ.py")
        )
    summary = {n: _summary(src) for n, src in sorted(sources.items())}
    architectures: set[str] = set()
    for entry, *_ in summary.values():
        architectures.update(entry)

    def family(name: str, seen: frozenset = frozenset()) -> str | None:
        if name not in summary or name in seen:
            return None
        _, has_hook, forwards, own, _ = summary[name]
        if not has_hook:
            return None
        for module in forwards:
            if module != name:
                inherited = family(module, seen | {name})
                if inherited is not None:
                    return inherited
        return own

    capture: dict[str, set[str]] = {f: set() for f in FAMILIES}
    indexes: set[str] = set()
    for name, (entry, _, _, _, indexing) in summary.items():
        found = family(name)
        if found is None:
            continue
        capture[found].update(entry)
        if indexing:
            indexes.update(entry)
    eagle3 = sources.get(MODELS + "llama_eagle3.py", "")
    return {
        "architectures": sorted(architectures),
        "capture": {f: sorted(n) for f, n in capture.items() if n},
        "indexes_layers": sorted(indexes),
        "speculative_algorithms": _algorithms(spec_src),
        "eagle3_aux_count_from_config": "num_aux_hidden_states" in eagle3,
        "eagle3_ignores_token_map": "Ignoring the specified token map" in speculative,
        "context_override_default": _context_default(context),
    }


_ENV = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"


def _context_default(source: str) -> bool | None:
    """The default of the variable that lets a context length exceed the model's."""
    declared = re.search(_ENV + r"\s*=\s*EnvBool\(\s*(\w+)\s*\)", source)
    if declared:
        return declared.group(1) == "True"
    read = re.search(
        r"get_bool_env_var\(\s*[\"']" + _ENV + r"[\"']\s*(?:,\s*default\s*=\s*"
        r"[\"'](\w+)[\"'])?\s*\)",
        source,
    )
    if read:
        return (read.group(1) or "false").lower() in ("true", "1")
    return None


def _algorithms(source: str) -> list[str]:
    if not source:
        return []
    tree = ast.parse(source)
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "SpeculativeAlgorithm":
            names += [
                t.id
                for stmt in node.body
                if isinstance(stmt, ast.Assign)
                for t in stmt.targets
                if isinstance(t, ast.Name) and t.id.isupper()
            ]
    for stmt in tree.body:  # 0.5.x registry: SpeculativeAlgorithm.register("X") at module level
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call):
            continue
        func = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        if func not in ("register", "register_speculative_algorithm"):
            continue
        if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            names.append(call.args[0].value)
        for kw in call.keywords:
            if kw.arg == "aliases" and isinstance(kw.value, (ast.Tuple, ast.List)):
                names += [e.value for e in kw.value.elts if isinstance(e, ast.Constant)]
    return [n for n in dict.fromkeys(names) if n != "NONE"]


def build(versions: list[str], cache: str = CACHE) -> dict:
    """Names stored once (`names`), each release's lists as indices into it."""
    facts = {}
    for version in versions:
        facts[version] = read_release(wheel_path(version, cache))
        print(f"read {version}", file=sys.stderr, flush=True)
    names = sorted({n for f in facts.values() for n in f["architectures"]})
    rank = {n: i for i, n in enumerate(names)}

    def ids(items: list[str]) -> list[int]:
        return [rank[n] for n in items]

    releases = {}
    for version, f in facts.items():
        releases[version] = {
            "architectures": ids(f["architectures"]),
            "capture": {k: ids(v) for k, v in f["capture"].items()},
            "indexes_layers": ids(f["indexes_layers"]),
            "speculative_algorithms": f["speculative_algorithms"],
            "eagle3_aux_count_from_config": f["eagle3_aux_count_from_config"],
            "eagle3_ignores_token_map": f["eagle3_ignores_token_map"],
            "context_override_default": f["context_override_default"],
        }
    return {"format": 1, "versions": versions, "names": names, "releases": releases}


def dump(data: dict) -> str:
    """One JSON array, one element per line: the header (versions, names), then one line
    per release in header order, so speclint parses only the release it checks."""

    def compact(value) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))

    lines = [compact({k: data[k] for k in ("format", "versions", "names")})]
    lines += [compact(data["releases"][v]) for v in data["versions"]]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def load(path: str = OUT) -> dict:
    with open(path, encoding="utf-8") as fh:
        lines = json.load(fh)
    header = lines[0]
    return {**header, "releases": dict(zip(header["versions"], lines[1:]))}


def _versions(given: list[str], out: str) -> list[str]:
    """Those the flag schema stores, or those given added to (or refreshed in) the stored ones."""
    if not given:
        return load_flags()["versions"]
    stored = load(out)["versions"] if os.path.exists(out) else []
    return sorted(set(stored) | set(given), key=release_key)


def _said(data: dict, text: str) -> str:
    lines = [f"{len(data['names'])} distinct architectures, {len(text.encode()) // 1024} KiB"]
    for version in data["versions"]:
        r = data["releases"][version]
        lines.append(
            f"{version}: {len(r['architectures'])} architectures, "
            f"{sum(len(v) for v in r['capture'].values())} EAGLE-3 capture targets, "
            f"algorithms {','.join(r['speculative_algorithms']) or '-'}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv, (__doc__ or "").splitlines()[0], OUT, _versions, build, dump, _said, {"cache": CACHE}
    )


if __name__ == "__main__":
    sys.exit(main())
