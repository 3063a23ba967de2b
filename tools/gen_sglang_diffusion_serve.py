#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_diffusion_serve.json: which releases' `sglang serve`
hands a diffusion model to SGLang's diffusion server, and that server's flags, per release,
read statically (`ast`, never imported) from each wheel.

    python tools/gen_sglang_diffusion_serve.py              # every release the flag schema stores
    python tools/gen_sglang_diffusion_serve.py --check      # regenerate and compare, write nothing

Per release whose `sglang/cli/serve.py` calls `get_is_diffusion_model` (0.5.5+):
- `model_type`: whether `serve` reads a `--model-type` override (`_extract_model_type_override`:
  `--model-type diffusion` picks the diffusion server whatever the model);
- `flags`: the option strings (`--num-gpus`, ...) every `add_argument` call writes literally
  in the modules the diffusion server's parser is built from (PARSER_PARTS under
  `sglang/multimodal_gen/`), sorted (an option built at run time is not among them);
- `model_dir`: how `get_is_diffusion_model` (sglang/cli/utils.py) tells a diffusers pipeline
  on disk, or null where not read: {"files": the index files its folder check opens, first
  found decides, "key": the key that file must hold, "hub_file": the one file it fetches for
  a hub id before that check}.
speclint reads a `sglang serve` launch that names one of these flags and no flag of the
language-model server's parser as the diffusion server's, which it does not model
(`speclint.rules.diffusion_launch`).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_diffusion_serve.json")
SERVE = "sglang/cli/serve.py"
DIFFUSION = "sglang/multimodal_gen/"
PARSER_PARTS = ("/runtime/server_args", "/entrypoints/cli/", "/configs/")
"""Where the diffusion server's parser is built (its `ServerArgs.add_cli_args`, the serve
command's own options, the pipeline configs' options), not its benchmarks and tools."""


def option_strings(source: str) -> set[str]:
    """The `--long` option strings of every `add_argument(...)` call written literally."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "add_argument":
            continue
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"):
                found.add(arg.value)
    return found


UTILS = "sglang/cli/utils.py"


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def model_dir(source: str) -> dict[str, object] | None:
    """`get_is_diffusion_model`'s folder check: the function it calls (directly) whose body
    joins a folder with `*index.json` names (`os.path.join(model_dir, "model_index.json")`,
    or a `for` over a tuple of them) and tests `"<key>" in`/`not in` the loaded JSON; and the
    `filename=` of its `hf_hub_download` (0.5.5: `_maybe_download_model`'s first)."""
    functions = {f.name: f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef)}
    detect = functions.get("get_is_diffusion_model")
    if detect is None:
        return None
    called = [n.func.id for n in ast.walk(detect) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    for name in called:
        check = functions.get(name)
        if check is None:
            continue
        files = list(dict.fromkeys(s for s in _strings(check) if s.endswith("index.json")))
        keys = [
            node.left.value
            for node in ast.walk(check)
            if isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
            and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
        ]
        if not files or len(set(keys)) != 1:
            continue
        hub = [
            kw.value.value
            for f in [detect, *(functions[c] for c in called if c in functions)]
            for n in ast.walk(f)
            if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("hf_hub_download")
            for kw in n.keywords
            if kw.arg == "filename" and isinstance(kw.value, ast.Constant)
        ]
        return {"files": files, "key": keys[0], "hub_file": hub[0] if hub else None}
    return None


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        if SERVE not in names:
            return []
        serve = archive.read(SERVE).decode("utf-8")
        if "get_is_diffusion_model" not in {
            n.id if isinstance(n, ast.Name) else n.attr
            for n in ast.walk(ast.parse(serve))
            if isinstance(n, (ast.Name, ast.Attribute))
        }:
            return []
        flags: set[str] = set()
        for name in names:
            if (
                name.startswith(DIFFUSION)
                and name.endswith(".py")
                and any(part in name for part in PARSER_PARTS)
            ):
                source = archive.read(name).decode("utf-8")
                if "add_argument" in source:
                    flags |= option_strings(source)
        utils = archive.read(UTILS).decode("utf-8") if UTILS in names else None
    model_type = "_extract_model_type_override" in serve
    found = model_dir(utils) if utils is not None else None
    return [("model_type", model_type), ("flags", sorted(flags)), ("model_dir", found)]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
