"""--quantization against the target checkpoint's quantization_config, release by release
(`ModelConfig._verify_quantization`, speclint.sglang.resolve.quantization)."""

from __future__ import annotations

import os

import pytest

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


# --- session 10: pairs read from each release's hooks (tools/sglang_quant_hooks.py) ---

KIMI = os.path.join(ROOT, "fixtures", "models", "kimi-k2.5")  # text_config: compressed-tensors
KIMI_FP8 = (
    "SGLang 0.5.23 refuses this launch in ModelConfig._verify_quantization: ValueError: "
    "Quantization method specified in the model config (compressed-tensors) does not match the "
    "quantization method specified in the `quantization` argument (fp8). (the checkpoint's "
    "config.json says quant_method 'compressed-tensors': drop --quantization to use it, or name "
    "a method SGLang 0.5.23 takes for it)"
)


def _all(version: str, text: str) -> list[tuple[str, str, int, int, str]]:
    options = LintOptions(sglang_version=version, read_pyproject=False)
    result = lint_text(text, "launch.sh", options)
    return [(f.code, f.severity.name, f.span.line, f.span.column, f.message) for f in result.findings]


def test_kimi_k2_5_with_fp8_is_refused_where_its_config_class_lifts_the_quantization():
    """Kimi-K2.5's config.json keeps `quantization_config` (compressed-tensors) in
    `text_config`; SGLang's KimiK25Config (0.5.10+) lifts it (before, `get_config` copies it), and no hook of 0.5.23 rewrites
    fp8 on a compressed-tensors checkpoint (recorded by the oracle: refused)."""
    text = _launch(KIMI, "--quantization fp8 --tp-size 8")
    column = text.index(" fp8") + 2
    assert _all("0.5.23", text) == [("SPD009", "ERROR", 1, column, KIMI_FP8)]
    # w8a8_fp8 is compatible with compressed-tensors (its `compatible_quantization_methods`)
    assert _all("0.5.23", _launch(KIMI, "--quantization w8a8_fp8 --tp-size 8")) == []
    # 0.5.6.post2 has no Kimi-K2.5 config class, but its `get_config` copies the text config's
    # attributes onto the config (tests/test_text_config_copy.py): refused too (recorded by
    # the oracle, session 12)
    assert [f[:2] + f[4:] for f in _all("0.5.6.post2", text)] == [
        ("SPD009", "ERROR", KIMI_FP8.replace("0.5.23", "0.5.6.post2"))
    ]


def test_the_quantization_refusal_comes_before_the_parallel_layout_checks():
    """SGLang builds the ModelConfig (and verifies --quantization) before it checks the
    attention-DP layout (recorded on 0.5.23: the quantization ValueError)."""
    text = _launch(KIMI, "--quantization fp8 --tp-size 2 --attn-dp-size 3")
    assert [(code, severity) for code, severity, *_ in _all("0.5.23", text)] == [("SPD009", "ERROR")]


# --- session 11: helpers the hooks import, followed (canonicalize_modelopt_quant_algo) ---

GPTQ = os.path.join(ROOT, "fixtures", "models", "qwen3-8b-gptq-int4")  # quant_method gptq, 4 bits


def test_modelopt_on_a_checkpoint_without_quant_algo_is_refused():
    """--quantization modelopt: 0.5.23's ModelOpt hooks map the checkpoint's `quant_algo` with
    canonicalize_modelopt_quant_algo (layers/modelopt_utils.py, followed): Kimi-K2.5's
    compressed-tensors config has none, so nothing rewrites the pair (was: a warning)."""
    for asked in ("modelopt", "modelopt_fp4", "modelopt_fp8"):
        text = _launch(KIMI, f"--quantization {asked} --tp-size 8")
        assert _all("0.5.23", text) == [
            ("SPD009", "ERROR", 1, text.index(f" {asked} ") + 2, KIMI_FP8.replace("(fp8)", f"({asked})"))
        ]


def test_a_pair_a_hook_may_rewrite_is_a_warning_saying_so():
    """--quantization gptq_marlin on a GPTQ checkpoint: GPTQMarlinConfig rewrites it when
    Marlin supports its bits and group size on the GPU, which the launch does not say."""
    text = _launch(GPTQ, "--quantization gptq_marlin")
    [(code, severity, line, column, message)] = _all("0.5.23", text)
    assert (code, severity, line, column) == ("SPD009", "WARNING", 1, text.index("gptq_marlin") + 1)
    assert message.startswith(
        "SGLang 0.5.23 may refuse this launch in ModelConfig._verify_quantization: ValueError: "
        "Quantization method specified in the model config (gptq) does not match"
    )
    assert message.endswith(
        "; unverified: unless an `override_quantization_method` hook of SGLang 0.5.23 rewrites the "
        "pair from what a launch does not say (the checkpoint's other quantization keys, the GPU)"
    )
    # no hook rewrites awq on it: refused
    [(code, severity, *_)] = _all("0.5.23", _launch(GPTQ, "--quantization awq_marlin"))
    assert (code, severity) == ("SPD009", "ERROR")


