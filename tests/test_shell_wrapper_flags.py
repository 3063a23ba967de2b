"""A shell command that is not SGLang's launcher but passes SGLang's `--speculative-*` options
(a project's own wrapper script) is said not read at the first such flag, beside launches read
too; printing commands, `set --`, other engines' commands, options SGLang never had, and the
rest of a launch cut by a missing `\\` stay as they were."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FIXTURE = FixtureFile("shell/wrappers31/serve_and_bench.sh")


def _said(text: str, path: str = "run.sh") -> list[tuple[str, int, int, str]]:
    return [
        (f.code, f.span.line, f.span.column, f.message)
        for f in lint_text(text, path).findings
        if f.code == "SLM005"
    ]


def test_a_wrapper_beside_a_launch_read_is_said_at_its_first_sglang_flag() -> None:
    found = [f for f in FIXTURE.findings() if f[0] == "SLM005"]
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [("SLM005", 9, 3, "--speculative-algorithm")]
    assert found[0][4] == (
        "this command (`./scripts/serve.sh`) is not SGLang's launcher but passes "
        "`--speculative-algorithm`, an option of SGLang's server: speclint did not read it as a "
        "launch, so nothing in it was checked"
    )


def test_wrapper_forms_name_their_program_and_point_at_the_flag() -> None:
    text = "bash launch.sh --speculative-eagle-topk=4\npython my_server.py '--speculative-num-steps' 3\n"
    found = _said(text)
    assert [(f[1], f[2]) for f in found] == [(1, 16), (2, 21)]
    assert "(`bash launch.sh`)" in found[0][3] and "`--speculative-eagle-topk`" in found[0][3]
    assert "(`python my_server.py`)" in found[1][3]


def test_printing_setting_and_other_engines_commands_are_not_said() -> None:
    launch = "python -m sglang.launch_server --model-path m\n"
    for line in (
        "echo --speculative-num-steps 3\n",
        "grep -- --speculative-algorithm run.log\n",
        "set -- --speculative-algorithm EAGLE\n",
        "vllm serve m --speculative-model d --speculative-num-steps 2\n",
        "./serve.sh --speculative-mode fast\n",  # (no SGLang release has this option)
    ):
        assert _said(launch + line) == [], line


def test_the_rest_of_a_launch_cut_by_a_missing_backslash_is_not_a_wrapper() -> None:
    text = (
        "python -m sglang.launch_server --model-path m --speculative-draft-model-path d\n"
        "EAGLE3 --speculative-num-steps 3 \\\n  --speculative-eagle-topk 1\n"
    )
    assert _said(text) == []
