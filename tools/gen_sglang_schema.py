#!/usr/bin/env python3
"""Generate src/speclint/flags/data/sglang_flags.json from SGLang release wheels.

    python tools/gen_sglang_schema.py                  # the default releases
    python tools/gen_sglang_schema.py 0.5.6.post2 0.5.23 --out /tmp/flags.json

Each wheel is fetched with `pip download --no-deps sglang==V` into
`.cache/sglang-wheels/` and read with `ast`; SGLang is never imported. See
tools/README.md and src/speclint/flags/schema.py (the JSON format).
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sglang_args import SERVER_ARGS, Extractor  # noqa: E402
from sglang_source import Wheel  # noqa: E402
from sglang_static import Evaluator, Unresolved  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".cache", "sglang-wheels")
OUT = os.path.join(ROOT, "src", "speclint", "flags", "data", "sglang_flags.json")
DEFAULT_VERSIONS = ["0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23"]
# Keys that identify a definition; entries equal on all of them are shared across versions.
PER_VERSION_KEYS = ("versions",)


def wheel_path(version: str, cache: str = CACHE) -> str:
    pattern = os.path.join(cache, f"sglang-{version}-*.whl")
    found = sorted(glob.glob(pattern))
    if not found:
        os.makedirs(cache, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "--disable-pip-version-check", "-d", cache, f"sglang=={version}"],
                       check=True)
        found = sorted(glob.glob(pattern))
    if not found:
        raise SystemExit(f"no wheel for sglang=={version} in {cache}")
    return found[-1]


def _func(mod, name):
    return next((s for s in mod.tree.body if isinstance(s, ast.FunctionDef) and s.name == name), None)


def parser_facts(wheel: Wheel, flags: list[dict]) -> dict:
    """allow_abbrev / prefix_chars of the parser prepare_server_args builds, and argv rewrites."""
    mod = wheel.module(SERVER_ARGS)
    prep = _func(mod, "prepare_server_args")
    ctor = {}
    for node in ast.walk(prep):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("ArgumentParser"):
            for kw in node.keywords:
                try:
                    ctor[kw.arg] = Evaluator(mod).eval(kw.value)
                except Unresolved:
                    ctor[kw.arg] = ast.unparse(kw.value)
    prefix = ctor.get("prefix_chars", "-")
    facts = {"allow_abbrev": ctor.get("allow_abbrev", True), "prefix_chars": prefix,
             "add_help": ctor.get("add_help", True), "prog": ctor.get("prog"),
             "positionals": [f["dest"] for f in flags
                             if not any(o[:1] in prefix for o in f["option_strings"])]}
    notes = {"parse": "prepare_server_args(argv) calls parser.parse_args(argv): unknown "
                      "options are errors, and argparse accepts unique prefixes of long "
                      "options when allow_abbrev is true."}
    src = ast.unparse(prep)
    if '"--config"' in src or "'--config'" in src:
        merger = next((m for m in ("sglang.srt.utils.server_args_config_parser",
                                   "sglang.srt.server_args_config_parser") if wheel.module(m)), None)
        notes["config_file"] = (
            "Only when the exact token '--config' is in argv ('--config=x.yaml' is not "
            "merged, it is just stored): the next token must name a .yaml/.yml file; its "
            "top-level mapping becomes ['--key', 'value', ...] (true booleans of store_true "
            "flags become bare '--key', false ones are dropped; other booleans become "
            "'--key true|false'; lists become '--key v1 v2'; dicts become JSON) and argv "
            "becomes config_args + argv-without('--config', path), so command-line values "
            f"win. Implemented in {merger}.ConfigArgumentMerger. A second '--config' is a "
            "ValueError.")
        if "ConfigArgumentMerger(parser)" in src:
            notes["config_file"] += (" Keys naming flags whose action is neither store_true "
                                     "nor single-valued (e.g. BooleanOptionalAction, "
                                     "nargs='+') raise 'Unsupported config option'.")
    if "radix_eviction_policy_explicitly_set" in src:
        notes["explicit_flags"] = ("prepare_server_args records whether '--radix-eviction-policy' "
                                   "(or '--radix-eviction-policy=...') appears literally in argv; "
                                   "an abbreviation of it does not count.")
    serve = wheel.module("sglang.cli.serve")
    if serve is not None:
        text = serve.src
        parts = []
        if "--model-type" in text:
            parts.append("'--model-type X' / '--model-type=X' is removed from argv before "
                         "anything else (it picks the serve backend: auto, llm, diffusion, "
                         "plugins); exact spelling only, no abbreviation")
        if "_normalize_positional_model_path" in text:
            parts.append("if the first remaining token does not start with '-', it is "
                         "rewritten to '--model-path TOKEN' (a positional model path)")
        parts.append("'-h'/'--help' anywhere prints help instead of launching")
        parts.append("plugins are loaded (load_plugins()) before prepare_server_args")
        notes["sglang_serve"] = "`sglang serve ARGS`: " + "; ".join(parts) + "."
    else:
        notes["sglang_serve"] = ("No `sglang serve` CLI in this release; launch with "
                                 "`python -m sglang.launch_server ARGS`, which passes "
                                 "sys.argv[1:] to prepare_server_args unchanged.")
    facts["notes"] = notes
    return facts


def extract(version: str, cache: str = CACHE) -> tuple[list[dict], dict]:
    wheel = Wheel(wheel_path(version, cache))
    extractor = Extractor(wheel)
    flags = extractor.run()
    facts = parser_facts(wheel, flags)
    if extractor.notes:
        facts["notes"].update({f"extraction_{k}": v for k, v in extractor.notes.items()})
    return flags, facts


def build(versions: list[str], cache: str = CACHE) -> dict:
    entries: list[dict] = []
    index: dict[str, int] = {}
    order: dict[str, list[int]] = {}
    parsers: dict[str, dict] = {}
    for version in versions:
        flags, facts = extract(version, cache)
        parsers[version] = facts
        order[version] = []
        for flag in flags:
            key = json.dumps(flag, sort_keys=True)
            if key not in index:
                index[key] = len(entries)
                entries.append({**flag, "versions": []})
            entries[index[key]]["versions"].append(version)
            order[version].append(index[key])
    newest = parsers[versions[-1]]
    shared = {k: newest[k] for k in ("allow_abbrev", "prefix_chars")}
    parser = dict(shared)
    parser["by_version"] = parsers
    return {"format": 1, "versions": versions, "parser": parser, "flags": entries, "order": order}


def dump(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("versions", nargs="*", default=DEFAULT_VERSIONS,
                    help="SGLang releases, oldest first")
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--cache", default=CACHE)
    args = ap.parse_args(argv)
    data = build(args.versions, args.cache)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(dump(data))
    for version in args.versions:
        print(f"{version}: {len(data['order'][version])} flags")
    print(f"{len(data['flags'])} distinct definitions -> {args.out}")


if __name__ == "__main__":
    main()
