"""`python -m sglang.X` that is not read as a launch: a module that parses SGLang's server
flags (per release, from its source: tools/gen_sglang_entry_modules.py) or one no release
runs as a script is said unread (SLM005); SGLang's own client tools are not launches
(frontends/shell/sglang_modules.py)."""

from __future__ import annotations

from fixture_file import FixtureFile
from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools

from speclint.sglang.entry_modules import script_releases, server_flag_releases
from speclint.sglang.linedata import LineData

SCRIPT = FixtureFile("shell/sglang_script_modules.sh")
DATA = "src/speclint/sglang/data/sglang_entry_modules.json"


def test_modules_taking_server_flags_and_unknown_modules_are_said_unread() -> None:
    assert SCRIPT.findings() == [
        (
            "SLM005",
            6,
            12,
            "sglang.compile_deep_gemm",
            "speclint did not read this command: `sglang.compile_deep_gemm` parses SGLang's server flags "
            "(SGLang 0.4.5.post3 to 0.5.23, as their source shows), but speclint does not read it as a "
            "launch; nothing in it was checked",
        ),
        (
            "SLM005",
            9,
            12,
            "sglang.bench_latency",
            "speclint did not read this command: no SGLang release speclint read (0.4.0 to 0.5.23) runs "
            "`sglang.bench_latency` as a script, so what it does with its arguments is not known; "
            "nothing in it was checked",
        ),
    ]


def test_the_readings_per_release() -> None:
    assert server_flag_releases("sglang.compile_deep_gemm")[0] == "0.4.5.post3"
    assert server_flag_releases("sglang.benchmark.one_batch")[0] == "0.5.15"
    assert server_flag_releases("sglang.bench_serving") == []  # a client: its own options
    assert script_releases("sglang.bench_serving")[-1] == "0.5.23"
    assert script_releases("sglang.bench_latency") == []


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_data() -> None:
    use_tools()
    from gen_sglang_entry_modules import build, dump

    versions = list(LineData(DATA).versions())
    assert_regenerates(DATA, versions, lambda: dump(build(versions, str(SGLANG_WHEELS))))
