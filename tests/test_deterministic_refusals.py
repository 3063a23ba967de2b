"""Refusals that follow from the attention backend --enable-deterministic-inference falls back
to (0.5.12+: fa3, flashinfer on Blackwell; DeepSeek-V3 on Blackwell gets trtllm_mla from its
model hook first), and NGRAM's page-size refusal where SGLang sets the page size itself.
Expected outcomes are the releases' own (tools/oracle's record_release.py on a fake H100 and
B200: 0.5.12.post1, 0.5.14, 0.5.15.post1, 0.5.17, 0.5.23, session 9); the last test asks the
real 0.5.23 (`pytest -m oracle`)."""

from __future__ import annotations

import pytest
from test_refusal_checks import DSV3, LAUNCH, LLAMA, QWEN3, accepted, errors, refusal

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_profiles import profile

DETERMINISTIC = " --enable-deterministic-inference"
MIS = LAUNCH + LLAMA + DETERMINISTIC + " --enable-mis"
MIS_FA3 = (
    "AssertionError: Multi-item scoring requires flashinfer attention backend for custom attention "
    "mask support. Please set --attention-backend flashinfer when using --enable-mis. Current "
    "backends: prefill=fa3, decode=fa3 (--enable-deterministic-inference without "
    "--attention-backend: SGLang {} falls back to fa3 on NVIDIA H100 80GB HBM3; add "
    "--attention-backend flashinfer)"
)


def test_mis_reads_the_fa3_deterministic_inference_falls_back_to_on_hopper():
    for version in ("0.5.12.post1", "0.5.17", "0.5.23"):
        refusal(version, MIS, "--enable-mis", "_handle_multi_item_scoring", MIS_FA3.format(version))
    refusal(
        "0.5.14",
        LAUNCH + QWEN3 + DETERMINISTIC + " --enable-mis",
        "--enable-mis",
        "_handle_multi_item_scoring",
        MIS_FA3.format("0.5.14"),
    )
    # a prefill backend given: the decode one is still the fallback
    refusal(
        "0.5.23",
        MIS + " --prefill-attention-backend flashinfer",
        "--enable-mis",
        "_handle_multi_item_scoring",
        "Current backends: prefill=flashinfer, decode=fa3 (--enable-deterministic-inference",
    )
    accepted("0.5.23", MIS + " --attention-backend flashinfer")


def test_mis_with_deterministic_inference_on_blackwell_gets_flashinfer():
    """Was refused as if SGLang picked trtllm_mha (the backend it picks without deterministic
    inference), which the releases do not do."""
    for version in ("0.5.14", "0.5.15.post1", "0.5.17", "0.5.23"):
        accepted(version, MIS, gpu="b200")
        accepted(version, MIS + " --prefill-attention-backend flashinfer", gpu="b200")


def _warnings(version: str, command: str) -> list[tuple[str, int, str]]:
    found = lint_text(command + "\n", "launch.sh", LintOptions(sglang_version=version, read_pyproject=False))
    return [(f.code, f.span.column, f.message) for f in found.findings if f.severity.name == "WARNING"]


def test_without_a_gpu_mis_with_deterministic_inference_is_a_warning_naming_the_gpus():
    """No --gpu: the fallback is fa3 on Hopper (refused) and flashinfer on Blackwell
    (accepted), so speclint cannot say; it warns which GPUs refuse it (was: nothing)."""
    assert errors("0.5.23", MIS, gpu=None) == []
    [(code, column, message)] = _warnings("0.5.23", MIS)
    assert (code, column) == ("SPD009", MIS.index("--enable-mis") + 1)
    assert message == (
        "SGLang 0.5.23 may refuse this launch in _handle_multi_item_scoring: AssertionError: "
        "Multi-item scoring requires flashinfer attention backend for custom attention mask support. "
        "Please set --attention-backend flashinfer when using --enable-mis. "
        "(--enable-deterministic-inference without --attention-backend: SGLang 0.5.23 falls back to "
        "a backend that depends on the GPU; refused on Hopper (SM90): prefill=fa3, decode=fa3; "
        "accepted on Blackwell (SM100): prefill=flashinfer, decode=flashinfer; pass --gpu to know, "
        "or add --attention-backend flashinfer)"
    )
    # DeepSeek-V3: refused on both, on Blackwell by the fallback's check of its model hook's pick
    command = LAUNCH + DSV3 + DETERMINISTIC + " --enable-mis"
    [(_, _, message)] = _warnings("0.5.23", command)
    assert "refused on Hopper (SM90): prefill=fa3, decode=fa3; Blackwell (SM100): " in message
    assert "picks trtllm_mla, which deterministic inference refuses" in message
    # a backend given, or a release whose --enable-mis check runs before the fallback: no doubt
    assert _warnings("0.5.23", MIS + " --attention-backend flashinfer") == []
    assert _warnings("0.5.11", MIS) == []


