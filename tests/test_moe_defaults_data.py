"""The stored MoE defaults (src/speclint/sglang/data/sglang_moe_defaults.json) are what
tools/gen_sglang_moe_defaults.py reads from each release's wheel; its reading rules are checked
on a wheel written here, and, where the wheels are cached, on the releases themselves."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest

from speclint.sglang.flags.schema import supported_versions
from speclint.sglang.moe_defaults import (
    chunk_defaults,
    flashinfer_cutlass,
    sm100_adopts_checkpoint_quantization,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.path.join(ROOT, "tools"))
WHEELS = ROOT / ".cache" / "sglang-wheels"


def test_every_release_the_flags_cover_was_read():
    from speclint.sglang.moe_readings import FILE

    assert list(FILE.versions()) == list(supported_versions())


def test_the_default_chunked_prefill_by_gpu_memory():
    old, new = chunk_defaults("0.5.14"), chunk_defaults("0.5.23")
    assert old is not None and new is not None
    # an RTX 5090 (32607 MiB): 2048 up to 0.5.19, 4096 from 0.5.20
    assert (old.for_memory(32607), new.for_memory(32607)) == (2048, 4096)
    assert [new.for_memory(m) for m in (46068, 81559, 143771, 183359)] == [4096, 8192, 8192, 16384]
    assert new.where == "sglang/srt/arg_groups/memory_hook.py:handle_gpu_memory_settings"
    assert chunk_defaults("0.5.2") is None  # not read: the checks say nothing


def test_the_flashinfer_cutlass_asserts_and_the_blackwell_quantization():
    assert flashinfer_cutlass("0.5.5.post3") is None  # its assert is `== "modelopt_fp4"` (refusals_moe.py)
    facts = flashinfer_cutlass("0.5.23")
    assert facts is not None
    assert facts.quantizations == ("modelopt_fp4", "modelopt_fp8", "modelopt_mixed", None)
    assert facts.ep_message == "The expert parallel size must be 1 or the same as the tensor parallel size"
    # 0.5.4 sets fp8 only for the auto runner; 0.5.5+ take the checkpoint's on SM100
    assert [sm100_adopts_checkpoint_quantization(v) for v in ("0.5.4.post3", "0.5.5", "0.5.23")] == [
        False,
        True,
        True,
    ]


MEMORY = """
class ServerArgs:
    def _handle_gpu_memory_settings(self, gpu_mem):
        if gpu_mem is not None:
            if gpu_mem < 20 * 1024:
                if self.chunked_prefill_size is None:
                    self.chunked_prefill_size = 2048
            elif is_npu() and gpu_mem < 32 * 1024:
                self.chunked_prefill_size = 32768
            elif gpu_mem < 90 * 1024:
                self.chunked_prefill_size = 8192
            else:
                self.chunked_prefill_size = 16384
        else:
            self.chunked_prefill_size = 4096

    def _handle_moe_kernel_config(self):
        if self.moe_runner_backend == "flashinfer_cutlass":
            assert self.quantization in ["modelopt_fp4", None], f"Invalid quantization '{self.quantization}'."
            assert self.ep_size in [1, self.tp_size], "ep must be 1 or tp"

    def _handle_model_specific_adjustments(self):
        if model_arch in ["DeepseekV3ForCausalLM"]:
            if is_sm100_supported():
                if self.moe_runner_backend == "auto":
                    self.quantization = quant_method
"""


def test_the_generator_reads_the_tiers_the_asserts_and_skips_runner_only_adoption(tmp_path):
    from gen_sglang_moe_defaults import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/server_args.py", MEMORY)
    assert dict(read_release(str(wheel))) == {
        "chunk_defaults": {
            "tiers": [[20480, 2048], [92160, 8192], [None, 16384]],
            "no_gpu": 4096,
            "where": "sglang/srt/server_args.py:_handle_gpu_memory_settings",
        },
        "flashinfer_cutlass": {
            "quantizations": ["modelopt_fp4", None],
            "message": "Invalid quantization '{quantization}'.",
            "ep_message": "ep must be 1 or tp",
        },
        # the function holding that branch: the frame the runner asserts raise from
        "moe_kernel_handler": "_handle_moe_kernel_config",
        "sm100_adopts_checkpoint_quantization": False,
        "moe_runner_quantization": {
            "flashinfer_cutlass": {
                "quantizations": ["modelopt_fp4", None],
                "message": "Invalid quantization '{quantization}'.",
                "alternative": None,
            }
        },
        # the runner-only adoption still sets the quantization, for DeepSeek-V3 on SM100
        "quantization_adopters": [
            {"architectures": ["DeepseekV3ForCausalLM"], "gpu_gated": True, "unset_guarded": False}
        ],
    }


@pytest.mark.skipif(not WHEELS.is_dir(), reason="no SGLang wheels in .cache/sglang-wheels")
def test_regenerating_two_releases_reproduces_their_stored_readings():
    from gen_sglang_moe_defaults import read_release
    from gen_sglang_schema import CACHE, wheel_path

    from speclint.sglang.moe_readings import reading as _reading

    for version in ("0.5.9", "0.5.23"):
        if not list(Path(CACHE).glob(f"sglang-{version}-*.whl")):
            pytest.skip(f"no wheel of {version} cached")
        for name, reading in read_release(wheel_path(version, CACHE)):
            assert _reading(version, name) == reading, (version, name)


NVFP4_ONLINE = """
@register_post_process
def _moe_runner_backend_quant_constraints(view):
    if view.quantization == "nvfp4_online":
        if not get_platform().is_sm100:
            raise ValueError(
                "--quantization nvfp4_online is supported only on "
                "NVIDIA Blackwell SM100/SM103 GPUs."
            )
    if view.quantization == "mxfp8" and not get_platform().is_npu:
        if not ready:
            raise ValueError("not an SM100 test")
