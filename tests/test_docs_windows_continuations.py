"""A launch pasted from a Windows terminal: cmd.exe's line-end `^` and PowerShell's line-end
backtick continue the command, and `C:\\Users\\me>` / `PS C:\\work> ` are prompts. Before, an
untagged block read the `^` as an argument (a false FLG010 error, the flags after it
unread) and the backtick as a command substitution; `cmd`/`powershell` blocks were not
read at all. A block that does more than run the launch in plain words stays reported."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

DOC = FixtureFile("markdown/windows_continuations.md")


def _without_drafter(found: list[tuple[str, int, int, str, str]]) -> list[tuple[str, int, int, str, str]]:
    return [f for f in found if f[0] != "DRF011"]  # (depends on the models on this machine)


def test_an_untagged_block_continued_with_carets_is_one_launch() -> None:
    found = _without_drafter(DOC.findings())
    assert not [f for f in found if f[0] == "FLG010"]  # the `^` is no argument
    assert (
        "SPD001",
        8,
        87,
        "16",
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4 and runs with 4, "
        "not 16 (it logs one warning)",
    ) in found


def test_a_powershell_block_with_its_prompt_and_backticks_is_read() -> None:
    found = _without_drafter(DOC.findings())
    assert ("SPD001", 16, 61, "8") in [f[:4] for f in found]
    assert ("FLG003", 16, 63, "--tp") in [f[:4] for f in found]
    assert ("SPD003", 15, 27, "EAGLE") in [f[:4] for f in found]


def test_a_batch_variable_is_an_unknown_value_named_as_one() -> None:
    found = DOC.findings()
    assert (
        "SLM004",
        22,
        57,
        "%MODEL%",
        "launch only partly read: speclint cannot know the value of `--model-path` (a cmd.exe "
        "variable (`%MODEL%`), set outside this block); checks that need this value did not run",
    ) in found
    assert ("SPD001", 24, 34, "32") in [f[:4] for f in found]


def test_a_cmd_block_with_another_command_is_reported_not_read() -> None:
    assert (
        "SLM005",
        31,
        1,
        "python -m sglang.launch_server",
        "speclint did not read the command that runs `python -m sglang.launch_server` in this code "
        "block (a `cmd` block is read only when it holds just the launch, in plain words), so "
        "nothing in this launch was checked",
    ) in DOC.findings()


def test_a_bash_line_ending_in_a_closing_backtick_is_not_a_continuation() -> None:
    text = (
        "```bash\nNP=`nproc`\npython -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE "
        "--speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8\n```\n"
    )
    codes = [(f.code, f.span.line) for f in lint_text(text, "doc.md").findings]
    assert ("SPD001", 3) in codes
    assert not [c for c in codes if c[0] in ("SLM001", "SLM004", "SLM005")]


def test_a_windows_session_keeps_its_output_lines_out() -> None:
    text = (
        "```\nC:\\Users\\me>python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE "
        "--speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8\n"
        "Traceback (most recent call last):\n```\n"
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "issue.md").findings]
    assert ("SPD001", 2, text.splitlines()[1].rindex("8") + 1) in found
    assert not [f for f in found if f[0].startswith(("SLM", "FLG"))]


def test_a_comment_line_in_a_batch_block_is_left_out() -> None:
    assert ("SPD001", 39, 117, "4") in [f[:4] for f in DOC.findings()]


def test_a_variable_set_in_a_windows_block_is_the_launch_s_environment() -> None:
    found = DOC.findings()
    assert (
        "PAR001",
        45,
        26,
        "0",
        "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible (indices 0-0), but tp 2 makes SGLang start 2 "
        "workers on GPU indices up to 1: the workers on indices 1 fail when they select their "
        "device (CUDA: invalid device ordinal)",
    ) in found
    assert not [f for f in found if f[1] > 48]  # `$env:CUDA_VISIBLE_DEVICES = "0,1"` suits --tp-size 2
