"""Hydra configs whose launch string interpolates values of the configs their defaults list
composes (`defaults: [- model: qwen]` -> `model/qwen.yaml` beside the file): a value written
there is read (a finding at the interpolation in the linted file), in Hydra's merge order (later
entries win, the file's own keys at `_self_`, last when unlisted; `@package` and `# @package`
move a group's keys); an option not on disk, left to the command line (`???`) or set from the
environment (`${oc.env:VAR,default}`) is unread at its place, with the reason."""

from __future__ import annotations

from fixture_file import FixtureFile
from speclint_runs import ROOT, run_speclint

from speclint.engine import lint_text

FIXTURE = FixtureFile("hydra/composed/config.yaml")


def test_the_cli_reads_the_models_keys_from_the_group_file_and_says_what_it_could_not_read():
    done = run_speclint("--no-cache", str(FIXTURE.path))
    heads = [line for line in done.stdout.splitlines() if line.startswith(str(FIXTURE.path))]
    assert [line.split(" [")[0] for line in heads] == [
        f"{FIXTURE.path}:12:72: FLG005",
        f"{FIXTURE.path}:13:12: SLM004",
    ]
    assert "`2x` is not a valid value for `--tp-size`" in heads[0]
    assert (
        "`${cluster.nodes}` would come from `cluster/slurm.yaml` in the defaults list, and "
        "`cluster/slurm.yaml` is not on disk next to this file" in heads[1]
    )
    assert (
        "`${oc.env:SGLANG_API_KEY,dev-key}` is the environment variable `SGLANG_API_KEY` of the process "
        "that loads the config, `dev-key` when it is unset" in done.stdout
    )
    assert "checked against SGLang 0.5.2" in done.stdout


def _tree(tmp_path, config: str, files: dict[str, str]) -> list[tuple[str, int, int, str]]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    path = tmp_path / "config.yaml"
    path.write_text(config)
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(config, str(path)).findings]


_CMD = "cmd: python -m sglang.launch_server --model-path m --tp-size ${model.tp}\n"


def test_the_entry_composed_last_wins_and_the_files_own_keys_sit_at_self(tmp_path):
    files = {"model/a.yaml": "tp: 2x\n", "model/b.yaml": "tp: 3x\n"}
    own = "model:\n  tp: 4x\n"
    after = _tree(tmp_path, "defaults:\n  - model: a\n  - _self_\n" + own + _CMD, files)
    assert [(code, line, column) for code, line, column, _ in after] == [("FLG005", 5, 7)]  # where written
    assert after[0][3].startswith("`4x` is not a valid value")  # the file's own, merged last
    before = _tree(tmp_path, "defaults:\n  - _self_\n  - model: b\n" + own + _CMD, files)
    assert before[0][3].startswith("`3x` is not a valid value")  # `model/b.yaml`, merged after
    unlisted = _tree(tmp_path, "defaults:\n  - model: a\n" + _CMD, files)
    assert unlisted[0][3].startswith("`2x` is not a valid value")


def test_a_package_override_and_a_package_header_move_the_groups_keys(tmp_path):
    files = {"engine/big.yaml": "tp: 2x\n", "parallel/wide.yaml": "# @package model\ntp: 5x\n"}
    via_entry = _tree(tmp_path, "defaults:\n  - engine@model: big\n" + _CMD, files)
    assert via_entry[0][3].startswith("`2x` is not a valid value")
    via_header = _tree(tmp_path, "defaults:\n  - parallel: wide\n" + _CMD, files)
    assert via_header[0][3].startswith("`5x` is not a valid value")


def test_an_option_left_to_the_command_line_is_said_unread(tmp_path):
    (found,) = _tree(tmp_path, "defaults:\n  - model: ???\n" + _CMD, {})
    assert found[:3] == ("SLM004", 3, 62)
    assert "leaves the config group `model` to the command line (`???`)" in found[3]


def test_a_key_no_composed_file_sets_is_said_unread_naming_the_files_read(tmp_path):
    (found,) = _tree(tmp_path, "defaults:\n  - model: a\n" + _CMD, {"model/a.yaml": "path: m\n"})
    assert found[:3] == ("SLM004", 3, 62)
    assert "names a value set neither in this file nor in `model/a.yaml` of its defaults list" in found[3]


def test_a_config_that_only_picks_an_sglang_option_is_not_passed_in_silence():
    """A launcher's user config (`- deployment: sglang` plus the keys the group file's command
    reads): no launch here, the launch is composed from the group file: said at the option."""
    text = (
        "defaults:\n  - execution: local\n  - deployment: sglang\n  - _self_\n\n"
        "deployment:\n  hf_model_handle: Qwen/Qwen3-8B\n  tensor_parallel_size: 2\n"
    )
    ((code, line, column, message),) = [
        (f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "eval.yaml").findings
    ]
    assert (code, line, column) == ("SLM005", 3, 17)
    assert message.startswith(
        "this Hydra config holds no launch: its defaults list composes it with `deployment/sglang.yaml`"
    )
    assert "so the launch was not checked with these values" in message


