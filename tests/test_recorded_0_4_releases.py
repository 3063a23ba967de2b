"""0.4.0, 0.4.6 and 0.4.10 are resolved as themselves (recorded by tools/oracle in session 6,
tests/data/oracle/0.4.{0,6,10}.json.gz), not as 0.4.6.post5: what `explain` shows where
they differ from it. Expected values are the releases' own, from the recordings."""

from __future__ import annotations

from pathlib import Path

from explain_runs import explain_launches

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"


def explain(tmp_path: Path, version: str, *launches: str) -> list[dict]:
    return explain_launches(tmp_path, version, *launches)


def test_0_4_10_keeps_tree_drafts_with_pages_and_leaves_ep_size_to_the_moe_layers(tmp_path):
    spec, ep = explain(
        tmp_path,
        "0.4.10",
        f"qwen3-8b --speculative-algorithm EAGLE --speculative-draft-model-path "
        f"{M}eagle-llama-3.1-8b-instruct --page-size 64 --tp-size 2",
        "llama-3.1-8b-instruct --tp-size 4 --enable-ep-moe",
    )
    assert spec["resolution_exact"] is True and spec["resolution_modelled_on"] == "0.4.10"
    eff = spec["effective"]
    assert (eff["speculative_eagle_topk"], eff["speculative_num_draft_tokens"]) == (4, 8)
    assert ep["effective"]["ep_size"] == 1  # 0.4.10.post2 sets 4


def test_0_4_6_does_not_take_deepseek_mtp_drafts_from_the_target(tmp_path):
    [launch] = explain(tmp_path, "0.4.6", "deepseek-v3 --speculative-algorithm NEXTN --tp-size 8")
    assert launch["resolution_exact"] is True
    assert launch["effective"]["speculative_draft_model_path"] is None


def test_0_4_0_dp_attention_makes_dp_size_the_tp_size(tmp_path):
    [launch] = explain(tmp_path, "0.4.0", "deepseek-v3 --tp-size 8 --dp-size 3 --enable-dp-attention")
    eff = launch["effective"]
    assert (eff["dp_size"], eff["disable_overlap_schedule"]) == (8, True)
    assert launch["unknown"]["attention_backend"] == (
        "SGLang 0.4.0 picks flashinfer when FlashInfer is installed, else triton"
    )


def test_0_4_7_is_resolved_as_itself_deepseek_drafts_three_steps_and_eagle_drops_mixed_chunk(tmp_path):
    """Recorded in session 12 (tests/data/oracle/0.4.7.json.gz; found by the fresh-seed
    differential, seeds/12011/0.4.7): `auto_choose_speculative_params(self)` gives DeepSeek
    (3, 1, 4) and EAGLE turns --enable-mixed-chunk off, where 0.4.6.post5 gives (5, 4, 8) and
    keeps it."""
    mtp, eagle = explain(
        tmp_path,
        "0.4.7",
        "deepseek-v3 --speculative-algorithm NEXTN --tp-size 8",
        f"llama-3.1-8b-instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path "
        f"{M}eagle3-llama-3.1-8b-instruct --enable-mixed-chunk",
    )
    assert mtp["resolution_exact"] is True and mtp["resolution_modelled_on"] == "0.4.7"
    eff = mtp["effective"]
    assert (
        eff["speculative_num_steps"],
        eff["speculative_eagle_topk"],
        eff["speculative_num_draft_tokens"],
    ) == (
        3,
        1,
        4,
    )
    assert eagle["effective"]["enable_mixed_chunk"] is False
    [old] = explain(tmp_path, "0.4.6.post5", "deepseek-v3 --speculative-algorithm NEXTN --tp-size 8")
    assert old["effective"]["speculative_num_steps"] == 5


