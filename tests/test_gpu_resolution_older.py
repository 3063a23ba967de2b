"""The GPU-dependent resolution of 0.5.7-0.5.9 (`speclint explain --gpu`), and, before
`cuda_graph_config` (0.5.13.post1 and older), the prefill CUDA-graph values under the release's
own `ServerArgs` names. Expected values are the releases' own, recorded on a fake H100 or B200
by tools/oracle (tests/data/oracle/<release>.json.gz; test_oracle_recordings.py compares every
launch); the rest are read from the wheels by tools/gen_sglang_gpu_resolution.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from explain_runs import explain_lines

from speclint.sglang.gpu_resolution import gpu_logic

LLAMA = "fixtures/models/llama-3.1-8b-instruct"
DSV3 = "fixtures/models/deepseek-v3"
PREFILL = ("cuda_graph_backend_prefill", "cuda_graph_max_bs_prefill", "cuda_graph_bs_prefill")


def explain_on(tmp_path: Path, version: str, gpu: str, arguments: str, model: str = LLAMA) -> dict:
    [found] = explain_lines(
        tmp_path, version, [f"python -m sglang.launch_server --model-path {model} {arguments}"], gpu
    )
    return found


@pytest.mark.parametrize("version", ["0.5.7", "0.5.8", "0.5.8.post1", "0.5.9"])
def test_llama_on_an_h100_and_a_b200_gets_the_recorded_values(tmp_path, version):
    # recorded (each release, Llama-3.1-8B with no flags): the same memory tiers as 0.5.10,
    # but no piecewise graphs by default (--enable-piecewise-cuda-graph), so 0.835 / 0.857
    h100 = explain_on(tmp_path, version, "h100", "")
    eff = h100["effective"]
    assert (eff["chunked_prefill_size"], eff["mem_fraction_static"]) == (8192, 0.835)
    assert (eff["cuda_graph_max_bs"], eff["cuda_graph_bs"][-2:]) == (256, [248, 256])
    assert (eff["attention_backend"], eff["page_size"]) == ("fa3", 1)
    assert (eff["enable_piecewise_cuda_graph"], eff["piecewise_cuda_graph_max_tokens"]) == (False, 8192)
    assert not [name for name in PREFILL if name in eff or name in h100["unknown"]]
    b200 = explain_on(tmp_path, version, "b200", "")["effective"]
    assert (b200["chunked_prefill_size"], b200["mem_fraction_static"], b200["cuda_graph_max_bs"]) == (
        16384,
        0.857,
        512,
    )
    assert (b200["attention_backend"], b200["page_size"]) == ("trtllm_mha", 64)
    assert b200["piecewise_cuda_graph_max_tokens"] == 16384


@pytest.mark.parametrize("version", ["0.5.4.post1", "0.5.5", "0.5.6.post2", "0.5.7", "0.5.8.post1", "0.5.9"])
def test_a_draft_reserves_what_the_release_reads(tmp_path, version):
    # recorded (H100): STANDALONE reserves 6 GiB (0.76); EAGLE's 2 GiB is 0.5.9's (4 GiB in 0.5.10)
    draft = "--speculative-algorithm STANDALONE --speculative-draft-model-path fixtures/models/qwen3-8b"
    assert explain_on(tmp_path, version, "h100", draft)["effective"]["mem_fraction_static"] == 0.76
    assert dict(gpu_logic(version).speculative_reserve) == {"STANDALONE": 6144, "NGRAM": 0, "other": 2048}


@pytest.mark.parametrize(
    ("version", "b200_backend"),
    [
        ("0.5.4.post2", "flashinfer"),
        ("0.5.5", "flashinfer"),
        ("0.5.6", "flashinfer"),
        ("0.5.6.post2", "trtllm_mha"),
    ],
)
def test_0_5_4_post1_to_0_5_6_post2_get_the_recorded_values(tmp_path, version, b200_backend):
    # recorded (each release, Llama-3.1-8B with no flags): the same tiers; the piecewise size is
    # ServerArgs' 4096 (`piecewise_cuda_graph_max_tokens: int = 4096`), not set by the memory
    # settings; on a B200 0.5.6.post1+ picks trtllm_mha (page 64), before flashinfer
    h100 = explain_on(tmp_path, version, "h100", "")
    eff = h100["effective"]
    assert (eff["chunked_prefill_size"], eff["mem_fraction_static"], eff["cuda_graph_max_bs"]) == (
        8192,
        0.835,
        256,
    )
    assert (eff["attention_backend"], eff["enable_piecewise_cuda_graph"]) == ("fa3", False)
    assert (eff["piecewise_cuda_graph_max_tokens"], len(eff["piecewise_cuda_graph_tokens"])) == (4096, 58)
    assert "piecewise_cuda_graph_max_tokens" not in [a["field"] for a in h100["adjustments"]]  # a default
    b200 = explain_on(tmp_path, version, "b200", "")["effective"]
    assert (b200["chunked_prefill_size"], b200["mem_fraction_static"], b200["attention_backend"]) == (
        16384,
        0.857,
        b200_backend,
    )
    assert b200["page_size"] == (64 if b200_backend == "trtllm_mha" else 1)


def test_the_decode_batch_sizes_with_a_draft_are_each_releases_own(tmp_path):
    # recorded (H100, STANDALONE): 0.5.4.post1 captures 40-60 by 4 (`range(40, 64, 4)`), 0.5.5 up to 64
    draft = "--speculative-algorithm STANDALONE --speculative-draft-model-path fixtures/models/qwen3-8b"
    old = explain_on(tmp_path, "0.5.4.post1", "h100", draft)["effective"]["cuda_graph_bs"]
    new = explain_on(tmp_path, "0.5.5", "h100", draft)["effective"]["cuda_graph_bs"]
    assert [b for b in old if 36 < b < 80] == [40, 44, 48, 52, 56, 60, 72]
    assert [b for b in new if 36 < b < 80] == [40, 44, 48, 52, 56, 60, 64, 72]


def test_the_piecewise_token_counts_and_the_mla_size_are_each_releases_own(tmp_path):
    # recorded (H100): 0.5.9 captures 576 tokens, 0.5.8.post1 goes from 512 to 640 (74 / 57
    # counts up to 8192); 0.5.7 (640-4096 by 128) sizes DeepSeek-V3's graphs to the chunked
    # prefill size, 0.5.8+ to 2048
    new = explain_on(tmp_path, "0.5.9", "h100", "")["effective"]["piecewise_cuda_graph_tokens"]
    old = explain_on(tmp_path, "0.5.8.post1", "h100", "")["effective"]["piecewise_cuda_graph_tokens"]
    assert ([t for t in new if 500 < t < 700], len(new)) == ([512, 576, 640], 58)
    assert ([t for t in old if 500 < t < 700], len(old)) == ([512, 640], 57)
    oldest = explain_on(tmp_path, "0.5.7", "h100", "")["effective"]["piecewise_cuda_graph_tokens"]
    assert (len(oldest), oldest[-2:], 576 in oldest, [t for t in oldest if 4000 < t < 4500]) == (
        74,
        [7936, 8192],
        False,
        [4096, 4352],
    )
    dsv3 = explain_on(tmp_path, "0.5.7", "h100", "--tp-size 8", DSV3)["effective"]
    assert (dsv3["piecewise_cuda_graph_max_tokens"], dsv3["mem_fraction_static"]) == (8192, 0.818)
    later = explain_on(tmp_path, "0.5.8", "h100", "--tp-size 8", DSV3)["effective"]
    assert later["piecewise_cuda_graph_max_tokens"] == 2048


def test_0_5_9_turns_allreduce_fusion_on_without_tensor_parallelism_and_keeps_the_draft_off_trtllm(tmp_path):
    # recorded (0.5.9, B200): DeepSeek-V3 with no --tp-size gets FlashInfer all-reduce fusion
    # (no `self.tp_size > 1` condition before 0.5.10) and its EAGLE draft the "auto" MoE runner
    # (`"auto" if self.moe_runner_backend == "flashinfer_trtllm" else ...`)
    plain = explain_on(tmp_path, "0.5.9", "b200", "", DSV3)["effective"]
    assert (plain["enable_flashinfer_allreduce_fusion"], plain["attention_backend"]) == (True, "trtllm_mla")
    assert (plain["mem_fraction_static"], plain["piecewise_cuda_graph_max_tokens"]) == (0.857, 2048)
    eagle = explain_on(
        tmp_path, "0.5.9", "b200", "--tensor-parallel-size 2 --speculative-algorithm EAGLE", DSV3
    )
    assert eagle["effective"]["speculative_moe_runner_backend"] == "auto"
    newer = explain_on(tmp_path, "0.5.10.post1", "h100", "", DSV3)["effective"]
    assert newer["enable_flashinfer_allreduce_fusion"] is False  # `self.tp_size > 1` (read)


def test_allreduce_fusion_stays_off_on_an_h20_where_the_release_says_so(tmp_path):
    # read (0.5.10.post1 `_handle_model_specific_adjustments`): `not is_h20_device`; 0.5.13.post1
    # has no such condition. 0.5.7's `is_blackwell_supported()` is not modelled: unknown
    args = "--tp-size 8"
    assert explain_on(tmp_path, "0.5.10.post1", "h100", args, DSV3)["effective"][
        "enable_flashinfer_allreduce_fusion"
    ]
    h20 = explain_on(tmp_path, "0.5.10.post1", "h20", args, DSV3)["effective"]
    assert h20["enable_flashinfer_allreduce_fusion"] is False
    assert explain_on(tmp_path, "0.5.13.post1", "h20", args, DSV3)["effective"][
        "enable_flashinfer_allreduce_fusion"
    ]
    oldest = explain_on(tmp_path, "0.5.7", "h100", args, DSV3)
    assert oldest["unknown"]["enable_flashinfer_allreduce_fusion"] == (
        "SGLang 0.5.7's condition `is_sm90_supported() or is_blackwell_supported()` is not modelled"
    )


def test_before_cuda_graph_config_the_prefill_graphs_are_stated_under_the_releases_names(tmp_path):
    # recorded (0.5.10.post1, B200): DeepSeek-V3's flashinfer_trtllm MoE runner turns the
    # piecewise graphs off after the memory settings (`_handle_moe_kernel_config`): 0.849 with
    # their reserve; on an H100 they stay on
    b200 = explain_on(tmp_path, "0.5.10.post1", "b200", "", DSV3)
    eff = b200["effective"]
    assert (eff["disable_piecewise_cuda_graph"], eff["mem_fraction_static"]) == (True, 0.849)
    assert (eff["moe_runner_backend"], eff["piecewise_cuda_graph_max_tokens"]) == ("flashinfer_trtllm", 2048)
    assert not [name for name in PREFILL if name in eff or name in b200["unknown"]]
    changed = [a for a in b200["adjustments"] if a["field"] == "piecewise_cuda_graph_max_tokens"]
    assert changed and changed[-1]["to"] == 2048
    [*_, off] = [a for a in b200["adjustments"] if a["field"] == "disable_piecewise_cuda_graph"]
    assert (off["to"], off["sglang_handler"]) == (True, "_handle_moe_kernel_config")
    assert "moe_runner_backend in ('flashinfer_trtllm', 'flashinfer_mxfp4')" in off["reason"]
    assert (
        explain_on(tmp_path, "0.5.10.post1", "h100", "", DSV3)["effective"]["disable_piecewise_cuda_graph"]
        is False
    )
    # 0.5.14+: `cuda_graph_config`, speclint's names for its parts
    assert (
        explain_on(tmp_path, "0.5.14", "h100", "")["effective"]["cuda_graph_backend_prefill"]
        == "tc_piecewise"
    )


def test_the_prefill_names_of_0_5_4_are_stated_and_0_4_0_has_none(tmp_path):
    # 0.5.4's GPU logic is 0.5.4.post1's but the backend pick (checked against its recording):
    # its own prefill names, stated
    launch = explain_on(tmp_path, "0.5.4", "h100", "--tp-size 8")
    eff = launch["effective"]
    assert (eff["enable_piecewise_cuda_graph"], eff["piecewise_cuda_graph_max_tokens"]) == (False, 4096)
    assert eff["piecewise_cuda_graph_tokens"][-2:] == [3968, 4096]
    assert not [name for name in PREFILL if name in launch["effective"] or name in launch["unknown"]]
    # 0.4.0 has no prefill CUDA graphs (no such ServerArgs field): none is stated
    oldest = explain_on(tmp_path, "0.4.0", "h100", "--tp-size 8")
    assert not [name for name in PREFILL if name in oldest["effective"] or name in oldest["unknown"]]
    assert oldest["unknown"]["cuda_graph_max_bs"] == "GPU-dependent resolution is unverified for SGLang 0.4.0"


def test_a_given_max_total_tokens_caps_the_piecewise_graphs_from_0_5_10_only(tmp_path):
    # read: `if self.max_total_tokens is not None: ... = min(..., self.max_total_tokens)` is in
    # 0.5.10's `_handle_gpu_memory_settings`, not in 0.5.9's
    args = "--max-total-tokens 4096"
    assert explain_on(tmp_path, "0.5.9", "h100", args)["effective"]["piecewise_cuda_graph_max_tokens"] == 8192
    newer = explain_on(tmp_path, "0.5.10.post1", "h100", args)["effective"]
    assert newer["piecewise_cuda_graph_max_tokens"] == 4096


OLD_ARGS = """
class ServerArgs:
    enable_piecewise_cuda_graph: bool = False

    def _handle_gpu_memory_settings(self, gpu_mem):
        if self.piecewise_cuda_graph_max_tokens is None:
            if not self.use_mla_backend():
                self.piecewise_cuda_graph_max_tokens = self.chunked_prefill_size
            else:
                self.piecewise_cuda_graph_max_tokens = 2048
            if self.max_total_tokens is not None:
                self.piecewise_cuda_graph_max_tokens = min(self.piecewise_cuda_graph_max_tokens, self.max_total_tokens)
        if self.piecewise_cuda_graph_tokens is None:
            self.piecewise_cuda_graph_tokens = self._generate_piecewise_cuda_graph_tokens()

    def _generate_piecewise_cuda_graph_tokens(self):
        capture_sizes = list(range(4, 33, 4)) + list(range(576, 1024 + 1, 64)) + list(
            range(4608, self.piecewise_cuda_graph_max_tokens + 1, 512)
        )
        return [s for s in capture_sizes if s <= self.piecewise_cuda_graph_max_tokens]

    def _generate_cuda_graph_batch_sizes(self):
        capture_bs = [1, 2, 4]
        if self.cuda_graph_max_bs not in capture_bs:
            capture_bs.append(self.cuda_graph_max_bs)
        return capture_bs

    def _handle_model_specific_adjustments(self):
        is_h20_device = device_name and "H20" in device_name and "H200" not in device_name
        if (
            not self.enable_flashinfer_allreduce_fusion
            and model_arch in ["DeepseekV3ForCausalLM", "GptOssForCausalLM"]
            and self.tp_size > 1
            and not is_h20_device
        ):
            self.enable_flashinfer_allreduce_fusion = True

    def _handle_moe_kernel_config(self):
        if not self.enable_mis:
            return
        self.disable_piecewise_cuda_graph = True

    def _handle_speculative_decoding(self):
        if self.speculative_moe_runner_backend is None:
            self.speculative_moe_runner_backend = (
                "auto" if self.moe_runner_backend == "flashinfer_trtllm" else self.moe_runner_backend
            )
