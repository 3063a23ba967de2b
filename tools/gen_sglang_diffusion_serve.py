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
  `sglang/multimodal_gen/`), sorted (an option built at run time is not among them).
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
    model_type = "_extract_model_type_override" in serve
    return [("model_type", model_type), ("flags", sorted(flags))]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
