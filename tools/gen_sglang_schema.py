#!/usr/bin/env python3
"""Generate src/speclint/sglang/flags/data/sglang_flags.json from SGLang release wheels.

    python tools/gen_sglang_schema.py                  # the releases stored now
    python tools/gen_sglang_schema.py --all            # every release on PyPI since 0.4.0
    python tools/gen_sglang_schema.py 0.5.6.post2 0.5.23 --out /tmp/flags.json
    python tools/gen_sglang_schema.py --check          # regenerate and compare, write nothing

Each wheel is fetched with `pip download --no-deps sglang==V` into
`.cache/sglang-wheels/` and read with `ast`; SGLang is never imported. See
tools/README.md and src/speclint/sglang/flags/schema.py (the JSON format).
"""

from __future__ import annotations

import ast
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import generator_main  # noqa: E402
from sglang_args import SERVER_ARGS, Extractor  # noqa: E402
from sglang_source import Wheel  # noqa: E402
from sglang_static import Evaluator, Unresolved  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".cache", "sglang-wheels")
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "flags", "data", "sglang_flags.json")
OLDEST = "0.4.0"


def wheel_path(version: str, cache: str = CACHE) -> str:
    pattern = os.path.join(cache, f"sglang-{version}-*.whl")
    found = sorted(glob.glob(pattern))
    if not found:
        os.makedirs(cache, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--quiet",
                "--disable-pip-version-check",
                "-d",
                cache,
                f"sglang=={version}",
            ],
            check=True,
        )
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
    facts = {
        "allow_abbrev": ctor.get("allow_abbrev", True),
        "prefix_chars": prefix,
        "add_help": ctor.get("add_help", True),
        "prog": ctor.get("prog"),
        "positionals": [f["dest"] for f in flags if not any(o[:1] in prefix for o in f["option_strings"])],
    }
    notes = {
        "parse": "prepare_server_args(argv) calls parser.parse_args(argv): unknown "
        "options are errors, and argparse accepts unique prefixes of long "
        "options when allow_abbrev is true."
    }
    src = ast.unparse(prep)
    if '"--config"' in src or "'--config'" in src:
        merger = next(
            (
                m
                for m in (
                    "sglang.srt.utils.server_args_config_parser",
                    "sglang.srt.server_args_config_parser",
                )
                if wheel.module(m)
            ),
            None,
        )
        notes["config_file"] = (
            "Only when the exact token '--config' is in argv ('--config=x.yaml' is not "
            "merged, it is just stored): the next token must name a .yaml/.yml file; its "
            "top-level mapping becomes ['--key', 'value', ...] (true booleans of store_true "
            "flags become bare '--key', false ones are dropped; other booleans become "
            "'--key true|false'; lists become '--key v1 v2'; dicts become JSON) and argv "
            "becomes config_args + argv-without('--config', path), so command-line values "
            f"win. Implemented in {merger}.ConfigArgumentMerger. A second '--config' is a "
            "ValueError."
        )
        if "ConfigArgumentMerger(parser)" in src:
            notes["config_file"] += (
                " Keys naming flags whose action is neither store_true "
                "nor single-valued (e.g. BooleanOptionalAction, "
                "nargs='+') raise 'Unsupported config option'."
            )
    if "radix_eviction_policy_explicitly_set" in src:
        notes["explicit_flags"] = (
            "prepare_server_args records whether '--radix-eviction-policy' "
            "(or '--radix-eviction-policy=...') appears literally in argv; "
            "an abbreviation of it does not count."
        )
    serve = wheel.module("sglang.cli.serve")
    if serve is not None:
        text = serve.src
        parts = []
        if "--model-type" in text:
            parts.append(
                "'--model-type X' / '--model-type=X' is removed from argv before "
                "anything else (it picks the serve backend: auto, llm, diffusion, "
                "plugins); exact spelling only, no abbreviation"
            )
        if "_normalize_positional_model_path" in text:
            parts.append(
                "if the first remaining token does not start with '-', it is "
                "rewritten to '--model-path TOKEN' (a positional model path)"
            )
        parts.append("'-h'/'--help' anywhere prints help instead of launching")
        parts.append("plugins are loaded (load_plugins()) before prepare_server_args")
        notes["sglang_serve"] = "`sglang serve ARGS`: " + "; ".join(parts) + "."
    else:
        notes["sglang_serve"] = (
            "No `sglang serve` CLI in this release; launch with "
            "`python -m sglang.launch_server ARGS`, which passes "
            "sys.argv[1:] to prepare_server_args unchanged."
        )
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


