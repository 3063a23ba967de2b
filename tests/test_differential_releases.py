"""What `speclint explain` shows for launches where session 11's fresh-seed differential
(tools/oracle/differential.py --unknown, seeds 11011/11012 on releases other than 0.5.23)
found speclint leaving unknown a value the release resolves. Expected values are the
releases' own, from their recordings (tests/data/oracle/) and the source lines named."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from explain_runs import explain_launches

ROOT = Path(__file__).resolve().parent.parent
M = "fixtures/models/"


def explain(tmp_path: Path, version: str, *launches: str, gpu: str | None = None) -> list[dict]:
    return explain_launches(tmp_path, version, *launches, gpu=gpu)


def test_0_5_2_eagle_turns_the_overlap_scheduler_off_without_a_beta_spec_flag(tmp_path):
    # 0.5.2 has no --enable-beta-spec (0.5.3 added it): `__post_init__` disables the overlap
    # scheduler for EAGLE, EAGLE3 and STANDALONE whatever else is given
    [launch] = explain(
        tmp_path,
        "0.5.2",
        f"llama-3.1-8b-instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path "
        f"{M}eagle3-llama-3.1-8b-instruct --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4",
    )
    assert launch["resolution_exact"] is True and launch["resolution_modelled_on"] == "0.5.2"
    assert launch["effective"]["disable_overlap_schedule"] is True
    assert "disable_overlap_schedule" not in launch.get("unknown", {})


def test_dflash_keeps_a_given_max_running_requests_and_caps_at_48_otherwise(tmp_path):
    # every DFLASH release ends `_handle_dflash` with `if max_running_requests is None: ... = 48`
    # (0.5.14 arg_groups/speculative_hook.py); explain showed it unknown before 0.5.23
    dflash = (
        f"qwen3-8b --speculative-algorithm DFLASH --speculative-draft-model-path {M}qwen3-8b "
        "--speculative-num-draft-tokens 2"
    )
    for version in ("0.5.12.post1", "0.5.14", "0.5.21"):
        given, default = explain(tmp_path, version, f"{dflash} --max-running-requests 8", dflash, gpu="h100")
        assert given["effective"]["max_running_requests"] == 8, version
        assert default["effective"]["max_running_requests"] == 48, version
        assert "max_running_requests" not in default.get("unknown", {}), version


def test_older_releases_state_the_schedule_conservativeness(tmp_path):
    # 1.0 unless given, times 0.3 with attention DP (0.4.6.post5 server_args.py L329, 0.5.14
    # `_handle_data_parallelism` L5050-5051); the GPU does not change it
    dp, plain, given = explain(
        tmp_path,
        "0.5.14",
        "deepseek-v3 --tp-size 8 --dp-size 4 --enable-dp-attention",
        "llama-3.1-8b-instruct",
        "llama-3.1-8b-instruct --schedule-conservativeness 0.5",
        gpu="h100",
    )
    assert dp["effective"]["schedule_conservativeness"] == 0.3
    assert plain["effective"]["schedule_conservativeness"] == 1.0
    assert given["effective"]["schedule_conservativeness"] == 0.5
    [old] = explain(tmp_path, "0.4.6.post5", "deepseek-v3 --tp-size 8 --dp-size 2 --enable-dp-attention")
    assert old["effective"]["schedule_conservativeness"] == 0.3
    assert "schedule_conservativeness" not in old.get("unknown", {})


def test_dflash_draft_tokens_default_to_16_when_the_draft_config_states_no_block_size(tmp_path):
    # `_handle_dflash`: `parse_dflash_draft_config(...).resolve_block_size(default=None)`, then
    # 16 (0.5.14 arg_groups/speculative_hook.py); qwen3-8b's config.json has no block_size
    dflash = f"qwen3-8b --speculative-algorithm DFLASH --speculative-draft-model-path {M}"
    [plain] = explain(tmp_path, "0.5.14", f"{dflash}qwen3-8b", gpu="h100")
    assert plain["effective"]["speculative_num_draft_tokens"] == 16
    stated = tmp_path / "dflash-draft"
    stated.mkdir()
    (stated / "config.json").write_text(
        json.dumps({"architectures": ["DFlashDraftModel"], "dflash_config": {"block_size": 8}})
    )
    [block] = explain(tmp_path, "0.5.14", f"{dflash[: -len(M)]}{stated}", gpu="h100")
    assert block["effective"]["speculative_num_draft_tokens"] is None  # unknown, with why
    assert block["unknown"]["speculative_num_draft_tokens"] == (
        "taken from the block size the DFLASH draft's config states"
    )


def test_a_separate_draft_gets_its_own_boundary_reduction(tmp_path):
    # 0.5.23 arg_groups/boundary_reduction.py `resolve_boundary_reduction`: the draft's own
    # `model_boundary_reduction(get_config(draft_path))`; Qwen3ForCausalLM is in
    # `_AR_ARCHITECTURES`, a Llama target is not
    [launch] = explain(
        tmp_path,
        "0.5.23",
        f"llama-3.1-8b-instruct --speculative-algorithm STANDALONE --speculative-draft-model-path {M}qwen3-8b",
        gpu="h100",
    )
    assert launch["effective"]["boundary_reduction"] == "rs+rsv"
    assert launch["effective"]["speculative_boundary_reduction"] == "ar"


def test_a_prefill_backend_equal_to_the_decode_backend_is_the_attention_backend(tmp_path):
    # 0.5.4-0.5.21 `_handle_attention_backend_compatibility` (0.5.14 server_args.py
    # L4478-4481; 0.5.15+ overrides.py `_attention_backend_default`), on any GPU
    same = "--prefill-attention-backend triton --decode-attention-backend triton"
    for gpu in ("h100", "b200"):
        llama, deepseek = explain(
            tmp_path, "0.5.14", f"llama-3.1-8b-instruct {same}", f"deepseek-v3 --tp-size 8 {same}", gpu=gpu
        )
        assert (llama["effective"]["attention_backend"], llama["effective"]["page_size"]) == ("triton", 1)
        assert deepseek["effective"]["attention_backend"] == "triton"


def test_deepseek_on_blackwell_with_one_phase_backend_given_gets_the_mla_default(tmp_path):
    # no trtllm_mla (`_handle_model_specific_adjustments` wants all three backends unset);
    # `_get_default_attn_backend` gives MLA models flashinfer on SM100 (0.5.14 L4460-4463)
    for version in ("0.5.6.post2", "0.5.14"):
        [launch] = explain(
            tmp_path, version, "deepseek-v3 --prefill-attention-backend fa3 --tp-size 2", gpu="b200"
        )
        assert (launch["effective"]["attention_backend"], launch["effective"]["page_size"]) == (
            "flashinfer",
            1,
        ), version


def test_older_releases_keep_a_given_chunked_prefill_size(tmp_path):
    # no release changes a given size but attention DP (`// dp_size`), --enable-mis and the
    # capability adjustments of models that cannot chunk their prefill (given_sizes.py)
    plain, dp = explain(
        tmp_path,
        "0.5.2",
        "llama-3.1-8b-instruct --chunked-prefill-size 4096",
        "deepseek-v3 --tp-size 8 --dp-size 4 --enable-dp-attention --chunked-prefill-size 4096",
    )
    assert plain["effective"]["chunked_prefill_size"] == 4096
    assert dp["effective"]["chunked_prefill_size"] is None
    assert dp["unknown"]["chunked_prefill_size"] == (
        "GPU-dependent resolution is unverified for SGLang 0.5.2 (attention data parallelism changes it)"
    )


def test_the_sampling_backend_is_flashinfer_where_the_wheel_requires_it(tmp_path):
    # `"flashinfer" if is_flashinfer_available() else "pytorch"`; flashinfer_python is a
    # requirement of the wheel with no extra from 0.5.3 (METADATA, sglang_dependencies.json)
    [on_cuda] = explain(tmp_path, "0.5.14", "llama-3.1-8b-instruct", gpu="h100")
    assert on_cuda["effective"]["sampling_backend"] == "flashinfer"
    [extra_only] = explain(tmp_path, "0.5.2", "llama-3.1-8b-instruct", gpu="h100")
    assert (
        extra_only["unknown"]["sampling_backend"] == "GPU-dependent resolution is unverified for SGLang 0.5.2"
    )
    [no_gpu] = explain(tmp_path, "0.5.14", "llama-3.1-8b-instruct")
    assert no_gpu["effective"]["sampling_backend"] is None
    [deterministic] = explain(
        tmp_path, "0.5.14", "llama-3.1-8b-instruct --enable-deterministic-inference", gpu="h100"
    )
    assert deterministic["effective"]["sampling_backend"] != "flashinfer"


def test_the_flashinfer_requirement_is_read_from_the_wheel_metadata():
    sys.path.insert(0, str(ROOT / "tools"))
    from gen_sglang_dependencies import flashinfer_reading

    assert flashinfer_reading("Requires-Dist: flashinfer_python==0.4.0\n") is True
    assert flashinfer_reading('Requires-Dist: flashinfer_python==0.3.1; extra == "srt"\n') is False
    assert flashinfer_reading("Requires-Dist: torch==2.8.0\n") is None
