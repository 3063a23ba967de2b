"""0.5.19+ `handle_attention_backend_compatibility` refuses a trtllm_mha prefill backend beside
context-parallel prefill off SM100 (`attn_cp_size > 1`; 0.5.19 also the switch
`enable_prefill_context_parallel` that `_handle_legacy_cp_arguments` sets from --enable-prefill-cp
and a --cp-strategy), read per release by tools/sglang_trtllm_mha_cp.py
(`trtllm_mha_prefill_cp` of data/sglang_server_checks.json). Oracle (record.py --generator
mha_cp, seed 27101, 0.5.18, 0.5.19, 0.5.21, 0.5.23): 15 missed refusals on 0.5.19 before, none
after."""

from __future__ import annotations

import glob
import zipfile
from pathlib import Path

import pytest
from launch_errors import at, errors
from regenerated import ROOT, SGLANG_WHEELS, assert_regenerates, use_tools

MODELS = Path(__file__).resolve().parent.parent / "fixtures" / "models"
QWEN3 = f"python -m sglang.launch_server --model-path {MODELS / 'qwen3-8b'} --tp-size 4"
MESSAGE = (
    "Prefill context parallelism with the TRTLLM MHA prefill backend requires SM100 "
    "(trtllm-gen context kernel): the SM90/SM120 fmha_v2 prefill path does not implement CP "
    "shard masking."
)


@pytest.mark.parametrize("version", ["0.5.19", "0.5.21", "0.5.23"])
def test_attention_cp_with_a_trtllm_mha_prefill_is_refused_on_hopper(version: str) -> None:
    text = f"{QWEN3} --attn-cp-size 2 --prefill-attention-backend trtllm_mha\n"
    [error] = errors(text, version, "h100")
    assert (error.span.line, error.span.column) == at(text, "trtllm_mha")
    assert MESSAGE in error.message
    assert errors(text, version, "b200") == []  # SM100 runs it


def test_without_attention_cp_hopper_runs_a_trtllm_mha_prefill() -> None:
    text = f"{QWEN3} --attn-cp-size 1 --prefill-attention-backend trtllm_mha --decode-attention-backend fa3\n"
    for version in ("0.5.19", "0.5.23"):
        assert errors(text, version, "h100") == []


def test_0_5_19_also_refuses_the_prefill_cp_switch_with_a_strategy() -> None:
    text = f"{QWEN3} --enable-prefill-cp --cp-strategy zigzag --prefill-attention-backend trtllm_mha\n"
    [error] = errors(text, "0.5.19", "h100")
    assert MESSAGE in error.message
    # 0.5.23 tests attn_cp_size alone: the switch with attn_cp_size 1 passes
    assert not [e for e in errors(text, "0.5.23", "h100") if MESSAGE in e.message]


def test_0_5_18_refuses_any_trtllm_mha_prefill_off_sm100_with_its_own_message() -> None:
    text = f"{QWEN3} --attn-cp-size 2 --prefill-attention-backend trtllm_mha\n"
    [error] = errors(text, "0.5.18", "h100")
    assert "TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100)" in error.message


def test_the_check_is_read_from_each_release() -> None:
    use_tools()
    from gen_sglang_server_checks import _resolution_file
    from sglang_trtllm_mha_cp import read_trtllm_mha_prefill_cp

    def read(version: str) -> object:
        [path] = glob.glob(str(SGLANG_WHEELS / f"sglang-{version}-*.whl"))
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if _resolution_file(n)]
            return read_trtllm_mha_prefill_cp([archive.read(n).decode() for n in names])

    if not glob.glob(str(SGLANG_WHEELS / "sglang-0.5.19-*.whl")):
        pytest.skip("the 0.5.19 wheel is not cached")
    assert read("0.5.18") is None
    assert read("0.5.19") == {
        "where": "handle_attention_backend_compatibility",
        "switch": "enable_prefill_context_parallel",
        "message": MESSAGE,
    }
    assert read("0.5.23") == {
        "where": "handle_attention_backend_compatibility",
        "switch": None,
        "message": MESSAGE,
    }


def test_the_stored_server_checks_are_what_the_wheels_give() -> None:
    use_tools()
    from gen_sglang_schema import stored_versions
    from gen_sglang_server_checks import OUT, build, dump

    versions = stored_versions()
    assert_regenerates(OUT, versions, lambda: dump(build(versions, str(SGLANG_WHEELS))))
    assert Path(OUT).is_relative_to(ROOT)