def test_before_0_5_12_mis_reads_the_backend_picked_for_the_gpu():
    """0.5.11 runs `_handle_multi_item_scoring` before deterministic inference, on the
    backend picked for the GPU (the existing check, its own wording)."""
    [(code, _, message)] = errors("0.5.11", MIS)
    assert code == "SPD009"
    assert (
        "Current backends: prefill=fa3, decode=fa3 (no --attention-backend: SGLang 0.5.11 picks fa3"
        in message
    )
    assert "falls back" not in message


TRTLLM_MLA = (
    "attention backends are supported for deterministic inference, but you explicitly specified "
    "'trtllm_mla'. (no --attention-backend: SGLang {} picks trtllm_mla for DeepseekV3ForCausalLM "
    "on NVIDIA B200 before deterministic inference checks it; add --attention-backend triton)"
)


def test_deepseek_on_blackwell_is_refused_with_the_backend_its_model_hook_picks():
    for version, choices in (
        ("0.5.17", "['ascend', 'fa3', 'fa4', 'flashinfer', 'triton']"),
        ("0.5.23", "['ascend', 'fa3', 'fa4', 'flashinfer', 'intel_xpu', 'triton']"),
    ):
        refusal(
            version,
            LAUNCH + DSV3 + DETERMINISTIC,
            "--enable-deterministic-inference",
            "_handle_deterministic_inference",
            f"ValueError: Currently only {choices} " + TRTLLM_MLA.format(version),
            gpu="b200",
        )
    # on Hopper the fallback is fa3, which DeepSeek models take
    accepted("0.5.23", LAUNCH + DSV3 + DETERMINISTIC)
    accepted("0.5.23", LAUNCH + DSV3 + DETERMINISTIC + " --attention-backend triton", gpu="b200")
    # without the GPU the pick is not known: nothing said
    accepted("0.5.23", LAUNCH + DSV3 + DETERMINISTIC, gpu=None)


def test_ngram_reads_the_deterministic_fallback():
    command = LAUNCH + LLAMA + DETERMINISTIC + " --speculative-algorithm NGRAM --page-size 16"
    for version in ("0.5.14", "0.5.23"):
        found = errors(version, command)
        assert found == [
            (
                "SPD014",
                command.index("--page-size 16") + len("--page-size ") + 1,
                f"SGLang {version} refuses this launch: speculative_eagle_topk(10) > 1 with "
                "page_size(16) > 1 is unstable and produces incorrect results for paged attention "
                "backends. This combination is only supported for the 'flashinfer' backend. (no "
                f"--attention-backend: SGLang {version} picks fa3 on NVIDIA H100 80GB HBM3)",
            )
        ]
        accepted(version, command, gpu="b200")  # flashinfer


def _fix(version: str, command: str, gpu: str) -> tuple[str, int, str]:
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu))
    [finding] = [f for f in lint_text(command + "\n", "launch.sh", options).findings if f.code == "SPD014"]
    return finding.severity.name, finding.span.column, finding.fix_hint or ""


def test_ngram_refused_on_a_page_size_sglang_sets_points_at_ngram():
    """DeepSeek-V3 on a B200: SGLang picks trtllm_mla, which sets page size 64 whatever
    --page-size says; the finding was at column 1 and advised --page-size 1."""
    for version in ("0.5.9", "0.5.23"):
        for extra in ("", " --page-size 16"):
            command = LAUNCH + DSV3 + " --speculative-algorithm NGRAM" + extra
            [(code, column, message)] = errors(version, command, gpu="b200")
            assert (code, column) == ("SPD014", command.index("NGRAM") + 1)
            assert "with page_size(64) > 1 is unstable" in message
            assert "SGLang " + version + " picks trtllm_mla on NVIDIA B200" in message
            severity, _, fix = _fix(version, command, "b200")
            assert severity == "ERROR"
            assert fix.startswith(
                "use --attention-backend flashinfer, or --speculative-ngram-max-bfs-breadth 1"
            )
        accepted(version, LAUNCH + DSV3 + " --speculative-algorithm NGRAM")  # H100: fa3, page 1
    # the page size given and kept: that token, and --page-size 1 helps
    command = LAUNCH + LLAMA + " --speculative-algorithm NGRAM --page-size 16"
    assert _fix("0.5.23", command, "h100") == (
        "ERROR",
        command.index("--page-size 16") + len("--page-size ") + 1,
        "use --attention-backend flashinfer, or --page-size 1",
    )
    # flashmla forces 64: the backend given is the token
    command = LAUNCH + LLAMA + " --speculative-algorithm NGRAM --attention-backend flashmla"
    [(code, column, _)] = errors("0.5.9", command)
    assert (code, column) == ("SPD014", command.index("flashmla") + 1)


