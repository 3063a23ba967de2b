"""The DeepSeek-family Blackwell (SM100) defaults beyond DeepSeek-V3: 0.5.22-0.5.23 give
Kimi-K2.5 (KimiK25ForConditionalGeneration) the trtllm_mla attention backend, its checkpoint's
quantization and, for its compressed-tensors int4 checkpoint, the flashinfer_trtllm MoE runner
whatever --quantization says; that runner's assert then refuses a --quantization it does not
take, and trtllm_mla refuses an fp8_e5m2 KV cache. Which architectures get these defaults is
read from each release's wheel (tools/sglang_deepseek_family.py); the outcomes were recorded
by tools/oracle on 0.5.23 (fake B200, H100). Session 11 also ran 260 Kimi-only launches of
tests/oracle_wide.py's generator (seeds 20260524, 11140) on the 0.5.23 oracle's B200: 174
accepted, 7,327 changed fields compared, none different; the refusals agreed but for
`check_server_args`' PP + EAGLE3 assert, which that run does not reach."""

from __future__ import annotations

import pytest
from test_refusal_checks import LAUNCH, M, accepted, errors, kernel_config, refusal

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.moe_defaults import deepseek_family
from speclint.sglang.resolve.gpu_profiles import profile

KIMI = LAUNCH + M + "kimi-k2.5 --trust-remote-code --tp-size 8"
TRTLLM_MOE = (
    "AssertionError: Invalid quantization '{q}'. FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', "
    "'nvfp4_online', 'fp8', 'modelopt_fp8', 'modelopt_mixed', 'compressed-tensors', or bfloat16 "
    "(None). (--quantization {q} on KimiK25ForConditionalGeneration, whose checkpoint SGLang gives "
    "the flashinfer_trtllm MoE runner on Blackwell (SM100); drop --quantization, name one of "
    "modelopt_fp4, nvfp4_online, fp8, mxfp8, modelopt_fp8, modelopt_mixed, compressed-tensors, or "
    "pass another --moe-runner-backend)"
)
REFUSED = ("w8a8_int8", "w8a8_fp8", "humming", "quark_mxfp4")


def _effective(version: str, command: str, gpu: str) -> dict[str, object]:
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu))
    resolution = lint_text(command + "\n", "launch.sh", options).contexts[0].resolution
    assert resolution is not None
    return resolution.effective


@pytest.mark.parametrize("version", ["0.5.22", "0.5.23"])
@pytest.mark.parametrize("quantization", REFUSED)
def test_kimi_k25_on_b200_refuses_a_quantization_flashinfer_trtllm_moe_does_not_take(version, quantization):
    refusal(
        version,
        f"{KIMI} --quantization {quantization}",
        f"--quantization {quantization}",
        kernel_config(version),
        TRTLLM_MOE.format(q=quantization),
        gpu="b200",
    )


@pytest.mark.parametrize("quantization", REFUSED)
def test_kimi_k25_takes_those_quantizations_off_blackwell_or_with_a_runner_given(quantization):
    accepted("0.5.23", f"{KIMI} --quantization {quantization}", gpu="h100")
    accepted("0.5.23", f"{KIMI} --quantization {quantization} --moe-runner-backend triton", gpu="b200")


def test_kimi_k25_on_b200_refuses_an_fp8_e5m2_kv_cache_under_the_trtllm_mla_it_gets():
    command = KIMI + " --kv-cache-dtype fp8_e5m2"
    [(code, column, message)] = errors("0.5.23", command, "b200")
    assert (code, column) == ("PAR009", command.index("fp8_e5m2") + 1)
    assert message == (
        "SGLang 0.5.23 refuses this launch on NVIDIA B200: TensorRT-LLM MLA backend only supports "
        "kv-cache-dtype of fp8_e4m3, bf16, or auto."
    )
    accepted("0.5.23", command, gpu="h100")  # fa3 there, which takes it


@pytest.mark.parametrize("version", ["0.5.21", "0.5.22", "0.5.23"])
def test_deepseek_v3_with_unquant_on_b200_still_gets_trtllm_mla(version):
    """--quantization unquant leaves the family's MoE defaults unmodelled, not the trtllm_mla
    attention backend `_deepseek_family_overrides` sets whatever the quantization: its
    fp8_e5m2 refusal stands (oracle, moe seed 15004: 0.5.21-0.5.23 refuse it in
    `_mla_kv_cache_dtype_checks`; was: nothing said)."""
    command = LAUNCH + M + "deepseek-v3 --quantization unquant --kv-cache-dtype fp8_e5m2"
    [(code, column, message)] = errors(version, command, "b200")
    assert (code, column) == ("PAR009", command.index("fp8_e5m2") + 1)
    assert message == (
        f"SGLang {version} refuses this launch on NVIDIA B200: TensorRT-LLM MLA backend only supports "
        "kv-cache-dtype of fp8_e4m3, bf16, or auto."
    )
    # with a MoE runner given too (the GPU resolution otherwise left to SGLang's hooks):
    # recorded on 0.5.23 with --moe-runner-backend cutlass
    [(code, _, _)] = errors(version, command + " --moe-runner-backend cutlass", "b200")
    assert code == "PAR009"
    # recorded in the same draw: accepted with the default KV cache
    runner = {"0.5.21": "humming", "0.5.22": "flashinfer_cutlass", "0.5.23": "flashinfer_mxfp4"}[version]
    accepted(
        version, LAUNCH + M + f"deepseek-v3 --quantization unquant --moe-runner-backend {runner}", gpu="b200"
    )


