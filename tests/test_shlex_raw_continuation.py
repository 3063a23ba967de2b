"""`shlex.split(r\"\"\"... \\` + line end `...\"\"\")`: in a raw string the backslash stays, and
shlex reads it as escaping the line end, which is then a character of the word (a word of its
own after a blank), never a continuation as in a shell. Before: read as a continuation (the
launch looked right, SGLang's argparse refuses it). A plain string's backslash-newline is
Python's own continuation and is removed before shlex sees it."""

from __future__ import annotations

import shlex

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("python/shlex_raw_continuation.py")


def test_an_escaped_line_end_is_a_word_as_shlex_reads_it() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG010", 8, 84, "\\"),
        ("FLG010", 9, 17, "\\"),
        ("FLG006", 15, 13, "half\\"),
    ]
    assert (
        findings[0][4]
        == "'\\n' is not attached to any flag: argparse stops the launch with 'unrecognized arguments'"
    )
    assert "invalid choice: 'half\\n'" in findings[2][4]  # `--dtype half\` + line end


def test_words_are_shlexs() -> None:
    serve, tight, plain = extract_file(str(FILE.path), FILE.text).launches
    raw = FILE.text.split('r"""', 2)
    expected = shlex.split(raw[1].split('"""')[0])[3:]
    assert (
        [w.text for w in serve.args]
        == expected
        == [
            "--model-path",
            "Qwen/Qwen3-8B",
            "\n",
            "--tp-size",
            "2",
            "\n",
            "--port",
            "30000",
        ]
    )
    assert [w.text for w in tight.args][2:6] == ["--tp-size", "2\n", "--port", "30000\n"]
    assert FILE.at(tight.args[3].span) == (13, 94, "2\\")
    assert [w.text for w in plain.args] == ["--model-path", "Qwen/Qwen3-8B", "--tp-size", "2"]
