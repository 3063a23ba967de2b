"""A launch pasted from a web page with a no-break space between `python3` and `-m`: bash
splits words only at spaces, tabs and line ends, so it looks for one program named
`python3<U+00A0>-m` and the launch never starts. speclint reads no launch there and says why,
naming the character, instead of a bare "reads no launch through `python3 -m`"."""

from __future__ import annotations

from speclint_runs import ROOT, run_speclint

FIXTURE = ROOT / "fixtures" / "unread" / "pasted_nbsp_launcher.sh"


def test_a_no_break_space_in_the_launcher_is_named_at_the_launcher() -> None:
    result = run_speclint("--no-cache", "--output-format", "concise", str(FIXTURE))
    assert result.returncode == 0, result.stderr
    (line,) = [line for line in result.stdout.splitlines() if line.startswith(str(FIXTURE))]
    assert line.startswith(f"{FIXTURE}:3:12: SLM005 [info] ")
    assert (
        "speclint reads no launch through `python3 -m`: it holds U+00A0 NO-BREAK SPACE, not a "
        "space, so bash looks for one program named `python3\\u00a0-m` and fails with 'command "
        "not found'; type a plain space" in line
    )


def test_a_plain_unread_wrapper_gets_no_such_note(tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "serve.sh"
    script.write_text("firejail python3 -m sglang.launch_server --model-path /models/llama\n")
    result = run_speclint("--no-cache", "--output-format", "concise", str(script))
    assert "SLM005" in result.stdout
    assert "NO-BREAK SPACE" not in result.stdout
