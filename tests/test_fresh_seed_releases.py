"""What `speclint explain` shows where session 12's fresh-seed differential
(tools/oracle/differential.py, seeds 12011-12013 on releases no earlier differential drew)
found a value speclint stated wrong. Expected values are the releases' own, from their
recordings (tests/data/oracle/seeds/12011/) and the source lines named."""

from __future__ import annotations

from pathlib import Path

from explain_runs import explain_lines

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"


def explain(tmp_path: Path, version: str, line: str) -> dict:
    [found] = explain_lines(tmp_path, version, [line])
    return dict(found)


STANDALONE = (
    f"SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path {M}llama-3.1-8b-instruct "
    f"--speculative-algorithm STANDALONE --speculative-draft-model-path {M}llama-3.1-8b-instruct "
    "--speculative-num-steps 2 --speculative-eagle-topk 8 --speculative-num-draft-tokens 4"
)


def test_spec_v2_keeps_the_overlap_scheduler_only_for_the_listed_algorithms_in_0_5_7_to_0_5_10(tmp_path):
    # 0.5.7 `_handle_speculative_decoding`: `if algorithm in ["EAGLE", "EAGLE3"] and
    # SGLANG_ENABLE_SPEC_V2: disable_overlap_schedule = False ... else: ... = True` (recorded:
    # 0.5.7, seed 12011, STANDALONE with spec v2 -> True); 0.5.8-0.5.10.post1 list STANDALONE
    # too (recorded: 0.5.10.post1, seed 9102 -> False)
    assert explain(tmp_path, "0.5.7", STANDALONE)["effective"]["disable_overlap_schedule"] is True
    topk_one = STANDALONE.replace(
        "--speculative-num-steps 2 --speculative-eagle-topk 8",
        "--speculative-num-steps 3 --speculative-eagle-topk 1",
    )
    assert explain(tmp_path, "0.5.10.post1", topk_one)["effective"]["disable_overlap_schedule"] is False


def test_spec_v2_refuses_a_standalone_tree_from_0_5_8():
    """With STANDALONE under spec v2 (0.5.8+), its topk > 1 meets "Spec v2 currently only
    supports topk = 1 for speculative decoding." (0.5.7: STANDALONE is not spec v2's)."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = STANDALONE.replace(M, f"{ROOT}/{M}") + "\n"

    def errors(version: str) -> list[tuple[str, int, int, str]]:
        result = lint_text(text, "launch.sh", LintOptions(sglang_version=version, read_pyproject=False))
        return [
            (f.code, f.span.line, f.span.column, f.message)
            for f in result.findings
            if f.severity == Severity.ERROR
        ]

    assert errors("0.5.7") == []
    assert errors("0.5.8.post1") == [
        (
            "SPD007",
            1,
            text.index("--speculative-eagle-topk 8") + len("--speculative-eagle-topk ") + 1,
            "SGLang 0.5.8.post1 refuses this launch: Spec v2 currently only supports topk = 1 for speculative decoding.",
        )
    ]


def test_spec_v2_leaves_the_overlap_scheduler_as_given_for_standalone_in_0_5_6(tmp_path):
    # 0.5.6.post2: only `if not SGLANG_ENABLE_SPEC_V2: disable_overlap_schedule = True`
    assert explain(tmp_path, "0.5.6.post2", STANDALONE)["effective"]["disable_overlap_schedule"] is False


def test_0_5_1_refuses_an_mtp_target_with_pages_on_flashinfer():
    """0.5.1 `__post_init__` (recorded, session 12; 0.5.1.post2 dropped it): a DeepSeek-V3 MTP
    target with --attention-backend flashinfer and a page size other than 1 raises."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8 "
        "--speculative-algorithm NEXTN --attention-backend flashinfer --page-size 16\n"
    )

    def errors(version: str) -> list[tuple[str, int, int, str]]:
        result = lint_text(text, "launch.sh", LintOptions(sglang_version=version, read_pyproject=False))
        return [
            (f.code, f.span.line, f.span.column, f.message)
            for f in result.findings
            if f.severity == Severity.ERROR
        ]

    assert errors("0.5.1") == [
        (
            "SPD009",
            1,
            text.index("--page-size 16") + len("--page-size ") + 1,
            "SGLang 0.5.1 refuses this launch in __post_init__: ValueError: Speculative decoding with "
            "page_size != 1 is not supported. Please set page_size to 1.",
        )
    ]
    assert errors("0.5.1.post3") == []


def test_0_5_3_leaves_deepseek_on_blackwell_to_the_model_runner():
    """0.5.3 (recorded, session 12) has no DeepseekV3 branch in
    `_handle_model_specific_adjustments`: on a B200 the attention backend stays None while
    resolving and the page size 1, where 0.5.3.post3 picks trtllm_mla and page size 64."""
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions
    from speclint.sglang.resolve.gpu_profiles import profile

    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8\n"

    def resolved(version: str) -> tuple[object, object, bool]:
        options = LintOptions(sglang_version=version, gpu=profile("B200"), read_pyproject=False)
        ctx = lint_text(text, "launch.sh", options).contexts[0]
        assert ctx.resolution is not None
        effective = ctx.resolution.effective
        return effective["attention_backend"], effective["page_size"], ctx.release.resolution_exact

    assert resolved("0.5.3") == (None, 1, True)
    assert resolved("0.5.3.post3") == ("trtllm_mla", 64, True)


def test_0_5_6_picks_flashinfer_on_blackwell_where_0_5_6_post2_picks_trtllm_mha():
    """0.5.6 (recorded, session 12) has no Blackwell trtllm_mha default for MHA models."""
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions
    from speclint.sglang.resolve.gpu_profiles import profile

    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}llama-3.1-8b-instruct\n"

    def backend(version: str) -> object:
        options = LintOptions(sglang_version=version, gpu=profile("B200"), read_pyproject=False)
        ctx = lint_text(text, "launch.sh", options).contexts[0]
        assert ctx.resolution is not None and ctx.release.resolution_exact
        return ctx.resolution.effective["attention_backend"]

    assert (backend("0.5.6"), backend("0.5.6.post2")) == ("flashinfer", "trtllm_mha")


def test_0_5_5_gives_fa4_prefill_page_size_128_to_mla_models_too():
    """0.5.5 (recorded, session 12): `if self.prefill_attention_backend == "fa4"` sets page size
    128 for every model; 0.5.5.post3 only for non-MLA ones (`and not self.use_mla_backend()`)."""
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8 --prefill-attention-backend fa4\n"

    from speclint.sglang.resolve.gpu_profiles import profile

    def page(version: str, gpu: str) -> object:
        # on the recorded GPUs: 0.5.5's GPU-dependent resolution is modelled (gpu_resolution.py)
        options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile(gpu))
        ctx = lint_text(text, "launch.sh", options).contexts[0]
        assert ctx.resolution is not None and ctx.release.resolution_exact
        return ctx.resolution.effective["page_size"]

    for gpu in ("H100", "B200"):
        assert page("0.5.5", gpu) == 128
        assert page("0.5.5.post3", gpu) == 1