def test_kimi_k25_on_b200_refuses_flashinfer_cutlass_on_the_quantization_its_checkpoint_gives():
    command = KIMI + " --moe-runner-backend flashinfer_cutlass"
    # 0.5.14: Kimi-K2.5's own SM100 branch takes it (`sm100_adopting_architectures`; the
    # oracle recorded this refusal on 0.5.14, session 12)
    for version in ("0.5.14", "0.5.21", "0.5.23"):
        refusal(
            version,
            command,
            "--moe-runner-backend flashinfer_cutlass",
            kernel_config(version),
            "AssertionError: Invalid quantization 'compressed-tensors'. FlashInfer Cutlass MOE supports "
            "only: 'modelopt_fp4', 'modelopt_fp8', 'modelopt_mixed', or bfloat16 (None). (quantization "
            "compressed-tensors from the checkpoint's quantization_config (compressed-tensors), which "
            "SGLang takes for KimiK25ForConditionalGeneration on the NVIDIA B200 (SM100), with the "
            "flashinfer_cutlass MoE runner; use a checkpoint in modelopt_fp4, modelopt_fp8, "
            "modelopt_mixed, or another --moe-runner-backend)",
            gpu="b200",
        )


def test_kimi_k25_on_b200_resolves_the_deepseek_family_defaults():
    effective = _effective("0.5.23", KIMI, "b200")
    assert {k: effective.get(k) for k in ("attention_backend", "moe_runner_backend", "quantization")} == {
        "attention_backend": "trtllm_mla",
        "moe_runner_backend": "flashinfer_trtllm",
        "quantization": "compressed-tensors",  # lifted from text_config, as kimi_k25's config class does
    }
    assert effective.get("disable_shared_experts_fusion") is True


def test_the_family_is_read_from_the_wheel_per_release():
    family = deepseek_family("0.5.23")
    assert family is not None
    assert "KimiK25ForConditionalGeneration" in family.attention & family.moe
    assert family.fp8_probe == frozenset({"DeepseekV3ForCausalLM"})  # only it opens the safetensors
    assert "KimiK25ForConditionalGeneration" not in family.dsa_architectures
    assert deepseek_family("0.5.9") is None  # not read there: DeepSeek-V3 only, as before


@pytest.mark.oracle
def test_the_real_0_5_23_gives_kimi_k25_the_deepseek_family_defaults_on_b200():
    from oracle_harness import model, run_oracle
    from oracle_wide import Tally, compare_one

    base = ["--model-path", model("kimi-k2.5"), "--trust-remote-code", "--tp-size", "8"]
    refused = [["--quantization", q] for q in REFUSED] + [
        ["--kv-cache-dtype", "fp8_e5m2"],
        ["--moe-runner-backend", "flashinfer_cutlass"],
    ]
    eagle3 = [
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        model("eagle3-kimi-k2.5"),
    ]
    taken = [[], eagle3] + [["--quantization", q, "--moe-runner-backend", "triton"] for q in REFUSED]
    cases = [(extra, "B200") for extra in [*refused, *taken]] + [(extra, "H100") for extra in refused]
    results = run_oracle([{"argv": base + extra, "gpu": gpu} for extra, gpu in cases])
    tally = Tally()
    for (extra, gpu), result in zip(cases, results):
        command = " ".join(["python -m sglang.launch_server", *base, *extra])
        options = LintOptions(sglang_version="0.5.23", read_pyproject=False, gpu=profile(gpu.lower()))
        linted = lint_text(command + "\n", "launch.sh", options)
        found = [f.message for f in linted.findings if f.severity.name == "ERROR"]
        if gpu == "H100" or extra not in refused:
            assert result["ok"], (extra, gpu, result["error"])
            assert found == [], (extra, gpu)
            compare_one(tally, command, result, linted.contexts[0].resolution)
            continue
        assert not result["ok"], extra
        [message] = found
        assert result["error"].replace(" \n", " ") in message, (result["error"], message)
    assert tally.equal > 0 and not tally.problems, "\n".join(tally.problems)
