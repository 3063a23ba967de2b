"""--enable-prefill-cp: the context-parallelism handler's strategy check (0.5.14+, read per
release by tools/sglang_cp_strategy.py) and, on an MLA target, the DeepSeek override's MLA
context parallelism, which speclint reports unknown rather than the values as given. Oracle
(record.py --generator a2a_cp, seeds 22004 and 22005, 0.5.21-0.5.23, fake H100 and B200)."""

from __future__ import annotations

from pathlib import Path

from launch_errors import at, errors

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve import is_known
from speclint.sglang.resolve.gpu_profiles import profile

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
LAUNCH = "python -m sglang.launch_server --model-path"
QWEN3 = f"{LAUNCH} {MODELS / 'qwen3-8b'} --tp-size 8 --quantization modelopt_fp4"
DSV3 = f"{LAUNCH} {MODELS / 'deepseek-v3'} --tp-size 8 --quantization modelopt_fp4"


def _effective(text: str, version: str, gpu: str) -> dict[str, object]:
    options = LintOptions(sglang_version=version, gpu=profile(gpu), read_pyproject=False)
    [context] = lint_text(text, "x.sh", options).contexts
    assert context.resolution is not None
    return context.resolution.effective


def test_prefill_cp_without_a_strategy_is_refused():
    text = f"{QWEN3} --moe-a2a-backend megamoe --enable-prefill-cp --attn-cp-size 2\n"
    for version in ("0.5.21", "0.5.22", "0.5.23"):
        [error] = errors(text, version, "h100")
        assert (error.code, error.span.line, error.span.column) == (
            "SPD009",
            *at(text, "--enable-prefill-cp"),
        )
        assert error.message == (
            f"SGLang {version} refuses this launch in handle_context_parallelism: ValueError: --cp-strategy "
            "must be set when --enable-prefill-cp is enabled. (--enable-prefill-cp without --cp-strategy; "
            "pass --cp-strategy zigzag or --cp-strategy interleave)"
        )


def test_prefill_cp_with_a_strategy_or_an_unread_one_is_not_refused_for_it():
    assert errors(f"{QWEN3} --enable-prefill-cp --cp-strategy zigzag\n", "0.5.23", "b200") == []
    assert errors(f"{QWEN3} --enable-prefill-cp --cp-strategy $STRATEGY\n", "0.5.23", "b200") == []


def test_mla_prefill_cp_leaves_the_all_to_all_backend_and_ep_size_unknown():
    """SGLang resolved megamoe (and none) to deepep and ep_size to the TP size; the MegaMoE
    token budget (8192 < 32768 here) was not checked: accepted."""
    text = (
        "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK=256 "
        f"{DSV3} --moe-a2a-backend megamoe --enable-prefill-cp --cp-strategy zigzag --chunked-prefill-size 32768\n"
    )
    assert errors(text, "0.5.23", "h100") == []
    effective = _effective(text, "0.5.23", "h100")
    for name in ("moe_a2a_backend", "ep_size"):
        value = effective[name]
        assert not is_known(value)
        assert "DeepSeek model override sets MLA context parallelism up" in value.reason  # type: ignore[attr-defined]
    options = LintOptions(sglang_version="0.5.23", gpu=profile("h100"), read_pyproject=False)
    [context] = lint_text(text, "x.sh", options).contexts
    assert context.resolution is not None
    assert [
        a.field for a in context.resolution.adjustments if a.field in ("ep_size", "moe_a2a_backend")
    ] == []
    plain = _effective(
        f"{QWEN3} --moe-a2a-backend none --enable-prefill-cp --cp-strategy zigzag\n", "0.5.23", "b200"
    )
    assert plain["moe_a2a_backend"] == "none"


def test_attention_cp_size_must_divide_tp_with_the_dp_size():
    text = f"{QWEN3} --moe-a2a-backend megamoe --attn-cp-size 8 --dp-size 8 --enable-dp-attention\n"
    for version, size in (("0.5.21", "dp_size"), ("0.5.22", "attn_dp_size"), ("0.5.23", "attn_dp_size")):
        [error] = errors(text, version, "b200")
        assert error.message == (
            f"SGLang {version} refuses this launch in handle_context_parallelism: AssertionError: tp_size "
            f"must be divisible by {size} * attn_cp_size (--attn-cp-size 8: `tp_size % ({size} * "
            f"attn_cp_size) == 0` fails with attn_cp_size 8, {size} 8, tp_size 8)"
        )
    dsv3 = f"{DSV3} --moe-a2a-backend megamoe --attn-cp-size 4 --attn-dp-size 8 --max-running-requests 16\n"
    [error] = errors(dsv3, "0.5.23", "b200")
    assert "tp_size must be divisible by attn_dp_size * attn_cp_size" in error.message


def test_attention_cp_size_accepted_where_it_divides():
    assert (
        errors(
            f"{QWEN3} --moe-a2a-backend megamoe --attn-cp-size 4 --chunked-prefill-size 4096\n",
            "0.5.23",
            "b200",
        )
        == []
    )
    cp2 = f"{DSV3} --moe-a2a-backend megamoe --attn-cp-size 2 --attn-dp-size 2 --chunked-prefill-size 4096\n"
    assert [e for e in errors(cp2, "0.5.23", "b200") if "divisible" in e.message] == []


def test_moe_dp_size_asserts_of_the_context_parallelism_handler():
    """0.5.9+ `if moe_dp_size > 1:` and 0.5.13+ `if attn_cp_size != moe_dp_size:` asserts, read per
    release (server_checks cp_moe_dp_asserts). Oracle (these four launches on 0.5.14, 0.5.19, 0.5.22
    and 0.5.23, fake GPUs as given: each of the first three refused with this message, the last
    accepted; --moe-dp-size draws, seed 23009: missed refusals 324 -> 76 of 400, none false)."""
    from launch_errors import at, errors

    qwen3 = "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --tp-size 8"
    text = f"{qwen3} --moe-dp-size 2 --ep-size 2\n"
    [error] = errors(text, "0.5.23", "h100")
    assert (error.code, error.span.line, error.span.column) == ("SPD009", *at(text, "2 --ep-size"))
    assert error.message == (
        "SGLang 0.5.23 refuses this launch in handle_context_parallelism: AssertionError: ep_size * "
        "moe_dp_size must be equal to tp_size (`moe_dp_size > 1`: `ep_size * moe_dp_size == tp_size` "
        "fails with ep_size 2, moe_dp_size 2, tp_size 8)"
    )
    text = f"{qwen3} --moe-dp-size 4 --ep-size 2 --pp-size 2\n"
    [error] = errors(text, "0.5.14", "b200")
    assert "_handle_context_parallelism: AssertionError: PP is not supported with context parallelism" in (
        error.message
    )
    [error] = errors(f"{qwen3.replace('--tp-size 8', '--tp-size 4')} --moe-dp-size 8\n", "0.5.19", "b200")
    assert "AssertionError: tp_size must be divisible by moe_dp_size" in error.message
    assert errors(f"{qwen3} --moe-dp-size 2 --attn-cp-size 2 --ep-size 4\n", "0.5.23", "h100") == []
