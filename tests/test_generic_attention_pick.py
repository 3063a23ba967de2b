"""The attention backend a release picks when none is given, for a target whose architecture the
release does not tell apart (refusals3). Expected outcomes are the releases' own:
tools/oracle record_release.py on a fake H100 and B200 refused and accepted exactly these
launches (0.5.8.post1: Kimi-K2.5 gets fa3 on the H100 and trtllm_mha on the B200, as an MHA
model; 0.5.10-0.5.12.post1 (refusals4: seeds wide-14002, wide-14004, moe-14003), 0.5.13.post1
and 0.5.17: trtllm_mla with 64-token pages on the B200, fa3 on the H100).

From 0.5.8 the pick (`_handle_attention_backend_compatibility`) consults no architecture list
(0.5.6-0.5.7 call `is_fa3_default_architecture`), only `use_mla_backend()`; an architecture no
comparison of the release's resolution names gets the pick of its attention kind
(`generic_attention_pick`, read by tools/sglang_attention_arch.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from test_refusal_checks import LAUNCH, accepted, errors, refusal

from speclint.sglang.model_config_facts import generic_attention_pick

ROOT = Path(__file__).resolve().parent.parent
KIMI = LAUNCH + "fixtures/models/kimi-k2.5"
NGRAM = KIMI + " --speculative-algorithm NGRAM --tp-size 4"
UNSTABLE = (
    "speculative_eagle_topk(10) > 1 with page_size({page}) > 1 is unstable and produces incorrect "
    "results for paged attention backends. This combination is only supported for the 'flashinfer' "
    "backend. (no --attention-backend: SGLang {version} picks {backend} on {gpu})"
)
H100, B200 = "NVIDIA H100 80GB HBM3", "NVIDIA B200"


def _spd014(version: str, command: str, token: str, gpu: str, says: str) -> None:
    [(code, column, message)] = errors(version, command, gpu)
    assert (code, column) == ("SPD014", command.index(token) + 1), message
    assert message == f"SGLang {version} refuses this launch: {says}", message


def test_ngram_on_kimi_k2_5_on_a_b200_is_refused_on_the_trtllm_mla_pages():
    """NGRAM's topk is --speculative-ngram-max-bfs-breadth (10); trtllm_mla, picked for
    Kimi-K2.5 on Blackwell, sets 64-token pages, so `_handle_ngram` refuses (a given
    --page-size 1 changes nothing); flashinfer or a breadth of 1 is taken, and fa3 on Hopper
    keeps one-token pages."""
    for version in ("0.5.10", "0.5.11", "0.5.12.post1", "0.5.13.post1", "0.5.17"):
        says = UNSTABLE.format(page=64, version=version, backend="trtllm_mla", gpu=B200)
        _spd014(version, NGRAM, "NGRAM", "b200", says)
        _spd014(version, NGRAM + " --page-size 1", "NGRAM", "b200", says)
        accepted(version, NGRAM + " --attention-backend flashinfer", "b200")
        accepted(version, NGRAM + " --speculative-ngram-max-bfs-breadth 1", "b200")
        accepted(version, NGRAM, "h100")
        accepted(version, NGRAM + " --page-size 1", "h100")


def test_ngram_on_kimi_k2_5_with_given_pages_on_0_5_9():
    """0.5.9 names Kimi-K2.5 in the DeepSeek branch of `_handle_model_specific_adjustments`
    (trtllm_mla on SM100; no int4 runner test yet: read as `inline_trtllm_mla`), and picks fa3
    for it, an MLA model, on Hopper: NGRAM's topk 10 with a given --page-size 64 is refused
    there (oracle: 0.5.9 on a fake H100, seed wide-14004), one-token pages are taken."""
    command = NGRAM + " --page-size 64"
    says = UNSTABLE.format(page=64, version="0.5.9", backend="fa3", gpu=H100)
    _spd014("0.5.9", command, "64", "h100", says)
    accepted("0.5.9", NGRAM, "h100")
    says = UNSTABLE.format(page=64, version="0.5.9", backend="trtllm_mla", gpu=B200)
    _spd014("0.5.9", NGRAM, "NGRAM", "b200", says)


def test_kimi_k2_5_fp8_e5m2_kv_cache_on_a_b200_is_refused_by_trtllm_mla_from_0_5_10():
    """0.5.10-0.5.12.post1 test DSA with `is_deepseek_nsa` (0.5.10-0.5.11: `architectures[0] in
    [...]` and a local `index_topk`), which Kimi-K2.5's config fails, so it gets the DeepSeek
    branch's trtllm_mla on SM100, which refuses an fp8_e5m2 KV cache (oracle: 0.5.12.post1,
    seed moe-14003); fa3 on Hopper falls back to triton and takes it."""
    command = KIMI + " --kv-cache-dtype fp8_e5m2"
    for version in ("0.5.10", "0.5.11", "0.5.12.post1"):
        [(code, column, message)] = errors(version, command, "b200")
        assert (code, column) == ("PAR009", command.index("fp8_e5m2") + 1), message
        assert message == (
            f"SGLang {version} refuses this launch on {B200}: TensorRT-LLM MLA backend only supports "
            "kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto."
        )
        accepted(version, command, "h100")


def test_kimi_k2_5_gets_the_mha_pick_in_0_5_8_post1():
    """0.5.8.post1 gives Kimi-K2.5 MHA attention and names it in no comparison of its
    resolution: fa3 on Hopper (tree-free), trtllm_mha on Blackwell, flashinfer there for
    speculative decoding without a topk given."""
    refusal(
        "0.5.8.post1",
        KIMI + " --kv-cache-dtype fp4_e2m1",
        "--kv-cache-dtype fp4_e2m1",
        "_handle_kv4_compatibility",
        "KV4 MHA expects attention_backend to be one of ['triton', 'torch_native', 'flex_attention', "
        "'trtllm_mha'], but got fa3 (--kv-cache-dtype fp4_e2m1: SGLang 0.5.8.post1 gives "
        "KimiK25ForConditionalGeneration MHA attention; pass --attention-backend triton or "
        "torch_native or flex_attention or trtllm_mha, or another --kv-cache-dtype) "
        f"(no --attention-backend: SGLang 0.5.8.post1 picks fa3 on {H100})",
    )
    accepted("0.5.8.post1", KIMI + " --kv-cache-dtype fp4_e2m1", "b200")  # trtllm_mha takes it
    paged = KIMI + " --speculative-algorithm NGRAM --page-size 16"
    _spd014(
        "0.5.8.post1",
        paged,
        "16",
        "h100",
        UNSTABLE.format(page=16, version="0.5.8.post1", backend="fa3", gpu=H100),
    )
    accepted("0.5.8.post1", paged, "b200")  # flashinfer
    accepted("0.5.8.post1", KIMI)


def test_an_mha_architecture_is_fa3_default_architecture_does_not_list_gets_flashinfer_on_hopper():
    """0.5.4.post3-0.5.7 give fa3 on Hopper only to the MHA architectures
    `is_fa3_default_architecture` lists (read per release: `fa3_default_architectures`);
    Kimi-K2.5, MHA there and not listed, gets flashinfer, which refuses an FP4 KV cache (oracle:
    0.5.7 on a fake H100, seed moe-14005); trtllm_mha on a B200 takes it."""
    command = KIMI + " --kv-cache-dtype fp4_e2m1"
    refusal(
        "0.5.7",
        command,
        "--kv-cache-dtype fp4_e2m1",
        "_handle_kv4_compatibility",
        "KV4 MHA expects attention_backend to be one of ['triton', 'torch_native', 'flex_attention', "
        "'trtllm_mha'], but got flashinfer (--kv-cache-dtype fp4_e2m1: SGLang 0.5.7 gives "
        "KimiK25ForConditionalGeneration MHA attention; pass --attention-backend triton or "
        "torch_native or flex_attention or trtllm_mha, or another --kv-cache-dtype) "
        f"(no --attention-backend: SGLang 0.5.7 picks flashinfer on {H100})",
    )
    accepted("0.5.7", command, "b200")
    from speclint.sglang.model_config_facts import fa3_default_architectures

    listed = fa3_default_architectures("0.5.7") or ()
    assert "LlamaForCausalLM" in listed and "KimiK25ForConditionalGeneration" not in listed
    assert fa3_default_architectures("0.5.8") is None  # no list consulted from 0.5.8


def test_the_pick_is_by_kind_only_where_the_release_does_not_name_the_architecture():
    kimi = ("KimiK25ForConditionalGeneration", "kimi_k25")
    assert generic_attention_pick("0.5.8.post1", *kimi)
    assert not generic_attention_pick("0.5.9", *kimi)  # named in its resolution
    assert not generic_attention_pick("0.5.7", *kimi)  # picks by is_fa3_default_architecture
    assert not generic_attention_pick("0.5.8.post1", "LlamaForCausalLM", "llama")  # named


def test_the_dsa_test_is_read_in_both_of_its_forms():
    """`is_deepseek_nsa` with locals (0.5.10-0.5.11) and `is_deepseek_dsa` with `_hf_arch` /
    `_hf_attr` (0.5.13+) give the same reading."""
    import io
    import zipfile

    sys.path.insert(0, str(ROOT / "tools"))
    from sglang_deepseek_family import MODEL_CONFIG, read_dsa

    def read(source: str) -> object:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(MODEL_CONFIG, source)
        with zipfile.ZipFile(buffer) as archive:
            return read_dsa(archive)

    old = (
        "def is_deepseek_nsa(config):\n"
        "    architectures = config.get('architectures')\n"
        "    index_topk = getattr(config, 'index_topk', None)\n"
        "    return architectures is not None and architectures[0] in ['A', 'B'] "
        "and index_topk is not None\n"
    )
    new = (
        "def is_deepseek_dsa(config):\n"
        "    return _hf_arch(config) in ('B', 'A') and _hf_attr(config, 'index_topk') is not None\n"
    )
    assert read(old) == read(new) == {"architectures": ["A", "B"], "attribute": "index_topk"}
    assert read("def is_deepseek_nsa(config):\n    return config is not None\n") is None


def test_the_reader_reads_the_tested_strings():
    sys.path.insert(0, str(ROOT / "tools"))
    from sglang_attention_arch import read_generic_pick

    pick = "class S:\n    def _handle_attention_backend_compatibility(self):\n        pass\n"
    named = pick + "def f(a, p):\n    return a in ['FooForCausalLM'] or p.startswith('bar_')\n"
    assert read_generic_pick([named]) == {"tested": ["FooForCausalLM", "bar_"]}
    assert read_generic_pick([named + "is_fa3_default_architecture(x)\n"]) is None
    assert read_generic_pick(["x = 1\n"]) is None  # no pick read


def test_kimi_k2_5_on_an_h100_gets_flashinfer_where_the_fa3_list_does_not_name_it():
    """0.5.4.post1-0.5.7 call `is_fa3_default_architecture`, whose list does not name
    Kimi-K2.5 (MHA there, `attention_kind`): flashinfer on Hopper, also where the release's
    GPU resolution is modelled (0.5.4.post1-0.5.6.post2; was: fa3, as for an MLA model).
    Oracle: moe seeds 14005 and 15004 on a fake H100 (0.5.4.post1, 0.5.5.post2, 0.5.5.post3,
    0.5.6.post1) recorded flashinfer."""
    from speclint.engine import lint_text
    from speclint.settings.options import LintOptions
    from speclint.sglang.resolve.gpu_profiles import profile

    for version in ("0.5.4.post1", "0.5.5.post2", "0.5.5.post3", "0.5.6.post1"):
        options = LintOptions(sglang_version=version, read_pyproject=False, gpu=profile("h100"))
        for flags in (" --tp-size 8", " --tp-size 8 --moe-runner-backend deep_gemm"):
            result = lint_text(KIMI + flags + "\n", "launch.sh", options)
            resolution = result.contexts[0].resolution
            assert resolution is not None
            assert resolution.effective["attention_backend"] == "flashinfer", (version, flags)
