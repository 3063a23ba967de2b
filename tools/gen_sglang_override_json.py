#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_override_json.json: where each release parses
`--json-model-override-args` at start-up, read statically (`ast`, never imported) from its wheel.

    python tools/gen_sglang_override_json.py              # every release the flag schema stores
    python tools/gen_sglang_override_json.py --check      # regenerate and compare, write nothing

Per release, name -> index of its reading:

- `override_json`: `"model_config_init"` when `ModelConfig.__init__`
  (sglang/srt/configs/model_config.py) runs `json.loads(model_override_args)` in its own body
  (no `if`, `try` or loop around it) and the tokenizer manager
  (sglang/srt/managers/tokenizer_manager.py) builds a `ModelConfig` (every launch does, with
  `server_args.json_model_override_args`): an invalid JSON value then stops the launch with
  `json.decoder.JSONDecodeError`. `"other"`: a form not read here (the check is then
  unverified for that release).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_override_json.json")
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
TOKENIZER_MANAGER = "sglang/srt/managers/tokenizer_manager.py"


def _loads_in_body(function: ast.FunctionDef) -> bool:
    """`json.loads(model_override_args)` as a statement of the function's own body."""
    for statement in function.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr)) else None
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "loads"
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == "json"
            and len(value.args) == 1
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id == "model_override_args"
        ):
            return True
    return False


def override_reading(model_config: str | None, tokenizer_manager: str | None) -> str:
    if model_config is None or tokenizer_manager is None:
        return "other"
    for node in ast.walk(ast.parse(model_config)):
        if isinstance(node, ast.ClassDef) and node.name == "ModelConfig":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__" and _loads_in_body(item):
                    built = any(
                        isinstance(n, ast.Name) and n.id == "ModelConfig"
                        for n in ast.walk(ast.parse(tokenizer_manager))
                    )
                    return "model_config_init" if built else "other"
    return "other"


def read_release(path: str) -> list[tuple[str, object]]:
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        sources = [
            archive.read(name).decode("utf-8") if name in names else None
            for name in (MODEL_CONFIG, TOKENIZER_MANAGER)
        ]
    return [("override_json", override_reading(*sources))]


build, dump, main = per_release_generator(__doc__, OUT, read_release)


if __name__ == "__main__":
    sys.exit(main())
