"""Words written after a redirection's target are the command's arguments, as bash reads
them (`cmd a > f b` runs `cmd a b` with its output in `f`). tree-sitter-bash puts them inside
the redirection node, so they were dropped: `python -m sglang.launch_server > server.log
--model-path X` got a false FLG011 ("no --model-path"), and flags after `2>&1` went
unchecked."""

from __future__ import annotations

from speclint.engine import lint_text


def _found(text: str) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in lint_text(text, "serve.sh").findings]


def test_flags_after_a_redirection_target_are_the_launch_s() -> None:
    assert (
        _found("python -m sglang.launch_server > server.log --model-path Qwen/Qwen3-8B --port 30000\n") == []
    )


def test_a_flag_after_2_and_1_is_checked_at_its_place() -> None:
    line = "python -m sglang.launch_server --model-path Q 2>&1 --port 30000 --cuda-graph-max-bs 8 > log.txt\n"
    found = lint_text(line, "serve.sh").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG002", 1, line.index("--cuda") + 1)]
    assert found[0].message.startswith("`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23")


def test_the_target_itself_is_not_an_argument() -> None:
    # (were `server.log` an argument, SGLang's parser would refuse it: FLG001/unrecognized)
    assert (
        _found("python -m sglang.launch_server --model-path Q >> server.log 2> err.log --tp-size 2\n") == []
    )
    assert _found('python -m sglang.launch_server --model-path Q > "$LOG" --tp-size\n')[0][0] == "FLG004"