def test_flags_in_such_a_config_are_said_to_reach_a_composed_launch():
    text = (
        "defaults:\n  - deployment: sglang\n  - _self_\n"
        'deployment:\n  extra_args: "--mem-fraction-static 0.8"\n'
    )
    ((code, line, column, message),) = [
        (f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "eval.yaml").findings
    ]
    assert (code, line, column) == ("SLM005", 5, 16)
    assert "this Hydra config names `--mem-fraction-static` but holds no launch" in message
    assert "composes it with `deployment/sglang.yaml`" in message and "Helm" not in message


def test_an_oc_select_is_said_as_the_key_it_reads_and_its_fallback():
    text = (
        "image: lmsysorg/sglang:v0.5.2\n"
        "command: python3 -m sglang.launch_server --model-path ${oc.select:judge.hf_model,/checkpoint}\n"
    )
    ((code, line, column, message),) = [
        (f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "judge.yaml").findings
    ]
    assert (code, line, column) == ("SLM004", 2, 55)
    assert (
        "`${oc.select:judge.hf_model,/checkpoint}` is the value at `judge.hf_model` of the config Hydra "
        "composes (from this file, other configs or the command line), `/checkpoint` where it is unset"
    ) in message


def test_a_plain_config_entry_goes_under_its_folder(tmp_path):
    cmd = "cmd: python -m sglang.launch_server --model-path m --tp-size ${parallel.tp}\n"
    found = _tree(
        tmp_path, "defaults:\n  - parallel/wide\n  - _self_\n" + cmd, {"parallel/wide.yaml": "tp: 6x\n"}
    )
    assert [(code, line) for code, line, _, _ in found] == [("FLG005", 4)]
    assert found[0][3].startswith("`6x` is not a valid value")


def test_a_changed_group_file_is_read_again_through_the_cache(tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "a.yaml").write_text("tp: 2x\n")
    (tmp_path / "config.yaml").write_text("defaults:\n  - model: a\n" + _CMD)
    env = {"PYTHONPATH": str(ROOT / "src")}
    first = run_speclint("config.yaml", cwd=tmp_path, env=env)
    assert "config.yaml:3:62: FLG005" in first.stdout and "`2x`" in first.stdout
    (tmp_path / "model" / "a.yaml").write_text("tp: 3\n")
    again = run_speclint("config.yaml", cwd=tmp_path, env=env)
    assert "FLG005" not in again.stdout and again.returncode == 0
    (tmp_path / "model" / "a.yaml").unlink()
    gone = run_speclint("config.yaml", cwd=tmp_path, env=env)
    assert "config.yaml:3:62: SLM004" in gone.stdout and "is not on disk next to this file" in gone.stdout


def test_a_composed_value_that_interpolates_another_composed_file_is_followed(tmp_path):
    # (before: "itself an interpolation speclint does not follow across files", unknown)
    files = {
        "model/a.yaml": "tp: ${.size}\nsize: ${cluster.gpus}\npath: Qwen/${.name}\nname: Qwen2-7B\nport: ${port}\n",
        "cluster/big.yaml": "gpus: 2x\n",
    }
    config = "defaults:\n  - model: a\n  - cluster: big\nport: 3000o\n"
    cmd = "cmd: python -m sglang.launch_server --model-path ${model.path} --tp-size ${model.tp} --port ${model.port}\n"
    found = _tree(tmp_path, config + cmd, files)
    at = [cmd.index("${model.tp}") + 1, cmd.index("${model.port}") + 1]
    assert [(code, line, column) for code, line, column, _ in found] == [
        ("FLG005", 5, at[0]),
        ("FLG005", 5, at[1]),
    ]
    assert found[0][3].startswith("`2x` is not a valid value for `--tp-size`")
    assert found[1][3].startswith("`3000o` is not a valid value for `--port`")  # the file's own key
    tp = lint_text(config + cmd, str(tmp_path / "config.yaml")).findings[0]
    assert [n.message for n in tp.notes] == [
        "value `2x` from `cluster/big.yaml:1`, a config the defaults list composes"
    ]


def test_an_interpolation_in_a_composed_file_that_leads_nowhere_says_the_chain(tmp_path):
    files = {"model/a.yaml": "nodes: ${cluster.nodes}\nenv: ${oc.env:NODES}-x\n"}
    cmd = "cmd: python -m sglang.launch_server --model-path m --nnodes ${model.nodes} --port ${model.env}\n"
    (first,) = _tree(tmp_path, "defaults:\n  - model: a\n" + cmd, files)  # (one SLM004 for both)
    assert first[:3] == ("SLM004", 3, cmd.index("${model.nodes}") + 1)
    assert (
        "`${model.nodes}` is `${cluster.nodes}` in `model/a.yaml` line 1, and `${cluster.nodes}` names a value"
        in first[3]
    )
    assert (
        "`${model.env}` is `${oc.env:NODES}-x` in `model/a.yaml` line 2, and it holds an interpolation"
        in first[3]
    )
