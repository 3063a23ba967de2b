"""The GPU-dependent resolution of releases before 0.5.22 (`speclint explain --gpu`), and the data
it rests on: tools/gen_sglang_gpu_resolution.py digests each release's GPU-resolution functions
and reads their numbers (src/speclint/sglang/data/sglang_gpu_resolution.json); a release gets the
resolution where its digests are those of a release in `gpu_resolution.CHECKED`.

Expected values are the releases' own, recorded on a fake H100 or B200 by tools/oracle
(tests/data/oracle/<release>.json.gz; test_oracle_recordings.py compares every launch)."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest
from explain_runs import explain_lines

from speclint.sglang.gpu_resolution import CHECKED, gpu_logic

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.path.join(ROOT, "tools"))
WHEELS = ROOT / ".cache" / "sglang-wheels"
LLAMA = "fixtures/models/llama-3.1-8b-instruct"
DSV3 = "fixtures/models/deepseek-v3"


def explain_json(tmp_path: Path, version: str, arguments: str, model: str = LLAMA) -> dict:
    [found] = explain_lines(
        tmp_path, version, [f"python -m sglang.launch_server --model-path {model} {arguments}"], "h100"
    )
    return found


def test_0_5_21_on_an_h100_gets_its_own_values_and_no_running_requests_cap(tmp_path):
    # recorded (0.5.21, H100): `--tensor-parallel-size 8 --dp-size 4 --max-running-requests 16`
    # keeps the decode CUDA graphs up to 512 (0.5.22 lowers them to 16 and sets 0.824)
    arguments = "--tensor-parallel-size 8 --dp-size 4 --max-running-requests 16"
    launch = explain_json(tmp_path, "0.5.21", arguments)
    eff = launch["effective"]
    assert (eff["chunked_prefill_size"], eff["mem_fraction_static"]) == (8192, 0.812)
    assert eff["cuda_graph_max_bs"] == 512 and eff["cuda_graph_bs"][-2:] == [496, 512]
    assert (eff["attention_backend"], eff["page_size"]) == ("fa3", 1)
    assert "mem_fraction_static" not in launch["unknown"]
    newer = explain_json(tmp_path, "0.5.22", arguments)["effective"]
    assert (newer["mem_fraction_static"], newer["cuda_graph_max_bs"]) == (0.824, 16)


def test_0_5_18_keeps_breakable_prefill_graphs_under_pipeline_parallelism(tmp_path):
    # recorded (H100, DeepSeek-V3 `--tp-size 2 --pp-size 2`): 0.5.18 captures breakable
    # prefill graphs and sets 0.812; 0.5.21 turns them off and sets 0.831
    old = explain_json(tmp_path, "0.5.18", "--tp-size 2 --pp-size 2", DSV3)["effective"]
    assert (old["cuda_graph_backend_prefill"], old["mem_fraction_static"]) == ("breakable", 0.812)
    assert old["cuda_graph_max_bs_prefill"] == 2048  # `prefill...max_bs = 2048` for MLA
    new = explain_json(tmp_path, "0.5.21", "--tp-size 2 --pp-size 2", DSV3)["effective"]
    assert (new["cuda_graph_backend_prefill"], new["mem_fraction_static"]) == ("disabled", 0.831)


def test_0_5_16_turns_breakable_prefill_graphs_off_for_mla_and_clamps_them_to_the_context(tmp_path):
    # recorded (0.5.16, H100): DeepSeek-V3 `--tp-size 8` gets no prefill CUDA graphs ("MLA
    # attention" rule) and 0.818; Qwen3-8B `--context-length 2048 --quantization fp8` captures
    # prefill graphs up to 2048 tokens and sets 0.831 (0.5.18: 8192 and 0.83)
    mla = explain_json(tmp_path, "0.5.16", "--tp-size 8", DSV3)["effective"]
    assert (mla["cuda_graph_backend_prefill"], mla["mem_fraction_static"]) == ("disabled", 0.818)
    qwen = "fixtures/models/qwen3-8b"
    short = explain_json(tmp_path, "0.5.16", "--context-length 2048 --quantization fp8", qwen)["effective"]
    assert (short["cuda_graph_max_bs_prefill"], short["mem_fraction_static"]) == (2048, 0.831)
    later = explain_json(tmp_path, "0.5.18", "--context-length 2048 --quantization fp8", qwen)["effective"]
    assert (later["cuda_graph_max_bs_prefill"], later["mem_fraction_static"]) == (8192, 0.83)


def explain_on(tmp_path: Path, version: str, gpu: str, arguments: str, model: str = LLAMA) -> dict:
    [found] = explain_lines(
        tmp_path, version, [f"python -m sglang.launch_server --model-path {model} {arguments}"], gpu
    )
    return found


def test_0_5_17_on_an_h100_and_a_b200_gets_its_recorded_values(tmp_path):
    # recorded (tests/data/oracle/0.5.17.json.gz): Llama-3.1-8B with no flags
    h100 = explain_on(tmp_path, "0.5.17", "h100", "")["effective"]
    assert (h100["chunked_prefill_size"], h100["mem_fraction_static"]) == (8192, 0.83)
    assert (h100["cuda_graph_max_bs"], h100["cuda_graph_bs"][-2:]) == (256, [248, 256])
    assert (h100["cuda_graph_backend_prefill"], h100["cuda_graph_max_bs_prefill"]) == ("breakable", 8192)
    assert (h100["attention_backend"], h100["page_size"]) == ("fa3", 1)
    b200 = explain_on(tmp_path, "0.5.17", "b200", "")["effective"]
    assert (b200["chunked_prefill_size"], b200["mem_fraction_static"]) == (16384, 0.854)
    assert (b200["cuda_graph_max_bs"], b200["cuda_graph_max_bs_prefill"]) == (512, 16384)
    assert (b200["attention_backend"], b200["page_size"]) == ("trtllm_mha", 64)


def test_0_5_17_turns_deepseek_v3_prefill_graphs_off_as_mla_without_dsa(tmp_path):
    # recorded (0.5.17, H100, `--tp-size 8`): rule "MLA attention (non-DSA)", 0.818 (0.5.18,
    # which has no such rule, keeps breakable graphs: 0.799)
    launch = explain_on(tmp_path, "0.5.17", "h100", "--tp-size 8", DSV3)
    eff = launch["effective"]
    assert (eff["cuda_graph_backend_prefill"], eff["mem_fraction_static"]) == ("disabled", 0.818)
    assert eff["cuda_graph_max_bs_prefill"] == 2048 and eff["cuda_graph_max_bs"] == 512
    later = explain_on(tmp_path, "0.5.18", "h100", "--tp-size 8", DSV3)["effective"]
    assert later["cuda_graph_backend_prefill"] == "breakable"


def test_0_5_17_resolves_mm_feature_transport_to_cuda_ipc_on_one_node_only(tmp_path):
    # recorded (0.5.17): cuda_ipc with no flags; cpu for `--nnodes 4`; 0.5.18 cpu
    assert explain_on(tmp_path, "0.5.17", "h100", "")["effective"]["mm_feature_transport"] == "cuda_ipc"
    nodes = "--tp-size 8 --pp-size 2 --nnodes 4 --node-rank 0 --dist-init-addr 10.0.0.1:5000"
    several = explain_on(tmp_path, "0.5.17", "h100", nodes, "fixtures/models/qwen3-8b")["effective"]
    assert several["mm_feature_transport"] == "cpu"
    assert explain_on(tmp_path, "0.5.18", "b200", "")["effective"]["mm_feature_transport"] == "cpu"


def test_0_5_14_captures_prefill_with_tc_piecewise_graphs_on_an_h100_and_a_b200(tmp_path):
    # recorded (tests/data/oracle/0.5.14.json.gz): `CudaGraphConfig`'s prefill default is
    # tc_piecewise in 0.5.14 (breakable from 0.5.15)
    h100 = explain_on(tmp_path, "0.5.14", "h100", "")["effective"]
    assert (h100["cuda_graph_backend_prefill"], h100["cuda_graph_max_bs_prefill"]) == ("tc_piecewise", 8192)
    assert (h100["chunked_prefill_size"], h100["mem_fraction_static"], h100["cuda_graph_max_bs"]) == (
        8192,
        0.83,
        256,
    )
    assert (h100["attention_backend"], h100["page_size"]) == ("fa3", 1)
    b200 = explain_on(tmp_path, "0.5.14", "b200", "")["effective"]
    assert (b200["chunked_prefill_size"], b200["mem_fraction_static"], b200["cuda_graph_max_bs"]) == (
        16384,
        0.854,
        512,
    )
    assert (b200["cuda_graph_backend_prefill"], b200["attention_backend"], b200["page_size"]) == (
        "tc_piecewise",
        "trtllm_mha",
        64,
    )
    assert (
        explain_on(tmp_path, "0.5.15", "h100", "")["effective"]["cuda_graph_backend_prefill"] == "breakable"
    )


def test_0_5_14_keeps_deepseek_v3_prefill_graphs_and_turns_them_off_by_its_own_rules(tmp_path):
    # recorded (0.5.14): DeepSeek-V3 keeps tc_piecewise prefill graphs (2048) on an H100 and on
    # a B200 under trtllm_mla (no `disable_prefill_cuda_graph_for_deepseek_trtllm_mla` yet);
    # "DP attention" and "pipeline parallelism (pp_size > 1)" turn them off
    h100 = explain_on(tmp_path, "0.5.14", "h100", "--tp-size 8", DSV3)["effective"]
    assert (h100["cuda_graph_backend_prefill"], h100["mem_fraction_static"]) == ("tc_piecewise", 0.799)
    b200 = explain_on(tmp_path, "0.5.14", "b200", "", DSV3)["effective"]
    assert (b200["attention_backend"], b200["cuda_graph_backend_prefill"]) == ("trtllm_mla", "tc_piecewise")
    assert (b200["cuda_graph_max_bs_prefill"], b200["mem_fraction_static"]) == (2048, 0.849)
    dp = explain_on(tmp_path, "0.5.14", "h100", "--tp-size 8 --dp-size 8 --enable-dp-attention", DSV3)
    assert (dp["effective"]["cuda_graph_backend_prefill"], dp["effective"]["mem_fraction_static"]) == (
        "disabled",
        0.592,
    )
    assert dp["effective"]["chunked_prefill_size"] == 1024
    pp = explain_on(tmp_path, "0.5.14", "h100", "--tp-size 2 --pp-size 2", DSV3)["effective"]
    assert (pp["cuda_graph_backend_prefill"], pp["mem_fraction_static"]) == ("disabled", 0.831)


def test_0_5_14_reserves_decode_graph_memory_with_cuda_graphs_off(tmp_path):
    # recorded (tests/data/oracle/seeds/wide-11012/0.5.14.json.gz, H100): 0.835; the decode
    # graphs' max_bs * 2 is reserved though --disable-cuda-graph turns them off
    arguments = "--tp-size 1 --dp-size 2 --attention-backend fa3 --page-size 16 --disable-cuda-graph"
    eff = explain_on(tmp_path, "0.5.14", "h100", arguments, DSV3)["effective"]
    assert (eff["mem_fraction_static"], eff["cuda_graph_backend_prefill"]) == (0.835, "disabled")


def test_fields_the_release_lacks_are_not_stated(tmp_path):
    # 0.5.23's filled-in defaults are stated only where the release has the flag: 0.5.17 has
    # no --boundary-reduction or --prefill-decode-interval, 0.5.14 no --mm-feature-transport
    fields = ("boundary_reduction", "speculative_boundary_reduction", "prefill_decode_interval")
    newest = explain_on(tmp_path, "0.5.23", "h100", "")
    assert [newest["effective"][f] for f in fields] == ["rs+rsv", "rs+rsv", 0]
    older = explain_on(tmp_path, "0.5.17", "h100", "")
    assert not [f for f in fields if f in older["effective"] or f in older["unknown"]]
    assert older["effective"]["hicache_ratio"] == 2.0  # a 0.5.17 flag: still stated
    assert "mm_feature_transport" not in explain_on(tmp_path, "0.5.14", "h100", "")["effective"]


def test_0_5_13_post1_reserves_for_the_draft_and_turns_allreduce_fusion_on(tmp_path):
    # recorded (tests/data/oracle/0.5.13.post1.json.gz): Llama-3.1-8B with no flags as 0.5.14;
    # STANDALONE reserves 6 GiB more (0.754 on an H100, 0.82 on a B200); piecewise prefill
    # graphs up to the chunked prefill size; DeepSeek-V3 `--tp-size 8` gets FlashInfer
    # all-reduce fusion and 2048-token prefill graphs
    plain = explain_on(tmp_path, "0.5.13.post1", "h100", "")["effective"]
    assert (plain["chunked_prefill_size"], plain["mem_fraction_static"], plain["cuda_graph_max_bs"]) == (
        8192,
        0.83,
        256,
    )
    # under 0.5.13.post1's own names: the piecewise graphs are on, up to 8192 tokens
    assert (plain["disable_piecewise_cuda_graph"], plain["piecewise_cuda_graph_max_tokens"]) == (False, 8192)
    assert "cuda_graph_backend_prefill" not in plain and "cuda_graph_max_bs_prefill" not in plain
    draft = "--speculative-algorithm STANDALONE --speculative-draft-model-path fixtures/models/qwen3-8b"
    assert explain_on(tmp_path, "0.5.13.post1", "h100", draft)["effective"]["mem_fraction_static"] == 0.754
    b200 = explain_on(tmp_path, "0.5.13.post1", "b200", draft)["effective"]
    assert (b200["mem_fraction_static"], b200["chunked_prefill_size"], b200["attention_backend"]) == (
        0.82,
        16384,
        "flashinfer",
    )
    dsv3 = explain_on(tmp_path, "0.5.13.post1", "h100", "--tp-size 8", DSV3)["effective"]
    assert (dsv3["enable_flashinfer_allreduce_fusion"], dsv3["mem_fraction_static"]) == (True, 0.799)
    assert dsv3["piecewise_cuda_graph_max_tokens"] == 2048
    assert "flashinfer_allreduce_fusion_backend" not in dsv3  # a 0.5.14+ flag


def test_0_5_11_keeps_the_draft_off_the_flashinfer_trtllm_moe_runner(tmp_path):
    # recorded (tests/data/oracle/0.5.11.json.gz, B200): DeepSeek-V3 takes flashinfer_trtllm,
    # its draft "auto" (0.5.12.post1: the target's); 0.5.11 has 0.5.12.post1's GPU functions
    args = "--tp-size 4 --speculative-algorithm EAGLE"
    [old, new] = (
        explain_on(tmp_path, v, "b200", args, DSV3)["effective"] for v in ("0.5.11", "0.5.12.post1")
    )
    assert (old["moe_runner_backend"], old["speculative_moe_runner_backend"]) == ("flashinfer_trtllm", "auto")
    assert new["speculative_moe_runner_backend"] == "flashinfer_trtllm"
    assert (old["chunked_prefill_size"], old["attention_backend"]) == (16384, "trtllm_mla")


def test_0_5_10_post1_turns_piecewise_graphs_off_for_speculative_decoding(tmp_path):
    # recorded (tests/data/oracle/0.5.10.post1.json.gz, H100): `_handle_piecewise_cuda_graph`'s
    # `if self.speculative_algorithm is not None:` (gone in 0.5.11): no piecewise graphs; the
    # draft reserves 4 GiB: 0.785
    args = "--speculative-algorithm EAGLE3 --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct"
    eff = explain_on(tmp_path, "0.5.10.post1", "h100", args)["effective"]
    assert (eff["disable_piecewise_cuda_graph"], eff["mem_fraction_static"]) == (True, 0.785)
    plain = explain_on(tmp_path, "0.5.10.post1", "h100", "")["effective"]
    assert (plain["disable_piecewise_cuda_graph"], plain["mem_fraction_static"]) == (False, 0.83)


@pytest.mark.parametrize("version", ["0.5.2", "0.5.1.post3", "0.4.10.post2"])
def test_releases_whose_gpu_logic_was_not_checked_still_say_unverified(tmp_path, version):
    # before 0.5.3 the decode batch sizes, the data-parallel handling and the memory settings
    # differ from every checked release's
    launch = explain_json(tmp_path, version, "--tp-size 8")
    for name in ("chunked_prefill_size", "mem_fraction_static", "cuda_graph_max_bs"):
        assert launch["effective"][name] is None
        assert launch["unknown"][name] == f"GPU-dependent resolution is unverified for SGLang {version}"


def test_0_5_15_resolved_as_itself_gets_the_gpu_values_of_its_twin(tmp_path):
    """0.5.15 has 0.5.15.post1's GPU functions and, recorded since, resolves as itself (its
    recording agrees: tests/test_oracle_recordings.py), so its values are stated."""
    launch = explain_json(tmp_path, "0.5.15", "--tp-size 8")["effective"]
    twin = explain_json(tmp_path, "0.5.15.post1", "--tp-size 8")["effective"]
    names = ("chunked_prefill_size", "mem_fraction_static", "cuda_graph_max_bs")
    assert [launch[n] for n in names] == [twin[n] for n in names]
    assert launch["chunked_prefill_size"] == 8192


def test_checked_releases_have_read_numbers_and_others_none():
    for version in CHECKED:
        logic = gpu_logic(version)
        assert logic is not None and logic.release == version
        h100 = logic.tier(81559)
        assert (h100.chunked_prefill_size, logic.decode_max_bs(81559, 8)) == (8192, 512)
    assert gpu_logic("0.5.2") is None and gpu_logic("0.5.1") is None and gpu_logic("0.4.0") is None
    assert gpu_logic("0.5.3.post2").release == "0.5.4"  # the same digests
    assert gpu_logic("0.5.3").release == "0.5.3.post1"
    assert gpu_logic("0.5.6").release == "0.5.6.post2" and gpu_logic("0.5.4.post2").release == "0.5.5"
    assert (gpu_logic("0.5.6").prefill_constant, gpu_logic("0.5.7").prefill_constant) == (4096, None)
    assert gpu_logic("0.5.8").release == "0.5.8.post1"  # the same digests
    for version in ("0.5.7", "0.5.8.post1", "0.5.9"):
        logic = gpu_logic(version)
        assert (logic.prefill_graph_flag, logic.prefill_default) == (
            "enable_piecewise_cuda_graph",
            "disabled",
        )
        assert (
            not logic.decode_appends_max_bs
            and not logic.prefill_total_clamp
            and logic.prefill_llama2_cap is None
        )
    assert gpu_logic("0.5.9").prefill_ranges[3] == (576, 1025, 64)
    assert gpu_logic("0.5.8.post1").prefill_ranges[3] == (640, 1025, 64)
    assert (gpu_logic("0.5.7").mla_prefill_fixed, gpu_logic("0.5.7").mla_prefill_cap) == (None, None)
    assert gpu_logic("0.5.10").prefill_total_clamp and gpu_logic("0.5.10").prefill_llama2_cap == 4096
    assert gpu_logic("0.5.10").release == "0.5.10.post1"
    assert gpu_logic("0.5.11").release == "0.5.12.post1" and gpu_logic("0.5.11").draft_moe_auto
    assert not gpu_logic("0.5.12.post1").draft_moe_auto
    old = gpu_logic("0.5.13.post1")
    assert (old.prefill_graph_flag, old.prefill_default) == ("disable_piecewise_cuda_graph", "tc_piecewise")
    assert dict(old.speculative_reserve) == {"STANDALONE": 6144, "NGRAM": 0, "other": 4096}
    assert "self.enable_dp_attention" in old.tc_piecewise_rules and old.context_clamp
    assert gpu_logic("0.5.13").release == "0.5.13.post1"  # the same digests
    assert (gpu_logic("0.5.14").prefill_default, gpu_logic("0.5.15").prefill_default) == (
        "tc_piecewise",
        "breakable",
    )
    assert gpu_logic("0.5.14").decode_reserve_unguarded and not gpu_logic("0.5.15").decode_reserve_unguarded
    assert not gpu_logic("0.5.14").trtllm_mla_prefill_off and gpu_logic("0.5.15").trtllm_mla_prefill_off
    assert "DP attention" in gpu_logic("0.5.14").tc_piecewise_rules
    assert dict(gpu_logic("0.5.17").mm_feature_transport) == {
        "text": "cuda_ipc",
        "multimodal": "cuda_ipc",
        "text_nodes": "cpu",
        "multimodal_nodes": "cpu",
    }
    assert "MLA attention (non-DSA)" in gpu_logic("0.5.17").breakable_rules
    assert gpu_logic("0.5.15").release == "0.5.15.post1"  # the same digests
    assert gpu_logic("0.5.19").tier(32607).max_bs == 80  # `max_bs 24 if tp < 4 else 80` (RTX 5090)
    assert gpu_logic("0.5.20").tier(32607).max_bs == 160


HOOK = '''
def handle_gpu_memory_settings(server_args, gpu_mem):
    """Docstring."""
    cfg = resolving_view(server_args)
    if gpu_mem is not None:
        if gpu_mem < 20 * 1024:
            if cfg.chunked_prefill_size is None:
                declare_resolution(server_args, "h", chunked_prefill_size=2048)
            if decode.max_bs is None:
                decode.max_bs = 8
        elif gpu_mem < 90 * 1024:
            if cfg.chunked_prefill_size is None:
                declare_resolution(server_args, "h", chunked_prefill_size=8192)
            if decode.max_bs is None:
                if cfg.tp_size < 4:
                    decode.max_bs = 256
                else:
                    decode.max_bs = 512
        else:
            if cfg.chunked_prefill_size is None:
                declare_resolution(server_args, "h", chunked_prefill_size=16384)
            if decode.max_bs is None:
                decode.max_bs = 512
    logger.info("tiers done")
    if prefill.max_bs is None:
        if not use_mla_backend(server_args):
            prefill.max_bs = cfg.chunked_prefill_size
        else:
            prefill.max_bs = 2048
    if cfg.context_length is not None:
        prefill.max_bs = min(prefill.max_bs, cfg.context_length)
    reserved = 512 + cfg.chunked_prefill_size * 1.5


def _disable_breakable_cudagraph_if_incompatible(self):
    rules = [("MLA attention", lambda: self.use_mla_backend()), ("LoRA", lambda: self.enable_lora)]
'''


def _read(tmp_path: Path, source: str, others: dict[str, str] | None = None) -> dict:
    from gen_sglang_gpu_resolution import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/arg_groups/memory_hook.py", source)
        for name, text in (others or {}).items():
            archive.writestr(name, text)
    return dict(read_release(str(wheel)))


GRAPH_CONFIG = "sglang/srt/model_executor/cuda_graph_config.py"
FIXED_DEFAULT = """
@dataclass
class CudaGraphConfig:
    decode: PhaseConfig = field(default_factory=lambda: PhaseConfig(backend=Backend.FULL))
    prefill: PhaseConfig = field(default_factory=lambda: PhaseConfig(backend=Backend.TC_PIECEWISE))
