"""A launch grown piece by piece: `CMD+=" --flag value"`, `CMD="${CMD} --flag value"` and
`ARGS+=(--flag value)`. A finding about an appended value points at the value where it is
appended, not at the `$CMD` that expands the whole string later."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text


def findings(text: str) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "serve.sh").findings]


def test_each_appended_value_is_pointed_at_where_it_is_appended():
    fixture = FixtureFile("shell/appended_launch_flags.sh")
    got = fixture.findings()
    assert [g[:4] for g in got] == [
        ("FLG005", 6, 18, "2x"),
        ("FLG006", 8, 25, "fp9"),
        ("FLG005", 10, 35, "high"),
        ("FLG005", 15, 18, "2y"),
        ("FLG005", 16, 17, '"30k"'),
    ]
    assert got[0][4].startswith("`2x` is not a valid value for `--tp-size`")
    assert got[1][4].startswith("`fp9` is not a valid value for `--quantization`")
    (fp9,) = [f for f in lint_text(fixture.text, str(fixture.path)).findings if f.code == "FLG006"]
    assert any("when the `then` branch at line 7 runs" in note.message for note in fp9.notes)


def test_a_value_appended_twice_keeps_each_part_where_it_is_written():
    text = (
        'CMD="python3 -m sglang.launch_server"\n'
        'CMD+=" --model-path /m"\n'
        "CMD+=' --tp-size 2x'\n"
        "$CMD --port 30000\n"
    )
    ((code, line, column, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 3, 18)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_an_appended_variable_points_at_where_its_own_value_is_written():
    text = 'TP="--tp-size 2x"\nCMD="python3 -m sglang.launch_server --model-path /m"\nCMD+=" $TP"\n$CMD\n'
    ((code, line, column, _),) = findings(text)
    assert (code, line, column) == ("FLG005", 1, 15)


def test_an_append_to_an_unknown_value_still_says_it_is_unknown():
    text = 'CMD="$(which python3) -m sglang.launch_server --model-path /m"\nCMD+=" --tp-size 2x"\n$CMD\n'
    ((code, line, column, message),) = findings(text)
    assert (code, line, column) == ("SLM005", 1, 26)
    assert "speclint found no launch in it: nothing here was checked" in message