def test_a_pair_a_hook_may_only_raise_on_is_refused_on_0_4_9_to_0_4_9_post2():
    """0.4.9-0.4.9.post2: GPTQMarlinConfig.is_gptq_marlin_compatible runs `assert VLLM_AVAILABLE`
    for every --quantization on a GPTQ checkpoint with bits, group size, sym and desc_act, and
    its hook rewrites only gptq_marlin and marlin: --quantization awq or fp8 ends the launch
    either way (recorded on 0.4.9.post2, seed quantization-14006: the mismatch ValueError;
    was: a warning)."""
    for version in ("0.4.9", "0.4.9.post2"):
        for asked in ("awq", "fp8", "w8a8_int8"):
            text = _launch(GPTQ, f"--quantization {asked}")
            [(code, severity, line, column, message)] = _all(version, text)
            assert (code, severity, line, column) == ("SPD009", "ERROR", 1, text.index(f" {asked}") + 2)
            assert message == (
                f"SGLang {version} refuses this launch in ModelConfig._verify_quantization: ValueError: "
                "Quantization method specified in the model config (gptq) does not match the "
                f"quantization method specified in the `quantization` argument ({asked}). (the "
                "checkpoint's config.json says quant_method 'gptq': drop --quantization to use it, or "
                f"name a method SGLang {version} takes for it); SGLang {version} may stop first in an "
                "`override_quantization_method` hook, on a branch that depends on what a launch does "
                "not say: `GPTQMarlinConfig.is_gptq_marlin_compatible: assert VLLM_AVAILABLE, 'vllm is "
                "not installed, to use gptq_marlin, please install vllm'`"
            )
        # gptq_marlin: rewritten where vllm's Marlin check passes (a warning, as before)
        [(code, severity, *_)] = _all(version, _launch(GPTQ, "--quantization gptq_marlin"))
        assert (code, severity) == ("SPD009", "WARNING")
    # moe_wna16: MoeWNA16Config's hook may rewrite it first (from desc_act and bits): no error
    [(code, severity, *_)] = _all("0.4.9.post2", _launch(GPTQ, "--quantization moe_wna16"))
    assert (code, severity) == ("SPD009", "WARNING")


def test_a_gptq_checkpoint_on_0_4_9_to_0_4_9_post2_warns_of_the_vllm_assert():
    """With no --quantization, or --quantization gptq, 0.4.9-0.4.9.post2 still run the hooks on a
    gptq checkpoint, and GPTQMarlinConfig.is_gptq_marlin_compatible reaches `assert
    VLLM_AVAILABLE` on CUDA (read per release: the hooks' "raise" of any --quantization on the
    pair). A warning, unverified: the oracle's fake GPU reads CUDA as absent when gptq.py is
    imported and accepts (seed quantization-14006 and 16003, 0.4.9.post2 and 0.4.9.post1:
    accepted); vllm passes it. 0.4.8.post1 and 0.4.9.post3 have no such assert: nothing said."""
    statement = (
        "`GPTQMarlinConfig.is_gptq_marlin_compatible: assert VLLM_AVAILABLE, 'vllm is not "
        "installed, to use gptq_marlin, please install vllm'`"
    )
    for version in ("0.4.9", "0.4.9.post1", "0.4.9.post2"):
        for flags, given, token in (
            ("", "no --quantization", GPTQ),
            ("--quantization gptq", "--quantization gptq", " gptq"),
        ):
            text = _launch(GPTQ, flags)
            [(code, severity, line, column, message)] = _all(version, text)
            at = text.index(token) + (1 if token.startswith(" ") else 0)
            assert (code, severity, line, column) == ("SPD009", "WARNING", 1, at + 1), message
            assert message == (
                f"SGLang {version} may refuse this launch in ModelConfig._verify_quantization: "
                f"AssertionError: with {given} on a checkpoint whose config.json says quant_method "
                f"'gptq', SGLang {version}'s `override_quantization_method` hooks run on it on a CUDA "
                f"GPU and may stop the launch: {statement} (unverified for SGLang {version}: its "
                "recorded run cannot reach it, and it passes where vllm is installed; install vllm, "
                "or use a release that does not assert it)"
            ), message
    for version in ("0.4.8.post1", "0.4.9.post3"):
        assert _all(version, _launch(GPTQ, "")) == []
        assert _all(version, _launch(GPTQ, "--quantization gptq")) == []


