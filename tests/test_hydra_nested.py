"""Hydra configs whose defaults list loads configs that have defaults lists of their own (nested
composition, as `hydra/_internal/defaults_list.py` composes it: an entry of `model/qwen.yaml`
names a group under `model/`, `/group` one from the config root, its keys under `model.`), and
the note that says which file and line a value filled into the linted file came from."""

from __future__ import annotations

from speclint_runs import ROOT, run_speclint

from speclint.engine import lint_text

_CMD = "cmd: python -m sglang.launch_server --model-path m --tp-size {at}\n"


def _lint(tmp_path, config: str, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    path = tmp_path / "config.yaml"
    path.write_text(config)
    return lint_text(config, str(path)).findings


def _said(findings) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message.split(":")[0]) for f in findings]


def test_the_cli_says_which_file_and_line_a_composed_value_came_from():
    fixture = ROOT / "fixtures" / "hydra" / "composed"
    done = run_speclint("--no-cache", "config.yaml", cwd=fixture)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("config.yaml:12:72: FLG005 [error] `2x` is not a valid value for `--tp-size`")
    assert (
        "   = note: model/qwen.yaml, line 3, column 5: value `2x` from `model/qwen.yaml:3`, a config the "
        "defaults list composes"
    ) in lines


def test_a_loaded_configs_own_defaults_list_is_followed_under_its_group_and_package(tmp_path):
    files = {
        "model/qwen.yaml": "defaults:\n  - size: big\npath: Qwen/Qwen2-7B\n",
        "model/size/big.yaml": "tp: 2x\n",
    }
    found = _lint(tmp_path, "defaults:\n  - model: qwen\n" + _CMD.format(at="${model.size.tp}"), files)
    assert _said(found) == [("FLG005", 3, 62, "`2x` is not a valid value for `--tp-size`")]
    assert [(n.span.file, n.span.line, n.message) for n in found[0].notes] == [
        (
            str(tmp_path / "model/size/big.yaml"),
            1,
            "value `2x` from `model/size/big.yaml:1`, a config the defaults list composes",
        )
    ]


def test_a_nested_self_orders_the_loaded_config_against_what_it_loads(tmp_path):
    files = {"model/base.yaml": "tp: 3x\n"}
    cmd = _CMD.format(at="${model.tp}")
    files["model/qwen.yaml"] = "defaults:\n  - base\ntp: 4x\n"  # `_self_` unlisted: last, its own wins
    found = _lint(tmp_path, "defaults:\n  - model: qwen\n" + cmd, files)
    assert [f.message.split(" is")[0] for f in found] == ["`4x`"]
    files["model/qwen.yaml"] = "defaults:\n  - _self_\n  - base\ntp: 4x\n"  # `base` merged after it
    found = _lint(tmp_path, "defaults:\n  - model: qwen\n" + cmd, files)
    assert [f.message.split(" is")[0] for f in found] == ["`3x`"]


def test_an_absolute_group_is_read_from_the_root_and_kept_under_the_loading_package(tmp_path):
    files = {"model/qwen.yaml": "defaults:\n  - /size: big\n", "size/big.yaml": "tp: 5x\n"}
    found = _lint(tmp_path, "defaults:\n  - model: qwen\n" + _CMD.format(at="${model.size.tp}"), files)
    assert [f.message.split(" is")[0] for f in found] == ["`5x`"]


def test_a_config_that_loads_itself_stops_and_says_why(tmp_path):
    files = {"model/qwen.yaml": "defaults:\n  - qwen\n"}
    found = _lint(tmp_path, "defaults:\n  - model: qwen\n" + _CMD.format(at="${model.tp}"), files)
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("SLM004", 3, 62)]
    assert "`model/qwen.yaml` composes other configs deeper than speclint follows" in found[0].message


def test_a_nested_override_of_a_group_choice_leaves_that_group_unread(tmp_path):
    files = {
        "model/qwen.yaml": "defaults:\n  - override size: small\n",
        "model/size/big.yaml": "tp: 2\n",
    }
    config = "defaults:\n  - model: qwen\n" + _CMD.format(at="${model.size.tp}")
    found = _lint(tmp_path, config, files)
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("SLM004", 3, 62)]
    assert "overrides the `model/size` choice (`override size: small`)" in found[0].message