def test_0_4_7_refuses_dp_attention_with_one_dp_group_as_an_error():
    """0.4.7's own `__post_init__` asserts dp_size > 1 with --enable-dp-attention (recorded);
    before it was modelled speclint said so only as a warning, "unverified for SGLang 0.4.7"."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8 --enable-dp-attention\n"
    result = lint_text(text, "launch.sh", LintOptions(sglang_version="0.4.7", read_pyproject=False))
    [finding] = [f for f in result.findings if f.severity == Severity.ERROR]
    column = text.index("--enable-dp-attention") + 1
    assert (finding.code, finding.span.line, finding.span.column) == ("PAR003", 1, column)
    assert finding.message == (
        "`--enable-dp-attention` with `--dp-size 1`: SGLang 0.4.7 stops in __post_init__ with "
        "AssertionError: Please set a dp-size > 1. You can use 1 < dp-size <= tp-size"
    )


def test_0_4_1_and_0_4_9_post6_set_the_ep_size_from_enable_ep_moe(tmp_path):
    """0.4.1's `__post_init__` (0.4.0.post1+) and 0.4.9.post6's first block set ep_size = tp_size
    for --enable-ep-moe ("EP MoE is enabled. The expert parallel size is adjusted to be the
    same as the tensor parallel size[N]."); 0.4.10 leaves it to the MoE layers. Recorded in
    session 12 (tests/data/oracle/0.4.1, 0.4.9.post6; found by seeds/12011)."""
    launch = "qwen3-8b --tp-size 8 --enable-ep-moe"
    [v041] = explain(tmp_path, "0.4.1", launch)
    [v049] = explain(tmp_path, "0.4.9.post6", launch)
    [v0410] = explain(tmp_path, "0.4.10", launch)
    assert v041["resolution_exact"] is True and v049["resolution_exact"] is True
    assert (v041["effective"]["ep_size"], v049["effective"]["ep_size"], v0410["effective"]["ep_size"]) == (
        8,
        8,
        1,
    )


def test_0_4_1_refuses_a_tp_size_the_nodes_do_not_divide_as_an_error():
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8 --nnodes 3 "
        "--node-rank 0 --dist-init-addr 10.0.0.1:5000\n"
    )
    result = lint_text(text, "launch.sh", LintOptions(sglang_version="0.4.1", read_pyproject=False))
    errors = [
        (f.code, f.span.line, f.span.column, f.message)
        for f in result.findings
        if f.severity == Severity.ERROR
    ]
    assert errors == [
        (
            "PAR005",
            1,
            text.index("--nnodes 3") + len("--nnodes ") + 1,
            "tp 8 is not a multiple of `--nnodes 3`: SGLang 0.4.1's check_server_args stops every node with "
            "AssertionError: tp_size must be divisible by number of nodes",
        )
    ]


def test_0_4_8_enable_flashinfer_moe_needs_modelopt_fp4():
    """0.4.8-0.4.9.post4 `__post_init__`: `if self.enable_flashinfer_moe: assert
    self.quantization == "modelopt_fp4"` (the flag 0.4.9.post6 renames
    --enable-flashinfer-cutlass-moe); 0.4.8 is recorded (session 12), so it is an error."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8 --enable-flashinfer-moe\n"
    result = lint_text(text, "launch.sh", LintOptions(sglang_version="0.4.8", read_pyproject=False))
    [finding] = result.findings
    assert (finding.code, finding.severity, finding.span.line, finding.span.column) == (
        "SPD009",
        Severity.ERROR,
        1,
        text.index("--enable-flashinfer-moe") + 1,
    )
    assert finding.message.startswith(
        "SGLang 0.4.8 refuses this launch in __post_init__: AssertionError: modelopt_fp4 quantization "
        "is required for Flashinfer MOE (--quantization not given"
    )
    fp4 = text.replace("--enable-flashinfer-moe", "--enable-flashinfer-moe --quantization modelopt_fp4")
    assert not [
        f
        for f in lint_text(
            fp4, "launch.sh", LintOptions(sglang_version="0.4.8", read_pyproject=False)
        ).findings
        if f.code == "SPD009"
    ]


def test_0_4_9_keeps_a_tree_draft_with_pages_where_0_4_8_makes_it_a_chain(tmp_path):
    """0.4.8's `__post_init__` turns topk > 1 into 1 with a page size above 1 ("speculative_eagle_topk
    is adjusted to 1 when page_size > 1"); 0.4.9 dropped that block (both recorded, session 12)."""
    launch = (
        f"llama-3.1-8b-instruct --speculative-algorithm EAGLE --speculative-draft-model-path "
        f"{M}eagle-llama-3.1-8b-instruct --speculative-num-steps 3 --speculative-eagle-topk 4 "
        "--speculative-num-draft-tokens 8 --page-size 16"
    )
    [v048] = explain(tmp_path, "0.4.8", launch)
    [v049] = explain(tmp_path, "0.4.9", launch)
    assert v049["resolution_exact"] is True
    assert (v048["effective"]["speculative_eagle_topk"], v049["effective"]["speculative_eagle_topk"]) == (
        1,
        4,
    )


def test_0_4_9_post3_enable_lora_needs_a_rank_and_modules_without_paths():
    """0.4.9.post3 (recorded, session 12) adds --enable-lora and `check_lora_server_args`'s
    assert; before it was modelled it followed 0.4.9 (no such check: nothing said)."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = f"python -m sglang.launch_server --model-path {ROOT}/{M}llama-3.1-8b-instruct --enable-lora\n"
    result = lint_text(text, "launch.sh", LintOptions(sglang_version="0.4.9.post3", read_pyproject=False))
    assert [(f.code, f.severity, f.span.line, f.span.column, f.message) for f in result.findings] == [
        (
            "SPD009",
            Severity.ERROR,
            1,
            text.index("--enable-lora") + 1,
            "SGLang 0.4.9.post3 refuses this launch in check_lora_server_args: AssertionError: When no "
            "initial --lora-paths is provided, you need to specify both --max-lora-rank and "
            "--lora-target-modules for LoRA initialization.",
        )
    ]


def test_0_4_6_post2_leaves_the_overlap_scheduler_to_check_server_args_under_pipeline_parallelism(tmp_path):
    """Recorded in session 13 (tests/data/oracle/0.4.6.post{1,2,3,4}.json.gz): 0.4.6.post2 and
    0.4.6.post3 turn the overlap scheduler off for --pp-size > 1 in `check_server_args`, after
    resolution; 0.4.6.post4 in `__post_init__` (True, as 0.4.6.post5); 0.4.6.post1 has no
    --pp-size and takes no DeepSeek MTP draft from the target (as 0.4.6)."""
    launch = "deepseek-v3 --tp-size 8 --pp-size 2"
    [post2] = explain(tmp_path, "0.4.6.post2", launch)
    assert post2["resolution_exact"] is True and post2["resolution_modelled_on"] == "0.4.6.post2"
    assert post2["unknown"]["disable_overlap_schedule"] == (
        "SGLang 0.4.6.post2 resolves with the overlap scheduler as given, then check_server_args "
        "turns it off for pipeline parallelism (--pp-size > 1) before the server starts"
    )
    [post4] = explain(tmp_path, "0.4.6.post4", launch)
    assert post4["effective"]["disable_overlap_schedule"] is True
    mtp = "deepseek-v3 --speculative-algorithm NEXTN --tp-size 8"
    [post1] = explain(tmp_path, "0.4.6.post1", mtp)
    [post3] = explain(tmp_path, "0.4.6.post3", mtp)
    assert post1["effective"]["speculative_draft_model_path"] is None
    assert post3["effective"]["speculative_draft_model_path"] == f"{M}deepseek-v3"


def test_0_4_10_post1_leaves_ep_size_and_refuses_trtllm_mla_with_speculative_decoding(tmp_path):
    """Recorded in session 13 (tests/data/oracle/0.4.10.post1.json.gz): --enable-ep-moe leaves
    ep_size as 0.4.10 does, and the trtllm_mla block of 0.4.10.post2 is there."""
    [ep] = explain(tmp_path, "0.4.10.post1", "llama-3.1-8b-instruct --tp-size 4 --enable-ep-moe")
    assert ep["resolution_exact"] is True and ep["resolution_modelled_on"] == "0.4.10.post1"
    assert ep["effective"]["ep_size"] == 1
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions
    from speclint.sglang.resolve.gpu_profiles import profile

    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}deepseek-v3 --tp-size 8 "
        "--attention-backend trtllm_mla --speculative-algorithm NEXTN\n"
    )
    options = LintOptions(sglang_version="0.4.10.post1", read_pyproject=False, gpu=profile("b200"))
    [finding] = [f for f in lint_text(text, "launch.sh", options).findings if f.severity == Severity.ERROR]
    column = text.index("trtllm_mla") + 1
    assert (finding.code, finding.span.line, finding.span.column) == ("SPD009", 1, column)
    assert finding.message.startswith(
        "SGLang 0.4.10.post1 refuses this launch in __post_init__: ValueError: trtllm_mla backend "
        "does not support speculative decoding yet."
    )


def test_0_4_5_post3_auto_chosen_draft_parameters_stop_on_a_field_servers_args_lacks():
    """Recorded in session 13 (tests/data/oracle/0.4.5.post{2,3}.json.gz): 0.4.4.post4-0.4.5.post3
    `auto_choose_speculative_params(self)` reads `self.decrypted_config_file`, which their
    ServerArgs does not define, so EAGLE without --speculative-num-steps stops with
    AttributeError; the three parameters given, it starts."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}llama-3.1-8b-instruct "
        f"--speculative-algorithm EAGLE3 --speculative-draft-model-path {ROOT}/{M}eagle3-llama-3.1-8b-instruct\n"
    )
    options = LintOptions(sglang_version="0.4.5.post3", read_pyproject=False)
    [finding] = [f for f in lint_text(text, "launch.sh", options).findings if f.severity == Severity.ERROR]
    column = text.index("EAGLE3") + 1
    assert (finding.code, finding.span.line, finding.span.column) == ("SPD009", 1, column)
    assert finding.message == (
        "SGLang 0.4.5.post3 refuses this launch in auto_choose_speculative_params: AttributeError: "
        "'ServerArgs' object has no attribute 'decrypted_config_file' (auto_choose_speculative_params "
        "reads a field SGLang 0.4.5.post3's ServerArgs does not define; give --speculative-num-steps, "
        "--speculative-eagle-topk and --speculative-num-draft-tokens)"
    )
    given = text.replace(
        "\n", " --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4\n"
    )
    assert not [f for f in lint_text(given, "launch.sh", options).findings if f.severity == Severity.ERROR]


