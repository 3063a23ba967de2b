"""Parallelism: what SGLang does to tp/dp/attention-DP/ep sizes, and the PAR rules on
realistic launch scripts (inline `VAR=`, `export`, `docker run -e`)."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.resolve.gpu_layout import gpu_use, visible_gpu_count

LAUNCH = "python -m sglang.launch_server --model-path /models/m"


def _lint(text: str, version: str):
    return lint_text(text, "x.sh", LintOptions(sglang_version=version))


def _findings(text: str, version: str, prefix: str = "PAR"):
    return [f for f in _lint(text, version).findings if f.code.startswith(prefix)]


def _column(text: str, token: str) -> int:
    """1-based column of `token` on its line."""
    line = next(line for line in text.splitlines() if token in line)
    return line.index(token) + 1


def _resolution(text: str, version: str):
    return _lint(text, version).contexts[0].resolution


# --- CUDA_VISIBLE_DEVICES -------------------------------------------------------------


@pytest.mark.parametrize(
    "value, count",
    [
        ("0,1,2,3", 4),
        ("", 0),
        ("0,2,-1,1", 2),
        ("GPU-8932f937-d72c-4106-c12f-20bd9faed9f6,1", 2),
        ("none", 0),
        ("0, 1", None),
        ("0,0", None),
    ],
)
def test_visible_gpu_count_follows_cuda(value, count):
    assert visible_gpu_count(value) == count


def test_tp_larger_than_visible_gpus_inline():
    text = f"CUDA_VISIBLE_DEVICES=0,1,2,3 {LAUNCH} --tp-size 8\n"
    [finding] = _findings(text, "0.5.23")
    assert (finding.code, finding.severity.label) == ("PAR001", "error")
    assert (finding.span.line, finding.span.column) == (1, 22)
    assert "leaves 4 GPUs visible" in finding.message
    assert "indices 4, 5, 6, 7" in finding.message and "invalid device ordinal" in finding.message
    assert "at least 8 GPUs" in finding.fix_hint
    assert any(note.span.line == 1 and "--tp-size 8" in note.message for note in finding.notes)


def test_tp_times_pp_with_exported_variable():
    text = f"export CUDA_VISIBLE_DEVICES=0,1\n{LAUNCH} \\\n  --tp-size 2 --pp-size 2\n"
    [finding] = _findings(text, "0.5.14")
    assert finding.code == "PAR001" and finding.span.line == 1
    assert "tp 2 × pp 2" in finding.message and "indices 2, 3" in finding.message


def test_docker_env_and_old_release_dest_names():
    text = (
        "docker run --gpus all -e CUDA_VISIBLE_DEVICES=0,1 lmsysorg/sglang:v0.5.6.post2 \\\n"
        "  python3 -m sglang.launch_server --model-path /models/m --tp-size 4\n"
    )
    result = _lint(text, "0.5.6.post2")
    assert result.contexts[0].resolution.effective["tp_size"] == 4
    [finding] = [f for f in result.findings if f.code == "PAR001"]
    assert (finding.span.line, finding.span.column) == (1, 47)


def test_idle_gpus_are_info():
    text = f"CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 {LAUNCH} --tp-size 4\n"
    [finding] = _findings(text, "0.5.23")
    assert finding.severity.label == "info" and "4 GPUs stay idle" in finding.message


def test_base_gpu_id_and_invalid_entry():
    text = f"CUDA_VISIBLE_DEVICES=0,1,-1,3 {LAUNCH} --tp-size 2 --base-gpu-id 1\n"
    [finding] = _findings(text, "0.5.23")
    assert finding.severity.label == "error"
    assert "'-1'" in finding.message and "indices 2" in finding.message


def test_multi_node_counts_gpus_per_node():
    text = f"CUDA_VISIBLE_DEVICES=0,1,2,3 {LAUNCH} --tp-size 8 --nnodes 2 --node-rank 0\n"
    assert _findings(text, "0.5.23") == []


def test_dp_replicas_multiply_gpus_without_attention_dp():
    ctx = _lint(f"{LAUNCH} --tp-size 2 --dp-size 2 --gpu-id-step 2\n", "0.5.14").contexts[0]
    use = gpu_use(ctx.resolution.effective, ctx.config, "0.5.14")
    assert use.indices == (0, 2, 4, 6)


@pytest.mark.parametrize(
    "text",
    [
        f"CUDA_VISIBLE_DEVICES=$GPUS {LAUNCH} --tp-size 8\n",
        f"CUDA_VISIBLE_DEVICES=0,1 {LAUNCH} --tp-size $TP\n",
        f"CUDA_VISIBLE_DEVICES=0,1 {LAUNCH} $EXTRA_ARGS\n",
        f"{LAUNCH} --tp-size 8\n",
    ],
)
def test_visible_gpus_silent_when_unknown(text):
    assert [f for f in _findings(text, "0.5.23") if f.code == "PAR001"] == []


# --- attention DP ---------------------------------------------------------------------


def test_0_5_23_rewrites_enable_dp_attention():
    text = f"{LAUNCH} --tp-size 8 --dp-size 8 --enable-dp-attention\n"
    resolution = _resolution(text, "0.5.23")
    effective = resolution.effective
    assert (effective["attn_dp_size"], effective["dp_size"]) == (8, 1)
    assert effective["enable_dp_attention"] is False
    assert resolution.adjustment("attn_dp_size").handler == "_handle_deprecated_dp_attention"
    findings = [f for f in _lint(text, "0.5.23").findings if f.code in ("PAR003", "FLG008")]
    [finding] = findings
    assert finding.code == "PAR003" and finding.severity.label == "warning"
    assert (finding.span.line, finding.span.column) == (1, _column(text, "--enable-dp"))
    assert "`--dp-size 8 --enable-dp-attention` to `--attn-dp-size 8 --dp-size 1`" in finding.message
    assert "--attn-dp-size 8" in finding.fix_hint


def test_0_5_23_enable_dp_attention_next_to_attn_dp_size_does_nothing():
    text = f"{LAUNCH} --tp-size 8 --attn-dp-size 4 --enable-dp-attention\n"
    assert _resolution(text, "0.5.23").effective["attn_dp_size"] == 4
    [finding] = _findings(text, "0.5.23")
    assert "does nothing" in finding.message


def test_0_5_6_turns_dp_attention_off_with_dp_size_1():
    text = f"{LAUNCH} --tp-size 8 --enable-dp-attention\n"
    resolution = _resolution(text, "0.5.6.post2")
    assert resolution.effective["enable_dp_attention"] is False
    assert resolution.adjustment("enable_dp_attention").logged is None
    [finding] = _findings(text, "0.5.6.post2")
    assert finding.code == "PAR003" and "without a log line" in finding.message


def test_0_5_6_keeps_dp_attention_with_dp_size():
    text = f"{LAUNCH} --tp-size 8 --dp-size 8 --enable-dp-attention\n"
    assert _resolution(text, "0.5.6.post2").effective["enable_dp_attention"] is True
    assert _findings(text, "0.5.6.post2") == []


def test_0_4_10_refuses_dp_attention_with_dp_size_1():
    text = f"{LAUNCH} --tp-size 8 --enable-dp-attention\n"
    rejection = _resolution(text, "0.4.10.post2").rejection
    assert rejection.exception == "AssertionError" and "dp-size > 1" in rejection.message
    [finding] = _findings(text, "0.4.10.post2")
    assert finding.code == "PAR003" and finding.severity.label == "error"


@pytest.mark.parametrize(
    "version, flags, statement",
    [
        ("0.5.23", "--tp-size 6 --attn-dp-size 4", "cfg.tp_size % cfg.attn_dp_size"),
        ("0.5.23", "--tp-size 6 --dp-size 4 --enable-dp-attention", "cfg.tp_size % cfg.attn_dp_size"),
        ("0.5.14", "--tp-size 6 --dp-size 4 --enable-dp-attention", "self.tp_size % self.dp_size"),
        ("0.4.10.post2", "--tp-size 6 --dp-size 4 --enable-dp-attention", "self.tp_size % self.dp_size"),
    ],
)
def test_tp_not_divisible_by_attention_dp(version, flags, statement):
    text = f"{LAUNCH} {flags}\n"
    rejection = _resolution(text, version).rejection
    assert rejection.exception == "AssertionError" and rejection.message == ""
    [finding] = [f for f in _findings(text, version) if f.code == "PAR002"]
    assert (finding.span.line, finding.span.column) == (1, _column(text, "6 "))  # the value
    assert statement in finding.message and "attention-DP size 4" in finding.message


def test_0_5_23_replicas_with_attention_dp_rejected():
    rejection = _resolution(f"{LAUNCH} --tp-size 8 --dp-size 2 --attn-dp-size 4\n", "0.5.23").rejection
    assert rejection.exception == "ValueError"
    assert rejection.message.startswith("--dp-size 2 with --attn-dp-size 4")


def test_dummy_model_skips_data_parallelism_handlers():
    text = "python -m sglang.launch_server --model-path dummy --tp-size 6 --dp-size 4 --enable-dp-attention\n"
    assert _resolution(text, "0.5.14").rejection is None


# --- expert parallelism ---------------------------------------------------------------


@pytest.mark.parametrize(
    "version, flags, level",
    [
        ("0.5.23", "--moe-a2a-backend deepep", "INFO"),
        ("0.5.23", "--moe-runner-backend megamoe", "INFO"),
        ("0.5.14", "--moe-a2a-backend mori", "WARNING"),
        # 0.5.15.post1-0.5.16: `_a2a_ep_size` is silent, `_handle_a2a_moe` warns per backend;
        # 0.5.17 `_a2a_ep_size` logs it at INFO and spans pplx (recorded, seed a2a-18001)
        ("0.5.16", "--moe-a2a-backend deepep", "WARNING"),
        ("0.5.17", "--moe-a2a-backend deepep", "INFO"),
        ("0.5.17", "--moe-a2a-backend pplx --dp-size 8 --enable-dp-attention", "INFO"),
        # 0.5.9 `_handle_a2a_moe` spans flashinfer and mori too; the runner is not the cause
        ("0.5.9", "--moe-a2a-backend flashinfer --moe-runner-backend flashinfer_cutlass", "WARNING"),
        ("0.5.9", "--moe-a2a-backend mori", "WARNING"),
        ("0.5.6.post2", "--moe-a2a-backend mooncake", "WARNING"),
        ("0.4.10.post2", "--enable-deepep-moe", "WARNING"),
    ],
)
def test_a2a_backend_sets_ep_size(version, flags, level):
    text = f"{LAUNCH} --tp-size 8 {flags}\n"
    resolution = _resolution(text, version)
    assert resolution.effective["ep_size"] == 8
    assert resolution.adjustment("ep_size").logged
    assert resolution.adjustment("ep_size").level == level.lower()  # what `explain` says
    [finding] = [f for f in _findings(text, version) if f.code == "PAR004"]
    assert finding.severity.label == "info" and f"logs it at {level}" in finding.message
    assert finding.span.column == _column(text, flags.split()[0])


def test_a2a_backend_with_matching_ep_size_is_quiet():
    text = f"{LAUNCH} --tp-size 8 --ep-size 8 --moe-a2a-backend deepep\n"
    resolution = _resolution(text, "0.5.23")
    assert resolution.effective["ep_size"] == 8 and resolution.adjustment("ep_size") is None
    assert _findings(text, "0.5.23") == []


def test_ascend_tp_does_not_span_ranks():
    text = f"{LAUNCH} --tp-size 8 --moe-a2a-backend ascend_tp\n"
    assert _resolution(text, "0.5.23").effective["ep_size"] == 1


# --- nodes ----------------------------------------------------------------------------


def test_tp_pp_not_divisible_by_nnodes():
    text = f"{LAUNCH} --tp-size 4 --pp-size 3 \\\n  --nnodes 8 --node-rank 0\n"
    [finding] = _findings(text, "0.5.6.post2")
    assert finding.code == "PAR005" and (finding.span.line, finding.span.column) == (2, 12)
    assert _column(text, "8 --node") == 12
    assert "tp 4 × pp 3 = 12" in finding.message
    assert "tp_size must be divisible by number of nodes" in finding.message


def test_nnodes_check_skipped_for_elastic_scale_join():
    text = f"{LAUNCH} --tp-size 4 --nnodes 3 --elastic-ep-join-mode scale\n"
    assert [f for f in _findings(text, "0.5.23") if f.code == "PAR005"] == []


def test_ascend_tp_is_set_to_none_on_every_platform_from_0_5_16():
    """`_handle_a2a_moe` (0.5.16+; handle_a2a_moe 0.5.19+): `if (... == "none" and is_npu()) or
    ... == "ascend_tp":` sets moe_a2a_backend to "none" (read per release, `a2a_rewrites`).
    Recorded (seed a2a-16005, 0.5.18-0.5.23, fake H100/B200): moe_a2a_backend 'none' (was:
    speclint said ascend_tp, 26 value differences)."""
    text = f"{LAUNCH} --tp-size 8 --moe-a2a-backend ascend_tp\n"
    for version, where in (("0.5.18", "_handle_a2a_moe"), ("0.5.23", "handle_a2a_moe")):
        resolution = _resolution(text, version)
        assert resolution.effective["moe_a2a_backend"] == "none"
        assert resolution.adjustment("moe_a2a_backend").handler == where


def test_pplx_needs_two_attention_dp_groups_from_0_5_17():
    """`_handle_a2a_moe`'s pplx branch (read per release, `pplx_attention_dp`): 0.5.17-0.5.21
    `assert enable_dp_attention and dp_size >= 2`, 0.5.22+ `assert cfg.attn_dp_size >= 2`.
    Oracle (record.py --generator a2a, seed 16005, 0.5.18-0.5.23): pplx without attention DP and
    with --dp-size alone refused (was: nothing said, 21 missed refusals); with --dp-size 8
    --enable-dp-attention this assert passes."""
    from speclint.sglang.resolve.gpu_profiles import profile

    base = "python -m sglang.launch_server --model-path /models/m --tp-size 8 --moe-a2a-backend pplx"
    old = (
        "requires --enable-dp-attention with at least 2 DP groups (--dp-size >= 2).",
        "--dp-size 8 without --enable-dp-attention; use --dp-size 2 --enable-dp-attention",
    )
    new = (
        "requires attention DP with at least 2 groups (--attn-dp-size >= 2).",
        "--attn-dp-size 1; use --attn-dp-size 2",
    )
    releases = ("0.5.17", "0.5.18", "0.5.19", "0.5.20", "0.5.21", "0.5.22", "0.5.23")
    for version, (says, now) in ((v, new if v in ("0.5.22", "0.5.23") else old) for v in releases):
        text = base + " --dp-size 8\n"
        found = lint_text(text, "x.sh", LintOptions(sglang_version=version, gpu=profile("b200"))).findings
        [finding] = [f for f in found if f.severity.name == "ERROR"]
        assert (finding.code, finding.span.line, finding.span.column) == ("SPD009", 1, _column(text, "pplx"))
        assert (
            f"AssertionError: moe_a2a_backend='pplx' {says} (--moe-a2a-backend pplx with {now} or more"
            in finding.message
        )
        ok = base + " --dp-size 8 --enable-dp-attention\n"
        found = lint_text(ok, "x.sh", LintOptions(sglang_version=version, gpu=profile("b200"))).findings
        assert [f for f in found if "pplx' requires" in f.message] == []


def test_pplx_spans_every_rank_on_0_5_17_as_explain_shows():
    """0.5.17's `_A2A_EP_SPANNING_BACKENDS` lists pplx (read, `a2a_spanning`). Recorded (seed
    a2a-18001, fake H100): this launch resolved to ep_size 8, logged by `_a2a_ep_size` at INFO
    ("pplx MoE is enabled. The expert parallel size is adjusted from 1 to the tensor parallel
    size [8]."); speclint said ep_size 1 before."""
    from speclint.engine import explain_facts
    from speclint.report.explain import render_explain_text

    flags = "--tp-size 8 --moe-a2a-backend pplx --dp-size 8 --enable-dp-attention --chunked-prefill-size -1"
    text = f"{LAUNCH} {flags}\n"
    ctx = _lint(text, "0.5.17").contexts[0]
    assert ctx.resolution.effective["ep_size"] == 8 and ctx.resolution.rejection is None
    shown = render_explain_text([(ctx, explain_facts(ctx))]).splitlines()
    assert (
        "    ep_size: 1 → 8  (--moe-a2a-backend pplx spans every rank: SGLang sets the expert "
        "parallel size to the tensor parallel size; SGLang logs it at INFO)"
    ) in shown
    [finding] = _findings(text, "0.5.17")
    assert (finding.code, finding.span.line, finding.span.column) == ("PAR004", 1, _column(text, "--moe-a2a"))
    assert finding.message == (
        "`--moe-a2a-backend pplx` makes SGLang 0.5.17 set ep_size = tp_size = 8 (asked 1), and "
        "logs it at INFO: experts are split over all 8 TP ranks"
    )