@pytest.mark.oracle
def test_the_real_0_5_23_agrees():
    from oracle_harness import run_oracle

    cases = [
        (LLAMA, DETERMINISTIC + " --enable-mis", "h100"),
        (LLAMA, DETERMINISTIC + " --enable-mis", "b200"),
        (DSV3, DETERMINISTIC, "b200"),
        (DSV3, DETERMINISTIC, "h100"),
        (QWEN3, DETERMINISTIC + " --speculative-algorithm NGRAM --page-size 16", "h100"),
        (QWEN3, DETERMINISTIC + " --speculative-algorithm NGRAM --page-size 16", "b200"),
        (DSV3, " --speculative-algorithm NGRAM", "b200"),
        (LLAMA, " --enable-mis", "b200"),
        (DSV3, " --enable-mis", "h100"),
        (LLAMA, " --enable-mis --attention-backend flashinfer", "b200"),
    ]
    results = run_oracle(
        [{"argv": ["--model-path", model, *flags.split()], "gpu": gpu.upper()} for model, flags, gpu in cases]
    )
    for (model, flags, gpu), result in zip(cases, results):
        found = errors("0.5.23", LAUNCH + model + flags, gpu=gpu)
        assert bool(found) == (not result["ok"]), (model, flags, gpu, result.get("error"), found)
        if found:
            assert result["error"] in found[0][2], (result["error"], found)


def test_ngram_on_a_backend_whose_page_size_is_not_read_is_a_warning():
    """aiter on an AMD GPU: the ROCm resolution is not read, so SGLang's refusal (topk > 1
    with page size 16 off flashinfer, `_handle_ngram`) is a warning naming why."""
    command = LAUNCH + LLAMA + " --speculative-algorithm NGRAM --attention-backend aiter --page-size 16"
    for version in ("0.5.14", "0.5.23"):
        severity, column, fix = _fix(version, command, "mi300x")
        assert (severity, column) == ("WARNING", command.index("--page-size 16") + len("--page-size ") + 1)
        assert fix == "use --attention-backend flashinfer, or --page-size 1"
    options = LintOptions(sglang_version="0.5.23", read_pyproject=False, gpu=profile("mi300x"))
    [finding] = [f for f in lint_text(command + "\n", "launch.sh", options).findings if f.code == "SPD014"]
    assert finding.message == (
        "NGRAM drafts a tree (topk = --speculative-ngram-max-bfs-breadth 10) and SGLang refuses "
        "topk > 1 with page size 16 on every attention backend but flashinfer, so with "
        "--attention-backend aiter it refuses this launch unless it sets page size 1 for that "
        "backend; the page size it resolves is not known here (the ROCm resolution "
        "(handle_amd_specifics, aiter) for AMD Instinct MI300X is unverified for SGLang 0.5.23)"
    )
    # the breadth 1 drafts no tree: nothing to say
    assert _fix_or_none("0.5.23", command + " --speculative-ngram-max-bfs-breadth 1", "mi300x") is None


def _fix_or_none(version: str, command: str, gpu: str) -> object:
    options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu))
    found = [f for f in lint_text(command + "\n", "launch.sh", options).findings if f.code == "SPD014"]
    return found[0] if found else None


