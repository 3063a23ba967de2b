"""Flags SGLang converts with its other own functions: 0.5.14+ `--cuda-graph-config` (JSON of
the release's phases and keys, `parse_cuda_graph_config_arg`), 0.5.22+ `--cuda-graph-backend-*`
(`parse_cuda_graph_backend_arg`: `tc_piecewise` retired), `--quantization-param-path`
(`nullable_str`: `None` is no path). A value they refuse stops the launch (FLG005 with SGLang's
message; before: "All checks passed"), one they read is known as the value they make."""

from __future__ import annotations

import pytest
from regenerated import SGLANG_WHEELS, use_tools

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.flags.argv import parse_argv
from speclint.sglang.flags.launch_config import LaunchConfig
from speclint.sglang.flags.schema import load_schema
from speclint.sglang.flags.value_types import config_schema, converted_dests


def _findings(flags: str, version: str = "0.5.23") -> list[tuple[str, int, str]]:
    text = f"python -m sglang.launch_server --model-path m {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False)
    return [(f.code, f.span.column, f.message) for f in lint_text(text, "t.sh", options).findings]


def _value(version: str, flag: str, written: str) -> object:
    words = [Word("--model-path", Span(1, 1, 1, 13)), Word("m", Span(1, 14, 1, 15))]
    words += [Word(flag, Span(1, 20, 1, 20 + len(flag))), Word(written, Span(1, 80, 1, 80 + len(written)))]
    return LaunchConfig(parse_argv(load_schema(version), words)).value(flag.lstrip("-").replace("-", "_"))


def test_a_retired_backend_in_the_json_stops_the_launch_at_its_value():
    (finding,) = _findings("""--cuda-graph-config '{"decode": {"backend": "tc_piecewise"}}'""")
    assert finding[:2] == ("FLG005", 67)
    assert finding[2].endswith(
        "argparse stops the launch with 'argument --cuda-graph-config: tc_piecewise was removed; "
        "select breakable, full, or disabled'"
    )


def test_a_key_the_phase_does_not_allow_is_refused_with_the_release_s_keys():
    (finding,) = _findings("""--cuda-graph-config '{"decode": {"max_context_size": 8}}'""")
    assert finding[0] == "FLG005"
    assert (
        "--cuda-graph-config['decode']: unknown key 'max_context_size', expected one of "
        "('backend', 'max_bs', 'bs')'" in finding[2]
    )
    # 0.5.14 has no max_context_size in either phase
    (older,) = _findings("""--cuda-graph-config '{"prefill": {"max_context_size": 8}}'""", "0.5.14")
    assert (
        "unknown key 'max_context_size', expected one of ('backend', 'max_bs', 'bs', 'tc_compiler')"
        in older[2]
    )


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (
            "'{decode: {}}'",
            "must be JSON: Expecting property name enclosed in double quotes: line 1 column 2",
        ),
        ("'[1, 2]'", "--cuda-graph-config must be a JSON object, got list"),
        ("""'{"verify": {}}'""", "unknown phase 'verify', expected one of ('decode', 'prefill')"),
        ("""'{"prefill": 256}'""", "--cuda-graph-config['prefill'] must be a JSON object, got int"),
    ],
)
def test_json_sglang_refuses_is_refused_with_its_words(written, said):
    (finding,) = _findings(f"--cuda-graph-config {written}")
    assert finding[0] == "FLG005"
    assert said in finding[2]


def test_json_the_release_reads_passes_and_is_known_as_the_dict_it_makes():
    written = '{"decode": {"max_bs": 64, "bs": [1, 2]}, "prefill": {"backend": "full"}}'
    assert _findings(f"--cuda-graph-config '{written}'") == []
    assert _value("0.5.23", "--cuda-graph-config", written) == {
        "decode": {"max_bs": 64, "bs": [1, 2]},
        "prefill": {"backend": "full"},
    }


