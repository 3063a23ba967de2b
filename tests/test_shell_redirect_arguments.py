"""Words written after a redirection's target are the command's arguments, as bash reads
them (`cmd a > f b` runs `cmd a b` with its output in `f`). tree-sitter-bash puts them inside
the redirection node, so they were dropped: `python -m sglang.launch_server > server.log
--model-path X` got a false FLG011 ("no --model-path"), and flags after `2>&1` went
unchecked."""

from __future__ import annotations

from findings_at import findings_at


def _found(text: str) -> list[tuple]:
    return findings_at(text, "serve.sh")


def test_flags_after_a_redirection_target_are_the_launch_s() -> None:
    assert (
        _found("python -m sglang.launch_server > server.log --model-path Qwen/Qwen3-8B --port 30000\n") == []
    )


def test_a_flag_after_2_and_1_is_checked_at_its_place() -> None:
    line = "python -m sglang.launch_server --model-path Q 2>&1 --port 30000 --cuda-graph-max-bs 8 > log.txt\n"
    ((code, number, column, token, message),) = findings_at(line, "serve.sh", message=True)
    assert (code, number, column, token) == ("FLG002", 1, line.index("--cuda") + 1, "--cuda-graph-max-bs")
    assert message.startswith("`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23")


def test_the_target_itself_is_not_an_argument() -> None:
    # (were `server.log` an argument, SGLang's parser would refuse it: FLG001/unrecognized)
    assert (
        _found("python -m sglang.launch_server --model-path Q >> server.log 2> err.log --tp-size 2\n") == []
    )
    assert _found('python -m sglang.launch_server --model-path Q > "$LOG" --tp-size\n')[0][0] == "FLG004"
