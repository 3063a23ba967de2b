"""`json_list_type` (0.5.3-0.5.4: `--piecewise-cuda-graph-tokens`,
`--remote-instance-weight-loader-send-weights-group-ports`; later `--forward-hooks` & co.): values
are converted as each release's function converts them, `json.loads` in 0.5.3 and 0.5.3.post1, `orjson.loads` from
0.5.3.post2 (which refuses NaN); text that is not JSON stops the launch with SGLang's words."""

from __future__ import annotations

import pytest
from regenerated import use_tools

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.flags.value_types import ORJSON, converted_dests

FLAG = "--piecewise-cuda-graph-tokens"


def _lint(value: str, version: str) -> tuple[list[tuple[str, int, int, str, str]], object]:
    text = f"python -m sglang.launch_server --model-path m {FLAG} '{value}'\n"
    options = LintOptions(sglang_version=version, read_pyproject=False)
    result = lint_text(text, "t.sh", options)
    found = [(f.code, f.span.line, f.span.column, f.message, f.fix_hint) for f in result.findings]
    return found, result.contexts[0].config.value("piecewise_cuda_graph_tokens")


def test_text_that_is_not_json_stops_the_launch_at_its_value():
    for version in ("0.5.3.post2", "0.5.4"):
        found, _ = _lint("[1, 2, 4", version)
        assert [f[:3] for f in found] == [("FLG005", 1, 77)]
        assert found[0][3] == (
            f"`[1, 2, 4` is not a valid value for `{FLAG}`: argparse stops the launch with "
            f"'argument {FLAG}: Invalid JSON list: [1, 2, 4. Please provide a valid JSON list.'"
        )
        assert (
            found[0][4]
            == f"`{FLAG}` takes a JSON list, e.g. `[1, 2, 4]`, strings double-quoted (no NaN or Infinity)"
        )


def test_a_list_is_the_value_sglang_makes():
    found, value = _lint("[1, 2, 4]", "0.5.4")
    assert found == [] and value == [1, 2, 4]


def test_nan_is_refused_where_the_release_reads_with_orjson_and_read_where_with_json():
    found, _ = _lint("[1, NaN]", "0.5.4")
    assert [f[0] for f in found] == ["FLG005"] and "Invalid JSON list: [1, NaN]." in found[0][3]
    ports = "--remote-instance-weight-loader-send-weights-group-ports"
    text = f"python -m sglang.launch_server --model-path m {ports} '[1, NaN]'\n"
    options = LintOptions(sglang_version="0.5.3.post1", read_pyproject=False)
    assert lint_text(text, "t.sh", options).findings == []


def test_which_reader_each_release_uses_is_read_from_its_source():
    assert (
        converted_dests("0.5.3")["remote_instance_weight_loader_send_weights_group_ports"] == "json_list_type"
    )
    assert converted_dests("0.5.4")["piecewise_cuda_graph_tokens"] == ORJSON
    assert converted_dests("0.5.7")["piecewise_cuda_graph_tokens"] == ORJSON
    assert "piecewise_cuda_graph_tokens" not in converted_dests("0.5.10")  # (nargs="+" of int there)
    assert converted_dests("0.5.23")["forward_hooks"] == ORJSON


def test_later_releases_flags_of_the_same_function_refuse_nan_too():
    """0.5.4.post1+ name the function without its module (the schema once read it as
    `json.loads`, which reads NaN: oracle value_types seed 29005, 0.5.4.post3's refusals missed)."""
    found, _ = _lint("[1, NaN]", "0.5.4.post3")
    assert [f[:3] for f in found] == [("FLG005", 1, 77)] and "Invalid JSON list: [1, NaN]." in found[0][3]
    ports = "--remote-instance-weight-loader-send-weights-group-ports"
    text = f"python -m sglang.launch_server --model-path m {ports} not-json\n"
    options = LintOptions(sglang_version="0.5.23", read_pyproject=False)
    (finding,) = lint_text(text, "t.sh", options).findings
    assert finding.message.endswith(
        f"'argument {ports}: Invalid JSON list: not-json. Please provide a valid JSON list.'"
    )


def _source(version: str) -> str:
    from regenerated import SGLANG_WHEELS

    use_tools()
    import zipfile

    from gen_sglang_value_types import _function_source

    wheels = sorted(SGLANG_WHEELS.glob(f"sglang-{version}-*.whl")) if SGLANG_WHEELS.is_dir() else []
    if not wheels:
        pytest.skip(f"SGLang {version}'s wheel is not cached")
    with zipfile.ZipFile(wheels[0]) as archive:
        source = _function_source(archive, "json_list_type")
    assert source is not None
    return source


def test_without_orjson_the_generator_keeps_the_stored_reading_and_says_so(monkeypatch, capsys):
    source = _source("0.5.4")
    import gen_sglang_value_types as gen

    monkeypatch.setattr(gen, "_orjson", lambda: None)
    assert gen._json_list_reading(source, "0.5.4", ["piecewise_cuda_graph_tokens"]) == ORJSON
    assert "orjson is not installed here: not run, the stored reading kept" in capsys.readouterr().err
    assert gen._json_list_reading(_source("0.5.3"), "0.5.3", ["x"]) == "json_list_type"  # (json: runs)


def test_with_orjson_the_release_s_function_is_run_and_only_the_orjson_reading_matches():
    pytest.importorskip("orjson")
    source = _source("0.5.4")
    import gen_sglang_value_types as gen

    assert gen._runs_alike(source, "json_list_type", ORJSON)
    assert not gen._runs_alike(source, "json_list_type", "json_list_type")