"""
CUDA_DEFAULT = """
def default_prefill_backend() -> str:
    from sglang.srt.utils import is_cuda

    return Backend.BREAKABLE if is_cuda() else Backend.TC_PIECEWISE


@dataclass
class CudaGraphConfig:
    prefill: PhaseConfig = field(default_factory=lambda: PhaseConfig(backend=default_prefill_backend()))
"""
MODEL_CONFIG = 'piecewise_cuda_graph_disabled_model_archs = ["Qwen3NextForCausalLM", "LLaDAModelLM"]\n'


def test_the_generator_reads_the_prefill_default_the_blacklist_and_the_decode_reserve(tmp_path):
    others = {GRAPH_CONFIG: FIXED_DEFAULT, "sglang/srt/configs/model_config.py": MODEL_CONFIG}
    fixed = _read(tmp_path, HOOK, others)["memory"]
    assert (fixed["prefill_default"], fixed["piecewise_disabled_archs"]) == (
        "tc_piecewise",
        ["Qwen3NextForCausalLM", "LLaDAModelLM"],
    )
    assert _read(tmp_path, HOOK, {GRAPH_CONFIG: CUDA_DEFAULT})["memory"]["prefill_default"] == "breakable"
    # `reserved += decode.max_bs * 2` with no backend test around it, then under one
    line = "    reserved = 512 + cfg.chunked_prefill_size * 1.5\n"
    assert line in HOOK
    unguarded = HOOK.replace(line, line + "    reserved_mem += decode.max_bs * 2\n")
    assert _read(tmp_path, unguarded)["memory"]["decode_reserve_unguarded"] is True
    guarded = HOOK.replace(
        line, line + "    if decode.backend != Backend.DISABLED:\n        reserved_mem += decode.max_bs * 2\n"
    )
    assert _read(tmp_path, guarded)["memory"]["decode_reserve_unguarded"] is False


def test_the_generator_reads_the_numbers_and_digests_the_rest(tmp_path):
    base = _read(tmp_path, HOOK)
    assert base["memory"] == {
        "tiers": [[20480, 2048, 8, 8], [92160, 8192, 256, 512], [None, 16384, 512, 512]],
        "tp_bound": 4,
        "mla_prefill": {"fixed": 2048},
        "running_cap": False,
        "context_clamp": True,
        "pp_disables_breakable": False,
        "breakable_rules": ["MLA attention", "LoRA"],
        "multimodal_piecewise": False,
        "tc_piecewise_rules": [],
        "decode_reserve_unguarded": False,
        "trtllm_mla_prefill_off": False,
        "prefill_default": None,  # no model_executor/cuda_graph_config.py, no ServerArgs
        "prefill_graph_flag": "disable_piecewise_cuda_graph",
        "piecewise_disabled_archs": None,
        "speculative_reserve": None,
        "prefill_clamps": {"total_tokens": False, "llama2": None},
        "decode_appends_max_bs": False,
        "prefill_ranges": None,
        "decode_ranges": None,
    }
    digest = base["shape"]["handle_gpu_memory_settings"]
    assert base["shape"]["disable_breakable_cudagraph_if_incompatible"] is not None
    assert digest is not None and base["shape"]["reserve_for_graph_mb"] is None
    # wording (docstring, log message) and the numbers read leave the digest alone ...
    reworded = HOOK.replace('"""Docstring."""', '"""Other."""').replace("tiers done", "done")
    renumbered = HOOK.replace("decode.max_bs = 256", "decode.max_bs = 128").replace(
        "prefill.max_bs = 2048", "prefill.max_bs = min(8192, cfg.chunked_prefill_size)"
    )
    assert _read(tmp_path, reworded)["shape"]["handle_gpu_memory_settings"] == digest
    other = _read(tmp_path, renumbered)
    assert other["shape"]["handle_gpu_memory_settings"] == digest
    assert other["memory"]["tiers"][1] == [92160, 8192, 128, 512]
    assert other["memory"]["mla_prefill"] == {"cap": 8192}
    # ... a number not read (the activation factor) changes it
    changed = _read(tmp_path, HOOK.replace("* 1.5", "* 2.0"))
    assert changed["shape"]["handle_gpu_memory_settings"] != digest


@pytest.mark.skipif(not WHEELS.is_dir(), reason="no SGLang wheels in .cache/sglang-wheels")
def test_regenerating_two_releases_reproduces_their_stored_readings():
    from gen_sglang_gpu_resolution import read_release
    from gen_sglang_schema import CACHE, wheel_path

    from speclint.sglang.gpu_resolution import _reading

    for version in (
        "0.5.3",
        "0.5.4",
        "0.5.9",
        "0.5.11",
        "0.5.13.post1",
        "0.5.14",
        "0.5.17",
        "0.5.18",
        "0.5.21",
    ):
        if not list(Path(CACHE).glob(f"sglang-{version}-*.whl")):
            pytest.skip(f"no wheel of {version} cached")
        for name, reading in read_release(wheel_path(version, CACHE)):
            assert _reading(version, name) == reading, (version, name)


TRANSPORT = """
def _handle_multimodal_feature_transport(self):
    requested_transport = self.mm_feature_transport
    legacy_ipc_is_set = envs.SGLANG_USE_CUDA_IPC_TRANSPORT.is_set()
    if requested_transport is None:
        if legacy_ipc_is_set:
            requested_transport = "cuda_ipc"
        elif self.encoder_only:
            requested_transport = "cpu"
        elif is_cuda() and self.nnodes == 1 and self.disaggregation_mode == "null":
            requested_transport = "cuda_ipc"
            logger.info("auto-resolved to cuda_ipc")
        else:
            requested_transport = "cpu"
    self.mm_feature_transport = requested_transport
