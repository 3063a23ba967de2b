"""An MHA architecture no comparison of the release's resolution names, on 0.5.10-0.5.21 with
the GPU given: the backend SGLang picks for it by its attention kind (fa3 on Hopper, trtllm_mha
on Blackwell; `auto_backend._as_modelled`), where the rest of the GPU resolution is not
modelled for it. Expected outcomes are the releases' own: tools/oracle record_release.py ran a
MistralForCausalLM config (the form of Mistral-7B-Instruct-v0.3's config.json, written below)
on 0.5.10, 0.5.12.post1, 0.5.14, 0.5.17, 0.5.19 and 0.5.21 on a fake H100 and B200, 144
launches: every refusal and every attention backend and page size agree (9 refusals were
missed before: an FP4 KV cache and NGRAM with 64-token pages on the H100's fa3)."""

from __future__ import annotations

import json

from test_refusal_checks import LAUNCH, accepted, errors

H100 = "NVIDIA H100 80GB HBM3"
MISTRAL = {
    "architectures": ["MistralForCausalLM"],
    "model_type": "mistral",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "max_position_embeddings": 32768,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "rms_norm_eps": 1e-05,
    "rope_theta": 1000000.0,
    "sliding_window": None,
    "torch_dtype": "bfloat16",
    "vocab_size": 32768,
}


def _launch(tmp_path) -> str:
    folder = tmp_path / "mistral-7b-instruct"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(MISTRAL))
    return LAUNCH + str(folder)


def test_fp4_kv_cache_on_the_fa3_picked_on_hopper_is_refused(tmp_path):
    command = _launch(tmp_path) + " --kv-cache-dtype fp4_e2m1"
    for version in ("0.5.10", "0.5.14"):
        [(code, column, message)] = errors(version, command, "h100")
        assert (code, column) == ("SPD009", command.index("fp4_e2m1") + 1), message
        assert message == (
            f"SGLang {version} refuses this launch in _handle_kv4_compatibility: AssertionError: KV4 MHA "
            "expects attention_backend to be one of ['triton', 'torch_native', 'flex_attention', "
            f"'trtllm_mha'], but got fa3 (--kv-cache-dtype fp4_e2m1: SGLang {version} gives "
            "MistralForCausalLM MHA attention; pass --attention-backend triton or torch_native or "
            "flex_attention or trtllm_mha, or another --kv-cache-dtype) (no --attention-backend: "
            f"SGLang {version} picks fa3 on {H100})"
        )
        accepted(version, command, "b200")  # trtllm_mha takes it


def test_ngram_with_64_token_pages_on_the_fa3_picked_on_hopper_is_refused(tmp_path):
    command = _launch(tmp_path) + " --speculative-algorithm NGRAM --page-size 64"
    for version in ("0.5.12.post1", "0.5.21"):
        [(code, column, message)] = errors(version, command, "h100")
        assert (code, column) == ("SPD014", command.rindex("64") + 1), message
        assert message == (
            f"SGLang {version} refuses this launch: speculative_eagle_topk(10) > 1 with page_size(64) > 1 "
            "is unstable and produces incorrect results for paged attention backends. This combination "
            f"is only supported for the 'flashinfer' backend. (no --attention-backend: SGLang {version} "
            f"picks fa3 on {H100})"
        )
        accepted(version, command.replace(" --page-size 64", ""), "h100")