def test_0_4_5_post2_keeps_the_draft_tokens_given_with_topk_one(tmp_path):
    """0.4.5.post2 has no "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1"
    rewrite (0.4.5.post3 adds it): 16 draft tokens with topk 1 stay 16 (recorded)."""
    flags = (
        f"llama-3.1-8b-instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path "
        f"{M}eagle3-llama-3.1-8b-instruct --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 16"
    )
    [post2] = explain(tmp_path, "0.4.5.post2", flags)
    [post3] = explain(tmp_path, "0.4.5.post3", flags)
    assert post2["resolution_exact"] is True and post2["resolution_modelled_on"] == "0.4.5.post2"
    assert post2["effective"]["speculative_num_draft_tokens"] == 16
    assert post3["effective"]["speculative_num_draft_tokens"] == 4


def test_0_4_5_enable_flashmla_sets_pages_of_64_where_0_4_5_post2_does_not(tmp_path):
    """0.4.4.post2-0.4.5.post1 `__post_init__`: `if self.enable_flashmla is True:` "FlashMLA only
    supports a page_size of 64, change page_size to 64."; 0.4.5.post2 keys it to
    --attention-backend flashmla and --enable-flashmla leaves the page size."""
    launch = "deepseek-v3 --tp-size 8 --enable-flashmla"
    [own] = explain(tmp_path, "0.4.5", launch)
    [later] = explain(tmp_path, "0.4.5.post2", launch)
    assert own["resolution_exact"] is True and own["resolution_modelled_on"] == "0.4.5"
    assert own["effective"]["page_size"] == 64
    assert later["effective"]["page_size"] == 1


