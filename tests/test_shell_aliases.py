"""A call through an alias (`alias serve='python3 -m sglang.launch_server ...'` then `serve
--model-path ...`) is read as bash reads it: the alias's text, then the rest of the call, each
word at the place it is written. A bash script that calls it without `shopt -s
expand_aliases` gets a warning at the call (SLM006): bash runs no launch there."""

from __future__ import annotations

from findings_at import findings_at

ALIAS = "alias serve='python3 -m sglang.launch_server --host 0.0.0.0'\n"


def findings(text: str, path: str = "serve.sh") -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, path, message=True)


def test_a_call_is_the_alias_text_then_its_own_words():
    text = "#!/bin/bash\nshopt -s expand_aliases\n" + ALIAS + "serve --model-path /m --tp-size 2x\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 4, 33)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_a_flag_in_the_alias_text_is_found_where_the_alias_is_written():
    text = (
        "#!/bin/sh\nalias serve='python3 -m sglang.launch_server --port 3000x'\n"
        "serve --model-path /m\nserve --model-path /n\n"
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 2, 53)]
    assert got[0][4].startswith("`3000x` is not a valid value for `--port`")


def test_a_bash_script_without_expand_aliases_is_warned_at_the_call():
    text = "#!/usr/bin/env bash\n" + ALIAS + "PORT=1\nserve --model-path /m --port $PORT --tp-size 2x\n"
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM006", 4, 1), ("FLG005", 4, 46)]
    assert got[0][4].startswith(
        "bash does not expand the alias `serve` (defined at line 2) in a script: aliases are "
        "expanded only in interactive shells or after `shopt -s expand_aliases`, so `bash serve.sh` "
        "runs a command named `serve`"
    )


def test_no_warning_where_the_shell_expands_aliases():
    call = "serve --model-path /m\n"
    assert findings("#!/bin/sh\n" + ALIAS + call) == []
    assert findings("#!/bin/bash -i\n" + ALIAS + call) == []
    assert findings("```bash\n" + ALIAS + call + "```\n", "README.md") == []


def test_a_double_quoted_alias_is_expanded_where_it_is_defined():
    text = (
        '#!/bin/sh\nTP=2x\nalias serve="python3 -m sglang.launch_server --tp-size $TP"\n'
        "TP=4\nserve --model-path /m\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 3, 56)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_an_alias_no_call_uses_is_read_as_written():
    text = "#!/bin/bash\nalias serve='python3 -m sglang.launch_server --model-path /m --tp-size 2x'\n"
    ((code, line, column, _, _),) = findings(text)
    assert (code, line, column) == ("FLG005", 2, 72)


def test_an_alias_is_not_expanded_inside_its_own_text():
    text = "#!/bin/sh\nalias python3='python3 -u'\npython3 -m sglang.launch_server --model-path /m --tp-size 2x\n"
    ((code, line, column, _, _),) = findings(text)
    assert (code, line, column) == ("FLG005", 3, 59)


def test_after_unalias_the_name_is_the_command_itself():
    """The alias no call read is checked as written (FLG011: its text has no --model-path);
    the later `serve` is some other command, no launch."""
    for removal in ("unalias serve", "unalias -a"):
        text = "#!/bin/sh\n" + ALIAS + removal + "\nserve --model-path /m --tp-size 2x\n"
        assert [(c, line, col) for c, line, col, _, _ in findings(text)] == [("FLG011", 2, 14)]
