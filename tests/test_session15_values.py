"""Values session 15's fresh-seed differential (tools/oracle/differential.py, seeds 15001-15004)
found speclint stating wrong; expected values are the releases' own, as recorded."""

from __future__ import annotations

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve import is_known
from speclint.sglang.resolve.gpu_profiles import profile

LLAMA = "fixtures/models/llama-3.1-8b-instruct"


def _effective(version: str, flags: str, gpu: str = "h100") -> dict[str, object]:
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu))
    text = f"python -m sglang.launch_server --model-path {LLAMA} {flags}\n"
    resolution = lint_text(text, "launch.sh", options).contexts[0].resolution
    assert resolution is not None
    return dict(resolution.effective)


def test_the_late_piecewise_rule_on_the_moe_runner_mxfp8_picks_is_unknown():
    """0.5.10-0.5.12.post1 turn piecewise CUDA graphs off late for the flashinfer_trtllm runner,
    which --quantization mxfp8 makes of the auto runner (recorded: 0.5.12.post1, quantization
    seed 15003, Llama on an H100: disable_piecewise_cuda_graph True). speclint does not model
    that pick: the switch is unknown (was: False, the ServerArgs default)."""
    for version in ("0.5.10.post1", "0.5.12.post1"):
        effective = _effective(version, "--quantization mxfp8")
        value = effective["disable_piecewise_cuda_graph"]
        assert not is_known(value) and "moe_runner_backend in" in value.reason  # type: ignore[union-attr]
        # no mxfp8: the auto runner stays, the rule does not hold (the default)
        assert _effective(version, "--tp-size 2")["disable_piecewise_cuda_graph"] is False
