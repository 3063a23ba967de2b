"""Flags that leave the attention backend SGLang picks readable (`hardware_flags.BESIDE`):
--moe-runner-backend and --dtype are read by no function that picks it in 0.5.15-0.5.23, so
DeepSeek-V3 still gets trtllm_mla on Blackwell with them, and trtllm_mla's KV-cache dtype
check still applies; and 0.5.23's `--moe-runner-backend megamoe` alias (the runner becomes
auto) is not judged as an explicit runner. Expected outcomes are 0.5.23's own: tools/oracle
resolve on a fake B200 (seeds 12022 and 13022 of the MoE generator, and these launches)."""

from __future__ import annotations

from test_refusal_checks import DSV3, LAUNCH, QWEN3, accepted, errors

TRTLLM_MLA_KV = (
    "SGLang 0.5.23 refuses this launch on NVIDIA B200: TensorRT-LLM MLA backend only supports "
    "kv-cache-dtype of fp8_e4m3, bf16, or auto."
)


def _one_error_at(command: str, token: str) -> str:
    [(code, column, message)] = errors("0.5.23", command, "b200")
    flag, _, value = token.partition(" ")
    assert (code, column) == ("PAR009", command.index(token) + len(flag) + 2), message
    return message


def test_trtllm_mla_kv_dtype_checked_beside_an_explicit_moe_runner():
    command = (
        LAUNCH
        + DSV3
        + " --quantization modelopt_fp4 --kv-cache-dtype fp8_e5m2 --moe-runner-backend intel_xpu"
    )
    assert _one_error_at(command, "--kv-cache-dtype fp8_e5m2") == TRTLLM_MLA_KV


def test_trtllm_mla_kv_dtype_checked_beside_dtype():
    command = LAUNCH + DSV3 + " --kv-cache-dtype fp8_e5m2 --dtype bfloat16"
    assert _one_error_at(command, "--kv-cache-dtype fp8_e5m2") == TRTLLM_MLA_KV
    # the KV-cache dtypes trtllm_mla takes pass (the oracle: accepted)
    accepted("0.5.23", LAUNCH + DSV3 + " --kv-cache-dtype fp8_e4m3 --dtype bfloat16", "b200")


def test_the_megamoe_runner_alias_is_not_an_explicit_runner():
    """`--moe-runner-backend megamoe` means `--moe-a2a-backend megamoe` with the runner auto:
    nvfp4_online then takes flashinfer_trtllm (oracle: accepted, for DeepSeek-V3 and Qwen3)."""
    accepted("0.5.23", LAUNCH + DSV3 + " --quantization nvfp4_online --moe-runner-backend megamoe", "b200")
    accepted(
        "0.5.23",
        LAUNCH
        + QWEN3
        + " --quantization nvfp4_online --moe-runner-backend megamoe --moe-a2a-backend megamoe",
        "b200",
    )


def test_the_megamoe_alias_per_release():
    """`--moe-runner-backend megamoe` is an alias for `--moe-a2a-backend megamoe` from 0.5.18
    (read per release: `moe_runner_alias`; 0.5.18 assigns, 0.5.19+ declares), first in
    resolution, so the all-to-all backend then sets ep_size (oracle: 0.5.19 recorded
    moe_a2a_backend megamoe and ep_size 2 for this launch, seed 13024 of the MoE generator)."""
    from test_differential_values import FP8_CHECKPOINT, _effective, _launch

    from speclint.sglang.moe_readings import moe_runner_alias

    text = _launch(FP8_CHECKPOINT, "--tp-size 2 --moe-runner-backend megamoe")
    for version in ("0.5.19", "0.5.23"):
        effective = _effective(version, text, "b200")
        assert (effective["moe_a2a_backend"], effective["ep_size"]) == ("megamoe", 2)
    assert moe_runner_alias("0.5.18") == (
        "megamoe",
        {"moe_runner_backend": "auto", "moe_a2a_backend": "megamoe"},
        "_handle_moe_runner_backend_alias",
    )
    assert moe_runner_alias("0.5.17") is None
