"""The stored benchmark-script parsers (src/speclint/sglang/data/sglang_bench.json) are what
tools/gen_sglang_bench.py reads from each release's wheel: which release ships which module,
and each script's own options with the arity, choices and defaults of its source."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools

from speclint.frontends.recognise import BENCH_MODULES
from speclint.sglang.bench import _DATA, bench_versions, reading, releases_with
from speclint.sglang.flags.schema import load_schema, supported_versions

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "sglang-wheels"
sys.path.insert(0, os.path.join(ROOT, "tools"))


def test_every_release_the_flags_cover_was_read_and_the_modules_are_the_generators():
    from gen_sglang_bench import MODULES

    assert bench_versions() == supported_versions()
    assert BENCH_MODULES == MODULES


def test_which_release_ships_which_script():
    every = bench_versions()
    old_path = releases_with("sglang.bench_one_batch")
    assert old_path == releases_with("sglang.bench_offline_throughput")
    assert (old_path[0], old_path[-1]) == ("0.4.0", "0.5.20")  # gone from 0.5.21
    assert releases_with("sglang.bench_one_batch_server") == every  # a deprecated shim in 0.5.23
    assert releases_with("sglang.benchmark.one_batch")[0] == "0.5.15"
    assert releases_with("sglang.benchmark.one_batch_server")[0] == "0.5.14"
    shim = reading("0.5.23", "sglang.bench_one_batch_server")
    assert shim is not None and shim["path"] == [
        "sglang.bench_one_batch_server",
        "sglang.benchmark.one_batch_server",
    ]


def test_each_script_parses_argv_itself_with_sglangs_flags_first_and_never_clashes():
    for version in bench_versions():
        server = load_schema(version)
        for module in BENCH_MODULES:
            found = reading(version, module)
            if found is None:
                continue
            assert (found["parse"], found["server_at"]) == ("parse_args", 0), (version, module)
            assert found["parser"] == {"allow_abbrev": True, "add_help": True}
            for entry in found["options"]:
                assert not set(entry["option_strings"]) & set(server.by_option), (version, module, entry)
                assert entry["dest"] not in server.by_dest, (version, module, entry)


def test_the_options_carry_their_source_arity_choices_and_defaults():
    options = {
        e["option_strings"][0]: e for e in (reading("0.4.0", "sglang.bench_one_batch") or {})["options"]
    }
    assert (options["--batch-size"]["nargs"], options["--batch-size"]["type"]) == ("+", "int")
    assert (
        options["--batch-size"]["default"] == [1] and options["--correctness-test"]["action"] == "store_true"
    )
    assert "--profile" not in options
    offline = {
        e["option_strings"][0]: e
        for e in (reading("0.4.0", "sglang.bench_offline_throughput") or {})["options"]
    }
    assert offline["--dataset-name"]["choices"] == ["sharegpt", "random", "generated-shared-prefix"]
    assert offline["--num-prompts"]["default"] == 1000


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_data():
    use_tools()
    from gen_sglang_bench import build
    from line_array import dump_per_release

    versions = list(bench_versions())
    assert_regenerates(_DATA, versions, lambda: dump_per_release(build(versions, str(SGLANG_WHEELS))))