EAGLE = f"llama-3.1-8b-instruct --speculative-algorithm EAGLE --speculative-draft-model-path {M}eagle-llama-3.1-8b-instruct"


def test_the_first_eagle_releases_resolve_their_own_post_init_block(tmp_path):
    """Recorded in session 13: 0.4.1.post4-0.4.3.post2 turn chunked prefill (-1), the radix cache
    and the overlap scheduler off and cap nothing; 0.4.3.post4-0.4.4.post3 cap running requests
    at 32 and turn the overlap scheduler off (speculative_legacy.py); 0.4.3.post1-0.4.3.post2
    keep the name NEXTN. The backend is picked when FlashInfer is installed: unknown, said so."""
    [post4] = explain(tmp_path, "0.4.1.post4", EAGLE)
    assert post4["resolution_exact"] is True and post4["resolution_modelled_on"] == "0.4.1.post4"
    eff = post4["effective"]
    assert (eff["max_running_requests"], eff["disable_overlap_schedule"], eff["chunked_prefill_size"]) == (
        None,
        True,
        -1,
    )
    [capped] = explain(tmp_path, "0.4.3.post4", EAGLE)
    eff = capped["effective"]
    assert (eff["max_running_requests"], eff["disable_overlap_schedule"]) == (32, True)
    assert eff["chunked_prefill_size"] is None
    nextn = (
        f"deepseek-v3 --speculative-algorithm NEXTN --speculative-draft-model-path {M}deepseek-v3 --tp-size 8"
    )
    [kept] = explain(tmp_path, "0.4.3.post1", nextn)
    [renamed] = explain(tmp_path, "0.4.3.post3", nextn)
    assert kept["effective"]["speculative_algorithm"] == "NEXTN"
    assert renamed["effective"]["speculative_algorithm"] == "EAGLE"
    [plain] = explain(tmp_path, "0.4.4", "qwen3-8b")
    assert plain["unknown"]["attention_backend"] == (
        "SGLang 0.4.4 picks flashinfer when FlashInfer is installed, else triton"
    )


