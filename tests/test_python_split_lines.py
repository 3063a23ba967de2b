"""A launch written over several lines of a string split into argv in the program
(`shlex.split(TEXT)`, `shlex.split(f"...")`, `cmd.split()`): shlex.split and str.split
read a line end as a blank, so the flags on the later lines are the same command's."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

SPLIT = FixtureFile("python/split_text_lines.py")


def test_flags_on_lines_without_a_backslash_are_the_commands():
    found = SPLIT.findings()
    assert [(c, line, col, text) for c, line, col, text, _ in found] == [
        ("FLG003", 11, 2, "--tp"),  # a hint: `--tp` abbreviates `--tp-size`
        ("FLG001", 12, 2, "--mem-fraction-statc"),  # shlex.split("""...""")
        ("FLG006", 17, 30, "halff"),  # shlex.split(f"""...""")
        ("FLG001", 22, 35, "--speculative-num-stepz"),  # cmd.split()
    ]
    messages = [m for *_, m in found][1:]
    assert "did you mean `--mem-fraction-static`?" in messages[0]
    assert "argument --dtype: invalid choice: 'halff'" in messages[1]


def test_no_broken_continuation_is_said_where_the_text_is_only_split():
    found = lint_text(
        'import shlex, subprocess\nsubprocess.Popen(shlex.split("""python -m sglang.launch_server'
        ' --model-path m\n --tp-size 2\n --tp-size 4"""))\n',
        "run.py",
    ).findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG007", 3, 2)]
    assert "tp_size = 4" in found[0].message


def test_a_line_end_inside_quotes_stays_in_the_word():
    found = lint_text(
        "import shlex, subprocess\n"
        'subprocess.Popen(shlex.split("""python -m sglang.launch_server --model-path m\n'
        ' --chat-template \'a\n --tp-szie 2\'"""))\n',
        "run.py",
    ).findings
    assert [f.code for f in found if f.code.startswith("FLG")] == []  # `--tp-szie 2` is the template's text


def test_a_shell_string_still_ends_the_command_at_a_line_end():
    found = lint_text(
        'import subprocess\nsubprocess.Popen("""python -m sglang.launch_server --model-path m\n'
        ' --tp-szie 2""", shell=True)\n',
        "run.py",
    ).findings
    assert "FLG001" not in [f.code for f in found]  # the shell runs `--tp-szie 2` as a command of its own


def test_str_split_keeps_quotes_as_characters_where_shlex_split_removes_them():
    text = (
        "import shlex, subprocess\n"
        "cmd = 'python3 -m sglang.launch_server --model-path \"/models/llama\" --tp-szie 2'\n"
        "subprocess.run(cmd.split())\n"
        "subprocess.run(shlex.split(cmd))\n"
    )
    split, shlexed = lint_text(text, "run.py").contexts
    assert split.launch.args[1].text == '"/models/llama"'  # str.split: the quotes reach SGLang
    assert shlexed.launch.args[1].text == "/models/llama"
    assert (split.launch.args[1].span.line, split.launch.args[1].span.column) == (2, 53)
    found = lint_text(text, "run.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [
        ("FLG001", 2, 69)
    ]  # (both launches: one finding)


def test_str_split_of_an_unknown_standing_alone_may_be_any_number_of_words():
    text = (
        "import subprocess\nextra = get_extra()\n"
        "subprocess.run(f'python3 -m sglang.launch_server --model-path m {extra} --tp-szie 2'.split())\n"
    )
    (ctx,) = lint_text(text, "run.py").contexts
    assert [w.splat for w in ctx.launch.args] == [False, False, True, False, False]
    assert [f.code for f in lint_text(text, "run.py").findings] == ["SLM004", "FLG001"]


def test_a_hash_starting_a_word_of_shlex_split_text_is_an_argument_not_a_comment():
    text = (
        "import shlex, subprocess\n"
        'subprocess.Popen(shlex.split("python -m sglang.launch_server --model-path m # --tp-szie 2"))\n'
        'subprocess.Popen("python -m sglang.launch_server --model-path m # --tp-szie 2", shell=True)\n'
    )
    found = lint_text(text, "run.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG010", 2, 77), ("FLG001", 2, 79)]
    assert found[0].message.startswith("`#` is not attached to any flag")  # shlex.split: comments off
