"""A runner handed its arguments through `*args` / `**kwargs` whose values the file gives
(`subprocess.run(*run_args, **run_kwargs)`, `Popen(*cmd_parts, **popen_kwargs)`,
`popen_launch_server(*server, **launch_kwargs)`, a function of the file `def start(*args,
**kwargs): return Popen(*args, **kwargs)`): read as the call they make, each finding at the
token the file wrote (before: each of these launches was passed over in silence)."""

from __future__ import annotations

from click.testing import CliRunner
from fixture_file import FixtureFile

from speclint.cli import main
from speclint.engine import lint_text

FILE = FixtureFile("python/spread_arguments.py")


def test_each_spread_launch_is_checked_at_the_token_it_wrote() -> None:
    assert [f[:4] for f in FILE.findings() if f[0] != "DRF011"] == [
        ("SPD003", 14, 44, "EAGLE"),  # subprocess.run(*run_args, **run_kwargs)
        ("SPD001", 16, 51, "8"),
        ("PAR001", 18, 62, '"0"'),
        ("FLG005", 21, 98, "2x"),  # subprocess.Popen(*cmd_parts, **popen_kwargs)
        ("FLG005", 25, 108, "two"),  # Popen(shell_cmd, **{"shell": True}): run by the shell
        ("FLG005", 33, 91, "one"),  # start(argv, text=True) -> Popen(*args, **kwargs)
        ("FLG005", 36, 113, "many"),  # popen_launch_server(*server, **launch_kwargs)
    ]


def test_the_cli_says_what_sglang_does_with_the_spread_values() -> None:
    out = CliRunner().invoke(main, ["check", "--color", "never", str(FILE.path)]).output
    assert (
        "spread_arguments.py:16:51: SPD001 [warning] `--speculative-num-draft-tokens 8` is ignored: with "
        "`--speculative-eagle-topk 1` SGLang sets speculative_num_draft_tokens to speculative_num_steps + 1 = 4"
    ) in out
    assert (
        "spread_arguments.py:21:98: FLG005 [error] `2x` is not a valid value for `--tp-size`: argparse stops "
        "the launch with 'argument --tp-size: invalid int value: '2x''"
    ) in out
    assert "5 launches in 1 file" in out


def test_the_spread_keywords_are_read_env_and_shell() -> None:
    found = [f for f in FILE.findings() if f[0] == "PAR001"]
    assert [f[:4] for f in found] == [("PAR001", 18, 62, '"0"')]  # run_kwargs' env= is the launch's
    assert "CUDA_VISIBLE_DEVICES" in found[0][4]
    without_shell = FILE.text.replace('**{"shell": True}', '**{"text": True}')
    spans = [(f.code, f.span.line) for f in lint_text(without_shell, str(FILE.path)).findings]
    assert ("FLG005", 25) not in spans  # a string argv without shell=True is not a launch


def test_a_spread_whose_length_is_not_known_reads_what_comes_before_it() -> None:
    text = (
        "import subprocess, sys\n"
        'parts = [["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp-size", "2x"], *sys.argv[1:]]\n'
        "subprocess.run(*parts)\n"
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "spread.py").findings]
    assert found == [("FLG005", 2, 87)]


def test_an_unknown_spread_stays_unknown_and_the_arguments_after_it_are_read() -> None:
    text = (
        "import os, sys\n"
        'known = ["-m", "sglang.launch_server"]\n'
        'os.execl(sys.executable, sys.executable, *known, *sys.argv[1:], "--tp-size", "2x")\n'
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "spread.py").findings]
    assert found == [("SLM004", 3, 50), ("FLG005", 3, 79)]  # no "no --model-path": argv may hold it