"""


def test_the_generator_reads_the_older_forms_on_a_written_wheel(tmp_path):
    import ast
    import os
    import sys

    sys.path.insert(0, os.path.join(Path(__file__).resolve().parent.parent, "tools"))
    from sglang_allreduce_fusion import allreduce_fusion
    from sglang_draft_moe import draft_moe_auto
    from sglang_graph_sizes import decode_appends_max_bs, prefill_clamps, prefill_fields, prefill_ranges
    from sglang_piecewise_flag import late_piecewise_rules, piecewise_flag

    tree = ast.parse(OLD_ARGS)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    # --enable-piecewise-cuda-graph, off by default: no prefill graphs unless given
    assert piecewise_flag([tree]) == ("enable_piecewise_cuda_graph", "disabled")
    on = ast.parse(
        OLD_ARGS.replace(
            "enable_piecewise_cuda_graph: bool = False", "enable_piecewise_cuda_graph: bool = True"
        )
    )
    assert piecewise_flag([on]) == ("enable_piecewise_cuda_graph", "tc_piecewise")
    memory = functions["_handle_gpu_memory_settings"]
    assert prefill_clamps(memory) == {"total_tokens": True, "llama2": None}
    assert prefill_fields(memory, "enable_piecewise_cuda_graph") == {
        "backend": "enable_piecewise_cuda_graph",
        "max_bs": "piecewise_cuda_graph_max_tokens",
        "bs": "piecewise_cuda_graph_tokens",
    }
    tokens = functions["_generate_piecewise_cuda_graph_tokens"]
    assert prefill_ranges(tokens) == [[4, 33, 4], [576, 1025, 64], [4608, None, 512]]
    assert decode_appends_max_bs(functions["_generate_cuda_graph_batch_sizes"])
    assert not decode_appends_max_bs(tokens)
    fusion = allreduce_fusion([tree])
    assert fusion == {
        "conditions": [
            "not self.enable_flashinfer_allreduce_fusion",
            "self.tp_size > 1",
            "not is_h20_device",
        ],
        "architectures": ["DeepseekV3ForCausalLM", "GptOssForCausalLM"],
        "is_h20_device": "device_name and 'H20' in device_name and ('H200' not in device_name)",
        "before_data_parallelism": None,  # no function here calls both handlers
    }
    # an early `return` guards what follows it: the rule is `enable_mis`
    assert late_piecewise_rules([tree]) == [
        {"function": "_handle_moe_kernel_config", "when": [{"field": "enable_mis", "in": [True]}]}
    ]
    assert draft_moe_auto([tree]) == ["flashinfer_trtllm"]


NPU_TIERS = """
def _handle_gpu_memory_settings(self, gpu_mem):
    if gpu_mem is not None:
        if gpu_mem < 20 * 1024:
            if self.chunked_prefill_size is None:
                self.chunked_prefill_size = 2048
            if self.cuda_graph_max_bs is None:
                self.cuda_graph_max_bs = 8
        elif is_npu() and gpu_mem < 32 * 1024:
            if self.chunked_prefill_size is None:
                self.chunked_prefill_size = 32768
            if self.cuda_graph_max_bs is None:
                self.cuda_graph_max_bs = 64
        else:
            if self.chunked_prefill_size is None:
                self.chunked_prefill_size = 16384
            if self.cuda_graph_max_bs is None:
                self.cuda_graph_max_bs = 512
    if self.piecewise_cuda_graph_tokens is None:
        self.piecewise_cuda_graph_tokens = self._generate_piecewise_cuda_graph_tokens()
