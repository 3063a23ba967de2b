"""VS Code debug configurations (`.vscode/launch.json`, JSON with comments and trailing
commas, and ```json fences in docs): `"module": "sglang.launch_server"` with its `args` and
`env` is a launch, each word at its place in the file; VS Code's `${...}` variables are unknown
values, never text (before, a .json file was not read: SLM001, and a json fence's launcher
was reported as not read: SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path

LAUNCH = FixtureFile("vscode/launch.json")
DOC = FixtureFile("markdown/vscode_debug.md")


def test_each_launch_configuration_is_checked_at_its_words() -> None:
    findings = LAUNCH.findings()
    assert [f[:3] for f in findings] == [
        ("SLM004", 12, 26),
        ("FLG001", 14, 10),
        ("FLG009", 22, 18),
        ("FLG005", 23, 81),
        ("SLM004", 37, 15),
    ]
    assert findings[1][3] == "--mem-fraction-statics"
    assert "did you mean `--mem-fraction-static`?" in findings[1][4]
    assert findings[2][3].startswith("sglang.bench_one_batch")
    assert "`sglang.bench_one_batch` does not exist in SGLang 0.5.23" in findings[2][4]
    assert findings[3][3] == "high"


def test_vscode_variables_and_args_written_as_a_string_are_unknown_not_text() -> None:
    findings = LAUNCH.findings()
    assert findings[0][3] == "${workspaceFolder}/models/qwen3"
    assert "`${workspaceFolder}` is filled in by VS Code when the configuration runs" in findings[0][4]
    assert findings[4][3] == '"--model-path /models/qwen3 --tp 2"'
    assert "`args` written as one string, which VS Code hands to the terminal's shell" in findings[4][4]


def test_env_is_the_launchs_environment_and_other_modules_are_not_launches() -> None:
    launches = extract_file(str(LAUNCH.path), LAUNCH.text).launches
    assert [launch.entry for launch in launches] == [
        "python -m sglang.launch_server",
        "python -m sglang.bench_one_batch",
        "python -m sglang.launch_server",
    ]  # (the pytest configuration is not one)
    env = launches[0].env
    assert env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert env["HF_TOKEN"].text is None
    assert env["HF_TOKEN"].dynamic_reason is not None and "${env:HF_TOKEN}" in env["HF_TOKEN"].dynamic_reason


def test_a_json_fence_in_a_doc_is_read_as_a_launch_configuration() -> None:
    (finding,) = DOC.findings()
    assert finding[:4] == ("FLG006", 16, 40, "flashinfers")
    assert "invalid choice: 'flashinfers'" in finding[4]


def test_json_files_are_read_and_folder_walks_take_launch_json() -> None:
    assert file_kind("a/.vscode/launch.json") == "vscode"
    assert file_kind("dev.code-workspace", '{"launch": {"configurations": []}}') == "vscode-workspace"
    assert file_kind("models/config.json", '{"architectures": ["LlamaForCausalLM"]}') is None
    assert is_lintable_path("proj/launch.json")
    assert not is_lintable_path("proj/package.json")


def test_a_file_that_is_not_jsonc_is_reported_as_not_read() -> None:
    text = '{"configurations": [{"request": "launch", "module": "sglang.launch_server"'
    (finding,) = lint_text(text, "launch.json").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 1, text.index("sglang") + 1)
    assert "found no launch" in finding.message
