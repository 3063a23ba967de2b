"""Dockerfile front-end: CMD/ENTRYPOINT (exec and shell form), ENV, ARG and the FROM tag."""

from __future__ import annotations

from pathlib import Path

import pytest
from findings_at import text_at

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path

ROOT = Path(__file__).resolve().parent.parent


def read(name: str) -> str:
    return (ROOT / "fixtures" / name).read_text()


def found(result) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in result.findings]


@pytest.mark.parametrize(
    "name", ["Dockerfile", "serve.Dockerfile", "Dockerfile.gpu", "Containerfile", "x.dockerfile"]
)
def test_dockerfile_names(name, tmp_path):
    assert file_kind(name) == "dockerfile"
    (tmp_path / name).write_text("FROM x\n")
    assert is_lintable_path(str(tmp_path / name))


def test_exec_form_cmd_across_continuations_with_env_and_arg_tag():
    text = read("docker/Dockerfile")
    [launch] = extract_file("Dockerfile", text).launches
    topk = next(w for w in launch.args if w.text == "--speculative-eagle-topk")
    assert (topk.span.line, topk.span.column) == (12, 43) and text_at(text, topk.span) == topk.text
    assert launch.image == "lmsysorg/sglang:v0.5.6.post2"  # ARG default filled into FROM
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert launch.env["HF_HOME"].text == "/models/cache"  # legacy `ENV NAME value`
    result = lint_text(text, "Dockerfile")
    assert result.contexts[0].version.version == "0.5.6.post2"
    assert "from the image lmsysorg/sglang:v0.5.6.post2 (line 3)" in result.contexts[0].version.reason
    assert found(result) == [("PAR001", 5, 26), ("SPD003", 12, 34), ("SPD002", 12, 71)]


def test_shell_form_cmd_reads_env_and_skips_comment_lines():
    text = read("docker/serve.Dockerfile")
    result = lint_text(text, "serve.Dockerfile")
    assert found(result) == [("FLG001", 6, 19)]
    [ctx] = result.contexts
    assert ctx.version.version == "0.5.23"
    tp = next(w for w in ctx.launch.args if w.text == "2")
    assert tp.origin is not None and tp.origin.line == 2  # $TP from ENV TP=2


def test_exec_entrypoint_plus_cmd():
    text = read("docker/Dockerfile.entrypoint")
    result = lint_text(text, "Dockerfile.entrypoint")
    assert found(result) == [("FLG003", 3, 40), ("SPD003", 3, 62)]
    assert result.contexts[0].version.version == "0.5.14"


def test_exec_form_words_are_not_expanded():
    """Exec form runs no shell: `$TP` reaches SGLang as the literal text `$TP`."""
    text = 'FROM lmsysorg/sglang:v0.5.23\nENV TP=2\nCMD ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp-size", "$TP"]\n'
    result = lint_text(text, "Dockerfile")
    assert found(result) == [("FLG005", 3, 82)]
    assert "invalid int value: '$TP'" in result.findings[0].message


def test_single_quoted_exec_form_is_shell_form():
    text = "FROM lmsysorg/sglang:v0.5.23\nCMD ['python3', '-m', 'sglang.launch_server', '--tp', '2']\n"
    result = lint_text(text, "Dockerfile")
    [finding] = [f for f in result.findings if f.code == "SLM001" and "exec form" in f.message]
    assert (finding.span.line, finding.span.column) == (2, 5)
    assert not result.contexts


def test_shell_entrypoint_ignores_cmd_and_later_stage_inherits_image():
    text = (
        "ARG V=v0.5.14\nFROM lmsysorg/sglang:$V AS base\nENV SGLANG_X=1\n"
        "FROM base\nENTRYPOINT python3 -m sglang.launch_server --model-path m --tp-szie 2\n"
        'CMD ["--tp-size", "4"]\n'
    )
    result = lint_text(text, "Dockerfile")
    [ctx] = result.contexts
    assert ctx.launch.image == "lmsysorg/sglang:v0.5.14" and "SGLANG_X" in ctx.launch.env
    assert [w.text for w in ctx.launch.args] == ["--model-path", "m", "--tp-szie", "2"]
    assert found(result) == [("FLG001", 5, 59)]


def test_heredoc_and_escape_directive():
    text = (
        "# escape=`\nFROM lmsysorg/sglang:v0.5.23\nRUN <<EOF\nCMD nonsense\nEOF\n"
        "CMD python3 -m sglang.launch_server --model-path m `\n    --tp-szie 2\n"
    )
    result = lint_text(text, "Dockerfile")
    assert found(result) == [("FLG001", 7, 5)]


def test_build_arg_without_default_is_unknown():
    text = "FROM lmsysorg/sglang:v0.5.23\nARG TP\nENV TP=$TP\nCMD python3 -m sglang.launch_server --tp-size $TP\n"
    [launch] = extract_file("Dockerfile", text).launches
    assert launch.args[1].dynamic and "build argument" in launch.args[1].dynamic_reason