"""


def test_the_generator_reads_the_feature_transport_default_on_one_node_and_several(tmp_path):
    read = _read(tmp_path, TRANSPORT)["defaults"]["mm_feature_transport"]
    assert read == {
        "text": "cuda_ipc",
        "multimodal": "cuda_ipc",
        "text_nodes": "cpu",
        "multimodal_nodes": "cpu",
    }
    # a test outside what the reader knows leaves that case unread (None), the others read
    mnnvl = TRANSPORT.replace(
        '        else:\n            requested_transport = "cpu"',
        '        elif is_mnnvl_fabric_device():\n            requested_transport = "cuda_vmm"\n'
        '        else:\n            requested_transport = "cpu"',
    )
    partly = _read(tmp_path, mnnvl)["defaults"]["mm_feature_transport"]
    assert partly == {
        "text": "cuda_ipc",
        "multimodal": "cuda_ipc",
        "text_nodes": None,
        "multimodal_nodes": None,
    }
    # a release without the function has no reading
    assert "defaults" not in _read(tmp_path, HOOK)


PIECEWISE = """
class ServerArgs:
    disable_piecewise_cuda_graph: bool = False

    def _handle_piecewise_cuda_graph(self):
        if self.enforce_piecewise_cuda_graph:
            self.disable_piecewise_cuda_graph = False
            return
        if self.enable_dp_attention:
            self.disable_piecewise_cuda_graph = True
        if self.pp_size > 1:
            self.disable_piecewise_cuda_graph = True

    def _handle_gpu_memory_settings(self, gpu_mem):
        if self.mem_fraction_static is None:
            reserved_mem = 512
            reserved_mem += self.cuda_graph_max_bs * 2
            if self.speculative_algorithm is not None:
                if self.speculative_algorithm == "STANDALONE":
                    reserved_mem += 6 * 1024
                elif self.speculative_algorithm != "NGRAM":
                    reserved_mem += 4 * 1024
"""


def test_the_generator_reads_the_piecewise_flag_and_the_draft_reserve_before_cuda_graph_config():
    import ast

    from sglang_piecewise_flag import piecewise_default, piecewise_rules, speculative_reserve

    tree = ast.parse(PIECEWISE)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert piecewise_default([tree]) == "tc_piecewise"
    assert piecewise_default([ast.parse(PIECEWISE.replace("bool = False", "bool = True"))]) == "disabled"
    # the conditions that set the flag, as written; the enforce branch clears it: not a rule
    assert piecewise_rules(functions["_handle_piecewise_cuda_graph"]) == [
        "self.enable_dp_attention",
        "self.pp_size > 1",
    ]
    memory = functions["_handle_gpu_memory_settings"]
    assert speculative_reserve(memory) == {"STANDALONE": 6144, "NGRAM": 0, "other": 4096}
    from sglang_prefill_graphs import decode_reserve_unguarded

    assert decode_reserve_unguarded(memory)  # `self.cuda_graph_max_bs * 2`, no backend test
