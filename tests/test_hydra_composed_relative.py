"""A config group file whose launch string sits in a nested mapping (`server: {command: ...}`)
and reaches its values through relative interpolations deeper than one level (`${..x}`): read
composed with the config whose defaults list picks it, each `.` one mapping up as OmegaConf
resolves it (before: not composed at all, SLM005 at the option)."""

from __future__ import annotations

from speclint.engine import lint_text

CONFIG = """defaults:
  - deployment: sglang
  - _self_

deployment:
  hf_model_handle: Qwen/Qwen3-8B
  tensor_parallel_size: 2x
"""
GROUP = """hf_model_handle: null
tensor_parallel_size: 8
server:
  port: 80x
  command: python3 -m sglang.launch_server
    --model-path ${..hf_model_handle}
    --port ${.port}
    --tp-size ${TP}
"""


def _lint(tmp_path, tp: str) -> list[tuple[str, int, int, str]]:
    (tmp_path / "deployment").mkdir()
    (tmp_path / "deployment" / "sglang.yaml").write_text(GROUP.replace("${TP}", tp))
    (tmp_path / "eval.yaml").write_text(CONFIG)
    found = lint_text(CONFIG, str(tmp_path / "eval.yaml")).findings
    return [(f.code, f.span.line, f.span.column, f.message) for f in found]


def test_two_dots_reach_the_group_files_root_and_this_files_value_wins(tmp_path):
    found = _lint(tmp_path, "${..tensor_parallel_size}")
    assert [f[:3] for f in found] == [("FLG005", 2, 17), ("FLG005", 7, 25)]
    assert found[0][3].startswith("`80x` is not a valid value for `--port`")  # `${.port}`: server.port
    assert found[1][3].startswith("`2x` is not a valid value for `--tp-size`")  # this file's, over 8


def test_three_dots_climb_to_the_config_root_where_nothing_sets_it(tmp_path):
    found = _lint(tmp_path, "${...tensor_parallel_size}")
    assert [f[:3] for f in found] == [("FLG005", 2, 17), ("SLM004", 2, 17)]
    assert "`${tensor_parallel_size}` names a value set neither in this file nor in" in found[1][3]


def test_more_dots_than_mappings_above_stay_unknown(tmp_path):
    found = _lint(tmp_path, "${.....tensor_parallel_size}")
    assert [f[:3] for f in found] == [("FLG005", 2, 17), ("SLM004", 2, 17)]
    assert "`--tp-size`" in found[1][3]
