"""A keyword launch (`sgl.Engine(tp_size=6)`) is told what to change in its own syntax
(`tp_size=`), a command line in its own (`--tp-size`): one test per rule family."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    """The drafter launches name model folders under fixtures/."""
    monkeypatch.chdir(ROOT)


def _finding(source: str, path: str, code: str, version: str | None = None):
    result = lint_text(source, path, LintOptions(sglang_version=version))
    found = [f for f in result.findings if f.code == code]
    assert len(found) == 1, [(f.code, f.message) for f in result.findings]
    return found[0]


def _engine(keywords: str) -> str:
    return f"import sglang as sgl\n\nllm = sgl.Engine({keywords})\n"


def _text(finding) -> str:
    return (
        finding.message
        + " | "
        + finding.fix_hint
        + " | "
        + " | ".join(note.message for note in finding.notes)
    )


def test_par_names_keywords_on_an_engine_launch():
    finding = _finding(
        _engine('model_path="m", tp_size=6, dp_size=4, enable_dp_attention=True'),
        "launch.py",
        "PAR002",
        "0.5.23",
    )
    assert finding.message.startswith(
        "tp_size=6 is not a multiple of the attention-DP size 4 (dp_size=4 with enable_dp_attention=True)"
    )
    assert finding.fix_hint.startswith("use a tp_size= that is a multiple of 4 (e.g. 8)")
    assert "--" not in _text(finding)


def test_par_names_flags_on_a_command_line():
    finding = _finding(
        "python -m sglang.launch_server --model-path m --tp-size 6 --dp-size 4 --enable-dp-attention\n",
        "launch.sh",
        "PAR002",
        "0.5.23",
    )
    assert finding.message.startswith(
        "--tp-size 6 is not a multiple of the attention-DP size 4 (--dp-size 4 with --enable-dp-attention)"
    )
    assert finding.fix_hint.startswith("use a --tp-size that is a multiple of 4")


def test_par003_rewrite_is_shown_in_keywords():
    finding = _finding(
        _engine('model_path="m", tp_size=8, dp_size=4, enable_dp_attention=True'),
        "launch.py",
        "PAR003",
        "0.5.23",
    )
    assert "rewrites `dp_size=4, enable_dp_attention=True` to `attn_dp_size=4, dp_size=1`" in finding.message
    assert finding.fix_hint == ("write `attn_dp_size=4` and drop `dp_size=4` and `enable_dp_attention=True`")
    assert [note.message for note in finding.notes] == ["dp_size= is set here"]


def test_spd_names_keywords_on_an_engine_launch():
    finding = _finding(
        _engine('model_path="m", speculative_algorithm="NGRAM", speculative_eagle_topk=2'),
        "launch.py",
        "SPD004",
        "0.5.23",
    )
    assert finding.message.startswith(
        "`speculative_eagle_topk=2` has no effect with NGRAM: "
        "SGLang sets speculative_eagle_topk to "
        "speculative_ngram_max_bfs_breadth = "
    )
    assert finding.fix_hint == (
        "remove it; write `speculative_ngram_max_bfs_breadth=2` to change the breadth"
    )


def test_spd_names_flags_on_a_command_line():
    finding = _finding(
        "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM"
        " --speculative-eagle-topk 2\n",
        "launch.sh",
        "SPD004",
        "0.5.23",
    )
    assert "to --speculative-ngram-max-bfs-breadth = " in finding.message
    assert finding.fix_hint == (
        "remove it; write `--speculative-ngram-max-bfs-breadth 2` to change the breadth"
    )


def test_drf_names_keywords_on_an_engine_launch():
    finding = _finding(
        _engine(
            'model_path="fixtures/models/llama-3.1-8b-instruct", '
            'speculative_algorithm="EAGLE3", max_running_requests=64, '
            "speculative_draft_model_path="
            '"fixtures/models/eagle-llama-3.1-8b-instruct"'
        ),
        "launch.py",
        "DRF002",
        "0.5.23",
    )
    assert finding.message.startswith("`speculative_algorithm='EAGLE3'` with an EAGLE-1/2 drafter")
    assert finding.fix_hint == "write `speculative_algorithm='EAGLE'`"
    assert "--speculative" not in _text(finding)


def test_drf_context_length_names_the_keyword():
    finding = _finding(
        _engine('model_path="fixtures/models/qwen3-8b", context_length=65536'),
        "launch.py",
        "DRF014",
        "0.5.23",
    )
    assert finding.message.startswith("context_length=65536 is greater than the context length")
    assert finding.fix_hint.startswith("use `context_length=40960` (or less)")


def test_flg_names_the_field_on_an_engine_launch():
    finding = _finding(_engine('model_path="m", tp_sizee=2'), "launch.py", "FLG001", "0.5.23")
    assert finding.message.startswith("`tp_sizee` is not a ServerArgs field of SGLang 0.5.23")
    assert finding.fix_hint == "did you mean `tp_size`?"


def test_ver_names_the_field_on_an_engine_launch():
    finding = _finding(_engine('model_path="m", enable_ep_moe=True'), "launch.py", "VER001", "0.5.23")
    assert finding.message.startswith("`enable_ep_moe` is not a ServerArgs field in SGLang 0.5.23")
    assert finding.fix_hint == "write `ep_size` instead"
