"""`_handle_kv4_compatibility` (0.5.7-0.5.18): an FP4 KV cache needs a backend from the MLA or
the MHA list, by the target's `use_mla_backend()`, which each release's ModelConfig decides
from the architecture (configs/model_config.py, read by tools/sglang_attention_arch.py into
`mla_architectures`). Kimi-K2.5 is MHA in 0.5.8.post1 (not yet in the MLA list) and MLA from
0.5.9. Expected outcomes are the releases' own: tools/oracle record_release.py on 0.5.8.post1
and 0.5.14 (fake H100) refused and accepted exactly these launches."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest
from test_refusal_checks import LAUNCH, accepted, errors, refusal

from speclint.sglang.model_config_facts import attention_kind

ROOT = Path(__file__).resolve().parent.parent
KIMI_FP4 = LAUNCH + "fixtures/models/kimi-k2.5 --quantization compressed-tensors --kv-cache-dtype fp4_e2m1"
MHA = "['triton', 'torch_native', 'flex_attention', 'trtllm_mha']"
MLA = "['cutlass_mla', 'flashinfer', 'trtllm_mla', 'flashmla']"


def test_kimi_k2_5_is_mha_in_0_5_8_post1():
    for backend in ("fa3", "flashinfer"):
        refusal(
            "0.5.8.post1",
            KIMI_FP4 + f" --attention-backend {backend}",
            "--kv-cache-dtype fp4_e2m1",
            "_handle_kv4_compatibility",
            f"AssertionError: KV4 MHA expects attention_backend to be one of {MHA}, but got {backend} "
            "(--kv-cache-dtype fp4_e2m1: SGLang 0.5.8.post1 gives KimiK25ForConditionalGeneration MHA "
            "attention; pass --attention-backend triton or torch_native or flex_attention or trtllm_mha, "
            "or another --kv-cache-dtype)",
        )
    accepted("0.5.8.post1", KIMI_FP4 + " --attention-backend triton")


def test_kimi_k2_5_is_mla_from_0_5_9():
    for backend in ("fa3", "triton"):
        refusal(
            "0.5.14",
            KIMI_FP4 + f" --attention-backend {backend}",
            "--kv-cache-dtype fp4_e2m1",
            "_handle_kv4_compatibility",
            f"AssertionError: KV4 MLA expects attention_backend to be one of {MLA}, but got {backend} "
            "(--kv-cache-dtype fp4_e2m1: SGLang 0.5.14 gives KimiK25ForConditionalGeneration MLA attention;",
        )
    accepted("0.5.14", KIMI_FP4 + " --attention-backend flashinfer")


def test_attention_kind_per_release():
    kimi = "KimiK25ForConditionalGeneration"
    assert [attention_kind(v, kimi) for v in ("0.5.8.post1", "0.5.9", "0.5.23")] == ["mha", "mla", "mla"]
    assert attention_kind("0.5.23", "DeepseekV3ForCausalLM") == "mla"
    assert attention_kind("0.5.23", "LlamaForCausalLM") == "mha"
    # a branch that tests more than the name (Pixtral with kv_lora_rank): not decided
    assert attention_kind("0.5.23", "PixtralForConditionalGeneration") is None
    assert attention_kind("0.4.0", "DeepseekV3ForCausalLM") == "mha"  # 0.4.0 names DeepseekV2 only


@pytest.mark.skipif(
    not list((ROOT / ".cache" / "sglang-wheels").glob("sglang-0.5.8.post1-*.whl")), reason="no SGLang wheels"
)
def test_the_reader_reads_the_model_config_chain():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from sglang_attention_arch import read_mla_architectures

    [wheel] = (ROOT / ".cache" / "sglang-wheels").glob("sglang-0.5.8.post1-*.whl")
    source = zipfile.ZipFile(wheel).read("sglang/srt/configs/model_config.py").decode()
    read = read_mla_architectures(source)
    assert (
        read is not None
        and "DeepseekV3ForCausalLM" in read["mla"]
        and read["mla_if"] == ["DeepseekVL2ForCausalLM"]
    )
    assert "KimiK25ForConditionalGeneration" not in read["mla"]
    # an MLA assignment under a test that names no architecture: not read
    assert read_mla_architectures("if x:\n    self.attention_arch = AttentionArch.MLA\n") is None


def test_kimi_k2_5_gets_deepseeks_backend_pick_where_the_release_names_it_beside():
    """0.5.14 names Kimi-K2.5 beside DeepSeek-V3 in its DeepSeek-family branch
    (`moe_defaults.deepseek_branch`), and it is MLA and not DSA there: the backend picked is
    DeepSeek-V3's (fa3 on Hopper, trtllm_mla with 64-token pages on Blackwell), so its checks
    follow (oracle: 0.5.14, fake H100 and B200, these launches)."""
    refusal(
        "0.5.14",
        KIMI_FP4.replace(" --quantization compressed-tensors", ""),
        "--kv-cache-dtype fp4_e2m1",
        "_handle_kv4_compatibility",
        f"AssertionError: KV4 MLA expects attention_backend to be one of {MLA}, but got fa3",
    )
    kimi = LAUNCH + "fixtures/models/kimi-k2.5"
    accepted("0.5.14", kimi + " --kv-cache-dtype fp8_e4m3")
    accepted("0.5.14", kimi + " --kv-cache-dtype fp4_e2m1", "b200")  # trtllm_mla takes it
    eagle = " --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8"
    accepted("0.5.14", kimi + eagle)
    [(code, _column, message)] = errors("0.5.14", kimi + eagle, "b200")
    assert code == "SPD007" and "trtllm_mla" in message, message