"""


def test_the_generator_skips_npu_tiers_and_reads_a_constant_prefill_size():
    import ast
    import os
    import sys

    sys.path.insert(0, os.path.join(Path(__file__).resolve().parent.parent, "tools"))
    from sglang_graph_sizes import prefill_fields, prefill_size_field, server_args_int
    from sglang_memory_tiers import tiers

    memory = ast.parse(NPU_TIERS).body[0]
    chain = next(
        n for n in ast.walk(memory) if isinstance(n, ast.If) and ast.unparse(n.test) == "gpu_mem < 20 * 1024"
    )
    # `is_npu() and ...`: never taken on CUDA; the chain goes on past it
    assert tiers(chain) == ([[20480, 2048, 8, 8], [None, 16384, 512, 512]], None)
    tokens = ast.parse(
        OLD_ARGS.replace(
            "enable_piecewise_cuda_graph: bool = False", "piecewise_cuda_graph_max_tokens: int = 4096"
        )
    )
    generate = next(
        n
        for n in ast.walk(tokens)
        if isinstance(n, ast.FunctionDef) and n.name == "_generate_piecewise_cuda_graph_tokens"
    )
    size = prefill_size_field(generate)
    assert (size, server_args_int([tokens], size)) == ("piecewise_cuda_graph_max_tokens", 4096)
    # the memory settings set no size: the field is the one the token counts go up to
    assert prefill_fields(memory, "enable_piecewise_cuda_graph", size) == {
        "backend": "enable_piecewise_cuda_graph",
        "max_bs": "piecewise_cuda_graph_max_tokens",
        "bs": "piecewise_cuda_graph_tokens",
    }


def test_the_generator_reads_the_decode_batch_sizes_of_each_case():
    import ast
    import os
    import sys

    sys.path.insert(0, os.path.join(Path(__file__).resolve().parent.parent, "tools"))
    from sglang_graph_sizes import decode_ranges

    source = """