def test_the_retired_backend_inside_the_json_is_checked_only_where_the_release_checks_it():
    written = """--cuda-graph-config '{"decode": {"backend": "tc_piecewise"}}'"""
    assert [f for f in _findings(written, "0.5.21") if f[0] == "FLG005"] == []
    assert config_schema("0.5.21") is not None and not config_schema("0.5.21")["backend"]
    assert config_schema("0.5.22")["backend"]


def test_the_retired_backend_flag_value_is_refused_and_other_values_checked_against_the_choices():
    (retired,) = _findings("--cuda-graph-backend-decode tc_piecewise")
    assert retired[:2] == ("FLG005", 75)
    assert "tc_piecewise was removed; select breakable, full, or disabled" in retired[2]
    (chosen,) = _findings("--cuda-graph-backend-prefill bogus")
    assert chosen[0] == "FLG006"
    assert "invalid choice: 'bogus' (choose from 'full', 'breakable', 'disabled')" in chosen[2]
    assert _findings("--cuda-graph-backend-prefill breakable") == []


@pytest.mark.parametrize(("written", "value"), [("None", None), ("", None), ("/m/kv.json", "/m/kv.json")])
def test_a_nullable_path_written_none_is_no_path(written, value):
    assert _value("0.5.23", "--quantization-param-path", written) == value


def test_which_releases_convert_which_flags_is_read_from_each_release():
    assert converted_dests("0.5.13.post1").get("cuda_graph_config") is None  # (no such flag)
    assert converted_dests("0.5.14")["cuda_graph_config"] == "parse_cuda_graph_config_arg"
    assert "cuda_graph_backend_decode" not in converted_dests("0.5.21")
    assert converted_dests("0.5.22")["cuda_graph_backend_decode"] == "parse_cuda_graph_backend_arg"
    assert converted_dests("0.4.1.post6")["quantization_param_path"] == "nullable_str"


def test_the_generator_reads_the_phases_and_keys_by_running_the_release_s_function():
    use_tools()
    import zipfile

    from gen_sglang_value_types import _module_context
    from gen_sglang_value_types import config_schema as read_schema

    wheels = sorted(SGLANG_WHEELS.glob("sglang-0.5.23-*.whl")) if SGLANG_WHEELS.is_dir() else []
    if not wheels:
        pytest.skip("SGLang 0.5.23's wheel is not cached")
    with zipfile.ZipFile(wheels[0]) as archive:
        source = _module_context(archive, "parse_cuda_graph_config_arg")
    assert source is not None
    stored = dict(config_schema("0.5.23") or {})
    assert stored.pop("json_over_flags") is True  # (read from the hook: read_release)
    assert read_schema(source) == stored
    # a release whose function words an error otherwise is not verified (its values not converted)
    assert read_schema(source.replace("must be a JSON object, got", "must be an object, got")) is None


def test_a_keyword_launch_s_path_or_json_str_is_not_called_a_count():
    text = (
        "import sglang as sgl\n"
        'llm = sgl.Engine(model_path="m", quantization_param_path="/m/kv.json", '
        'cuda_graph_backend_decode="full")\n'
    )
    options = LintOptions(sglang_version="0.5.23", read_pyproject=False)
    assert [f.code for f in lint_text(text, "t.py", options).findings if f.code == "FLG005"] == []


def test_a_prefill_backend_the_release_does_not_allow_is_refused_after_resolution():
    """0.5.14's `_validate_cuda_graph_config` allows no `full` prefill graph (its
    ALLOWED_BACKENDS_PER_PHASE, read by the generator); 0.5.15 allows it."""
    (finding,) = _findings("--cuda-graph-backend-prefill full", "0.5.14")
    assert finding[:2] == ("SPD009", 76)
    assert finding[2].endswith(
        "ValueError: --cuda-graph-config[prefill].backend='full' not allowed; "
        "allowed: ('breakable', 'tc_piecewise', 'disabled')"
    )
    assert _findings("--cuda-graph-backend-prefill full", "0.5.15") == []
    assert _findings("--cuda-graph-backend-prefill breakable", "0.5.14") == []