def release_key(version: str) -> tuple:
    """PEP 440 order for SGLang's plain `X.Y.Z[.postN]` releases."""
    main, _, post = version.partition(".post")
    return tuple(int(p) for p in main.split(".")) + (int(post) if post else -1,)


def stored_versions(path: str = OUT) -> list[str]:
    """The releases the stored data covers (the default: regenerate what is there)."""
    return load(path)["versions"]


def pypi_versions(oldest: str = OLDEST) -> list[str]:
    """Every SGLang release on the package index from `oldest` on, oldest first
    (`pip index versions sglang`)."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", "sglang", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    line = next(l for l in out.splitlines() if l.startswith("Available versions:"))
    found = [v.strip() for v in line.split(":", 1)[1].split(",") if v.strip()]
    plain = [v for v in found if all(p.isdigit() for p in v.replace(".post", ".").split("."))]
    return sorted((v for v in plain if release_key(v) >= release_key(oldest)), key=release_key)


def build(versions: list[str], cache: str = CACHE) -> dict:
    """Format 2: one table of distinct definitions; per release, the indices of its flags
    in add_argument order, and an index into a table of distinct parser facts."""
    entries: list[dict] = []
    index: dict[str, int] = {}
    order: dict[str, list[int]] = {}
    facts_table: list[dict] = []
    facts_index: dict[str, int] = {}
    by_version: dict[str, int] = {}
    for version in versions:
        flags, facts = extract(version, cache)
        key = json.dumps(facts, sort_keys=True)
        if key not in facts_index:
            facts_index[key] = len(facts_table)
            facts_table.append(facts)
        by_version[version] = facts_index[key]
        order[version] = []
        for flag in flags:
            key = json.dumps(flag, sort_keys=True)
            if key not in index:
                index[key] = len(entries)
                entries.append(flag)
            order[version].append(index[key])
    newest = facts_table[by_version[versions[-1]]]
    parser = {k: newest[k] for k in ("allow_abbrev", "prefix_chars")}
    parser["facts"] = facts_table
    parser["by_version"] = by_version
    return {"format": 2, "versions": versions, "parser": parser, "flags": entries, "order": order}


def _compact(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dump(data: dict) -> str:
    """The stored layout (src/speclint/sglang/flags/schema.py): a JSON array, one element per
    line: the header, the flag indices of each release, then one definition each."""
    lines = [_compact({k: data[k] for k in ("format", "versions", "parser")})]
    lines += [_compact(data["order"][v]) for v in data["versions"]]
    lines += [_compact(entry) for entry in data["flags"]]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def load(path: str = OUT) -> dict:
    """The stored data as one dict (the inverse of `dump`)."""
    with open(path, encoding="utf-8") as fh:
        lines = json.load(fh)
    header, count = lines[0], len(lines[0]["versions"])
    return {
        **header,
        "order": dict(zip(header["versions"], lines[1 : 1 + count])),
        "flags": lines[1 + count :],
    }


def _said(data: dict, text: str) -> str:
    """The size written, then each release's flag count, one a line."""
    counts = [f"{version}: {len(data['order'][version])} flags" for version in data["versions"]]
    return "\n".join(
        [f"{len(data['flags'])} distinct definitions, {len(text.encode()) // 1024} KiB", *counts]
    )


def main(argv: list[str] | None = None) -> int:
    return generator_main(
        argv,
        (__doc__ or "").splitlines()[0],
        OUT,
        lambda given, _out: sorted(given or stored_versions(), key=release_key),
        build,
        dump,
        _said,
        {"cache": CACHE},
        (f"every release on the package index from {OLDEST} to the newest", pypi_versions),
    )


if __name__ == "__main__":
    sys.exit(main())
