"""Two start-up refusals that read the environment, each read per release by
tools/gen_sglang_server_checks.py: a decode server with dp_size > 1 without
--prefill-round-robin-balance (0.5.2-0.5.7) and --moe-a2a-backend ascend_fuseep's fused-MoE
mode (0.5.10-0.5.15.post1; 0.5.16-0.5.17 read its variable on every launch). Found by seed a2a-16205 (record.py --generator a2a, 0.5.4.post3 and
0.5.10.post1, fake H100/B200): SGLang refused these launches and speclint said nothing."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
ROUND_ROBIN = (
    "AssertionError: Prefill round robin balance is required when dp size > 1. Please make sure that "
    "the prefill instance is launched with `--load-balance-method round_robin` and "
    "`--prefill-round-robin-balance` is set for decode server. (--disaggregation-mode decode with "
    "--dp-size 2; add --prefill-round-robin-balance, and launch the prefill server with "
    "--load-balance-method round_robin)"
)


def _errors(text: str, version: str, gpu: str = "h100"):
    return errors(text, version, gpu)


DECODE = (
    f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 --dp-size 2 "
    "--enable-dp-attention --disaggregation-mode decode\n"
)


def test_decode_server_with_dp_needs_round_robin_balance_0_5_2_to_0_5_7():
    """Where each release asserts it (read with the assert): 0.5.2 `__post_init__`, 0.5.3-0.5.6
    `_handle_disaggregation`, 0.5.7 `_handle_pd_disaggregation`."""
    for version, where in (
        ("0.5.2", "__post_init__"),
        ("0.5.4.post3", "_handle_disaggregation"),
        ("0.5.6.post2", "_handle_disaggregation"),
        ("0.5.7", "_handle_pd_disaggregation"),
    ):
        [error] = _errors(DECODE, version)
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(DECODE, "decode"))
        assert error.message == f"SGLang {version} refuses this launch in {where}: {ROUND_ROBIN}"


def test_decode_round_robin_passes_where_the_release_does_not_check_or_the_launch_satisfies_it():
    for version in ("0.5.1.post3", "0.5.8", "0.5.23"):
        assert [e for e in _errors(DECODE, version) if "round robin" in e.message] == []
    balanced = DECODE.replace("decode\n", "decode --prefill-round-robin-balance\n")
    assert _errors(balanced, "0.5.4.post3") == []
    assert _errors("SGLANG_IS_IN_CI=true " + DECODE, "0.5.4.post3") == []
    assert _errors(DECODE.replace("--dp-size 2 --enable-dp-attention ", ""), "0.5.4.post3") == []


FUSEEP = (
    f"python -m sglang.launch_server --model-path {MODELS / 'deepseek-v3'} --tp-size 8 "
    "--moe-a2a-backend ascend_fuseep\n"
)


def test_ascend_fuseep_without_its_mode_0_5_10():
    """0.5.10-0.5.10.post1 read `os.environ.get("SGLANG_NPU_FUSED_MOE_MODE", None)`."""
    for version in ("0.5.10", "0.5.10.post1"):
        [error] = _errors(FUSEEP, version, "b200")
        assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(FUSEEP, "ascend_fuseep"))
        assert error.message == (
            f"SGLang {version} refuses this launch in _handle_a2a_moe: ValueError: Wrong value of "
            "fuse_mode=None, the NPU only support 1 or 2. (--moe-a2a-backend ascend_fuseep with "
            "SGLANG_NPU_FUSED_MOE_MODE not set; set SGLANG_NPU_FUSED_MOE_MODE to 1 or 2, or pick "
            "another --moe-a2a-backend)"
        )
    assert _errors("SGLANG_NPU_FUSED_MOE_MODE=2 " + FUSEEP, "0.5.10") == []
    assert _errors("SGLANG_NPU_FUSED_MOE_MODE=$MODE " + FUSEEP, "0.5.10") == []  # not read: no verdict


def test_ascend_fuseep_mode_0_5_11_to_0_5_15_post1_defaults_to_1():
    """0.5.11+ read `envs.SGLANG_NPU_FUSED_MOE_MODE.get()` (EnvInt(1)): unset passes."""
    for version in ("0.5.11", "0.5.13", "0.5.15.post1", "0.5.16"):
        assert _errors(FUSEEP, version) == []
    text = "SGLANG_NPU_FUSED_MOE_MODE=3 " + FUSEEP
    [error] = _errors(text, "0.5.13")
    assert (error.span.line, error.span.column) == at(text, "ascend_fuseep")
    assert error.message == (
        "SGLang 0.5.13 refuses this launch in _handle_a2a_moe: ValueError: Wrong value of "
        "fuse_mode=3, the NPU only support 1 or 2. (--moe-a2a-backend ascend_fuseep with "
        "SGLANG_NPU_FUSED_MOE_MODE=3; set SGLANG_NPU_FUSED_MOE_MODE to 1 or 2, or pick another "
        "--moe-a2a-backend)"
    )


QWEN3 = f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 2\n"


def test_fused_moe_mode_variable_refused_on_any_launch_0_5_16_and_0_5_17():
    """`prepare_server_args` -> `_apply_fuseep_mode_env_compat` (0.5.16-0.5.17, read by
    tools/gen_sglang_server_checks.py `env_flag_compat`), whatever the backend. Oracle (custom
    cases, 0.5.16, fake H100): Qwen3-8B with SGLANG_NPU_FUSED_MOE_MODE=3 or 0 refused so; =2,
    =abc, empty, and =3 beside --fuseep-mode 1 accepted."""
    for version in ("0.5.16", "0.5.17"):
        text = "SGLANG_NPU_FUSED_MOE_MODE=3 " + QWEN3
        [error] = _errors(text, version)
        assert (error.code, error.span.line, error.span.column) == ("SPD009", 1, 1)
        assert error.message == (
            f"SGLang {version} refuses this launch in _apply_fuseep_mode_env_compat: ValueError: "
            "Wrong value of SGLANG_NPU_FUSED_MOE_MODE=3, the NPU only supports 1 or 2. "
            "(SGLANG_NPU_FUSED_MOE_MODE=3 is read by _apply_fuseep_mode_env_compat for every launch "
            "without --fuseep-mode; set it to 1 or 2, unset it, or pass --fuseep-mode)"
        )
    [error] = _errors("SGLANG_NPU_FUSED_MOE_MODE=0 " + QWEN3, "0.5.16")
    assert "SGLANG_NPU_FUSED_MOE_MODE=0, the NPU" in error.message
    for value in ("2", "abc", "''", "$MODE"):  # EnvInt: text int() refuses reads as 1; $MODE not read
        assert _errors(f"SGLANG_NPU_FUSED_MOE_MODE={value} " + QWEN3, "0.5.16") == [], value
    for flag in (" --fuseep-mode 1", " --fuseep-mode=1"):
        assert _errors("SGLANG_NPU_FUSED_MOE_MODE=3 " + QWEN3.rstrip() + flag + "\n", "0.5.17") == []
    for version in ("0.5.15.post1", "0.5.18", "0.5.23"):  # no such reading before or after
        assert _errors("SGLANG_NPU_FUSED_MOE_MODE=3 " + QWEN3, version) == [], version
