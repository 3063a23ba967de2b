"""0.5.14+ `--cuda-graph-config` JSON's prefill backend: the release's `parse_cuda_graph_config`
sets the JSON over the per-phase flags (read per release, `json_over_flags`), so `explain`
states it, over `--cuda-graph-backend-prefill`, and `_validate_cuda_graph_config` refuses one
outside the release's allowed backends at the JSON (0.5.14: a prefill `full`)."""

from __future__ import annotations

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.flags.value_types import config_schema
from speclint.sglang.resolve.gpu_profiles import parse_gpu_setting


def _lint(flags: str, version: str):
    text = f"python -m sglang.launch_server --model-path m {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=parse_gpu_setting("H100"))
    return lint_text(text, "t.sh", options)


def test_the_json_s_prefill_backend_is_stated_over_the_flag_s():
    for version in ("0.5.14", "0.5.18", "0.5.23"):
        result = _lint(
            """--cuda-graph-config '{"prefill": {"backend": "disabled"}}' --cuda-graph-backend-prefill breakable""",
            version,
        )
        ctx = result.contexts[0]
        assert ctx.resolution.effective["cuda_graph_backend_prefill"] == "disabled"
        (adjusted,) = [a for a in ctx.resolution.adjustments if a.field == "cuda_graph_backend_prefill"]
        assert (adjusted.handler, adjusted.asked) == ("_parse_cuda_graph_config", "breakable")


def test_a_json_without_a_prefill_backend_leaves_it_unknown():
    result = _lint("""--cuda-graph-config '{"decode": {"max_bs": 64}}'""", "0.5.23")
    value = result.contexts[0].resolution.effective["cuda_graph_backend_prefill"]
    assert "--cuda-graph-config feeds SGLang hooks speclint does not model" in str(value.reason)


def test_a_prefill_backend_the_release_does_not_allow_is_refused_at_the_json():
    flags = """--cuda-graph-config '{"prefill": {"backend": "full"}}'"""
    (finding,) = _lint(flags, "0.5.14").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SPD009", 1, 67)
    assert finding.message == (
        "SGLang 0.5.14 refuses this launch in _validate_cuda_graph_config: ValueError: "
        "--cuda-graph-config[prefill].backend='full' not allowed; allowed: ('breakable', "
        "'tc_piecewise', 'disabled')"
    )
    assert _lint(flags, "0.5.23").findings == []  # (0.5.23 allows a full prefill graph)


def test_which_releases_set_the_json_over_the_flags_is_read_from_each():
    assert all(config_schema(v)["json_over_flags"] for v in ("0.5.14", "0.5.19", "0.5.20", "0.5.23"))
