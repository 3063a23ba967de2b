"""The stored model-config facts (src/speclint/sglang/data/sglang_model_config.json) are what
tools/gen_sglang_model_config.py reads from each release's wheel: where ServerArgs builds the
target's ModelConfig (and so checks --quantization) and the quantization methods a CUDA GPU
registers. The reading rules are checked offline on sources written here."""

from __future__ import annotations

import os
import sys
import textwrap

from speclint.sglang.flags.schema import supported_versions
from speclint.sglang.model_config_facts import (
    _FILE,
    cuda_quantization_methods,
    verified_only_for_default_mem_fraction,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from gen_sglang_model_config import cuda_methods_reading, model_config_reading  # noqa: E402


def test_every_release_the_flags_cover_was_read():
    assert set(_FILE.versions()) == set(supported_versions())


def test_stored_readings_of_releases_checked_with_the_oracle():
    # 0.4.10 and 0.5.2 build it only for a default memory fraction; 0.5.6.post2 always
    assert verified_only_for_default_mem_fraction("0.4.10")
    assert verified_only_for_default_mem_fraction("0.5.2")
    assert not verified_only_for_default_mem_fraction("0.5.6.post2")
    assert not verified_only_for_default_mem_fraction("0.5.23")
    on_cuda = cuda_quantization_methods("0.5.23")
    assert on_cuda is not None and "gptq" not in on_cuda and "gptq_marlin" in on_cuda
    assert "gptq" in (cuda_quantization_methods("0.5.19") or ())
    assert "bitsandbytes" not in (cuda_quantization_methods("0.5.6.post2") or ("bitsandbytes",))
    assert cuda_quantization_methods("9.9.9") is None


SERVER_ARGS = """
class ServerArgs:
    def __post_init__(self):
        if self.mem_fraction_static is None:
            self.mem_fraction_static = 0.88
            model_config = ModelConfig.from_server_args(self)
        {more}

    def get_model_config(self):
        self.model_config = ModelConfig.from_server_args(self)
"""


def test_model_config_guarded_by_a_default_memory_fraction():
    assert model_config_reading(SERVER_ARGS.format(more="pass")) == "default_mem_fraction"
    unguarded = SERVER_ARGS.format(more="use = self.get_model_config()")
    assert model_config_reading(unguarded) == "unguarded"
    assert model_config_reading("class ServerArgs:\n    def f(self):\n        pass\n") == "none"


def test_cuda_registry_evaluates_platform_tests():
    source = textwrap.dedent(
        """
        _is_cuda = is_cuda()
        BASE_QUANTIZATION_METHODS = {"fp8": A, "awq": B}
        if is_npu():
            BASE_QUANTIZATION_METHODS.update({"gptq": C})
        if is_cpu() or _is_cuda:
            BASE_QUANTIZATION_METHODS.update({"mxfp4": D})
        if is_hip() and _unknown:
            BASE_QUANTIZATION_METHODS["petit"] = E
        QUANTIZATION_METHODS = {**BASE_QUANTIZATION_METHODS, "extra": F}
        """
    )
    assert cuda_methods_reading(source) == ["awq", "extra", "fp8", "mxfp4"]


def test_a_registry_statement_not_read_leaves_the_release_unread():
    undecided = (
        'QUANTIZATION_METHODS = {"fp8": A}\nif _unknown_flag:\n    QUANTIZATION_METHODS.update({"x": B})\n'
    )
    assert cuda_methods_reading(undecided) is None
    built = "QUANTIZATION_METHODS = dict(fp8=A)\n"
    assert cuda_methods_reading(built) is None
    popped = 'QUANTIZATION_METHODS = {"fp8": A}\nQUANTIZATION_METHODS.pop("fp8")\n'
    assert cuda_methods_reading(popped) is None
