"""--quantization against the target checkpoint's quantization_config, release by release
(`ModelConfig._verify_quantization`, speclint.sglang.resolve.quantization)."""

from __future__ import annotations

import os

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FP8_CHECKPOINT = os.path.join(ROOT, "fixtures", "models", "deepseek-v3")  # quant_method fp8
PLAIN = os.path.join(ROOT, "fixtures", "models", "llama-3.1-8b-instruct")


def _errors(version: str, model: str, quantization: str) -> list:
    text = f"python -m sglang.launch_server --model-path {model} --quantization {quantization}\n"
    result = lint_text(text, "launch.sh", LintOptions(sglang_version=version, read_pyproject=False))
    return [f for f in result.findings if f.severity.name == "ERROR"]


def test_a_method_the_checkpoint_does_not_use_is_refused():
    errors = _errors("0.5.23", FP8_CHECKPOINT, "gptq")
    assert [f.code for f in errors] == ["SPD009"]
    assert "model config (fp8) does not match" in errors[0].message
    assert "(gptq)" in errors[0].message


def test_compatible_pairs_follow_the_release():
    # modelopt_fp4 on an fp8 checkpoint: compatible from 0.5.18 on, refused before
    assert _errors("0.5.23", FP8_CHECKPOINT, "modelopt_fp4") == []
    assert [f.code for f in _errors("0.5.14", FP8_CHECKPOINT, "modelopt_fp4")] == ["SPD009"]
    assert _errors("0.5.23", FP8_CHECKPOINT, "fp8") == []


def test_releases_that_do_not_check_while_resolving_stay_quiet():
    assert _errors("0.4.6.post5", FP8_CHECKPOINT, "gptq") == []


def test_a_method_the_release_lacks_is_refused_without_a_checkpoint_config():
    errors = _errors("0.5.6.post2", PLAIN, "bitsandbytes")
    assert [f.code for f in errors] == ["SPD009"]
    assert "Unknown quantization method: bitsandbytes" in errors[0].message
    assert _errors("0.5.8.post1", PLAIN, "bitsandbytes") == []


# --- session 9's random launches against 0.4.10, 0.5.6.post2 and 0.5.23 (seeds 9101, 9102) ---


def _findings(version: str, text: str, gpu: str | None = "h100") -> list[tuple[str, int, int, str]]:
    from speclint.sglang.resolve.gpu_profiles import profile

    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu) if gpu else None)
    result = lint_text(text, "launch.sh", options)
    return [
        (f.code, f.span.line, f.span.column, f.message) for f in result.findings if f.severity.name == "ERROR"
    ]


def _launch(model: str, flags: str) -> str:
    return f"python -m sglang.launch_server --model-path {model} {flags}\n"


def test_a_given_memory_fraction_skips_the_check_in_0_4_9_to_0_5_4():
    """0.4.9-0.5.4 build the ModelConfig (and verify --quantization) only under
    `if self.mem_fraction_static is None:` (recorded: 0.4.10 accepts these, 0.5.6.post2 refuses)."""
    given = _launch(FP8_CHECKPOINT, "--quantization awq --mem-fraction-static 0.7")
    for version in ("0.4.10", "0.5.2"):
        assert _findings(version, given) == []
        [(code, line, column, message)] = _findings(version, _launch(FP8_CHECKPOINT, "--quantization awq"))
        assert (code, line, column) == ("SPD009", 1, given.index(" awq") + 2)
        assert message.startswith(
            f"SGLang {version} refuses this launch in ModelConfig._verify_quantization: "
        )
    [(code, line, column, message)] = _findings("0.5.6.post2", given)
    assert (code, line, column) == ("SPD009", 1, given.index(" awq") + 2)
    assert (
        "model config (fp8) does not match the quantization method specified in the `quantization` "
        in message
    )


def test_gptq_is_unknown_on_cuda_from_0_5_20():
    """0.5.20+ register gptq only on NPU, CPU and XPU (recorded on 0.5.23: "Unknown quantization
    method: gptq. Must be one of [...]"); 0.5.19 registers it everywhere."""
    text = _launch(PLAIN, "--quantization gptq --tp-size 2")
    for version in ("0.5.20", "0.5.23"):
        [(code, line, column, message)] = _findings(version, text)
        assert (code, line, column) == ("SPD009", 1, text.index("gptq") + 1)
        assert message == (
            f"SGLang {version} refuses this launch in ModelConfig._verify_quantization: ValueError: "
            f"Unknown quantization method: gptq. SGLang {version} does not register it on a CUDA GPU "
            "(its QUANTIZATION_METHODS lacks it there although --quantization offers it; use "
            "--quantization gptq_marlin, a method it registers, or drop the flag)"
        )
    assert _findings("0.5.19", text) == []
    # what speclint cannot tell: another device, a model not on disk (its quantization_config
    # may name gptq, and the checkpoint's hooks may turn it into gptq_marlin)
    assert _findings("0.5.23", _launch(PLAIN, "--quantization gptq --device cpu")) == []
    assert _findings("0.5.23", _launch("meta-llama/Llama-3.1-8B-Instruct", "--quantization gptq")) == []


def test_a_value_resolution_rewrites_first_is_not_unknown():
    """`--quantization unquant` becomes None before the registry check (0.5.11+; recorded on
    0.5.23: accepted); mlx_q4 is registered only on Apple silicon (recorded: refused)."""
    assert _findings("0.5.23", _launch(PLAIN, "--quantization unquant")) == []
    [(code, _line, _column, message)] = _findings("0.5.23", _launch(PLAIN, "--quantization mlx_q4"))
    assert code == "SPD009" and "Unknown quantization method: mlx_q4." in message
    assert "use a method it registers, or drop the flag" in message