def test_0_4_1_post7_dp_attention_keeps_the_overlap_scheduler(tmp_path):
    """0.4.1.post7 drops "Overlap scheduler is disabled." from the DP-attention block (recorded);
    0.4.1.post6 turns it off."""
    launch = "deepseek-v3 --tp-size 8 --dp-size 2 --enable-dp-attention"
    [post6] = explain(tmp_path, "0.4.1.post6", launch)
    [post7] = explain(tmp_path, "0.4.1.post7", launch)
    assert (post6["effective"]["dp_size"], post6["effective"]["disable_overlap_schedule"]) == (8, True)
    assert (post7["effective"]["dp_size"], post7["effective"]["disable_overlap_schedule"]) == (8, False)


def test_0_4_3_post3_asserts_fewer_steps_than_draft_tokens():
    """0.4.3.post3 `__post_init__`: `assert self.speculative_num_steps <
    self.speculative_num_draft_tokens` (bare; recorded); 0.4.3.post4 comments it out."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}llama-3.1-8b-instruct --speculative-algorithm EAGLE "
        f"--speculative-draft-model-path {ROOT}/{M}eagle-llama-3.1-8b-instruct --speculative-num-steps 8 "
        "--speculative-num-draft-tokens 4\n"
    )

    def errors(version: str) -> list:
        options = LintOptions(sglang_version=version, read_pyproject=False)
        return [f for f in lint_text(text, "launch.sh", options).findings if f.severity == Severity.ERROR]

    [finding] = errors("0.4.3.post3")
    column = text.index("8 --speculative-num-draft-tokens") + 1
    assert (finding.code, finding.span.line, finding.span.column) == ("SPD009", 1, column)
    assert finding.message.startswith(
        "SGLang 0.4.3.post3 refuses this launch in __post_init__: AssertionError: assert "
        "self.speculative_num_steps < self.speculative_num_draft_tokens (bare AssertionError, no "
        "message: 8 steps, 4 draft tokens; give more draft tokens than steps)"
    )
    assert errors("0.4.3.post4") == []


def test_0_4_4_checks_the_chunked_prefill_size_as_given_though_its_page_size_is_unresolved():
    """0.4.4 `__post_init__` asserts `chunked_prefill_size % page_size == 0` on the sizes as
    given, -1 included (seed wide-13012, recorded); its attention backend (flashinfer when
    installed) leaves speclint's resolved page size unknown, which no longer skips the check."""
    from speclint.core.findings import Severity
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions

    text = (
        f"python -m sglang.launch_server --model-path {ROOT}/{M}llama-3.1-8b-instruct "
        "--page-size 64 --chunked-prefill-size -1\n"
    )
    options = LintOptions(sglang_version="0.4.4", read_pyproject=False)
    [finding] = [f for f in lint_text(text, "launch.sh", options).findings if f.severity == Severity.ERROR]
    column = text.index("-1") + 1
    assert (finding.code, finding.span.line, finding.span.column) == ("SPD009", 1, column)
    assert finding.message == (
        "SGLang 0.4.4 refuses this launch in __post_init__: AssertionError: assert "
        "chunked_prefill_size % page_size == 0 fails (--chunked-prefill-size -1 with page size 64 "
        "(-1 turns chunked prefill off, and this release checks it all the same); use a multiple "
        "of 64, or drop --page-size)"
    )