def _generate_cuda_graph_batch_sizes(self):
    if self.disable_cuda_graph_padding:
        capture_bs = list(range(1, self.cuda_graph_max_bs + 1))
    elif self.speculative_algorithm is None:
        capture_bs = [1, 2] + list(range(16, 257, 8)) + list(range(512, self.cuda_graph_max_bs + 1, 32))
    else:
        capture_bs = list(range(1, 9, 1)) + list(range(40, 64, 4))
    return [bs for bs in capture_bs if bs <= self.cuda_graph_max_bs]
"""
    function = ast.parse(source).body[0]
    assert decode_ranges(function) == {
        "padding": [[1, None, 1]],
        "plain": [[1, 2, 1], [2, 3, 1], [16, 257, 8], [512, None, 32]],
        "speculative": [[1, 9, 1], [40, 64, 4]],
    }
    # a case in another form: nothing read
    assert decode_ranges(ast.parse(source.replace("[1, 2] +", "sizes() +")).body[0]) is None


@pytest.mark.parametrize("version", ["0.5.3", "0.5.3.post1", "0.5.3.post2", "0.5.3.post3", "0.5.4"])
def test_0_5_4_and_its_twins_get_the_recorded_values_and_no_backend(tmp_path, version):
    # recorded (tests/data/oracle/<version>.json.gz, Llama-3.1-8B with no flags): 0.5.4.post1's
    # memory settings, but the attention backend is left to the model runner (None after
    # resolution) and the page size is 1
    h100 = explain_on(tmp_path, version, "h100", "")["effective"]
    assert (h100["chunked_prefill_size"], h100["mem_fraction_static"], h100["cuda_graph_max_bs"]) == (
        8192,
        0.835,
        256,
    )
    assert (h100["attention_backend"], h100["page_size"], h100["sampling_backend"]) == (None, 1, "flashinfer")
    b200 = explain_on(tmp_path, version, "b200", "")["effective"]
    assert (b200["chunked_prefill_size"], b200["mem_fraction_static"], b200["cuda_graph_max_bs"]) == (
        16384,
        0.857,
        512,
    )
    assert (b200["attention_backend"], b200["page_size"]) == (None, 1)
    # DeepSeek-V3 with NEXTN, TP 8 on an H100 (recorded: 8192, 0.793, 512)
    nextn = explain_on(tmp_path, version, "h100", "--speculative-algorithm NEXTN --tp-size 8", DSV3)
    eff = nextn["effective"]
    assert (eff["chunked_prefill_size"], eff["mem_fraction_static"], eff["cuda_graph_max_bs"]) == (
        8192,
        0.793,
        512,
    )


def test_0_5_4_deepseek_on_a_b200_takes_trtllm_mla_but_its_moe_defaults_are_not_modelled(tmp_path):
    # 0.5.4's DeepSeek-V3 SM100 branch takes the flashinfer_trtllm MoE runner only for
    # `self.quantization == "modelopt_fp4"` and sets no FP8 default (read:
    # gpu_resolution.deepseek_runner_quantization); the recording keeps quantization None and
    # the auto runner, which speclint does not model: unknown, with why
    launch = explain_on(tmp_path, "0.5.4", "b200", "--tp-size 8", DSV3)
    eff, unknown = launch["effective"], launch["unknown"]
    assert (eff["attention_backend"], eff["page_size"]) == ("trtllm_mla", 64)  # recorded
    why = (
        "SGLang 0.5.4's DeepSeek-V3 defaults on Blackwell (_handle_model_specific_adjustments: "
        "the flashinfer_trtllm MoE runner for modelopt_fp4 only) are not modelled"
    )
    for name in ("quantization", "moe_runner_backend", "chunked_prefill_size", "mem_fraction_static"):
        assert unknown[name] == why, name
    # 0.5.4.post1 sets both (recorded): modelled
    later = explain_on(tmp_path, "0.5.4.post1", "b200", "--tp-size 8", DSV3)["effective"]
    assert (later["quantization"], later["moe_runner_backend"]) == ("fp8", "flashinfer_trtllm")


def test_0_5_4_reads_its_own_small_gpu_tier(tmp_path):
    # `elif gpu_mem < 35 * 1024:` sets cuda_graph_max_bs 16 for tp < 4 in 0.5.4, 24 in
    # 0.5.4.post1 (each read from its wheel; a 32 GiB RTX 5090)
    assert explain_on(tmp_path, "0.5.4", "rtx5090", "")["effective"]["cuda_graph_max_bs"] == 16
    assert explain_on(tmp_path, "0.5.4.post1", "rtx5090", "")["effective"]["cuda_graph_max_bs"] == 24
    assert gpu_logic("0.5.4").release == "0.5.4" and gpu_logic("0.5.3.post2").release == "0.5.4"


def test_the_generator_reads_the_deepseek_runner_quantization():
    import ast
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from gen_sglang_gpu_resolution import deepseek_runner_quantization

    def read(test: str) -> str | None:
        source = (
            "class ServerArgs:\n    def _handle_model_specific_adjustments(self):\n"
            f"        if {test}:\n            self.moe_runner_backend = 'flashinfer_trtllm'\n"
        )
        return deepseek_runner_quantization([ast.parse(source)])

    assert read("self.quantization == 'modelopt_fp4' and self.moe_runner_backend == 'auto'") == "modelopt_fp4"
    assert read("self.moe_runner_backend == 'auto'") is None
    assert read("self.moe_runner_backend == 'auto' and (self.quantization in ['fp8'])") is None


def test_the_model_config_made_again_is_digested_as_the_one_made_once(tmp_path):
    # 0.5.4 writes `from ...model_config import ModelConfig; model_config =
    # ModelConfig.from_server_args(self)` where 0.5.4.post1 writes `model_config =
    # self.get_model_config()`: the same digest, the rest of the function compared as written
    import zipfile

    from regenerated import use_tools

    use_tools()
    from gen_sglang_gpu_resolution import read_release

    def shape(body: str) -> str:
        source = "class ServerArgs:\n    def _handle_gpu_memory_settings(self, gpu_mem):\n" + "".join(
            f"        {line}\n" for line in body.splitlines()
        )
        wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr("sglang/srt/server_args.py", source)
        return str(dict(read_release(str(wheel)))["shape"]["handle_gpu_memory_settings"])

    again = shape(
        "from sglang.srt.configs.model_config import ModelConfig\n"
        "model_config = ModelConfig.from_server_args(self)\nreturn model_config.is_multimodal"
    )
    once = shape("model_config = self.get_model_config()\nreturn model_config.is_multimodal")
    assert again == once
    assert shape("model_config = self.get_hf_config()\nreturn model_config.is_multimodal") != once


def test_0_5_3_has_no_prefill_cuda_graphs_to_state(tmp_path):
    # 0.5.3-0.5.3.post1: 0.5.4's memory settings without `piecewise_cuda_graph_tokens` (read:
    # no piecewise flag, size or token counts: `prefill_graph_flag` "none"), no such fields, and
    # no DeepSeek-V3 adjustment on SM100 (recorded: `deepseek_blackwell_mla` false)
    logic = gpu_logic("0.5.3")
    assert logic is not None and (logic.prefill_graph_flag, logic.prefill_default, logic.prefill_ranges) == (
        "none",
        "disabled",
        (),
    )
    launch = explain_on(tmp_path, "0.5.3", "b200", "--tp-size 8", DSV3)
    eff = launch["effective"]
    assert not [n for n in launch["effective"] if "piecewise" in n or n.endswith("_prefill")]
    # recorded: no backend picked (None), page 1, no quantization or MoE runner set
    assert (eff["attention_backend"], eff["page_size"], eff["chunked_prefill_size"]) == (None, 1, 16384)
    assert "quantization" not in launch["unknown"] and "moe_runner_backend" not in launch["unknown"]
