"""0.4.6-0.5.10 `get_config` copies every attribute the loaded config lacks from its text
config (`get_hf_text_config`), so `text_config.quantization_config` is the checkpoint's for
`_verify_quantization` whatever the model type (tools/sglang_verify_quant.py,
`text_config_copied`). Kimi-K2.5 `--quantization fp8` is refused on 0.5.5.post3 and
0.5.8.post1 on a B200 and an H100 alike: tools/oracle record_release.py (session 12). Those
releases pin transformers 4.57.1, which has no `kimi_k25` config class: the checkpoint's
remote code (`--trust-remote-code`) loads it there, the oracle's transformers 5.19 loads it
natively; the copy that then refuses the launch is SGLang's own code in both cases."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest
from test_refusal_checks import LAUNCH, accepted, refusal

from speclint.sglang.model_config_facts import text_config_copied

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.path.join(ROOT, "tools"))
KIMI = LAUNCH + "fixtures/models/kimi-k2.5"
MISMATCH = (
    "ValueError: Quantization method specified in the model config (compressed-tensors) does not "
    "match the quantization method specified in the `quantization` argument (fp8)"
)


@pytest.mark.parametrize("version", ["0.5.5.post3", "0.5.8.post1"])
@pytest.mark.parametrize("gpu", ["b200", "h100"])
def test_kimi_k25_fp8_is_refused_where_get_config_copies_the_text_config(version, gpu):
    refusal(
        version,
        KIMI + " --quantization fp8",
        "--quantization fp8",
        "ModelConfig._verify_quantization",
        MISMATCH,
        gpu,
    )
    accepted(version, KIMI, gpu)
    accepted(version, KIMI + " --quantization compressed-tensors", gpu)


def test_the_stored_readings():
    assert text_config_copied("0.5.8.post1") == ("Llava", "ForCausalLM")
    assert text_config_copied("0.5.10.post1") == ("Llava", "ForCausalLM")
    assert text_config_copied("0.5.11") is None  # gone: the kimi_k25 config class lifts it instead
    assert text_config_copied("0.4.0") is None


UTILS = """
def get_hf_text_config(config):
    if config.architectures is not None:
        class_name = config.architectures[0]
        if class_name.startswith("Llava") and class_name.endswith("ForCausalLM"):
            return config
    if hasattr(config, "text_config"):
        return config.text_config
    return config


def get_config(model):
    config = AutoConfig.from_pretrained(model)
    text_config = get_hf_text_config(config=config)
    if isinstance(model, str) and text_config is not None:
        for key, val in text_config.__dict__.items():
            if not hasattr(config, key) and getattr(text_config, key, None) is not None:
                setattr(config, key, val)
    return config
"""


def test_the_generator_reads_the_copy_and_its_excepted_architectures():
    from sglang_verify_quant import text_config_copied as read

    assert read(UTILS) == {"prefix": "Llava", "suffix": "ForCausalLM"}
    assert read(UTILS.replace("if not hasattr(config, key)", "if key == 'x'")) is None
    assert read(None) is None


def test_the_model_config_generator_stores_it(tmp_path):
    from gen_sglang_model_config import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/utils/hf_transformers_utils.py", UTILS)
    assert dict(read_release(str(wheel)))["text_config_copied"] == {
        "prefix": "Llava",
        "suffix": "ForCausalLM",
    }