def test_mis_in_0_5_23_reads_the_backend_picked_for_the_gpu():
    """--enable-mis changes nothing before 0.5.22+ pick the attention backend, so the pick is
    read with it (it was left unknown, and the refusal unsaid)."""
    says = "Current backends: prefill={0}, decode={0} (no --attention-backend: SGLang {1} picks {0} on {2})"
    for version in ("0.5.14", "0.5.23"):
        for model in (LLAMA, QWEN3, DSV3):
            refusal(
                version,
                LAUNCH + model + " --enable-mis",
                "--enable-mis",
                "_handle_multi_item_scoring",
                says.format("fa3", version, "NVIDIA H100 80GB HBM3"),
            )
    for model, backend in ((LLAMA, "trtllm_mha"), (QWEN3, "trtllm_mha"), (DSV3, "trtllm_mla")):
        refusal(
            "0.5.23",
            LAUNCH + model + " --enable-mis",
            "--enable-mis",
            "_handle_multi_item_scoring",
            says.format(backend, "0.5.23", "NVIDIA B200"),
            gpu="b200",
        )
    accepted("0.5.23", LAUNCH + LLAMA + " --enable-mis --attention-backend flashinfer", gpu="b200")
    accepted("0.5.23", LAUNCH + LLAMA + " --enable-mis", gpu=None)  # the pick depends on the GPU
    # another flag outside the modelled ones: the pick is not read
    accepted("0.5.23", LAUNCH + LLAMA + " --enable-mis --disable-custom-all-reduce", gpu="h100")


# --- --rl-on-policy-target (tools/gen_deterministic_facts.py: RL_ON_POLICY) ---

RL = LAUNCH + LLAMA + " --rl-on-policy-target fsdp"


def test_rl_on_policy_target_turns_on_deterministic_inference():
    """`_handle_deterministic_inference` (0.5.4+): the target sets
    enable_deterministic_inference, so its fallback and refusals follow (was: not modelled)."""
    from speclint.sglang.resolve.gpu_profiles import profile as gpu_profile

    options = LintOptions(sglang_version="0.5.23", read_pyproject=False, gpu=gpu_profile("b200"))
    [ctx] = lint_text(RL + "\n", "launch.sh", options).contexts
    resolution = ctx.resolution
    assert resolution is not None
    change = resolution.adjustment("enable_deterministic_inference")
    assert change is not None
    assert (change.asked, change.effective, change.handler) == (
        False,
        True,
        "_handle_deterministic_inference",
    )
    assert change.logged == "Enable deterministic inference because of rl_on_policy_target."
    assert resolution.effective["attention_backend"] == "flashinfer"  # the Blackwell fallback


def test_rl_on_policy_target_refusals_are_deterministic_inferences():
    command = RL + " --enable-mis"
    refusal(
        "0.5.23",
        command,
        "--enable-mis",
        "_handle_multi_item_scoring",
        "Current backends: prefill=fa3, decode=fa3 (--rl-on-policy-target (which turns on "
        "deterministic inference) without --attention-backend: SGLang 0.5.23 falls back to fa3",
    )
    accepted("0.5.23", command, gpu="b200")
    flashmla = RL + " --attention-backend flashmla"
    refusal(
        "0.5.23",
        flashmla,
        "--attention-backend flashmla",
        "_handle_deterministic_inference",
        "attention backends are supported for deterministic inference, but you explicitly specified 'flashmla'.",
    )


@pytest.mark.oracle
def test_the_real_0_5_23_agrees_on_rl_on_policy_target():
    from oracle_harness import declared_by, run_oracle

    cases = [
        (RL, "h100"),
        (RL + " --enable-mis", "h100"),
        (RL + " --enable-mis", "b200"),
        (RL + " --attention-backend flashmla", "h100"),
    ]
    prefix = len(LAUNCH)
    results = run_oracle(
        [{"argv": ["--model-path", *command[prefix:].split()], "gpu": gpu.upper()} for command, gpu in cases]
    )
    assert ("_handle_deterministic_inference", True) in declared_by(
        results[0], "enable_deterministic_inference"
    )
    for (command, gpu), result in zip(cases, results):
        found = errors("0.5.23", command, gpu=gpu)
        assert bool(found) == (not result["ok"]), (command, gpu, result.get("error"), found)
        if found:
            assert result["error"] in found[0][2], (result["error"], found)


def test_explain_shows_a_refusal_that_depends_on_the_gpu(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "launch.sh"
    script.write_text(MIS + "\n")
    shown = subprocess.run(
        [sys.executable, "-m", "speclint", "explain", "--sglang-version", "0.5.23", str(script)],
        text=True,
        capture_output=True,
        timeout=60,
    ).stdout
    assert (
        "  SGLang may stop this launch in _handle_multi_item_scoring: AssertionError: Multi-item scoring "
        "requires flashinfer attention backend" in shown
    )
    assert "refused on Hopper (SM90): prefill=fa3, decode=fa3; accepted on Blackwell" in shown
