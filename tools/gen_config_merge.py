#!/usr/bin/env python3
"""Generate src/speclint/sglang/flags/data/config_merge.json: how each SGLang release merges a
`--config FILE.yaml` into argv, read from the release's own source (never imported).

    python tools/gen_config_merge.py 0.5.6.post2 0.5.23 [--cache DIR]   # add or refresh these
    python tools/gen_config_merge.py --check     # read the stored releases again, compare

For each release, the wheel (fetched into `.cache/sglang-wheels/` as gen_sglang_schema.py
does) is read: `prepare_server_args` (does it merge, and how it builds the merger) and
`ConfigArgumentMerger` (how booleans, lists and dicts become flags). A release whose code
matches none of the known shapes is left out: speclint then says the merge is unverified
for it. The releases stored are read again beside those given.
"""

from __future__ import annotations

import ast
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_sglang_schema import CACHE, release_key, wheel_path  # noqa: E402
from line_array import generator_main  # noqa: E402
from sglang_args import SERVER_ARGS  # noqa: E402
from sglang_source import Wheel  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "flags", "data", "config_merge.json")
MERGERS = ("sglang.srt.utils.server_args_config_parser", "sglang.srt.server_args_config_parser")


def _function(tree: ast.AST, name: str) -> ast.AST | None:
    return next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)


def traits(wheel: Wheel) -> dict | None:
    """The merge as this release does it, or None (no --config merge, or an unknown shape)."""
    server_args = wheel.module(SERVER_ARGS)
    prepare = _function(server_args.tree, "prepare_server_args") if server_args else None
    if prepare is None:
        return None
    prep = ast.unparse(prepare)
    if "'--config' in argv" not in prep:
        return {"merges": False}
    module = next((wheel.module(m) for m in MERGERS if wheel.module(m)), None)
    if module is None:
        return None
    src = module.src
    found: dict = {
        "merges": True,
        "module": module.name,
        "cli_wins": "config_args + before_config + after_config" in src,
    }
    if (
        "ConfigArgumentMerger(parser)" in prep
        and "isinstance(action, argparse._StoreTrueAction)" in src
        and "if key_norm in self.store_true_actions:" in src
    ):
        # the parser's store_true actions; other booleans become `--key true|false`
        found["booleans"] = "store_true_actions"
        found["store_true_keys"] = "spellings" if "def _config_keys" in src else "dest"
    elif (
        "ConfigArgumentMerger(boolean_actions=boolean_actions)" in prep
        and "hasattr(action, 'action')" in prep
    ):
        # built from `action.action`, an attribute argparse actions do not have: the list is
        # always empty, so every true boolean is a bare `--key` and every false one is dropped
        found["booleans"] = "bare_if_true"
    else:
        return None
    convert = _function(module.tree, "_convert_config_to_args")
    convert_src = ast.unparse(convert) if convert else ""
    found["dicts"] = "json" if "json.dumps(value)" in convert_src else "str"
    found["unsupported_actions"] = (
        "single_value_or_store_true"
        if "_takes_one_value" in src
        else "store_or_store_true"
        if "unsupported_actions" in convert_src
        else "none"
    )
    return found


def stored_versions(out: str) -> list[str]:
    """The releases the data file at `out` holds (none when there is no file)."""
    if not os.path.exists(out):
        return []
    with open(out, encoding="utf-8") as handle:
        return list(json.load(handle)["releases"])


def build(versions: list[str], cache: str = CACHE) -> dict:
    releases = {}
    for version in sorted(versions, key=release_key):
        found = traits(Wheel(wheel_path(version, cache)))
        if found is None:
            print(f"{version}: unknown shape, left out", file=sys.stderr)
        else:
            releases[version] = found
    return {"generated_by": "tools/gen_config_merge.py", "releases": releases}


def dump(data: dict) -> str:
    return json.dumps(data, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv,
        (__doc__ or "").splitlines()[0],
        OUT,
        lambda given, out: sorted(set(stored_versions(out)) | set(given), key=release_key),
        build,
        dump,
        lambda data, text: f"{len(data['releases'])} releases, {len(text)} bytes",
        {"cache": CACHE},
    )


if __name__ == "__main__":
    sys.exit(main())
