"""`eval $CMD` where the string holds a launch and an unknown part (a command substitution's
output): the launch is read, partly (SLM004 names the unknown part), instead of not at all
(SLM005). A word of unknown text stands for code that may hold any words."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "shell"


def test_eval_of_a_string_with_a_command_substitution_reads_the_launch() -> None:
    path = FIXTURES / "eval_command_substitution.sh"
    found = findings_at(path.read_text(), str(path), message=True)
    assert [(code, line, column) for code, line, column, _, _ in found] == [
        ("FLG001", 11, 5),  # at the flag where `command=` writes it (the runs around `$(seq ...)`)
        ("SLM004", 15, 6),
    ]
    assert "`--tp-szie` is not an SGLang" in found[0][4]
    assert "output of command substitution `$(seq -s ' ' 1 64)`" in found[1][4]


def test_eval_of_unknown_code_alone_is_not_read_as_a_launch() -> None:
    text = "#!/bin/bash\nCMD=$(cat launch.txt)\neval $CMD\npython -m sglang.launch_server --model-path m --tp-szie 2\n"
    # the eval'd code is unknown as a whole: nothing is read from it; the plain launch still is
    assert [(code, line) for code, line, *_ in findings_at(text, "serve.sh")] == [("FLG001", 4)]


def test_eval_of_known_words_beside_an_unknown_one() -> None:
    text = '#!/bin/bash\nCMD="python -m sglang.launch_server --model-path m $EXTRA --tp-szie 2"\neval $CMD\n'
    found = findings_at(text, "serve.sh", message=True)
    assert [code for code, *_ in found] == ["FLG001", "SLM004"]
    assert "$EXTRA" in found[1][4]