def test_gptq_on_a_gptq_checkpoint_is_unknown_on_cuda_from_0_5_20():
    """The checkpoint says gptq and so does --quantization: no mismatch, and no hook of 0.5.23
    rewrites gptq (GPTQMarlinConfig only logs that gptq_marlin would be faster), so the
    registry check refuses it on CUDA (the 0.5.23 oracle: "Unknown quantization method: gptq")."""
    text = _launch(GPTQ, "--quantization gptq")
    [(code, line, column, message)] = _findings("0.5.23", text)
    assert (code, line, column) == ("SPD009", 1, text.index(" gptq\n") + 2)
    assert message == (
        "SGLang 0.5.23 refuses this launch in ModelConfig._verify_quantization: ValueError: "
        "Unknown quantization method: gptq. SGLang 0.5.23 does not register it on a CUDA GPU (its "
        "QUANTIZATION_METHODS lacks it there although --quantization offers it; use --quantization "
        "gptq_marlin, a method it registers; no hook of SGLang 0.5.23 rewrites --quantization gptq "
        "on this checkpoint, whose config.json says quant_method 'gptq')"
    )
    assert _findings("0.5.19", text) == []  # registered everywhere


def test_a_value_resolution_rewrites_is_not_compared_with_the_checkpoint():
    """--quantization unquant on an fp8 checkpoint: 0.5.11+ resolution turns it into None
    before the check (the 0.5.23 oracle accepts it; was a false SPD009)."""
    assert _findings("0.5.23", _launch(FP8_CHECKPOINT, "--quantization unquant")) == []


def test_a_pair_reaching_a_hook_statement_not_read_says_so(monkeypatch):
    """Where the reading stops at a hook statement it does not follow (none in the stored
    releases), the pairs that reach it are a warning naming the statement."""
    from speclint.sglang import model_config_facts

    real = model_config_facts.quantization_pairs("0.5.23")
    assert real is not None
    doubt = {"absent": "maybe", "keys": [], "unread": ["Waiting.override_quantization_method: while x:"]}
    overrides = {"methods": [], "users": {"*": {"maybe": {"*": doubt}}}}
    pairs = model_config_facts.QuantizationPairs("0.5.23", {}, overrides, real.mismatch)
    monkeypatch.setattr(model_config_facts, "quantization_pairs", lambda version: pairs)
    text = _launch(KIMI, "--quantization fp8 --tp-size 8")
    [(code, severity, line, column, message)] = _all("0.5.23", text)
    assert (code, severity, line, column) == ("SPD009", "WARNING", 1, text.index(" fp8") + 2)
    assert message.endswith(
        "; unverified for SGLang 0.5.23: its `override_quantization_method` hooks were not read "
        "past `Waiting.override_quantization_method: while x:`, which may rewrite the pair"
    )


def test_a_pair_no_hook_reads_is_refused_on_any_checkpoint_method():
    # was: only fp8 checkpoints were checked; awq_marlin on compressed-tensors is refused too
    text = _launch(KIMI, "--quantization awq_marlin --tp-size 8")
    [(code, severity, _line, _column, message)] = _all("0.5.23", text)
    assert (code, severity) == ("SPD009", "ERROR")
    assert "(compressed-tensors) does not match" in message and "argument (awq_marlin)." in message


@pytest.mark.oracle
def test_the_real_0_5_23_agrees_on_quantization_pairs():
    from oracle_harness import run_oracle

    cases = [
        (KIMI, "--quantization fp8 --tp-size 8"),
        (KIMI, "--quantization w8a8_fp8 --tp-size 8"),
        (KIMI, "--quantization awq_marlin --tp-size 8"),
        (KIMI, "--quantization fp8 --tp-size 2 --attn-dp-size 3"),  # refused here first
        (FP8_CHECKPOINT, "--quantization gptq_marlin --tp-size 8"),
        (FP8_CHECKPOINT, "--quantization modelopt_fp4 --tp-size 8"),
        (KIMI, "--quantization modelopt --tp-size 8"),  # session 11: canonicalize_modelopt_quant_algo
        (KIMI, "--quantization modelopt_fp4 --tp-size 8"),
        (KIMI, "--quantization modelopt_fp8 --tp-size 8"),
        (FP8_CHECKPOINT, "--quantization modelopt --tp-size 8"),
        (GPTQ, "--quantization modelopt"),
        (GPTQ, "--quantization awq_marlin"),
        (GPTQ, "--quantization gptq_marlin"),  # a warning here (the GPU decides): accepted on H100
        (GPTQ, "--quantization gptq"),
        (FP8_CHECKPOINT, "--quantization unquant"),
    ]
    results = run_oracle([{"argv": ["--model-path", m, *f.split()], "gpu": "H100"} for m, f in cases])
    for (model, flags), result in zip(cases, results):
        found = [f for f in _all("0.5.23", _launch(model, flags)) if f[1] == "ERROR"]
        assert bool(found) == (not result["ok"]), (model, flags, result.get("error"), found)
        if found:
            # speclint lists no registry ("Must be one of [...]": the oracle's fake GPU registers
            # less than a real one at import time); the message up to it must be SGLang's
            assert result["error"].split(" Must be one of")[0] in found[0][4], (result["error"], found)
