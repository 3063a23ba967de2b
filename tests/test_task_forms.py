"""Launch forms found by the session-5 survey: tmux sessions (a shell-command string, an
argv, keys typed into a pane) and cloud task configs (SkyPilot `run:`, dstack `commands:`)."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at

from speclint.frontends.manifests.yaml_manifest import extract_yaml
from speclint.frontends.shell.script import extract_shell

ROOT = Path(__file__).resolve().parent.parent / "fixtures"


def _findings(path: Path) -> list[tuple]:
    """(code, line, column, the text it points at) of each finding of the file."""
    return findings_at(path.read_text(), str(path))


def test_tmux_starts_and_typed_lines_are_read_with_exact_positions():
    path = ROOT / "shell" / "tmux_sessions.sh"
    lines = path.read_text().split("\n")
    typo = [(n, lines[n - 1].index("--tp-szie") + 1) for n in (4, 5, 6)]
    assert _findings(path) == [
        *[("FLG001", line, column, "--tp-szie") for line, column in typo],
        ("SLM004", 7, lines[6].index("$MODEL") + 1, "$MODEL"),
        # typed without Enter: not run, reported
        ("SLM005", 9, lines[8].index("'python") + 1, lines[8][lines[8].index("'python") :]),
    ]


def test_tmux_gives_its_own_environment_not_the_script_s():
    text = (ROOT / "shell" / "tmux_sessions.sh").read_text()
    launches = {launch.span.line: launch for launch in extract_shell(text, "tmux_sessions.sh").launches}
    assert sorted(launches) == [4, 5, 6, 7]  # not the line typed without Enter
    assert launches[5].env["CUDA_VISIBLE_DEVICES"].text == "0,1"  # `-e NAME=VALUE`
    model = launches[7].args[
        launches[7].args.index(next(w for w in launches[7].args if w.text == "--model-path")) + 1
    ]
    assert model.text is None
    assert "not passed to the shell `tmux` starts" in (model.dynamic_reason or "")
    assert [w.text for w in launches[4].args][:2] == ["--model-path", "Qwen/Qwen3-8B"]  # "$MODEL": ours


def test_skypilot_task_run_is_read_with_envs_and_image():
    path = ROOT / "tasks" / "skypilot_eagle3.sky.yaml"
    (launch,) = extract_yaml(path.read_text(), str(path)).launches
    assert launch.image == "lmsysorg/sglang:v0.5.4"
    assert [w.text for w in launch.args][:2] == ["--model-path", "meta-llama/Llama-3.1-8B-Instruct"]
    assert launch.env["HF_TOKEN"].text is None  # a key without a value: given at launch time
    assert _findings(path) == [("FLG001", 16, 5, "--tp-szie")]


def test_dstack_commands_are_one_script_with_env_and_image():
    path = ROOT / "tasks" / "service.dstack.yml"
    (launch,) = extract_yaml(path.read_text(), str(path)).launches
    assert launch.image == "lmsysorg/sglang:v0.5.4"
    assert [w.text for w in launch.args][:2] == ["--model-path", "meta-llama/Llama-3.1-8B-Instruct"]
    assert _findings(path) == [("FLG001", 12, 7, "--tp-szie"), ("SLM004", 13, 38, "$DRAFT")]


def test_a_yaml_with_run_but_no_task_keys_is_not_a_skypilot_task():
    text = "run: python -m sglang.launch_server --tp-szie 2\n"
    assert extract_yaml(text, "x.yaml").launches == []