def test_0_4_4_post2_deepep_sets_the_ep_size_to_the_dp_size_under_dp_attention(tmp_path):
    """0.4.4.post2 `__post_init__` (seed 13013, recorded): inside the DP-attention block
    --enable-deepep-moe sets ep_size = dp_size; without DP attention it leaves ep_size;
    0.4.4.post3 sets the TP size either way."""
    with_dp = "deepseek-v3 --tp-size 16 --dp-size 4 --enable-dp-attention --ep-size 2 --enable-deepep-moe"
    without = "deepseek-v3 --tp-size 8 --ep-size 2 --enable-deepep-moe"
    post2 = explain(tmp_path, "0.4.4.post2", with_dp, without)
    post3 = explain(tmp_path, "0.4.4.post3", with_dp, without)
    assert [launch["effective"]["ep_size"] for launch in post2] == [4, 2]
    assert [launch["effective"]["ep_size"] for launch in post3] == [16, 8]


def test_0_4_10_post1_enable_ep_moe_sets_the_ep_size_only_with_the_cutlass_moe(tmp_path):
    """0.4.10.post1 `__post_init__`: inside `if self.enable_flashinfer_cutlass_moe:` (modelopt_fp4
    asserted), `if self.enable_ep_moe: self.ep_size = self.tp_size`; alone, --enable-ep-moe
    leaves ep_size (confirmed by tools/oracle's record_release.py on 0.4.10.post1, fake H100:
    4 and 1)."""
    both, alone = explain(
        tmp_path,
        "0.4.10.post1",
        "llama-3.1-8b-instruct --tp-size 4 --quantization modelopt_fp4 --enable-flashinfer-cutlass-moe --enable-ep-moe",
        "llama-3.1-8b-instruct --tp-size 4 --enable-ep-moe",
    )
    assert (both["effective"]["ep_size"], alone["effective"]["ep_size"]) == (4, 1)
