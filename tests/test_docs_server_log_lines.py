"""A launch pasted in a `bash` block with the server log it printed (SGLang's `[date time]`
lines, uvicorn's `INFO:     ...`, `INFO 03-02 ...` and Python logging lines): the log lines
are output, blanked, not shell. Before, the block got a `syntax error near [` warning (bash
would refuse to run this script) on the first log line."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/issue_command_and_server_log.md")


def test_the_command_is_read_to_its_end() -> None:
    assert (
        "SPD001",
        7,
        87,
        "8",
        "`--speculative-num-draft-tokens 8` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 3 and runs with 3, not 8 "
        "(it logs one warning)",
    ) in DOC.findings()


def test_the_log_lines_are_not_a_syntax_error() -> None:
    assert not [f for f in DOC.findings() if f[0] in ("SLM001", "SLM005") or f[1] >= 8]