"""


def test_the_generator_reads_the_quantizations_refused_off_sm100(tmp_path):
    from gen_sglang_moe_defaults import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/arg_groups/overrides.py", NVFP4_ONLINE)
    assert dict(read_release(str(wheel)))["sm100_only_quantization"] == {
        "nvfp4_online": {
            "message": "--quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs.",
            "where": "sglang/srt/arg_groups/overrides.py:_moe_runner_backend_quant_constraints",
        }
    }


def test_the_stored_quantizations_refused_off_sm100():
    from speclint.sglang.moe_defaults import sm100_only_quantization

    assert sm100_only_quantization("0.5.13") == {}
    message = "--quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs."
    assert sm100_only_quantization("0.5.14") == {"nvfp4_online": (message, "_handle_moe_kernel_config")}
    assert sm100_only_quantization("0.5.23") == {
        "nvfp4_online": (message, "_moe_runner_backend_quant_constraints")
    }


FAMILY = """
_FAMILY = frozenset({"AlphaForCausalLM", "BetaForConditionalGeneration"})


@_register_for("AlphaForCausalLM", "BetaForConditionalGeneration")
def _deepseek_family_overrides(server_args, hf_config):
    return {}


def _deepseek_moe_quant_resolution(view):
    model_arch = hf_config.architectures[0]
    if model_arch not in _FAMILY:
        return {}
    is_int4 = (
        quant_method == "compressed-tensors"
        and weights_cfg.get("num_bits") == 4
        and weights_cfg.get("type") == "int"
    )
    if quantization is None:
        if quant_method is None and model_arch in ["AlphaForCausalLM"]:
            pass
    if (
        view.moe_a2a_backend == "none"
        and not model_arch.startswith("Gamma")
        and (quantization in ["fp8"] or is_int4 or quantization is None)
    ):
        overrides["moe_runner_backend"] = "flashinfer_trtllm"


def _handle_moe_kernel_config(server_args):
    if view.moe_runner_backend in ["flashinfer_trtllm", "experimental_sgl_trtllm"]:
        assert view.quantization in ["fp8", None], f"Invalid quantization '{view.quantization}'."
"""
DSA = """
def is_deepseek_dsa(config) -> bool:
    return _hf_arch(config) in ("AlphaForCausalLM",) and _hf_attr(config, "index_topk") is not None
"""


def test_the_generator_reads_the_deepseek_family_and_the_flashinfer_trtllm_assert(tmp_path):
    from gen_sglang_moe_defaults import read_release

    wheel = tmp_path / "sglang-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sglang/srt/arg_groups/overrides.py", FAMILY)
        archive.writestr("sglang/srt/configs/model_config.py", DSA)
    readings = dict(read_release(str(wheel)))
    assert readings["flashinfer_trtllm"] == {
        "quantizations": ["fp8", None],
        "message": "Invalid quantization '{quantization}'.",
    }
    assert readings["deepseek_family"] == {
        "attention": ["AlphaForCausalLM", "BetaForConditionalGeneration"],
        "moe": ["AlphaForCausalLM", "BetaForConditionalGeneration"],
        "fp8_probe": ["AlphaForCausalLM"],
        "runner_quantizations": ["fp8"],
        "runner_none": True,
        "runner_excluded_prefixes": ["Gamma"],
        "int4_checkpoint": {"quant_method": "compressed-tensors", "num_bits": 4, "type": "int"},
        "dsa": {"architectures": ["AlphaForCausalLM"], "attribute": "index_topk"},
    }
