"""The stored sglang-router options (src/speclint/sglang/data/sglang_router.json) are what
tools/gen_sglang_router.py reads from each sglang-router release's `launch_server.py`."""

from __future__ import annotations

from pathlib import Path

from regenerated import assert_regenerates, use_tools

from speclint.sglang.flags.schema import load_schema, newest_version
from speclint.sglang.router import _DATA, router_presence, router_schema, router_versions

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "sglang-router-wheels"


def test_the_router_options_each_release_adds_with_its_prefix():
    assert router_versions()[0] == "0.0.5" and router_versions()[-1] == "0.3.2"
    every = router_versions()
    for option in ("--router-policy", "--router-dp-worker-base-port", "--worker-urls"):
        assert router_presence(option) == every
    assert router_presence("--router-prefill-policy")[0] == "0.1.7"
    assert (
        router_presence("--policy") == () and router_presence("--router-host") == ()
    )  # not prefixed / excluded


def test_the_parser_takes_the_newest_arity_and_keeps_sglangs_own_flags():
    sglang = load_schema(newest_version())
    schema = router_schema(sglang)
    assert schema.flags[: len(sglang.flags)] == sglang.flags
    assert schema.by_option["--worker-urls"].nargs == "*"  # "+" before 0.2.0
    assert schema.by_option["--router-dp-aware"].takes_value is False
    assert schema.by_option["--host"] is sglang.by_option["--host"]  # exclude_host_port=True


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_options():
    use_tools()
    from gen_sglang_router import build
    from line_array import line_array

    versions = list(router_versions())
    assert_regenerates(
        _DATA,
        versions,
        lambda: line_array(*build(versions, str(CACHE)), []),
        wheels=CACHE,
        wheel_name="sglang_router-{}-*.whl",
    )


def test_an_abbreviation_stands_for_an_option_of_the_newest_router_release_only():
    """`--router-cache` abbreviates `--router-cache-threshold` as sglang-router 0.3.2's parser
    reads it; `--router-cache-routing-prob` (0.0.5 to 0.0.7 only) is known written whole."""
    schema = router_schema(load_schema(newest_version()))
    assert "--router-cache-routing-prob" in schema.by_option
    assert "--router-cache-routing-prob" not in schema.sorted_options
    assert [o for o in schema.sorted_options if o.startswith("--router-cache")] == [
        "--router-cache-threshold"
    ]
