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
