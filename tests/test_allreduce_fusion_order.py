"""0.5.7-0.5.13.post1 turn FlashInfer all-reduce fusion on in `_handle_model_specific_adjustments`,
which `__post_init__` runs before `_handle_data_parallelism` (read: `before_data_parallelism`,
tools/sglang_allreduce_fusion.py), so its `not self.enable_dp_attention` reads the flag as
given, before --dp-size 1 turns it off. Recorded (tests/data/oracle/0.5.8-0.5.13.post1, fake
H100; found by tools/oracle/differential.py --defaults): DeepSeek-V3 --tp-size 2 --dp-size 1
--enable-dp-attention keeps the fusion off while attention DP itself resolves off."""

from __future__ import annotations

import pytest
from explain_runs import explain_lines

DSV3 = "fixtures/models/deepseek-v3"


def _effective(tmp_path, version: str, arguments: str) -> dict:
    [found] = explain_lines(
        tmp_path, version, [f"python -m sglang.launch_server --model-path {DSV3} {arguments}"], "h100"
    )
    return found["effective"]


@pytest.mark.parametrize("version", ["0.5.8", "0.5.9", "0.5.13.post1"])
def test_attention_dp_as_given_keeps_the_fusion_off(tmp_path, version):
    given = _effective(tmp_path, version, "--tp-size 2 --dp-size 1 --enable-dp-attention")
    assert (given["enable_dp_attention"], given["enable_flashinfer_allreduce_fusion"]) == (False, False)
    plain = _effective(tmp_path, version, "--tp-size 2 --dp-size 1")
    assert plain["enable_flashinfer_allreduce_fusion"] is True
