"""Shell prompts pasted with their command in docs and issue threads: `user@host:dir$ `,
`(env) $ `, `[user@host dir]$ `, a container's `root@<id>:/sgl-workspace# `, and a console
session's bare `# `. The command after the prompt is the launch, read and checked; output lines
are not commands. A block that runs the launcher but yields no launch says so even when other
blocks of the file are read (it was silently passed over)."""

from __future__ import annotations

import pytest
from findings_at import findings_at
from fixture_file import FixtureFile

from speclint.engine import lint_text

LAUNCH = (
    "python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE "
    "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 16"
)


def located(text: str, path: str = "issue.md") -> list[tuple]:
    """(code, line, column, the text the finding points at) of each finding."""
    return findings_at(text, path)


def _draft_tokens_column(line: str) -> int:
    return line.rindex("16") + 1


@pytest.mark.parametrize(
    "prompt",
    [
        "user@host:~$ ",
        "(sglang) $ ",
        "(venv) me@gpu-node-3:~/work/sglang$ ",
        "root@a1b2c3d4e5f6:/sgl-workspace# ",
        "[me@login01 sglang]$ ",
    ],
)
@pytest.mark.parametrize("tag", ["console", "bash", "", "text"])
def test_the_command_after_a_user_and_host_prompt_is_read(prompt: str, tag: str) -> None:
    line = prompt + LAUNCH
    text = f"Steps:\n\n```{tag}\n{line}\n[2026-01-01 10:00:00] INFO server started\n```\n"
    found = located(text)
    assert ("SPD001", 4, _draft_tokens_column(line), "16") in found
    assert not [f for f in found if f[0].startswith(("SLM", "FLG"))]  # output line not a command


def test_a_console_session_s_bare_root_prompt_is_a_prompt_but_a_script_s_is_a_comment() -> None:
    console = f"```console\n# {LAUNCH}\n```\n"
    assert ("SPD001", 2, _draft_tokens_column("# " + LAUNCH), "16") in located(console)
    script = f"```bash\n# {LAUNCH}\necho done\n```\n"
    assert located(script) == []  # a commented-out launch: nothing to check, nothing unread


def test_a_text_block_without_prompts_is_still_not_read_as_commands() -> None:
    text = f"```text\nINFO: {LAUNCH} exited\n```\n"
    assert [f for f in located(text) if f[0] != "SLM005"] == []


def test_a_block_naming_the_launcher_that_yields_no_launch_is_reported_beside_a_read_one() -> None:
    pasted = "Here's what I ran: " + LAUNCH  # (the apostrophe opens a quote: not shell)
    text = (
        "# Serving\n\n"
        f"```bash\n{LAUNCH}\n```\n\n"  # read
        f"```\n{pasted}\n```\n"  # an untagged paste that does not parse: was dropped silently
    )
    found = located(text)
    assert ("SPD001", 4, _draft_tokens_column(LAUNCH), "16") in found
    start = pasted.index("python3") + 1
    assert ("SLM005", 8, start, "python3 -m sglang.launch_server") in found
    message = next(f.message for f in lint_text(text, "issue.md").findings if f.code == "SLM005")
    assert "did not read the command that runs `python3 -m sglang.launch_server`" in message
    assert "nothing in this launch was checked" in message


def test_an_echo_of_the_launcher_beside_a_read_launch_stays_silent() -> None:
    text = f'```bash\necho "then run: {LAUNCH}"\n{LAUNCH}\n```\n'
    assert [f for f in located(text) if f[0] == "SLM005"] == []


def test_zsh_and_starship_prompts_are_prompts() -> None:
    found = FixtureFile("markdown/zsh_prompts.md").findings()
    message = (
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = {n} and runs with {n}, "
        "not 16 (it logs one warning)"
    )
    assert ("SPD001", 6, 187, "16", message.format(n=2)) in found  # `me@MacBook-Pro sglang % `
    assert ("SPD001", 13, 165, "16", message.format(n=3)) in found  # starship's `❯ `
    assert ("SPD001", 14, 165, "16", message.format(n=4)) in found  # zsh's bare `% `
    assert not [f for f in found if f[0].startswith(("SLM", "FLG"))]  # `zsh: killed` is output
